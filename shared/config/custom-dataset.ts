// OpenCompass custom datasets: a dataset dict without `type` (compassbench_v1's
// `dict(path='….jsonl', abbr=…, data_type='circular-mcq', infer_method='gen')`) is completed by the run itself —
// opencompass/utils/run.py try_fill_in_custom_cfgs calls make_custom_dataset_config
// (opencompass/datasets/custom.py), which reads the data file's first row to find the input columns, the output
// column and the options, merges `<path>.meta.json`, and builds reader_cfg, infer_cfg and eval_cfg. Reproduced
// here over the row and meta the host read; the quirks are upstream's (every first-row column but `answer` is an
// input column, even one the config names as output_column; the default MCQ prompt says `Question: {question}`
// whatever the columns are).
import { PyError } from '../python/errors'
import { strFormat } from './python-format'
import type { Json } from './python-values'

/** What parse_example_dataset reads from the data file at the entry's path. */
export type FirstRow =
  | { kind: 'row'; row: Record<string, Json> }
  /** The path ends in neither .jsonl nor .csv: upstream's ValueError before any reading. */
  | { kind: 'unsupported' }

/**
 * A dataset dict with neither `type` nor `infer_cfg`. Upstream's run fills in every dict of a run config's
 * `datasets` that has no `type` (its own infer_cfg, if any, is replaced), while `--datasets` fills in none; a
 * typeless dict that writes its own infer_cfg (as hand-written configs do) is rendered as written.
 */
export function isCustomDataset(raw: Record<string, Json>): boolean {
  return !('type' in raw) && !('infer_cfg' in raw)
}

/** parse_example_dataset's first step: which file kinds it reads. */
export function customDataKind(path: string): 'jsonl' | 'csv' | null {
  return path.endsWith('.jsonl') ? 'jsonl' : path.endsWith('.csv') ? 'csv' : null
}

export function unsupportedExtError(path: string): PyError {
  return new PyError('ValueError', `Unsupported ext: ${path}, .jsonl or .csv required`)
}

/**
 * parse_example_dataset: the meta upstream builds from the first row, then `.meta.json` (fileMeta), then the
 * config entry itself, each later one overriding. `path` is the entry's path as written (the default abbr is its
 * base name up to the first dot).
 */
export function customDatasetMeta(entry: Record<string, Json>, first: FirstRow, fileMeta: Record<string, Json> | null): Record<string, Json> {
  const path = String(entry.path)
  if (first.kind === 'unsupported') throw unsupportedExtError(path)
  const row = first.row
  const options: string[] = []
  for (let i = 0; i < 26; i++) {
    const key = String.fromCharCode(65 + i)
    if (!(key in row)) break
    options.push(key)
  }
  const parsed: Record<string, Json> = {
    path,
    input_columns: Object.keys(row).filter((k) => k !== 'answer'),
    output_column: 'answer' in row ? 'answer' : null,
    options,
    abbr: (path.split('/').pop() as string).split('.')[0],
    data_type: options.length > 1 ? 'mcq' : 'qa',
    infer_method: 'gen'
  }
  return { ...parsed, ...(fileMeta ?? {}), ...structuredClone(entry) }
}

type Maker = (meta: Record<string, Json>) => Record<string, Json>

/** make_custom_dataset_config: the dataset dict the run uses instead of the entry (its other keys are dropped). */
export function makeCustomDatasetConfig(entry: Record<string, Json>, first: FirstRow, fileMeta: Record<string, Json> | null): Record<string, Json> {
  const meta = customDatasetMeta(entry, first, fileMeta)
  const make = MAKERS[`${pyStr(meta.data_type)}|${pyStr(meta.infer_method)}`]
  if (!make) throw new PyError('ValueError', `Unsupported dataset data_type: ${pyStr(meta.data_type)} and infer_method: ${pyStr(meta.infer_method)}`)
  return make(meta)
}

/** str() of a meta value in an f-string (the values configs give are str or None). */
function pyStr(v: Json | undefined): string {
  return v === null || v === undefined ? 'None' : typeof v === 'boolean' ? (v ? 'True' : 'False') : typeof v === 'string' ? v : JSON.stringify(v)
}

function need(meta: Record<string, Json>, key: string): Json {
  if (!(key in meta)) throw new PyError('KeyError', `'${key}'`)
  return meta[key]
}

function optionsOf(meta: Record<string, Json>): string[] {
  const o = need(meta, 'options')
  return Array.isArray(o) ? o.map((x) => pyStr(x)) : [...pyStr(o)]
}

/** The default MCQ human prompt: `Question: {question}` and one `\nX. {X}` line per option. */
function mcqHumanPrompt(meta: Record<string, Json>): Json {
  return 'human_prompt' in meta ? meta.human_prompt : 'Question: {question}' + optionsOf(meta).map((o) => `\n${o}. {${o}}`).join('')
}

function mcqBotPrompt(meta: Record<string, Json>): Json {
  return 'bot_prompt' in meta ? meta.bot_prompt : `Answer: {${pyStr(need(meta, 'output_column'))}}`
}

function readerCfg(meta: Record<string, Json>): Record<string, Json> {
  const r: Record<string, Json> = { input_columns: need(meta, 'input_columns'), output_column: need(meta, 'output_column') }
  if ('test_range' in meta) r.test_range = meta.test_range
  return r
}

function inferCfg(template: Json, inferencer: 'GenInferencer' | 'PPLInferencer'): Record<string, Json> {
  return { prompt_template: { type: 'PromptTemplate', template }, retriever: { type: 'ZeroRetriever' }, inferencer: { type: inferencer } }
}

function evaluator(meta: Record<string, Json>, fallback: string, defaultKwargs: Record<string, Json>): Record<string, Json> {
  const kwargs = 'evaluator_kwargs' in meta ? meta.evaluator_kwargs : defaultKwargs
  return { type: 'evaluator' in meta ? meta.evaluator : fallback, ...(kwargs && typeof kwargs === 'object' && !Array.isArray(kwargs) ? kwargs : {}) }
}

function given(meta: Record<string, Json>): Json | null {
  return meta.template ?? null
}

function mcqGen(meta: Record<string, Json>, circular: boolean): Record<string, Json> {
  const template = given(meta) ?? {
    round: [
      { role: 'HUMAN', prompt: mcqHumanPrompt(meta) },
      { role: 'BOT', prompt: mcqBotPrompt(meta) }
    ]
  }
  const reader_cfg = readerCfg(meta)
  const infer_cfg = inferCfg(template, 'GenInferencer')
  const eval_cfg = { evaluator: evaluator(meta, circular ? 'CircularOptionSimAccEvaluator' : 'OptionSimAccEvaluator', { options: optionsOf(meta) }), pred_role: 'BOT' }
  return dataset(meta, circular, reader_cfg, infer_cfg, eval_cfg)
}

function mcqPpl(meta: Record<string, Json>, circular: boolean): Record<string, Json> {
  let template = given(meta)
  if (template === null) {
    const human = mcqHumanPrompt(meta)
    const bot = mcqBotPrompt(meta)
    const out = need(meta, 'output_column')
    const labels: Record<string, Json> = {}
    for (const answer of optionsOf(meta)) {
      // bot_prompt.format(**{output_column: answer}): any other field in it is a KeyError, as upstream.
      const filled = strFormat(String(bot), [], new Map(typeof out === 'string' ? [[out, answer]] : []))
      labels[answer] = { round: [{ role: 'HUMAN', prompt: human }, { role: 'BOT', prompt: filled }] }
    }
    template = labels
  }
  const eval_cfg = { evaluator: evaluator(meta, circular ? 'CircularEvaluator' : 'AccEvaluator', {}) }
  return dataset(meta, circular, readerCfg(meta), inferCfg(template, 'PPLInferencer'), eval_cfg)
}

function qaGen(meta: Record<string, Json>): Record<string, Json> {
  let template = given(meta)
  if (template === null) {
    const human = 'human_prompt' in meta ? meta.human_prompt : '{question}'
    const out = need(meta, 'output_column')
    template =
      out === null
        ? { round: [{ role: 'HUMAN', prompt: human }] }
        : { round: [{ role: 'HUMAN', prompt: human }, { role: 'BOT', prompt: 'bot_prompt' in meta ? meta.bot_prompt : `{${pyStr(out)}}` }] }
  }
  const eval_cfg = { evaluator: evaluator(meta, 'AccEvaluator', {}), pred_role: 'BOT' }
  return dataset(meta, false, readerCfg(meta), inferCfg(template, 'GenInferencer'), eval_cfg)
}

function dataset(meta: Record<string, Json>, circular: boolean, reader_cfg: Json, infer_cfg: Json, eval_cfg: Json): Record<string, Json> {
  const abbr = need(meta, 'abbr')
  if (!circular) return { abbr, type: 'CustomDataset', path: need(meta, 'path'), reader_cfg, infer_cfg, eval_cfg }
  return { abbr, type: 'CircularCustomDataset', option_keys: need(meta, 'options'), answer_key: need(meta, 'output_column'), path: need(meta, 'path'), reader_cfg, infer_cfg, eval_cfg }
}

const MAKERS: Record<string, Maker> = {
  'mcq|gen': (m) => mcqGen(m, false),
  'mcq|ppl': (m) => mcqPpl(m, false),
  'qa|gen': qaGen,
  'circular-mcq|gen': (m) => mcqGen(m, true),
  'circular-mcq|ppl': (m) => mcqPpl(m, true)
}
