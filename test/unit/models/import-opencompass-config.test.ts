import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importProfileFromOpenCompassConfig } from '../../../main/services/models/import-opencompass-config'
import { renderForModel } from '../../../shared/models/render-for-model'

const FIX = join(__dirname, '../../fixtures/models/opencompass')
const DEMO = join(__dirname, '../../../assets/demo/models')

describe('importProfileFromOpenCompassConfig', () => {
  it('imports every model of a config with the right format and parser', async () => {
    const r = await importProfileFromOpenCompassConfig(join(FIX, 'models.json'))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.profiles.map((p) => [p.id, p.format, p.meta_parser, p.context_length])).toEqual([
      ['llama-2-7b-chat-hf', 'opencompass-meta', 'lm', 4096],
      ['gpt-4o', 'opencompass-meta', 'api', 128000],
      ['local-gemma', 'hf-chat-template', undefined, 8192],
      ['base-model', 'opencompass-meta', 'lm', 2048]
    ])
    expect(r.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['no-meta-template', 'context-length-default']))
  })

  it('renders an imported meta-template model', async () => {
    const r = await importProfileFromOpenCompassConfig(join(FIX, 'models.json'))
    if (!r.ok) throw new Error('import failed')
    const out = renderForModel(r.profiles[0], { messages: [{ role: 'user', content: 'Hi' }] })
    expect(out.text).toBe('[INST] Hi [/INST] ')
  })

  it('reads a single model dict', async () => {
    const r = await importProfileFromOpenCompassConfig(join(FIX, 'single-model.json'))
    expect(r.ok).toBe(true)
    if (r.ok) expect(r.profiles[0]).toMatchObject({ id: 'chatml-7b', format: 'opencompass-meta', meta_parser: 'lm', context_length: 2048 })
  })

  it('names the failing model and field', async () => {
    const r = await importProfileFromOpenCompassConfig(join(FIX, 'bad.json'))
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.errors.map((e) => e.path)).toEqual(['models.0.path', 'models.1.meta_template.round'])
  })

  it('reads a Python model config through the config importer', async () => {
    const r = await importProfileFromOpenCompassConfig(join(DEMO, 'internlm2.py'))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.profiles[0]).toMatchObject({ id: 'internlm2-chat-7b-hf', format: 'opencompass-meta', meta_parser: 'lm', context_length: 2048 })
    const out = renderForModel(r.profiles[0], { messages: [{ role: 'system', content: 'S' }, { role: 'user', content: 'Q' }] })
    expect(out.text).toBe('<|im_start|>system\nS<|im_end|>\n<|im_start|>system\n<|im_end|>\n<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\n')
  })

  it('imports a chat-template wrapper on a built-in profile by Hugging Face name, keeping its keyword arguments', async () => {
    const meta = { round: [{ role: 'HUMAN', api_role: 'HUMAN' }, { role: 'BOT', api_role: 'BOT', generate: true }], reserved_roles: [{ role: 'SYSTEM', api_role: 'SYSTEM' }] }
    const model = { type: 'VLLMwithChatTemplate', abbr: 'llama-3.1-8b-instruct-vllm', path: 'meta-llama/Llama-3.1-8B-Instruct', meta_template: meta, max_seq_len: 8192, max_out_len: 512, batch_size: 16, chat_template_kwargs: { date_string: '01 Jan 2025' }, run_cfg: { num_gpus: 1 } }
    const r = await importProfileFromOpenCompassConfig(join(DEMO, 'chatml.py'), { loadConfig: async () => ({ ok: true as const, value: { models: [model] } }) })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.profiles[0]).toMatchObject({ id: 'llama-3.1-8b-instruct-vllm', format: 'hf-chat-template', context_length: 8192, special_tokens: { bos_token: '<|begin_of_text|>' } })
    // build_model_from_cfg drops type, abbr, run_cfg, batch_size and (OpenCompass) max_out_len.
    // The config file imports from opencompass, so the wrapper is OpenCompass's.
    expect(r.profiles[0].harness).toEqual({
      name: 'opencompass',
      wrapper: 'VLLMwithChatTemplate',
      model_kwargs: { path: 'meta-llama/Llama-3.1-8B-Instruct', meta_template: meta, max_seq_len: 8192, chat_template_kwargs: { date_string: '01 Jan 2025' } }
    })
  })

  it('names the harness when the class path says which one', async () => {
    const model = { type: 'ais_bench.benchmark.models.HuggingFacewithChatTemplate', abbr: 'q', path: 'qwen2.5-instruct', max_out_len: 64 }
    const r = await importProfileFromOpenCompassConfig(join(DEMO, 'chatml.py'), { loadConfig: async () => ({ ok: true as const, value: { models: [model] } }) })
    expect(r.ok && r.profiles[0].harness).toEqual({ name: 'aisbench', wrapper: 'HuggingFacewithChatTemplate', model_kwargs: { path: 'qwen2.5-instruct', max_out_len: 64 } })
  })

  it('uses an injected loader for a .py config', async () => {
    const loadConfig = async () => ({ ok: true as const, value: { models: [{ type: 'VLLM', abbr: 'x', meta_template: { round: [{ role: 'HUMAN' }] }, max_seq_len: 10 }] } })
    const r = await importProfileFromOpenCompassConfig(join(DEMO, 'chatml.py'), { loadConfig })
    expect(r.ok && r.profiles[0].id).toBe('x')
  })
})

// What the app, the CLI and export call for a model reference (a project's models, Add model, --model).
describe('loadModels', () => {
  it.each([
    ['a library id', 'qwen3', 'qwen3'],
    ['a model folder', join(__dirname, '../../fixtures/models/plain-folder'), 'plain-folder'],
    ['an OpenCompass config', join(FIX, 'models.json'), 'llama-2-7b-chat-hf'],
    ['a profile file', join(__dirname, '../../../assets/profiles/phi-4.json'), 'phi-4']
  ])('resolves %s', async (_label, ref, id) => {
    const { loadModels } = await import('../../../main/services/workspace/load-models')
    const r = await loadModels([ref])
    expect(r.problems).toEqual([])
    expect(r.models[0]?.profile.id).toBe(id)
  })

  it('says what a reference that matches nothing is not', async () => {
    const { loadModels } = await import('../../../main/services/workspace/load-models')
    const r = await loadModels(['no-such-model'])
    expect(r.models).toEqual([])
    expect(r.problems[0].message).toBe('no-such-model: no such file, folder or built-in profile')
  })
})
