// Row list filters and sort: cheap facts about a row (its warning kinds, prompt length, estimated tokens, media),
// a filter compiled to a predicate, sort keys, and the scan that turns a query + filter + sort into the ordered
// row indices the list pages through. Facts are computed from the row alone so a million rows scan in seconds.
import type { CurationStatus, RowCuration, RowFilter, RowSort } from '../../../shared/api/types'
import { findMediaRefs } from './row-media'
import { classifyMediaRef } from '../media/refs'

export interface RowFacts {
  warnings: string[]
  chars: number
  tokens: number
  hasMedia: boolean
}

/** Fields longer than this are flagged: they usually are pasted documents or base64 someone forgot to decode. */
export const LONG_FIELD_CHARS = 20_000

/**
 * A tokenizer-free estimate: CJK characters count one token each, other text one per four characters. The exact
 * count per model is shown in the matrix; the list uses this so a range filter over a million rows stays fast.
 */
export function rowTokenEstimate(text: string): number {
  let cjk = 0
  for (const ch of text) {
    const c = ch.codePointAt(0)!
    if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff)) cjk++
  }
  return cjk + Math.ceil((text.length - cjk) / 4)
}

/** Inline media inside a structured value (a data: URL, base64 in an image_url part or input_audio): never text. */
function inlineMediaReplacer(key: string, v: unknown): unknown {
  if (typeof v !== 'string' || v.length < 64) return v
  if (v.startsWith('data:')) return ''
  return v.length >= 256 && classifyMediaRef(v, key)?.kind === 'base64' ? '' : v
}

function textOf(v: unknown): string {
  if (typeof v === 'string') return v
  if (v === undefined || v === null) return ''
  // A conversation's `messages` holds its pictures inline: their base64 is not prompt length.
  return typeof v === 'object' ? JSON.stringify(v, inlineMediaReplacer) : String(v)
}

/** The columns a template reads; when the config names none, every column. */
export function inputColumnsOf(readerCfg: Record<string, unknown> | undefined, row: Record<string, unknown>): string[] {
  const cols = readerCfg?.input_columns
  if (Array.isArray(cols) && cols.every((c) => typeof c === 'string')) return cols as string[]
  return Object.keys(row)
}

export function rowFacts(row: Record<string, unknown>, inputColumns: string[] | null): RowFacts {
  const cols = inputColumns ?? Object.keys(row)
  const warnings = new Set<string>()
  let text = ''
  for (const c of cols) {
    const v = row[c]
    if (v === undefined || v === null) {
      if (inputColumns) warnings.add('missing-field')
      continue
    }
    const s = textOf(v)
    if (typeof v === 'string' && v.trim() === '' && inputColumns) warnings.add('empty-field')
    if (s.length > LONG_FIELD_CHARS) warnings.add('long-field')
    text += s
  }
  return { warnings: [...warnings], chars: text.length, tokens: rowTokenEstimate(text), hasMedia: findMediaRefs(row).length > 0 }
}

export type RowTest = (index: number, row: Record<string, unknown>) => boolean

export function filterIsEmpty(f: RowFilter | undefined): boolean {
  return !f || Object.values(f).every((v) => v === undefined || (Array.isArray(v) && v.length === 0) || v === '')
}

/** Whether the filter's answer changes when curation does (then a cached scan must be redone after each change). */
export function filterReadsCuration(f: RowFilter | undefined, sort: RowSort | undefined, query: string): boolean {
  return !!(f?.status?.length || f?.tag || sort?.by === 'status' || /(^|\s)(status|tag):/.test(query))
}

export function compileRowFilter(
  f: RowFilter | undefined,
  curation: (index: number) => RowCuration | undefined,
  inputColumns: (row: Record<string, unknown>) => string[] | null,
  /** Warnings known about a row beyond its own fields (its media, checked against the disk). */
  extraWarnings: (index: number) => readonly string[] = () => []
): RowTest | null {
  if (filterIsEmpty(f)) return null
  const filter = f!
  const tests: RowTest[] = []
  if (filter.status?.length) {
    const want = new Set(filter.status)
    tests.push((i) => {
      const r = curation(i)
      const s: CurationStatus = r?.status ?? 'unreviewed'
      return want.has(s) || (want.has('edited') && !!r?.edits)
    })
  }
  if (filter.tag) {
    const tag = filter.tag
    tests.push((i) => !!curation(i)?.tags?.includes(tag))
  }
  const needsFacts = filter.warning || filter.hasMedia !== undefined || filter.minChars !== undefined || filter.maxChars !== undefined || filter.minTokens !== undefined || filter.maxTokens !== undefined
  if (needsFacts) {
    tests.push((i, row) => {
      const facts = rowFacts(row, inputColumns(row))
      if (filter.warning) {
        const warnings = [...facts.warnings, ...extraWarnings(i)]
        const hit = filter.warning === 'any' ? warnings.length > 0 : filter.warning === 'media' ? warnings.some((w) => w.startsWith('media-')) : warnings.includes(filter.warning)
        if (!hit) return false
      }
      if (filter.hasMedia !== undefined && facts.hasMedia !== filter.hasMedia) return false
      if (filter.minChars !== undefined && facts.chars < filter.minChars) return false
      if (filter.maxChars !== undefined && facts.chars > filter.maxChars) return false
      if (filter.minTokens !== undefined && facts.tokens < filter.minTokens) return false
      if (filter.maxTokens !== undefined && facts.tokens > filter.maxTokens) return false
      return true
    })
  }
  return (i, row) => tests.every((t) => t(i, row))
}

const STATUS_ORDER: Record<CurationStatus, number> = { unreviewed: 0, flagged: 1, accepted: 2, rejected: 3 }

/** A sort key per row, or null for index order. Numbers compare as numbers, text with localeCompare. */
export function sortKeyOf(
  sort: RowSort | undefined,
  curation: (index: number) => RowCuration | undefined,
  inputColumns: (row: Record<string, unknown>) => string[] | null
): ((index: number, row: Record<string, unknown>) => number | string) | null {
  if (!sort || sort.by === 'index') return null
  if (sort.by === 'status') return (i) => STATUS_ORDER[curation(i)?.status ?? 'unreviewed']
  if (sort.by === 'length') return (_i, row) => rowFacts(row, inputColumns(row)).chars
  if (sort.by === 'tokens') return (_i, row) => rowFacts(row, inputColumns(row)).tokens
  if (sort.by.startsWith('field:')) {
    const name = sort.by.slice(6)
    return (_i, row) => {
      const v = row[name]
      return typeof v === 'number' ? v : textOf(v)
    }
  }
  return null
}

/** Orders indices by key (stable: equal keys keep index order); numbers before text. */
export function sortByKeys(indices: Uint32Array, keys: (number | string)[], dir: 'asc' | 'desc'): Uint32Array {
  const order = Array.from(indices.keys())
  const sign = dir === 'desc' ? -1 : 1
  const collator = new Intl.Collator(undefined, { numeric: true })
  order.sort((a, b) => {
    const x = keys[a]
    const y = keys[b]
    let c: number
    if (typeof x === 'number' && typeof y === 'number') c = x - y
    else if (typeof x === 'number') c = -1
    else if (typeof y === 'number') c = 1
    else c = collator.compare(x, y)
    return c !== 0 ? sign * c : a - b
  })
  return Uint32Array.from(order, (k) => indices[k])
}

/** Reads the split in batches and returns the indices that pass `test`, in sort order. Stops early when aborted. */
export async function scanRows(a: {
  total: number
  readRows: (start: number, count: number) => Promise<{ index: number; value: Record<string, unknown> }[]>
  test: RowTest
  key: ((index: number, row: Record<string, unknown>) => number | string) | null
  dir: 'asc' | 'desc'
  signal?: AbortSignal
  onProgress?: (done: number, total: number) => void
  batch?: number
}): Promise<{ matches: Uint32Array; aborted: boolean }> {
  const batch = a.batch ?? 2000
  const out: number[] = []
  const keys: (number | string)[] = []
  for (let start = 0; start < a.total; start += batch) {
    if (a.signal?.aborted) return { matches: Uint32Array.from(out), aborted: true }
    for (const r of await a.readRows(start, Math.min(batch, a.total - start))) {
      if (!a.test(r.index, r.value)) continue
      out.push(r.index)
      if (a.key) keys.push(a.key(r.index, r.value))
    }
    a.onProgress?.(Math.min(start + batch, a.total), a.total)
  }
  const matches = Uint32Array.from(out)
  return { matches: a.key ? sortByKeys(matches, keys, a.dir) : a.dir === 'desc' ? matches.reverse() : matches, aborted: false }
}
