// Attribute and item access as jinja2's ImmutableSandboxedEnvironment does it, and the read-only Python
// methods templates call on str, dict and list (`content.strip()`, `message.get('x')`, `tools.items()`).
// Mutating methods (list.append, dict.update, …) raise SecurityError, as the immutable sandbox does.
import { strFormat as pyStrFormat, type FormatModel } from '../../python/format'
import { checkString } from './budget'
import { PyError, PyObject, formatModel, PyCallable, PyMarkup, Undef, hasAstral, htmlEscape, isTuple, missingAttr, plain, repr, str, tuple, typeName, eq, len, toList } from './values'

type Method<Self> = (self: Self, args: unknown[], kwargs: Map<string, unknown> | null) => unknown
/** A method of some receiver type: methodTable picks the table by the receiver's own type, so each call is well typed. */
type SomeMethod = Method<never>

const PY_WS = ' \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000'

export function stripChars(s: string, chars: unknown, left: boolean, right: boolean): string {
  const set = chars === undefined || chars === null ? PY_WS : String(chars)
  const cs = Array.from(s)
  let a = 0
  let b = cs.length
  if (left) while (a < b && set.includes(cs[a])) a++
  if (right) while (b > a && set.includes(cs[b - 1])) b--
  return cs.slice(a, b).join('')
}

/** Python str.strip() with no argument (used by filters too). */
export const pyStrip = (s: string): string => stripChars(s, undefined, true, true)

const isWs = (c: string): boolean => PY_WS.includes(c)

// str.split() with no separator: runs of whitespace separate, the remainder after maxsplit keeps its spaces.
function wsSplitLeft(s: string, max: number): string[] {
  const out: string[] = []
  const n = s.length
  let i = 0
  for (;;) {
    while (i < n && isWs(s[i])) i++
    if (i >= n) break
    if (max >= 0 && out.length === max) {
      out.push(s.slice(i))
      break
    }
    let j = i
    while (j < n && !isWs(s[j])) j++
    out.push(s.slice(i, j))
    i = j
  }
  return out
}

function wsSplitRight(s: string, max: number): string[] {
  const out: string[] = []
  let i = s.length
  for (;;) {
    while (i > 0 && isWs(s[i - 1])) i--
    if (i <= 0) break
    if (max >= 0 && out.length === max) {
      out.unshift(s.slice(0, i))
      break
    }
    let j = i
    while (j > 0 && !isWs(s[j - 1])) j--
    out.unshift(s.slice(j, i))
    i = j
  }
  return out
}

function split(s: string, sep: unknown, maxsplit: unknown, fromRight: boolean): string[] {
  const max = maxsplit === undefined || maxsplit === null ? -1 : Number(maxsplit)
  if (sep === undefined || sep === null) return fromRight ? wsSplitRight(s, max) : wsSplitLeft(s, max)
  const sp = String(sep)
  if (sp === '') throw new PyError('ValueError', 'empty separator')
  const parts = s.split(sp)
  if (max < 0 || parts.length <= max + 1) return parts
  if (!fromRight) return [...parts.slice(0, max), parts.slice(max).join(sp)]
  return [parts.slice(0, parts.length - max).join(sp), ...parts.slice(parts.length - max)]
}

function startsOrEnds(s: string, arg: unknown, ends: boolean): boolean {
  const prefixes = Array.isArray(arg) ? arg : [arg]
  return prefixes.some((p) => {
    if (typeof p !== 'string') throw new PyError('TypeError', `${ends ? 'endswith' : 'startswith'} first arg must be str or a tuple of str, not ${typeName(p)}`)
    return ends ? s.endsWith(p) : s.startsWith(p)
  })
}

function title(s: string): string {
  return s.replace(/[A-Za-z\u00c0-\uffff]+/g, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
}

function capitalize(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1).toLowerCase() : s
}

function strFind(s: string, sub: unknown, fromRight: boolean): number {
  const i = fromRight ? s.lastIndexOf(String(sub)) : s.indexOf(String(sub))
  if (i < 0 || !hasAstral(s)) return i
  return Array.from(s.slice(0, i)).length
}

/** str.format as jinja2's sandbox runs it: string.Formatter, whose fields read through the sandbox's getattr/getitem. */
const sandboxFormat: FormatModel = { ...formatModel, getItem: (v, key) => getItem(v, key), getAttr: (v, name) => getAttr(v, name) }

function strFormat(s: string, args: unknown[], kwargs: Map<string, unknown> | null): string {
  return pyStrFormat(sandboxFormat, s, args, kwargs ?? new Map(), { formatter: true })
}

/** Checks a padding width against the string limit; returns '' so it can lead a concatenation. */
function checkWidth(w: unknown): string {
  checkString(Number(w))
  return ''
}

const STR_METHODS: Record<string, Method<string>> = {
  strip: (s, a) => stripChars(s, a[0], true, true),
  lstrip: (s, a) => stripChars(s, a[0], true, false),
  rstrip: (s, a) => stripChars(s, a[0], false, true),
  split: (s, a, k) => split(s, a[0] ?? k?.get('sep'), a[1] ?? k?.get('maxsplit'), false),
  rsplit: (s, a, k) => split(s, a[0] ?? k?.get('sep'), a[1] ?? k?.get('maxsplit'), true),
  splitlines: (s) => {
    const parts = s.split(/\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/)
    if (parts.length && parts[parts.length - 1] === '') parts.pop()
    return parts
  },
  startswith: (s, a) => startsOrEnds(s, a[0], false),
  endswith: (s, a) => startsOrEnds(s, a[0], true),
  replace: (s, a) => {
    const count = a[2] === undefined ? -1 : Number(a[2])
    const old = str(a[0])
    const neu = str(a[1])
    if (old === '') {
      // Python inserts the replacement before every code point and at the end, up to `count` times.
      const cs = Array.from(s)
      const times = count < 0 ? cs.length + 1 : Math.min(count, cs.length + 1)
      checkString(s.length + times * neu.length)
      let out = ''
      for (let i = 0; i < cs.length; i++) out += (i < times ? neu : '') + cs[i]
      return times > cs.length ? out + neu : out
    }
    const parts = s.split(old)
    checkString(s.length + (parts.length - 1) * (neu.length - old.length))
    if (count < 0) return parts.join(neu)
    return parts.slice(0, count + 1).join(neu) + (parts.length > count + 1 ? old + parts.slice(count + 1).join(old) : '')
  },
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  casefold: (s) => s.toLowerCase(),
  swapcase: (s: string) => Array.from(s).map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
  title: (s) => title(s),
  capitalize: (s) => capitalize(s),
  find: (s, a) => strFind(s, a[0], false),
  rfind: (s, a) => strFind(s, a[0], true),
  index: (s, a) => {
    const i = strFind(s, a[0], false)
    if (i < 0) throw new PyError('ValueError', 'substring not found')
    return i
  },
  count: (s, a) => (String(a[0]) === '' ? len(s) + 1 : s.split(String(a[0])).length - 1),
  join: (s, a) => toList(a[0]).map((x) => {
    if (typeof x !== 'string') throw new PyError('TypeError', `sequence item: expected str instance, ${typeName(x)} found`)
    return x
  }).join(s),
  format: (s, a, k) => strFormat(s, a, k),
  isdigit: (s) => s.length > 0 && /^\p{Nd}+$/u.test(s),
  isnumeric: (s) => s.length > 0 && /^\p{N}+$/u.test(s),
  isdecimal: (s) => s.length > 0 && /^\p{Nd}+$/u.test(s),
  isalpha: (s) => s.length > 0 && /^\p{L}+$/u.test(s),
  isalnum: (s) => s.length > 0 && /^[\p{L}\p{N}]+$/u.test(s),
  isspace: (s: string) => s.length > 0 && Array.from(s).every((c) => PY_WS.includes(c)),
  isupper: (s) => /\p{Lu}/u.test(s) && !/\p{Ll}/u.test(s),
  islower: (s) => /\p{Ll}/u.test(s) && !/\p{Lu}/u.test(s),
  zfill: (s, a) => {
    const w = Number(a[0])
    checkString(w)
    const sign = s[0] === '-' || s[0] === '+' ? s[0] : ''
    return sign + s.slice(sign.length).padStart(w - sign.length, '0')
  },
  center: (s, a) => {
    const w = Number(a[0])
    checkString(w)
    const fill = a[1] === undefined ? ' ' : String(a[1])
    const n = len(s)
    if (w <= n) return s
    const total = w - n
    const left = Math.floor(total / 2) + (total & w & 1)
    return fill.repeat(left) + s + fill.repeat(total - left)
  },
  ljust: (s, a) => checkWidth(a[0]) + s + (a[1] === undefined ? ' ' : String(a[1])).repeat(Math.max(0, Number(a[0]) - len(s))),
  rjust: (s, a) => checkWidth(a[0]) + (a[1] === undefined ? ' ' : String(a[1])).repeat(Math.max(0, Number(a[0]) - len(s))) + s,
  partition: (s, a) => {
    const i = s.indexOf(String(a[0]))
    return tuple(i < 0 ? [s, '', ''] : [s.slice(0, i), String(a[0]), s.slice(i + String(a[0]).length)])
  },
  rpartition: (s, a) => {
    const i = s.lastIndexOf(String(a[0]))
    return tuple(i < 0 ? ['', '', s] : [s.slice(0, i), String(a[0]), s.slice(i + String(a[0]).length)])
  },
  removeprefix: (s, a) => (s.startsWith(String(a[0])) ? s.slice(String(a[0]).length) : s),
  removesuffix: (s, a) => (String(a[0]) && s.endsWith(String(a[0])) ? s.slice(0, -String(a[0]).length) : s),
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
