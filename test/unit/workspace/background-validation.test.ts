// A project opened with validation in the background: usable at once on its index, validated with progress
// and cancel, then updated (skipped rows, problems, columns) by a 'project.changed' event.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import type { ApiEvents, ProgressEvent, ProjectChangedEvent } from '../../../shared/api/types'
import { Workspace } from '../../../main/services/workspace/workspace'

/** 200 rows; the lines at `bad` (0-based) are not JSON. */
function dataset(bad: number[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-bgv-'))
  const file = join(dir, 'rows.jsonl')
  const lines = Array.from({ length: 200 }, (_, i) => (bad.includes(i) ? '{"question": broken' : JSON.stringify({ id: i, question: `q${i}`, answer: 'A' })))
  writeFileSync(file, lines.join('\n') + '\n')
  return file
}

/** `cancel`: the validation task is cancelled on its first progress event, so the interim state lasts. */
function workspace(curation: 'memory' | 'persistent' = 'memory', cancel = false) {
  const events: Array<{ event: keyof ApiEvents; payload: unknown }> = []
  let changed: (e: ProjectChangedEvent) => void = () => undefined
  const next = new Promise<ProjectChangedEvent>((r) => (changed = r))
  const host: Host = {
    mode: 'browser',
    mediaUrl: (p) => p,
    pickSavePath: async () => null,
    emit: (event, payload) => {
      events.push({ event, payload })
      const p = payload as ProgressEvent
      if (cancel && event === 'progress' && p.label === 'Validating rows' && !p.finished) ws.tasks.cancel(p.taskId)
      if (event === 'project.changed') changed(payload as ProjectChangedEvent)
    }
  }
  // Every file is deferred, however small, so the interim state can be tested.
  const ws: Workspace = new Workspace(host, { curation, deferValidationAbove: 0 })
  return { ws, events, changed: next }
}

describe('background validation', () => {
  it('opens on the index alone, every indexed row counted and validation running', async () => {
    const { ws } = workspace()
    const s = await ws.session.open(dataset([5, 50]))
    expect(s.dataset.validation).toBe('running')
    expect(s.dataset.splits[0].rowCount).toBe(200)
    expect(s.dataset.columns.map((c) => c.name)).toEqual(['id', 'question', 'answer'])
  })

  it('publishes the validated summary: rows skipped, problems listed, row numbers changed', async () => {
    const { ws, changed } = workspace()
    const s = await ws.session.open(dataset([5, 50]))
    const e = await changed
    expect(e.summary.id).toBe(s.id)
    expect(e.rowsChanged).toBe(true)
    expect(e.summary.dataset.validation).toBeUndefined()
    expect(e.summary.dataset.splits[0].rowCount).toBe(198)
    expect(e.summary.problems.filter((p) => p.code === 'invalid-json').map((p) => p.range?.start.line)).toEqual([6, 51])
    expect(ws.session.current()).toBe(e.summary)
  })

  it('reports progress as "Validating rows" with row counts, finished at the end', async () => {
    const { ws, events, changed } = workspace()
    await ws.session.open(dataset([]))
    await changed
    const v = events.filter((e) => e.event === 'progress').map((e) => e.payload as ProgressEvent).filter((p) => p.label === 'Validating rows')
    expect(v.at(-1)).toMatchObject({ done: 200, total: 200, finished: true })
  })

  it('lists an unreadable row as an error row before validation, and renders it as an error', async () => {
    const { ws, changed } = workspace('memory', true)
    const s = await ws.session.open(dataset([5]))
    await changed
    const page = await ws.rows.page({ start: 0, count: 10 })
    expect(page.items.map((i) => i.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    const r = await ws.render.row({ index: 5, variantId: s.variants[0].id, modelIds: [] })
    expect(r.problems[0]).toMatchObject({ code: 'invalid-json', severity: 'error' })
  })

  it('says so when validation is cancelled, keeping every indexed row', async () => {
    const { ws, changed } = workspace('memory', true)
    await ws.session.open(dataset([5]))
    const e = await changed
    expect(e.summary.dataset.validation).toBe('cancelled')
    expect(e.summary.dataset.splits[0].rowCount).toBe(200)
    expect(e.summary.problems[0]).toMatchObject({ code: 'validation-incomplete', severity: 'warning' })
  })

  it('applies a status set before validation ended to the same row after it', async () => {
    const { ws, changed } = workspace()
    await ws.session.open(dataset([5, 50]))
    await ws.curation.apply({ indices: [100] }, { kind: 'status', status: 'accepted' }) // row 100 before validation is row 98 after
    await changed
    expect(ws.curation.state.get(98)).toBe('accepted')
    expect((await ws.rows.page({ start: 98, count: 1 })).items[0].preview).toContain('q100')
  })

  it('refuses a status on a row that validation skipped', async () => {
    const { ws } = workspace()
    await ws.session.open(dataset([5]))
    await expect(ws.curation.apply({ indices: [5] }, { kind: 'status', status: 'accepted' })).rejects.toThrow(/skipped/)
  })

  it('opens the project store once row numbers are final', async () => {
    const { ws, changed } = workspace('persistent')
    await ws.session.open(dataset([5]))
    const e = await changed
    expect(e.rowsChanged).toBe(true)
    await ws.curation.apply({ indices: [0] }, { kind: 'status', status: 'accepted' })
    expect(ws.curation.state.get(0)).toBe('accepted')
    ws.close()
  })

  it('stops the previous project\'s validation when another project opens', async () => {
    const { ws, events } = workspace()
    await ws.session.open(dataset([5]))
    const second = await ws.session.open(dataset([]))
    await new Promise((r) => setTimeout(r, 300))
    const changes = events.filter((e) => e.event === 'project.changed').map((e) => (e.payload as ProjectChangedEvent).summary.id)
    expect(changes).toEqual([second.id])
  })
})
