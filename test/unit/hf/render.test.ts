// Behaviour of the HF chat-template renderer against what jinja2 + transformers produce. Expected strings
// here were produced by jinja2 3.1 with transformers' settings (ImmutableSandboxedEnvironment,
// trim_blocks, lstrip_blocks, loopcontrols).
import { describe, expect, it } from 'vitest'
import { compileChatTemplate, renderChatTemplate } from '../../../shared/formats/hf'
import { pyClassOf } from '../../../shared/diagnostics'

const NOW = '2025-07-10T12:00:00'
const render = (src: string, extra: Record<string, unknown> = {}, opts: Record<string, unknown> = {}) =>
  renderChatTemplate(src, { messages: [], extra, now: NOW, ...opts })
const text = (src: string, extra: Record<string, unknown> = {}): string => {
  const r = render(src, extra)
  if (!r.ok) throw new Error(`render failed: ${r.error.message}`)
  return r.text
}

describe('gaps of @huggingface/jinja that are closed', () => {
  const table: [string, string, Record<string, unknown>, string][] = [
    ['iterates over a string', '{% for c in s %}<{{c}}>{% endfor %}', { s: 'abc' }, '<a><b><c>'],
    ['iterates a string by code point', '{% for c in s %}<{{c}}>{% endfor %}', { s: 'a😀' }, '<a><😀>'],
    ['reject on a list', "{{ ['a','b','c'] | reject('equalto','b') | join(',') }}", {}, 'a,c'],
    ['string on a dict', "{{ {'a':1} | string }}", {}, "{'a': 1}"],
    ['string on undefined', '[{{ nothing | string }}]', {}, '[]'],
    ['trim on a list', '{{ xs | trim }}', { xs: ['a'] }, "['a']"],
    ['selectattr on a string', "{{ s | selectattr('type','equalto','image') | list }}", { s: 'abc' }, '[]'],
    ['selectattr on None yields nothing', "{{ x | selectattr('type') | list }}", { x: null }, '[]'],
    ['selectattr with the undefined test', "{{ xs | selectattr('t','undefined') | list | length }}", { xs: [{ t: 1 }, {}] }, '1'],
    ['str() of a list', "{{ ['celsius','fahrenheit'] }}", {}, "['celsius', 'fahrenheit']"],
    ['str() of a dict', '{{ d }}', { d: { a: 1, b: 'x', c: [true, null] } }, "{'a': 1, 'b': 'x', 'c': [True, None]}"],
    ['str() of booleans and None', '{{ true }} {{ false }} {{ none }}', {}, 'True False None'],
    ['repr picks double quotes around an apostrophe', '{{ ["it\'s"] }}', {}, '["it\'s"]'],
    ['dict() global', '{{ dict(a=1) | tojson }}', {}, '{"a": 1}'],
    ['CRLF in the source reads as LF', 'a\r\n{% if true %}\r\nb\r\n{% endif %}\r\nc', {}, 'a\nb\nc'],
    ['tests with arguments', '{{ 6 is divisibleby 3 }} {{ 1 is sameas(1) }} {{ 2 is not eq 2 }}', {}, 'True True False'],
    ['tojson as transformers defines it', '{{ x | tojson }}', { x: { c: 'é<>&', n: [1, null] } }, '{"c": "é<>&", "n": [1, null]}'],
    ['tojson with indent', '{{ x | tojson(indent=2) }}', { x: { a: [1] } }, '{\n  "a": [\n    1\n  ]\n}'],
    ['for with a filter and loop attributes', '{% for x in [1,2,3] if x > 1 %}{{ x }}{{ loop.index }}{{ loop.last }};{% endfor %}', {}, '21False;32True;'],
    ['set in a loop does not leak', '{% set c = 0 %}{% for x in [1,2] %}{% set c = c + 1 %}{{ c }}{% endfor %}{{ c }}', {}, '110'],
    ['namespace assignment', '{% set ns = namespace(a=1) %}{% for x in [1,2] %}{% set ns.a = ns.a + x %}{% endfor %}{{ ns.a }}', {}, '4'],
    ['macro defaults, varargs and kwargs', "{% macro m(a, b='x') %}[{{ a }}{{ b }}{{ varargs }}{{ kwargs }}]{% endmacro %}{{ m(1) }}{{ m(1, 2, 3, k=4) }}", {}, "[1x(){}][12(3,){'k': 4}]"],
    ['string methods', "{{ ' a b '.strip() }}|{{ 'a b  c  '.split(none, 1) }}|{{ 'x'.startswith(('a','x')) }}", {}, "a b|['a', 'b  c  ']|True"],
    ['missing item is undefined, not an error', "[{{ [1][5] }}{{ {}['x'] }}]", {}, '[]'],
    ['floats print as Python floats', '{{ 4 / 2 }} {{ 1.0 }} {{ 7 // 2 }} {{ 2.5 | round }} {{ 0.1 + 0.2 }} {{ 0.00001 }}', {}, '2.0 1.0 3 2.0 0.30000000000000004 1e-05'],
    ['tojson keeps a float a float', '{{ [4 / 2, -0.0] | tojson }}', {}, '[2.0, -0.0]'],
    ['percent formatting', "{{ '%s-%d' | format('a', 3) }} {{ '%s and %s' % ('a', 'b') }}", {}, 'a-3 a and b']
  ]
  it.each(table)('%s', (_name, src, extra, expected) => {
    expect(text(src, extra)).toBe(expected)
  })
})

describe('raising where Python raises', () => {
  const table: [string, string, Record<string, unknown>, string][] = [
    ['str + list', "{{ 'a' + ['b'] }}", {}, 'TypeError'],
    ['str + dict', "{{ 'a' + {'k': 'v'} }}", {}, 'TypeError'],
    ['attribute of undefined', '{{ u.a }}', {}, 'UndefinedError'],
    ['arithmetic on undefined', '{{ u + 1 }}', {}, 'UndefinedError'],
    ['ordering across types', "{{ 1 < 'a' }}", {}, 'TypeError'],
    ['iterating None', '{% for x in none %}{% endfor %}', {}, 'TypeError'],
    ['mutating a list (immutable sandbox)', '{{ xs.append(1) }}', { xs: [] }, 'SecurityError'],
    ['tojson of undefined', '{{ u | tojson }}', {}, 'TypeError'],
    ['unpacking the wrong count', '{% set a, b = [1] %}', {}, 'ValueError'],
    ['too many macro arguments', '{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}', {}, 'TypeError']
  ]
  it.each(table)('%s', (_name, src, extra, pyType) => {
    const r = render(src, extra)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('template_error')
      expect(pyClassOf(r.error)).toBe(pyType)
    }
  })
})

describe('raise_exception', () => {
  const table: [string, string, string][] = [
    ['plain message', "{{ raise_exception('Roles must alternate') }}", 'Roles must alternate'],
    ['built message', "{% if messages | length == 0 %}{{ raise_exception('need ' ~ 1 ~ ' message') }}{% endif %}", 'need 1 message']
  ]
  it.each(table)('%s', (_name, src, message) => {
    const r = render(src)
    expect(r).toMatchObject({ ok: false, error: { code: 'raise_exception', data: { pyClass: 'TemplateError' }, message } })
  })
})

describe('continue_final_message', () => {
  const chatml =
    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
  const trimming = "{% for m in messages %}[{{ m.role }}]{{ m.content | trim }}</s>{% endfor %}"
  const msgs = [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello there ' }
  ]
  const table: [string, string, unknown[], Record<string, unknown>, string][] = [
    ['cuts at the marker when its space survives', chatml, msgs, {}, '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello there '],
    ['right-strips when the template trimmed the marker', trimming, msgs, {}, '[user]Hi</s>[assistant]Hello there'],
    [
      'continues the last text block of list content',
      "{% for m in messages %}{% for b in m.content %}{{ b.text }}{% endfor %}|{% endfor %}",
      [{ role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }] }],
      {},
      'ab'
    ]
  ]
  it.each(table)('%s', (_name, src, messages, extra, expected) => {
    const r = renderChatTemplate(src, { messages, extra, continue_final_message: true, now: NOW })
    expect(r.ok && r.text).toBe(expected)
  })

  it('refuses to combine with add_generation_prompt', () => {
    const r = renderChatTemplate(chatml, { messages: msgs, continue_final_message: true, add_generation_prompt: true })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(pyClassOf(r.error)).toBe('ValueError')
  })

  it('fails when the template drops the final message', () => {
    const r = renderChatTemplate('{% for m in messages %}{{ m.role }}{% endfor %}{# content #}', { messages: msgs, continue_final_message: true })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toContain('does not appear in the chat')
  })
})

describe('strftime_now', () => {
  const table: [string, string][] = [
    ['%Y-%m-%d %H:%M:%S', '2025-07-10 12:00:00'],
    ['%d %B %Y', '10 July 2025'],
    ['%A %a %b %-d %j %p %I %y', 'Thursday Thu Jul 10 191 PM 12 25'],
    ['%e|%U|%W|%c', '10|27|27|Thu Jul 10 12:00:00 2025']
  ]
  it.each(table)('%s', (fmt, expected) => {
    expect(text(`{{ strftime_now('${fmt}') }}`)).toBe(expected)
  })

  it('warns when the clock is read without a pinned time', () => {
    const r = renderChatTemplate("{{ strftime_now('%Y') }}", { messages: [] })
    expect(r.ok && r.warnings.map((w) => w.code)).toEqual(['clock_used'])
  })
})

describe('context as transformers builds it', () => {
  it('always passes tools and documents, as None when absent', () => {
    expect(text('{{ tools is defined }} {{ tools is none }} {{ documents }}')).toBe('True True None')
  })

  it('merges special tokens under kwargs', () => {
    const r = renderChatTemplate('{{ bos_token }}{{ eos_token }}', { messages: [], special_tokens: { bos_token: '<s>', eos_token: '</s>' }, extra: { eos_token: 'E' } })
    expect(r.ok && r.text).toBe('<s>E')
  })

  it('leaves unset special tokens undefined', () => {
    const r = renderChatTemplate('{{ bos_token is defined }}', { messages: [], special_tokens: { bos_token: null as unknown as string } })
    expect(r.ok && r.text).toBe('False')
  })

  it('keeps the {% generation %} body', () => {
    expect(text('{% generation %}gen{% endgeneration %}')).toBe('gen')
  })
})

describe('compile', () => {
  it('caches by source text', () => {
    const a = compileChatTemplate('{{ 1 }}')
    const b = compileChatTemplate('{{ 1 }}')
    expect(a.ok && b.ok && a.template === b.template).toBe(true)
  })

  it.each([['{{ x | nosuchfilter }}'], ['{% if %}'], ['{{ 1 is nosuchtest }}']])('reports %s as a compile error', (src) => {
    const r = compileChatTemplate(src)
    expect(r.ok).toBe(false)
  })
})
