// shared/python/json.ts: parsePyJson + pyStr/pyRepr give what CPython prints for json.loads(text).
import { describe, expect, it } from 'vitest'
import {
  jsonGet,
  LabelDict,
  parsePyJson,
  PyFloat,
  pyKeyEq,
  pyRepr,
  pyStr,
  pyTruthy,
  pyTypeName
} from '../../../shared/python/json'
import { tables } from './cpython-tables'

describe('str(json.loads(text))', () => {
  it.each(tables.json.map((r) => [r.json, r.str] as const))('%s → %s', (text, expected) => {
    expect(pyStr(parsePyJson(text))).toBe(expected)
  })
})

describe('repr(json.loads(text))', () => {
  it.each(tables.json.map((r) => [r.json, r.repr] as const))('%s → %s', (text, expected) => {
    expect(pyRepr(parsePyJson(text))).toBe(expected)
  })
})

describe('numbers parsePyJson keeps apart', () => {
  it('an integral float is a PyFloat', () => expect(parsePyJson('1.0')).toBeInstanceOf(PyFloat))
  it('an int beyond 2**53 is a bigint', () => expect(parsePyJson('9007199254740993')).toBe(9007199254740993n))
  it('-0 is the int 0', () => expect(Object.is(parsePyJson('-0'), 0)).toBe(true))
})

describe('bare JS numbers (data from plain JSON.parse)', () => {
  it.each<[number, string]>([
    [7, '7'],
    [0.5, '0.5'],
    // Beyond 2**53 a bare number cannot be an exact Python int, so it is the float it must have been.
    [1e20, '1e+20'],
    [-0, '-0.0']
  ])('%s → %s', (n, expected) => expect(pyStr(n)).toBe(expected))
})

describe('label dicts print their typed keys', () => {
  it('int and str keys', () => {
    const d = new LabelDict([
      [0, 'no'],
      ['1', 'yes']
    ])
    expect(pyStr(d)).toBe("{0: 'no', '1': 'yes'}")
  })
  it('looks keys up with Python equality (1 == 1.0 == True)', () => {
    const d = new LabelDict([[1, 'one']])
    expect([d.get(new PyFloat(1)), d.get(true), d.has('1')]).toEqual(['one', 'one', false])
  })
})

describe('pyKeyEq, pyTruthy and pyTypeName', () => {
  it.each<[unknown, unknown, boolean]>([
    [1, true, true],
    [0, new PyFloat(0), true],
    ['1', 1, false],
    [2n, 2, true]
  ])('%s == %s is %s', (a, b, expected) => expect(pyKeyEq(a, b)).toBe(expected))
  it.each<[unknown, boolean]>([
    [new PyFloat(0), false],
    [new PyFloat(-0), false],
    [[], false],
    [{}, false],
    ['0', true],
    [0n, false]
  ])('truthiness of %s is %s', (v, expected) => expect(pyTruthy(v)).toBe(expected))
  it.each<[unknown, string]>([
    [new PyFloat(1), 'float'],
    [3n, 'int'],
    [1.5, 'float'],
    [null, 'NoneType'],
    [new LabelDict([]), 'dict']
  ])('type of %s is %s', (v, expected) => expect(pyTypeName(v)).toBe(expected))
})

describe('jsonGet reads a path through parsed JSON as `?.` would', () => {
  const cfg = parsePyJson('{"retriever": {"type": "FixKRetriever"}, "labels": [1, 2], "n": 3}')
  it('follows dicts to the value', () => expect(jsonGet(cfg, 'retriever', 'type')).toBe('FixKRetriever'))
  it('is undefined past a value that is not a dict', () => expect(jsonGet(cfg, 'n', 'type')).toBeUndefined())
  it('is undefined past null', () => expect(jsonGet(null, 'type')).toBeUndefined())
  it('finds no inherited key past a non-dict', () => expect(jsonGet('text', 'constructor')).toBeUndefined())
})
