// Throughput of the OpenCompass/AISBench engine (prepare once + renderRow per row), beside upstream Python doing the
// same work on the same rows in the same run, with spans off (bulk paths) and on (what the UI asks for, one row at a
// time).
//   npx tsx test/bench/engine.bench.ts   (upstream trees: OC_CHECKOUT / AIS_CHECKOUT, else ../upstream-trees)
// The cases, templates and rows are those of ../shared/upstream/perf/scripts/oc_prompt_bench.py (rows from its
// synth.py), so both sides build identical prompts. Without an upstream tree the upstream figure is a fixed anchor
// and is printed as such, with its date and machine.
import { preparePipeline, renderRow } from '../../shared/engine'
import type { PipelineInput } from '../../shared/engine'
import { machineLine, measureUpstream, synthRows, UPSTREAM_REPS, type UpstreamFigures } from './upstream-anchor'

const N = 10_000
const train = synthRows(100, 1, 't').map(({ question, answer }) => ({ question, answer }))
const qa = synthRows(N, 2, 'q')
const test = qa.map(({ question, answer }) => ({ question, answer }))
const SYSTEM = 'Answer the question briefly and precisely.'
const chatml = {
  round: [
    { role: 'HUMAN', begin: '<|im_start|>user\n', end: '<|im_end|>\n' },
    { role: 'BOT', begin: '<|im_start|>assistant\n', end: '<|im_end|>\n', generate: true }
  ],
  reserved_roles: [{ role: 'SYSTEM', begin: '<|im_start|>system\n', end: '<|im_end|>\n' }]
}
const apiMeta = {
  round: [
    { role: 'HUMAN', api_role: 'HUMAN' },
    { role: 'BOT', api_role: 'BOT', generate: true }
  ],
  reserved_roles: [{ role: 'SYSTEM', api_role: 'SYSTEM' }]
}
const round = [
  { role: 'HUMAN', prompt: 'Q: {question}' },
  { role: 'BOT', prompt: 'A: {answer}' }
]
const dialogue = (parser: 'lm' | 'api'): PipelineInput => ({
  family: 'opencompass',
  reader_cfg: { input_columns: ['question'], output_column: 'answer' },
  infer_cfg: {
    ice_template: { type: 'PromptTemplate', template: { round } },
    prompt_template: {
      type: 'PromptTemplate',
      template: { begin: [{ role: 'SYSTEM', fallback_role: 'HUMAN', prompt: SYSTEM }, '</E>'], round },
      ice_token: '</E>'
    },
    retriever: { type: 'FixKRetriever', fix_id_list: [0, 1, 2, 3, 4] },
    inferencer: { type: 'GenInferencer' }
  },
  train,
  test,
  meta_template: parser === 'lm' ? chatml : apiMeta,
  parser,
  mode: 'gen'
})
const bare: PipelineInput = {
  family: 'opencompass',
  reader_cfg: { input_columns: ['question'], output_column: 'answer' },
  infer_cfg: {
    prompt_template: { type: 'PromptTemplate', template: 'Q: {question}\nA: {answer}' },
    retriever: { type: 'ZeroRetriever' },
    inferencer: { type: 'GenInferencer' }
  },
  train: [],
  test,
  meta_template: null,
  parser: 'lm',
  mode: 'gen'
}
const mm: PipelineInput = {
  family: 'aisbench',
  reader_cfg: { input_columns: ['question', 'image'], output_column: 'answer' },
  infer_cfg: {
    prompt_template: {
      type: 'MMPromptTemplate',
      template: {
        round: [
          {
            role: 'HUMAN',
            prompt_mm: {
              text: { type: 'text', text: '{question}' },
              image: { type: 'image_url', image_url: '{image}' }
            }
          }
        ]
      }
    },
    retriever: { type: 'ZeroRetriever' },
    inferencer: { type: 'GenInferencer' }
  },
  train: [],
  test: qa.map((r) => ({
    ...r,
    content: `<AIS_IMAGE_START>${r.image}<AIS_CONTENT_TAG><AIS_TEXT_START>${r.question}<AIS_CONTENT_TAG>`
  })),
  meta_template: apiMeta,
  parser: 'api',
  mode: 'gen'
}

/** Rows per second: prepare + every row, the best of as many runs as upstream's (after two warm-up runs). */
function rate(input: PipelineInput, spans: boolean): number {
  const run = (): number => {
    const t0 = performance.now()
    const p = preparePipeline(input)
    if ('code' in p) throw new Error(p.message)
    for (let i = 0; i < N; i++) {
      const r = renderRow(p, i, { spans })
      if (r.error) throw new Error(r.error.message)
    }
    return performance.now() - t0
  }
  run()
  run()
  // The best run: other processes on a shared machine only ever slow a run down. Upstream's figure is its best run
  // of as many, so both sides are read the same way.
  let best = Infinity
  for (let k = 0; k < UPSTREAM_REPS; k++) best = Math.min(best, run())
  return (N / best) * 1000
}

function bench(name: string, input: PipelineInput, upstream: { rate: number; label: string }): void {
  const fmt = (r: number): string =>
    `${Math.round(r).toLocaleString('en-US').padStart(9)} prompts/s (×${(r / upstream.rate).toFixed(1)} upstream)`
  const off = rate(input, false)
  const on = rate(input, true)
  console.log(
    `${name.padEnd(50)} spans off ${fmt(off)}   spans on ${fmt(on)}   upstream ${Math.round(upstream.rate).toLocaleString('en-US')}/s (${upstream.label})`
  )
}

console.log(machineLine())
const up: UpstreamFigures = measureUpstream(N)
console.log(`${N.toLocaleString('en-US')} rows each, best of ${UPSTREAM_REPS} runs on both sides; upstream = OpenCompass/AISBench Python building the same prompts from the same rows`)
if (up.note) console.log(up.note)
bench('dialogue+SYSTEM begin, 5 FixK, ChatML, LM parser', dialogue('lm'), up.figure('oc-b'))
bench('dialogue+SYSTEM begin, 5 FixK, ChatML, API parser', dialogue('api'), up.figure('oc-c'))
bench('bare string template, no examples', bare, up.figure('oc-a'))
bench('AISBench MMPromptTemplate, one image URL per row', mm, up.figure('ais-mm'))
