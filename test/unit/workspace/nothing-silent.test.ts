// Nothing silent, the pane shows the row acted on, and the papercuts of issue 10: skipped lines counted with their
// places in the project summary and listed/exported; rows with missing media found by the warning filter; a broken
// template draft still renders the row asked for with the error in place; tag: search; a field derived from an
// edited one marked stale; command-line opens in the recent list; render exits 1 when rows were skipped.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApi } from '../../../main/api/create-api'
import { main } from '../../../main/cli/index'
import { demoProjectDir } from '../../../main/services/app-paths'
import { Workspace } from '../../../main/services/workspace/workspace'
import { host } from '../store/helpers'

let dir: string
let file: string
const GOOD = Array.from({ length: 9 }, (_, i) => JSON.stringify({ id: `t${i}`, question: `Question number ${i}?`, image: i === 4 ? 'img/missing.png' : 'img/ok.png' }))
const LINES = [GOOD[0], GOOD[1], '{"id": "broken", ', GOOD[2], GOOD[3], GOOD[4], '[1, 2, 3]', GOOD[5], GOOD[6], GOOD[7], 'not json', GOOD[8]]
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-silent-'))
  mkdirSync(join(dir, 'img'))
  writeFileSync(join(dir, 'img', 'ok.png'), PNG)
  file = join(dir, 'rows.jsonl')
  writeFileSync(file, LINES.join('\n') + '\n')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function opened(): Promise<Workspace> {
  const events: unknown[] = []
  const ws = new Workspace({ ...host, emit: (e, p) => void events.push([e, p]) }, { curation: 'memory' })
  await ws.session.open(file)
  // The media check runs after the open and announces itself with project.changed.
  for (let k = 0; k < 200 && !ws.session.current()!.dataset.media; k++) await new Promise((r) => setTimeout(r, 10))
  return ws
}

describe('skipped lines', () => {
  it('are counted by code in the project summary', async () => {
    const ws = await opened()
    expect(ws.session.current()!.dataset.skipped).toEqual({ total: 3, byCode: { 'invalid-json': 2, 'not-an-object': 1 } })
  })

  it('are listed with their line and byte offset, and exported as JSONL', async () => {
    const ws = await opened()
    const offset = (line: number) => LINES.slice(0, line - 1).reduce((a, l) => a + Buffer.byteLength(l) + 1, 0)
    expect(ws.session.skippedLines().map((l) => [l.line, l.offset])).toEqual([3, 7, 11].map((l) => [l, offset(l)]))
    const r = await ws.exports.skipped({ destination: 'download' })
    expect(r.rows).toBe(3)
    const path = decodeURIComponent(r.downloadUrl!.replace('/download/', ''))
    expect(readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l).line)).toEqual([3, 7, 11])
    rmSync(join(path, '..'), { recursive: true, force: true })
  })

  it('make render exit 1 and say how many', async () => {
    let err = ''
    const code = await main(['render', '--config', file, '--model', 'chatml'], { stdout: () => {}, stderr: (s) => void (err += s) })
    expect(code).toBe(1)
    expect(err).toContain('3 row(s) of the dataset could not be read and were skipped')
  })
})

describe('missing media', () => {
  it('is counted in the summary and found by the "has a warning" filter', async () => {
    const ws = await opened()
    expect(ws.session.current()!.dataset.media).toEqual({ rows: 1, missing: 1, refused: 0, unreadable: 0 })
    const page = await ws.rows.page({ start: 0, count: 50, filter: { warning: 'any' } })
    expect(page.items.map((r) => [r.index, r.warnings])).toEqual([[4, ['media-missing']]])
    expect((await ws.rows.page({ start: 0, count: 50, filter: { warning: 'media' } })).total).toBe(1)
  })
})

describe('a template draft that cannot be read', () => {
  it('still renders the row asked for, with the error in place', async () => {
    const ws = new Workspace(host, { curation: 'memory' })
    await ws.session.open(demoProjectDir())
    const v = ws.session.current()!.variants[0].id
    const r = await ws.templates.preview({ index: 5, variantId: v, modelIds: ['demo-chatml'], edits: [{ target: { variantId: v }, text: '{ broken' }] })
    expect(r.render?.index).toBe(5)
    expect(r.render?.problems[0]).toMatchObject({ code: 'template-draft', severity: 'error' })
    expect(r.diagnostics[0].length).toBeGreaterThan(0)
  })
})

describe('search and edits', () => {
  it('tag:NAME finds the rows with that tag', async () => {
    const ws = await opened()
    await ws.curation.apply({ indices: [2, 5] }, { kind: 'tag', tag: 'hard', action: 'add' })
    await ws.curation.apply({ indices: [3] }, { kind: 'tag', tag: 'easy', action: 'add' })
    expect((await ws.rows.page({ start: 0, count: 50, query: 'tag:hard' })).items.map((r) => r.index)).toEqual([2, 5])
  })

  it('marks a field derived from an edited one as stale, until it is re-derived', async () => {
    const ws = new Workspace(host, { curation: 'memory' })
    await ws.session.open(demoProjectDir())
    const v = ws.session.current()!.variants[0].id
    await ws.curation.apply({ indices: [0] }, { kind: 'edit', field: 'question', value: 'Which shape is BLUE?' })
    const r = await ws.render.row({ index: 0, variantId: v, modelIds: [] })
    expect(r.problems).toContainEqual(expect.objectContaining({ code: 'derived-stale', data: { field: 'content', from: 'question' } }))
    const content = String(r.fields.content).split('Which shape is blue?').join('Which shape is BLUE?')
    await ws.curation.apply({ indices: [0] }, { kind: 'edit', field: 'content', value: content })
    expect((await ws.render.row({ index: 0, variantId: v, modelIds: [] })).problems.some((p) => p.code === 'derived-stale')).toBe(false)
  })
})

describe('recent items', () => {
  it('include the path opened from the command line', async () => {
    const recentFile = join(dir, 'recent.json')
    const api = createApi({ ...host }, { startPath: file, recentFile })
    await api.openStart()
    const r = await api.dispatch('recent.list', [])
    expect(r.ok && (r.value as { path: string }[]).map((x) => x.path)).toEqual([file])
  })
})
