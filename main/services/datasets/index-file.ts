// Indexes and validates one data file, in workers, and returns its parts (a JSON object with train/test arrays
// yields one part per array). The result is what the on-disk cache stores. Indexing and validation are two
// stages (indexFileStaged): rows can be read by byte range as soon as the index exists, before validation.
import { stat } from 'node:fs/promises'
import { parallelism, runTask } from '../workers/pool'
import type { DatasetError, DatasetFormat } from './types'
import { concatIndexes, sliceIndex, type RowIndex } from './row-index'
import { lineAlignedRanges } from './jsonl-index'
import { unopenedPart, type CachedPart } from './index-cache'
import type { RowFormat } from './row-decode'
import type { ValidateOutput } from './validate-rows'

export interface IndexOptions {
  signal?: AbortSignal
  onProgress?: (phase: 'index' | 'validate', bytesDone: number, bytesTotal: number, rows: number) => void
  maxRowBytes: number
  maxErrors: number
  maxFileRefs: number
}

export class CancelledError extends Error {
  constructor() {
    super('Cancelled')
    this.name = 'AbortError'
  }
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CancelledError()
}

/** A text file that gives no rows (unreadable, empty, no header, no row array): an empty index and why. */
const emptyPart = (format: DatasetFormat, error: DatasetError | null): CachedPart => unopenedPart(format, error, { starts: new Float64Array(0), ends: new Float64Array(0), lines: new Uint32Array(0) })

interface JsonlIndex {
  index: RowIndex
  /** The line-aligned byte ranges the workers scanned, with the rows and newlines before each. */
  ranges: Array<{ start: number; end: number; rowBase: number; lineBase: number }>
}

async function indexJsonl(file: string, size: number, opts: IndexOptions): Promise<JsonlIndex> {
  const cuts = await lineAlignedRanges(file, size, parallelism())
  const done = new Array<number>(cuts.length).fill(0)
  const rows = new Array<number>(cuts.length).fill(0)
  const outs = await Promise.all(
    cuts.map(([start, end], k) =>
      runTask('jsonl-scan', { file, start, end }, {
        signal: opts.signal,
        onProgress: (p) => {
          done[k] = p.bytesDone
          rows[k] = p.rows
          opts.onProgress?.('index', done.reduce((a, b) => a + b, 0), size, rows.reduce((a, b) => a + b, 0))
        }
      })
    )
  )
  checkAbort(opts.signal)
  const lineOffsets: number[] = []
  const ranges: JsonlIndex['ranges'] = []
  let lines = 0
  let rowsBefore = 0
  outs.forEach((o, k) => {
    lineOffsets.push(lines)
    ranges.push({ start: cuts[k][0], end: cuts[k][1], rowBase: rowsBefore, lineBase: lines })
    lines += o.newlines
    rowsBefore += o.starts.length
  })
  const index = outs.length === 1 ? { starts: outs[0].starts, ends: outs[0].ends, lines: outs[0].lines } : concatIndexes(outs, lineOffsets)
  return { index, ranges }
}

/**
 * One 'validate' progress report summed over k parallel worker tasks; `progress(j)` is task j's callback. Reports
 * 0 at once: that marks the end of indexing, from here on every row's byte range is known.
 */
function validationProgress(k: number, total: number, opts: IndexOptions): (j: number) => (p: { bytesDone: number; rows: number }) => void {
  const done = new Array<number>(k).fill(0)
  const rows = new Array<number>(k).fill(0)
  opts.onProgress?.('validate', 0, total, 0)
  return (j) => (p) => {
    done[j] = p.bytesDone
    rows[j] = p.rows
    opts.onProgress?.('validate', done.reduce((x, y) => x + y, 0), total, rows.reduce((x, y) => x + y, 0))
  }
}

/** JSONL validation by byte range: each worker finds its own lines, so no index slice is copied to it. */
async function validateJsonl(file: string, ji: JsonlIndex, opts: IndexOptions): Promise<ValidateOutput> {
  const total = ji.ranges.reduce((a, r) => a + r.end - r.start, 0)
  const progress = validationProgress(ji.ranges.length, total, opts)
  const outs = await Promise.all(
    ji.ranges.map((r, j) =>
      runTask(
        'validate-jsonl',
        { file, ...r, maxRowBytes: opts.maxRowBytes, ...shareOfCaps(opts, ji.ranges.length) },
        { signal: opts.signal, onProgress: progress(j) }
      )
    )
  )
  checkAbort(opts.signal)
  return mergeOutputs(withFile(outs, file), opts)
}

async function validatePart(
  file: string,
  format: RowFormat,
  index: RowIndex,
  extra: { header?: string[] | null; delimiter?: string },
  opts: IndexOptions
): Promise<ValidateOutput> {
  const n = index.starts.length
  const k = n < 20000 ? 1 : parallelism()
  const total = n ? index.ends[n - 1] - index.starts[0] : 0
  const progress = validationProgress(k, total, opts)
  const outs = await Promise.all(
    Array.from({ length: k }, (_, j) => {
      const a = Math.floor((n * j) / k)
      const b = Math.floor((n * (j + 1)) / k)
      return runTask(
        'validate-rows',
        { file, format, ...sliceIndex(index, a, b), ...extra, rowBase: a, maxRowBytes: opts.maxRowBytes, ...shareOfCaps(opts, k) },
        { signal: opts.signal, onProgress: progress(j) }
      )
    })
  )
  checkAbort(opts.signal)
  return mergeOutputs(withFile(outs, file), opts)
}

/**
 * Each of k workers keeps its share of the error and file-ref caps: every worker keeping the whole cap would send
 * k times what the merge keeps (100,000 refs cloned into the main thread to keep 50,000). Counts stay exact;
 * only which refs are kept when there are more than the cap changes.
 */
function shareOfCaps(opts: IndexOptions, k: number): { maxErrors: number; maxFileRefs: number } {
  return { maxErrors: Math.ceil(opts.maxErrors / k), maxFileRefs: Math.ceil(opts.maxFileRefs / k) }
}

/** Workers send media refs without their file name (one string per ref otherwise); it is put back here. */
function withFile(outs: ValidateOutput[], file: string): ValidateOutput[] {
  for (const o of outs) for (const r of o.fileRefs) r.file = file
  return outs
}

/** Validation that found nothing (yet): the start of a merge, or a part read before validation. */
function emptyValidation(): ValidateOutput {
  return { columns: [], refsByKind: {}, refsTotal: 0, fileRefs: [], fileRefsTruncated: false, errors: [], errorCount: 0, bad: new Uint32Array(0), cancelled: false }
}

function mergeOutputs(outs: ValidateOutput[], opts: IndexOptions): ValidateOutput {
  if (outs.length === 1) return outs[0]
  const merged = emptyValidation()
  const cols = new Map<string, number[]>()
  for (const o of outs) {
    for (const [name, acc] of o.columns) {
      const cur = cols.get(name)
      if (cur) acc.forEach((v, i) => (cur[i] += v))
      else cols.set(name, acc.slice())
    }
    for (const [kind, c] of Object.entries(o.refsByKind)) merged.refsByKind[kind as keyof typeof merged.refsByKind] = (merged.refsByKind[kind as keyof typeof merged.refsByKind] ?? 0) + (c ?? 0)
    merged.refsTotal += o.refsTotal
    for (const r of o.fileRefs) {
      if (merged.fileRefs.length < opts.maxFileRefs) merged.fileRefs.push(r)
      else merged.fileRefsTruncated = true
    }
    merged.fileRefsTruncated ||= o.fileRefsTruncated
    for (const e of o.errors) if (merged.errors.length < opts.maxErrors) merged.errors.push(e)
    merged.errorCount += o.errorCount
  }
  merged.columns = [...cols]
  const bad = new Uint32Array(outs.reduce((a, o) => a + o.bad.length, 0))
  let at = 0
  for (const o of outs) {
    bad.set(o.bad, at)
    at += o.bad.length
  }
  merged.bad = bad
  return merged
}

function partFrom(key: string | null, format: DatasetFormat, index: RowIndex, v: ValidateOutput, extra: { header?: string[] | null; delimiter?: string }, pre: DatasetError[]): CachedPart {
  return {
    key,
    format,
    ...extra,
    rawRows: index.starts.length,
    index,
    bad: v.bad,
    columns: v.columns,
    refsByKind: v.refsByKind,
    refsTotal: v.refsTotal,
    fileRefs: v.fileRefs,
    fileRefsTruncated: v.fileRefsTruncated,
    errors: [...pre, ...v.errors],
    errorCount: pre.length + v.errorCount
  }
}

/**
 * A file whose rows' byte ranges are known but not yet validated: `parts` read rows already (a row that cannot be
 * decoded reads as an error row); `validate()` decodes every row in workers and returns the final parts over the
 * same index (columns, media refs, errors, skipped rows). Parquet has no separate index: its parts are final.
 */
export interface StagedFile {
  parts: CachedPart[]
  /** True when `parts` are already final (validate() returns them as they are). */
  validated: boolean
  validate(opts: Pick<IndexOptions, 'signal' | 'onProgress'>): Promise<CachedPart[]>
}

const done = (parts: CachedPart[]): StagedFile => ({ parts, validated: true, validate: async () => parts })

/** A part that reads rows by byte range before validation: nothing is known about its rows but their ranges. */
function interimPart(key: string | null, format: DatasetFormat, index: RowIndex, extra: { header?: string[] | null; delimiter?: string }, pre: DatasetError[]): CachedPart {
  return partFrom(key, format, index, emptyValidation(), extra, pre)
}

/** Indexes a file (every row's byte range) and leaves validation to the caller's `validate()`. */
export async function indexFileStaged(file: string, format: DatasetFormat, opts: IndexOptions): Promise<StagedFile> {
  checkAbort(opts.signal)
  let size: number
  try {
    size = (await stat(file)).size
  } catch (err) {
    return done([emptyPart(format, { code: 'read-failed', message: `Cannot read the file: ${(err as Error).message}`, stage: 'open', severity: 'error', at: { file } })])
  }
  if (size === 0) return done([emptyPart(format, { code: 'empty-file', message: 'The file is empty', stage: 'open', severity: 'error', at: { file, offset: 0 } })])
  // Validation may run later, with its own signal and progress: the options it is given replace the index's.
  const withOpts = (v: Pick<IndexOptions, 'signal' | 'onProgress'>): IndexOptions => ({ ...opts, signal: v.signal, onProgress: v.onProgress })

  if (format === 'parquet' || format === 'arrow') {
    // Every row group (record batch) is decoded once, in a worker: columns, media refs, and the rows of groups that fail.
    const part = await runTask(format === 'arrow' ? 'arrow-validate' : 'parquet-validate', { file, maxErrors: opts.maxErrors, maxFileRefs: opts.maxFileRefs }, {
      signal: opts.signal,
      onProgress: (p) => opts.onProgress?.('validate', 0, size, p.rows)
    })
    checkAbort(opts.signal)
    return done([part])
  }

  if (format === 'csv' || format === 'tsv') {
    const delimiter = format === 'tsv' ? '\t' : ','
    const scan = await runTask('csv-scan', { file, delimiter }, { signal: opts.signal, onProgress: (p) => opts.onProgress?.('index', p.bytesDone, size, p.rows) })
    checkAbort(opts.signal)
    const index = { starts: scan.starts, ends: scan.ends, lines: scan.lines }
    if (!scan.header) return done([emptyPart(format, { code: 'empty-file', message: 'The file has no header row', stage: 'index', severity: 'error', at: { file, offset: 0 } })])
    const extra = { header: scan.header, delimiter }
    return {
      parts: [interimPart(null, format, index, extra, scan.errors)],
      validated: false,
      validate: async (v) => [partFrom(null, format, index, await validatePart(file, format, index, extra, withOpts(v)), extra, scan.errors)]
    }
  }

  if (format === 'json') {
    const scan = await runTask('json-scan', { file }, { signal: opts.signal, onProgress: (p) => opts.onProgress?.('index', p.bytesDone, size, p.rows) })
    checkAbort(opts.signal)
    if (scan.kind === 'empty') return done([emptyPart(format, { code: 'empty-file', message: 'The file holds only whitespace', stage: 'index', severity: 'error', at: { file, offset: 0 } })])
    if (scan.kind === 'invalid') return done([emptyPart(format, scan.errors[0] ?? null)])
    if (scan.kind === 'object' && scan.parts.length === 0) {
      return done([emptyPart(format, { code: 'json-structure', message: 'The JSON object holds no array of rows', stage: 'index', severity: 'error', at: { file, offset: 0 } })])
    }
    if (scan.kind !== 'jsonl') {
      const parts = scan.parts.map((p, i) => ({ key: p.key, index: { starts: p.starts, ends: p.ends, lines: p.lines }, pre: i === 0 ? scan.errors : [] }))
      return {
        parts: parts.map((p) => interimPart(p.key, 'json', p.index, {}, p.pre)),
        validated: false,
        validate: async (v) => {
          const out: CachedPart[] = []
          for (const p of parts) out.push(partFrom(p.key, 'json', p.index, await validatePart(file, 'json', p.index, {}, withOpts(v)), {}, p.pre))
          return out
        }
      }
    }
    // Several top-level values: JSON Lines in a .json file.
  }

  const ji = await indexJsonl(file, size, opts)
  return {
    parts: [interimPart(null, 'jsonl', ji.index, {}, [])],
    validated: false,
    validate: async (v) => [partFrom(null, 'jsonl', ji.index, await validateJsonl(file, ji, withOpts(v)), {}, [])]
  }
}
