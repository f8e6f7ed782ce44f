// Turns one row's bytes into an object, for every byte-range format. The result is data: a row that cannot be
// read comes back as { ok: false, code, message } so the caller can skip it and say where.
import { isUtf8 } from 'node:buffer'
import type { DatasetErrorCode } from './types'
import { parseCsvRecord } from './csv-record'
import { parsePyJson } from '../../../shared/python/json'

// A number written with a fraction or exponent somewhere in the row: only then is the slower parse needed.
const FLOATISH = /\d\.\d|\d[eE][+-]?\d|\d{16}/

export type RowFormat = 'jsonl' | 'json' | 'csv' | 'tsv'

/**
 * Deepest nesting of arrays and objects a JSON row may have. V8's JSON.parse takes time quadratic in the depth (a
 * 50 MB line of `[` ran for minutes), and Python's json.loads fails far earlier (RecursionError near 1000).
 */
export const MAX_JSON_DEPTH = 10000
// Rows shorter than this cannot nest deeper than MAX_JSON_DEPTH (each level takes a byte), so are not scanned.
const DEPTH_SCAN_BYTES = MAX_JSON_DEPTH

/** Deepest array/object nesting in JSON bytes [s, e), stopping once past `limit`; brackets in strings do not count. */
export function jsonDepth(buf: Uint8Array, s: number, e: number, limit: number): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = s; i < e; i++) {
    const c = buf[i]
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max && (max = depth) > limit) return max
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return max
}

export type Decoded = { ok: true; value: Record<string, unknown> } | { ok: false; code: DatasetErrorCode; message: string }

export interface DecodeContext {
  format: RowFormat
  header?: string[] | null
  delimiter?: string
  /** Set when the caller already checked the whole buffer is valid UTF-8 (one fast check per chunk). */
  utf8Checked?: boolean
  /**
   * Keep Python's number types: 1.0 stays a float (PyFloat) and big integers exact (bigint), so a rendered prompt
   * prints them as OpenCompass's str() does. Used when rows are read for rendering, not for bulk validation.
   */
  pythonNumbers?: boolean
}

export function decodeRow(buf: Buffer, s: number, e: number, ctx: DecodeContext): Decoded {
  if (!ctx.utf8Checked && !isUtf8(buf.subarray(s, e))) {
    return { ok: false, code: 'invalid-utf8', message: 'Row is not valid UTF-8' }
  }
  if (ctx.format !== 'csv' && ctx.format !== 'tsv' && e - s > DEPTH_SCAN_BYTES && jsonDepth(buf, s, e, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return { ok: false, code: 'json-too-deep', message: `Row nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; skipped` }
  }
  const text = buf.toString('utf8', s, e)
  if (ctx.format === 'csv' || ctx.format === 'tsv') {
    const header = ctx.header ?? []
    const fields = parseCsvRecord(text, ctx.delimiter ?? ',')
    if (fields.length !== header.length) {
      return { ok: false, code: 'ragged-row', message: `Row has ${fields.length} fields, the header has ${header.length}` }
    }
    const value: Record<string, unknown> = {}
    for (let k = 0; k < header.length; k++) value[header[k]] = fields[k]
    return { ok: true, value }
  }
  let value: unknown
  try {
    value = ctx.pythonNumbers && FLOATISH.test(text) ? parsePyJson(text) : JSON.parse(text)
  } catch (err) {
    return { ok: false, code: 'invalid-json', message: `Invalid JSON: ${(err as Error).message}` }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, code: 'not-an-object', message: `A row must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}` }
  }
  return { ok: true, value: value as Record<string, unknown> }
}
