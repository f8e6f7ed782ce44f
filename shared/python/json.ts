// Python values carried in JSON data (dataset rows, configs handed to the engine): parsing that keeps what
// JSON.parse loses (1.0 stays a float, ints beyond 2**53 stay exact), typed label keys, Python key equality
// (1 == 1.0 == True), and str()/repr()/truthiness/type names of those values as CPython gives them.

import { NONE_REPR, boolRepr, dictRepr, floatRepr, intRepr, listRepr, strRepr, tupleRepr } from './repr'

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
export function parsePyJson(text: string): any {
  return JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number' && context?.source !== undefined) {
      const src = context.source
      if (/[.eE]/.test(src)) return Number.isInteger(value) || Object.is(value, -0) ? new PyFloat(value) : value
      if (!Number.isSafeInteger(value)) return BigInt(src)
      if (Object.is(value, -0)) return 0
    }
    return value
  } as any)
}

/** Replaces {"__label_dict__": [[k, v], …]} anywhere in a config by LabelDict. */
export function decodeLabelDicts(v: unknown): any {
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

function numericKey(v: unknown): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'number') return v
  if (v instanceof PyFloat) return v.value
  if (typeof v === 'bigint') return Number(v)
  return undefined
}

/** Python `a == b` for hashable JSON values used as dict keys. */
export function pyKeyEq(a: unknown, b: unknown): boolean {
  const na = numericKey(a)
  const nb = numericKey(b)
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na === nb
  return a === b
}

/**
 * repr() of a bare JS number in JSON data. parsePyJson boxes every float-looking integral number, so a bare
 * integral number is an int, but only while it is exact: beyond 2**53 (or -0) it cannot have come from an exact
 * Python int (those parse to bigint) and is printed as the float it must have been (data from plain JSON.parse).
 */
function jsonNumberRepr(v: number): string {
  return Number.isSafeInteger(v) && !Object.is(v, -0) ? intRepr(v) : floatRepr(v)
}

/** Python repr() of a JSON value. */
export function pyRepr(v: unknown): string {
  if (typeof v === 'string') return strRepr(v)
  return pyStr(v)
}

/** Python str() of a JSON value: what safe_format puts into a prompt. */
export function pyStr(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v
    case 'boolean':
      return boolRepr(v)
    case 'bigint':
      return intRepr(v)
    case 'number':
      return jsonNumberRepr(v)
    case 'undefined':
      return NONE_REPR
    default:
      break
  }
  if (v === null) return NONE_REPR
  if (v instanceof PyFloat) return floatRepr(v.value)
  if (Array.isArray(v)) return isTuple(v) ? tupleRepr(v.map(pyRepr)) : listRepr(v.map(pyRepr))
  if (v instanceof Map) return dictRepr(Array.from(v, ([k, x]) => [pyRepr(k), pyRepr(x)] as const))
  if (v instanceof LabelDict) return dictRepr(v.entries.map(([k, x]) => [pyRepr(k), pyRepr(x)] as const))
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>
    return dictRepr(Object.keys(o).map((k) => [strRepr(k), pyRepr(o[k])] as const))
  }
  return String(v)
}

/** Python truthiness of a JSON value. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '' || v === 0n) return false
  if (v instanceof PyFloat) return v.value !== 0
  if (Array.isArray(v)) return v.length > 0
  if (v instanceof Map) return v.size > 0
  if (v instanceof LabelDict) return v.entries.length > 0
  if (typeof v === 'object') return Object.keys(v as object).length > 0
  return true
}

/** Python type name, for TypeError messages. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType'
  if (typeof v === 'string') return 'str'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float'
  if (typeof v === 'bigint') return 'int'
  if (v instanceof PyFloat) return 'float'
  if (Array.isArray(v)) return isTuple(v) ? 'tuple' : 'list'
  return 'dict'
}

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
