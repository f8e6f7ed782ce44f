// The workspace with its project store: curation made in one session is there in the next, after a clean close
// or none at all, including the undo/redo log; the store sits in the project folder and nowhere else.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { datasetStoreDir } from '../../../main/services/store/store-location'
import type { Workspace } from '../../../main/services/workspace/workspace'
import { demoCopy, openPersistent, tmpDir } from './helpers'

const V = 'demo-mm-string'
let dir: string
const open: Workspace[] = []
const session = async () => {
  const ws = await openPersistent(dir)
  open.push(ws)
  return ws
}

beforeEach(() => {
  dir = demoCopy()
  process.env.PROMPTLOOM_CONFIG_DIR = tmpDir('config')
})
afterEach(() => {
  for (const ws of open.splice(0)) ws.close()
  delete process.env.PROMPTLOOM_CONFIG_DIR
})

async function curate(ws: Workspace) {
  await ws.curation.apply({ indices: [0, 1, 2] }, { kind: 'status', status: 'accepted' })
  await ws.curation.apply({ indices: [3] }, { kind: 'status', status: 'rejected' })
  await ws.curation.apply({ indices: [1] }, { kind: 'note', note: 'check the image' })
  await ws.curation.apply({ indices: [2, 3] }, { kind: 'tag', tag: 'hard', action: 'add' })
  await ws.curation.apply({ indices: [0] }, { kind: 'edit', field: 'question', value: 'Which shape is BLUE?' })
}

describe('project store', () => {
  it("keeps its file in the project folder, in the dataset's own store folder", async () => {
    await session()
    expect(existsSync(join(datasetStoreDir(dir, join(dir, 'data')), 'project.sqlite'))).toBe(true)
    expect(existsSync(join(dir, '.promptloom', 'project.sqlite'))).toBe(false)
  })

  it('brings statuses, notes, tags and edits back after the workspace is closed and reopened', async () => {
    const a = await session()
    await curate(a)
    a.close()
    const b = await session()
    expect([0, 1, 2, 3, 4].map((i) => b.curation.state.get(i))).toEqual(['accepted', 'accepted', 'accepted', 'rejected', 'unreviewed'])
    expect(b.curation.state.record(1)?.note).toBe('check the image')
    expect(b.curation.tags()).toEqual(['hard'])
    expect(b.curation.state.record(0)?.edits).toEqual({ question: { original: 'Which shape is blue?', value: 'Which shape is BLUE?' } })
    expect(b.session.current()!.problems.filter((p) => p.code.startsWith('curation'))).toEqual([])
  })

  it('saves an edit of a field named __proto__ like any other field', async () => {
    const a = await session()
    await a.curation.apply({ indices: [0] }, { kind: 'edit', field: '__proto__', value: 'polluted?' })
    expect(Object.keys(a.curation.state.record(0)?.edits ?? {})).toEqual(['__proto__'])
    a.close()
    const b = await session()
    const edits = b.curation.state.record(0)?.edits ?? {}
    expect(Object.keys(edits)).toEqual(['__proto__'])
    expect(Object.getOwnPropertyDescriptor(edits, '__proto__')?.value).toMatchObject({ value: 'polluted?' })
    const row = b.curation.state.edited(0, { question: 'q' })
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('polluted?')
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('renders, lists and exports what was saved', async () => {
    await curate(await session())
    const b = await session()
    expect((await b.render.row({ index: 0, variantId: V, modelIds: ['demo-chatml'] })).models[0].text).toContain('Which shape is BLUE?')
    const page = await b.rows.page({ start: 0, count: 50, filter: { status: ['accepted'] } })
    expect(page.items.map((r) => r.index)).toEqual([0, 1, 2])
    const lines = []
    for await (const l of b.exports.lines({ variantId: V, modelIds: ['demo-chatml'], only: 'accepted', format: 'auto' })) lines.push(l)
    expect(lines.length).toBe(3)
    expect(JSON.stringify(lines[0])).toContain('Which shape is BLUE?')
  })

  it('has the data in a second connection while the first is still open (no close, as after a crash)', async () => {
    const a = await session()
    await curate(a)
    const b = await session()
    expect(b.curation.state.get(3)).toBe('rejected')
    expect(b.curation.state.record(0)?.edits?.question?.value).toBe('Which shape is BLUE?')
  })

  it('persists the undo and redo log', async () => {
    const a = await session()
    await curate(a)
    await a.curation.undo() // the edit
    await a.curation.undo() // the tags
    a.close()
    const b = await session()
    expect(b.curation.state.record(0)?.edits).toBeUndefined()
    expect(b.curation.tags()).toEqual([])
    const redo = b.curation.redo()
    expect(redo).toMatchObject({ label: 'tagged rows 2 and 3 “hard”', step: 'redo', canUndo: true, canRedo: true })
    b.close()
    const c = await session()
    expect(c.curation.tags()).toEqual(['hard'])
    expect(c.curation.redo()).toMatchObject({ label: 'edited question in row 0', canRedo: false })
    expect(c.curation.state.record(0)?.edits?.question?.value).toBe('Which shape is BLUE?')
    // Undo all the way down, across one more reopen.
    c.close()
    const d = await session()
    let n = 0
    while (d.curation.undo()) n++
    expect(n).toBe(5)
    expect([0, 1, 2, 3].map((i) => d.curation.state.record(i))).toEqual([undefined, undefined, undefined, undefined])
  })

  it('drops the redo log when a new action follows an undo, also on disk', async () => {
    const a = await session()
    await curate(a)
    a.curation.undo()
    await a.curation.apply({ indices: [5] }, { kind: 'status', status: 'flagged' })
    a.close()
    const b = await session()
    expect(b.curation.redo()).toBeNull()
    expect(b.curation.undo()?.label).toBe('flagged row 5')
  })
})
