// The workspace store: the open project, the paged row list, the selected row and its exact-input matrix.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { ProgressEvent, ProjectSummary, RowFilter, RowListItem, RowRender, RowSort } from '../../../shared/api/types'
import { api } from '../lib/api'

const PAGE = 200

/** The template variant chosen last for a project (its folder and config), remembered across openings. */
const variantKey = (p: ProjectSummary) => `promptloom.variant:${p.root}|${p.configFile ?? ''}`
function rememberedVariant(p: ProjectSummary): string | undefined {
  try {
    const id = globalThis.localStorage?.getItem(variantKey(p)) ?? undefined
    return id && p.variants.some((v) => v.id === id) ? id : undefined
  } catch {
    return undefined
  }
}
function rememberVariant(p: ProjectSummary, id: string): void {
  try {
    globalThis.localStorage?.setItem(variantKey(p), id)
  } catch {
    // Storage refused (private mode, quota): the choice is simply not remembered.
  }
}

export const useWorkspace = defineStore('workspace', () => {
  const project = shallowRef<ProjectSummary | null>(null)
  const total = ref(0)
  const query = ref('')
  const pages = shallowRef(new Map<number, RowListItem[]>())
  const selected = ref(0)
  const variantId = ref('')
  const modelIds = ref<string[]>([])
  const render = shallowRef<RowRender | null>(null)
  const rendering = ref(false)
  const error = ref<string | null>(null)
  const progress = ref<ProgressEvent | null>(null)
  const showIce = ref(true)
  /** List view: filter, sort and the dataset columns shown beside the preview. */
  const filter = ref<RowFilter>({})
  const sort = ref<RowSort>({ by: 'index', dir: 'asc' })
  const columns = ref<string[]>([])
  /** Rows in the split, whatever the list shows (the M of "N shown of M"). */
  const splitTotal = ref(0)
  const pending = new Set<number>()
  let renderSeq = 0
  /** What set `error`, so the banner goes when its cause does (a search that failed, then one that works). */
  let errorFrom: 'rows' | null = null
  /** Set by the template editor while it has unsaved edits: renders with them; null keeps the last matrix. */
  const renderHook = shallowRef<((q: { index: number; variantId: string; modelIds: string[]; showIce: boolean }) => Promise<RowRender | null>) | null>(null)

  // Tasks can overlap (a filter scan while a large dataset validates): the bar shows the latest started, so its
  // Cancel stops what the user just asked for, and falls back to the earlier task when that one ends.
  const running = new Map<string, ProgressEvent>()
  api.on('progress', (p) => {
    if (p.finished) running.delete(p.taskId)
    else running.set(p.taskId, p)
    progress.value = [...running.values()].at(-1) ?? null
  })

  /**
   * The dataset file being opened while the list shows its first rows (read before the file is indexed; the
   * server's project is still the previous one): the list is read-only until the open finishes.
   */
  const firstRowsOf = ref<string | null>(null)
  let opening = false
  api.on('dataset.firstRows', (e) => {
    if (!opening) return
    firstRowsOf.value = e.file
    pages.value = new Map([[0, e.items]])
    pending.clear()
    total.value = e.items.length
    selected.value = 0
    render.value = null
  })

  // Background validation of a large dataset ended: final columns and problems, and, when rows were skipped or
  // the saved curation was loaded, row numbers and statuses changed under the pages already fetched.
  api.on('project.changed', (e) => {
    if (!project.value || e.summary.id !== project.value.id) return
    project.value = e.summary
    if (e.rowsChanged) void refreshRows({ keepSelection: true })
  })

  const variant = computed(() => project.value?.variants.find((v) => v.id === variantId.value))
  watch(variantId, (id) => {
    if (project.value && id) rememberVariant(project.value, id)
  })

  async function load(open: () => Promise<ProjectSummary>) {
    error.value = null
    opening = true
    try {
      const p = await open()
      opening = false
      firstRowsOf.value = null
      project.value = p
      variantId.value = rememberedVariant(p) ?? p.variants[0]?.id ?? ''
      modelIds.value = p.models.map((m) => m.id)
      filter.value = {}
      sort.value = { by: 'index', dir: 'asc' }
      columns.value = []
      query.value = ''
      splitTotal.value = 0
      await resetRows()
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e)
      // The open failed: the list goes back to the project that stays open.
      opening = false
      if (firstRowsOf.value) {
        firstRowsOf.value = null
        if (project.value) await resetRows()
      }
    }
  }

  async function resetRows() {
    pages.value = new Map()
    pending.clear()
    total.value = 0
    await fetchPage(0)
    selected.value = 0
    if (total.value > 0) await renderSelected()
    else render.value = null
  }

  async function fetchPage(pageNo: number) {
    if (pages.value.has(pageNo) || pending.has(pageNo) || firstRowsOf.value) return
    pending.add(pageNo)
    try {
      const page = await api.rows.page({
        start: pageNo * PAGE,
        count: PAGE,
        query: query.value || undefined,
        filter: hasFilter() ? { ...filter.value } : undefined,
        sort: sort.value.by !== 'index' || sort.value.dir !== 'asc' ? { ...sort.value } : undefined,
        columns: columns.value.length ? [...columns.value] : undefined,
        variantId: variantId.value || undefined
      })
      total.value = page.total
      if (errorFrom === 'rows') error.value = null
      if (!query.value && !hasFilter()) splitTotal.value = page.total
      const next = new Map(pages.value)
      next.set(pageNo, page.items)
      pages.value = next
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e)
      errorFrom = 'rows'
    } finally {
      pending.delete(pageNo)
    }
  }

  /** Fetches the page holding `pos` ahead of need (the list calls it in its scroll direction); no-op when loaded. */
  function prefetch(pos: number) {
    if (pos >= 0 && pos < total.value) void fetchPage(Math.floor(pos / PAGE))
  }

  function itemAt(pos: number): RowListItem | undefined {
    const page = pages.value.get(Math.floor(pos / PAGE))
    if (!page) {
      void fetchPage(Math.floor(pos / PAGE))
      return undefined
    }
    return page[pos % PAGE]
  }

  async function renderSelected() {
    const item = itemAt(selected.value)
    if (!item || !variantId.value || firstRowsOf.value) return
    const seq = ++renderSeq
    rendering.value = true
    try {
      const q = { index: item.index, variantId: variantId.value, modelIds: modelIds.value, showIce: showIce.value }
      const r = renderHook.value ? await renderHook.value(q) : await api.render.row(q)
      if (seq === renderSeq) render.value = r ?? failedRender(item, 'This row could not be rendered')
    } catch (e) {
      // The pane moves to the row the list selects even when it cannot render: the error is shown in its place.
      if (seq === renderSeq) render.value = failedRender(item, e instanceof Error ? e.message : String(e))
    } finally {
      if (seq === renderSeq) rendering.value = false
    }
  }

  /** The selected row when it cannot render: its number and status, and why, in the pane (never another row). */
  function failedRender(item: RowListItem, message: string): RowRender {
    return { index: item.index, split: item.split, variantId: variantId.value, fields: {}, media: [], status: item.status, promptList: [], models: [], problems: [{ code: 'render', message, severity: 'error' }] }
  }

  async function select(pos: number) {
    if (total.value === 0 || firstRowsOf.value) return
    selected.value = Math.max(0, Math.min(total.value - 1, pos))
    if (!pages.value.has(Math.floor(selected.value / PAGE))) await fetchPage(Math.floor(selected.value / PAGE))
    await renderSelected()
  }

  async function search(q: string) {
    query.value = q
    await resetRows()
  }

  function hasFilter(): boolean {
    return Object.values(filter.value).some((v) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))
  }

  /** Re-reads the list after a change (filter, curation, undo) keeping the selected position where it can. */
  async function refreshRows(opts: { keepSelection?: boolean } = {}) {
    if (firstRowsOf.value) return
    const keep = opts.keepSelection ? selected.value : 0
    pages.value = new Map()
    pending.clear()
    await fetchPage(Math.floor(keep / PAGE))
    if (keep !== 0) await fetchPage(0)
    selected.value = Math.max(0, Math.min(keep, total.value - 1))
    if (total.value > 0) await renderSelected()
    else render.value = null
  }

  /** Replaces list items in the loaded pages (after a curation change) without refetching. */
  function patchItems(fn: (item: RowListItem) => RowListItem | null) {
    let changed = false
    const m = new Map(pages.value)
    for (const [no, page] of m) {
      let copy: RowListItem[] | null = null
      page.forEach((it, k) => {
        const next = fn(it)
        if (next && next !== it) {
          copy ??= page.slice()
          copy[k] = next
        }
      })
      if (copy) {
        m.set(no, copy)
        changed = true
      }
    }
    if (changed) pages.value = m
  }

  return {
    project, total, query, selected, variantId, variant, modelIds, render, rendering, error, progress, showIce,
    filter, sort, columns, splitTotal, firstRowsOf,
    load, itemAt, prefetch, select, renderSelected, search, fetchPage, refreshRows, patchItems, hasFilter,
    renderHook
  }
})
