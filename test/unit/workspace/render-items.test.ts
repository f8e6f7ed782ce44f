// Rows that make several requests: a PPL row gives one prompt per label, a multi-turn row one request per BOT
// turn. Each request renders through every model, and export writes one line per row × model × request.
import { describe, expect, it } from 'vitest'
import { preparePipeline, type PipelineInput, type Prepared, type Row } from '../../../shared/engine'
import { parseProfile, type ModelProfile } from '../../../shared/models/profile'
import { estimateCounter } from '../../../main/services/models/tokenizer'
import { renderPreparedRow } from '../../../main/services/workspace/render-row'
import type { ModelContext } from '../../../main/services/workspace/model-render'
import { exportLines, type ExportLine, type ExportOptions } from '../../../main/services/workspace/export'
import type { DatasetHandle } from '../../../main/services/datasets'
import type { Variant } from '../../../main/services/workspace/variants'
import { needsWholeSplit, variantMode } from '../../../main/services/workspace/infer-mode'

const CHATML = profile({
  id: 'chatml',
  family: 'chatml',
  name: 'ChatML',
  format: 'opencompass-meta',
  meta_parser: 'lm',
  meta_template: {
    round: [
      { role: 'HUMAN', begin: '<|im_start|>user\n', end: '<|im_end|>\n' },
      { role: 'BOT', begin: '<|im_start|>assistant\n', end: '<|im_end|>\n', generate: true }
    ]
  },
  context_length: 4096,
  tokenizer: { kind: 'estimate' }
})

const HF = profile({
  id: 'hf',
  family: 'test',
  name: 'HF chat',
  format: 'hf-chat-template',
  chat_template: '{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}',
  context_length: 4096,
  tokenizer: { kind: 'estimate' }
})

function profile(json: unknown): ModelProfile {
  const r = parseProfile(json)
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.profile
}

const ctx = (p: ModelProfile): ModelContext => ({ profile: p, counter: estimateCounter('test') })
const MODELS = [ctx(CHATML), ctx(HF)]
const ZERO = { type: 'ZeroRetriever' }

function prepare(input: Partial<PipelineInput> & Pick<PipelineInput, 'infer_cfg' | 'test'>): Prepared {
  const p = preparePipeline({ family: 'opencompass', parser: 'lm', mode: 'gen', reader_cfg: { input_columns: ['q'], output_column: 'answer' }, ...input })
  if ('code' in p) throw new Error(p.message)
  return p
}

const pplDialogue = (): PipelineInput['infer_cfg'] => ({
  prompt_template: {
    type: 'PromptTemplate',
    template: Object.fromEntries(['A', 'B', 'C', 'D'].map((l) => [l, { round: [{ role: 'HUMAN', prompt: '{q}' }, { role: 'BOT', prompt: l }] }]))
  },
  retriever: ZERO,
  inferencer: { type: 'PPLInferencer' }
})

describe('PPL rows: one item per label', () => {
  const p = prepare({ mode: 'ppl', infer_cfg: pplDialogue(), test: [{ q: 'Pick one', answer: 'B' }] })
  const r = renderPreparedRow(p, 0, 0, MODELS)

  it('lists the four labels with their Python repr', () => {
    expect(r.itemKind).toBe('label')
    expect(r.items!.map((it) => [it.title, it.label])).toEqual([
      ["'A'", 'A'],
      ["'B'", 'B'],
      ["'C'", 'C'],
      ["'D'", 'D']
    ])
  })

  it('parses each label prompt with mode=ppl: the answer turn is closed, no generation prompt', () => {
    expect(r.items!.map((it) => it.models[0].text)).toEqual(
      ['A', 'B', 'C', 'D'].map((l) => `<|im_start|>user\nPick one<|im_end|>\n<|im_start|>assistant\n${l}<|im_end|>\n`)
    )
  })

  it('gives each label its own dataset-side PromptList', () => {
    const last = (i: number) => r.items![i].promptList.filter((b) => b.role === 'BOT').map((b) => b.segments.map((s) => s.text).join(''))
    expect([0, 1, 2, 3].map(last)).toEqual([['A'], ['B'], ['C'], ['D']])
  })

  it('says a chat-template wrapper cannot score PPL instead of rendering a text', () => {
    // OpenCompass's HuggingFacewithChatTemplate has no get_ppl: PPLInferencer raises NotImplementedError.
    expect(r.items!.map((it) => [it.models[1].text, it.models[1].problems.find((x) => x.severity === 'error')?.code])).toEqual(['A', 'B', 'C', 'D'].map(() => ['', 'ppl-unsupported']))
  })

  it('keeps the chat messages the wrapper would have scored', () => {
    expect(r.items!.map((it) => it.models[1].harness?.chatMessages)).toEqual(
      ['A', 'B', 'C', 'D'].map((l) => [
        { role: 'user', content: 'Pick one\n' },
        { role: 'assistant', content: l }
      ])
    )
  })

  it('keeps the top-level fields as the first label', () => {
    expect(r.models).toBe(r.items![0].models)
    expect(r.promptList).toBe(r.items![0].promptList)
  })

  it('titles non-string labels as Python writes them', () => {
    const q = prepare({
      mode: 'ppl',
      infer_cfg: { prompt_template: { type: 'PromptTemplate', template: '{q}' }, retriever: ZERO, inferencer: { type: 'PPLInferencer' } },
      test: [{ q: 'x', answer: 1 }, { q: 'y', answer: 0 }]
    })
    expect(renderPreparedRow(q, 0, 0, MODELS).items!.map((it) => [it.title, it.label])).toEqual([
      ['0', 0],
      ['1', 1]
    ])
  })
})

describe('multi-turn rows: one item per BOT turn', () => {
  const mt = (mode: string) =>
    prepare({
      family: 'aisbench',
      reader_cfg: { input_columns: ['question', 'answer'], output_column: 'answer' },
      infer_cfg: {
        prompt_template: { type: 'MultiTurnPromptTemplate', template: { round: [{ role: 'HUMAN', prompt: '{question}' }, { role: 'BOT', prompt: '{answer}' }] } },
        retriever: ZERO,
        inferencer: { type: 'MultiTurnGenInferencer', infer_mode: mode }
      },
      test: [{ question: ['h1', 'h2', 'h3'], answer: ['b1', 'b2', 'b3'] }]
    })
  const turn = (q: string, a?: string) => `<|im_start|>user\n${q}<|im_end|>\n<|im_start|>assistant\n${a === undefined ? '' : `${a}<|im_end|>\n`}`

  it.each<[string, string, string[]]>([
    ['every', 'model-output', ['<model output 0>', '<model output 1>']],
    ['every_with_gt', 'ground-truth', ['b1', 'b2']]
  ])('%s: each turn sees the earlier answers (%s)', (mode, source, answers) => {
    const r = renderPreparedRow(mt(mode), 0, 0, [ctx(CHATML)])
    expect(r.itemKind).toBe('turn')
    expect(r.items!.map((it) => [it.title, it.turn])).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3]
    ])
    expect(r.items!.map((it) => it.history)).toEqual([
      { source, answers: [] },
      { source, answers: answers.slice(0, 1) },
      { source, answers }
    ])
    expect(r.items!.map((it) => it.models[0].text)).toEqual([
      turn('h1'),
      turn('h1', answers[0]) + turn('h2'),
      turn('h1', answers[0]) + turn('h2', answers[1]) + turn('h3')
    ])
  })

  it("last: upstream's RecursionError is the row's error, and no model input is shown", () => {
    const r = renderPreparedRow(mt('last'), 0, 0, [ctx(CHATML)])
    expect(r.items).toBeUndefined()
    expect(r.models).toEqual([])
    expect(r.problems.find((x) => x.severity === 'error')).toMatchObject({ code: 'RecursionError' })
    expect(r.problems.map((x) => x.code)).toContain('multiturn-last-recursion')
    expect(r.promptList.length).toBeGreaterThan(0)
  })
})

describe('export: one line per row × model × request', () => {
  const rows: Row[] = [
    { q: 'one', answer: 'A' },
    { q: 'two', answer: 'C' }
  ]
  // Rows held in memory: no byte ranges (rowSpans null), as a Parquet file's.
  const dataset = { readRows: async (_s: string, start: number, count: number) => rows.slice(start, start + count).map((value, i) => ({ index: start + i, value })), rowSpans: () => null } as unknown as DatasetHandle
  const variant = (infer_cfg: Record<string, any>, family: Variant['family'] = 'opencompass'): Variant => ({ id: 'v', label: 'v', kind: 'k', family, reader_cfg: { input_columns: ['q'], output_column: 'answer' }, infer_cfg })
  async function collect(v: Variant, format: ExportOptions['format'] = 'auto', data = dataset, n = rows.length): Promise<ExportLine[]> {
    const out: ExportLine[] = []
    for await (const l of exportLines({
      dataset: data,
      split: 'test',
      total: n,
      variant: v,
      models: MODELS,
      options: { variantId: 'v', modelIds: ['chatml', 'hf'], only: 'all', format },
      status: () => 'unreviewed',
      prepare: async (test) => preparePipeline({ family: v.family, parser: 'lm', mode: variantMode(v), reader_cfg: v.reader_cfg as PipelineInput['reader_cfg'], infer_cfg: v.infer_cfg, test }),
      wholeSplit: needsWholeSplit(v)
    }))
      out.push(l)
    return out
  }

  it('PPL: a line per label, each with its label', async () => {
    const lines = await collect(variant(pplDialogue()))
    expect(lines).toHaveLength(2 * 2 * 4)
    expect(lines.slice(0, 8).map((l) => [l.index, l.model, l.label])).toEqual([
      [0, 'chatml', 'A'],
      [0, 'chatml', 'B'],
      [0, 'chatml', 'C'],
      [0, 'chatml', 'D'],
      [0, 'hf', 'A'],
      [0, 'hf', 'B'],
      [0, 'hf', 'C'],
      [0, 'hf', 'D']
    ])
    expect(lines[1].prompt).toBe('<|im_start|>user\none<|im_end|>\n<|im_start|>assistant\nB<|im_end|>\n')
  })

  it('PPL with --format prompt-list: a dataset line per label', async () => {
    const lines = await collect(variant(pplDialogue()), 'prompt-list')
    expect(lines.map((l) => [l.index, l.label])).toEqual([0, 1].flatMap((i) => ['A', 'B', 'C', 'D'].map((l) => [i, l])))
  })

  it('multi-turn: a line per turn, each with its turn number', async () => {
    const mtRows: Row[] = [{ question: ['h1', 'h2'], answer: ['b1', 'b2'] }]
    const data = { readRows: async () => mtRows.map((value, index) => ({ index, value })), rowSpans: () => null } as unknown as DatasetHandle
    const v: Variant = {
      ...variant(
        {
          prompt_template: { type: 'MultiTurnPromptTemplate', template: { round: [{ role: 'HUMAN', prompt: '{question}' }, { role: 'BOT', prompt: '{answer}' }] } },
          retriever: ZERO,
          inferencer: { type: 'MultiTurnGenInferencer', infer_mode: 'every_with_gt' }
        },
        'aisbench'
      ),
      reader_cfg: { input_columns: ['question', 'answer'], output_column: 'answer' }
    }
    const lines = await collect(v, 'auto', data, 1)
    expect(lines.map((l) => [l.model, l.turn])).toEqual([
      ['chatml', 1],
      ['chatml', 2],
      ['hf', 1],
      ['hf', 2]
    ])
    expect(lines[1].prompt).toBe('<|im_start|>user\nh1<|im_end|>\n<|im_start|>assistant\nb1<|im_end|>\n<|im_start|>user\nh2<|im_end|>\n<|im_start|>assistant\n')
  })

  it('generation lines carry no label or turn field', async () => {
    const lines = await collect(variant({ prompt_template: { type: 'PromptTemplate', template: '{q}' }, retriever: ZERO, inferencer: { type: 'GenInferencer' } }))
    expect(lines).toHaveLength(2 * 2)
    // As written: a line's absent fields are undefined in memory, and JSON leaves them out.
    for (const written of lines.map((l) => JSON.parse(JSON.stringify(l)))) {
      expect(written).not.toHaveProperty('label')
      expect(written).not.toHaveProperty('turn')
      expect(written).toHaveProperty('prompt')
    }
  })
})

describe('variant mode', () => {
  const v = (infer_cfg: Record<string, any>): Variant => ({ id: 'v', label: 'v', kind: 'k', family: 'opencompass', reader_cfg: {}, infer_cfg })
  it.each<[string, Record<string, any>, 'gen' | 'ppl', boolean]>([
    ['GenInferencer', { prompt_template: { template: '{q}' }, inferencer: { type: 'GenInferencer' } }, 'gen', false],
    ['PPLInferencer with label templates', { prompt_template: { template: { A: 'a', B: 'b' } }, inferencer: { type: 'PPLInferencer' } }, 'ppl', false],
    ['PPLInferencer by dotted path', { prompt_template: { template: { A: 'a' } }, inferencer: { type: 'opencompass.openicl.icl_inferencer.PPLInferencer' } }, 'ppl', false],
    ['PPLInferencer with explicit labels', { prompt_template: { template: '{q}' }, inferencer: { type: 'PPLInferencer', labels: ['x'] } }, 'ppl', false],
    ['PPLInferencer with labels from the column', { prompt_template: { template: '{q}' }, inferencer: { type: 'PPLInferencer' } }, 'ppl', true]
  ])('%s', (_name, cfg, mode, whole) => {
    expect(variantMode(v(cfg))).toBe(mode)
    expect(needsWholeSplit(v(cfg))).toBe(whole)
  })
})

describe('ChatInferencer rows: one item per assistant turn', () => {
  const dialogue = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello' },
    { role: 'user', content: 'Bye' },
    { role: 'assistant', content: 'Ciao' }
  ]
  const chat = (infer_mode: string) =>
    prepare({ reader_cfg: { input_columns: ['dialogue'], output_column: null }, infer_cfg: { retriever: ZERO, inferencer: { type: 'ChatInferencer', infer_mode } }, test: [{ dialogue }] })

  it('every: the model answers replace the dataset answers in later turns', () => {
    const r = renderPreparedRow(chat('every'), 0, 0, MODELS)
    expect(r.itemKind).toBe('turn')
    expect(r.items!.map((it) => [it.turn, it.history])).toEqual([
      [1, { source: 'model-output', answers: [] }],
      [2, { source: 'model-output', answers: ['<model output 1>'] }]
    ])
  })

  it("renders each request through the inferencer's chat parser: meta begin/end for an LM meta template", () => {
    const r = renderPreparedRow(chat('last'), 0, 0, MODELS)
    expect(r.items!.map((it) => it.models[0].text)).toEqual([
      'Be brief.<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n'
    ])
  })

  it('sends a system message as part of the first user turn under the OpenCompass chat wrapper', () => {
    const r = renderPreparedRow(chat('last'), 0, 0, MODELS)
    expect(r.items![0].models[1].harness?.chatMessages).toEqual([
      { role: 'user', content: 'Be brief.\nHi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Bye' }
    ])
  })
})
