// openDataset: the one entry point the app and the CLI use. It lays out splits, indexes and validates every
// file (workers, cached on disk), and returns a handle that reads rows on demand by byte range, so a million
// rows cost 20 MB of index and nothing else until they are shown. With `validate: 'deferred'` it returns as soon
// as every row's byte range is known and validation runs when the caller starts it (handle.validate()): the app
// shows rows at once and learns columns, media refs and unreadable rows a few seconds later.
import { createHash } from 'node:crypto'
import { open, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ColumnInfo, DatasetError, DatasetFormat, MediaRefSummary, Progress, RowRecord, SplitInfo } from './types'
import { layoutOf } from './layout'
import { defaultCacheDir, loadCache, saveCache, stampOf, type CachedPart, type FileStamp } from './index-cache'
import { CancelledError, indexFileStaged, type StagedFile } from './index-file'
import { allBlank, bomLength } from './jsonl-index'
import { scanCsvFile } from './csv-index'
import { decodeRow, type RowFormat } from './row-decode'
import { readSpans, type RowSpans } from './row-spans'
import { mergeColumns, summarizeColumns, type ColumnAcc } from './columns'
import { openParquet, readParquetRows, type ParquetFile } from './parquet-source'
import { openArrow, readArrowRows, type ArrowFile } from './arrow-source'
import { RowInspector } from './validate-rows'

export interface OpenOptions {
  /** Where index caches live; default ~/.cache/promptloom; null disables the cache. */
  cacheDir?: string | null
  signal?: AbortSignal
  onProgress?: (p: Progress) => void
  /** Called with the first rows of the first split as soon as they can be read (JSONL, CSV, TSV: before indexing). */
  onFirstRows?: (split: string, rows: RowRecord[]) => void
  /** Rows longer than this are reported and skipped rather than parsed (default 64 MiB). */
  maxRowBytes?: number
  /** Error records kept in memory (all are counted; skipped rows are all exportable). Default 10,000. */
  maxErrors?: number
  /** File media references kept for resolution. Default 50,000. */
  maxFileRefs?: number
  /**
   * 'now' (default): resolve once every row is validated. 'deferred': resolve once every row's byte range is
   * known; validation waits for handle.validate(). Until it has run, rowCount counts every indexed row (skipped
   * rows are not known yet), a row that cannot be decoded reads as a RowRecord with `error` set, columns are a
   * sample of the first rows, and errors/media list only what indexing found.
   */
  validate?: 'now' | 'deferred'
  /**
   * With 'deferred', files smaller than this are still validated at once (default 16 MiB, ~0.1 s of validation):
   * deferring them would show interim numbers for no gain.
   */
  deferMinBytes?: number
}

/** Where a handle's validation is: 'pending' until validate() is called on a deferred open. */
export type ValidationState = 'done' | 'pending' | 'running' | 'cancelled' | 'failed'

export interface ValidationOutcome {
  state: 'done' | 'cancelled' | 'failed'
  /** True when validation skipped rows, so row numbers after them changed (see DatasetHandle.finalIndex). */
  renumbered: boolean
  /** Why validation failed (a worker crashed, the file went away). */
  message?: string
}

export interface ValidateOptions {
  signal?: AbortSignal
  /** Rows validated so far of the rows indexed. */
  onProgress?: (rowsDone: number, rowsTotal: number) => void
}

export interface DatasetHandle {
  id: string
  path: string
  format: DatasetFormat | 'folder'
  splits: SplitInfo[]
  /** Readable rows over all splits (skipped rows excluded). */
  rowCount: number
  columns: ColumnInfo[]
  /** Errors (rows skipped) and warnings (rows kept, e.g. a refused media path), capped at maxErrors. */
  errors: DatasetError[]
  errorCount: number
  skipped: number
  media: MediaRefSummary
  /** True when every file's index came from the on-disk cache. */
  fromCache: boolean
  /** 'done' when columns, errors and skipped rows are final. */
  validation: ValidationState
  /**
   * Validates what a deferred open left unvalidated, then updates this handle in place (rowCount, splits,
   * columns, errors, media) in one step. Never rejects; a cancelled or failed run leaves the handle as it was and
   * may be retried. Calls while a run is under way share it. Resolves at once when there is nothing to do.
   */
  validate(opts?: ValidateOptions): Promise<ValidationOutcome>
  /**
   * The row number, after validation, of the row that had number `index` in `split` before it (the numbering a
   * deferred open starts with); null when validation skipped that row. The identity while nothing is pending.
   */
  finalIndex(split: string, index: number): number | null
  readRows(split: string, start: number, count: number): Promise<RowRecord[]>
  readRow(split: string, index: number): Promise<RowRecord | null>
  /**
   * Where rows [start, start + count) of `split` are, one RowSpans per file part, for a worker that reads them
   * itself (readSpans); null when some of them are not in a byte-range file (Parquet, Arrow).
   */
  rowSpans(split: string, start: number, count: number): RowSpans[] | null
  /** Writes every skipped row as JSONL ({file, line, row, offset, code, message, raw}); returns how many. */
  exportSkipped(dest: string): Promise<number>
}

interface Source {
  file: string
  part: CachedPart
  /** Set while the part awaits validation: the file's staged index and this part's position in it. */
  staged: { file: StagedFile; at: number } | null
  pq: ParquetFile | null
  arrow: ArrowFile | null
  /** good row → raw row; null when no row was skipped. */
  good: Uint32Array | null
  rows: number
}

interface Split {
  name: string
  sources: Source[]
  /** Row number at which each source starts, plus the total. */
  cum: number[]
}

/** Index errors that stand for one record dropped before it got a row number: each counts as one skipped row. */
const RECORD_LEVEL_INDEX_ERRORS = new Set<string>(['unterminated-quote'])

const DEFAULTS = { maxRowBytes: 64 << 20, maxErrors: 10000, maxFileRefs: 50000, deferMinBytes: 16 << 20 }
let handles = 0

function goodMap(part: CachedPart): Uint32Array | null {
  if (part.bad.length === 0) return null
  const good = new Uint32Array(part.rawRows - part.bad.length)
  let b = 0
  let g = 0
  for (let r = 0; r < part.rawRows; r++) {
    if (b < part.bad.length && part.bad[b] === r) b++
    else good[g++] = r
  }
  return good
}

/** The spans of a byte-range source's rows (raw rows `raw`, numbered `indices` in the split). */
function spansOf(src: Source, raw: number[], indices: number[]): RowSpans {
  const idx = src.part.index!
  return {
    file: src.file,
    format: src.part.format as RowFormat,
    header: src.part.header,
    delimiter: src.part.delimiter,
    indices,
    raw,
    lines: raw.map((r) => idx.lines[r]),
    starts: raw.map((r) => idx.starts[r]),
    ends: raw.map((r) => idx.ends[r])
  }
}

/** Raw rows of a source's good rows [from, to), and their numbers in the split. */
function rawRowsOf(src: Source, from: number, to: number, splitBase: number): { raw: number[]; indices: number[] } {
  const raw: number[] = []
  const indices: number[] = []
  for (let g = from; g < to; g++) {
    raw.push(src.good ? src.good[g] : g)
    indices.push(splitBase + g)
  }
  return { raw, indices }
}

async function readSourceRows(src: Source, from: number, to: number, splitBase: number): Promise<RowRecord[]> {
  const { raw, indices } = rawRowsOf(src, from, to, splitBase)
  if (src.pq || src.arrow) {
    // Contiguous physical runs, so a window with a skipped row group is still one or two reads.
    const out: RowRecord[] = []
    let i = 0
    while (i < raw.length) {
      let j = i + 1
      while (j < raw.length && raw[j] === raw[j - 1] + 1) j++
      const rows = src.pq
        ? await readParquetRows(src.pq, raw[i], raw[j - 1] + 1, { pythonNumbers: true })
        : await readArrowRows(src.arrow!, raw[i], raw[j - 1] + 1, { pythonNumbers: true })
      rows.forEach((value, k) => out.push({ index: indices[i + k], value, at: { file: src.file, row: raw[i + k] } }))
      i = j
    }
    return out
  }
  return readSpans(spansOf(src, raw, indices))
}

/** The first rows of a JSONL file from its first 256 KiB, before any index exists. */
export async function peekJsonl(file: string, count: number): Promise<RowRecord[]> {
  const fh = await open(file, 'r')
  try {
    const buf = Buffer.allocUnsafe(256 << 10)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    const out: RowRecord[] = []
    let pos = bomLength(buf, bytesRead)
    let line = 1
    while (out.length < count && pos < bytesRead) {
      const nl = buf.indexOf(10, pos)
      if (nl < 0 || nl >= bytesRead) break
      const end = nl > pos && buf[nl - 1] === 13 ? nl - 1 : nl
      if (end > pos && !allBlank(buf, pos, end)) {
        // Python numbers, as readRows gives: these rows may be rendered before the index exists.
        const d = decodeRow(buf, pos, end, { format: 'jsonl', pythonNumbers: true })
        if (d.ok) out.push({ index: out.length, value: d.value, at: { file, line, offset: pos } })
      }
      pos = nl + 1
      line++
    }
    return out
  } finally {
    await fh.close()
  }
}

/** Bytes a CSV/TSV peek reads: 50 rows of a VLMEvalKit TSV (~95 KB of base64 each) and the header. */
const PEEK_BYTES = 8 << 20

/**
 * The first rows of a CSV/TSV file from its first PEEK_BYTES, before any index exists: the index's own scanner
 * over that prefix, then the rows read as the handle reads them. Rows that cannot be decoded are left out and
 * the rest numbered as validation will number them.
 */
export async function peekDelimited(file: string, format: 'csv' | 'tsv', count: number): Promise<RowRecord[]> {
  const delimiter = format === 'tsv' ? '\t' : ','
  const scan = await scanCsvFile({ file, delimiter, maxBytes: PEEK_BYTES }, { progress: () => {}, aborted: () => false })
  const out: RowRecord[] = []
  if (!scan.header) return out
  // `count` records at a time until `count` rows could be read.
  for (let from = 0; out.length < count && from < scan.starts.length; from += count) {
    const raw = Array.from({ length: Math.min(count, scan.starts.length - from) }, (_, i) => from + i)
    const rows = await readSpans({ file, format, header: scan.header, delimiter, indices: raw, raw, lines: raw.map((i) => scan.lines[i]), starts: raw.map((i) => scan.starts[i]), ends: raw.map((i) => scan.ends[i]) })
    for (const r of rows) if (!r.error && out.length < count) out.push({ ...r, index: out.length })
  }
  return out
}

/** The first rows of a file a peek can read before it is indexed (JSONL, CSV, TSV); null for other formats. */
function peekFirstRows(file: string, format: DatasetFormat, count: number): Promise<RowRecord[]> | null {
  if (format === 'jsonl') return peekJsonl(file, count)
  if (format === 'csv' || format === 'tsv') return peekDelimited(file, format, count)
  return null
}

/** Row number within its source → row number in the split, per source; maps a split's numbering before validation. */
interface Numbering {
  cum: number[]
  good: Array<Uint32Array | null>
}

function numberingOf(s: Split): Numbering {
  return { cum: s.cum.slice(), good: s.sources.map((x) => x.good) }
}

function cumOf(s: Split): void {
  s.cum = [0]
  for (const src of s.sources) s.cum.push(s.cum[s.cum.length - 1] + src.rows)
}

/** Count of values in the ascending array below x, and whether x is one of them. */
function rankIn(sorted: Uint32Array, x: number): { below: number; hit: boolean } {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const m = (lo + hi) >>> 1
    if (sorted[m] < x) lo = m + 1
    else hi = m
  }
  return { below: lo, hit: lo < sorted.length && sorted[lo] === x }
}

/** Rows a deferred open samples for its interim columns: the first 1,000, or those in the first 16 MiB. */
const SAMPLE_ROWS = 1000
const SAMPLE_BYTES = 16 << 20

/**
 * The columns of the first rows, so a deferred open can name its columns before validation has seen them all. A
 * file of 95 KB base64 pictures per row stops at ~170 rows: 1,000 were 95 MB read and decoded before the open
 * could return.
 */
async function sampleColumns(
  splits: Split[],
  read: (split: string, start: number, count: number) => Promise<RowRecord[]>,
  spans: (split: string, start: number, count: number) => RowSpans[] | null
): Promise<Map<string, ColumnAcc>> {
  const insp = new RowInspector('', false, 0, 0)
  const s = splits[0]
  if (!s) return insp.cols
  let n = SAMPLE_ROWS
  const first = spans(s.name, 0, n)?.[0]
  if (first) {
    let k = 1
    while (k < first.ends.length && first.ends[k] - first.starts[0] <= SAMPLE_BYTES) k++
    if (k < first.ends.length) n = k
  }
  for (const r of await read(s.name, 0, n)) if (!r.error) insp.inspect(r.value, r.index, undefined, undefined)
  return insp.cols
}

export async function openDataset(target: string, options: OpenOptions = {}): Promise<DatasetHandle> {
  const opts = { ...DEFAULTS, ...options }
  // An option passed as undefined means the default, as when it is left out.
  opts.deferMinBytes = options.deferMinBytes ?? DEFAULTS.deferMinBytes
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir
  // `media2`: caches written before columns counted media values (and Parquet binary stayed bytes) are stale.
  const optionsKey = `rows<=${opts.maxRowBytes};errs<=${opts.maxErrors};refs<=${opts.maxFileRefs};media2`
  const abs = path.resolve(target)
  const layout = await layoutOf(abs)
  const splits: Split[] = []
  let allCached = true
  let firstSent = false
  /** Files indexed but not validated yet (deferred), in the order they were indexed. */
  const pending: Array<{ file: string; staged: StagedFile; stamp: FileStamp | null; sources: Source[] }> = []

  for (const ls of layout.splits) {
    const sources: Source[] = []
    for (const f of ls.files) {
      if (options.signal?.aborted) throw new CancelledError()
      const peek = !firstSent && options.onFirstRows ? peekFirstRows(f.file, f.format, 50) : null
      if (peek) {
        firstSent = true
        options.onFirstRows!(ls.name, await peek.catch(() => []))
      }
      const bytesTotal = (await stat(f.file)).size
      const progress = (phase: Progress['phase'], bytesDone: number, _total: number, rows: number): void =>
        options.onProgress?.({ phase, split: ls.name, file: f.file, bytesDone, bytesTotal, rows })
      let parts: CachedPart[] | null = null
      let staged: StagedFile | null = null
      // The stamp hashes 2 MiB of the file: only worth it when there is a cache to check or fill.
      const stamp = cacheDir ? await stampOf(f.file).catch(() => null) : null
      if (cacheDir && stamp) parts = await loadCache(cacheDir, f.file, optionsKey, stamp)
      if (parts) progress('cache', bytesTotal, bytesTotal, parts.reduce((a, p) => a + p.rawRows, 0))
      else {
        allCached = false
        staged = await indexFileStaged(f.file, f.format, { ...opts, signal: options.signal, onProgress: progress })
        if (staged.validated || opts.validate !== 'deferred' || bytesTotal < opts.deferMinBytes) {
          parts = staged.validated ? staged.parts : await staged.validate({ signal: options.signal, onProgress: progress })
          staged = null
          if (cacheDir && stamp) await saveCache(cacheDir, f.file, optionsKey, stamp, parts).catch(() => undefined)
        } else parts = staged.parts
      }
      let pq: ParquetFile | null = null
      if (f.format === 'parquet' && parts[0].rawRows > 0) {
        const o = await openParquet(f.file)
        if (o.ok) pq = o.pq
      }
      let arrow: ArrowFile | null = null
      if (f.format === 'arrow' && parts[0].rawRows > 0) {
        const o = await openArrow(f.file)
        if (o.ok) arrow = o.arrow
      }
      const fileSources: Source[] = parts.map((p, at) => ({
        file: f.file,
        part: p,
        staged: staged ? { file: staged, at } : null,
        pq,
        arrow,
        good: goodMap(p),
        rows: p.rawRows - p.bad.length
      }))
      if (staged) pending.push({ file: f.file, staged, stamp, sources: fileSources })
      if (parts.length > 1 || (parts[0]?.key && layout.kind === 'file')) {
        // A JSON object holding several arrays: each array is a split of its own (train/test), or one split
        // named after its key.
        for (const src of fileSources) {
          const name = src.part.key ?? ls.name
          const existing = splits.find((s) => s.name === name)
          if (existing) existing.sources.push(src)
          else splits.push({ name, sources: [src], cum: [] })
        }
        continue
      }
      sources.push(...fileSources)
    }
    if (sources.length) splits.push({ name: ls.name, sources, cum: [] })
  }
  for (const s of splits) cumOf(s)

  const splitOf = (name: string): Split | undefined => splits.find((s) => s.name === name)
  const readRows = async (name: string, start: number, count: number): Promise<RowRecord[]> => {
    const s = splitOf(name)
    if (!s) return []
    // The numbering of this call, even if validation swaps it while the call reads.
    const cum = s.cum
    const sources = s.sources
    const total = cum[cum.length - 1]
    const a = Math.max(0, Math.floor(start))
    const b = Math.min(total, a + Math.max(0, Math.floor(count)))
    const out: RowRecord[] = []
    for (let k = 0; k < sources.length && a < b; k++) {
      const lo = Math.max(a, cum[k])
      const hi = Math.min(b, cum[k + 1])
      if (lo >= hi) continue
      const rows = await readSourceRows(sources[k], lo - cum[k], hi - cum[k], cum[k])
      out.push(...rows)
    }
    return out
  }

  const rowSpans = (name: string, start: number, count: number): RowSpans[] | null => {
    const s = splitOf(name)
    if (!s) return []
    const total = s.cum[s.cum.length - 1]
    const a = Math.max(0, Math.floor(start))
    const b = Math.min(total, a + Math.max(0, Math.floor(count)))
    const out: RowSpans[] = []
    for (let k = 0; k < s.sources.length && a < b; k++) {
      const lo = Math.max(a, s.cum[k])
      const hi = Math.min(b, s.cum[k + 1])
      if (lo >= hi) continue
      const src = s.sources[k]
      if (src.pq || src.arrow || !src.part.index) return null
      const { raw, indices } = rawRowsOf(src, lo - s.cum[k], hi - s.cum[k], s.cum[k])
      out.push(spansOf(src, raw, indices))
    }
    return out
  }

  const firstFormat = layout.splits[0]?.files[0]?.format ?? 'jsonl'
  const handle: DatasetHandle = {
    id: `${createHash('sha256').update(abs).digest('hex').slice(0, 12)}-${++handles}`,
    path: abs,
    format: layout.kind === 'folder' ? 'folder' : firstFormat,
    splits: [],
    rowCount: 0,
    columns: [],
    errors: [],
    errorCount: 0,
    skipped: 0,
    media: { byKind: {}, total: 0, files: [], truncated: false },
    fromCache: allCached,
    validation: pending.length ? 'pending' : 'done',
    readRows,
    readRow: async (name, i) => (await readRows(name, i, 1))[0] ?? null,
    rowSpans,
    exportSkipped: (dest) => exportSkipped(splits, dest),
    validate: () => Promise.resolve({ state: 'done', renumbered: false }),
    finalIndex: (_split, i) => i
  }
  /** Sets the handle's summary fields from the splits' parts as they are now. */
  const summarize = (sampled: Map<string, ColumnAcc> | null): void => {
    const allParts = splits.flatMap((s) => s.sources.map((x) => x.part))
    const cols = new Map<string, ColumnAcc>()
    for (const p of allParts) mergeColumns(cols, p.columns)
    if (sampled) mergeColumns(cols, [...sampled])
    const media: MediaRefSummary = { byKind: {}, total: 0, files: [], truncated: false }
    const errors: DatasetError[] = []
    let errorCount = 0
    let skipped = 0
    for (const p of allParts) {
      for (const [k, c] of Object.entries(p.refsByKind)) media.byKind[k as keyof typeof media.byKind] = (media.byKind[k as keyof typeof media.byKind] ?? 0) + (c ?? 0)
      media.total += p.refsTotal
      for (const r of p.fileRefs) {
        if (media.files.length < opts.maxFileRefs) media.files.push(r)
        else media.truncated = true
      }
      media.truncated ||= p.fileRefsTruncated
      for (const e of p.errors) if (errors.length < opts.maxErrors) errors.push(e)
      errorCount += p.errorCount
      skipped += p.bad.length + p.errors.filter((e) => RECORD_LEVEL_INDEX_ERRORS.has(e.code)).length
    }
    Object.assign(handle, {
      splits: splits.map((s) => ({ name: s.name, files: [...new Set(s.sources.map((x) => x.file))], rowCount: s.cum[s.cum.length - 1] })),
      rowCount: splits.reduce((a, s) => a + s.cum[s.cum.length - 1], 0),
      columns: summarizeColumns(cols),
      errors,
      errorCount,
      skipped,
      media
    })
  }
  summarize(pending.length ? await sampleColumns(splits, readRows, rowSpans) : null)

  if (pending.length) {
    let run: Promise<ValidationOutcome> | null = null
    let before: Map<string, Numbering> | null = null
    const validateAll = async (v: ValidateOptions): Promise<ValidationOutcome> => {
      handle.validation = 'running'
      const rowsTotal = pending.reduce((a, p) => a + p.sources.reduce((b, x) => b + x.part.rawRows, 0), 0)
      let rowsBefore = 0
      const finals: CachedPart[][] = []
      try {
        for (const p of pending) {
          const base = rowsBefore
          finals.push(
            await p.staged.validate({
              signal: v.signal,
              onProgress: (phase, _done, _total, rows) => {
                if (phase === 'validate') v.onProgress?.(base + rows, rowsTotal)
              }
            })
          )
          if (v.signal?.aborted) throw new CancelledError()
          rowsBefore += p.sources.reduce((b, x) => b + x.part.rawRows, 0)
        }
      } catch (err) {
        const cancelled = v.signal?.aborted || (err as Error).name === 'AbortError'
        handle.validation = cancelled ? 'cancelled' : 'failed'
        return cancelled ? { state: 'cancelled', renumbered: false } : { state: 'failed', renumbered: false, message: (err as Error).message }
      }
      // Swapped in one synchronous step, so no read sees half the old numbering and half the new.
      before = new Map(splits.map((s) => [s.name, numberingOf(s)]))
      let renumbered = false
      pending.forEach((p, k) => {
        for (const src of p.sources) {
          const part = finals[k][src.staged!.at]
          src.part = part
          src.good = goodMap(part)
          src.rows = part.rawRows - part.bad.length
          src.staged = null
          renumbered ||= part.bad.length > 0
        }
      })
      for (const s of splits) cumOf(s)
      summarize(null)
      handle.validation = 'done'
      for (const [k, p] of pending.entries()) if (cacheDir && p.stamp) await saveCache(cacheDir, p.file, optionsKey, p.stamp, finals[k]).catch(() => undefined)
      pending.length = 0
      return { state: 'done', renumbered }
    }
    handle.validate = (v = {}) => {
      if (handle.validation === 'done') return Promise.resolve({ state: 'done', renumbered: false })
      if (!run) run = validateAll(v).finally(() => (run = null))
      return run
    }
    handle.finalIndex = (name, i) => {
      const s = splitOf(name)
      const b = before?.get(name)
      // Before validation has swapped numberings, the interim numbering is the current one.
      if (!s || !b) return i
      let k = 0
      while (k + 1 < b.cum.length - 1 && b.cum[k + 1] <= i) k++
      if (i < 0 || i >= b.cum[b.cum.length - 1]) return null
      const local = i - b.cum[k]
      const raw = b.good[k] ? b.good[k]![local] : local
      const bad = s.sources[k].part.bad
      const r = rankIn(bad, raw)
      return r.hit ? null : s.cum[k] + raw - r.below
    }
  }
  if (!firstSent && options.onFirstRows && splits[0]) options.onFirstRows(splits[0].name, await readRows(splits[0].name, 0, 50))
  return handle
}

async function exportSkipped(splits: Split[], dest: string): Promise<number> {
  const lines: string[] = []
  for (const s of splits) {
    for (const src of s.sources) {
      const p = src.part
      const byRow = new Map<number, DatasetError>()
      for (const e of p.errors) if (e.severity === 'error' && e.at.row !== undefined) byRow.set(e.at.row, e)
      // File-level errors (empty file, unterminated quote, corrupt footer) have no row; list them too.
      for (const e of p.errors) {
        if (e.severity === 'error' && e.at.row === undefined) lines.push(JSON.stringify({ file: e.at.file, line: e.at.line ?? null, row: null, offset: e.at.offset ?? null, code: e.code, message: e.message, raw: null }))
      }
      if (p.bad.length === 0) continue
      const fh = p.index ? await open(src.file, 'r') : null
      try {
        for (const r of p.bad) {
          const e = byRow.get(r)
          let raw: string | null = null
          if (fh && p.index) {
            const s0 = p.index.starts[r]
            const len = Math.min(p.index.ends[r] - s0, 1 << 20)
            const b = Buffer.allocUnsafe(len)
            await fh.read(b, 0, len, s0)
            raw = b.toString('utf8')
          }
          lines.push(
            JSON.stringify({
              file: src.file,
              line: p.index ? p.index.lines[r] : null,
              row: r,
              offset: p.index ? p.index.starts[r] : (e?.at.offset ?? null),
              code: e?.code ?? 'skipped',
              message: e?.message ?? 'Row skipped',
              raw
            })
          )
        }
      } finally {
        await fh?.close()
      }
    }
  }
  await writeFile(dest, lines.length ? `${lines.join('\n')}\n` : '')
  return lines.length
}
