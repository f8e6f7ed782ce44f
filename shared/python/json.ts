// Python values carried in JSON data (dataset rows, configs handed to the engine): parsing that keeps what
// JSON.parse loses (1.0 stays a float, ints beyond 2**53 stay exact), typed label keys, Python key equality
// (1 == 1.0 == True), and the view shared/python/values.ts prints, tests and formats them through.

import { bytesRepr, strRepr } from './repr'
import { PyRuntime, computedScalarView, type PyView } from './values'

const TUPLE = Symbol('tuple')
/** Marks an array as a Python tuple (it prints as one, and `%` spreads it). */
export function tuple<T extends unknown[]>(a: T): T {
  ;(a as unknown as Record<symbol, boolean>)[TUPLE] = true
  return a
}
export const isTuple = (v: unknown): boolean => Array.isArray(v) && (v as unknown as Record<symbol, unknown>)[TUPLE] === true

/** A Python float whose value is integral (1.0, -0.0, 1e16): JSON.parse would turn it into an int. */
export class PyFloat {
  constructor(public readonly value: number) {}
  toJSON(): number {
    return this.value
  }
  /** Arithmetic and Number() see the float (the Jinja runtime computes with it). */
  valueOf(): number {
    return this.value
  }
}

/** A dict whose keys are not all strings (PPL label templates: {0: '…', 1: '…'}), decoded from {"__label_dict__": [[k, v], …]}. */
export class LabelDict {
  constructor(public readonly entries: Array<[unknown, unknown]>) {}
  keys(): unknown[] {
    return this.entries.map((e) => e[0])
  }
  values(): unknown[] {
    return this.entries.map((e) => e[1])
  }
  has(key: unknown): boolean {
    return this.entries.some((e) => pyKeyEq(e[0], key))
  }
  get(key: unknown): unknown {
    const e = this.entries.find((x) => pyKeyEq(x[0], key))
    return e ? e[1] : undefined
  }
  toJSON(): unknown {
    return { __label_dict__: this.entries }
  }
}

/**
 * JSON.parse as Python's json.loads types numbers: integral floats become PyFloat, ints beyond 2**53 bigint and
 * `-0` the int 0 (needs the reviver source text, Node ≥ 21).
 */
export function parsePyJson(text: string): unknown {
  return JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number' && context?.source !== undefined) {
      const src = context.source
      if (/[.eE]/.test(src)) return Number.isInteger(value) || Object.is(value, -0) ? new PyFloat(value) : value
      if (!Number.isSafeInteger(value)) return BigInt(src)
      if (Object.is(value, -0)) return 0
    }
    return value
  })
}

// No prototype: `constructor` or `toString` read from it are missing too.
const NO_KEYS: Record<string, unknown> = Object.freeze(Object.create(null))

/** A parsed JSON value read as a dict: itself when it is an object, else an empty one (every key reads as missing). */
export function jsonObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : NO_KEYS
}

/** `v?.[k1]?.[k2]…` on a parsed JSON value: undefined where a step is not an object or lacks the key. */
export function jsonGet(v: unknown, ...path: string[]): unknown {
  let cur = v
  for (const k of path) cur = jsonObject(cur)[k]
  return cur
}

/** Replaces {"__label_dict__": [[k, v], …]} anywhere in a config by LabelDict. */
export function decodeLabelDicts(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decodeLabelDicts)
  if (v && typeof v === 'object' && !(v instanceof PyFloat) && !(v instanceof LabelDict)) {
    const o = v as Record<string, unknown>
    const keys = Object.keys(o)
    if (keys.length === 1 && keys[0] === '__label_dict__' && Array.isArray(o.__label_dict__)) {
      return new LabelDict((o.__label_dict__ as Array<[unknown, unknown]>).map(([k, x]) => [k, decodeLabelDicts(x)]))
    }
    const out: Record<string, unknown> = {}
    for (const k of keys) out[k] = decodeLabelDicts(o[k])
    return out
  }
  return v
}

/** Python `a == b` (1 == 1.0 == True) for JSON values: the runtime's equality. */
export const pyKeyEq = (a: unknown, b: unknown): boolean => jsonRuntime.eq(a, b)

/** A dict's `d[key]` over its entries, with Python's key equality (1 == 1.0 == True). */
export function entryLookup(entries: Iterable<readonly [unknown, unknown]>, key: unknown): { value: unknown } | undefined {
  for (const [k, x] of entries) if (pyKeyEq(k, key)) return { value: x }
  return undefined
}

/**
 * What a JSON value is. A bare integral number is an int while it is exact: beyond 2**53 (or -0) it cannot have come
 * from an exact Python int (parsePyJson makes those bigints) and is the float it must have been (plain JSON.parse).
 */
export function jsonView(v: unknown): PyView {
  if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0) ? { t: 'int', v } : { t: 'float', v }
  if (typeof v === 'bigint') return { t: 'int', v }
  if (typeof v === 'function') return { t: 'object', type: 'function', repr: `<function ${v.name || '<lambda>'}>` }
  const scalar = computedScalarView(v)
  if (scalar) return scalar
  if (v instanceof PyFloat) return { t: 'float', v: v.value }
  if (Array.isArray(v)) return { t: isTuple(v) ? 'tuple' : 'list', items: v }
  if (v instanceof Uint8Array) return { t: 'object', type: 'bytes', repr: bytesRepr(v) }
  if (v instanceof LabelDict) return { t: 'dict', entries: () => v.entries, size: v.entries.length, lookup: (k) => entryLookup(v.entries, k) }
  if (v instanceof Map) return { t: 'dict', entries: () => v.entries(), size: v.size, lookup: (k) => (v.has(k) ? { value: v.get(k) } : entryLookup(v, k)) }
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
  return {
    t: 'dict',
    entries: () => keys.map((k) => [k, o[k]] as const),
    size: keys.length,
    lookup: (k) => (typeof k === 'string' && Object.prototype.hasOwnProperty.call(o, k) ? { value: o[k] } : undefined)
  }
}

/** The runtime over JSON values (the engine's rows, the loaders' cells, LazyLLM's and FastChat's inputs). */
export const jsonRuntime = new PyRuntime(jsonView)

/** Python repr() of a JSON value. */
export const pyRepr = (v: unknown): string => (typeof v === 'string' ? strRepr(v) : jsonRuntime.repr(v))

/** Python str() of a JSON value: what safe_format puts into a prompt. */
export const pyStr = (v: unknown): string => (typeof v === 'string' ? v : jsonRuntime.str(v))

/** Python truthiness of a JSON value. */
export const pyTruthy = (v: unknown): boolean => jsonRuntime.truthy(v)

/** Python type name, for TypeError messages. */
export const pyTypeName = (v: unknown): string => jsonRuntime.typeName(v)

/** Plain JSON copy (PyFloat → number, LabelDict → its encoded form) for outputs compared as JSON. */
export function toPlainJson(v: unknown): unknown {
  if (v instanceof PyFloat) return v.value
  if (typeof v === 'bigint') return Number(v)
  if (v instanceof LabelDict) return v.toJSON()
  if (Array.isArray(v)) return v.map(toPlainJson)
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(o)) out[k] = toPlainJson(o[k])
    return out
  }
  return v
}
