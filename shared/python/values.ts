// The runtime's Python values: one str(), repr(), truthiness, type name, format() operand and `v[key]` for every
// family. A family keeps its own representation (JSON-like data, the config evaluator's classes, Jinja's Markup
// and Undefined) and passes a view function that says what each of its values is; everything Python does with a
// value of that kind lives here once. What differs between families is only in their views: whether a bare
// integral number is an int (the config evaluator and Jinja, which compute ints as numbers) or, beyond 2**53,
// the float it must have been (JSON data, whose exact big ints are bigints); what their own objects print as.
import { PyError } from './errors'
import type { FormatModel, Operand } from './format'
import { NONE_REPR, boolRepr, dictRepr, floatRepr, intRepr, listRepr, setRepr, strRepr, tupleRepr } from './repr'

/** A dict as the runtime reads it: its entries in order and a look-up with the family's key equality. */
export interface DictView {
  t: 'dict'
  entries(): Iterable<readonly [unknown, unknown]>
  size: number
  /** `d[key]`, or `undefined` as the JS value when the key is missing (a present None is not undefined). */
  lookup(key: unknown): { value: unknown } | undefined
}

/** What one value is, as far as Python's printing, truthiness and formatting are concerned. */
export type PyView =
  | { t: 'None' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: number | bigint }
  | { t: 'float'; v: number }
  /** A str, or a str subclass (markupsafe's Markup) with its own type name and repr. */
  | { t: 'str'; v: string; type?: string; repr?: string }
  | { t: 'list' | 'tuple' | 'set'; items: readonly unknown[] }
  | DictView
  /**
   * Anything else: its type name, repr, str (default: the repr) and truthiness (default: true). Two objects are equal
   * when they are the same object or have the same `eqKey` (jinja2's Undefined equals any Undefined).
   */
  | { t: 'object'; type: string; repr: string; str?: string; truthy?: boolean; eqKey?: unknown }

export type Viewer = (v: unknown) => PyView

export const NONE_VIEW: PyView = { t: 'None' }

/**
 * The view of None, bool, str and number where ints are computed as JS numbers (the config evaluator, Jinja): an
 * integral number is an int, however large. Undefined for any other value.
 */
export function computedScalarView(v: unknown): PyView | undefined {
  switch (typeof v) {
    case 'string':
      return { t: 'str', v }
    case 'boolean':
      return { t: 'bool', v }
    case 'number':
      return Number.isInteger(v) ? { t: 'int', v } : { t: 'float', v }
    case 'undefined':
      return NONE_VIEW
  }
  return v === null ? NONE_VIEW : undefined
}

/** Containers nested deeper than this (only a value that contains itself gets there) are an error, as in CPython. */
const MAX_DEPTH = 1000

/** A number's value for ==: ints exact (bigint), floats as they are; undefined for a non-number. */
function numeric(w: PyView): bigint | number | undefined {
  if (w.t === 'bool') return w.v ? 1n : 0n
  if (w.t === 'int') return typeof w.v === 'bigint' ? w.v : Number.isSafeInteger(w.v) ? BigInt(w.v) : w.v
  if (w.t === 'float') return w.v
  return undefined
}

/** int == float compares exactly, as CPython does (2**53 + 1 != 2.0**53). */
function numEq(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === typeof b) return a === b
  const f = (typeof a === 'number' ? a : b) as number
  const i = (typeof a === 'bigint' ? a : b) as bigint
  return Number.isInteger(f) && BigInt(f) === i
}

export class PyRuntime {
  constructor(readonly view: Viewer) {}

  /** type(v).__name__ */
  typeName(v: unknown): string {
    const w = this.view(v)
    switch (w.t) {
      case 'None':
        return 'NoneType'
      case 'str':
        return w.type ?? 'str'
      case 'object':
        return w.type
      default:
        return w.t
    }
  }

  /** repr(v); a container that contains itself prints `[...]` / `{...}` there, as CPython's does. */
  repr(v: unknown, active?: Set<unknown>): string {
    const w = this.view(v)
    switch (w.t) {
      case 'None':
        return NONE_REPR
      case 'bool':
        return boolRepr(w.v)
      case 'int':
        return intRepr(w.v)
      case 'float':
        return floatRepr(w.v)
      case 'str':
        return w.repr ?? strRepr(w.v)
      case 'object':
        return w.repr
    }
    const seen = active ?? new Set<unknown>()
    if (seen.has(v)) return w.t === 'dict' ? '{...}' : w.t === 'list' ? '[...]' : '(...)'
    if (seen.size > MAX_DEPTH) throw new PyError('RecursionError', 'the value contains itself (or is nested more than 1000 levels deep)')
    seen.add(v)
    try {
      const r = (x: unknown): string => this.repr(x, seen)
      if (w.t === 'dict') return dictRepr(Array.from(w.entries(), ([k, x]) => [r(k), r(x)] as const))
      const items = w.items.map(r)
      return w.t === 'list' ? listRepr(items) : w.t === 'tuple' ? tupleRepr(items) : setRepr(items)
    } finally {
      seen.delete(v)
    }
  }

  /** Python `a == b`: numbers by value (True == 1 == 1.0), str by text, containers item by item, a list never a tuple. */
  eq(a: unknown, b: unknown, depth = 0): boolean {
    if (a === b) return true
    if (depth > MAX_DEPTH) throw new PyError('RecursionError', 'the value contains itself (or is nested more than 1000 levels deep)')
    const wa = this.view(a)
    const wb = this.view(b)
    const na = numeric(wa)
    const nb = numeric(wb)
    if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && numEq(na, nb)
    const eq = (x: unknown, y: unknown): boolean => this.eq(x, y, depth + 1)
    switch (wa.t) {
      case 'None':
        return wb.t === 'None'
      case 'str':
        return wb.t === 'str' && wa.v === wb.v
      case 'list':
      case 'tuple':
        return wb.t === wa.t && wa.items.length === wb.items.length && wa.items.every((x, i) => eq(x, wb.items[i]))
      case 'set':
        return wb.t === 'set' && wa.items.length === wb.items.length && wa.items.every((x) => wb.items.some((y) => eq(x, y)))
      case 'dict': {
        if (wb.t !== 'dict' || wa.size !== wb.size) return false
        for (const [k, x] of wa.entries()) {
          const hit = wb.lookup(k)
          if (!hit || !eq(x, hit.value)) return false
        }
        return true
      }
      case 'object':
        return wb.t === 'object' && wa.eqKey !== undefined && wa.eqKey === wb.eqKey
    }
    return false
  }

  /** str(v): a str as it is, an object's own str, anything else its repr. */
  str(v: unknown): string {
    if (typeof v === 'string') return v
    const w = this.view(v)
    if (w.t === 'str') return w.v
    if (w.t === 'object') return w.str ?? w.repr
    return this.repr(v)
  }

  /** bool(v) */
  truthy(v: unknown): boolean {
    const w = this.view(v)
    switch (w.t) {
      case 'None':
        return false
      case 'bool':
        return w.v
      case 'int':
        return w.v !== 0 && w.v !== 0n
      case 'float':
        return w.v !== 0
      case 'str':
        return w.v !== ''
      case 'dict':
        return w.size > 0
      case 'object':
        return w.truthy ?? true
      default:
        return w.items.length > 0
    }
  }

  /** What format() sees: str (a subclass too), int (bool too), float or anything else. */
  operand(v: unknown): Operand {
    const w = this.view(v)
    switch (w.t) {
      case 'str':
        return { kind: 'str', s: w.v }
      case 'bool':
        return { kind: 'int', n: w.v ? 1n : 0n }
      case 'int':
        return { kind: 'int', n: typeof w.v === 'bigint' ? w.v : BigInt(w.v) }
      case 'float':
        return { kind: 'float', x: w.v }
      default:
        return { kind: 'other' }
    }
  }

  /** `v[key]` for the int and str keys format fields and `%(name)s` use, raising what Python raises. */
  getItem(v: unknown, key: string | number): unknown {
    const w = this.view(v)
    if (w.t === 'dict') {
      const hit = w.lookup(key)
      if (!hit) throw new PyError('KeyError', this.repr(key))
      return hit.value
    }
    if (w.t === 'list' || w.t === 'tuple') {
      if (typeof key !== 'number') throw new PyError('TypeError', `${w.t} indices must be integers or slices, not str`)
      const i = key < 0 ? w.items.length + key : key
      if (i < 0 || i >= w.items.length) throw new PyError('IndexError', `${w.t} index out of range`)
      return w.items[i]
    }
    if (w.t === 'str') {
      if (typeof key !== 'number') throw new PyError('TypeError', "string indices must be integers, not 'str'")
      const cps = Array.from(w.v)
      const i = key < 0 ? cps.length + key : key
      if (i < 0 || i >= cps.length) throw new PyError('IndexError', 'string index out of range')
      return cps[i]
    }
    throw new PyError('TypeError', `'${this.typeName(v)}' object is not subscriptable`)
  }

  /** `v.name` for format fields: numbers' data attributes; Python's other object attributes are not modelled. */
  getAttr(v: unknown, name: string): unknown {
    const w = this.view(v)
    if ((w.t === 'int' || w.t === 'float' || w.t === 'bool') && name === 'real') return v
    throw new PyError('AttributeError', `'${this.typeName(v)}' object has no attribute '${name}'`)
  }

  /** The FormatModel of these values (format(), str.format and % in shared/python/format.ts). */
  get formatModel(): FormatModel {
    const model: FormatModel = {
      str: (v) => this.str(v),
      repr: (v) => this.repr(v),
      typeName: (v) => this.typeName(v),
      operand: (v) => this.operand(v),
      getItem: (v, key) => this.getItem(v, key),
      getAttr: (v, name) => this.getAttr(v, name),
      tupleItems: (v) => {
        const w = this.view(v)
        return w.t === 'tuple' ? w.items : undefined
      },
      // PyMapping_Check: dicts and lists (list has __getitem__), never a tuple or a str.
      isMapping: (v) => {
        const t = this.view(v).t
        return t === 'dict' || t === 'list'
      }
    }
    Object.defineProperty(this, 'formatModel', { value: model })
    return model
  }
}
