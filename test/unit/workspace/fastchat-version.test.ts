// A FastChat profile, and an OpenCompass chat wrapper's `fastchat_template`, render through the FastChat the profile's
// `fastchat_version` names, on the path the matrix, export and `promptloom render` take (renderPreparedRow): HEAD by
// default, or v0.2.36, the release `pip install fschat` gives.
import { describe, expect, it } from 'vitest'
import { preparePipeline, type Prepared } from '../../../shared/engine'
import { parseProfile, type ModelProfile } from '../../../shared/models/profile'
import { estimateCounter } from '../../../main/services/models/tokenizer'
import { renderPreparedRow } from '../../../main/services/workspace/render-row'

function fastchat(template: string, version?: 'head' | 'v0.2.36'): ModelProfile {
  const r = parseProfile({ id: 'fc', name: 'FastChat', family: 'test', format: 'fastchat', fastchat_template: template, ...(version ? { fastchat_version: version } : {}), context_length: 4096, tokenizer: { kind: 'estimate' } })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.profile
}

const prepared = (): Prepared => {
  const p = preparePipeline({
    family: 'opencompass',
    parser: 'lm',
    mode: 'gen',
    reader_cfg: { input_columns: ['q'], output_column: 'answer' },
    infer_cfg: { prompt_template: { type: 'PromptTemplate', template: { round: [{ role: 'HUMAN', prompt: '{q}' }, { role: 'BOT', prompt: '{answer}' }] } }, retriever: { type: 'ZeroRetriever' }, inferencer: { type: 'GenInferencer' } },
    test: [{ q: 'Hi?', answer: 'Hello' }]
  })
  if ('code' in p) throw new Error(p.message)
  return p
}

const column = (p: ModelProfile) => renderPreparedRow(prepared(), 0, 0, [{ profile: p, counter: estimateCounter('test') }]).models[0]

describe('fastchat_version', () => {
  it('renders a template HEAD added after v0.2.36 by default', () => {
    expect(column(fastchat('llama-3')).text).toBe('<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n')
  })

  it('v0.2.36 does not know that template (KeyError, as get_conv_template raises)', () => {
    expect(column(fastchat('llama-3', 'v0.2.36')).problems.find((x) => x.severity === 'error')?.message).toContain("KeyError: 'llama-3'")
  })

  it('v0.2.36 renders a template both releases share as HEAD does', () => {
    const text = column(fastchat('vicuna_v1.1', 'v0.2.36')).text
    expect(text).toContain('USER: Hi? ASSISTANT:')
    expect(text).toBe(column(fastchat('vicuna_v1.1')).text)
  })
})

/** An OpenCompass HuggingFacewithChatTemplate column whose `fastchat_template` replaces the chat template. */
function harnessed(fastchatTemplate: string, version?: 'head' | 'v0.2.36'): ModelProfile {
  const r = parseProfile({
    id: 'oc',
    name: 'OpenCompass',
    family: 'test',
    format: 'hf-chat-template',
    chat_template: '{% for m in messages %}{{ m.content }}{% endfor %}',
    harness: { name: 'opencompass', wrapper: 'HuggingFacewithChatTemplate', model_kwargs: { fastchat_template: fastchatTemplate } },
    ...(version ? { fastchat_version: version } : {}),
    context_length: 4096,
    tokenizer: { kind: 'estimate' }
  })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.profile
}

describe("fastchat_version and an OpenCompass wrapper's fastchat_template", () => {
  it('HEAD resolves NAME through the adapters HEAD has (smaug: SmaugChatAdapter, the qwen-7b-chat ChatML)', () => {
    expect(column(harnessed('smaug')).text).toBe('<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi?\n<|im_end|>\n<|im_start|>assistant\n')
  })

  it("v0.2.36 has no SmaugChatAdapter: NAME falls through to BaseModelAdapter's one_shot conversation", () => {
    const text = column(harnessed('smaug', 'v0.2.36')).text ?? ''
    expect([text.startsWith('A chat between a curious human and an artificial intelligence assistant.'), text.endsWith('### Human: Hi?\n\n### Assistant:')]).toEqual([true, true])
  })
})
