// The runtime's value model for JSON-like data (dataset rows, LazyLLM and FastChat inputs, loader cells): None is
// null (or undefined), bool boolean, int a number (bigint beyond 2**53), float a non-integral number or PyFloat,
// str string, list an array, tuple an array marked by tuple(), dict a plain object, a Map or a LabelDict. This
// module answers what format() and str.format need of such values (json.ts prints and tests them); a family
// whose values are other objects (the config evaluator's classes, Jinja's Undefined and Markup) passes its own
// FormatModel, usually this one with a few hooks replaced.
import { PyError } from './errors'
import type { FormatModel, Operand } from './format'
import { LabelDict, PyFloat, isTuple, pyKeyEq, pyRepr, pyStr, pyTypeName } from './json'

export { isTuple, tuple } from './json'

const isPlainDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (v.constructor === Object || Object.getPrototypeOf(v) === null)

/** format()'s view of a JSON-like value. */
export function jsonOperand(v: unknown): Operand {
  if (typeof v === 'string') return { kind: 'str', s: v }
  if (typeof v === 'boolean') return { kind: 'int', n: v ? 1n : 0n }
  if (typeof v === 'bigint') return { kind: 'int', n: v }
  if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0) ? { kind: 'int', n: BigInt(v) } : { kind: 'float', x: v }
  if (v instanceof PyFloat) return { kind: 'float', x: v.value }
  return { kind: 'other' }
}

/** `v[key]` on JSON-like values, raising what Python raises. */
export function jsonGetItem(v: unknown, key: string | number, typeName: (x: unknown) => string = pyTypeName): unknown {
  if (Array.isArray(v)) {
    const what = isTuple(v) ? 'tuple' : 'list'
    if (typeof key !== 'number') throw new PyError('TypeError', `${what} indices must be integers or slices, not str`)
    if (key >= v.length) throw new PyError('IndexError', `${what} index out of range`)
    return v[key]
  }
  if (typeof v === 'string') {
    if (typeof key !== 'number') throw new PyError('TypeError', "string indices must be integers, not 'str'")
    const cps = Array.from(v)
    if (key >= cps.length) throw new PyError('IndexError', 'string index out of range')
    return cps[key]
  }
  if (v instanceof LabelDict) {
    if (!v.has(key)) throw new PyError('KeyError', pyRepr(key))
    return v.get(key)
  }
  if (v instanceof Map) {
    for (const [k, x] of v) if (pyKeyEq(k, key)) return x
    throw new PyError('KeyError', pyRepr(key))
  }
  if (isPlainDict(v)) {
    if (typeof key === 'string' && Object.prototype.hasOwnProperty.call(v, key)) return v[key]
    throw new PyError('KeyError', pyRepr(key))
  }
  throw new PyError('TypeError', `'${typeName(v)}' object is not subscriptable`)
}

/** The FormatModel of JSON-like values. */
export const jsonFormatModel: FormatModel = {
  str: pyStr,
  repr: pyRepr,
  typeName: pyTypeName,
  operand: jsonOperand,
  getItem: (v, key) => jsonGetItem(v, key),
  getAttr(v, name) {
    // Numbers' data attributes; the rest of Python's object attributes are not modelled.
    const op = jsonOperand(v)
    if ((op.kind === 'int' || op.kind === 'float') && (name === 'real' || name === 'imag')) return name === 'real' ? v : op.kind === 'int' ? 0 : new PyFloat(0)
    throw new PyError('AttributeError', `'${pyTypeName(v)}' object has no attribute '${name}'`)
  },
  tupleItems: (v) => (isTuple(v) ? (v as unknown[]) : undefined),
  isMapping: (v) => Array.isArray(v) || v instanceof Map || v instanceof LabelDict || isPlainDict(v)
}
