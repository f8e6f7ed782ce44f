// Curation decisions per row (status, note, tags, edited fields) with undo and redo, kept in the main process
// behind the API. Reads come from memory; every change goes through a CurationLog first (in memory here, SQLite in
// main/services/store), and memory changes only once the log has accepted it, so an acknowledged change is durable.
// Records are immutable: a change swaps whole records, so history entries share them instead of copying.
import type { CurationChange, CurationOp, CurationStatus, RowCuration } from '../../../shared/api/types'

/** The row with its edited fields replaced: the same object when nothing is edited. */
export function applyEdits(row: Record<string, unknown>, edits: RowCuration['edits']): Record<string, unknown> {
  if (!edits) return row
  const out = { ...row }
  // defineProperty, not `out[k] =`: a field named __proto__ is a field, not the object's prototype.
  for (const [k, e] of Object.entries(edits)) Object.defineProperty(out, k, { value: e.value, enumerable: true, writable: true, configurable: true })
  return out
}

/** What the workspace (and later a persistent store) needs from curation state. */
export interface CurationStore {
  get(index: number): CurationStatus
  record(index: number): RowCuration | undefined
  apply(indices: ArrayLike<number>, op: CurationOp, original?: (index: number, field: string) => unknown): CurationChange
  undo(): CurationChange | null
  redo(): CurationChange | null
  /** The row as it renders and exports: edited fields replaced. Returns the same object when nothing is edited. */
  edited(index: number, row: Record<string, unknown>): Record<string, unknown>
  /** Every tag in use, for the filter menu. */
  tags(): string[]
  /** Bumped on every change, so caches that depend on curation know when to drop. */
  readonly version: number
}

/**
 * The part of a record an action changes. A store writes only that part (a status, one tag, one edited field), so
 * two instances working on one project merge their changes instead of overwriting each other's whole records.
 */
export type CurationAspect =
  | { kind: 'status' }
  | { kind: 'note' }
  | { kind: 'tag'; tag: string }
  | { kind: 'edit'; field: string }

/** One undoable action: the rows it touched with their records before and after (undefined = no record). */
export interface CurationStep {
  label: string
  indices: Uint32Array
  before: (RowCuration | undefined)[]
  after: (RowCuration | undefined)[]
  /** What the step changed; absent (steps saved by older versions): whole records. */
  aspect?: CurationAspect
}

/**
 * Where changes are made durable. Each call either commits (records and history together) or throws and leaves
 * everything as it was; the state updates its memory only after the call returns.
 */
export interface CurationLog {
  /** Writes the step's `after` records, pushes it on the undo log and clears the redo log. */
  push(step: CurationStep): void
  /** Takes the newest undoable step and writes its `before` records; null when there is nothing to undo. */
  undo(): CurationStep | null
  /** Takes the step undone last and writes its `after` records again; null when there is nothing to redo. */
  redo(): CurationStep | null
  canUndo(): boolean
  canRedo(): boolean
  /** Forgets the history (not the records). */
  clear(): void
  /** The label of the step undo (or redo) would apply next, so the UI can say what it will do. */
  peekUndo(): string | null
  peekRedo(): string | null
  /**
   * Stores shared with other writers (another app instance on the same project): true when the last call found
   * changes others committed since this log last looked, or (`peek`) when there are such changes now. The state
   * then reloads every record from `load()`, so memory holds both writers' changes.
   */
  takeExternal?(): boolean
  changedByOthers?(): boolean
  load?(): Map<number, RowCuration>
}

export const MAX_HISTORY = 200
const STATUS_VERB: Record<CurationStatus, string> = { accepted: 'accepted', rejected: 'rejected', flagged: 'flagged', unreviewed: 'cleared the status of' }

function isEmpty(r: RowCuration): boolean {
  return r.status === 'unreviewed' && !r.note && !r.tags?.length && !(r.edits && Object.keys(r.edits).length)
}

const NAMED_ROWS = 5

/** Rows as a toast names them: "row 9", "rows 3, 5 and 9", "1,204 rows (3, 5, 9, …)". Numbers are row indices. */
export function rowsText(idx: ArrayLike<number>): string {
  const n = idx.length
  if (n === 1) return `row ${idx[0]}`
  const first = Array.from({ length: Math.min(n, NAMED_ROWS) }, (_, k) => idx[k])
  if (n <= NAMED_ROWS) return `rows ${first.slice(0, -1).join(', ')} and ${first.at(-1)}`
  return `${n.toLocaleString('en-US')} rows (${first.slice(0, 3).join(', ')}, …)`
}

/** The first rows an action touched, for the UI to point at. */
const CHANGE_ROWS = 20

/** The history kept in memory only (tests, or when no project store could be opened). */
export class MemoryLog implements CurationLog {
  private undoStack: CurationStep[] = []
  private redoStack: CurationStep[] = []

  push(step: CurationStep) {
    this.undoStack.push(step)
    if (this.undoStack.length > MAX_HISTORY) this.undoStack.shift()
    this.redoStack = []
  }

  undo(): CurationStep | null {
    const step = this.undoStack.pop()
    if (step) this.redoStack.push(step)
    return step ?? null
  }

  redo(): CurationStep | null {
    const step = this.redoStack.pop()
    if (step) this.undoStack.push(step)
    return step ?? null
  }

  canUndo() {
    return this.undoStack.length > 0
  }

  canRedo() {
    return this.redoStack.length > 0
  }

  clear() {
    this.undoStack = []
    this.redoStack = []
  }

  peekUndo() {
    return this.undoStack.at(-1)?.label ?? null
  }

  peekRedo() {
    return this.redoStack.at(-1)?.label ?? null
  }
}

export class CurationState implements CurationStore {
  version = 0
  /** Whether the last change found (and merged) another writer's changes. */
  private lastMerged = false

  constructor(
    private readonly log: CurationLog = new MemoryLog(),
    private records = new Map<number, RowCuration>()
  ) {}

  /**
   * Picks up what another writer committed to a shared store since this state last looked. Returns true when the
   * records were reloaded (lists and renders should be read again).
   */
  refresh(): boolean {
    if (!this.log.changedByOthers?.() || !this.log.load) return false
    this.records = this.log.load()
    this.version++
    return true
  }

  /** After a write: reload when the store found another writer's changes (memory alone would miss them). */
  private merged(): boolean {
    if (!this.log.takeExternal?.() || !this.log.load) return false
    this.records = this.log.load()
    return true
  }

  get(index: number): CurationStatus {
    return this.records.get(index)?.status ?? 'unreviewed'
  }

  record(index: number): RowCuration | undefined {
    return this.records.get(index)
  }

  /** Forgets everything (another project was opened). */
  reset() {
    this.records.clear()
    this.log.clear()
    this.version++
  }

  apply(indices: ArrayLike<number>, op: CurationOp, original?: (index: number, field: string) => unknown): CurationChange {
    const idx = unique(indices)
    // A toggle on one row clears a status the row already has (pressing `a` twice undoes the accept).
    const effective: CurationOp =
      op.kind === 'status' && op.toggle && idx.length === 1 && this.get(idx[0]) === op.status ? { kind: 'status', status: 'unreviewed' } : op
    // Grown by push: `new Array(n)` of a million is a slow dictionary-mode array in V8.
    const before: (RowCuration | undefined)[] = []
    const after: (RowCuration | undefined)[] = []
    // Only an edit depends on more than the old record; for the rest, rows that shared a record share the new one,
    // which keeps a bulk action on a million rows to a handful of objects (and of distinct rows in the store).
    const memo = effective.kind === 'edit' ? null : new Map<RowCuration | undefined, RowCuration | undefined>()
    for (let k = 0; k < idx.length; k++) {
      const i = idx[k]
      const old = this.records.get(i)
      before.push(old)
      if (memo?.has(old)) {
        after.push(memo.get(old))
        continue
      }
      const next = transform(old ?? { status: 'unreviewed' }, effective, () => original?.(i, (effective as { field: string }).field))
      const rec = isEmpty(next) ? undefined : next
      after.push(rec)
      memo?.set(old, rec)
    }
    const step: CurationStep = {
      label: labelOf(effective, idx),
      indices: idx,
      before,
      after,
      aspect: aspectOf(effective)
    }
    this.log.push(step)
    this.putAll(step.indices, after)
    return this.change(step)
  }

  undo(): CurationChange | null {
    const step = this.log.undo()
    if (!step) return null
    this.putAll(step.indices, step.before)
    return { ...this.change(step), step: 'undo' }
  }

  redo(): CurationChange | null {
    const step = this.log.redo()
    if (!step) return null
    this.putAll(step.indices, step.after)
    return { ...this.change(step), step: 'redo' }
  }

  edited(index: number, row: Record<string, unknown>): Record<string, unknown> {
    return applyEdits(row, this.records.get(index)?.edits)
  }

  /** Rows with at least one edited field. */
  editedRows(): number[] {
    const out: number[] = []
    for (const [i, r] of this.records) if (r.edits) out.push(i)
    return out.sort((a, b) => a - b)
  }

  /** Every tag in use, for the filter menu. */
  tags(): string[] {
    const s = new Set<string>()
    for (const r of this.records.values()) for (const t of r.tags ?? []) s.add(t)
    return [...s].sort()
  }

  counts(): Record<CurationStatus, number> {
    const c: Record<CurationStatus, number> = { unreviewed: 0, accepted: 0, rejected: 0, flagged: 0 }
    for (const r of this.records.values()) if (r.status !== 'unreviewed') c[r.status]++
    return c
  }

  private putAll(indices: Uint32Array, recs: (RowCuration | undefined)[]) {
    this.version++
    this.lastMerged = this.merged()
    if (this.lastMerged) return
    for (let k = 0; k < indices.length; k++) {
      const r = recs[k]
      if (r) this.records.set(indices[k], r)
      else this.records.delete(indices[k])
    }
  }

  private change(step: CurationStep): CurationChange {
    const out: CurationChange = {
      label: step.label,
      count: step.indices.length,
      rows: Array.from(step.indices.subarray(0, CHANGE_ROWS)),
      canUndo: this.log.canUndo(),
      canRedo: this.log.canRedo(),
      undoLabel: this.log.peekUndo(),
      redoLabel: this.log.peekRedo()
    }
    if (this.lastMerged) out.merged = true
    return out
  }

  /** What undo and redo would do now, for the UI's buttons. */
  history(): Pick<CurationChange, 'canUndo' | 'canRedo' | 'undoLabel' | 'redoLabel'> {
    return {
      canUndo: this.log.canUndo(),
      canRedo: this.log.canRedo(),
      undoLabel: this.log.peekUndo(),
      redoLabel: this.log.peekRedo()
    }
  }
}

function transform(r: RowCuration, op: CurationOp, original: () => unknown): RowCuration {
  switch (op.kind) {
    case 'status':
      return { ...r, status: op.status }
    case 'note':
      return { ...r, note: op.note.trim() ? op.note : undefined }
    case 'tag': {
      const tags = new Set(r.tags ?? [])
      if (op.action === 'add') tags.add(op.tag)
      else tags.delete(op.tag)
      return { ...r, tags: tags.size ? [...tags].sort() : undefined }
    }
    case 'edit': {
      const edits = fieldMap(r.edits)
      // The original is the dataset's value, taken once: editing an edit keeps the first original.
      const orig = field(edits, op.field)?.original ?? original()
      if (sameValue(orig, op.value)) delete edits[op.field]
      else edits[op.field] = { original: orig, value: op.value }
      return { ...r, edits: Object.keys(edits).length ? edits : undefined }
    }
    case 'revert': {
      const edits = fieldMap(r.edits)
      delete edits[op.field]
      return { ...r, edits: Object.keys(edits).length ? edits : undefined }
    }
  }
}

/** The indices without repeats, in first-seen order. Ascending input (bulk actions, filters) needs no Set. */
function unique(indices: ArrayLike<number>): Uint32Array {
  let ascending = true
  for (let k = 1; k < indices.length && ascending; k++) ascending = indices[k] > indices[k - 1]
  return ascending ? Uint32Array.from(indices) : Uint32Array.from(new Set(Array.from(indices)))
}

/**
 * A copy of the edits keyed by field name with no prototype, so a dataset field named `__proto__` (or
 * `constructor`) is stored as an edit like any other instead of silently changing the object's prototype.
 */
function fieldMap(edits: RowCuration['edits']): Record<string, { original: unknown; value: unknown }> {
  const out: Record<string, { original: unknown; value: unknown }> = Object.create(null)
  for (const [k, e] of Object.entries(edits ?? {})) out[k] = e
  return out
}

function field(edits: Record<string, { original: unknown; value: unknown }>, name: string) {
  return Object.hasOwn(edits, name) ? edits[name] : undefined
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}

function aspectOf(op: CurationOp): CurationAspect {
  switch (op.kind) {
    case 'status':
    case 'note':
      return { kind: op.kind }
    case 'tag':
      return { kind: 'tag', tag: op.tag }
    case 'edit':
    case 'revert':
      return { kind: 'edit', field: op.field }
  }
}

function labelOf(op: CurationOp, idx: Uint32Array): string {
  const rows = rowsText(idx)
  switch (op.kind) {
    case 'status':
      return `${STATUS_VERB[op.status]} ${rows}`
    case 'note':
      return op.note.trim() ? `noted ${rows}` : `cleared the note of ${rows}`
    case 'tag':
      return `${op.action === 'add' ? 'tagged' : 'untagged'} ${rows} “${op.tag}”`
    case 'edit':
      return `edited ${op.field} in ${rows}`
    case 'revert':
      return `reverted ${op.field} in ${rows}`
  }
}
