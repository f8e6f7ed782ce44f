// Where curation goes when the project folder cannot hold it: the user's config folder (and the project's problems
// say so), or PROMPTLOOM_STATE_DIR when set; and the warnings when the dataset changed under saved curation.
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { storeKey } from '../../../main/services/store/store-location'
import type { Workspace } from '../../../main/services/workspace/workspace'
import { demoCopy, openPersistent, tmpDir } from './helpers'

let dir: string
let config: string
const open: Workspace[] = []
const session = async () => {
  const ws = await openPersistent(dir)
  open.push(ws)
  return ws
}
const storeProblems = (ws: Workspace) => ws.session.current()!.problems.filter((p) => p.code.startsWith('curation'))

beforeEach(() => {
  dir = demoCopy()
  config = tmpDir('config')
  process.env.PROMPTLOOM_CONFIG_DIR = config
})
afterEach(() => {
  for (const ws of open.splice(0)) ws.close()
  chmodSync(dir, 0o755)
  delete process.env.PROMPTLOOM_CONFIG_DIR
  delete process.env.PROMPTLOOM_STATE_DIR
})

// Root ignores permission bits, so the read-only case runs for ordinary users only; the file case runs everywhere.
const isRoot = process.getuid?.() === 0
const blockers: [string, boolean, () => void][] = [
  ['the folder is read-only', isRoot, () => chmodSync(dir, 0o555)],
  ['.promptloom is a file', false, () => writeFileSync(join(dir, '.promptloom'), 'not a folder')]
]

describe('store location', () => {
  describe.each(blockers)('when %s', (_name, skip, block) => {
    it.skipIf(skip)('falls back to the config folder and says so', async () => {
    block()
    const a = await session()
    const fallback = join(config, 'projects', storeKey(join(dir, 'data')), 'project.sqlite')
    expect(existsSync(fallback)).toBe(true)
    expect(storeProblems(a)).toEqual([expect.objectContaining({ code: 'curation-store', severity: 'warning', message: expect.stringContaining(fallback) })])
    await a.curation.apply({ indices: [4] }, { kind: 'status', status: 'accepted' })
    a.close()
    expect((await session()).curation.state.get(4)).toBe('accepted')
    })
  })

  it('uses PROMPTLOOM_STATE_DIR when set and leaves the project folder alone', async () => {
    const state = tmpDir('state')
    process.env.PROMPTLOOM_STATE_DIR = state
    const a = await session()
    await a.curation.apply({ indices: [1] }, { kind: 'status', status: 'rejected' })
    expect(existsSync(join(dir, '.promptloom'))).toBe(false)
    expect(existsSync(join(state, storeKey(join(dir, 'data')), 'project.sqlite'))).toBe(true)
    expect(storeProblems(a)).toEqual([])
  })
})

describe('changed dataset', () => {
  const testFile = () => join(dir, 'data', 'test.jsonl')

  it('warns when saved curation was made against another version of the file, until the reviewer works on it', async () => {
    const a = await session()
    await a.curation.apply({ indices: [0] }, { kind: 'status', status: 'accepted' })
    a.close()
    const last = readFileSync(testFile(), 'utf8').trimEnd().split('\n').at(-1)!
    appendFileSync(testFile(), last.replace('"id":"', '"id":"copy-') + '\n')
    const b = await session()
    expect(storeProblems(b)).toEqual([expect.objectContaining({ code: 'curation-stale', severity: 'warning', message: expect.stringContaining('changed (size)') })])
    b.close()
    expect(storeProblems(await session())).toHaveLength(1)
    const c = open.at(-1)!
    await c.curation.apply({ indices: [1] }, { kind: 'status', status: 'accepted' })
    c.close()
    expect(storeProblems(await session())).toEqual([])
  })

  it('names an edited row whose original value changed in the file', async () => {
    const a = await session()
    await a.curation.apply({ indices: [0] }, { kind: 'edit', field: 'question', value: 'Which shape is BLUE?' })
    a.close()
    writeFileSync(testFile(), readFileSync(testFile(), 'utf8').replace('"question":"Which shape is blue?"', '"question":"Which shape is green?"'))
    const problems = storeProblems(await session())
    expect(problems).toContainEqual(expect.objectContaining({ code: 'curation-stale', data: { split: 'test', row: 0, field: 'question' } }))
  })

  it('says nothing when only the modification time changed', async () => {
    const a = await session()
    await a.curation.apply({ indices: [0] }, { kind: 'status', status: 'accepted' })
    a.close()
    writeFileSync(testFile(), readFileSync(testFile()))
    expect(storeProblems(await session())).toEqual([])
  })
})
