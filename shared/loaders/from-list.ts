// datasets.Dataset.from_list as the loaders' rows go through it: the columns are the FIRST row's keys (later
// rows' extra keys dropped, missing ones None), each column gets one Arrow type (ints mixed with floats become
// floats, nested dicts one struct with every key any row had, missing ones None), and a column mixing strings
// with numbers fails with ArrowInvalid, as pyarrow's conversion does.
import { NpInt, PyError, PyFloat, cellStr } from './py'

type T =
  | { k: 'null' }
  | { k: 'bool' }
  | { k: 'int' }
  | { k: 'float' }
  | { k: 'str' }
  | { k: 'bytes' }
  | { k: 'list'; item: T }
  | { k: 'struct'; fields: Map<string, T> }

const NULL: T = { k: 'null' }

function typeOf(v: unknown): T {
  if (v === null || v === undefined) return NULL
  if (typeof v === 'boolean') return { k: 'bool' }
  if (
    v instanceof NpInt ||
    typeof v === 'bigint' ||
    (typeof v === 'number' && Number.isInteger(v) && !Object.is(v, -0))
  )
    return { k: 'int' }
  if (typeof v === 'number' || v instanceof PyFloat) return { k: 'float' }
  if (typeof v === 'string') return { k: 'str' }
  if (v instanceof Uint8Array) return { k: 'bytes' }
  if (Array.isArray(v)) return { k: 'list', item: v.reduce((t: T, x) => unify(t, typeOf(x), x), NULL) }
  if (typeof v === 'object') {
    const fields = new Map<string, T>()
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) fields.set(k, typeOf(x))
    return { k: 'struct', fields }
  }
  throw new PyError('ArrowInvalid', `Could not convert ${cellStr(v)}: unsupported type`)
}

function unify(a: T, b: T, sample: unknown): T {
  if (a.k === 'null') return b
  if (b.k === 'null') return a
  if (a.k === b.k) {
    if (a.k === 'list' && b.k === 'list') return { k: 'list', item: unify(a.item, b.item, sample) }
    if (a.k === 'struct' && b.k === 'struct') {
      const fields = new Map(a.fields)
      for (const [k, t] of b.fields) fields.set(k, fields.has(k) ? unify(fields.get(k)!, t, sample) : t)
      return { k: 'struct', fields }
    }
    return a
  }
  if ((a.k === 'int' && b.k === 'float') || (a.k === 'float' && b.k === 'int')) return { k: 'float' }
  const want = a.k === 'str' ? 'string' : a.k === 'float' ? 'double' : a.k === 'int' ? 'int64' : a.k
  const got =
    typeof sample === 'string'
      ? 'str'
      : sample instanceof PyFloat || typeof sample === 'number'
        ? 'float'
        : typeof sample
  throw new PyError(
    'ArrowInvalid',
    `Could not convert ${typeof sample === 'string' ? `'${sample}'` : cellStr(sample)} with type ${got}: tried to convert to ${want}`
  )
}

function convert(v: unknown, t: T): unknown {
  if (v === null || v === undefined) return null
  switch (t.k) {
    case 'float': {
      const x = v instanceof PyFloat ? v.value : v instanceof NpInt ? v.value : Number(v)
      return Number.isInteger(x) || !Number.isFinite(x) ? new PyFloat(x) : x
    }
    case 'int':
      return v instanceof NpInt ? v.value : v
    case 'list':
      return (v as unknown[]).map((x) => convert(x, t.item))
    case 'struct': {
      const o = v as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const [k, ft] of t.fields) out[k] = convert(o[k], ft)
      return out
    }
    default:
      return v
  }
}

export interface LoadedTable {
  columns: string[]
  rows: Record<string, unknown>[]
}

export function fromList(list: Record<string, unknown>[]): LoadedTable {
  if (list.length === 0) return { columns: [], rows: [] }
  const columns = Object.keys(list[0])
  const types = columns.map((c) => {
    let t: T = NULL
    for (const r of list) {
      const v = r[c]
      t = unify(t, typeOf(v), v)
    }
    return t
  })
  const rows = list.map((r) => {
    const o: Record<string, unknown> = {}
    columns.forEach((c, k) => (o[c] = convert(r[c], types[k])))
    return o
  })
  return { columns, rows }
}
