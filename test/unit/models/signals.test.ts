import { describe, expect, it } from 'vitest'
import { parseProfile, type ModelProfile } from '../../../shared/models/profile'
import { renderForModel as render } from '../../../shared/models/render-for-model'
import type { ChatMessage } from '../../../shared/models/renderers'

function profile(p: Record<string, unknown>): ModelProfile {
  const r = parseProfile({ id: 'p', name: 'P', family: 'test', context_length: 4096, ...p })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.profile
}

const CHATML = `{% for m in messages %}{{ '<|im_start|>' + m.role + '\n' + m.content + '<|im_end|>\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}`
const QWEN_LIKE = `{% if messages[0].role != 'system' %}{{ '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' }}{% endif %}` + CHATML
const BOS_CHATML = `{{ bos_token }}` + CHATML
const DROPS_SYSTEM = `{% for m in messages %}{% if m.role != 'system' %}{{ '<|im_start|>' + m.role + '\n' + m.content + '<|im_end|>\n' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}`
const GEMMA_LIKE = `{{ bos_token }}{% if messages[0].role == 'system' %}{% set p = messages[0].content + '\n\n' %}{% set ms = messages[1:] %}{% else %}{% set p = '' %}{% set ms = messages %}{% endif %}{% for m in ms %}{{ '<start_of_turn>' + m.role + '\n' + (p if loop.first else '') + m.content + '<end_of_turn>\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<start_of_turn>model\n' }}{% endif %}`
const NO_SYSTEM = `{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}` + CHATML
const MERGING = `{% set ns = namespace(prev='', out='') %}{% for m in messages %}{% if m.role == ns.prev %}{% set ns.out = ns.out + '\n' + m.content %}{% else %}{% if ns.prev %}{% set ns.out = ns.out + '<|end|>\n' %}{% endif %}{% set ns.out = ns.out + '<|' + m.role + '|>\n' + m.content %}{% endif %}{% set ns.prev = m.role %}{% endfor %}{{ ns.out + '<|end|>\n' }}{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% endif %}`
const DATED = `{{ '<|system|>Today is ' + strftime_now('%d %b %Y') + '<|end|>' }}` + CHATML
const FIXED_DATE = `{{ '<|system|>Today Date: 26 Jul 2024<|end|>' }}` + CHATML

const hf = (chat_template: string, extra: Record<string, unknown> = {}) => profile({ format: 'hf-chat-template', chat_template, ...extra })
const user = (content: string): ChatMessage => ({ role: 'user', content })
const sys = (content: string): ChatMessage => ({ role: 'system', content })
const asst = (content: string): ChatMessage => ({ role: 'assistant', content })

function codes(p: ModelProfile, messages: ChatMessage[], opts = {}): string[] {
  return render(p, { messages }, opts).signals.map((s) => s.code)
}

const OC_META = {
  round: [
    { role: 'HUMAN', begin: '[INST] ', end: ' [/INST]', api_role: 'HUMAN' },
    { role: 'BOT', begin: ' ', end: '</s>', generate: true, api_role: 'BOT' }
  ]
}

describe('signals fire on a constructed case', () => {
  it.each<[string, ModelProfile, ChatMessage[], string, Record<string, unknown>?]>([
    ['double BOS written twice', hf(`{{ bos_token }}` + BOS_CHATML, { special_tokens: { bos_token: '<s>' } }), [user('hi')], 'double-bos'],
    ['double BOS template + tokenizer', hf(BOS_CHATML, { special_tokens: { bos_token: '<s>' }, add_bos_token: true }), [user('hi')], 'double-bos'],
    ['system dropped', hf(DROPS_SYSTEM), [sys('be brief'), user('hi')], 'system-dropped'],
    ['system folded into first user turn', hf(GEMMA_LIKE, { special_tokens: { bos_token: '<bos>' } }), [sys('be brief'), user('hi')], 'system-remapped'],
    ['system rejected', hf(NO_SYSTEM), [sys('be brief'), user('hi')], 'system-unsupported'],
    ['system as a user turn (OpenCompass fallback_role)', profile({ format: 'opencompass-meta', meta_template: OC_META }), [sys('be brief'), user('hi')], 'system-remapped'],
    ['system dropped by LazyLLM', profile({ format: 'lazyllm', lazyllm: { class: 'ChatPrompter', init: {} } }), [sys('be brief'), user('hi')], 'system-dropped'],
    ['consecutive turns merged', hf(MERGING), [user('a'), user('b')], 'turns-merged'],
    ['system merged into the first question by the API parser', profile({ format: 'opencompass-meta', meta_parser: 'api', meta_template: OC_META }), [sys('s'), user('a')], 'system-remapped'],
    ['empty turn', hf(CHATML), [user('  ')], 'empty-turn'],
    ['unfilled field', hf(CHATML), [user('Answer {question} now')], 'unfilled-field'],
    ['template error', hf(`{{ raise_exception('boom') }}`), [user('hi')], 'template-error'],
    ['over the context length', hf(CHATML, { context_length: 5 }), [user('a long enough question to pass five tokens')], 'over-context'],
    ['generation prompt added', hf(CHATML), [user('hi')], 'added-generation-prompt'],
    ['default system prompt added', hf(QWEN_LIKE), [user('hi')], 'added-default-system'],
    ['date added (strftime_now)', hf(DATED), [user('hi')], 'added-date'],
    ['fixed date added', hf(FIXED_DATE), [user('hi')], 'added-date']
  ])('%s', (_label, p, messages, code) => {
    expect(codes(p, messages)).toContain(code)
  })
})

describe('signals stay quiet on a clean case', () => {
  const clean = [sys('be brief'), user('hi'), asst('hello'), user('bye')]
  it.each<[string, ModelProfile, string[]]>([
    ['plain ChatML', hf(CHATML), ['added-generation-prompt']],
    ['ChatML with BOS and a tokenizer that adds none', hf(BOS_CHATML, { special_tokens: { bos_token: '<s>' }, add_bos_token: false }), ['added-generation-prompt']],
    ['OpenAI messages', profile({ format: 'openai-messages' }), []]
  ])('%s', (_label, p, expected) => {
    expect(codes(p, clean)).toEqual(expected)
  })

  it('does not call a turn of only an audio part empty for a messages API, which receives the part', () => {
    const audio: ChatMessage = { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } }] }
    expect(codes(profile({ format: 'openai-messages' }), [user('listen'), audio])).not.toContain('empty-turn')
  })

  it('does not report a default system prompt when the input has one', () => {
    expect(codes(hf(QWEN_LIKE), [sys('mine'), user('hi')])).not.toContain('added-default-system')
  })

  it('does not report merging where consecutive turns stay separate', () => {
    expect(codes(hf(CHATML), [user('a'), user('b')])).not.toContain('turns-merged')
  })

  it('does not report the generation prompt when none was asked for', () => {
    expect(codes(hf(CHATML), [user('hi')], { addGenerationPrompt: false })).not.toContain('added-generation-prompt')
  })
})

describe('signal details', () => {
  it('gives the generation prompt text', () => {
    const s = render(hf(CHATML), { messages: [user('hi')] }).signals.find((x) => x.code === 'added-generation-prompt')
    expect(s?.detail.text).toBe('<|im_start|>assistant\n')
  })
  it('gives the default system prompt text', () => {
    const s = render(hf(QWEN_LIKE), { messages: [user('hi')] }).signals.find((x) => x.code === 'added-default-system')
    expect(s?.detail.text).toBe('You are a helpful assistant.')
  })
  it('gives the date the template wrote', () => {
    const s = render(hf(DATED), { messages: [user('hi')] }).signals.find((x) => x.code === 'added-date')
    expect(s?.detail).toEqual({ varies: true, text: '10 Jul 2025' })
  })
  it('names the unfilled fields', () => {
    const s = render(hf(CHATML), { messages: [user('{a} and {b_2} but not {"json": 1}')] }).signals.find((x) => x.code === 'unfilled-field')
    expect(s?.detail.fields).toEqual(['a', 'b_2'])
  })
  it('marks an estimated token count as an estimate', () => {
    const s = render(hf(CHATML, { context_length: 5 }), { messages: [user('x'.repeat(100))] }).signals.find((x) => x.code === 'over-context')
    expect(s?.detail).toMatchObject({ exact: false, context_length: 5 })
    expect(s?.message).toMatch(/^About /)
  })
  it('uses an exact counter when given one', () => {
    const r = render(hf(CHATML, { context_length: 5 }), { messages: [user('hi')] }, { countTokens: () => ({ count: 6, exact: true }) })
    expect(r.tokens).toEqual({ count: 6, exact: true })
    expect(r.signals.find((x) => x.code === 'over-context')?.detail).toMatchObject({ tokens: 6, exact: true })
  })
  it('reports a template error as data with the profile and its place in the template', () => {
    const r = render(hf(`{{ raise_exception('boom') }}`), { messages: [user('hi')] })
    expect(r.error).toMatchObject({
      code: 'template-error',
      message: 'TemplateError: boom',
      source: 'p/chat_template',
      range: { start: { line: 1, column: 4, offset: 3 }, end: { line: 1, column: 27, offset: 26 } },
      data: { profile: 'p', kind: 'raise_exception', pyClass: 'TemplateError' }
    })
  })
})
