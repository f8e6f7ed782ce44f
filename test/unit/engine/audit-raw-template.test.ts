// Audit: RawPromptTemplate.generate_item (opencompass/openicl/icl_raw_prompt_template.py) does
// `result = copy.deepcopy(self.messages)` and then, only `if self.format_variables`, formats each message's
// content `if 'content' in msg and isinstance(msg['content'], str)`. So other keys of a message stay, list
// content is left untouched, and format_variables=False leaves placeholders.
import { describe, expect, it } from 'vitest'
import type { PipelineInput } from '../../../shared/engine'
import { modelText, render, ZERO, GEN } from './helpers'

function raw(messages: unknown[], extra: Record<string, unknown> = {}): Partial<PipelineInput> {
  return {
    parser: 'api',
    test: [{ q: 'Q1', a: 'A1' }],
    reader_cfg: { input_columns: ['q'], output_column: 'a' },
    infer_cfg: { prompt_template: { type: 'RawPromptTemplate', messages, ...extra }, retriever: ZERO, inferencer: GEN }
  }
}

describe('RawPromptTemplate.generate_item', () => {
  it('keeps the other keys of a message (deepcopy of the message)', () => {
    const r = render(raw([{ role: 'user', content: '{q}', name: 'alice' }]))
    expect(r.items[0].promptList?.json).toEqual([{ role: 'user', content: 'Q1', name: 'alice' }])
  })

  it('leaves contents unformatted when format_variables is False', () => {
    const r = render(raw([{ role: 'user', content: '{q}' }], { format_variables: false }))
    expect(r.items[0].promptList?.json).toEqual([{ role: 'user', content: '{q}' }])
  })

  it('leaves a non-str content (multimodal parts) as it is, not str()-ed', () => {
    const parts = [{ type: 'text', text: '{q}' }]
    const r = render(raw([{ role: 'user', content: parts }]))
    expect(r.items[0].promptList?.json).toEqual([{ role: 'user', content: [{ type: 'text', text: '{q}' }] }])
  })
})

// LMTemplateParser.parse_template maps itself over a plain list: a message dict fails its type assert, and the
// empty list an expand_column over a non-list column leaves (MultiIF_gen.py's `dialogue`) parses to [].
describe('a RawPromptTemplate prompt under the LM parser', () => {
  it('parses an empty message list to an empty list', () => {
    const r = render({ ...raw([{ expand_column: 'q' }]), parser: 'lm' })
    expect([r.error, modelText(r)]).toEqual([undefined, []])
  })
})
