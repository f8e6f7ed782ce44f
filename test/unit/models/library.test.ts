// The built-in profile library: every profile loads, renders a conversation through its own format, and the
// well-known families give their exact upstream text and their documented system-message behaviour.
import { cpSync, mkdtempSync, appendFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadProfileLibrary } from '../../../main/services/models/profile-library'
import { renderForModel } from '../../../shared/models/render-for-model'
import type { ModelProfile } from '../../../shared/models/profile'
import type { ChatMessage } from '../../../shared/models/renderers'

let profiles: ModelProfile[] = []
const byId = (id: string): ModelProfile => {
  const p = profiles.find((x) => x.id === id)
  if (!p) throw new Error(`no profile ${id}`)
  return p
}
beforeAll(async () => {
  const lib = await loadProfileLibrary()
  expect(lib.errors).toEqual([])
  profiles = lib.profiles
})

const NOW = new Date(2025, 6, 10, 12, 0, 0)
const Q: ChatMessage[] = [{ role: 'user', content: 'What is 2+2?' }]
const SQ: ChatMessage[] = [{ role: 'system', content: 'Be brief.' }, ...Q]
const MULTI: ChatMessage[] = [...Q, { role: 'assistant', content: '4' }, { role: 'user', content: 'And 3+3?' }]

describe('profile library', () => {
  it('covers the required families', () => {
    const ids = profiles.map((p) => p.id)
    for (const want of [
      'llama-2-chat', 'llama-3.1-instruct', 'qwen2.5-instruct', 'qwen3', 'mistral-7b-instruct-v0.1', 'mixtral-8x7b-instruct',
      'gemma-2-it', 'gemma-3-it', 'phi-3-mini-instruct', 'phi-4', 'deepseek-v3', 'deepseek-r1', 'glm-4-chat', 'internlm2-chat',
      'internlm3-instruct', 'yi-chat', 'command-r', 'chatml', 'alpaca', 'vicuna-v1.1', 'openai-messages'
    ])
      expect(ids).toContain(want)
    expect(new Set(profiles.map((p) => p.format))).toEqual(new Set(['hf-chat-template', 'fastchat', 'lazyllm', 'opencompass-meta', 'openai-messages']))
  })

  it('records where every shipped chat template came from', () => {
    for (const p of profiles.filter((x) => x.format === 'hf-chat-template')) {
      expect(p.provenance?.repo, p.id).toBeTruthy()
      expect(p.provenance?.sha256, p.id).toMatch(/^[0-9a-f]{64}$/)
      expect(typeof p.chat_template, p.id).toBe('string')
    }
  })

  it('renders every profile: one question and a multi-turn conversation', () => {
    // Vision-language templates read content as a list of parts, as transformers' processors pass it (several
    // render a plain string as nothing, as they do upstream).
    const parts = (ms: ChatMessage[]) => ms.map((m) => ({ ...m, content: [{ type: 'text', text: m.content }] }))
    for (const p of profiles)
      for (const conv of [Q, MULTI]) {
        const messages = p.modalities?.includes('image') ? parts(conv) : conv
        const r = renderForModel(p, { messages }, { now: NOW })
        expect(r.error, `${p.id}: ${r.error?.message}`).toBeUndefined()
        const out = r.kind === 'text' ? r.text : JSON.stringify(r.messages)
        expect(out, p.id).toContain('What is 2+2?')
        if (conv === MULTI) expect(out, p.id).toContain('And 3+3?')
      }
  })
})

describe('exact text of well-known families', () => {
  it.each<[string, ChatMessage[], string]>([
    ['qwen2.5-instruct', Q, '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n'],
    ['qwen3', SQ, '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n'],
    ['llama-2-chat', SQ, '<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nWhat is 2+2? [/INST]'],
    ['llama-3.1-instruct', SQ, '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n'],
    ['gemma-2-it', Q, '<bos><start_of_turn>user\nWhat is 2+2?<end_of_turn>\n<start_of_turn>model\n'],
    ['mistral-7b-instruct-v0.1', MULTI, '<s>[INST] What is 2+2? [/INST]4</s> [INST] And 3+3? [/INST]'],
    ['phi-3-mini-instruct', Q, '<|user|>\nWhat is 2+2?<|end|>\n<|assistant|>\n'],
    ['deepseek-r1', SQ, '<｜begin▁of▁sentence｜>Be brief.<｜User｜>What is 2+2?<｜Assistant｜>'],
    ['chatml', SQ, '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n'],
    ['vicuna-v1.1', SQ, 'Be brief. USER: What is 2+2? ASSISTANT:'],
    ['opencompass-llama-2-chat-meta', SQ, '[INST] Be brief. [/INST][INST] What is 2+2? [/INST] ']
  ])('%s', (id, messages, text) => {
    expect(renderForModel(byId(id), { messages }, { now: NOW }).text).toBe(text)
  })

  it('opencompass-api sends OpenCompass roles', () => {
    expect(renderForModel(byId('opencompass-api'), { messages: SQ }).messages).toEqual([
      { role: 'SYSTEM', content: 'Be brief.' },
      { role: 'HUMAN', content: 'What is 2+2?' }
    ])
  })
})

describe('what each family does with a system message', () => {
  it.each<[string, string | null]>([
    ['qwen2.5-instruct', null],
    ['llama-3.1-instruct', null],
    ['phi-4', null],
    ['llama-2-chat', 'system-remapped'],
    ['mistral-nemo-instruct-2407', 'system-remapped'],
    ['gemma-2-it', 'system-unsupported'],
    ['mistral-7b-instruct-v0.1', 'system-unsupported'],
    ['deepseek-v3', 'system-remapped'],
    ['opencompass-llama-2-chat-meta', 'system-remapped'],
    ['lazyllm-qwen-chat', 'system-dropped']
  ])('%s → %s', (id, code) => {
    const codes = renderForModel(byId(id), { messages: SQ }, { now: NOW }).signals.map((s) => s.code)
    const systemCodes = codes.filter((c) => c.startsWith('system-'))
    expect(systemCodes).toEqual(code ? [code] : [])
  })
})

describe('loader integrity', () => {
  it('rejects a shipped template that no longer matches its recorded sha256', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-lib-'))
    try {
      cpSync(join(__dirname, '../../../assets/profiles'), dir, { recursive: true })
      appendFileSync(join(dir, 'templates', 'Qwen--Qwen3-0.6B.jinja'), ' ')
      const lib = await loadProfileLibrary(dir)
      expect(lib.errors).toEqual([expect.objectContaining({ code: 'template-changed', at: expect.objectContaining({ path: 'provenance.sha256' }) })])
      expect(lib.profiles.map((p) => p.id)).not.toContain('qwen3')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
