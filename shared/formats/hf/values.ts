// Python's value model as jinja2 sees it, on plain JavaScript values: str() and repr(), truthiness, equality,
// ordering, `+` and friends, and the errors Python raises. Chat templates are Jinja run by Python, so every
// place where JavaScript would quietly coerce (a string plus a list, `true` printed as "true") must follow
// Python instead.
//
// Representation: None = null, bool = boolean, int = integral number, float = non-integral number or
// `PyFloat` (a float with an integral value, such as 4 / 2, which Python prints as 2.0), str = string, list = Array,
// tuple = Array tagged by `tuple()`, dict = Map, jinja2 Undefined = `Undef`, namespace = `Namespace`,
// callables = `PyCallable`. str(), repr(), truthiness and type names come from shared/python's runtime through
// this module's view of the values.

import { PyError } from '../../python/errors'
import { percentFormat as pyPercentFormat, type FormatModel } from '../../python/format'
import { PyFloat, entryLookup, isTuple, tuple } from '../../python/json'
import { PyRuntime, computedScalarView, type OrderOp, type PyView } from '../../python/values'
import { checkList, checkString } from './budget'
import { floatRepr, strRepr } from '../../python/repr'

// A float whose value is integral (2.0) is shared/python's PyFloat: kept apart from ints only because it prints
// differently; its valueOf() lets arithmetic see the number.
export { PyFloat }

/** A float result: integral values are boxed so they keep printing as floats. */
export const mkFloat = (n: number): number | PyFloat => (Number.isInteger(n) ? new PyFloat(n) : n)
/** Is `v` a Python float? */
export const isFloat = (v: unknown): boolean => v instanceof PyFloat || (typeof v === 'number' && !Number.isInteger(v))
/** Is `v` a Python int or float (bool counts, as in Python)? */
export const numLike = (v: unknown): v is number | boolean | PyFloat => typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat

// Errors Python would raise while rendering are shared/python's PyError (pyClass: TypeError, UndefinedError, …).
export { PyError }

/** A render ran out of its budget (budget.ts); jinja2 has no such error, so `pyClass` is our own 'LimitExceeded'. */
export class LimitExceeded extends PyError {
  constructor(message: string) {
    super('LimitExceeded', message)
  }
}

/** `raise_exception(msg)` from the template: jinja2.exceptions.TemplateError with the template's own text. */
export class RaisedByTemplate extends PyError {
  constructor(message: string) {
    super('TemplateError', message)
  }
}

/** jinja2's default (lenient) Undefined: prints empty, iterates empty, raises on attribute access or arithmetic. */
export class Undef {
  constructor(public hint: string) {}
  fail(): never {
    throw new PyError('UndefinedError', this.hint)
  }
}

export const undef = (name: string): Undef => new Undef(`'${name}' is undefined`)
export const missingAttr = (obj: unknown, attr: unknown): Undef =>
  new Undef(`'${typeName(obj)} object' has no attribute ${typeof attr === 'string' ? `'${attr}'` : repr(attr)}`)

/** A Python object whose attributes templates read (loop, cycler, joiner, namespace). */
export abstract class PyObject {
  abstract getattr(name: string): unknown
}

/** jinja2's namespace(): the one object whose attributes `{% set ns.x = … %}` may assign. */
export class Namespace extends PyObject {
  attrs = new Map<string, unknown>()
  getattr(name: string): unknown {
    return this.attrs.has(name) ? this.attrs.get(name) : new Undef(`'Namespace object' has no attribute '${name}'`)
  }
}

/** Anything callable from a template: globals, macros, bound methods, loop.cycle. */
export class PyCallable {
  constructor(
    public name: string,
    public fn: (args: unknown[], kwargs: Map<string, unknown> | null) => unknown
  ) {}
}

/**
 * A Python iterator, as jinja2's map/select/reject/selectattr/rejectattr/items/unique/batch/slice filters return
 * generators and `reverse` a list_reverseiterator: no len(), no indexing, always true, printed by its object repr,
 * and consumed once — a second `| list` of the same generator is empty. Its items are made on first use, so an
 * error in making them surfaces where Python's would (when the iterator is consumed, not when it is created).
 */
export class PyIterator {
  private items: unknown[] | null = null
  private pos = 0
  private static made = 0
  /** A stable stand-in for CPython's object address in the repr (the real one differs on every run). */
  readonly address = `0x7f${(0x1000000 + 16 * ++PyIterator.made).toString(16).padStart(10, '0')}`
  constructor(
    /** Python's type name: 'generator', 'list_reverseiterator', … */
    readonly pyType: string,
    /** For a generator, the function that made it ('select_or_reject', 'sync_do_map', …). */
    readonly fn: string,
    private make: () => unknown[]
  ) {}
  private all(): unknown[] {
    if (this.items === null) this.items = this.make()
    return this.items
  }
  /** The next item, or `done`. */
  next(): { done: true } | { done: false; value: unknown } {
    const items = this.all()
    return this.pos < items.length ? { done: false, value: items[this.pos++] } : { done: true }
  }
  /** Every item not consumed yet (`list(it)`), consuming them. */
  rest(): unknown[] {
    const items = this.all()
    const out = items.slice(this.pos)
    this.pos = items.length
    return out
  }
  /** Iterating consumes, one item at a time (`in` stops at its first match). */
  *[Symbol.iterator](): Iterator<unknown> {
    for (let r = this.next(); !r.done; r = this.next()) yield r.value
  }
  repr(): string {
    return this.pyType === 'generator' ? `<generator object ${this.fn} at ${this.address}>` : `<${this.pyType} object at ${this.address}>`
  }
}

/**
 * markupsafe's Markup, which `|safe` and `|escape` return: a str for printing, testing and comparing, whose `+`, `%`,
 * `join`, `format`, `replace` and padding escape the *other* operand (transformers' environment does not autoescape,
 * so only these operations tell it apart), and whose slicing and case methods give Markup again.
 */
export class PyMarkup {
  constructor(readonly s: string) {}
}

/** markupsafe.escape: Markup is kept as it is; anything else is str()-ed and & < > ' " replaced. */
export function htmlEscape(v: unknown): PyMarkup {
  if (v instanceof PyMarkup) return v
  return new PyMarkup(str(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;').replace(/"/g, '&#34;'))
}

/** The str a value stands for when it is Markup (Python sees a str subclass), else the value itself. */
export const plain = (v: unknown): unknown => (v instanceof PyMarkup ? v.s : v)

// A tuple is an array marked by shared/python's tuple(), which only changes how it prints and how `%` spreads it.
export { isTuple, tuple }

const NOTHING: readonly unknown[] = []

/**
 * `d[key]` on a template dict: the Map's own key first; a str missing there can only equal a Markup key (`'tool_calls'
 * in message` misses on most messages, so it skips the == scan other keys need: 1 == 1.0 == True).
 */
function mapLookup(m: Map<unknown, unknown>, k: unknown): { value: unknown } | undefined {
  if (m.has(k)) return { value: m.get(k) }
  if (typeof k !== 'string') return entryLookup(m, k)
  for (const [key, x] of m) if (key instanceof PyMarkup && key.s === k) return { value: x }
  return undefined
}

/**
 * What a template value is to the Python runtime: a bare integral number is an int (ints are computed as numbers;
 * integral floats are boxed), Markup a str subclass, jinja2's Undefined prints empty and is false.
 */
function view(v: unknown): PyView {
  const scalar = computedScalarView(v)
  if (scalar) return scalar
  if (v instanceof PyFloat) return { t: 'float', v: v.value }
  if (Array.isArray(v)) return { t: isTuple(v) ? 'tuple' : 'list', items: v }
  if (v instanceof Map) return { t: 'dict', entries: () => v.entries(), size: v.size, lookup: (k) => mapLookup(v, k) }
  if (v instanceof PyMarkup) return { t: 'str', v: v.s, type: 'Markup', repr: `Markup(${strRepr(v.s)})` }
  // jinja2's Undefined: iterates empty with len() 0, and its <, <=, >, >= raise UndefinedError.
  if (v instanceof Undef) return { t: 'object', type: 'Undefined', repr: 'Undefined', str: '', truthy: false, eqKey: 'Undefined', iter: () => NOTHING, len: 0, order: () => v.fail() }
  if (v instanceof Namespace) return { t: 'object', type: 'Namespace', repr: '<Namespace>' }
  if (v instanceof PyCallable) return { t: 'object', type: 'function', repr: `<function ${v.name}>` }
  if (v instanceof PyIterator) return { t: 'object', type: v.pyType, repr: v.repr(), iter: () => v }
  return { t: 'object', type: 'object', repr: String(v) }
}

export const runtime = new PyRuntime(view)

/** Python's type name, as used in its error messages. */
export const typeName = (v: unknown): string => runtime.typeName(v)

/** Python truthiness. */
export const truthy = (v: unknown): boolean => runtime.truthy(v)

/** Input nested deeper than this is refused: printing or comparing it would overflow the stack. */
export const MAX_INPUT_DEPTH = 500

/** Converts JSON-like input (plain objects, arrays) to this value model: objects become Maps, in key order. */
export function fromJs(v: unknown, depth = 0): unknown {
  if (v === undefined) return null
  if (v === null || typeof v !== 'object') return v
  if (depth >= MAX_INPUT_DEPTH) throw new PyError('ValueError', `the input nests more than ${MAX_INPUT_DEPTH} levels deep`)
  if (Array.isArray(v)) {
    const out = new Array(v.length)
    for (let i = 0; i < v.length; i++) out[i] = fromJs(v[i], depth + 1)
    return out
  }
  if (v instanceof Map) {
    const m = new Map()
    for (const [k, x] of v) m.set(k, fromJs(x, depth + 1))
    return m
  }
  if (v instanceof Date) return v.toISOString()
  const m = new Map<string, unknown>()
  for (const k of Object.keys(v)) m.set(k, fromJs((v as Record<string, unknown>)[k], depth + 1))
  return m
}

/** Converts back to JSON-like JavaScript (for callers that want plain data). */
export function toJs(v: unknown): unknown {
  if (v instanceof Undef) return undefined
  if (v instanceof PyFloat) return v.value
  if (Array.isArray(v)) return v.map(toJs)
  if (v instanceof Map) {
    const o: Record<string, unknown> = {}
    for (const [k, x] of v) o[String(k)] = toJs(x)
    return o
  }
  return v
}

export { floatRepr, strRepr }

/** Python's repr(). */
export const repr = (v: unknown): string => (typeof v === 'string' ? strRepr(v) : runtime.repr(v))

/** Python's str(), which is what `{{ x }}` prints. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : runtime.str(v))

/** Python ==. */
export const eq = (a: unknown, b: unknown): boolean => runtime.eq(a, b)

/** Python's <, <=, >, >= (`op` is the operator); raises TypeError (UndefinedError for Undefined) where Python does. */
export const compare = (op: string, a: unknown, b: unknown): boolean => runtime.compare(op as OrderOp, a, b)

/** Does `s` hold characters outside the BMP (so UTF-16 indexes differ from Python's code points)? */
export const hasAstral = (s: string): boolean => /[\uD800-\uDFFF]/.test(s)

// The runtime's len(), iter() and `in`, with the template's commonest cases (a list is an Array, a dict a Map, a
// str key looked up in a dict) answered without building views: render speed; the order tables check both ways.

/** Python's len(). */
export const len = (v: unknown): number => (Array.isArray(v) ? v.length : v instanceof Map ? v.size : runtime.len(v))

/** Python's iter() as a list: strings by code point, dicts by key, Undefined as empty (an array is itself: copy before changing). */
export const toList = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : runtime.items(v))

/** `a, b = v`: v's items, or Python's unpacking error. */
export const unpack = (v: unknown, targets: number): readonly unknown[] => runtime.unpack(v, targets)

/** Python's `in`. */
export const contains = (container: unknown, item: unknown): boolean =>
  container instanceof Map && typeof item === 'string' ? mapLookup(container, item) !== undefined : runtime.contains(container, item)

/** sorted(items, key=key, reverse=reverse) and min()/max(), as jinja2's sort, groupby, min and max filters call them. */
export const sorted = <T>(items: readonly T[], key?: (x: T) => unknown, reverse = false): T[] => runtime.sorted(items, key, reverse)
export const extreme = <T>(which: 'min' | 'max', items: readonly T[], key?: (x: T) => unknown): T | undefined => runtime.extreme(which, items, key)

function badOperands(op: string, a: unknown, b: unknown): never {
  if (a instanceof Undef) a.fail()
  if (b instanceof Undef) b.fail()
  if (op === '+' && typeof a === 'string') throw new PyError('TypeError', `can only concatenate str (not "${typeName(b)}") to str`)
  if (op === '+' && Array.isArray(a) && !isTuple(a)) throw new PyError('TypeError', `can only concatenate list (not "${typeName(b)}") to list`)
  throw new PyError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`)
}

function intOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'boolean') return v ? 1 : 0
  return undefined
}

function repeat(seq: string | unknown[], n: number): string | unknown[] {
  if (n <= 0) return typeof seq === 'string' ? '' : []
  if (typeof seq === 'string') {
    checkString(seq.length * n)
    return seq.repeat(n)
  }
  checkList(seq.length * n)
  const out: unknown[] = []
  for (let i = 0; i < n; i++) out.push(...seq)
  return out
}

/** Python's binary arithmetic operators: + - * / // % **. */
export function arith(op: string, a: unknown, b: unknown): unknown {
  if (numLike(a) && numLike(b)) {
    const r = intArith(op, Number(a), Number(b))
    return op === '/' || isFloat(a) || isFloat(b) ? mkFloat(r) : r
  }
  return seqArith(op, a, b)
}

function intArith(op: string, x: number, y: number): number {
  switch (op) {
    case '+':
      return x + y
    case '-':
      return x - y
    case '*':
      return x * y
    case '/':
      if (y === 0) throw new PyError('ZeroDivisionError', 'division by zero')
      return x / y
    case '//':
      if (y === 0) throw new PyError('ZeroDivisionError', 'integer division or modulo by zero')
      return Math.floor(x / y)
    case '%':
      if (y === 0) throw new PyError('ZeroDivisionError', 'integer division or modulo by zero')
      return ((x % y) + y) % y
    case '**':
      return x ** y
  }
  return NaN
}

/** Markup's operators: `+` escapes a str operand, `%` its arguments, `*` repeats; the result is Markup. */
function markupArith(op: string, a: unknown, b: unknown): unknown {
  const isStr = (v: unknown) => typeof v === 'string' || v instanceof PyMarkup
  if (op === '+' && isStr(a) && isStr(b)) {
    const r = htmlEscape(a).s + htmlEscape(b).s
    checkString(r.length)
    return new PyMarkup(r)
  }
  if (op === '*' && a instanceof PyMarkup && intOf(b) !== undefined) return new PyMarkup(repeat(a.s, intOf(b)!) as string)
  if (op === '*' && b instanceof PyMarkup && intOf(a) !== undefined) return new PyMarkup(repeat(b.s, intOf(a)!) as string)
  if (op === '%' && a instanceof PyMarkup) {
    const esc = (x: unknown) => (typeof x === 'string' || x instanceof PyMarkup ? htmlEscape(x).s : x)
    const args = Array.isArray(b) && isTuple(b) ? tuple(b.map(esc)) : esc(b)
    return new PyMarkup(percentFormat(a.s, args))
  }
  throw new PyError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`)
}

function seqArith(op: string, a: unknown, b: unknown): unknown {
  // str % Markup formats str(Markup), a plain str; every other operator with Markup on either side is Markup's.
  if (a instanceof PyMarkup || (b instanceof PyMarkup && !(op === '%' && typeof a === 'string'))) return markupArith(op, a, b)
  if (op === '+') {
    if (typeof a === 'string' && typeof b === 'string') {
      checkString(a.length + b.length)
      return a + b
    }
    if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
      checkList(a.length + b.length)
      const r = a.concat(b)
      return isTuple(a) ? tuple(r) : r
    }
  }
  if (op === '*') {
    const n = intOf(b)
    if ((typeof a === 'string' || Array.isArray(a)) && n !== undefined) return repeat(a, n)
    const m = intOf(a)
    if ((typeof b === 'string' || Array.isArray(b)) && m !== undefined) return repeat(b, m)
  }
  if (op === '%' && typeof a === 'string') return percentFormat(a, b)
  return badOperands(op, a, b)
}

/**
 * Template values as shared/python's formatting sees them. `%` looks `%(name)s` up as Python's dict does (a missing
 * key is a KeyError); str.format goes through the sandbox's getattr/getitem instead (methods.ts).
 */
export const formatModel: FormatModel = { ...runtime.formatModel, checkLength: checkString }

/** Python's `fmt % arg`. */
export const percentFormat = (fmt: string, arg: unknown): string => pyPercentFormat(formatModel, fmt, arg)
