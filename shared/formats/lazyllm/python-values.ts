// Python value semantics the LazyLLM prompters leak into their output: `str()`/`repr()` of dicts, lists, None and
// booleans, `type()` names in error messages, `str.strip()`, tuple unpacking of history pairs, and a `str.format`
// that fails where Python fails. Values are plain JSON-like data; a float that came from parsing is a PyFloat so
// `1.0` still prints as `1.0`.

import { PyError } from '../../python/errors'
import { strFormat } from '../../python/format'
import { PyFloat, jsonView } from '../../python/json'
import { floatRepr, strRepr } from '../../python/repr'
import { PyRuntime } from '../../python/values'
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

/** LazyLLM's values are JSON data; a function (a tool given as a callable) prints as `<function>`. */
const runtime = new PyRuntime((v) => (typeof v === 'function' ? { t: 'object', type: 'function', repr: '<function>' } : jsonView(v)))

/** Python's `type(v).__name__`. */
export const pyTypeName = (v: unknown): string => runtime.typeName(v)

/** `<class 'list'>` as Python prints `type(v)`. */
export function pyTypeRepr(v: unknown): string {
  return `<class '${pyTypeName(v)}'>`
}

export const pyRepr = (v: PyValue): string => runtime.repr(v)

/** Python's `str(v)`: strings as they are, everything else as its repr. */
export const pyStr = (v: PyValue): string => runtime.str(v)

/** Python truthiness. */
export const pyTruthy = (v: PyValue): boolean => runtime.truthy(v)

/** `a, b = v`, with Python's unpacking errors; a dict unpacks to its keys and a string to its characters. */
export function unpackPair(v: PyValue): [PyValue, PyValue] {
  const [a, b] = runtime.unpack(v, 2) as PyValue[]
  return [a, b]
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

/** Python `template.format(**kwargs)`. */
export function pyFormat(template: string, kwargs: Record<string, PyValue>): string {
  return strFormat(runtime.formatModel, template, [], new Map(Object.entries(kwargs)))
}
