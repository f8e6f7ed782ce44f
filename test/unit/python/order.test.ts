// shared/python/values.ts: the one <, <=, >, >=, sorted(), min()/max(), len(), iter() and `in`, against CPython 3.11
// (order-tables.json, written by gen-order-tables.py). Each table runs through the runtime of every family that
// can hold its values: JSON data (exact big ints, no sets), the config evaluator's classes (sets; no float marker,
// ints as JS numbers) and the Jinja runtime's adapters (Markup, Undefined; ints as JS numbers, no sets).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PyList, runtime as configRuntime, type PyValue } from '../../../shared/config/python-values'
import * as jinja from '../../../shared/formats/hf/values'
import { PyError } from '../../../shared/python/errors'
import { jsonRuntime } from '../../../shared/python/json'
import { strOrder, type OrderOp, type PyRuntime } from '../../../shared/python/values'
import { fromBits, toConfig, toJson, type Tagged } from './cpython-tables'

type Outcome = { ok: Tagged } | { err: string }
interface OrderTables {
  compare: ({ a: Tagged; b: Tagged } & Record<OrderOp, Outcome>)[]
  len: ({ v: Tagged } & Outcome)[]
  iter: ({ v: Tagged } & Outcome)[]
  contains: ({ item: Tagged; container: Tagged } & Outcome)[]
  sorted: ({ items: Tagged; reverse: boolean } & Outcome)[]
  extreme: ({ fn: 'min' | 'max'; items: Tagged } & Outcome)[]
  unpack: ({ v: Tagged; starred: boolean } & Outcome)[]
  keys: { a: Tagged; b: Tagged; same: boolean }[]
  hash: ({ v: Tagged } & ({ ok: true } | { err: string }))[]
}
const tables: OrderTables = JSON.parse(readFileSync(new URL('./order-tables.json', import.meta.url), 'utf8'))
const OPS: OrderOp[] = ['<', '<=', '>', '>=']

/** Does any value in the tree satisfy `pred`? */
const has = (v: Tagged, pred: (x: Tagged) => boolean): boolean =>
  pred(v) || (v !== null && typeof v === 'object' && Object.values(v).some((x) => Array.isArray(x) && x.flat().some((y) => has(y as Tagged, pred))))
const isSet = (v: Tagged): boolean => v !== null && typeof v === 'object' && 'set' in v
const isUnsafeInt = (v: Tagged): boolean => v !== null && typeof v === 'object' && 'int' in v && !Number.isSafeInteger(Number(v.int))
const isIntegralFloat = (v: Tagged): boolean => v !== null && typeof v === 'object' && 'float' in v && Number.isInteger(fromBits(v.float))

/** The operations as one family reaches them, over that family's values. */
interface Family {
  name: string
  rt: PyRuntime
  from: (v: Tagged) => unknown
  /** The values it cannot hold as CPython had them. */
  skip: (v: Tagged) => boolean
  /** Its list of these items. */
  list: (items: unknown[]) => unknown
  compare: (op: OrderOp, a: unknown, b: unknown) => boolean
  len: (v: unknown) => number
  items: (v: unknown) => readonly unknown[]
  contains: (c: unknown, x: unknown) => boolean
  sorted: (items: readonly unknown[], reverse: boolean) => unknown[]
  extreme: (fn: 'min' | 'max', items: readonly unknown[]) => unknown
  /** `a, b = v` and `a, *rest, b = v`, as [a, b]. */
  unpack: (v: unknown, starred: boolean) => unknown[]
}
/** The first and last of what `a, b = v` or `a, *rest, b = v` unpacked. */
const ends = (items: readonly unknown[]): unknown[] => [items[0], items[items.length - 1]]
const viaRuntime = (rt: PyRuntime): Pick<Family, 'compare' | 'len' | 'items' | 'contains' | 'sorted' | 'extreme' | 'unpack'> => ({
  unpack: (v, starred) => ends(rt.unpack(v, starred ? 3 : 2, starred)),
  compare: (op, a, b) => rt.compare(op, a, b),
  len: (v) => rt.len(v),
  items: (v) => rt.items(v),
  contains: (c, x) => rt.contains(c, x),
  sorted: (items, reverse) => rt.sorted(items, undefined, reverse),
  extreme: (fn, items) => rt.extreme(fn, items)
})
const families: Family[] = [
  { name: 'JSON data', rt: jsonRuntime, from: toJson, skip: (v) => has(v, isSet), list: (x) => x, ...viaRuntime(jsonRuntime) },
  {
    name: 'config evaluator',
    rt: configRuntime,
    from: toConfig as (v: Tagged) => unknown,
    skip: (v) => has(v, isIntegralFloat) || has(v, isUnsafeInt),
    list: (x) => new PyList(x as PyValue[]),
    ...viaRuntime(configRuntime)
  },
  {
    name: 'Jinja runtime',
    rt: jinja.runtime,
    from: toJson,
    skip: (v) => has(v, isSet) || has(v, isUnsafeInt),
    list: (x) => x,
    compare: jinja.compare,
    len: jinja.len,
    items: jinja.toList,
    contains: jinja.contains,
    sorted: (items, reverse) => jinja.sorted(items, undefined, reverse),
    extreme: (fn, items) => jinja.extreme(fn, items),
    // Jinja assignments have no starred target.
    unpack: (v, starred) => ends(starred ? jinja.runtime.unpack(v, 3, true) : jinja.unpack(v, 2))
  }
]

/** What a call gives, in CPython's words: the repr of its result or `Class: message`. */
function outcome(f: Family, call: () => unknown): string {
  try {
    return f.rt.repr(call())
  } catch (e) {
    if (e instanceof PyError) return e.pyMessage
    throw e
  }
}
const expected = (f: Family, o: Outcome): string => ('err' in o ? o.err : f.rt.repr(f.from(o.ok)))

describe.each(families)('$name: order, len, iter and `in` are CPython’s', (f) => {
  /** The rows of a table `f` can hold, as [case, what CPython gave, what the family gives]; the test wants them all equal. */
  const mismatches = <R>(rows: R[], values: (r: R) => Tagged[], run: (r: R) => [string, string, string][]): [string, string, string][] =>
    rows.filter((r) => !values(r).some(f.skip)).flatMap(run).filter(([, want, got]) => want !== got)

  it('a < b, a <= b, a > b, a >= b', () => {
    const bad = mismatches(tables.compare, (r) => [r.a, r.b], (r) => {
      const [a, b] = [f.from(r.a), f.from(r.b)]
      return OPS.map((op) => [`${f.rt.repr(a)} ${op} ${f.rt.repr(b)}`, expected(f, r[op]), outcome(f, () => f.compare(op, a, b))])
    })
    expect(bad).toEqual([])
  })
  it('len(v)', () => {
    const bad = mismatches(tables.len, (r) => [r.v], (r) => [[f.rt.repr(f.from(r.v)), expected(f, r), outcome(f, () => f.len(f.from(r.v)))]])
    expect(bad).toEqual([])
  })
  it('list(iter(v))', () => {
    const bad = mismatches(tables.iter, (r) => [r.v], (r) => [[f.rt.repr(f.from(r.v)), expected(f, r), outcome(f, () => f.list([...f.items(f.from(r.v))]))]])
    expect(bad).toEqual([])
  })
  it('item in container', () => {
    const bad = mismatches(tables.contains, (r) => [r.item, r.container], (r) => {
      const [x, c] = [f.from(r.item), f.from(r.container)]
      return [[`${f.rt.repr(x)} in ${f.rt.repr(c)}`, expected(f, r), outcome(f, () => f.contains(c, x))]]
    })
    expect(bad).toEqual([])
  })
  it('sorted(items, reverse=…): the same order, and a mixed list raises naming the pair CPython names', () => {
    const bad = mismatches(tables.sorted, (r) => [r.items], (r) => {
      const items = f.rt.items(f.from(r.items))
      return [[`sorted(${f.rt.repr(f.from(r.items))}, reverse=${r.reverse})`, expected(f, r), outcome(f, () => f.list(f.sorted(items, r.reverse)))]]
    })
    expect(bad).toEqual([])
  })
  it('min(items), max(items): the first least or greatest', () => {
    const bad = mismatches(tables.extreme, (r) => [r.items], (r) => {
      const items = f.rt.items(f.from(r.items))
      return [[`${r.fn}(${f.rt.repr(f.from(r.items))})`, expected(f, r), outcome(f, () => f.extreme(r.fn, items))]]
    })
    expect(bad).toEqual([])
  })
  it('a, b = v and a, *rest, b = v', () => {
    const bad = mismatches(tables.unpack, (r) => [r.v], (r) => {
      const v = f.from(r.v)
      return [[`${r.starred ? 'a, *rest, b' : 'a, b'} = ${f.rt.repr(v)}`, expected(f, r), outcome(f, () => f.list(f.unpack(v, r.starred)))]]
    })
    expect(bad).toEqual([])
  })
})

describe.each(families)('$name: dict keys are CPython’s (hashKey)', (f) => {
  it('two values are one key exactly when CPython’s {a, b} has one member', () => {
    const bad = tables.keys
      .filter((r) => !f.skip(r.a) && !f.skip(r.b))
      .filter((r) => (f.rt.hashKey(f.from(r.a)) === f.rt.hashKey(f.from(r.b))) !== r.same)
      .map((r) => `${f.rt.repr(f.from(r.a))} ~ ${f.rt.repr(f.from(r.b))}: CPython ${r.same ? 'one key' : 'two keys'}`)
    expect(bad).toEqual([])
  })
  it('a list, dict or set (also inside a tuple) is refused as hash() refuses it', () => {
    const bad = tables.hash
      .filter((r) => !f.skip(r.v))
      .map((r) => [f.rt.repr(f.from(r.v)), 'err' in r ? r.err : 'hashable', outcome(f, () => (f.rt.hashKey(f.from(r.v)), 'hashable')).replace(/^'hashable'$/, 'hashable')])
      .filter(([, want, got]) => want !== got)
    expect(bad).toEqual([])
  })
})

describe('str order is by code point, not UTF-16 unit', () => {
  it('U+FFFF sorts before an astral character, which JS’s < puts first', () => {
    expect([strOrder('\uffff', '😀'), '\uffff' < '😀']).toEqual([-1, false])
  })
  it('a lone surrogate sorts below U+E000 and below the pair that starts with it', () => {
    expect([strOrder('\ud800', '\ue000'), strOrder('a\ud800', 'a😀'), strOrder('a\ud83d!', 'a😀')]).toEqual([-1, -1, -1])
  })
})

describe("jinja2's Undefined", () => {
  const u = new jinja.Undef("'x' is undefined")
  it('raises UndefinedError when ordered, also inside a list', () => {
    expect(() => jinja.compare('<', [u], [1])).toThrow("'x' is undefined")
  })
  it('has len() 0, iterates empty, holds nothing', () => {
    expect([jinja.len(u), jinja.toList(u), jinja.contains(u, 1)]).toEqual([0, [], false])
  })
})

describe('a generator (jinja2 filters return them)', () => {
  it('`in` consumes it up to the first match, as Python’s does', () => {
    const it = new jinja.PyIterator('generator', 'sync_do_map', () => [1, 2, 3])
    expect([jinja.contains(it, 2), jinja.toList(it)]).toEqual([true, [3]])
  })
  it('has no len()', () => {
    expect(() => jinja.len(new jinja.PyIterator('generator', 'sync_do_map', () => []))).toThrow("object of type 'generator' has no len()")
  })
})
