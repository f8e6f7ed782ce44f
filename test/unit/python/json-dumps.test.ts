// shared/python's json.dumps against CPython's own output (strings below printed by python3's json module).
import { describe, expect, it } from 'vitest'
import { PyFloat } from '../../../shared/python/json'
import { pyJsonDumps } from '../../../shared/python/json-dumps'
import { toJson } from '../../../shared/formats/hf/json'

describe('json.dumps', () => {
  it('lays out indent=2, sort_keys=True as Python (item separator "," with an indent)', () => {
    const v = { b: [1, new PyFloat(2), { x: 'é' }], a: null }
    expect(pyJsonDumps(v, { indent: 2, sortKeys: true })).toBe('{\n  "a": null,\n  "b": [\n    1,\n    2.0,\n    {\n      "x": "\\u00e9"\n    }\n  ]\n}')
  })

  it('sort_keys orders str keys by code point (U+FFFF before 😀, which UTF-16 order reverses)', () => {
    expect(pyJsonDumps({ '😀': 1, '\uffff': 2 }, { sortKeys: true, ensureAscii: false })).toBe('{"\uffff": 2, "😀": 1}')
  })

  it("sort_keys with an int and a str key raises Python's TypeError (tojson)", () => {
    expect(() => toJson(new Map<unknown, unknown>([[1, 1], ['a', 2]]), null, null, true, false)).toThrow("'<' not supported between instances of 'str' and 'int'")
  })

  it('takes separators and ensure_ascii=False', () => {
    expect(pyJsonDumps({ b: [1, 2.5], a: 'é😀' }, { separators: [',', ':'], ensureAscii: false })).toBe('{"b":[1,2.5],"a":"é😀"}')
  })

  it('prints empty containers without a newline under an indent', () => {
    expect([pyJsonDumps([], { indent: 2 }), pyJsonDumps({}, { indent: 2 })]).toEqual(['[]', '{}'])
  })

  it('turns float, bool and None keys into strings, NaN into NaN (the Jinja tojson filter too)', () => {
    const m = new Map<unknown, unknown>([[1.5, NaN], [true, 1], [null, 2]])
    expect(pyJsonDumps(m)).toBe('{"1.5": NaN, "true": 1, "null": 2}')
    expect(toJson(m, null, undefined, false, true)).toBe('{"1.5": NaN, "true": 1, "null": 2}')
  })
})
