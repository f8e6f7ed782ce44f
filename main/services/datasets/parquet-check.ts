// Structural checks of a Parquet file before hyparquet decodes it. hyparquet trusts the footer and page headers:
// one flipped byte can make it read a size of `true`, loop without end over a column chunk, or fail with
// "Cannot read properties of undefined". These checks read the same thrift structures and refuse, in time linear
// in the file's size, anything that is not a well-formed footer or page sequence, naming the row group, column
// chunk, page and byte offset, so a corrupt file is one clean error and never a hang.
import type { ColumnChunk, FileMetaData } from 'hyparquet'

type HeaderReader = typeof import('hyparquet/src/column.js').parquetHeader
let headerReader: Promise<HeaderReader> | null = null
/** hyparquet's own page-header reader (the package exports its src/*.js files; ESM-only, so imported lazily). */
export function pageHeaderReader(): Promise<HeaderReader> {
  return (headerReader ??= import('hyparquet/src/column.js').then((m) => m.parquetHeader))
}

/** Where a structural problem is, and what it is. */
export interface ParquetFault {
  message: string
  offset: number
  /** Row group index, when the fault is in one. */
  group?: number
}

const CODECS = new Set(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'])
const PAGE_TYPES = new Set(['DATA_PAGE', 'DATA_PAGE_V2', 'DICTIONARY_PAGE', 'INDEX_PAGE'])
/** Larger pages than this are refused: no writer makes them, and a corrupt size would allocate gigabytes. */
export const MAX_PAGE_BYTES = 1 << 30

/** A thrift integer (number or bigint) as a number, or NaN when it is anything else. */
function int(v: unknown): number {
  if (typeof v === 'bigint') return Number(v)
  if (typeof v === 'number' && Number.isInteger(v)) return v
  return NaN
}
const isCount = (v: unknown): boolean => int(v) >= 0

/** The byte where the footer (FileMetaData) starts: before its 4-byte length and the closing "PAR1". */
export function footerStart(fileSize: number, footerLength: number): number {
  return Math.max(0, fileSize - 8 - footerLength)
}

/** Byte range [start, end) of a column chunk, as hyparquet reads it (dictionary page first when there is one). */
export function chunkRange(c: ColumnChunk): { start: number; end: number } {
  const m = c.meta_data!
  const dict = m.dictionary_page_offset === undefined ? NaN : int(m.dictionary_page_offset)
  const data = int(m.data_page_offset)
  const start = dict > 0 && dict < data ? dict : data
  return { start, end: start + int(m.total_compressed_size) }
}

/** The column's dotted name in a row group, for messages. */
export function columnName(c: ColumnChunk | undefined, k: number): string {
  const path = c?.meta_data?.path_in_schema
  return Array.isArray(path) && path.every((p) => typeof p === 'string') ? path.join('.') : `#${k}`
}

/** Checks the decoded footer against itself and the file's size; null when it is consistent. */
export function checkMetadata(md: FileMetaData, fileSize: number, footerAt: number): ParquetFault | null {
  const fault = (message: string, group?: number): ParquetFault => ({ message: `Corrupt footer: ${message}`, offset: footerAt, group })
  if (!isCount(md.num_rows)) return fault('the row count is not a count')
  if (!Array.isArray(md.schema) || md.schema.length === 0 || !md.schema.every((e) => e && typeof e.name === 'string')) return fault('the schema is unreadable')
  const leaves = md.schema.filter((e, i) => i > 0 && !e.num_children).length
  if (!Array.isArray(md.row_groups)) return fault('the row groups are unreadable')
  let rows = 0
  for (let g = 0; g < md.row_groups.length; g++) {
    const rg = md.row_groups[g]
    if (!rg || !isCount(rg.num_rows) || !Array.isArray(rg.columns)) return fault(`row group ${g} is unreadable`, g)
    rows += int(rg.num_rows)
    if (rg.columns.length !== leaves) return fault(`row group ${g} has ${rg.columns.length} column chunks, the schema ${leaves} columns`, g)
    for (let k = 0; k < rg.columns.length; k++) {
      const c = rg.columns[k]
      const m = c?.meta_data
      const where = `row group ${g}, column ${columnName(c, k)}`
      if (!m) return fault(`${where}: no column metadata`, g)
      if (!CODECS.has(m.codec)) return fault(`${where}: unknown compression codec`, g)
      if (!Array.isArray(m.path_in_schema)) return fault(`${where}: unreadable column path`, g)
      if (!isCount(m.num_values) || !isCount(m.total_compressed_size) || !isCount(m.data_page_offset)) return fault(`${where}: unreadable sizes or offsets`, g)
      if (m.dictionary_page_offset !== undefined && !isCount(m.dictionary_page_offset)) return fault(`${where}: unreadable dictionary page offset`, g)
      const { start, end } = chunkRange(c)
      if (start < 4 || end > footerAt) return fault(`${where}: the column chunk (bytes ${start}–${end}) lies outside the data (bytes 4–${footerAt})`, g)
    }
  }
  if (rows !== int(md.num_rows)) return fault(`the row groups hold ${rows} rows, the file says ${int(md.num_rows)}`)
  if (footerAt > fileSize) return fault('the footer is longer than the file')
  return null
}

/** Length of the snappy stream's declared output (its leading varint), or NaN when unreadable. */
function snappyLength(bytes: Uint8Array): number {
  let n = 0
  for (let i = 0, shift = 0; i < 5 && i < bytes.length; i++, shift += 7) {
    n += (bytes[i] & 0x7f) * 2 ** shift
    if (!(bytes[i] & 0x80)) return n
  }
  return NaN
}

/**
 * Walks the pages of one column chunk (its bytes in `chunk`, starting at file offset `start`): every header must
 * parse, name a known page type, give sizes that fit the chunk, and the data pages must hold the chunk's values.
 */
export function checkColumnChunk(parquetHeader: HeaderReader, chunk: Uint8Array, start: number, c: ColumnChunk, where: string): ParquetFault | null {
  const m = c.meta_data!
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  const reader = { view, offset: 0 }
  let values = 0
  let page = 0
  const expected = int(m.num_values)
  // hyparquet stops reading a chunk one byte before its end; a page sequence shorter than the chunk is fine.
  while (reader.offset < chunk.byteLength - 1 && values < expected) {
    const at = start + reader.offset
    const fault = (what: string): ParquetFault => ({ message: `${where}, page ${page} at byte ${at}: ${what}`, offset: at })
    let h: ReturnType<HeaderReader>
    try {
      h = parquetHeader(reader)
    } catch {
      return fault('unreadable page header')
    }
    const size = int(h.compressed_page_size)
    const full = int(h.uncompressed_page_size)
    if (!PAGE_TYPES.has(h.type as string)) return fault('unknown page type')
    if (!(size >= 0) || !(full >= 0)) return fault('page sizes are not sizes')
    if (full > MAX_PAGE_BYTES) return fault(`page claims ${full} bytes uncompressed (over ${MAX_PAGE_BYTES})`)
    if (reader.offset + size > chunk.byteLength) return fault(`page of ${size} bytes runs past the column chunk's end (byte ${start + chunk.byteLength})`)
    const body = chunk.subarray(reader.offset, reader.offset + size)
    let compressed = body
    let declared = full
    if (h.type === 'DATA_PAGE') {
      const d = h.data_page_header
      if (!d || !isCount(d.num_values) || !d.encoding) return fault('unreadable data page header')
      values += int(d.num_values)
    } else if (h.type === 'DATA_PAGE_V2') {
      const d = h.data_page_header_v2
      if (!d || !isCount(d.num_values) || !isCount(d.num_rows) || !isCount(d.num_nulls) || !d.encoding) return fault('unreadable data page header')
      const levels = int(d.definition_levels_byte_length) + int(d.repetition_levels_byte_length)
      if (!(levels >= 0) || levels > size || levels > full) return fault('level lengths do not fit the page')
      if (int(d.num_nulls) > int(d.num_values)) return fault('more nulls than values')
      values += int(d.num_values)
      compressed = d.is_compressed === false ? new Uint8Array(0) : body.subarray(levels)
      declared = d.is_compressed === false ? 0 : full - levels
    } else if (h.type === 'DICTIONARY_PAGE') {
      const d = h.dictionary_page_header
      if (!d || !isCount(d.num_values)) return fault('unreadable dictionary page header')
    }
    if (m.codec === 'SNAPPY' && compressed.length > 0 && snappyLength(compressed) !== declared) return fault(`compressed data declares ${snappyLength(compressed)} bytes, the header ${declared}`)
    if (m.codec === 'UNCOMPRESSED' && h.type !== 'DATA_PAGE_V2' && size !== full) return fault(`uncompressed page of ${size} bytes claims ${full}`)
    reader.offset += size
    page++
  }
  if (values !== expected) return { message: `${where}: the pages hold ${values} values, the column chunk ${expected}`, offset: start }
  return null
}
