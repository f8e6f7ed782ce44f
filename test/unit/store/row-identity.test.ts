// Curation identity: each dataset has its own store (two files in one folder never share decisions or template
// edits), decisions follow their rows by id or content when the file is re-sorted, appended to or edited, a row whose
// content changed under a decision is flagged for review, and the shared per-folder store of older versions is
// migrated to the dataset it was saved for and to no other.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'
import { migrate } from '../../../main/services/store/schema'
import { legacyStoreFile } from '../../../main/services/store/store-location'
import { Workspace } from '../../../main/services/workspace/workspace'
import { host } from './helpers'

let dir: string
const open: Workspace[] = []

const CAPITALS =
  ['question,answer', ...Array.from({ length: 12 }, (_, i) => `Capital of country ${i}?,City ${i}`)].join('\n') + '\n'
const MCQ =
  Array.from({ length: 12 }, (_, i) => JSON.stringify({ id: `m${i}`, question: `Question ${i}?`, answer: 'A' })).join(
    '\n'
  ) + '\n'

async function session(file: string): Promise<Workspace> {
  const ws = new Workspace(host, { curation: 'persistent' })
  await ws.session.open(file)
  open.push(ws)
  return ws
}
const statuses = (ws: Workspace, n = 12) => Array.from({ length: n }, (_, i) => ws.curation.state.get(i))
const problems = (ws: Workspace, code: string) => ws.session.current()!.problems.filter((p) => p.code === code)

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-identity-'))
  process.env.PROMPTLOOM_CONFIG_DIR = join(dir, 'config')
  writeFileSync(join(dir, 'capitals.csv'), CAPITALS)
  writeFileSync(join(dir, 'mcq.jsonl'), MCQ)
})
afterEach(() => {
  for (const ws of open.splice(0)) ws.close()
  delete process.env.PROMPTLOOM_CONFIG_DIR
  rmSync(dir, { recursive: true, force: true })
})

describe('one store per dataset', () => {
  it('never shows one file’s decisions on another file of the same folder', async () => {
    const a = await session(join(dir, 'capitals.csv'))
    await a.curation.apply({ indices: [3] }, { kind: 'status', status: 'rejected' })
    await a.curation.apply({ indices: [9] }, { kind: 'status', status: 'accepted' })
    a.close()
    const b = await session(join(dir, 'mcq.jsonl'))
    expect(statuses(b).filter((s) => s !== 'unreviewed')).toEqual([])
    b.close()
    const c = await session(join(dir, 'capitals.csv'))
    expect([c.curation.state.get(3), c.curation.state.get(9)]).toEqual(['rejected', 'accepted'])
  })

  it('keeps template edits with the dataset they were applied to', async () => {
    const a = await session(join(dir, 'capitals.csv'))
    const doc = a.templates.get({ variantId: 'default' })
    expect(
      (await a.templates.apply({ variantId: 'default' }, doc.text.replace('Answer:', 'ONLY FOR CAPITALS:'))).applied
    ).toBe(true)
    a.close()
    const b = await session(join(dir, 'mcq.jsonl'))
    expect(b.templates.get({ variantId: 'default' }).overridden).toBe(false)
    b.close()
    expect((await session(join(dir, 'capitals.csv'))).templates.get({ variantId: 'default' }).text).toContain(
      'ONLY FOR CAPITALS:'
    )
  })

  it('render exports another file’s statuses for no row', async () => {
    const a = await session(join(dir, 'capitals.csv'))
    await a.curation.apply({ indices: [3] }, { kind: 'status', status: 'rejected' })
    a.close()
    let out = ''
    const code = await main(['render', '--config', join(dir, 'mcq.jsonl'), '--model', 'chatml'], {
      stdout: (s) => void (out += s),
      stderr: () => {}
    })
    expect(code).toBe(0)
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string })
    expect(lines).toHaveLength(12)
    expect(lines.every((l) => l.status === 'unreviewed')).toBe(true)
  })
})

describe('decisions follow their rows', () => {
  it('by content when the file is re-sorted and appended to', async () => {
    const a = await session(join(dir, 'capitals.csv'))
    await a.curation.apply({ indices: [3] }, { kind: 'status', status: 'rejected' })
    await a.curation.apply({ indices: [9] }, { kind: 'tag', tag: 'hard', action: 'add' })
    a.close()
    const [head, ...rows] = CAPITALS.trim().split('\n')
    writeFileSync(
      join(dir, 'capitals.csv'),
      [head, 'Capital of country 99?,City 99', ...rows.reverse()].join('\n') + '\n'
    )
    const b = await session(join(dir, 'capitals.csv'))
    // Old row 3 is now at 1 + (11 - 3) = 9, old row 9 at 1 + (11 - 9) = 3.
    expect(b.curation.state.get(9)).toBe('rejected')
    expect(b.curation.state.record(3)?.tags).toEqual(['hard'])
    expect(statuses(b, 13).filter((s) => s !== 'unreviewed')).toHaveLength(1)
    expect(problems(b, 'curation-moved')[0].message).toMatch(/2 saved decisions followed their rows.*content/)
  })

  it('by id when the dataset has an id column, and flags a row whose content changed', async () => {
    const a = await session(join(dir, 'mcq.jsonl'))
    await a.curation.apply({ indices: [2] }, { kind: 'status', status: 'accepted' })
    await a.curation.apply({ indices: [5] }, { kind: 'status', status: 'rejected' })
    a.close()
    const lines = MCQ.trim().split('\n')
    lines[5] = lines[5].replace('Question 5?', 'Question 5, reworded?')
    writeFileSync(join(dir, 'mcq.jsonl'), [...lines.slice(6), ...lines.slice(0, 6)].join('\n') + '\n')
    const b = await session(join(dir, 'mcq.jsonl'))
    // m2 is now row 8, m5 row 11.
    expect(b.curation.state.get(8)).toBe('accepted')
    expect(b.curation.state.get(11)).toBe('flagged')
    expect(b.curation.state.record(11)?.note).toMatch(/content changed in the dataset after it was rejected/)
    expect(problems(b, 'curation-review')[0].message).toContain('row 11')
    expect(problems(b, 'curation-moved')[0].message).toContain('"id"')
  })

  it('flags a row edited in place (no id column) instead of keeping its decision silently', async () => {
    const a = await session(join(dir, 'capitals.csv'))
    await a.curation.apply({ indices: [4] }, { kind: 'status', status: 'accepted' })
    a.close()
    writeFileSync(
      join(dir, 'capitals.csv'),
      CAPITALS.replace('Capital of country 4?', 'What is the capital of country 4?')
    )
    const b = await session(join(dir, 'capitals.csv'))
    expect(b.curation.state.get(4)).toBe('flagged')
    expect(problems(b, 'curation-review')).toHaveLength(1)
  })

  it('keeps a decision whose row left the file, without applying it, and says so', async () => {
    const a = await session(join(dir, 'mcq.jsonl'))
    await a.curation.apply({ indices: [0] }, { kind: 'status', status: 'rejected' })
    a.close()
    writeFileSync(join(dir, 'mcq.jsonl'), MCQ.trim().split('\n').slice(1).join('\n') + '\n')
    const b = await session(join(dir, 'mcq.jsonl'))
    expect(statuses(b, 11).filter((s) => s !== 'unreviewed')).toEqual([])
    expect(problems(b, 'curation-orphaned')[0].message).toMatch(/1 saved decision is for rows no longer in the dataset/)
    b.close()
    writeFileSync(join(dir, 'mcq.jsonl'), MCQ)
    expect((await session(join(dir, 'mcq.jsonl'))).curation.state.get(0)).toBe('rejected')
  })
})

describe('the shared store of older versions', () => {
  /** A version-2 store as older PromptLoom wrote it in `<folder>/.promptloom/project.sqlite`, saved against `file`. */
  function legacyStore(file: string) {
    const f = legacyStoreFile(dir)
    mkdirSync(join(dir, '.promptloom'), { recursive: true })
    const db = new DatabaseSync(f)
    migrate(db, 2)
    db.prepare(
      "INSERT INTO curation (split, idx, status) VALUES ('default', 3, 'rejected'), ('default', 9, 'accepted')"
    ).run()
    db.prepare("INSERT INTO dataset_files (split, file, size, mtime_ms, hash) VALUES ('default', ?, 1, 1, 'x')").run(
      file
    )
    db.close()
    writeFileSync(
      join(dir, '.promptloom', 'overrides.json'),
      JSON.stringify({
        version: 1,
        variants: {
          default: { text: '{"prompt_template": {"type": "PromptTemplate", "template": "LEGACY {question}"}}' }
        },
        models: {}
      })
    )
  }

  it('goes to the dataset it was saved for, with its template edits', async () => {
    legacyStore(join(dir, 'capitals.csv'))
    const a = await session(join(dir, 'capitals.csv'))
    expect([a.curation.state.get(3), a.curation.state.get(9)]).toEqual(['rejected', 'accepted'])
    expect(a.templates.get({ variantId: 'default' }).text).toContain('LEGACY')
    expect(problems(a, 'curation-legacy')[0].message).toContain('was moved to this dataset')
  })

  it('is not applied to another file of the folder, and that file says why', async () => {
    legacyStore(join(dir, 'capitals.csv'))
    const b = await session(join(dir, 'mcq.jsonl'))
    expect(statuses(b).filter((s) => s !== 'unreviewed')).toEqual([])
    expect(b.templates.get({ variantId: 'default' }).overridden).toBe(false)
    expect(problems(b, 'curation-legacy')[0].message).toContain('capitals.csv')
    expect(existsSync(legacyStoreFile(dir))).toBe(true)
    expect(readFileSync(join(dir, 'mcq.jsonl'), 'utf8')).toBe(MCQ)
  })
})
