// pandas.read_csv(path, sep='\t') as VLMEvalKit-style loaders call it: quoted fields (QUOTE_MINIMAL, doubled
// quotes), blank lines skipped, pandas' default NA strings read as NaN, and each column typed as pandas types it
// (int64 when every cell is an integer, float64 when numbers mix with NaN or decimals, bool, else object). The
// types matter upstream: an int64 option is refused by json.dumps, a float prints "4.0".
import { NpInt, NaN_, PyError, PyFloat } from './py'

const NA_VALUES = new Set([
  '',
  '#N/A',
  '#N/A N/A',
  '#NA',
  '-1.#IND',
  '-1.#QNAN',
  '-NaN',
  '-nan',
  '1.#IND',
  '1.#QNAN',
  '<NA>',
  'N/A',
  'NA',
  'NULL',
  'NaN',
  'None',
  'n/a',
  'nan',
  'null'
])
/** A field pandas reads as NaN by default ('', 'NA', 'nan', 'null', …). */
export function isNaString(v: string): boolean {
  return NA_VALUES.has(v)
}
const INT = /^\s*[+-]?\d+\s*$/
const FLOAT = /^\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity)\s*$/i
const TRUE = new Set(['True', 'TRUE', 'true'])
const FALSE = new Set(['False', 'FALSE', 'false'])

export type Dtype = 'int64' | 'float64' | 'bool' | 'object'

export interface DataFrame {
  columns: string[]
  dtypes: Dtype[]
  /** Column-major cells: str / NpInt / PyFloat / number / bool. */
  data: unknown[][]
  length: number
}

/** Splits TSV text into records of raw fields (null = an unquoted empty field would be NA too). */
export function splitRecords(text: string, sep = '\t'): Array<Array<{ v: string; quoted: boolean }>> {
  const rows: Array<Array<{ v: string; quoted: boolean }>> = []
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const n = text.length
  while (i < n) {
    const fields: Array<{ v: string; quoted: boolean }> = []
    let blank = true
    for (;;) {
      let v = ''
      let quoted = false
      if (text[i] === '"') {
        quoted = true
        blank = false
        i++
        for (;;) {
          const q = text.indexOf('"', i)
          if (q < 0) {
            v += text.slice(i)
            i = n
            break
          }
          v += text.slice(i, q)
          if (text[q + 1] === '"') {
            v += '"'
            i = q + 2
          } else {
            i = q + 1
            break
          }
        }
      }
      let j = i
      while (j < n && text[j] !== sep && text[j] !== '\n' && text[j] !== '\r') j++
      if (j > i) blank = false
      v += text.slice(i, j)
      fields.push({ v, quoted })
      i = j
      if (text[i] === sep) {
        blank = false
        i++
        continue
      }
      if (text[i] === '\r') i++
      if (text[i] === '\n') i++
      break
    }
    if (!blank) rows.push(fields)
  }
  return rows
}

/** One column's raw fields (null: NA) typed as read_csv types them. */
export function typeColumn(raw: Array<string | null>): { dtype: Dtype; cells: unknown[] } {
  let ints = true
  let floats = true
  let bools = true
  let na = false
  for (const v of raw) {
    if (v === null) {
      na = true
      continue
    }
    if (ints && !INT.test(v)) ints = false
    if (floats && !FLOAT.test(v)) floats = false
    if (bools && !TRUE.has(v) && !FALSE.has(v)) bools = false
  }
  const allNa = raw.every((v) => v === null)
  if (allNa) return { dtype: 'float64', cells: raw.map(() => NaN_()) }
  if (ints && !na) return { dtype: 'int64', cells: raw.map((v) => new NpInt(Number.parseInt(v!, 10))) }
  if (ints || floats) {
    return {
      dtype: 'float64',
      cells: raw.map((v) =>
        v === null ? NaN_() : pyFloat(Number(v.trim().replace(/^([+-]?)inf(inity)?$/i, '$1Infinity')))
      )
    }
  }
  if (bools && !na) return { dtype: 'bool', cells: raw.map((v) => TRUE.has(v!)) }
  return { dtype: 'object', cells: raw.map((v) => (v === null ? NaN_() : bools ? TRUE.has(v) : v)) }
}

function pyFloat(x: number): PyFloat | number {
  return Number.isInteger(x) || !Number.isFinite(x) ? new PyFloat(x) : x
}

/** read_csv(sep='\t') of a whole file's text. A row with more fields than the header is refused as pandas does. */
export function readTsv(text: string): DataFrame {
  const recs = splitRecords(text)
  if (recs.length === 0) throw new PyError('EmptyDataError', 'No columns to parse from file')
  const header = recs[0].map((f) => f.v)
  const columns = dedupeHeader(header)
  const raws: Array<Array<string | null>> = columns.map(() => [])
  for (let r = 1; r < recs.length; r++) {
    const rec = recs[r]
    if (rec.length > columns.length) {
      throw new PyError(
        'ParserError',
        `Error tokenizing data. C error: Expected ${columns.length} fields in line ${r + 1}, saw ${rec.length}`
      )
    }
    for (let c = 0; c < columns.length; c++) {
      const f = rec[c]
      raws[c].push(!f || isNaString(f.v) ? null : f.v)
    }
  }
  const typed = raws.map(typeColumn)
  return { columns, dtypes: typed.map((t) => t.dtype), data: typed.map((t) => t.cells), length: recs.length - 1 }
}

/** pandas renames repeated header names a, a.1, a.2. */
function dedupeHeader(h: string[]): string[] {
  const seen = new Map<string, number>()
  return h.map((name) => {
    const k = seen.get(name)
    seen.set(name, (k ?? 0) + 1)
    return k ? `${name}.${k}` : name
  })
}

export function column(df: DataFrame, name: string): unknown[] | undefined {
  const k = df.columns.indexOf(name)
  return k < 0 ? undefined : df.data[k]
}
