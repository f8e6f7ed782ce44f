import { describe, expect, it } from 'vitest'
import { LabelDict, parsePyJson, PyFloat, pyRepr, pyStr } from '../../../shared/python/json'

describe('pyStr writes values as Python str() does', () => {
  it.each<[string, unknown, string]>([
    ['True', true, 'True'],
    ['False', false, 'False'],
    ['None (null)', null, 'None'],
    ['None (missing)', undefined, 'None'],
    ['small float in scientific notation', 1e-7, '1e-07'],
    ['large float in scientific notation', 2.5e20, '2.5e+20'],
    ['plain float', 0.1, '0.1'],
    ['integral float kept by PyFloat', new PyFloat(1), '1.0'],
    ['negative zero float', new PyFloat(-0), '-0.0'],
    ['int', 12345678901234, '12345678901234'],
    ['big int', 2n ** 70n, '1180591620717411303424'],
    ['str unchanged', "it's", "it's"],
    ['list of str and int', ['a', 1], "['a', 1]"],
    ['nested list with None and bool', [[null, true]], '[[None, True]]'],
    ['dict with nested list', { k: 'v', n: [false] }, "{'k': 'v', 'n': [False]}"],
    ['str with a single quote inside a list', ["it's"], '["it\'s"]'],
    ['str with both quotes inside a list', ['it\'s "x"'], "['it\\'s \"x\"']"],
    ['newline escaped inside a list', ['a\nb'], "['a\\nb']"],
    [
      'label dict with typed keys',
      new LabelDict([
        [0, 'no'],
        ['1', 'yes']
      ]),
      "{0: 'no', '1': 'yes'}"
    ]
  ])('%s', (_name, value, expected) => expect(pyStr(value)).toBe(expected))
})

describe('pyRepr quotes str and leaves other values as str()', () => {
  it.each<[unknown, string]>([
    ['abc', "'abc'"],
    ["it's", '"it\'s"'],
    ['say "hi"', '\'say "hi"\''],
    ['back\\slash', "'back\\\\slash'"],
    ['\t', "'\\t'"],
    [1, '1'],
    [null, 'None'],
    [new PyFloat(2), '2.0']
  ])('%j → %s', (value, expected) => expect(pyRepr(value)).toBe(expected))
})

describe('parsePyJson keeps what JSON.parse loses', () => {
  it.each<[string, string, string]>([
    ['an integral float stays a float', '{"x": 1.0}', '1.0'],
    ['1e16 is a float in scientific notation', '{"x": 1e16}', '1e+16'],
    ['an int stays an int', '{"x": 7}', '7'],
    ['an int beyond 2**53 stays exact', '{"x": 123456789012345678901}', '123456789012345678901']
  ])('%s', (_name, json, expected) => expect(pyStr((parsePyJson(json) as { x: unknown }).x)).toBe(expected))
})
