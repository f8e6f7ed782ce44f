// Parquet rows on demand through hyparquet (pure JavaScript): only the row groups a read touches are decoded.
// Every codec Parquet writers use is read: snappy and uncompressed by hyparquet itself, LZ4 / LZ4_RAW by
// hyparquet-compressors, GZIP / BROTLI / ZSTD by Node's own zlib (native, and fzstd/JS brotli as a fallback).
// Values are made JSON-safe for the UI and templates: INT64 → number, binary → {"$bytes": base64} (see
// media/media-value.ts: binary stays bytes, never text), dates → ISO strings; rows
// read for rendering keep Python's numbers (DOUBLE 1.0 → PyFloat, INT64 beyond 2^53 → bigint), like JSON rows.
// A corrupt row group is reported and its rows skipped; the others load. Before hyparquet decodes anything, the
// footer and every page header of a row group are checked (parquet-check.ts), so a corrupt file fails fast with
// the row group, column chunk, page and byte offset instead of hanging or leaking a JavaScript TypeError.
import { open } from 'node:fs/promises'
import zlib from 'node:zlib'
import type { AsyncBuffer, Compressors, FileMetaData } from 'hyparquet'
import type { DatasetError } from './types'
import { RowInspector } from './validate-rows'
import { unopenedPart, type CachedPart } from './index-cache'
import type { TaskContext } from '../workers/task-types'
import { PyFloat } from '../../../shared/python/json'
import { bytesValue, hfFeatureKinds, type MediaKind } from '../../../shared/media/media-value'
import { checkColumnChunk, checkMetadata, chunkRange, columnName, footerStart, pageHeaderReader, type ParquetFault } from './parquet-check'

type Hyparquet = typeof import('hyparquet')
let lib: Promise<Hyparquet> | null = null
// hyparquet is ESM-only; a dynamic import keeps this module loadable from the CommonJS main bundle.
function hyparquet(): Promise<Hyparquet> {
  return (lib ??= import('hyparquet'))
}

let codecs: Promise<Compressors> | null = null
/** Decompressors for every Parquet codec; loaded once (hyparquet-compressors is ESM-only, and loads a WASM snappy). */
export function parquetCompressors(): Promise<Compressors> {
  return (codecs ??= import('hyparquet-compressors').then(({ compressors }) => {
    const out: Compressors = { ...compressors }
    const u8 = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
    out.GZIP = (input) => u8(zlib.gunzipSync(input))
    out.BROTLI = (input) => u8(zlib.brotliDecompressSync(input))
    // zstd joined node:zlib in Node 22.15/23.8; older runtimes keep fzstd.
    const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array) => Buffer }).zstdDecompressSync
    if (zstd) out.ZSTD = (input) => u8(zstd(input))
    return out
  }))
}

export interface ParquetFile {
  file: string
  buffer: AsyncBuffer
  metadata: FileMetaData
  rowCount: number
  /** Start row of each row group, plus the total at the end. */
  groupStarts: number[]
  /** Row groups whose pages were checked: null when sound, else what is wrong and where. */
  checked?: Map<number, ParquetFault | null>
}

/** A corrupt row group, with the byte offset of the fault; callers turn it into a 'parquet-corrupt' error. */
export class ParquetCorrupt extends Error {
  constructor(
    message: string,
    public offset: number
  ) {
    super(message)
  }
}

/** An exception from the decoder as words a person can act on: JavaScript's own TypeErrors say nothing useful. */
function decoderReason(err: unknown): string {
  if (err instanceof TypeError || err instanceof RangeError || !(err instanceof Error)) return 'the data is corrupt (the decoder failed on it)'
  return err.message.replace(/^parquet /, '')
}

/** Reads the 4-byte footer length before the closing magic; NaN when the file is too short. */
async function footerLength(buffer: AsyncBuffer): Promise<number> {
  if (buffer.byteLength < 12) return NaN
  const tail = new DataView(await buffer.slice(buffer.byteLength - 8, buffer.byteLength - 4))
  return tail.getUint32(0, true)
}

async function fileBuffer(file: string): Promise<AsyncBuffer> {
  const fh = await open(file, 'r')
  const size = (await fh.stat()).size
  await fh.close()
  return {
    byteLength: size,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const stop = Math.min(end ?? size, size)
      const len = Math.max(0, stop - start)
      const h = await open(file, 'r')
      try {
        const buf = Buffer.alloc(len)
        await h.read(buf, 0, len, start)
        return buf.buffer.slice(buf.byteOffset, buf.byteOffset + len) as ArrayBuffer
      } finally {
        await h.close()
      }
    }
  }
}

export async function openParquet(file: string): Promise<{ ok: true; pq: ParquetFile } | { ok: false; error: DatasetError }> {
  let footerAt = 0
  try {
    const { parquetMetadataAsync } = await hyparquet()
    const buffer = await fileBuffer(file)
    if (buffer.byteLength === 0) {
      return { ok: false, error: { code: 'empty-file', message: 'The file is empty', stage: 'open', severity: 'error', at: { file, offset: 0 } } }
    }
    const len = await footerLength(buffer)
    // A footer length that does not fit the file is itself the fault: place it at the length field.
    footerAt = Number.isNaN(len) ? 0 : len + 8 > buffer.byteLength - 4 ? buffer.byteLength - 8 : footerStart(buffer.byteLength, len)
    const metadata = await parquetMetadataAsync(buffer)
    const fault = checkMetadata(metadata, buffer.byteLength, footerAt)
    if (fault) return { ok: false, error: { code: 'parquet-corrupt', message: `Not a readable Parquet file: ${fault.message}`, stage: 'open', severity: 'error', at: { file, offset: fault.offset } } }
    const groupStarts = [0]
    for (const g of metadata.row_groups) groupStarts.push(groupStarts[groupStarts.length - 1] + Number(g.num_rows))
    return { ok: true, pq: { file, buffer, metadata, rowCount: Number(metadata.num_rows), groupStarts } }
  } catch (err) {
    return {
      ok: false,
      error: {
        code: 'parquet-corrupt',
        message: `Not a readable Parquet file (truncated or corrupt footer at byte ${footerAt}): ${err instanceof TypeError || err instanceof RangeError ? 'its metadata cannot be decoded' : decoderReason(err)}`,
        stage: 'open',
        severity: 'error',
        at: { file, offset: footerAt }
      }
    }
  }
}

/** Media columns named by the file's `huggingface` schema metadata (datasets' Image/Audio/Video features). */
export function parquetMediaFeatures(pq: ParquetFile): Map<string, MediaKind> {
  const kv = pq.metadata.key_value_metadata?.find((x) => x.key === 'huggingface')
  return hfFeatureKinds(kv?.value ?? undefined)
}

/** Checks every page header of row group `g` once per opened file; null when sound. */
export async function checkRowGroup(pq: ParquetFile, g: number): Promise<ParquetFault | null> {
  const checked = (pq.checked ??= new Map())
  if (checked.has(g)) return checked.get(g)!
  const header = await pageHeaderReader()
  let fault: ParquetFault | null = null
  const columns = pq.metadata.row_groups[g].columns
  for (let k = 0; k < columns.length && !fault; k++) {
    const { start, end } = chunkRange(columns[k])
    const bytes = new Uint8Array(await pq.buffer.slice(start, end))
    fault = checkColumnChunk(header, bytes, start, columns[k], `Row group ${g}, column ${columnName(columns[k], k)}`)
  }
  checked.set(g, fault)
  return fault
}

/** Row groups that hold any of physical rows [start, end). */
function groupsOf(pq: ParquetFile, start: number, end: number): number[] {
  const out: number[] = []
  for (let g = 0; g + 1 < pq.groupStarts.length; g++) if (pq.groupStarts[g] < end && pq.groupStarts[g + 1] > start) out.push(g)
  return out
}

/** After a decode failure in row group `g`: the first column that fails on its own, named with its bytes, or null. */
async function blameColumn(pq: ParquetFile, g: number): Promise<ParquetCorrupt | null> {
  const { parquetReadObjects } = await hyparquet()
  const compressors = await parquetCompressors()
  const columns = pq.metadata.row_groups[g].columns
  for (let k = 0; k < columns.length; k++) {
    const name = columns[k].meta_data?.path_in_schema?.[0]
    if (name === undefined) continue
    try {
      await parquetReadObjects({ file: pq.buffer, metadata: pq.metadata, rowStart: pq.groupStarts[g], rowEnd: pq.groupStarts[g + 1], columns: [name], compressors, utf8: false })
    } catch (e) {
      const { start, end } = chunkRange(columns[k])
      return new ParquetCorrupt(`Row group ${g}, column ${columnName(columns[k], k)} (bytes ${start}–${end}): ${decoderReason(e)}`, start)
    }
  }
  return null
}

export function jsonSafe(v: unknown, keepBytes = false): unknown {
  if (typeof v === 'bigint') return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()
  if (v instanceof Uint8Array) return keepBytes ? v : bytesValue(v)
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString()
  if (Array.isArray(v)) return v.map((x) => jsonSafe(x, keepBytes))
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v)) out[k] = jsonSafe((v as Record<string, unknown>)[k], keepBytes)
    return out
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return null
  return v
}

/** Top-level FLOAT and DOUBLE columns: their integral values are Python floats (1.0), not ints. */
function floatColumns(md: FileMetaData): string[] {
  const out: string[] = []
  const root = md.schema[0]
  let i = 1
  for (let c = 0; c < (root?.num_children ?? 0) && i < md.schema.length; c++) {
    const el = md.schema[i]
    if (!el.num_children && (el.type === 'FLOAT' || el.type === 'DOUBLE')) out.push(el.name)
    // Skip the whole subtree of a group column.
    let pending = el.num_children ?? 0
    i++
    while (pending > 0 && i < md.schema.length) {
      pending += (md.schema[i].num_children ?? 0) - 1
      i++
    }
  }
  return out
}

/**
 * Reads physical rows [start, end); throws on a corrupt row group (callers turn that into data). With
 * pythonNumbers (rows read for rendering), top-level float columns keep integral values as PyFloat and INT64
 * beyond 2^53 stays an exact bigint, as readRows does for JSON; validation reads plain JSON-safe values.
 */
export async function readParquetRows(
  pq: ParquetFile,
  start: number,
  end: number,
  opts: { pythonNumbers?: boolean; binary?: 'tagged' | 'bytes' } = {}
): Promise<Record<string, unknown>[]> {
  const [{ parquetReadObjects }, compressors] = await Promise.all([hyparquet(), parquetCompressors()])
  const groups = groupsOf(pq, start, end)
  for (const g of groups) {
    const fault = await checkRowGroup(pq, g)
    if (fault) throw new ParquetCorrupt(fault.message, fault.offset)
  }
  let rows: Record<string, unknown>[]
  try {
    // utf8: false — only columns annotated as strings are text; plain BYTE_ARRAY (HF Image/Audio bytes) stays binary.
    rows = await parquetReadObjects({ file: pq.buffer, metadata: pq.metadata, rowStart: start, rowEnd: end, compressors, utf8: false })
  } catch (err) {
    for (const g of groups) {
      const blamed = await blameColumn(pq, g)
      if (blamed) throw blamed
    }
    const g = groups[0] ?? 0
    throw new ParquetCorrupt(`Row group ${g}: ${decoderReason(err)}`, pq.metadata.row_groups[g] ? chunkRange(pq.metadata.row_groups[g].columns[0]).start : 0)
  }
  const keep = opts.binary === 'bytes'
  if (!opts.pythonNumbers) return rows.map((r) => jsonSafe(r, keep) as Record<string, unknown>)
  const floats = floatColumns(pq.metadata)
  return rows.map((r) => {
    const big: Array<[string, bigint]> = []
    for (const k of Object.keys(r)) {
      const v = r[k]
      if (typeof v === 'bigint' && (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER))) big.push([k, v])
    }
    const out = jsonSafe(r, keep) as Record<string, unknown>
    for (const [k, v] of big) out[k] = v
    for (const k of floats) {
      const v = out[k]
      if (typeof v === 'number' && Number.isInteger(v)) out[k] = new PyFloat(v)
    }
    return out
  })
}

/** Decodes every row group once: columns, media refs, and the rows of groups that fail to decode. */
export async function validateParquet(
  pq: ParquetFile,
  opts: { maxErrors: number; maxFileRefs: number; aborted: () => boolean; progress: (rows: number) => void }
): Promise<CachedPart> {
  const insp = new RowInspector(pq.file, false, opts.maxFileRefs, opts.maxErrors, parquetMediaFeatures(pq))
  const errors: DatasetError[] = []
  const bad: number[] = []
  for (let g = 0; g + 1 < pq.groupStarts.length; g++) {
    if (opts.aborted()) break
    const a = pq.groupStarts[g]
    const b = pq.groupStarts[g + 1]
    try {
      // Python numbers here too, so a DOUBLE column of 1.0s is inferred as number and INT64 past 2^53 as integer.
      const rows = await readParquetRows(pq, a, b, { pythonNumbers: true })
      rows.forEach((r, k) => insp.inspect(r, a + k, undefined, undefined))
    } catch (err) {
      const corrupt = err instanceof ParquetCorrupt ? err : new ParquetCorrupt(`Row group ${g}: ${decoderReason(err)}`, chunkRange(pq.metadata.row_groups[g].columns[0]).start)
      errors.push({
        code: 'parquet-corrupt',
        message: `${corrupt.message}; rows ${a}–${b - 1} skipped`,
        stage: 'parse',
        severity: 'error',
        at: { file: pq.file, row: a, offset: corrupt.offset }
      })
      for (let r = a; r < b; r++) bad.push(r)
    }
    opts.progress(b)
  }
  return {
    key: null,
    format: 'parquet',
    rawRows: pq.rowCount,
    index: null,
    bad: Uint32Array.from(bad),
    columns: [...insp.cols],
    refsByKind: insp.refsByKind,
    refsTotal: insp.refsTotal,
    fileRefs: insp.fileRefs,
    fileRefsTruncated: insp.fileRefsTruncated,
    errors: [...errors, ...insp.warnings],
    errorCount: errors.length + insp.warningCount
  }
}

/**
 * Worker task: opens and validates one Parquet file, so decoding every row group happens off the main thread
 * (which only ever holds the footer metadata). A file that cannot be opened is a part with one error.
 */
export async function validateParquetFile(input: { file: string; maxErrors: number; maxFileRefs: number }, ctx: TaskContext): Promise<CachedPart> {
  const o = await openParquet(input.file)
  if (!o.ok) return unopenedPart('parquet', o.error)
  return validateParquet(o.pq, {
    maxErrors: input.maxErrors,
    maxFileRefs: input.maxFileRefs,
    aborted: ctx.aborted,
    progress: (rows) => ctx.progress({ bytesDone: 0, rows })
  })
}
