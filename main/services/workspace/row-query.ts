// Step 2: the row list. A page of the open project's test split as list items (preview, curation, field and media
// warnings, length), and the rows a search + filter + sort shows: one scan of the split per distinct request,
// cached, with progress and cancel. Curation's bulk actions act on the same row sets.
import type { RowFilter, RowListItem, RowPage, RowSort } from '../../../shared/api/types'
import { contentPlainText } from '../../../shared/conversation'
import { describeMediaValue } from '../../../shared/media/media-value'
import type { LintSession } from '../lint/lint-session'
import type { LoadedProject } from './project-load'
import type { ProjectSession } from './project-session'
import { compileRowFilter, filterIsEmpty, filterReadsCuration, inputColumnsOf, rowFacts, scanRows, sortKeyOf } from './row-filter'
import { findMediaRefs, refLabel } from './row-media'
import { compileRowQuery } from './search-query'
import type { Tasks } from './tasks'
import { readsInputColumns } from './variants'

const PREVIEW_CHARS = 160

export interface RowsQuery {
  start: number
  count: number
  query?: string
  filter?: RowFilter
  sort?: RowSort
  columns?: string[]
  variantId?: string
}

/** What selects rows: a search, a filter, a sort (and the variant whose input columns the warnings read). */
export type RowSelection = { query?: string; filter?: RowFilter; sort?: RowSort; variantId?: string }

export class RowQuery {
  /** Scans in progress by selection key. */
  private scans = new Map<string, { project: LoadedProject; matches: Promise<Uint32Array> }>()

  constructor(
    private session: ProjectSession,
    private tasks: Tasks,
    private lint: LintSession
  ) {}

  async page(q: RowsQuery): Promise<RowPage> {
    const p = this.session.need()
    // Another PromptLoom on the same store may have written since: its changes show on the next read.
    this.session.curation.refresh()
    const inputs = this.inputColumns(p, q.variantId)
    const item = (index: number, value: Record<string, unknown>) => this.listItem(p, index, this.session.curation.edited(index, value), inputs, q.columns)
    if (!this.needsScan(q)) {
      const total = this.session.testRows(p)
      const recs = q.start < total ? await p.dataset.readRows(p.testSplit, q.start, Math.min(q.count, total - q.start)) : []
      return { total, start: q.start, items: recs.map((r) => item(r.index, r.value)) }
    }
    const matches = await this.matches(p, q)
    const slice = Array.from(matches.subarray(q.start, q.start + q.count))
    const items: RowListItem[] = []
    for (const i of slice) {
      const r = await p.dataset.readRow(p.testSplit, i)
      if (r) items.push(item(r.index, r.value))
    }
    return { total: matches.length, start: q.start, items }
  }

  /** Whether the selection needs a scan of the split (anything but every row in file order). */
  needsScan(q: RowSelection): boolean {
    return !!q.query?.trim() || !filterIsEmpty(q.filter) || !!(q.sort && (q.sort.by !== 'index' || q.sort.dir === 'desc'))
  }

  /** The columns the variant's template reads (for warnings and prompt length), or null when it names none. */
  private inputColumns(p: LoadedProject, variantId?: string): (row: Record<string, unknown>) => string[] | null {
    const v = p.variants.find((x) => x.id === variantId) ?? p.variants[0]
    const named = Array.isArray(v?.reader_cfg?.input_columns) && readsInputColumns(v)
    return (row) => (named ? inputColumnsOf(v.reader_cfg, row) : null)
  }

  /**
   * Row indices a query + filter + sort shows, in order. One scan of the split per distinct request (cached;
   * redone after a curation change only when the request reads curation), with progress and cancel.
   */
  async matches(p: LoadedProject, q: RowSelection): Promise<Uint32Array> {
    const query = q.query?.trim() ?? ''
    const key = JSON.stringify([query, q.filter ?? null, q.sort ?? null, q.variantId ?? null, filterReadsCuration(q.filter, q.sort, query) || q.filter?.lint ? this.session.curation.version : 0, q.filter?.lint ? this.lint.version : 0])
    if (p.search?.key === key) return p.search.matches
    // The list asks for several pages of one selection at once (the first page and the ones in view): they share
    // one scan, so one Cancel stops it, instead of each page starting its own scan of the split.
    const running = this.scans.get(key)
    if (running?.project === p) return running.matches
    const matches = this.scan(p, q, key)
    this.scans.set(key, { project: p, matches })
    try {
      return await matches
    } finally {
      if (this.scans.get(key)?.matches === matches) this.scans.delete(key)
    }
  }

  private async scan(p: LoadedProject, q: RowSelection, key: string): Promise<Uint32Array> {
    const query = q.query?.trim() ?? ''
    const byQuery = query ? compileRowQuery(query, (i) => this.session.curation.record(i)) : null
    const inputs = this.inputColumns(p, q.variantId)
    const byFilter = compileRowFilter(q.filter, (i) => this.session.curation.record(i), inputs, (i) => p.media?.rows.get(i) ?? [])
    const byLint = q.filter?.lint ? await this.lint.rowSet(p, q.filter.lint) : null
    const total = this.session.testRows(p)
    const task = this.tasks.start(query ? `Searching “${query}”` : 'Filtering rows')
    let r: { matches: Uint32Array; aborted: boolean }
    try {
      r = await scanRows({
        total,
        readRows: (start, count) => p.dataset.readRows(p.testSplit, start, count),
        test: (i, row) => {
          const v = this.session.curation.edited(i, row)
          return (!byLint || byLint.has(i)) && (!byQuery || byQuery(i, v)) && (!byFilter || byFilter(i, v))
        },
        key: sortKeyOf(q.sort, (i) => this.session.curation.record(i), inputs),
        dir: q.sort?.dir ?? 'asc',
        signal: task.signal,
        onProgress: (d, t) => task.progress(d, t)
      })
    } finally {
      task.finish(total, total)
    }
    // A cancelled scan shows what it found so far but is not cached, so asking again finishes it.
    if (!r.aborted) p.search = { key, matches: r.matches }
    return r.matches
  }

  private listItem(p: LoadedProject, index: number, value: Record<string, unknown>, inputs: (row: Record<string, unknown>) => string[] | null, columns?: string[]): RowListItem {
    const facts = rowFacts(value, inputs(value))
    const mediaWarnings = p.media?.rows.get(index)
    if (mediaWarnings) facts.warnings.push(...mediaWarnings)
    const c = this.session.curation.record(index)
    const item: RowListItem = {
      ...previewItem(p.testSplit, index, value),
      status: c?.status ?? 'unreviewed',
      problems: facts.warnings.length,
      warnings: facts.warnings,
      chars: facts.chars,
      ...(c?.tags ? { tags: c.tags } : {}),
      ...(c?.edits ? { edited: true } : {}),
      ...(c?.note ? { hasNote: true } : {})
    }
    if (columns?.length) item.cells = Object.fromEntries(columns.map((k) => [k, cellText(value[k])]))
    return item
  }
}

/** A row as the list shows it before anything is known about the project: its preview and media, unreviewed. */
export function previewItem(split: string, index: number, value: Record<string, unknown>): RowListItem {
  const media = findMediaRefs(value).map((r) => ({ field: r.field, kind: r.kind, raw: r.refKind === 'base64' || r.refKind === 'data-url' ? refLabel(r) : r.value.length > 80 ? r.value.slice(0, 60) + '…' : r.value }))
  return { index, split, preview: previewOf(value), status: 'unreviewed', media, problems: 0 }
}

function cellText(v: unknown): string {
  const media = describeMediaValue(v)
  if (media) return media
  const s = typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v)
  if (/^data:|^[A-Za-z0-9+/]{200,}/.test(s)) return `(${s.length.toLocaleString()} chars of media)`
  return s.replace(/\s+/g, ' ').slice(0, 120)
}

function firstUserText(turns: unknown[]): string | null {
  for (const m of turns.slice(0, 8)) {
    if (!m || typeof m !== 'object') continue
    const o = m as Record<string, unknown>
    const role = o.role ?? o.from
    if (role !== 'user' && role !== 'human') continue
    const text = contentPlainText(o.content ?? o.value).replace(/<(image|audio|video)>/g, '').slice(0, 2000)
    if (text.trim()) return text
  }
  return null
}

function previewOf(value: Record<string, unknown>): string {
  const parts: string[] = []
  let len = 0
  for (const [k, v] of Object.entries(value)) {
    // A conversation row (OpenAI messages, LLaVA/ShareGPT conversations) previews as its first user turn's text.
    const chat = Array.isArray(v) && /^(messages|conversations?)$/.test(k) ? firstUserText(v) : null
    if (chat) {
      parts.push(chat.replace(/\s+/g, ' ').trim())
      len += chat.length
      if (len > PREVIEW_CHARS) break
      continue
    }
    if (typeof v !== 'string' || v.length > 2000 || /^data:|^[A-Za-z0-9+/]{200,}/.test(v)) continue
    if (/^(id|image|audio|video|path)$/i.test(k)) continue
    parts.push(v.replace(/\s+/g, ' '))
    len += v.length
    if (len > PREVIEW_CHARS) break
  }
  const id = typeof value.id === 'string' || typeof value.id === 'number' ? `${value.id} · ` : ''
  return (id + parts.join(' · ')).slice(0, PREVIEW_CHARS)
}
