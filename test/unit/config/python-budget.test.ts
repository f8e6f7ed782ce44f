// A config is data someone hands you: every runaway input ends in a clean error at its line and column, fast,
// without taking the process's memory or stack (issue #10 item 6).
import { describe, expect, it } from 'vitest'
import { configDiag, at } from './config-diag'
import { evaluatePythonConfig } from '../../../shared/config/python-config'

const run = (src: string, limits = {}) => evaluatePythonConfig(src, { file: 'cfg.py', limits })

describe('config evaluator limits', () => {
  it.each([
    ['x = [0] * 10**9', 1, 5, 'a value of 1,000,000,000 items exceeds the config limit'],
    ['x = list(range(10**8))', 1, 15, 'a value of 100,000,000 items exceeds the config limit'],
    ["x = 'ab' * 10**9", 1, 5, 'a string of 2,000,000,000 characters exceeds the config limit'],
    ["x = f'{1:>999999999}'", 1, 5, 'a string of 999,999,999 characters exceeds the config limit'],
    ["s = 'a' * 10**6\nx = s.replace('a', s)", 2, 14, 'a string of 1,000,000,000,000 characters exceeds the config limit'],
    ['def f(n):\n    return f(n + 1)\nx = f(0)', 2, 13, 'RecursionError: function calls nested more than 200 deep']
  ])('%j fails at its place', (src, line, column, message) => {
    const t = Date.now()
    const r = run(src)
    expect(r.diagnostics).toEqual([configDiag('cfg.py', line, column, expect.stringContaining(message), 'error')])
    expect(Date.now() - t).toBeLessThan(2000)
  })

  it('stops a nested comprehension over big ranges at the item limit', () => {
    const r = run('x = 1\ny = [(a, b) for a in range(10**5) for b in range(10**5)]', { maxItems: 100_000 })
    expect(r.diagnostics).toEqual([configDiag('cfg.py', 2, 5, expect.stringContaining('items exceeds the config limit of 100,000'), 'error')])
    expect(r.variables).toEqual({ x: 1 })
  })

  it('stops an endless loop at the step limit', () => {
    const r = run('x = 1\nwhile True:\n    pass', { maxSteps: 100_000 })
    expect(r.diagnostics).toEqual([configDiag('cfg.py', 3, 5, expect.stringContaining('more than 100,000 evaluation steps'), 'error')])
  })

  it('stops a slow config at the time limit', () => {
    const t = Date.now()
    const r = run('while True:\n    x = [0] * 10', { timeMs: 200 })
    expect(r.diagnostics[0]).toMatchObject({ message: 'the config takes longer than 0.2 s to evaluate', severity: 'error' })
    expect(Date.now() - t).toBeLessThan(2000)
  })

  it('names a value that contains itself at its assignment instead of overflowing the stack', () => {
    const r = run('y = 1\nx = []\nx.append(x)')
    expect(r.diagnostics).toEqual([configDiag('cfg.py', 2, 1, 'x: ValueError: Circular reference detected (a list contains itself)', 'error')])
    expect(r.variables).toEqual({ y: 1 })
  })

  it('prints a value that contains itself as Python does', () => {
    const r = run('a = []\na.append(a)\nx = str(a)')
    expect(r.variables.x).toBe('[[...]]')
  })

  it('refuses values nested deeper than CPython would print', () => {
    const r = run('x = []\nfor i in range(5000):\n    x = [x]\ny = repr(x)')
    expect(r.diagnostics[0]).toMatchObject({ ...at(4, 9), message: expect.stringContaining('RecursionError') })
  })

  it('refuses source nested deeper than the parser allows, at its place', () => {
    const r = run(`x = ${'('.repeat(500)}1${')'.repeat(500)}`)
    expect(r.diagnostics).toEqual([configDiag('cfg.py', 1, 205, 'nested more than 200 levels deep', 'error')])
  })

  it('counts a limit against the config that imported the module where it was hit', () => {
    const r = evaluatePythonConfig('from mmengine.config import read_base\nwith read_base():\n    from .big import x\n', {
      file: 'cfg.py',
      resolve: (p) => (p === '.big' ? { file: 'big.py', source: 'y = 1\nx = [0] * 10**9\n' } : undefined)
    })
    expect(r.diagnostics).toEqual([configDiag('big.py', 2, 5, expect.stringContaining('items exceeds the config limit'), 'error')])
  })
})
