// Curation state: statuses, notes, tags and field edits, each undoable and redoable, on single rows and in bulk.
import { describe, expect, it } from 'vitest'
import { CurationState } from '../../../main/services/workspace/curation'

describe('CurationState', () => {
  it('sets a status and undoes it', () => {
    const c = new CurationState()
    c.apply([3], { kind: 'status', status: 'accepted' })
    expect(c.get(3)).toBe('accepted')
    const u = c.undo()
    expect(u).toMatchObject({ step: 'undo', label: 'accepted row 3', canUndo: false, canRedo: true })
    expect(c.get(3)).toBe('unreviewed')
  })

  it('redoes what was undone, and a new action clears the redo stack', () => {
    const c = new CurationState()
    c.apply([1], { kind: 'status', status: 'rejected' })
    c.undo()
    expect(c.redo()).toMatchObject({ step: 'redo', canRedo: false })
    expect(c.get(1)).toBe('rejected')
    c.undo()
    c.apply([2], { kind: 'status', status: 'flagged' })
    expect(c.redo()).toBeNull()
  })

  it('applies a bulk action to many rows as one undo step', () => {
    const c = new CurationState()
    c.apply([0], { kind: 'status', status: 'rejected' })
    const idx = Array.from({ length: 10_000 }, (_, i) => i)
    expect(c.apply(idx, { kind: 'status', status: 'accepted' }).label).toBe('accepted 10,000 rows (0, 1, 2, …)')
    expect(c.counts().accepted).toBe(10_000)
    c.undo()
    expect(c.counts()).toEqual({ unreviewed: 0, accepted: 0, rejected: 1, flagged: 0 })
    expect(c.get(0)).toBe('rejected')
  })

  it('toggles a status off when a single row already has it', () => {
    const c = new CurationState()
    c.apply([5], { kind: 'status', status: 'flagged', toggle: true })
    c.apply([5], { kind: 'status', status: 'flagged', toggle: true })
    expect(c.get(5)).toBe('unreviewed')
    c.undo()
    expect(c.get(5)).toBe('flagged')
  })

  it('keeps notes and tags next to the status', () => {
    const c = new CurationState()
    c.apply([7], { kind: 'status', status: 'accepted' })
    c.apply([7], { kind: 'note', note: 'answer key checked' })
    c.apply([7, 8], { kind: 'tag', tag: 'geometry', action: 'add' })
    expect(c.record(7)).toEqual({ status: 'accepted', note: 'answer key checked', tags: ['geometry'] })
    expect(c.tags()).toEqual(['geometry'])
    c.apply([8], { kind: 'tag', tag: 'geometry', action: 'remove' })
    expect(c.record(8)).toBeUndefined()
  })

  it('edits a field keeping the first original, and renders the edited value', () => {
    const c = new CurationState()
    const original = () => 'What is 2+2?'
    c.apply([0], { kind: 'edit', field: 'question', value: 'What is 2 + 2?' }, original)
    c.apply([0], { kind: 'edit', field: 'question', value: 'What is two plus two?' }, () => 'What is 2 + 2?')
    expect(c.record(0)?.edits).toEqual({ question: { original: 'What is 2+2?', value: 'What is two plus two?' } })
    const row = { question: 'What is 2+2?', answer: '4' }
    expect(c.edited(0, row)).toEqual({ question: 'What is two plus two?', answer: '4' })
    expect(c.edited(1, row)).toBe(row)
  })

  it('drops an edit that returns to the original value', () => {
    const c = new CurationState()
    c.apply([0], { kind: 'edit', field: 'q', value: 'b' }, () => 'a')
    c.apply([0], { kind: 'edit', field: 'q', value: 'a' }, () => 'a')
    expect(c.record(0)).toBeUndefined()
  })

  it('reverts an edit and undoes the revert', () => {
    const c = new CurationState()
    c.apply([0], { kind: 'edit', field: 'q', value: 'b' }, () => 'a')
    c.apply([0], { kind: 'revert', field: 'q' })
    expect(c.edited(0, { q: 'a' })).toEqual({ q: 'a' })
    c.undo()
    expect(c.edited(0, { q: 'a' })).toEqual({ q: 'b' })
  })

  it('bumps its version on every change so caches can tell', () => {
    const c = new CurationState()
    const v0 = c.version
    c.apply([0], { kind: 'status', status: 'accepted' })
    c.undo()
    c.redo()
    expect(c.version).toBe(v0 + 3)
  })
})
