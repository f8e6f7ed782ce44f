// What real configs use beyond plain data: function definitions, lambdas, loops with continue/break, raise,
// chr/ord, itertools.product, math, subscripted types, os.environ.get with a default, and
// `from mmengine import read_base`.
import { describe, expect, it } from 'vitest'
import { configDiag, at } from './config-diag'
import { evaluatePythonConfig } from '../../../shared/config/python-config'

const run = (src: string) => evaluatePythonConfig(src, { file: 'cfg.py' })
const value = (src: string): unknown => {
  const r = run(src)
  expect(r.diagnostics).toEqual([])
  return r.variables.x
}

describe('evaluatePythonConfig: functions', () => {
  it('calls a def with positional, default, *args, keyword-only and **kwargs parameters', () => {
    const src = 'def f(a, b=2, *rest, k=3, **kw):\n    return [a, b, list(rest), k, sorted(kw)]\nx = f(1, 5, 6, 7, k=0, z=1, y=2)'
    expect(value(src)).toEqual([1, 5, [6, 7], 0, ['y', 'z']])
  })

  it('builds dataset dicts in a helper, as InverseIFEval-style configs do', () => {
    const src = "def _make(name, mini=False):\n    abbr = f'{name}_mini' if mini else name\n    return dict(abbr=abbr, reader_cfg=dict(input_columns=['q']))\nx = [_make(n) for n in ['a', 'b']] + [_make('c', mini=True)]"
    expect(value(src)).toEqual([
      { abbr: 'a', reader_cfg: { input_columns: ['q'] } },
      { abbr: 'b', reader_cfg: { input_columns: ['q'] } },
      { abbr: 'c_mini', reader_cfg: { input_columns: ['q'] } }
    ])
  })

  it('recurses', () => {
    expect(value('def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\nx = fact(6)')).toBe(720)
  })

  it('reads module variables defined after the function, at call time', () => {
    expect(value('def get():\n    return later * 2\nlater = 21\nx = get()')).toBe(42)
  })

  it('keeps function locals out of the module', () => {
    const r = run('def f():\n    tmp = 1\n    return tmp\nx = f()')
    expect(r.variables).toEqual({ x: 1 })
  })

  it('writes a module variable declared global', () => {
    expect(value('x = 0\ndef bump():\n    global x\n    x = x + 1\nbump()\nbump()')).toBe(2)
  })

  it('passes lambdas to sorted, map and filter', () => {
    expect(value("x = [sorted(['bb', 'a', 'ccc'], key=lambda s: -len(s)), list(map(lambda v: v * 2, [1, 2])), list(filter(lambda v: v % 2, range(5)))]")).toEqual([
      ['ccc', 'bb', 'a'],
      [2, 4],
      [1, 3]
    ])
  })

  it('reports a wrong call with its place', () => {
    const r = run('def f(a):\n    return a\nx = f(1, 2)')
    expect(r.diagnostics).toEqual([configDiag('cfg.py', 3, 6, 'TypeError: f() takes 1 positional arguments but 2 were given', 'error')])
  })
})

describe('evaluatePythonConfig: control flow and builtins', () => {
  it('skips with continue and stops with break', () => {
    expect(value('x = []\nfor i in range(10):\n    if i % 2:\n        continue\n    if i > 6:\n        break\n    x.append(i)')).toEqual([0, 2, 4, 6])
  })

  it('runs a for … else only when the loop did not break', () => {
    expect(value('x = 0\nfor i in []:\n    break\nelse:\n    x = 1')).toBe(1)
  })

  it('reports raise at its line with the exception message', () => {
    const r = run("x = 1\nif x:\n    raise ValueError('unsupported split')\ny = 2")
    expect(r.diagnostics).toEqual([configDiag('cfg.py', 3, 5, 'ValueError: unsupported split', 'error')])
    expect(r.variables).toEqual({ x: 1, y: 2 })
  })

  it('has chr and ord, as option-letter templates use', () => {
    expect(value("x = ''.join(f'{{{chr(ord(\"A\") + i)}}}' for i in range(4))")).toBe('{A}{B}{C}{D}')
  })

  it('has itertools.product in Python order', () => {
    expect(value("from itertools import product\nx = [f'{a}{b}' for a, b in product(['x', 'y'], [1, 2])]")).toEqual(['x1', 'x2', 'y1', 'y2'])
  })

  it('has math functions', () => {
    expect(value('import math\nx = [math.sqrt(16), math.ceil(1.2), round(math.exp(0), 2)]')).toEqual([4, 2, 1])
  })

  it('treats subscripted types as the type', () => {
    expect(value('from typing import List\nt = List[str]\ny: int = 0\nx = isinstance([], list[int]) or True')).toBe(true)
  })

  it('imports read_base from mmengine as well as from mmengine.config', () => {
    const r = evaluatePythonConfig('from mmengine import read_base\nwith read_base():\n    from .base import a\nx = a', {
      file: 'cfg.py',
      resolve: (p) => (p === '.base' ? { file: 'base.py', source: 'a = 3' } : undefined)
    })
    expect(r.diagnostics).toEqual([])
    expect(r.variables.x).toBe(3)
  })
})

describe('evaluatePythonConfig: the environment', () => {
  it('gives os.environ.get its default without reading the environment, and records the name', () => {
    process.env.PROMPTLOOM_TEST_TOKENIZER = 'secret'
    try {
      const r = run("import os\nx = os.environ.get('PROMPTLOOM_TEST_TOKENIZER', 'gpt-4')")
      expect(r.variables.x).toBe('gpt-4')
      expect(r.inputs).toEqual([{ kind: 'environ', name: 'PROMPTLOOM_TEST_TOKENIZER', used: 'gpt-4', from: { file: 'cfg.py', line: 2, column: 19 } }])
    } finally {
      delete process.env.PROMPTLOOM_TEST_TOKENIZER
    }
  })

  it('reports os.environ[name] as a KeyError that says why', () => {
    const r = run("import os\nx = os.environ['HOME']")
    expect(r.diagnostics[0]).toMatchObject({ ...at(2, 15), message: expect.stringContaining("KeyError: 'HOME' (the environment is not read") })
  })
})
