// shared/python/values.ts: the one str()/repr()/truthiness/type name, through each family's view. The repr tables
// are CPython 3.11's (cpython-tables.json); every family prints through the same PyRuntime, so the tables run once
// on the JSON view (with tuples) and once on the config evaluator's classes (with sets), and the views' own
// differences are pinned case by case.
import { describe, expect, it } from 'vitest'
import { PyDict, PyList, PyRef, PySet, PyTuple, pyEquals, pyRepr as configRepr, truthy as configTruthy } from '../../../shared/config/python-values'
import { PyMarkup, Undef, eq as hfEq, repr as hfRepr, str as hfStr, truthy as hfTruthy, typeName as hfTypeName } from '../../../shared/formats/hf/values'
import { pyRepr as lazyRepr, pyTypeName as lazyTypeName } from '../../../shared/formats/lazyllm/python-values'
import { PyFloat, jsonRuntime, pyRepr, pyStr, tuple } from '../../../shared/python/json'
import { fromBits, tables, toConfig, toJson, type Tagged } from './cpython-tables'

const has = (v: Tagged, pred: (x: Tagged) => boolean): boolean =>
  pred(v) || (v !== null && typeof v === 'object' && Object.values(v).some((x) => Array.isArray(x) && x.flat().some((y) => has(y as Tagged, pred))))
const isSet = (v: Tagged): boolean => v !== null && typeof v === 'object' && 'set' in v
const isIntegralFloat = (v: Tagged): boolean => v !== null && typeof v === 'object' && 'float' in v && Number.isInteger(fromBits(v.float))

describe('repr(str) is CPython’s', () => {
  it.each(tables.strings.map((r) => [JSON.stringify(r.s).slice(0, 30), r.s, r.repr] as const))('%s', (_n, s, expected) => {
    expect(pyRepr(s)).toBe(expected)
  })
})

describe('repr(float) is CPython’s (an integral float boxed as PyFloat)', () => {
  it.each(tables.floats.map((r) => [r.repr, fromBits(r.bits)] as const))('%s', (expected, x) => {
    expect(pyRepr(Number.isInteger(x) ? new PyFloat(x) : x)).toBe(expected)
  })
})

describe('containers print as CPython prints them (JSON view: lists, tuples, dicts)', () => {
  it.each(tables.containers.filter((r) => !has(r.value, isSet)).map((r) => [r.repr, r] as const))('%s', (expected, r) => {
    expect([jsonRuntime.repr(toJson(r.value)), jsonRuntime.str(toJson(r.value))]).toEqual([expected, r.str])
  })
})

describe('containers print as CPython prints them (config view: sets too; no float marker)', () => {
  it.each(tables.containers.filter((r) => !has(r.value, isIntegralFloat)).map((r) => [r.repr, r.value] as const))('%s', (expected, value) => {
    expect(configRepr(toConfig(value))).toBe(expected)
  })
})

describe('a container that contains itself', () => {
  it('prints [...] where it recurs', () => {
    const l = new PyList([1])
    l.items.push(l)
    expect(configRepr(l)).toBe('[1, [...]]')
  })
  it('prints {...} for a dict', () => {
    const d = new PyDict()
    d.set('self', d)
    expect(configRepr(d)).toBe("{'self': {...}}")
  })
})

describe('what the views decide', () => {
  it('a bare number beyond 2**53 is a float in JSON data, an int where ints are computed (Jinja, config)', () => {
    expect([pyStr(2 ** 60), hfStr(2 ** 60), configRepr(2 ** 60)]).toEqual(['1.152921504606847e+18', '1152921504606846976', '1152921504606846976'])
  })
  it('-0 is the float -0.0 in JSON data and the int 0 in the Jinja runtime', () => {
    expect([pyStr(-0), hfStr(-0)]).toEqual(['-0.0', '0'])
  })
  it('Markup is a str subclass: printed as its text, repr Markup(...), true when not empty', () => {
    const m = new PyMarkup('<b>')
    expect([hfStr(m), hfRepr(m), hfTypeName(m), hfTruthy(m), hfTruthy(new PyMarkup(''))]).toEqual(['<b>', "Markup('<b>')", 'Markup', true, false])
  })
  it("jinja2's Undefined prints empty, is false, and its repr is Undefined", () => {
    const u = new Undef("'x' is undefined")
    expect([hfStr(u), hfRepr([u]), hfTypeName(u), hfTruthy(u)]).toEqual(['', '[Undefined]', 'Undefined', false])
  })
  it('LazyLLM prints a function value as <function>', () => {
    const f = (): void => undefined
    expect([lazyRepr([f] as never), lazyTypeName(f)]).toEqual(['[<function>]', 'function'])
  })
  it('truthiness: empty containers are false, NaN is true', () => {
    expect([configTruthy(new PySet([])), configTruthy(new PyTuple([0])), jsonRuntime.truthy(Number.NaN), jsonRuntime.truthy(new Map())]).toEqual([false, true, true, false])
  })
  it('bytes print as b\'…\'', () => {
    expect(pyRepr(new Uint8Array([104, 105, 0, 39, 255]))).toBe("b\"hi\\x00'\\xff\"")
  })
})

describe('== is Python’s', () => {
  it('True == 1 == 1.0, and an int beyond 2**53 is compared exactly with a float', () => {
    expect([jsonRuntime.eq(true, 1), jsonRuntime.eq(1, new PyFloat(1)), jsonRuntime.eq(2n ** 53n + 1n, new PyFloat(2 ** 53)), jsonRuntime.eq(2n ** 53n, new PyFloat(2 ** 53))]).toEqual([true, true, false, true])
  })
  it('a list never equals a tuple with the same items', () => {
    expect([jsonRuntime.eq([1], tuple([1])), jsonRuntime.eq(tuple([1]), tuple([1]))]).toEqual([false, true])
  })
  it('dicts compare their keys with == (1 and 1.0 are one key) and their values item by item', () => {
    expect(jsonRuntime.eq(new Map([[1, ['a']]]), new Map([[new PyFloat(1), ['a']]]))).toBe(true)
  })
  it("jinja2's Undefined equals any Undefined and nothing else; Markup equals its text", () => {
    expect([hfEq(new Undef('a'), new Undef('b')), hfEq(new Undef('a'), null), hfEq(new PyMarkup('x'), 'x')]).toEqual([true, false, true])
  })
  it('a class imported twice is the same class', () => {
    expect(pyEquals(new PyRef('A', 'm'), new PyRef('A', 'm'))).toBe(true)
  })
})
