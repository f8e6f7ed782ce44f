// Python behaviours other engines' Jinja test suites found missing. Every expectation was printed by jinja2 3.1.6 in
// transformers' environment (ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks, loopcontrols, the
// generation tag); an error is given by its Python class, as the conformance checker compares errors.
import { describe, expect, it } from 'vitest'
import { compileChatTemplate, renderChatTemplate } from '../../../shared/formats/hf'
import { pyClassOf } from '../../../shared/diagnostics'

function run(src: string): { text: string } | { error: string } {
  const c = compileChatTemplate(src)
  if (!c.ok) return { error: pyClassOf(c.error) ?? c.error.code }
  const r = renderChatTemplate(c.template, { messages: [], add_generation_prompt: false })
  return r.ok ? { text: r.text } : { error: pyClassOf(r.error) ?? r.error.code }
}

describe('filters that return generators', () => {
  it.each([
    ["{{ [1,2,3] | map('string') | length }}", { error: 'TypeError' }],
    ["{{ [{'a':1}] | selectattr('a') | length }}", { error: 'TypeError' }],
    ['{{ [1,2,1] | unique | length }}', { error: 'TypeError' }],
    ['{{ [1,2,3] | batch(2) | length }}', { error: 'TypeError' }],
    ['{{ ([1,2] | select)[0] }}', { text: '' }],
    ['{{ ([1,2] | select) | list }}', { text: '[1, 2]' }],
    ["{{ [1,2] | map('string') | join(',') }}", { text: '1,2' }],
    ['{% set g = [1,2] | select %}{{ g | list }}{{ g | list }}', { text: '[1, 2][]' }],
    ["{{ ([1,2] | reject('none')) | first }}", { text: '1' }],
    ['{{ ([1,2] | select) | last }}', { error: 'TypeError' }],
    ['{{ ([1,2] | select) + [3] }}', { error: 'TypeError' }],
    ['{{ [1,2] | select | tojson }}', { error: 'TypeError' }],
    ['{{ ([1,2] | select) == [1,2] }}', { text: 'False' }],
    ['{{ 1 in ([1,2] | select) }}', { text: 'True' }],
    ['{% if [] | select %}T{% else %}F{% endif %}', { text: 'T' }],
    ['{% for x in [1,2] | select %}{{ loop.length }}{{ loop.last }}{% endfor %}', { text: '2False2True' }],
    ['{{ [1,2] | select is sequence }}', { text: 'False' }],
    ['{{ [1,2] | select is iterable }}', { text: 'True' }],
    ['{{ [3,1] | select | sort }}', { text: '[1, 3]' }],
    ['{{ [1,2] | reverse | length }}', { error: 'TypeError' }],
    ['{{ [1,2] | reverse | list }}', { text: '[2, 1]' }],
    ["{{ 'ab' | reverse }}", { text: 'ba' }]
  ] as const)('%s', (src, want) => {
    expect(run(src)).toEqual(want)
  })

  it('prints as a generator object, as Python does', () => {
    expect(run("{{ [1,2] | map('string') }}")).toEqual({ text: expect.stringMatching(/^<generator object sync_do_map at 0x[0-9a-f]+>$/) })
    expect(run('{{ [1,2] | reverse }}')).toEqual({ text: expect.stringMatching(/^<list_reverseiterator object at 0x[0-9a-f]+>$/) })
  })

  it('items on a non-mapping fails only when consumed', () => {
    expect(run("{{ 'abc' | items }}")).toEqual({ text: expect.stringMatching(/^<generator object do_items at /) })
    expect(run("{{ 'abc' | items | list }}")).toEqual({ error: 'TypeError' })
    expect(run('{{ undefined_x | items | list }}')).toEqual({ text: '[]' })
  })
})

describe('loop controls and the generation tag', () => {
  it.each([
    ['{% break %}', 'SyntaxError'],
    ['{% continue %}', 'SyntaxError'],
    ['{% if true %}{% break %}{% endif %}', 'SyntaxError'],
    ['{% for x in [1] %}{% else %}{% break %}{% endfor %}', 'SyntaxError'],
    ['{% for x in [1] %}{% macro m() %}{% break %}{% endmacro %}{% endfor %}', 'SyntaxError'],
    ['{% generation %}abc', 'TemplateSyntaxError'],
    ['abc{% endgeneration %}', 'TemplateSyntaxError']
  ])('%s fails to compile with a %s', (src, cls) => {
    expect(run(src)).toEqual({ error: cls })
  })

  it('allows them inside a loop, also under if, set and filter blocks', () => {
    expect(run('{% for x in [1,2,3] %}{% if x == 2 %}{% continue %}{% endif %}{{ x }}{% endfor %}')).toEqual({ text: '13' })
    expect(run('{% for x in [1,2] %}{% filter upper %}a{% break %}{% endfilter %}{% endfor %}')).toEqual({ text: '' })
    expect(run('{% for x in [1,2] %}{% set y %}a{% break %}{% endset %}{% endfor %}{{ y is defined }}')).toEqual({ text: 'False' })
    expect(run('{% generation %}a{% endgeneration %}')).toEqual({ text: 'a' })
  })
})

describe('str.replace', () => {
  it.each([
    ["{{ 'abc'.replace('', '-') }}", '-a-b-c-'],
    ["{{ 'abc'.replace('', '-', 2) }}", '-a-bc'],
    ["{{ ''.replace('', 'x') }}", 'x'],
    ["{{ 'aaa'.replace('a', 'b', 2) }}", 'bba'],
    ["{{ 'aaa'.replace('a', 'b', 0) }}", 'aaa'],
    ["{{ 'aaa'.replace('a', 'b', -1) }}", 'bbb']
  ])('%s gives %s', (src, text) => {
    expect(run(src)).toEqual({ text })
  })
})

describe('Markup (|safe, |escape)', () => {
  it.each([
    ['{{ \'a\'|safe + \'"<\' }}', 'a&#34;&lt;'],
    ['{{ \'"<\' + \'a\'|safe }}', '&#34;&lt;a'],
    ["{% set v = {'a': '<b>'} | tojson | safe %}{{ '<x>' ~ v ~ '</x>' }}", '<x>{"a": "<b>"}</x>'],
    ["{% set v = {'a': '<b>'} | tojson | safe %}{{ '<x>' + v }}", '&lt;x&gt;{"a": "<b>"}'],
    ["{{ '%s'|safe % '<' }}", '&lt;'],
    ["{{ ('%s-%s'|safe) % ('<', 1) }}", '&lt;-1'],
    ["{{ ('a'|safe).replace('a', '<') }}", '&lt;'],
    ["{{ ('a'|safe) | replace('a', '<') + '<' }}", '<<'],
    ["{{ ('a'|safe) | string + '<' }}", 'a&lt;'],
    ["{{ ('a'|safe) * 2 + '<' }}", 'aa&lt;'],
    ["{{ ('<'|safe + '<') | upper }}", '<&LT;'],
    ["{{ ('<'|safe + '<')[1] }}", '&'],
    ["{{ ('abc'|safe)[0:2] + '<' }}", 'ab&lt;'],
    ["{{ ('a'|safe).join(['<', '>']) }}", '&lt;a&gt;'],
    ["{{ ('a{}'|safe).format('<') }}", 'a&lt;'],
    ["{{ ('x'|safe).split('x') }}", "[Markup(''), Markup('')]"],
    ["{{ ['<'|safe] }}", "[Markup('<')]"],
    ["{{ ['a'|safe] | tojson }}", '["a"]'],
    ["{{ '<'|e + '<' }}", '&lt;&lt;'],
    ["{{ '<'|escape|escape }}", '&lt;'],
    ["{{ 'a'|safe is string }}", 'True'],
    ["{{ 'a'|safe == 'a' }}", 'True'],
    ["{{ 'b' in ('abc'|safe) }}", 'True'],
    ["{{ ('<a>'|safe).strip('<') }}", 'a>'],
    ["{{ '%s' % ('<'|safe) }}", '<']
  ])('%s gives %s', (src, text) => {
    expect(run(src)).toEqual({ text })
  })

  it('refuses + with a non-string, as Markup does', () => {
    expect(run("{{ 'a'|safe + 1 }}")).toEqual({ error: 'TypeError' })
    expect(run("{{ 1 + 'a'|safe }}")).toEqual({ error: 'TypeError' })
  })
})

describe('truncate', () => {
  it("asserts as jinja2's do_truncate does", () => {
    expect(run("{{ 'abcdef' | truncate(2) }}")).toEqual({ error: 'AssertionError' })
    expect(run("{{ 'ab' | truncate(3, leeway=-1) }}")).toEqual({ error: 'AssertionError' })
    expect(run("{{ 'ab' | truncate(3) }}")).toEqual({ text: 'ab' })
  })
})
