// Curation through the workspace on the demo project: edited fields change the rendered prompt and the export,
// bulk actions reach every row a filter shows, filters and sort page correctly, models are added and removed,
// and recent items are written atomically.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import { Workspace } from '../../../main/services/workspace/workspace'
import { RecentItems } from '../../../main/services/workspace/recent'
import { demoProjectDir } from '../../../main/services/app-paths'
import { createApi } from '../../../main/api/create-api'
import { demoCopy } from '../store/helpers'

const host: Host = {
  mode: 'browser',
  mediaUrl: (p) => `/media?path=${encodeURIComponent(p)}`,
  pickSavePath: async () => null,
  offerDownload: (p) => `/download/${encodeURIComponent(p)}`,
  emit: () => {}
}

let ws: Workspace
beforeEach(async () => {
  ws = new Workspace(host, { curation: 'memory' })
  await ws.session.open(demoProjectDir())
})

const V = 'demo-mm-string'

describe('edits', () => {
  it('render the edited value, keep the original, and undo restores the prompt', async () => {
    const before = (await ws.render.row({ index: 0, variantId: V, modelIds: ['demo-chatml'] })).models[0].text!
    await ws.curation.apply({ indices: [0] }, { kind: 'edit', field: 'question', value: 'Which shape is BLUE?' })
    const r = await ws.render.row({ index: 0, variantId: V, modelIds: ['demo-chatml'] })
    expect(r.models[0].text).toContain('Which shape is BLUE?')
    expect(r.fields.question).toBe('Which shape is BLUE?')
    expect(r.curation?.edits?.question).toEqual({ original: 'Which shape is blue?', value: 'Which shape is BLUE?' })
    await ws.curation.undo()
    expect((await ws.render.row({ index: 0, variantId: V, modelIds: ['demo-chatml'] })).models[0].text).toBe(before)
  })

  it('reach the export', async () => {
    await ws.curation.apply({ indices: [1] }, { kind: 'edit', field: 'question', value: 'Count the dots.' })
    const lines = []
    for await (const l of ws.exports.lines({ variantId: V, modelIds: ['demo-chatml'], only: 'all', format: 'auto' })) lines.push(l)
    expect(String(lines.find((l) => l.index === 1)!.prompt)).toContain('Count the dots.')
    expect(String(lines.find((l) => l.index === 2)!.prompt)).not.toContain('Count the dots.')
  })

  it('are refused on more than one row', async () => {
    await expect(ws.curation.apply({ indices: [0, 1] }, { kind: 'edit', field: 'q', value: 'x' })).rejects.toThrow(/one row at a time/)
  })
})

describe('bulk actions and filters', () => {
  it('accepts every row a filter shows, and one undo takes it back', async () => {
    await ws.curation.apply({ indices: [0] }, { kind: 'status', status: 'rejected' })
    const change = await ws.curation.apply({ all: true, filter: { status: ['unreviewed'] } }, { kind: 'status', status: 'accepted' })
    expect(change.count).toBe(13)
    expect((await ws.rows.page({ start: 0, count: 50, filter: { status: ['accepted'] } })).total).toBe(13)
    await ws.curation.undo()
    expect((await ws.rows.page({ start: 0, count: 50, filter: { status: ['accepted'] } })).total).toBe(0)
    expect((await ws.rows.page({ start: 0, count: 50, filter: { status: ['rejected'] } })).items.map((i) => i.index)).toEqual([0])
  })

  it('combines search with a filter and tags rows', async () => {
    await ws.curation.apply({ all: true, query: 'audio' }, { kind: 'tag', tag: 'listening', action: 'add' })
    const tagged = await ws.rows.page({ start: 0, count: 50, filter: { tag: 'listening' } })
    expect(tagged.total).toBeGreaterThan(0)
    expect(tagged.items.every((i) => i.tags?.includes('listening'))).toBe(true)
  })

  it('filters by media and sorts by a field, descending', async () => {
    const page = await ws.rows.page({ start: 0, count: 50, filter: { hasMedia: true }, sort: { by: 'field:id', dir: 'desc' } })
    expect(page.total).toBeGreaterThan(0)
    const ids = page.items.map((i) => i.preview.split(' · ')[0])
    expect(ids).toEqual([...ids].sort().reverse())
  })

  it('shows chosen columns as cells and the row warnings', async () => {
    const page = await ws.rows.page({ start: 0, count: 2, columns: ['answer', 'A'] })
    expect(page.items[0].cells).toEqual({ answer: 'C', A: 'Circle' })
    expect(Array.isArray(page.items[0].warnings)).toBe(true)
  })

  it('says so when a bulk target is empty', async () => {
    await expect(ws.curation.apply({ all: true, query: 'no-such-text-anywhere' }, { kind: 'status', status: 'accepted' })).rejects.toThrow(/empty/)
  })
})

describe('models', () => {
  it('adds a library profile and removes it again', async () => {
    const lib = await ws.session.libraryModels()
    const extra = lib.find((m) => !ws.session.current()!.models.some((x) => x.id === m.id))!
    const r = await ws.session.addModel(extra.id)
    expect(r.added).toEqual([extra.id])
    expect(ws.session.current()!.models.map((m) => m.id)).toContain(extra.id)
    const render = await ws.render.row({ index: 0, variantId: V, modelIds: [extra.id] })
    expect(render.models[0].modelId).toBe(extra.id)
    expect(ws.session.removeModel(extra.id).map((m) => m.id)).not.toContain(extra.id)
  })

  it('names the problem when a reference is neither a file nor a profile', async () => {
    const r = await ws.session.addModel('/no/such/model-folder')
    expect(r.added).toEqual([])
    expect(r.problems[0].message).toMatch(/no such file, folder or built-in profile/)
  })
})

describe('recent items', () => {
  it('keeps the newest first without duplicates, in a JSON file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pl-recent-')), 'sub', 'recent.json')
    const r = new RecentItems(file)
    await r.add('/a/data.jsonl', 'data.jsonl')
    await r.add('/b/eval.py', 'eval')
    const list = await r.add('/a/data.jsonl', 'data.jsonl')
    expect(list.map((x) => [x.path, x.kind])).toEqual([
      ['/a/data.jsonl', 'dataset'],
      ['/b/eval.py', 'config']
    ])
    expect(JSON.parse(readFileSync(file, 'utf8')).length).toBe(2)
    expect((await new RecentItems(file).list()).map((x) => x.path)).toEqual(['/a/data.jsonl', '/b/eval.py'])
  })

  it('the API records an opened project and answers the open dialog in browser mode', async () => {
    const api = createApi(host, { recentFile: join(mkdtempSync(join(tmpdir(), 'pl-recent-')), 'recent.json') })
    // A copy: the API saves curation beside the project it opens, and tests never write into the checkout.
    await api.dispatch('project.open', [demoCopy()])
    const r = await api.dispatch('recent.list', [])
    expect(r.ok && (r.value as { kind: string }[])[0].kind).toBe('project')
    const d = await api.dispatch('dialog.openPath', [{ kind: 'file' }])
    expect(d).toMatchObject({ ok: true, value: { path: null, unsupported: expect.stringMatching(/type the path/) } })
  })
})
