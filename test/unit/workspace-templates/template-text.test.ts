// The template editor's text handling on its own: JSON syntax errors at their line and column, engine paths
// mapped into the text, and chat-template edits read over an HF profile with the compiler's error ranges.
import { describe, expect, it } from 'vitest'
import { locatePath, parseJsonWithPositions, splitPath } from '../../../main/services/workspace/template-json'
import { modelText, readModelEdit } from '../../../main/services/workspace/template-overrides'
import type { ModelProfile } from '../../../shared/models'
import { LineMap } from '../../../shared/diagnostics'

describe('parseJsonWithPositions', () => {
  const cases: [string, string, number, number, RegExp][] = [
    ['missing comma', '{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected ',' or '}' after the value of "a"/],
    ['trailing comma', '{\n  "a": [1, 2 , ]\n}', 2, 14, /trailing comma/],
    ['single quotes', "{\n  'a': 1\n}", 2, 3, /double quotes/],
    ['Python None', '{"a": None}', 1, 7, /None is Python; JSON writes null/],
    ['unclosed string', '{"a": "abc\n}', 1, 7, /not closed before the end of the line/],
    ['unclosed object', '{"a": {"b": 1}', 1, 1, /never closed/],
    ['bad escape', '{"a": "x\\qy"}', 1, 9, /invalid escape/],
    ['garbage after', '{}\n}', 2, 1, /after the end of the value/]
  ]
  it.each(cases)('%s: error at its line and column', (_n, text, line, column, msg) => {
    const r = parseJsonWithPositions(text)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(new LineMap(text).position(r.error.offset)).toMatchObject({ line, column })
    expect(r.error.message).toMatch(msg)
  })

  it('reads what JSON.parse reads', () => {
    const text = '{"a": [1, -2.5e3, true, null, "x\\u00e9\\n"], "b": {"c": {}}, "d": []}'
    const r = parseJsonWithPositions(text)
    expect(r.ok && r.value).toEqual(JSON.parse(text))
  })

  it('warns about a key written twice', () => {
    const r = parseJsonWithPositions('{"a": 1, "a": 2}')
    expect(r.ok && r.warnings.map((w) => w.offset)).toEqual([9])
  })
})

describe('locatePath', () => {
  const text = '{\n  "meta": {\n    "round": [\n      {"role": "HUMAN"},\n      {"role": "BOT", "prompt_mm": {}}\n    ]\n  }\n}'
  const r = parseJsonWithPositions(text)
  if (!r.ok) throw new Error('fixture')
  const cases: [string, string, number][] = [
    ['meta.round[1].role', '"BOT"', 4],
    ['meta.round.0.role', '"HUMAN"', 4],
    ['meta.round.prompt_mm', '"prompt_mm"', 3],
    ['meta.round[7]', '"round"', 2],
    ['meta', '"meta"', 1]
  ]
  it.each(cases)('%s → %s', (path, want, found) => {
    const at = locatePath(r.root, splitPath(path))
    expect(text.slice(at.from, at.to)).toBe(want)
    expect(at.found).toBe(found)
  })
})

describe('chat template edits', () => {
  const profile = {
    id: 'tiny',
    name: 'Tiny',
    family: 'tiny',
    format: 'hf-chat-template',
    chat_template: '{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}',
    special_tokens: {},
    context_length: 4096
  } as ModelProfile

  it('are shown as Jinja', () => {
    expect(modelText(profile)).toMatchObject({ language: 'jinja2', text: profile.chat_template })
  })

  it('place a syntax error at the unclosed block and block applying', () => {
    const text = '{% for m in messages %}\n<{{ m.role }}>\n{% if m.content %}{{ m.content }}\n{% endfor %}'
    const r = readModelEdit(text, profile)
    expect(r.blocking).toBe(true)
    expect(r.diagnostics[0]).toMatchObject({ range: { start: { line: 4, column: 1 }, end: { line: 4, column: 13 } }, severity: 'error', code: 'jinja-syntax' })
    expect(r.diagnostics[0].message).toMatch(/closes \{% if %\}/)
  })

  it('place an error with balanced tags and valid filters where the compiler found it', () => {
    const text = '{{ messages[0].content }}\n{% for a, in messages %}{% endfor %}'
    const r = readModelEdit(text, profile)
    expect(r.diagnostics[0]).toMatchObject({ range: { start: { line: 2, column: 14, offset: 39 } }, code: 'jinja-syntax' })
    expect(r.diagnostics[0].message).toMatch(/Expected `in`/)
  })

  it('of a named template replace that entry only', () => {
    const named = { ...profile, chat_template: { default: 'A{{ messages }}', tool_use: 'T' } } as ModelProfile
    expect(modelText(named)).toMatchObject({ text: 'A{{ messages }}', note: expect.stringMatching(/"default"/) })
    const r = readModelEdit('B', named)
    expect(r.value?.chat_template).toEqual({ default: 'B', tool_use: 'T' })
  })
})
