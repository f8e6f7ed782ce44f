import { describe, expect, it } from 'vitest'
import { parseProfile, selectChatTemplate } from '../../../shared/models/profile'

const valid = {
  id: 'demo',
  name: 'Demo',
  family: 'chatml',
  format: 'hf-chat-template',
  chat_template: '{{ messages[0].content }}',
  special_tokens: { eos_token: '<|im_end|>' },
  context_length: 4096
}

describe('parseProfile', () => {
  it('accepts a valid profile and fills defaults', () => {
    const r = parseProfile({ ...valid, special_tokens: undefined })
    expect(r.ok).toBe(true)
    if (r.ok) expect(r.profile.special_tokens).toEqual({})
  })

  it('accepts JSON text', () => {
    expect(parseProfile(JSON.stringify(valid)).ok).toBe(true)
  })

  it('reports invalid JSON text as an error, not a throw', () => {
    const r = parseProfile('{ nope')
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.errors[0].message).toMatch(/not valid JSON/)
  })

  it.each([
    ['missing context_length', { context_length: undefined }, 'context_length'],
    ['negative context_length', { context_length: -5 }, 'context_length'],
    ['unknown format', { format: 'gguf' }, 'format'],
    ['bad id', { id: 'Has Spaces' }, 'id'],
    ['empty name', { name: '' }, 'name'],
    ['special token not a string', { special_tokens: { bos_token: 5 } }, 'special_tokens.bos_token'],
    ['tokenizer without path', { tokenizer: { kind: 'hf-json' } }, 'tokenizer.path'],
    ['tokenizer of unknown kind', { tokenizer: { kind: 'sentencepiece', path: 'x' } }, 'tokenizer.kind'],
    ['hf format without template', { chat_template: undefined }, 'chat_template'],
    ['fastchat without template name', { format: 'fastchat' }, 'fastchat_template'],
    ['lazyllm without prompter', { format: 'lazyllm' }, 'lazyllm'],
    ['opencompass without meta', { format: 'opencompass-meta' }, 'meta_template'],
    ['meta round not a list', { format: 'opencompass-meta', meta_template: { round: 'HUMAN' } }, 'meta_template.round'],
    ['meta role without name', { format: 'opencompass-meta', meta_template: { round: [{ begin: 'x' }] } }, 'meta_template.round.0'],
    ['lazyllm unknown class', { format: 'lazyllm', lazyllm: { class: 'Foo' } }, 'lazyllm.class'],
    [
      'an audio token rule given for pictures',
      { modalities: ['text', 'image'], media: { image: { placeholder: '<image>', tokens: { rule: 'gemma4-audio', sampling_rate: 16000, audio_seq_length: 750, source: 's' } } } },
      'media.image.tokens.rule'
    ]
  ])('names the field: %s', (_label, patch, path) => {
    const r = parseProfile({ ...valid, ...patch })
    expect(r.ok).toBe(false)
    if (!r.ok) {
      const paths = r.errors.map((e) => e.path)
      expect(paths.some((p) => p === path || p.startsWith(path + '.'))).toBe(true)
      for (const e of r.errors) if (e.path) expect(e.message).toContain(e.path.split('.')[0])
    }
  })

  it('names an unknown top-level field', () => {
    const r = parseProfile({ ...valid, chat_tempalte: 'x' })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.errors[0].message).toContain('"chat_tempalte"')
  })

  it('rejects duplicate meta roles', () => {
    const r = parseProfile({ ...valid, format: 'opencompass-meta', meta_template: { round: [{ role: 'HUMAN' }, { role: 'HUMAN' }] } })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.errors[0]).toMatchObject({ path: 'meta_template.round', message: expect.stringContaining('unique') })
  })
})

describe('selectChatTemplate', () => {
  const named = { default: 'D', tool_use: 'T', rag: 'R' }
  it.each([
    [{}, 'D'],
    [{ hasTools: true }, 'T'],
    [{ name: 'rag' }, 'R']
  ])('chooses as transformers does (%o)', (opts, source) => {
    const r = selectChatTemplate(named, opts)
    expect(r.ok && r.source).toBe(source)
  })
  it('errors on a dict without default', () => {
    expect(selectChatTemplate({ rag: 'R' }).ok).toBe(false)
  })
})

describe('error messages', () => {
  it.each([
    [{ tokenizer: { kind: 'hf-json' } }, 'tokenizer.path is required'],
    [{ context_length: undefined }, 'context_length is required'],
    [{ format: 'opencompass-meta', meta_template: { round: [{ begin: 'x' }] } }, 'meta_template.round.0: a round item must be a string or a dict with a "role"']
  ])('%o → %s', (patch, message) => {
    const r = parseProfile({ ...valid, ...patch })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.errors.map((e) => e.message)).toContain(message)
  })
})
