// Hostile chat templates (issue #10, item 6): every runaway fails fast with a clean error placed at the
// template's line and column, instead of running for minutes, taking gigabytes or overflowing the stack.
import { describe, expect, it } from 'vitest'
import { compileChatTemplate, renderChatTemplate, type RenderOptions, type RenderResult } from '../../../shared/formats/hf'
import { pyClassOf } from '../../../shared/diagnostics'

const render = (src: string, opts: Partial<RenderOptions> = {}): RenderResult => renderChatTemplate(src, { messages: [], now: '2025-07-10T12:00:00', ...opts })

/** Renders, asserting it fails within `ms` with `kind` (the error's code), and returns the error. */
function failsFast(src: string, kind: string, opts: Partial<RenderOptions> = {}, ms = 3000) {
  const t0 = performance.now()
  const r = render(src, opts)
  const took = performance.now() - t0
  expect(took).toBeLessThan(ms)
  if (r.ok) throw new Error(`rendered ${r.text.length} chars; expected a ${kind} error`)
  expect(r.error.code).toBe(kind)
  // The parts the cases check: the Python class, the message and where the range starts.
  return { message: r.error.message, pyType: pyClassOf(r.error), line: r.error.range?.start.line, column: r.error.range?.start.column }
}

describe('chat-template budgets', () => {
  it('range(10**9) fails before building the list, at the call', () => {
    const e = failsFast('ab\n{% for x in range(10**9) %}{{ x }}{% endfor %}', 'template_error', {}, 200)
    expect(e.pyType).toBe('OverflowError')
    expect(e.message).toContain('MAX_RANGE (100000)')
    expect([e.line, e.column]).toEqual([2, 13])
  })

  it('range at the sandbox limit still renders', () => {
    const r = render('{{ range(100000) | length }} {{ range(10, 0, -3) | list }}')
    expect(r.ok && r.text).toBe('100000 [10, 7, 4, 1]')
  })

  it('nested loops run out of steps at the inner loop', () => {
    const e = failsFast('{% for a in range(100000) %}\n{% for b in range(100000) %}{% endfor %}{% endfor %}', 'limit_exceeded', { limits: { steps: 200_000 } })
    expect(e.message).toContain('more than 200,000 steps')
    expect(e.line).toBe(2)
  })

  it('a loop that outlasts the time limit stops near it', () => {
    const e = failsFast('{% for a in range(100000) %}{% for b in range(100000) %}{{ b }}{% endfor %}{% endfor %}', 'limit_exceeded', { limits: { timeMs: 100 } }, 1000)
    expect(e.message).toContain('longer than 100 ms')
    expect(e.line).toBe(1)
  })

  it('unbounded macro recursion fails at the recursive call, not with a stack overflow', () => {
    const src = '{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}\n{{ f(0) }}'
    const e = failsFast(src, 'limit_exceeded')
    expect(e.message).toContain('macro calls nest deeper than 200')
    expect([e.line, e.column]).toEqual([1, 20])
  })

  it('recursion within the depth limit renders', () => {
    const r = render('{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{% endif %}{{ n }}{% endmacro %}{{ f(150) | length }}')
    expect(r.ok).toBe(true)
  })

  it("'a' * 10**9 is refused before allocating", () => {
    const e = failsFast("x\n{{ 'a' * 10**9 }}", 'limit_exceeded', {}, 200)
    expect(e.message).toContain('string of 1,000,000,000 characters')
    expect(e.line).toBe(2)
  })

  it('[0] * 10**8 is refused before allocating', () => {
    const e = failsFast('{{ ([0] * 10**8) | length }}', 'limit_exceeded', {}, 200)
    expect(e.message).toContain('list of 100,000,000 items')
  })

  it('a string doubled in a loop stops at the string limit', () => {
    const src = "{% set ns = namespace(s='ab') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}"
    const e = failsFast(src, 'limit_exceeded', { limits: { stringLength: 1 << 20 } })
    expect(e.message).toContain('limit is 1,048,576')
    expect(e.column).toBeGreaterThan(60)
  })

  it('output grown by a loop stops at the string limit', () => {
    const e = failsFast("{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}", 'limit_exceeded', { limits: { stringLength: 1 << 20 } })
    expect(e.message).toContain('string of')
  })

  it('padding widths are checked before padding', () => {
    expect(failsFast("{{ 'a'.ljust(10**9) }}", 'limit_exceeded', {}, 200).message).toContain('1,000,000,000')
    expect(failsFast("{{ 'a' | center(10**9) }}", 'limit_exceeded', {}, 200).message).toContain('1,000,000,000')
    expect(failsFast("{{ 'a\\nb' | indent(10**9) }}", 'limit_exceeded', {}, 200).message).toContain('1,000,000,000')
    expect(failsFast("{{ '%0999999999d' % 1 }}", 'limit_exceeded', {}, 200).message).toContain('999,999,999')
  })

  it('a replace that would explode is refused', () => {
    const e = failsFast("{% set s = 'a' * 100000 %}{{ s.replace('a', s) | length }}", 'limit_exceeded', {}, 500)
    expect(e.message).toContain('string of')
  })

  it('every render starts with a fresh budget', () => {
    const src = '{% for a in range(1000) %}{% endfor %}ok'
    for (let i = 0; i < 3; i++) expect(render(src, { limits: { steps: 1500 } })).toMatchObject({ ok: true, text: 'ok' })
  })
})

describe('nesting limits', () => {
  it('deeply nested brackets fail to compile with a place, not a stack overflow', () => {
    const src = '{{ ' + '('.repeat(5000) + '1' + ')'.repeat(5000) + ' }}'
    const c = compileChatTemplate(src)
    expect(c.ok).toBe(false)
    if (c.ok) return
    expect(c.error.message).toContain('more than 200 levels')
    expect(c.error.range?.start.line).toBe(1)
    expect(c.error.range?.start.column).toBeGreaterThan(200)
  })

  it('deeply nested blocks fail to compile with a place', () => {
    const src = 'x\n' + '{% if true %}'.repeat(3000) + '{% endif %}'.repeat(3000)
    const c = compileChatTemplate(src)
    expect(c.ok).toBe(false)
    if (!c.ok) expect([c.error.range?.start.line, c.error.message]).toEqual([2, expect.stringContaining('levels deep')])
  })

  it('a 5,000-term chain fails to compile with a place', () => {
    const c = compileChatTemplate('{{ ' + Array(5000).fill('x').join(' + ') + ' }}')
    expect(c.ok).toBe(false)
    if (!c.ok) expect([c.error.message, c.error.range?.start.line]).toEqual([expect.stringContaining('nest more than 1000 levels'), 1])
  })

  it('input nested 100,000 deep is an input error, not a crash', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 100000; i++) deep = [deep]
    const r = render('{{ messages }}', { messages: [{ role: 'user', content: deep }] })
    expect(r.ok).toBe(false)
    if (!r.ok) expect([r.error.code, r.error.message]).toEqual(['input_error', expect.stringContaining('more than 500 levels')])
  })
})
