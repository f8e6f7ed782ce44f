// jinja2's built-in filters and tests, with Python semantics on every type (a filter applied to a type it
// does not fit raises as jinja2 does instead of quietly returning something), plus transformers' `tojson`.
import { checkString } from './budget'
import { pyStrip, pyStripChars } from '../../python/str-methods'
import { getItem } from './methods'
import { toJson } from './json'
import {
  PyError,
  arith,
  PyCallable,
  Undef,
  compare,
  contains,
  eq,
  extreme,
  isFloat,
  isTuple,
  len,
  mkFloat,
  numLike,
  PyFloat,
  PyIterator,
  PyMarkup,
  htmlEscape,
  percentFormat,
  plain,
  repr,
  sorted as sortedBy,
  str,
  toList,
  truthy,
  tuple,
  typeName
} from './values'

export type Kwargs = Map<string, unknown> | null
export type Filter = (value: unknown, args: unknown[], kwargs: Kwargs) => unknown
export type Test = (value: unknown, args: unknown[]) => boolean

/** A jinja2 filter that is a Python generator function: its result is an iterator over what `make` gives. */
const generator = (fn: string, make: () => unknown[]): PyIterator => new PyIterator('generator', fn, make)

/** Positional-or-keyword argument `i` named `name`, else `dflt`. */
function arg(args: unknown[], kwargs: Kwargs, i: number, name: string, dflt: unknown): unknown {
  if (i < args.length) return args[i]
  if (kwargs && kwargs.has(name)) return kwargs.get(name)
  return dflt
}

/** jinja2's make_attrgetter: dotted path, integer parts as indexes, item-then-attribute lookup. */
export function attrGetter(attribute: unknown, dflt?: unknown): (v: unknown) => unknown {
  const parts =
    typeof attribute === 'string' ? attribute.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [attribute]
  return (v: unknown) => {
    let x = v
    for (const p of parts) x = getItem(x, p)
    if (dflt !== undefined && x instanceof Undef) return dflt
    return x
  }
}

function lowerIfStr(v: unknown, caseSensitive: boolean): unknown {
  return !caseSensitive && typeof v === 'string' ? v.toLowerCase() : v
}

function toInt(v: unknown, dflt: unknown, base: number): unknown {
  if (numLike(v) && typeof v !== 'boolean') return Math.trunc(Number(v))
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'string') {
    const t = pyStrip(v).replace(/_/g, '')
    if (base === 10 && /^[-+]?\d+$/.test(t)) return parseInt(t, 10)
    if (base !== 10 && t) {
      const n = parseInt(t.replace(/^0[xob]/i, ''), base)
      if (!Number.isNaN(n)) return n
    }
    if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return Math.trunc(parseFloat(t))
  }
  return dflt
}

function toFloat(v: unknown, dflt: unknown): unknown {
  if (numLike(v)) return mkFloat(Number(v))
  if (typeof v === 'string') {
    const t = pyStrip(v).replace(/_/g, '')
    if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return mkFloat(parseFloat(t))
    if (/^[-+]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity
  }
  return dflt
}

function pyRound(v: number, precision: number, method: string): number {
  const f = 10 ** precision
  if (method === 'ceil') return Math.ceil(v * f) / f
  if (method === 'floor') return Math.floor(v * f) / f
  // Python rounds half to even.
  const x = v * f
  const r = Math.round(x)
  const halfway = Math.abs(x % 1) === 0.5
  return (halfway && r % 2 !== 0 ? r - 1 : r) / f
}

function indent(s: string, width: unknown, first: boolean, blank: boolean): string {
  if (typeof width !== 'string') checkString(Number(width))
  const pad = typeof width === 'string' ? width : ' '.repeat(Number(width))
  let text = s
  let tail = ''
  if (text.endsWith('\n')) {
    tail = '\n'
    text = text.slice(0, -1)
  }
  const lines = text.split('\n')
  const out = lines.map((l, i) => {
    if (i === 0) return first && (blank || l) ? pad + l : l
    return blank || l ? pad + l : l
  })
  return out.join('\n') + tail
}

function truncate(s: string, length: number, killwords: boolean, end: string, leeway: number): string {
  // do_truncate's own asserts, before it looks at the text.
  if (!(length >= end.length)) throw new PyError('AssertionError', `expected length >= ${end.length}, got ${length}`)
  if (!(leeway >= 0)) throw new PyError('AssertionError', `expected leeway >= 0, got ${leeway}`)
  if (s.length <= length + leeway) return s
  if (killwords) return s.slice(0, length - end.length) + end
  const cut = s.slice(0, length - end.length)
  const i = cut.lastIndexOf(' ')
  return (i >= 0 ? cut.slice(0, i) : cut) + end
}

function selectOrReject(value: unknown, args: unknown[], select: boolean, byAttr: boolean): unknown[] {
  if (lazyEmpty(value)) return []
  let getter: (v: unknown) => unknown = (v) => v
  let rest = args
  if (byAttr) {
    if (args.length === 0) throw new PyError('FilterArgumentError', 'Missing parameter for attribute name')
    getter = attrGetter(args[0])
    rest = args.slice(1)
  }
  let check: (v: unknown) => boolean
  if (rest.length === 0) check = truthy
  else {
    const name = String(rest[0])
    const test = TESTS[name]
    if (!test) throw new PyError('TemplateRuntimeError', `No test named '${name}'.`)
    const targs = rest.slice(1)
    check = (v) => test(v, targs)
  }
  return toList(value).filter((v) => check(getter(v)) === select)
}

function sliceOf(v: unknown, a: unknown[], k: Kwargs): unknown[][] {
  const n = Number(a[0])
  const fill = arg(a, k, 1, 'fill_with', null)
  const items = toList(v)
  const per = Math.floor(items.length / n)
  const extra = items.length % n
  const out: unknown[][] = []
  let offset = 0
  for (let i = 0; i < n; i++) {
    const start = offset + i * per
    if (i < extra) offset++
    const end = offset + (i + 1) * per
    const part = items.slice(start, end)
    if (fill !== null && i >= extra) part.push(fill)
    out.push(part)
  }
  return out
}

/** jinja2's select/reject/map yield nothing for a falsy value (None, '', []) before looking at arguments. */
function lazyEmpty(value: unknown): boolean {
  return !truthy(value)
}

function doMap(value: unknown, args: unknown[], kwargs: Kwargs, callFilter: (name: string, v: unknown, a: unknown[], k: Kwargs) => unknown): unknown[] {
  if (lazyEmpty(value)) return []
  const items = toList(value)
  if (args.length === 0 && kwargs?.has('attribute')) {
    const get = attrGetter(kwargs.get('attribute'), kwargs.has('default') ? kwargs.get('default') : undefined)
    return items.map(get)
  }
  if (args.length === 0) throw new PyError('FilterArgumentError', 'map requires a filter argument')
  const name = String(args[0])
  return items.map((v) => callFilter(name, v, args.slice(1), kwargs))
}

function sumOf(items: readonly unknown[], start: unknown): unknown {
  let total = start
  for (const v of items) {
    if (numLike(total) && numLike(v)) total = isFloat(total) || isFloat(v) ? mkFloat(Number(total) + Number(v)) : Number(total) + Number(v)
    else if (Array.isArray(total) && Array.isArray(v)) total = total.concat(v)
    else throw new PyError('TypeError', `unsupported operand type(s) for +: '${typeName(total)}' and '${typeName(v)}'`)
  }
  return total
}

/** jinja2's min/max: Python's min()/max() with the attribute getter and (unless case_sensitive) lower-cased str keys. */
function minMax(value: unknown, kwargs: Kwargs, which: 'min' | 'max'): unknown {
  const items = toList(value)
  if (items.length === 0) return new Undef('No aggregated item, sequence was empty.')
  const cs = truthy(kwargs?.get('case_sensitive') ?? false)
  const attr = kwargs?.get('attribute')
  const get = attr === undefined || attr === null ? (v: unknown) => v : attrGetter(attr)
  return extreme(which, items, (v) => lowerIfStr(get(v), cs))
}

function groupby(value: unknown, args: unknown[], kwargs: Kwargs): unknown[] {
  const get = attrGetter(arg(args, kwargs, 0, 'attribute', null), arg(args, kwargs, 1, 'default', undefined))
  const sorted = sortedBy(toList(value), get)
  const groups: unknown[] = []
  for (const v of sorted) {
    const k = get(v)
    const last = groups[groups.length - 1] as [unknown, unknown[]] | undefined
    if (last && eq(last[0], k)) last[1].push(v)
    else groups.push(tuple([k, [v]]))
  }
  return groups
}

/** jinja2's built-in filters by name (`map` is bound by the compiler, which knows the whole registry). */
export const FILTERS: Record<string, (value: unknown, args: unknown[], kwargs: Kwargs) => unknown> = {
  abs: (v) => {
    if (!numLike(v)) throw new PyError('TypeError', `bad operand type for abs(): '${typeName(v)}'`)
    return isFloat(v) ? mkFloat(Math.abs(Number(v))) : Math.abs(Number(v))
  },
  attribute: (v, a) => getItem(v, a[0]),
  batch: (v, a, k) =>
    generator('do_batch', () => {
      const n = Number(a[0])
      const fill = arg(a, k, 1, 'fill_with', null)
      const items = toList(v)
      const out: unknown[][] = []
      for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n))
      const last = out[out.length - 1]
      if (fill !== null && last) while (last.length < n) last.push(fill)
      return out
    }),
  capitalize: (v) => {
    const s = str(v)
    return s.length ? s[0].toUpperCase() + s.slice(1).toLowerCase() : s
  },
  center: (v, a, k) => {
    const s = str(v)
    const w = Number(arg(a, k, 0, 'width', 80))
    checkString(w)
    if (w <= s.length) return s
    const total = w - s.length
    const left = Math.floor(total / 2) + (total & w & 1)
    return ' '.repeat(left) + s + ' '.repeat(total - left)
  },
  count: (v) => len(v),
  default: (v, a, k) => {
    const dflt = arg(a, k, 0, 'default_value', '')
    const boolean = truthy(arg(a, k, 1, 'boolean', false))
    if (v instanceof Undef || (boolean && !truthy(v))) return dflt
    return v
  },
  dictsort: (v, a, k) => {
    if (!(v instanceof Map)) throw new PyError('TypeError', `'${typeName(v)}' object has no attribute 'items'`)
    const cs = truthy(arg(a, k, 0, 'case_sensitive', false))
    const by = arg(a, k, 1, 'by', 'key')
    const reverse = truthy(arg(a, k, 2, 'reverse', false))
    const pos = by === 'value' ? 1 : 0
    return sortedBy([...v.entries()].map((e) => tuple([e[0], e[1]])), (e) => lowerIfStr(e[pos], cs), reverse)
  },
  escape: (v) => htmlEscape(v),
  first: (v) => {
    if (v instanceof Map) return v.size ? v.keys().next().value : new Undef('No first item, sequence was empty.')
    if (v instanceof PyIterator) {
      const r = v.next()
      return r.done ? new Undef('No first item, sequence was empty.') : r.value
    }
    const items = toList(v)
    return items.length ? items[0] : new Undef('No first item, sequence was empty.')
  },
  float: (v, a, k) => toFloat(v, arg(a, k, 0, 'default', new PyFloat(0))),
  forceescape: (v) => htmlEscape(str(v)),
  // do_format: soft_str(value) % (kwargs or args) — the arguments as a tuple even when there is one.
  format: (v, a, k) => {
    if (a.length && k?.size) throw new PyError('FilterArgumentError', "can't handle positional and keyword arguments at the same time")
    const args = k?.size ? new Map(k) : tuple(a.slice())
    return v instanceof PyMarkup ? arith('%', v, args) : percentFormat(str(v), args)
  },
  groupby: (v, a, k) => groupby(v, a, k),
  indent: (v, a, k) => indent(str(v), arg(a, k, 0, 'width', 4), truthy(arg(a, k, 1, 'first', false)), truthy(arg(a, k, 2, 'blank', false))),
  int: (v, a, k) => toInt(v, arg(a, k, 0, 'default', 0), Number(arg(a, k, 1, 'base', 10))),
  items: (v) =>
    generator('do_items', () => {
      if (v instanceof Undef) return []
      if (!(v instanceof Map)) throw new PyError('TypeError', `Can only get item pairs from a mapping.`)
      return [...v.entries()].map((e) => tuple([e[0], e[1]]))
    }),
  join: (v, a, k) => {
    const sep = str(arg(a, k, 0, 'd', ''))
    const attr = arg(a, k, 1, 'attribute', null)
    let items = toList(v)
    if (attr !== null) items = items.map(attrGetter(attr))
    return items.map(str).join(sep)
  },
  last: (v) => {
    // sync_do_last: next(iter(reversed(seq))); an iterator cannot be reversed.
    if (v instanceof PyIterator) throw new PyError('TypeError', `'${v.pyType}' object is not reversible`)
    const items = v instanceof Map ? [...v.keys()] : toList(v)
    return items.length ? items[items.length - 1] : new Undef('No last item, sequence was empty.')
  },
  length: (v) => len(v),
  list: (v) => toList(v).slice(),
  lower: (v) => str(v).toLowerCase(),
  map: () => {
    throw new Error('map is bound by the compiler')
  },
  max: (v, _a, k) => minMax(v, k, 'max'),
  min: (v, _a, k) => minMax(v, k, 'min'),
  pprint: (v) => repr(v),
  reject: (v, a) => generator('select_or_reject', () => selectOrReject(v, a, false, false)),
  rejectattr: (v, a) => generator('select_or_reject', () => selectOrReject(v, a, false, true)),
  replace: (v, a, k) => {
    const s = str(v)
    const old = str(a[0])
    const neu = str(a[1])
    const count = arg(a, k, 2, 'count', null)
    if (count === null) return s.split(old).join(neu)
    const parts = s.split(old)
    const n = Number(count)
    return parts.slice(0, n + 1).join(neu) + (parts.length > n + 1 ? old + parts.slice(n + 1).join(old) : '')
  },
  reverse: (v) => {
    if (typeof v === 'string') return Array.from(v).reverse().join('')
    // do_reverse: reversed(value) — an iterator for a list, tuple or dict; what cannot be reversed becomes a list.
    if (Array.isArray(v)) return new PyIterator(isTuple(v) ? 'reversed' : 'list_reverseiterator', '', () => v.slice().reverse())
    if (v instanceof Map) return new PyIterator('dict_reversekeyiterator', '', () => [...v.keys()].reverse())
    return toList(v).slice().reverse()
  },
  round: (v, a, k) => {
    const precision = Number(arg(a, k, 0, 'precision', 0))
    const method = String(arg(a, k, 1, 'method', 'common'))
    if (!numLike(v)) throw new PyError('TypeError', `type ${typeName(v)} doesn't define __round__ method`)
    // jinja2's round always returns a float.
    return mkFloat(pyRound(Number(v), precision, method))
  },
  safe: (v) => (v instanceof PyMarkup ? v : new PyMarkup(str(v))),
  select: (v, a) => generator('select_or_reject', () => selectOrReject(v, a, true, false)),
  selectattr: (v, a) => generator('select_or_reject', () => selectOrReject(v, a, true, true)),
  slice: (v, a, k) => generator('sync_do_slice', () => sliceOf(v, a, k)),
  sort: (v, a, k) => {
    const reverse = truthy(arg(a, k, 0, 'reverse', false))
    const cs = truthy(arg(a, k, 1, 'case_sensitive', false))
    const attr = arg(a, k, 2, 'attribute', null)
    const get = attr === null ? (x: unknown) => x : attrGetter(attr)
    return sortedBy(toList(v), (x) => lowerIfStr(get(x), cs), reverse)
  },
  string: (v) => str(v),
  striptags: (v) => str(v).replace(/<!--[\s\S]*?-->|<[^>]*>/g, '').split(/\s+/).filter(Boolean).join(' '),
  sum: (v, a, k) => {
    const attr = arg(a, k, 0, 'attribute', null)
    let items = toList(v)
    if (attr !== null) items = items.map(attrGetter(attr))
    return sumOf(items, arg(a, k, 1, 'start', 0))
  },
  title: (v) => str(v).replace(/[\p{L}\p{N}']+/gu, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase()),
  tojson: (v, a, k) => toJson(v, arg(a, k, 0, 'indent', null), kwargs(k, 'separators'), truthy(k?.get('sort_keys') ?? false), truthy(k?.get('ensure_ascii') ?? false)),
  trim: (v, a, k) => {
    const chars = arg(a, k, 0, 'chars', null)
    const s = str(v)
    if (chars === null) return pyStrip(s)
    return pyStripChars(s, str(chars), true, true)
  },
  truncate: (v, a, k) =>
    truncate(str(v), Number(arg(a, k, 0, 'length', 255)), truthy(arg(a, k, 1, 'killwords', false)), str(arg(a, k, 2, 'end', '...')), Number(arg(a, k, 3, 'leeway', 5))),
  unique: (v, a, k) =>
    generator('do_unique', () => {
      const cs = truthy(arg(a, k, 0, 'case_sensitive', false))
      const attr = arg(a, k, 1, 'attribute', null)
      const get = attr === null ? (x: unknown) => x : attrGetter(attr)
      const seen: unknown[] = []
      const out: unknown[] = []
      for (const x of toList(v)) {
        const key = lowerIfStr(get(x), cs)
        if (!seen.some((s) => eq(s, key))) {
          seen.push(key)
          out.push(x)
        }
      }
      return out
    }),
  upper: (v) => str(v).toUpperCase(),
  urlencode: (v) => encodeURIComponent(str(v)).replace(/%2F/g, '/'),
  wordcount: (v) => (str(v).match(/\w+/gu) ?? []).length,
  xmlattr: (v) => {
    if (!(v instanceof Map)) return ''
    const parts: string[] = []
    for (const [key, x] of v) if (x !== null && !(x instanceof Undef)) parts.push(`${str(key)}="${htmlEscape(x).s}"`)
    return parts.length ? ' ' + parts.join(' ') : ''
  }
}
FILTERS.d = FILTERS.default
FILTERS.e = FILTERS.escape

/**
 * Filters given Markup: these keep it Markup as jinja2's do (soft_str then a str method); `format` is Markup's `%`.
 * Every other filter sees the plain str, as its str() or str methods make it one in Python.
 */
const MARKUP_KEEPING: Record<string, (m: PyMarkup, a: unknown[], k: Kwargs) => unknown> = {
  string: (m) => m,
  upper: (m) => new PyMarkup(m.s.toUpperCase()),
  lower: (m) => new PyMarkup(m.s.toLowerCase()),
  capitalize: (m, a, k) => new PyMarkup(str(FILTERS.capitalize(m.s, a, k))),
  trim: (m, a, k) => new PyMarkup(str(FILTERS.trim(m.s, a, k))),
  format: (m, a) => arith('%', m, a.length === 1 ? a[0] : tuple(a))
}
for (const name of Object.keys(FILTERS)) {
  if (name === 'safe' || name === 'escape' || name === 'e' || name === 'forceescape') continue
  const f = FILTERS[name]
  const keep = MARKUP_KEEPING[name]
  FILTERS[name] = (v, a, k) => (v instanceof PyMarkup ? (keep ? keep(v, a, k) : f(v.s, a, k)) : f(v, a, k))
}

function kwargs(k: Kwargs, name: string): unknown {
  return k?.get(name) ?? null
}

/** map() needs to call filters by name, which only the compiler's registry knows. */
export function mapFilter(callFilter: (name: string, v: unknown, a: unknown[], k: Kwargs) => unknown): Filter {
  return (v, a, k) => generator('sync_do_map', () => doMap(v, a, k, callFilter))
}


export const TESTS: Record<string, Test> = {
  boolean: (v) => typeof v === 'boolean',
  // jinja2's Undefined defines __call__ (to raise), so Python's callable() says True for it.
  callable: (v) => v instanceof PyCallable || v instanceof Undef,
  defined: (v) => !(v instanceof Undef),
  undefined: (v) => v instanceof Undef,
  divisibleby: (v, a) => Number(v) % Number(a[0]) === 0,
  eq: (v, a) => eq(v, a[0]),
  equalto: (v, a) => eq(v, a[0]),
  '==': (v, a) => eq(v, a[0]),
  ne: (v, a) => !eq(v, a[0]),
  '!=': (v, a) => !eq(v, a[0]),
  escaped: (v) => v instanceof PyMarkup,
  even: (v) => Number(v) % 2 === 0,
  odd: (v) => Math.abs(Number(v) % 2) === 1,
  false: (v) => v === false,
  true: (v) => v === true,
  filter: (v) => typeof v === 'string' && v in FILTERS,
  float: (v) => isFloat(v),
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  number: (v) => numLike(v),
  ge: (v, a) => compare('>=', v, a[0]),
  '>=': (v, a) => compare('>=', v, a[0]),
  gt: (v, a) => compare('>', v, a[0]),
  '>': (v, a) => compare('>', v, a[0]),
  greaterthan: (v, a) => compare('>', v, a[0]),
  le: (v, a) => compare('<=', v, a[0]),
  '<=': (v, a) => compare('<=', v, a[0]),
  lt: (v, a) => compare('<', v, a[0]),
  '<': (v, a) => compare('<', v, a[0]),
  lessthan: (v, a) => compare('<', v, a[0]),
  in: (v, a) => contains(a[0], v),
  iterable: (v) => typeof v === 'string' || Array.isArray(v) || v instanceof Map || v instanceof Undef || v instanceof PyIterator,
  lower: (v) => typeof v === 'string' && v === v.toLowerCase(),
  upper: (v) => typeof v === 'string' && v === v.toUpperCase(),
  mapping: (v) => v instanceof Map,
  none: (v) => v === null,
  sameas: (v, a) => v === a[0] || (v instanceof Undef && a[0] instanceof Undef),
  sequence: (v) => typeof v === 'string' || Array.isArray(v) || v instanceof Map,
  string: (v) => typeof v === 'string',
  test: (v) => typeof v === 'string' && v in TESTS
}
// A test sees Markup as the str it is (`x|safe is string` is true), except `escaped`, which asks for __html__.
for (const name of Object.keys(TESTS)) {
  if (name === 'escaped') continue
  const t = TESTS[name]
  TESTS[name] = (v, a) => t(plain(v), a.length ? a.map(plain) : a)
}

