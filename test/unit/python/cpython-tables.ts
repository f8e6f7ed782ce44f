// Loads cpython-tables.json (written by gen-cpython-tables.py with CPython 3.11) and turns its encodings back
// into JS values: floats from their IEEE-754 bit patterns, containers from tagged trees, as the JSON values
// (shared/python/json.ts, also the Jinja runtime's shape) or the config evaluator's classes hold them.
import { readFileSync } from 'node:fs'
import { PyDict, PyList, PySet, PyTuple, type PyValue } from '../../../shared/config/python-values'
import { PyFloat, tuple } from '../../../shared/python/json'

export type Tagged =
  | null
  | boolean
  | { int: string }
  | { float: string }
  | { str: string }
  | { list: Tagged[] }
  | { tuple: Tagged[] }
  | { set: Tagged[] }
  | { dict: [Tagged, Tagged][] }

export interface Tables {
  python: string
  floats: { bits: string; repr: string }[]
  intDoubles: { bits: string; repr: string }[]
  bigints: { dec: string; repr: string }[]
  strings: { s: string; repr: string }[]
  containers: { value: Tagged; repr: string; str: string }[]
  json: { json: string; str: string; repr: string }[]
  spaceCodePoints: number[]
  strip: { s: string; strip: string }[]
  rstrip: { s: string; chars: string; rstrip: string }[]
}

export const tables: Tables = JSON.parse(readFileSync(new URL('./cpython-tables.json', import.meta.url), 'utf8'))

/** The double whose big-endian IEEE-754 bits are `hex` (16 hex digits). */
export function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8))
  view.setBigUint64(0, BigInt(`0x${hex}`))
  return view.getFloat64(0)
}

/** A tagged value as JSON data holds it: exact ints beyond 2**53 as bigint, integral floats as PyFloat, tuples marked. */
export function toJson(v: Tagged): unknown {
  if (v === null || typeof v === 'boolean') return v
  if ('int' in v) return Number.isSafeInteger(Number(v.int)) ? Number(v.int) : BigInt(v.int)
  if ('float' in v) return Number.isInteger(fromBits(v.float)) ? new PyFloat(fromBits(v.float)) : fromBits(v.float)
  if ('str' in v) return v.str
  if ('list' in v) return v.list.map(toJson)
  if ('tuple' in v) return tuple(v.tuple.map(toJson))
  if ('set' in v) throw new Error('JSON values have no set')
  return new Map(v.dict.map(([k, x]) => [toJson(k), toJson(x)]))
}

/** A tagged value as the config evaluator holds it (no float marker: 1.0 is the int 1). */
export function toConfig(v: Tagged): PyValue {
  if (v === null || typeof v === 'boolean') return v
  if ('int' in v) return Number(v.int)
  if ('float' in v) return fromBits(v.float)
  if ('str' in v) return v.str
  if ('list' in v) return new PyList(v.list.map(toConfig))
  if ('tuple' in v) return new PyTuple(v.tuple.map(toConfig))
  if ('set' in v) return new PySet(v.set.map(toConfig))
  const d = new PyDict()
  for (const [k, x] of v.dict) d.set(toConfig(k), toConfig(x))
  return d
}
