// Curation from the UI: status, notes, tags and field edits on the selected row, on picked rows or on every row
// the current search + filter shows; undo and redo. The history lives in the main process; this store only
// mirrors whether undo/redo are possible and keeps the list and the matrix in step after each change.
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { CurationChange, CurationOp, CurationStatus } from '../../../shared/api/types'
import { api } from '../lib/api'
import { useWorkspace } from './workspace'

export type Scope = 'row' | 'picked' | 'shown'

export const useCuration = defineStore('curation', () => {
  const ws = useWorkspace()
  /** Picked rows by dataset index (not list position, which changes with the filter). */
  const picked = shallowRef(new Set<number>())
  const canUndo = ref(false)
  const canRedo = ref(false)
  const lastChange = ref('')
  /** Counts curation changes (actions, undo, redo), for views that follow them (the Lint panel's counts). */
  const changes = ref(0)
  /** What undo / redo would do now ("accepted row 9"), for their buttons. */
  const undoLabel = ref<string | null>(null)
  const redoLabel = ref<string | null>(null)
  const tags = ref<string[]>([])
  const busy = ref(false)
  /** The field `e` edits (the last one focused or clicked), and the one whose editor is open. */
  const activeField = ref<string | null>(null)
  const editingField = ref<string | null>(null)

  function selectedIndex(): number | undefined {
    return ws.itemAt(ws.selected)?.index
  }

  function setPicked(next: Set<number>) {
    picked.value = next
  }

  function togglePick(index = selectedIndex()) {
    if (index === undefined) return
    const next = new Set(picked.value)
    if (next.has(index)) next.delete(index)
    else next.add(index)
    setPicked(next)
  }

  /** Shift+j/k: pick the current row and the one moved to, extending the selection. */
  function extend(delta: number) {
    // Synchronous, so keys pressed in quick succession (Shift+j Shift+j a) act on the whole pick.
    const from = selectedIndex()
    const pos = Math.max(0, Math.min(ws.total - 1, ws.selected + delta))
    const to = ws.itemAt(pos)?.index
    void ws.select(pos)
    const next = new Set(picked.value)
    if (from !== undefined) next.add(from)
    if (to !== undefined) next.add(to)
    setPicked(next)
  }

  function clearPicks() {
    setPicked(new Set())
  }

  function note(change: CurationChange) {
    changes.value++
    canUndo.value = change.canUndo
    canRedo.value = change.canRedo
    undoLabel.value = change.undoLabel ?? null
    redoLabel.value = change.redoLabel ?? null
    const what = change.step ? `${change.step === 'undo' ? 'Undid' : 'Redid'}: ${change.label}` : capitalize(change.label)
    lastChange.value = change.merged ? `${what} (merged with changes another PromptLoom window made meanwhile)` : what
  }

  async function run<T>(fn: () => Promise<T>): Promise<T | undefined> {
    // The list shows the first rows of a dataset still being opened: the server's rows are another project's.
    if (ws.firstRowsOf) return undefined
    busy.value = true
    ws.error = null
    try {
      return await fn()
    } catch (e) {
      ws.error = e instanceof Error ? e.message : String(e)
      return undefined
    } finally {
      busy.value = false
    }
  }

  /** Applies `op` to the scope; `row` is the selected row, `picked` the picked rows, `shown` every row the list shows. */
  async function apply(op: CurationOp, scope: Scope) {
    const indices = scope === 'picked' ? [...picked.value] : [selectedIndex()].filter((i): i is number => i !== undefined)
    const target = scope === 'shown' ? { all: true as const, query: ws.query || undefined, filter: ws.hasFilter() ? { ...ws.filter } : undefined } : { indices }
    if (scope !== 'shown' && indices.length === 0) return
    const change = await run(() => api.curation.apply({ target, op }))
    if (!change) return
    note(change)
    if (op.kind === 'tag') tags.value = await api.curation.tags()
    if (scope === 'row' && op.kind !== 'edit' && op.kind !== 'revert') await refreshRow()
    else await ws.refreshRows({ keepSelection: true })
  }

  /** Re-reads the selected row's list item and render after a change that touched only it. */
  async function refreshRow() {
    const pos = ws.selected
    const page = await api.rows.page({ start: pos, count: 1, query: ws.query || undefined, filter: ws.hasFilter() ? { ...ws.filter } : undefined, sort: ws.sort.by !== 'index' || ws.sort.dir !== 'asc' ? { ...ws.sort } : undefined, columns: ws.columns.length ? [...ws.columns] : undefined, variantId: ws.variantId || undefined })
    const fresh = page.items[0]
    if (fresh) ws.patchItems((it) => (it.index === fresh.index ? fresh : it))
    await ws.renderSelected()
  }

  /** a / r / f: on the picked rows when there are any, else a toggle on the selected row. */
  async function setStatus(status: CurationStatus) {
    if (picked.value.size > 0) return apply({ kind: 'status', status }, 'picked')
    return apply({ kind: 'status', status, toggle: true }, 'row')
  }

  async function editField(field: string, value: unknown) {
    await apply({ kind: 'edit', field, value }, 'row')
  }

  async function revertField(field: string) {
    await apply({ kind: 'revert', field }, 'row')
  }

  async function setNote(text: string) {
    await apply({ kind: 'note', note: text }, 'row')
  }

  async function tag(tagName: string, action: 'add' | 'remove', scope: Scope = 'row') {
    if (!tagName.trim()) return
    await apply({ kind: 'tag', tag: tagName.trim(), action }, scope)
  }

  async function undo() {
    const change = await run(() => api.curation.undo())
    if (change === null) lastChange.value = 'Nothing to undo'
    if (!change) return
    note(change)
    await ws.refreshRows({ keepSelection: true })
  }

  async function redo() {
    const change = await run(() => api.curation.redo())
    if (change === null) lastChange.value = 'Nothing to redo'
    if (!change) return
    note(change)
    await ws.refreshRows({ keepSelection: true })
  }

  /** Set while `e` asks which field to edit (no field in focus and none chosen yet). */
  const choosingField = ref(false)

  /**
   * `e`: edits the field whose edit button has focus, else the field chosen last (shown highlighted), else asks
   * which. A row with a single field edits it at once.
   */
  function startEdit() {
    const r = ws.render
    if (!r) return
    const names = Object.keys(r.fields)
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.field
    const field = focused && names.includes(focused) ? focused : activeField.value && names.includes(activeField.value) ? activeField.value : names.length === 1 ? names[0] : null
    if (field) editingField.value = field
    else if (names.length) choosingField.value = true
  }

  function chooseField(field: string | null) {
    choosingField.value = false
    if (field) editingField.value = field
  }

  async function loadTags() {
    tags.value = await api.curation.tags()
  }

  return { picked, canUndo, canRedo, undoLabel, redoLabel, lastChange, changes, tags, busy, activeField, editingField, choosingField, chooseField, startEdit, togglePick, extend, clearPicks, apply, setStatus, editField, revertField, setNote, tag, undo, redo, loadTags }
})

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}
