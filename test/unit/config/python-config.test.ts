// The Python config subset: literals, names, concatenation, comprehensions, f-strings, methods, and errors
// that name file, line and column.
import { describe, expect, it } from 'vitest'
import { configDiag, at } from './config-diag'
import { evaluatePythonConfig } from '../../../shared/config/python-config'

const run = (src: string, resolve?: Parameters<typeof evaluatePythonConfig>[1]['resolve']) =>
  evaluatePythonConfig(src, { file: 'cfg.py', resolve })
const value = (src: string): unknown => {
  const r = run(src)
  expect(r.diagnostics).toEqual([])
  return r.variables.x
}

describe('evaluatePythonConfig: values', () => {
  it.each([
    ['x = 1', 1],
    ['x = -2.5e3', -2500],
    ['x = 0x10 + 0o10 + 0b10', 26],
    ['x = None', null],
    ['x = True and False', false],
    ["x = 'a' 'b' \"c\"", 'abc'],
    ["x = 'a' + 'b' * 2", 'abb'],
    ["x = r'\\n' + '\\n' + '\\u00e9\\x41'", '\\n\néA'],
    ["x = '''one\ntwo'''", 'one\ntwo'],
    ["x = ('implicit '\n     'concatenation')", 'implicit concatenation'],
    ['x = (1, 2)', [1, 2]],
    ['x = [1, *[2, 3]]', [1, 2, 3]],
    ["x = dict(a=1, b=[1, 'x'])", { a: 1, b: [1, 'x'] }],
    ["x = {'a': 1, **{'b': 2}}", { a: 1, b: 2 }],
    ["y = dict(a=1)\nx = dict(**y, k='v')", { a: 1, k: 'v' }],
    ["x = {0: 'neg', 1: 'pos'}", { __label_dict__: [[0, 'neg'], [1, 'pos']] }],
    ["x = {opt: f'Answer: {opt}' for opt in ['A', 'B']}", { A: 'Answer: A', B: 'Answer: B' }],
    ['x = [i * 2 for i in range(4) if i % 2]', [2, 6]],
    ["x = [f'{a}{b}' for a in 'ab' for b in 'xy']", ['ax', 'ay', 'bx', 'by']],
    ["n = 'mmlu'\nx = f'{n}_{3:02d}'", 'mmlu_03'],
    ["x = f'{{literal}} {1 + 1!r} {\"q\"!r}'", "{literal} 2 'q'"],
    ["x = f'{\"a_b\".replace(\"_\", \" \")}'", 'a b'],
    ["x = '{} and {name}'.format(1, name='two')", '1 and two'],
    ["x = '%s-%d' % ('a', 3)", 'a-3'],
    ["x = ' a b '.strip().upper().split(' ')", ['A', 'B']],
    ["x = '_'.join(['a', 'b'])", 'a_b'],
    ['x = [1] + [2]', [1, 2]],
    ['x = 1 if False else 2', 2],
    ["x = 'b' in ['a', 'b'] and 'z' not in 'abc'", true],
    ['x = len(range(5)) + sum([1, 2]) + max(3, 9)', 17],
    ["x = dict(zip(['a', 'b'], [1, 2]))", { a: 1, b: 2 }],
    ['x = [i for i, _ in enumerate("ab")]', [0, 1]],
    ["x = 'abcdef'[1:4] + 'xyz'[-1] + 'abc'[::-1]", 'bcdzcba'],
    ["d = dict(a=1)\nc = d.copy()\nc['b'] = 2\nx = [d, c]", [{ a: 1 }, { a: 1, b: 2 }]],
    ["d = dict(a=dict(k=1))\nfrom copy import deepcopy\nc = deepcopy(d)\nc['a']['k'] = 2\nx = d", { a: { k: 1 } }],
    ["x = []\nfor n in ['a', 'b']:\n    x.append(dict(abbr=f'ds_{n}'))", [{ abbr: 'ds_a' }, { abbr: 'ds_b' }]],
    ["x = []\nx += [1]\nx.extend((2, 3))", [1, 2, 3]],
    ["x = 1\nif x > 0:\n    x = 'pos'\nelse:\n    x = 'neg'", 'pos'],
    ["a, *b = [1, 2, 3]\nx = b", [2, 3]],
    ['x = dict(a=1) | dict(b=2)', { a: 1, b: 2 }]
  ])('%s', (src, expected) => {
    expect(value(src)).toEqual(expected)
  })

  it('turns imported classes into their names and leaves them out of the variables', () => {
    const r = run('from opencompass.openicl.icl_prompt_template import PromptTemplate as PT\nx = dict(type=PT)\nimport os.path as osp\ny = osp.join("a", "b")')
    expect(r.variables).toEqual({ x: { type: 'PromptTemplate' }, y: 'a/b' })
  })

  it('keeps identity of shared objects across names', () => {
    const r = run('a = [dict(k=1)]\nb = a')
    expect(r.values.get('a')).toBe(r.values.get('b'))
  })

  it('evaluates del and leaves the deleted names out', () => {
    expect(run('_n = 1\nkeep = _n\ndel _n').variables).toEqual({ keep: 1 })
  })
})

describe('evaluatePythonConfig: read_base imports', () => {
  const files: Record<string, string> = {
    'base.py': "shared = dict(k=1)\nnames = ['a']\n_private = 2",
    'pkg/deep.py': 'deep_datasets = [dict(abbr="d")]'
  }
  const resolve = (modulePath: string) => {
    const name = modulePath.replace(/^\.+/, '').replace(/\./g, '/') + '.py'
    return name in files ? { file: name, source: files[name] } : undefined
  }

  it('binds named imports, aliases and star imports', () => {
    const src = 'from mmengine.config import read_base\nwith read_base():\n    from .base import shared as s\n    from .pkg.deep import *\nx = [s, deep_datasets]'
    const r = run(src, resolve)
    expect(r.diagnostics).toEqual([])
    expect(r.variables.x).toEqual([{ k: 1 }, [{ abbr: 'd' }]])
  })

  it('reports an unknown module at the import', () => {
    const r = run('from mmengine.config import read_base\nwith read_base():\n    from .nope import a\n', resolve)
    expect(r.diagnostics).toEqual([
      configDiag('cfg.py', 3, 5, "cannot find config module '.nope' imported from cfg.py", 'error')
    ])
  })

  it('reports a name the module does not define', () => {
    const r = run('from mmengine.config import read_base\nwith read_base():\n    from .base import missing\n', resolve)
    expect(r.diagnostics[0]).toMatchObject({ ...at(3), message: "cannot import name 'missing' from '.base' (base.py)" })
  })

  it('reports a circular import instead of looping', () => {
    const self = (p: string) => (p === '.cfg' ? { file: 'cfg.py', source: 'from mmengine.config import read_base\nwith read_base():\n    from .cfg import x\n' } : undefined)
    const r = run('from mmengine.config import read_base\nwith read_base():\n    from .cfg import x\n', self)
    expect(r.diagnostics.some((d) => d.message.startsWith('circular import'))).toBe(true)
  })
})

describe('evaluatePythonConfig: errors name file, line and column', () => {
  it.each([
    ['x = 1\ntry:\n    pass\nexcept:\n    pass', 2, 1, 'try statements are outside the supported config subset'],
    ['x = 1\nclass A:\n    pass', 2, 1, 'class definitions are outside the supported config subset'],
    ['x = (1,\n     2', 1, 5, "'(' was never closed"],
    ["x = 'open", 1, 5, 'unterminated string literal'],
    ['x = 1\n  y = 2', 2, 3, 'unexpected indent'],
    ['x = 1 $ 2', 1, 7, 'invalid character "$"']
  ])('%j', (src, line, column, message) => {
    const r = run(src)
    expect(r.diagnostics).toEqual([configDiag('cfg.py', line, column, message, 'error')])
  })

  it.each([
    ['x = missing', 1, 5, "NameError: name 'missing' is not defined"],
    ['x = os.environ["HOME"]', 1, 5, "NameError: name 'os' is not defined"],
    ["x = {'a': 1}['b']", 1, 13, "KeyError: 'b'"],
    ["x = 'a' + 1", 1, 5, "TypeError: unsupported operand type(s) for +: 'str' and 'int'"],
    ['x = [1].nope', 1, 8, "AttributeError: 'list' object has no attribute 'nope'"],
    ["x = f'{missing}'", 1, 8, "NameError: name 'missing' is not defined"]
  ])('%j at runtime', (src, line, column, message) => {
    const r = run(src)
    expect(r.diagnostics).toEqual([configDiag('cfg.py', line, column, message, 'error')])
  })

  it('keeps evaluating after a failing statement', () => {
    const r = run('a = 1\nb = missing\nc = a + 1')
    expect(r.variables).toEqual({ a: 1, c: 2 })
    expect(r.diagnostics).toHaveLength(1)
  })
})
