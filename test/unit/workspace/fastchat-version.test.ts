// A FastChat profile renders through the FastChat its `fastchat_version` names, on the path the matrix, export and
// `promptloom render` take (renderPreparedRow): HEAD by default, or v0.2.36, the release `pip install fschat` gives.
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
