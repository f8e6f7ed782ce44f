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
   * when they are the same object or have the same `eqKey` (jinja2's Undefined equals any Undefined). An object is
   * iterable when it has `iter` (what iter() yields, consumed as Python consumes it: `in` stops at the first match),
   * has a len() when it has `len`, and `order` is what its <, <=, >, >= raise instead of the TypeError (jinja2's
   * Undefined raises UndefinedError).
   */
  | { t: 'object'; type: string; repr: string; str?: string; truthy?: boolean; eqKey?: unknown; iter?: () => Iterable<unknown>; len?: number; order?: () => never }

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

/** Python's rich comparison operators that order (== and != are PyRuntime.eq). */
export type OrderOp = '<' | '<=' | '>' | '>='

/** Whether a three-way order (-1, 0, 1, or NaN where nothing is ordered: a NaN) satisfies `op`. */
function holds(op: OrderOp, c: number): boolean {
  switch (op) {
    case '<':
      return c < 0
    case '<=':
      return c <= 0
    case '>':
      return c > 0
    default:
      return c >= 0
  }
}

/** A number's value for ordering: JS orders bigint against number exactly, so no int needs converting. */
function orderable(w: PyView): bigint | number | undefined {
  if (w.t === 'bool') return w.v ? 1 : 0
  return w.t === 'int' || w.t === 'float' ? w.v : undefined
}

/** Numbers' order, exact between ints (bigint) and floats as CPython's is (JS compares bigint with number exactly). */
const numOrder = (a: bigint | number, b: bigint | number): number => (a < b ? -1 : a > b ? 1 : a == b ? 0 : Number.NaN)

const isSurrogate = (u: number): boolean => u >= 0xd800 && u <= 0xdfff
const isHighSurrogate = (u: number): boolean => u >= 0xd800 && u <= 0xdbff
const isLowSurrogate = (u: number): boolean => u >= 0xdc00 && u <= 0xdfff

/**
 * Python's str order: by code point. JS's `<` compares UTF-16 units, which differs where an astral character (a
 * surrogate pair, 0xD800–0xDFFF units) meets one of U+E000–U+FFFF: '\uffff' < '😀' in Python, not in JS.
 */
export function strOrder(a: string, b: string): number {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  if (i === n) return a.length < b.length ? -1 : 1
  let ua = a.charCodeAt(i)
  let ub = b.charCodeAt(i)
  if (isSurrogate(ua) || isSurrogate(ub)) {
    // Compare whole code points: where a low half differs after a shared high half, compare from that high half, so
    // a pair meets a lone surrogate or another pair as a code point.
    if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1)) && (isLowSurrogate(ua) || isLowSurrogate(ub))) i--
    ua = a.codePointAt(i) as number
    ub = b.codePointAt(i) as number
  }
  return ua < ub ? -1 : 1
}

const SURROGATE = /[\uD800-\uDFFF]/

/** len() of a str: its code points (a surrogate pair is one). */
const codePoints = (s: string): number => (SURROGATE.test(s) ? Array.from(s).length : s.length)

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

  /**
   * Python `a < b`, `a <= b`, `a > b`, `a >= b`: numbers by value (an int exact against a float, NaN unordered), str
   * by code point, a list with a list and a tuple with a tuple by their first unequal items (compared with the same
   * operator) or else their lengths, sets by inclusion; anything else raises CPython's TypeError.
   */
  compare(op: OrderOp, a: unknown, b: unknown, depth = 0): boolean {
    // Every family's JS numbers and strings are Python numbers and strs: the common case needs no views.
    if (typeof a === 'number' && typeof b === 'number') return holds(op, numOrder(a, b))
    if (typeof a === 'string' && typeof b === 'string') return holds(op, strOrder(a, b))
    if (depth > MAX_DEPTH) throw new PyError('RecursionError', 'the value contains itself (or is nested more than 1000 levels deep)')
    const wa = this.view(a)
    const wb = this.view(b)
    const na = orderable(wa)
    const nb = orderable(wb)
    if (na !== undefined && nb !== undefined) return holds(op, numOrder(na, nb))
    if (wa.t === 'str' && wb.t === 'str') return holds(op, strOrder(wa.v, wb.v))
    if ((wa.t === 'list' || wa.t === 'tuple') && wb.t === wa.t) {
      const n = Math.min(wa.items.length, wb.items.length)
      for (let i = 0; i < n; i++) {
        if (!this.eq(wa.items[i], wb.items[i], depth + 1)) return this.compare(op, wa.items[i], wb.items[i], depth + 1)
      }
      return holds(op, wa.items.length - wb.items.length)
    }
    if (wa.t === 'set' && wb.t === 'set') {
      const within = (x: readonly unknown[], y: readonly unknown[]): boolean => x.length <= y.length && x.every((v) => y.some((w) => this.eq(v, w, depth + 1)))
      if (op === '<=') return within(wa.items, wb.items)
      if (op === '>=') return within(wb.items, wa.items)
      if (op === '<') return wa.items.length < wb.items.length && within(wa.items, wb.items)
      return wb.items.length < wa.items.length && within(wb.items, wa.items)
    }
    if (wa.t === 'object' && wa.order) wa.order()
    if (wb.t === 'object' && wb.order) wb.order()
    throw new PyError('TypeError', `'${op}' not supported between instances of '${this.typeName(a)}' and '${this.typeName(b)}'`)
  }

  /**
   * sorted(items, key=key, reverse=reverse): CPython's list.sort, stable, asking only `<` (V8's Array.prototype.sort
   * is a port of CPython's timsort that acts on `comparator < 0` alone, so it asks the same questions in the same
   * order for runs of up to 64 items — where a mixed list raises, it raises naming the same pair — and puts the items
   * in the same order at any length). reverse=True reverses, sorts and reverses back, as CPython does.
   */
  sorted<T>(items: readonly T[], key?: (x: T) => unknown, reverse = false): T[] {
    const keyed = items.map((x) => ({ x, k: key ? key(x) : x }))
    if (reverse) keyed.reverse()
    keyed.sort((p, q) => (this.compare('<', p.k, q.k) ? -1 : 0))
    if (reverse) keyed.reverse()
    return keyed.map((p) => p.x)
  }

  /** min(items, key=key) / max(…): the first least / greatest item, found with `<` / `>` as CPython's min_max does; undefined when empty. */
  extreme<T>(which: 'min' | 'max', items: Iterable<T>, key?: (x: T) => unknown): T | undefined {
    const op = which === 'min' ? '<' : '>'
    let best: { x: T; k: unknown } | undefined
    for (const x of items) {
      const k = key ? key(x) : x
      if (best === undefined || this.compare(op, k, best.k)) best = { x, k }
    }
    return best?.x
  }

  /** len(v) */
  len(v: unknown): number {
    const w = this.view(v)
    switch (w.t) {
      case 'str':
        return codePoints(w.v)
      case 'list':
      case 'tuple':
      case 'set':
        return w.items.length
      case 'dict':
        return w.size
      case 'object':
        if (w.len !== undefined) return w.len
    }
    throw new PyError('TypeError', `object of type '${this.typeName(v)}' has no len()`)
  }

  /**
   * list(iter(v)): a list's, tuple's or set's items (the container's own array: copy it before changing it), a
   * dict's keys, a str's code points, what an iterable object yields.
   */
  items(v: unknown): readonly unknown[] {
    const items = this.iterOf(this.view(v))
    if (items === undefined) throw new PyError('TypeError', `'${this.typeName(v)}' object is not iterable`)
    return items
  }

  /** What iter() yields for a view, or undefined when it is not iterable. */
  private iterOf(w: PyView): readonly unknown[] | undefined {
    switch (w.t) {
      case 'list':
      case 'tuple':
      case 'set':
        return w.items
      case 'dict':
        return Array.from(w.entries(), (e) => e[0])
      case 'str':
        return SURROGATE.test(w.v) ? Array.from(w.v) : w.v.split('')
      case 'object':
        return w.iter ? Array.from(w.iter()) : undefined
    }
    return undefined
  }

  /**
   * `a, b = v` with `targets` names (one of them `*rest` when `starred`): v's items, or CPython's unpacking error.
   */
  unpack(v: unknown, targets: number, starred = false): readonly unknown[] {
    const items = this.iterOf(this.view(v))
    if (items === undefined) throw new PyError('TypeError', `cannot unpack non-iterable ${this.typeName(v)} object`)
    const n = items.length
    if (starred) {
      if (n < targets - 1) throw new PyError('ValueError', `not enough values to unpack (expected at least ${targets - 1}, got ${n})`)
    } else if (n > targets) throw new PyError('ValueError', `too many values to unpack (expected ${targets})`)
    else if (n < targets) throw new PyError('ValueError', `not enough values to unpack (expected ${targets}, got ${n})`)
    return items
  }

  /** Python `item in container`. */
  contains(container: unknown, item: unknown): boolean {
    const w = this.view(container)
    switch (w.t) {
      case 'str': {
        const i = this.view(item)
        if (i.t !== 'str') throw new PyError('TypeError', `'in <string>' requires string as left operand, not ${this.typeName(item)}`)
        return w.v.includes(i.v)
      }
      case 'list':
      case 'tuple':
        return w.items.some((x) => this.eq(x, item))
      case 'set':
        this.hashable(item)
        return w.items.some((x) => this.eq(x, item))
      case 'dict':
        this.hashable(item)
        return w.lookup(item) !== undefined
      case 'object':
        // An iterator is consumed up to the first match, as Python's `in` consumes it.
        if (w.iter) {
          for (const x of w.iter()) if (this.eq(x, item)) return true
          return false
        }
    }
    throw new PyError('TypeError', `argument of type '${this.typeName(container)}' is not iterable`)
  }

  /** Raises CPython's TypeError for a value that cannot be a dict key or set member (a list, dict or set, also inside a tuple). */
  hashable(v: unknown): void {
    const w = this.view(v)
    if (w.t === 'list' || w.t === 'dict' || w.t === 'set') throw new PyError('TypeError', `unhashable type: '${w.t}'`)
    if (w.t === 'tuple') for (const x of w.items) this.hashable(x)
  }

  /**
   * A dict key's identity: two values get the same string exactly when they are the same key to a Python dict (1, 1.0
   * and True are one key, an int beyond 2**53 only equals the float of the same value, a tuple by its items). Raises
   * CPython's TypeError for a list, dict or set; an object is a key by its view's eqKey and, without one, is refused
   * the same way (none of the families uses one as a key).
   */
  hashKey(v: unknown): string {
    const w = this.view(v)
    switch (w.t) {
      case 'None':
        return 'None'
      case 'bool':
        return w.v ? 'n1' : 'n0'
      case 'int':
      case 'float':
        // Integral values by their exact decimal (String(2**60) rounds), so an int and a float of one value meet.
        return typeof w.v === 'bigint' ? `n${w.v}` : Number.isInteger(w.v) ? `n${BigInt(w.v)}` : `n${w.v}`
      case 'str':
        return `s${w.v}`
      case 'tuple':
        return `t${JSON.stringify(w.items.map((x) => this.hashKey(x)))}`
      case 'object':
        if (w.eqKey !== undefined) return `o${String(w.eqKey)}`
    }
    throw new PyError('TypeError', `unhashable type: '${this.typeName(v)}'`)
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
