// Validates a run of indexed rows: decode every row, infer columns, collect media references, and list every
// row that cannot be read (with file, line and byte offset). Runs in a worker over one slice of the index;
// the caller merges slices. Reads are batched into large sequential reads so validation runs at disk speed.
import { isUtf8 } from 'node:buffer'
import { open } from 'node:fs/promises'
import type { TaskContext } from '../workers/task-types'
import { checkRequestedPath } from '../media/roots'
import { abbreviateRef, classifyMediaRef, refsInAisContent, type ClassifiedRef } from '../media/refs'
import type { DatasetError, MediaRef, MediaRefKind } from './types'
import type { RowIndex } from './row-index'
import { borrow, release } from './scratch-buffers'
import { decodeRow, type RowFormat } from './row-decode'
import { MAX_COLUMNS, MAX_DEPTH, MEDIA_SLOT0, MEDIA_SLOTS, csvCellSlot, typeSlot, type ColumnAcc } from './columns'
import { embeddedMedia, type MediaKind } from '../../../shared/media/media-value'
import { PyFloat } from '../../../shared/python/json'

export interface ValidateInput extends RowIndex {
  file: string
  format: RowFormat
  header?: string[] | null
  delimiter?: string
  /** Row number of starts[0] within its source. */
  rowBase: number
  maxRowBytes: number
  maxErrors: number
  maxFileRefs: number
}

export interface ValidateOutput {
  columns: Array<[string, ColumnAcc]>
  refsByKind: Partial<Record<MediaRefKind, number>>
  refsTotal: number
  fileRefs: MediaRef[]
  fileRefsTruncated: boolean
  errors: DatasetError[]
  errorCount: number
  /** Source-relative row numbers of skipped rows, ascending. */
  bad: Uint32Array
  cancelled: boolean
}

// Rows are read in batches of about 2 MiB: large enough that reads cost nothing, small enough that a batch's
// decoded strings and objects die young in the worker's small young generation.
const CHUNK = 2 << 20

/** Collects columns and media refs from decoded rows; shared with the Parquet reader. */
interface ColumnNode {
  key: string
  name: string
  acc: ColumnAcc | null
  children: Map<string, ColumnNode> | null
  /** Children in the order first seen: rows of one dataset list their keys in the same order, so the k-th key
   * of a row is almost always order[k], found by one identity compare instead of a Map lookup. */
  order: ColumnNode[]
}

/** Collects columns and media refs from decoded rows; shared with the Parquet reader. */
export class RowInspector {
  readonly cols = new Map<string, ColumnAcc>()
  readonly refsByKind: Partial<Record<MediaRefKind, number>> = {}
  refsTotal = 0
  readonly fileRefs: MediaRef[] = []
  fileRefsTruncated = false
  readonly warnings: DatasetError[] = []
  warningCount = 0
  // A tree keyed by field name, so nested paths are found without building `a.b` strings per row.
  private readonly root: ColumnNode = { key: '', name: '', acc: null, children: new Map(), order: [] }

  constructor(
    private readonly file: string,
    private readonly csv: boolean,
    private readonly maxFileRefs: number,
    private readonly maxWarnings: number,
    /** Media columns named by the file's own schema (HF `datasets` Image/Audio/Video features), by top-level name. */
    private readonly featureKinds: Map<string, MediaKind> = new Map()
  ) {}

  /**
   * The file refs for sending to the caller's thread, without their file name: a worker would otherwise send the
   * same path once per ref (structured clone does not share strings); the caller puts it back.
   */
  takeFileRefs(): MediaRef[] {
    for (const r of this.fileRefs) r.file = ''
    return this.fileRefs
  }

  /** The task's result: what this inspector collected plus the rows the scan itself could not read. */
  output(errors: DatasetError[], errorCount: number, bad: number[], cancelled: boolean): ValidateOutput {
    return {
      columns: [...this.cols],
      refsByKind: this.refsByKind,
      refsTotal: this.refsTotal,
      fileRefs: this.takeFileRefs(),
      fileRefsTruncated: this.fileRefsTruncated,
      errors: [...errors, ...this.warnings],
      errorCount: errorCount + this.warningCount,
      bad: Uint32Array.from(bad),
      cancelled
    }
  }

  inspect(value: Record<string, unknown>, row: number, line: number | undefined, offset: number | undefined): void {
    this.walk(value, this.root, 0, row, line, offset)
  }

  private child(parent: ColumnNode, key: string): ColumnNode {
    const children = (parent.children ??= new Map())
    let node = children.get(key)
    if (!node) {
      const name = parent.name ? `${parent.name}.${key}` : key
      let acc: ColumnAcc | null = null
      if (this.cols.size < MAX_COLUMNS) {
        acc = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        this.cols.set(name, acc)
      }
      node = { key, name, acc, children: null, order: [] }
      children.set(key, node)
      parent.order.push(node)
    }
    return node
  }

  private walk(obj: Record<string, unknown>, parent: ColumnNode, depth: number, row: number, line?: number, offset?: number): void {
    const order = parent.order
    let k = 0
    for (const key in obj) {
      const v = obj[key]
      const hint = k < order.length ? order[k] : null
      const node = hint !== null && hint.key === key ? hint : this.child(parent, key)
      k++
      const acc = node.acc
      if (acc) {
        acc[0]++
        acc[this.csv && typeof v === 'string' ? csvCellSlot(v) : typeSlot(v)]++
      }
      if (typeof v === 'string') this.str(v, key, node.name, row, line, offset)
      else if (v !== null && typeof v === 'object' && !(v instanceof PyFloat)) {
        if (this.embedded(v, node.name, row, line, offset)) continue
        if (Array.isArray(v)) this.deep(v, node.name, 0, row, line, offset)
        else if (depth < MAX_DEPTH) this.walk(v as Record<string, unknown>, node, depth + 1, row, line, offset)
        else this.deep(v, node.name, 0, row, line, offset)
      }
    }
  }

  /** Media refs inside arrays (e.g. OpenAI content parts) are collected, but arrays do not become columns. */
  private deep(v: unknown, name: string, depth: number, row: number, line?: number, offset?: number): void {
    if (depth > 6) return
    if (Array.isArray(v)) {
      const n = Math.min(v.length, 256)
      for (let i = 0; i < n; i++) {
        const x = v[i]
        if (typeof x === 'string') this.str(x, name.slice(name.lastIndexOf('.') + 1), name, row, line, offset)
        else if (x !== null && typeof x === 'object' && !this.embedded(x, name, row, line, offset)) this.deep(x, name, depth + 1, row, line, offset)
      }
    } else if (v !== null && typeof v === 'object') {
      for (const key in v as Record<string, unknown>) {
        const x = (v as Record<string, unknown>)[key]
        if (typeof x === 'string') this.str(x, key, `${name}.${key}`, row, line, offset)
        else if (x !== null && typeof x === 'object') this.deep(x, `${name}.${key}`, depth + 1, row, line, offset)
      }
    }
  }

  private str(v: string, key: string, column: string, row: number, line?: number, offset?: number): void {
    const ref = classifyMediaRef(v, key)
    if (ref) this.addRef(v, ref, column, row, line, offset)
    else if (v.length > 20 && v.includes('<AIS_')) {
      // Media inside a content string are references, but the column is prompt text, not a media column.
      for (const r of refsInAisContent(v)) this.addRef(r.value, r.ref, column, row, line, offset, false)
    }
  }

  /**
   * An HF media struct or tagged bytes: one media value (counted as `bytes`, its column marked as media); a struct
   * without bytes is a file reference by its path. Returns false for any other object.
   */
  private embedded(v: object, column: string, row: number, line?: number, offset?: number): boolean {
    const top = column.split('.')[0].replace(/\[\d+\]$/, '')
    const m = embeddedMedia(v, this.featureKinds.get(top))
    if (!m) return false
    if (m.base64 !== null) {
      this.refsTotal++
      this.refsByKind.bytes = (this.refsByKind.bytes ?? 0) + 1
      this.countMedia(column, m.kind)
    } else if (m.path !== null) {
      const ref = classifyMediaRef(m.path, 'path')
      this.addRef(m.path, ref ? { kind: ref.kind, media: m.kind ?? ref.media } : { kind: 'relative', media: m.kind ?? 'unknown' }, column, row, line, offset)
    }
    return true
  }

  private countMedia(column: string, kind: string | null): void {
    const k = MEDIA_SLOTS.indexOf(kind as (typeof MEDIA_SLOTS)[number])
    const acc = k < 0 ? undefined : this.cols.get(column)
    if (acc) acc[MEDIA_SLOT0 + k] = (acc[MEDIA_SLOT0 + k] ?? 0) + 1
  }

  private addRef(value: string, ref: ClassifiedRef, column: string, row: number, line?: number, offset?: number, mediaColumn = true): void {
    this.refsTotal++
    this.refsByKind[ref.kind] = (this.refsByKind[ref.kind] ?? 0) + 1
    if (mediaColumn) this.countMedia(column, ref.media)
    if (ref.kind !== 'relative' && ref.kind !== 'absolute' && ref.kind !== 'file-url') return
    const syn = checkRequestedPath(value)
    if (!syn.ok) {
      this.warningCount++
      if (this.warnings.length < this.maxWarnings) {
        this.warnings.push({
          code: 'media-refused',
          message: `Media reference refused: ${syn.reason} (${abbreviateRef(value)})`,
          stage: 'media',
          severity: 'warning',
          at: { file: this.file, line, row, offset, column }
        })
      }
      return
    }
    if (this.fileRefs.length < this.maxFileRefs) this.fileRefs.push({ kind: ref.kind, media: ref.media, value, column, row, file: this.file })
    else this.fileRefsTruncated = true
  }
}

export async function validateRows(input: ValidateInput, ctx: TaskContext): Promise<ValidateOutput> {
  const { file, format, starts, ends, lines, rowBase, maxRowBytes, maxErrors } = input
  const n = starts.length
  const insp = new RowInspector(file, format === 'csv' || format === 'tsv', input.maxFileRefs, maxErrors)
  const errors: DatasetError[] = []
  let errorCount = 0
  const bad: number[] = []
  const fail = (i: number, code: DatasetError['code'], message: string): void => {
    bad.push(rowBase + i)
    errorCount++
    if (errors.length < maxErrors) {
      errors.push({ code, message, stage: 'parse', severity: 'error', at: { file, line: lines[i], row: rowBase + i, offset: starts[i] } })
    }
  }
  const dctx = { format, header: input.header, delimiter: input.delimiter, utf8Checked: false }
  let buf = borrow(CHUNK)
  let cancelled = false
  const fh = await open(file, 'r')
  try {
    let i = 0
    while (i < n) {
      if (ctx.aborted()) {
        cancelled = true
        break
      }
      const len0 = ends[i] - starts[i]
      if (len0 > maxRowBytes) {
        fail(i, 'row-too-large', `Row is ${len0} bytes, over the ${maxRowBytes}-byte limit; skipped`)
        i++
        continue
      }
      // Batch rows i..j-1 into one read.
      const base = starts[i]
      let j = i + 1
      const cap = Math.max(buf.length, len0)
      while (j < n && ends[j] - base <= cap && ends[j] - starts[j] <= maxRowBytes) j++
      const span = ends[j - 1] - base
      if (span > buf.length) {
        // One row larger than a batch: a buffer of its own, returned to the pool as the standard one.
        release(buf)
        buf = Buffer.allocUnsafe(span)
      }
      const { bytesRead } = await fh.read(buf, 0, span, base)
      // One UTF-8 check for the whole batch; only a failing batch is checked row by row.
      dctx.utf8Checked = isUtf8(buf.subarray(0, bytesRead))
      for (let k = i; k < j; k++) {
        const s = starts[k] - base
        const e = ends[k] - base
        if (e > bytesRead) {
          fail(k, 'read-failed', 'The file is shorter than when it was indexed')
          continue
        }
        const d = decodeRow(buf, s, e, dctx)
        if (!d.ok) fail(k, d.code, d.message)
        else insp.inspect(d.value, rowBase + k, lines[k], starts[k])
      }
      i = j
      ctx.progress({ bytesDone: ends[j - 1] - starts[0], rows: j })
    }
  } finally {
    release(buf)
    await fh.close()
  }
  return insp.output(errors, errorCount, bad, cancelled)
}
