// Step 4: the reviewers' decisions. Statuses, tags, notes and field edits on explicit rows or on every row a
// search + filter shows, undoable; written to the project store once row numbers are final. Edited fields are
// what renders and exports (render-service and export-service read rows through the curation state).
import type { CurationChange, CurationOp, RowFilter } from '../../../shared/api/types'
import type { CurationState } from './curation'
import type { ProjectSession } from './project-session'
import type { RowQuery } from './row-query'

export class CurationService {
  constructor(
    private session: ProjectSession,
    private rows: RowQuery
  ) {}

  /** The open project's curation state (statuses, tags, notes and edits by row). */
  get state(): CurationState {
    return this.session.curation
  }

  /** Every tag in use, for the tag picker. */
  tags(): string[] {
    return this.state.tags()
  }

  /** One curation action on explicit rows or on every row a query + filter shows; undoable. */
  async apply(target: { indices: number[] } | { query?: string; filter?: RowFilter; all: true }, op: CurationOp): Promise<CurationChange> {
    const p = this.session.need()
    if ('indices' in target) target = { indices: await this.session.finalIndices(p, target.indices) }
    else await p.ready
    const n = this.session.testRows(p)
    let indices: ArrayLike<number>
    if ('indices' in target) {
      const bad = target.indices.find((i) => i >= n)
      if (bad !== undefined) throw new Error(`row ${bad} is out of range (the split has ${n} rows)`)
      indices = target.indices
    } else {
      indices = this.rows.needsScan(target) ? await this.rows.matches(p, target) : Uint32Array.from({ length: n }, (_, i) => i)
    }
    if (indices.length === 0) throw new Error('no rows to change: the selection or filter is empty')
    if ((op.kind === 'edit' || op.kind === 'revert') && indices.length !== 1) throw new Error(`${op.kind}: a field is edited one row at a time`)
    const originals = new Map<number, Record<string, unknown>>()
    if (op.kind === 'edit') {
      const r = await p.dataset.readRow(p.testSplit, indices[0])
      if (r) originals.set(indices[0], r.value)
    }
    const change = this.state.apply(indices, op, (i, field) => originals.get(i)?.[field])
    // Retrievers that read the whole split cached prepared rows; an edit changes them.
    if (op.kind === 'edit' || op.kind === 'revert') p.prepared.clear()
    return change
  }

  // Undo and redo need not wait for validation: writes do, so the history holds only final row numbers.
  undo(): CurationChange | null {
    this.session.need().prepared.clear()
    return this.state.undo()
  }

  redo(): CurationChange | null {
    this.session.need().prepared.clear()
    return this.state.redo()
  }
}
