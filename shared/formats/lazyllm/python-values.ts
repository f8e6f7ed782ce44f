// Python value semantics the LazyLLM prompters leak into their output: `str()`/`repr()` of dicts, lists, None and
// booleans, `type()` names in error messages, `str.strip()`, tuple unpacking of history pairs, and a `str.format`
// that fails where Python fails. Values are plain JSON-like data; a float that came from parsing is a PyFloat so
// `1.0` still prints as `1.0`.

import { PyError } from '../../python/errors'
import { strFormat, type FormatModel } from '../../python/format'
import { PyFloat } from '../../python/json'
import { jsonFormatModel } from '../../python/values'
import { NONE_REPR, boolRepr, dictRepr, floatRepr, listRepr, numberRepr, strRepr } from '../../python/repr'
import { pyStrip } from '../../python/str-methods'

// PyFloat is the shared JSON float marker, so a row parsed with parsePyJson prints its 1.0 as 1.0 here too.
export { PyFloat, pyStrip }
export { floatRepr as pyFloatRepr, strRepr as pyStrRepr }

export type PyValue = string | number | boolean | null | undefined | PyFloat | PyValue[] | PyDict

export interface PyDict {
  [key: string]: PyValue
}

export { PyError }

export function isDict(v: unknown): v is PyDict {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof PyFloat)
}

/** Python's `type(v).__name__`. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType'
  if (typeof v === 'string') return 'str'
  if (typeof v === 'boolean') return 'bool'
  if (v instanceof PyFloat) return 'float'
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float'
  if (Array.isArray(v)) return 'list'
  if (typeof v === 'function') return 'function'
  return 'dict'
}

/** `<class 'list'>` as Python prints `type(v)`. */
export function pyTypeRepr(v: unknown): string {
  return `<class '${pyTypeName(v)}'>`
}

export function pyRepr(v: PyValue): string {
  if (v === null || v === undefined) return NONE_REPR
  if (typeof v === 'string') return strRepr(v)
  if (typeof v === 'boolean') return boolRepr(v)
  if (typeof v === 'number') return numberRepr(v)
  if (v instanceof PyFloat) return floatRepr(v.value)
  if (Array.isArray(v)) return listRepr(v.map(pyRepr))
  if (typeof v === 'function') return '<function>'
  return dictRepr(Object.entries(v).map(([k, x]) => [strRepr(k), pyRepr(x)] as const))
}

/** Python's `str(v)`: strings as they are, everything else as its repr. */
export function pyStr(v: PyValue): string {
  return typeof v === 'string' ? v : pyRepr(v)
}

/** Python truthiness. */
export function pyTruthy(v: PyValue): boolean {
  if (v === null || v === undefined || v === false || v === '' || v === 0) return false
  if (v instanceof PyFloat) return v.value !== 0
  if (Array.isArray(v)) return v.length > 0
  if (isDict(v)) return Object.keys(v).length > 0
  return true
}

/** `a, b = v`, with Python's unpacking errors; a dict unpacks to its keys and a string to its characters. */
export function unpackPair(v: PyValue): [PyValue, PyValue] {
  let items: PyValue[]
  if (Array.isArray(v)) items = v
  else if (typeof v === 'string') items = Array.from(v)
  else if (isDict(v)) items = Object.keys(v)
  else throw new PyError('TypeError', `cannot unpack non-iterable ${pyTypeName(v)} object`)
  if (items.length < 2) throw new PyError('ValueError', `not enough values to unpack (expected 2, got ${items.length})`)
  if (items.length > 2) throw new PyError('ValueError', 'too many values to unpack (expected 2)')
  return [items[0], items[1]]
}

/** JSON input numbers: integral ones are Python ints, the rest floats (the goldens never write `2.0`). */
export function fromJson(v: unknown): PyValue {
  if (Array.isArray(v)) return v.map(fromJson)
  if (isDict(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromJson(x)]))
  return v as PyValue
}

/** Back to plain JSON data (PyFloat unwrapped) for results handed to callers. */
export function toJson(v: PyValue): unknown {
  if (v instanceof PyFloat) return v.value
  if (Array.isArray(v)) return v.map(toJson)
  if (isDict(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]))
  return v === undefined ? null : v
}

// ---- str.format ----------------------------------------------------------------------------------------------

/** LazyLLM's values as shared/python's format() sees them: JSON-like, printed by this module's str()/repr(). */
const lazyFormatModel: FormatModel = { ...jsonFormatModel, str: (v) => pyStr(v as PyValue), repr: (v) => pyRepr(v as PyValue), typeName: pyTypeName }

/** Python `template.format(**kwargs)`. */
export function pyFormat(template: string, kwargs: Record<string, PyValue>): string {
  return strFormat(lazyFormatModel, template, [], new Map(Object.entries(kwargs)))
}
