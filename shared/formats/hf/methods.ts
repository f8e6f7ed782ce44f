// Attribute and item access as jinja2's ImmutableSandboxedEnvironment does it, and the read-only Python
// methods templates call on str, dict and list (`content.strip()`, `message.get('x')`, `tools.items()`).
// Mutating methods (list.append, dict.update, …) raise SecurityError, as the immutable sandbox does.
import { strFormat as pyStrFormat, type FormatModel } from '../../python/format'
import * as pystr from '../../python/str-methods'
import { checkString } from './budget'
import { PyError, PyObject, formatModel, PyCallable, PyMarkup, Undef, hasAstral, htmlEscape, isTuple, missingAttr, plain, repr, str, truthy, tuple, typeName, eq, toList } from './values'

type Method<Self> = (self: Self, args: unknown[], kwargs: Map<string, unknown> | null) => unknown
/** A method of some receiver type: methodTable picks the table by the receiver's own type, so each call is well typed. */
type SomeMethod = Method<never>

/** A method's optional str argument: None (or nothing) means the default. */
const optStr = (x: unknown): string | null => (x === undefined || x === null ? null : str(x))
const intArg = (x: unknown, dflt: number): number => (x === undefined || x === null ? dflt : Number(x))

function startsOrEnds(s: string, arg: unknown, ends: boolean): boolean {
  const prefixes = Array.isArray(arg) ? arg : [arg]
  return prefixes.some((p) => {
    if (typeof p !== 'string') throw new PyError('TypeError', `${ends ? 'endswith' : 'startswith'} first arg must be str or a tuple of str, not ${typeName(p)}`)
    return ends ? s.endsWith(p) : s.startsWith(p)
  })
}

/** str.format as jinja2's sandbox runs it: string.Formatter, whose fields read through the sandbox's getattr/getitem. */
const sandboxFormat: FormatModel = { ...formatModel, getItem: (v, key) => getItem(v, key), getAttr: (v, name) => getAttr(v, name) }

function strFormat(s: string, args: unknown[], kwargs: Map<string, unknown> | null): string {
  return pyStrFormat(sandboxFormat, s, args, kwargs ?? new Map(), { formatter: true })
}

const STR_METHODS: Record<string, Method<string>> = {
  strip: (s, a) => pystr.pyStripChars(s, optStr(a[0]), true, true),
  lstrip: (s, a) => pystr.pyStripChars(s, optStr(a[0]), true, false),
  rstrip: (s, a) => pystr.pyStripChars(s, optStr(a[0]), false, true),
  split: (s, a, k) => pystr.pySplit(s, optStr(a[0] ?? k?.get('sep')), intArg(a[1] ?? k?.get('maxsplit'), -1)),
  rsplit: (s, a, k) => pystr.pySplit(s, optStr(a[0] ?? k?.get('sep')), intArg(a[1] ?? k?.get('maxsplit'), -1), true),
  splitlines: (s, a, k) => pystr.pySplitlines(s, truthy(a[0] ?? k?.get('keepends') ?? false)),
  startswith: (s, a) => startsOrEnds(s, a[0], false),
  endswith: (s, a) => startsOrEnds(s, a[0], true),
  replace: (s, a) => pystr.pyReplace(s, str(a[0]), str(a[1]), intArg(a[2], -1), checkString),
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  casefold: (s) => s.toLowerCase(),
  swapcase: pystr.pySwapcase,
  title: pystr.pyTitle,
  capitalize: pystr.pyCapitalize,
  find: (s, a) => pystr.pyFind(s, str(a[0])),
  rfind: (s, a) => pystr.pyFind(s, str(a[0]), true),
  index: (s, a) => pystr.pyIndexOf(s, str(a[0])),
  rindex: (s, a) => pystr.pyIndexOf(s, str(a[0]), true),
  count: (s, a) => pystr.pyCount(s, str(a[0])),
  join: (s, a) => toList(a[0]).map((x) => {
    if (typeof x !== 'string') throw new PyError('TypeError', `sequence item: expected str instance, ${typeName(x)} found`)
    return x
  }).join(s),
  format: (s, a, k) => strFormat(s, a, k),
  ...pystr.PY_STR_PREDICATES,
  zfill: (s, a) => pystr.pyZfill(s, Number(a[0]), checkString),
  center: (s, a) => pystr.pyJustify(s, 'center', Number(a[0]), a[1] === undefined ? ' ' : str(a[1]), checkString),
  ljust: (s, a) => pystr.pyJustify(s, 'ljust', Number(a[0]), a[1] === undefined ? ' ' : str(a[1]), checkString),
  rjust: (s, a) => pystr.pyJustify(s, 'rjust', Number(a[0]), a[1] === undefined ? ' ' : str(a[1]), checkString),
  partition: (s, a) => tuple(pystr.pyPartition(s, str(a[0]))),
  rpartition: (s, a) => tuple(pystr.pyPartition(s, str(a[0]), true)),
  removeprefix: (s, a) => pystr.pyRemovePrefix(s, str(a[0])),
  removesuffix: (s, a) => pystr.pyRemoveSuffix(s, str(a[0])),
  encode: (s) => s
}

const DICT_METHODS: Record<string, Method<Map<unknown, unknown>>> = {
  items: (d: Map<unknown, unknown>) => [...d.entries()].map((e) => tuple([e[0], e[1]])),
  keys: (d: Map<unknown, unknown>) => [...d.keys()],
  values: (d: Map<unknown, unknown>) => [...d.values()],
  get: (d: Map<unknown, unknown>, a) => (d.has(a[0]) ? d.get(a[0]) : a.length > 1 ? a[1] : null),
  copy: (d: Map<unknown, unknown>) => new Map(d)
}

const LIST_METHODS: Record<string, Method<unknown[]>> = {
  index: (l: unknown[], a) => {
    const i = l.findIndex((x) => eq(x, a[0]))
    if (i < 0) throw new PyError('ValueError', `${repr(a[0])} is not in list`)
    return i
  },
  count: (l: unknown[], a) => l.filter((x) => eq(x, a[0])).length,
  copy: (l: unknown[]) => l.slice()
}

const MUTATORS: Record<string, string[]> = {
  list: ['append', 'extend', 'insert', 'pop', 'remove', 'clear', 'sort', 'reverse'],
  dict: ['update', 'pop', 'popitem', 'setdefault', 'clear'],
  set: ['add', 'discard', 'remove', 'pop', 'clear', 'update']
}

/**
 * Markup's own methods (markupsafe 3.0): these return Markup, escaping the arguments that become text (the
 * replacement, the fill character, joined items, format arguments); split/partition give lists/tuples of Markup.
 * Other str methods (startswith, find, count, is…) answer as for the plain str.
 */
const MARKUP_RESULT = new Set(['capitalize', 'title', 'lower', 'upper', 'lstrip', 'rstrip', 'strip', 'translate', 'expandtabs', 'swapcase', 'zfill', 'casefold', 'removeprefix', 'removesuffix'])
const MARKUP_ESCAPED_ARG: Record<string, number> = { replace: 1, ljust: 1, rjust: 1, center: 1 }

function markupMethod(m: PyMarkup, name: string): ((args: unknown[], kwargs: Map<string, unknown> | null) => unknown) | undefined {
  const f = Object.prototype.hasOwnProperty.call(STR_METHODS, name) ? STR_METHODS[name] : undefined
  const escapeAll = (xs: unknown[]) => xs.map((x) => (typeof x === 'string' || x instanceof PyMarkup ? htmlEscape(x).s : x))
  if (name === 'join') return (args) => new PyMarkup(toList(args[0]).map((x) => htmlEscape(x).s).join(m.s))
  if (name === 'format' && f) return (args, kwargs) => new PyMarkup(str(f(m.s, escapeAll(args), kwargs && new Map([...kwargs].map(([k, v]) => [k, escapeAll([v])[0]])))))
  if (!f) return undefined
  if (name in MARKUP_ESCAPED_ARG)
    return (args, kwargs) => {
      const i = MARKUP_ESCAPED_ARG[name]
      const a = args.slice()
      if (a.length > i) a[i] = htmlEscape(a[i]).s
      return new PyMarkup(str(f(m.s, a.map(plain), kwargs)))
    }
  if (MARKUP_RESULT.has(name)) return (args, kwargs) => new PyMarkup(str(f(m.s, args.map(plain), kwargs)))
  if (name === 'split' || name === 'rsplit' || name === 'splitlines') return (args, kwargs) => toList(f(m.s, args.map(plain), kwargs)).map((x) => new PyMarkup(str(x)))
  if (name === 'partition' || name === 'rpartition') return (args, kwargs) => tuple(toList(f(m.s, args.map(plain), kwargs)).map((x) => new PyMarkup(str(x))))
  return (args, kwargs) => f(m.s, args.map(plain), kwargs)
}

function methodTable(obj: unknown): Record<string, SomeMethod> | undefined {
  if (typeof obj === 'string') return STR_METHODS
  if (obj instanceof Map) return DICT_METHODS
  if (Array.isArray(obj) && !isTuple(obj)) return LIST_METHODS
  if (Array.isArray(obj)) return { index: LIST_METHODS.index, count: LIST_METHODS.count }
  return undefined
}

/** The Python method `name` of `obj`, bound, or undefined when it has none. */
function boundMethod(obj: unknown, name: string): PyCallable | undefined {
  if (obj instanceof PyMarkup) {
    const fn = markupMethod(obj, name)
    return fn ? new PyCallable(name, fn) : undefined
  }
  const table = methodTable(obj)
  const m = table && Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined
  if (m) return new PyCallable(name, (args, kwargs) => (m as Method<unknown>)(obj, args, kwargs))
  const tn = typeName(obj)
  if (MUTATORS[tn]?.includes(name)) {
    return new PyCallable(name, () => {
      throw new PyError('SecurityError', `access to attribute '${name}' of '${tn}' object is unsafe.`)
    })
  }
  return undefined
}

/** Calls `obj.name(...)` directly (the common case), without building a bound method. */
export function callMethod(obj: unknown, name: string, args: unknown[], kwargs: Map<string, unknown> | null): unknown {
  if (obj instanceof PyMarkup) {
    const fn = markupMethod(obj, name)
    return fn ? fn(args, kwargs) : undefined
  }
  const table = methodTable(obj)
  const m = table && Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined
  if (m) return (m as Method<unknown>)(obj, args, kwargs)
  return undefined
}

/** Python index normalisation for sequences; undefined when out of range. */
function seqIndex(n: number, i: number): number | undefined {
  const j = i < 0 ? n + i : i
  return j >= 0 && j < n ? j : undefined
}

/** `obj.attr`: jinja2 tries the Python attribute first, then the item. */
export function getAttr(obj: unknown, attr: string): unknown {
  if (obj instanceof Undef) obj.fail()
  if (obj instanceof Map) {
    if (Object.prototype.hasOwnProperty.call(DICT_METHODS, attr) || MUTATORS.dict.includes(attr)) return boundMethod(obj, attr)
    return obj.has(attr) ? obj.get(attr) : missingAttr(obj, attr)
  }
  if (obj instanceof PyObject) return obj.getattr(attr)
  if (attr.startsWith('_')) return new Undef(`access to attribute '${attr}' of '${typeName(obj)}' object is unsafe.`)
  return boundMethod(obj, attr) ?? missingAttr(obj, attr)
}

/** `obj[key]`: jinja2 tries the item first, then (for a string key) the attribute. */
export function getItem(obj: unknown, key: unknown): unknown {
  if (obj instanceof Undef) obj.fail()
  if (obj instanceof PyMarkup) {
    // Markup.__getitem__ gives Markup; a failed lookup stays the undefined value it is for the str.
    const r = getItem(obj.s, key)
    return typeof r === 'string' ? new PyMarkup(r) : r
  }
  key = plain(key)
  if (obj instanceof Map) {
    if (obj.has(key)) return obj.get(key)
    if (typeof key === 'boolean' && obj.has(key ? 1 : 0)) return obj.get(key ? 1 : 0)
    return typeof key === 'string' ? getAttr(obj, key) : missingAttr(obj, key)
  }
  if (Array.isArray(obj) || typeof obj === 'string') {
    if (typeof key === 'number' || typeof key === 'boolean') {
      const k = Number(key)
      // Python raises TypeError for a float index; jinja2 turns that into an undefined value.
      if (!Number.isInteger(k)) return missingAttr(obj, key)
      if (typeof obj === 'string' && hasAstral(obj)) {
        const cs = Array.from(obj)
        const j = seqIndex(cs.length, k)
        return j === undefined ? missingAttr(obj, key) : cs[j]
      }
      const j = seqIndex(obj.length, k)
      return j === undefined ? missingAttr(obj, key) : obj[j]
    }
    if (typeof key === 'string') return getAttr(obj, key)
    return missingAttr(obj, key)
  }
  if (obj instanceof PyObject && typeof key === 'string') return obj.getattr(key)
  if (obj === null) return new Undef(`'None' has no attribute ${repr(key)}`)
  return typeof key === 'string' ? getAttr(obj, key) : missingAttr(obj, key)
}

/** Python slicing `obj[start:stop:step]` on str, list and tuple. */
export function slice(obj: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  if (obj instanceof Undef) obj.fail()
  if (obj instanceof PyMarkup) return new PyMarkup(slice(obj.s, start, stop, step) as string)
  const isStr = typeof obj === 'string'
  let seq: unknown[]
  if (isStr) seq = hasAstral(obj) ? Array.from(obj) : (obj as string).split('')
  else if (Array.isArray(obj)) seq = obj
  else throw new PyError('TypeError', `'${typeName(obj)}' object is not subscriptable`)
  const n = seq.length
  const st = step === undefined || step === null ? 1 : Number(step)
  if (st === 0) throw new PyError('ValueError', 'slice step cannot be zero')
  const norm = (v: unknown, dflt: number, lo: number, hi: number): number => {
    if (v === undefined || v === null) return dflt
    let i = Number(v)
    if (i < 0) i += n
    return Math.min(Math.max(i, lo), hi)
  }
  const out: unknown[] = []
  if (st > 0) {
    const a = norm(start, 0, 0, n)
    const b = norm(stop, n, 0, n)
    for (let i = a; i < b; i += st) out.push(seq[i])
  } else {
    const a = norm(start, n - 1, -1, n - 1)
    const b = norm(stop, -1, -1, n - 1)
    for (let i = a; i > b; i += st) out.push(seq[i])
  }
  if (isStr) return out.join('')
  return isTuple(obj) ? tuple(out) : out
}
