import { describe, expect, it } from 'vitest'
import { readTsv } from '../../../shared/loaders/pandas-tsv'
import { fromList } from '../../../shared/loaders/from-list'
import { NpInt, PyFloat, isNa } from '../../../shared/loaders/py'
import { pyJsonDumps } from '../../../shared/python/json-dumps'
import { toliststr } from '../../../shared/loaders/vlmeval-tsv'

describe('pandas read_csv(sep="\\t") as the loaders see it', () => {
  it('types columns as pandas does: int64, float64 with NaN, object with NA strings as NaN', () => {
    const df = readTsv('a\tb\tc\n1\t4\tx\n2\t\tNA\n')
    expect(df.dtypes).toEqual(['int64', 'float64', 'object'])
    expect(df.data[0]).toEqual([new NpInt(1), new NpInt(2)])
    expect(df.data[1][0]).toEqual(new PyFloat(4))
    expect(isNa(df.data[1][1]) && isNa(df.data[2][1])).toBe(true)
  })

  it('reads quoted fields with tabs, newlines and doubled quotes', () => {
    const df = readTsv('q\tr\n"a\tb\nc ""d"""\tz\n')
    expect(df.data[0]).toEqual(['a\tb\nc "d"'])
  })
})

describe('Dataset.from_list', () => {
  it("keeps the first row's keys, unifies structs and turns ints among floats into floats", () => {
    const t = fromList([
      { a: 1, s: { x: 1 } },
      { a: 2.5, s: { y: 'k' }, extra: 1 }
    ])
    expect(t.columns).toEqual(['a', 's'])
    expect(t.rows).toEqual([
      { a: new PyFloat(1), s: { x: 1, y: null } },
      { a: 2.5, s: { x: null, y: 'k' } }
    ])
  })

  it('refuses a column mixing strings and NaN with ArrowInvalid', () => {
    expect(() => fromList([{ a: 'x' }, { a: new PyFloat(Number.NaN) }])).toThrow(
      expect.objectContaining({ pyClass: 'ArrowInvalid' })
    )
  })
})

describe('Python helpers', () => {
  it('json.dumps escapes non-ASCII by default and prints floats as Python does', () => {
    expect(pyJsonDumps({ A: 'café', n: new PyFloat(4), m: 0.5 })).toBe('{"A": "caf\\u00e9", "n": 4.0, "m": 0.5}')
    expect(pyJsonDumps(['é'], { ensureAscii: false })).toBe('["é"]')
  })

  it('toliststr evaluates a list literal and wraps any other string', () => {
    expect(toliststr("['a', 'b']")).toEqual(['a', 'b'])
    expect(toliststr('abc')).toEqual(['abc'])
  })

  it("toliststr iterates what the literal evaluates to as Python does: a dict's keys, and an int is not iterable", () => {
    expect(toliststr("[{'k': 1}][0]")).toEqual(['k'])
    expect(() => toliststr('[1][0]')).toThrow("'int' object is not iterable")
  })
})
