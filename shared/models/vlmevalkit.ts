// A vision-language chat model as VLMEvalKit sends it (open-compass/VLMEvalKit@e8e78f05f3080fe28154f2130321f17951c3be94):
// an image multiple-choice row becomes the kit's own prompt — the dataset's ImageMCQDataset.build_prompt
// (vlmeval/dataset/image_mcq.py), or, for a registered MCQ benchmark, Qwen2-VL's own _build_mcq_prompt
// (vlmeval/vlm/qwen2_vl/prompt.py) — and the model wraps it: Qwen2VLChat.generate_inner_transformers puts
// [system_prompt] + one user message of [{type: image, image: file://…}…, {type: text, text}] through the
// processor's apply_chat_template(add_generation_prompt=True). The dataset config's template plays no part: VLMEvalKit
// builds its prompt from the row's own columns (question, hint, A…Z, image / image_path).
// Golden cases made by running that code: test/conformance/cases-local/vlmevalkit.jsonl.
import { PyError, errorText } from '../python/errors'
import type { Row } from '../engine'
import { isNaString, typeColumn } from '../loaders/pandas-tsv'
import { cellStr, isNa as pyIsNa } from '../loaders/py'
import type { HarnessTrace } from '../api/types'
import type { ModelProfile, VlmevalOptions } from './profile'
import { renderForModel } from './render-for-model'
import type { ChatMessage } from './renderers'
import type { HarnessSpec, WrapOptions, WrapResult } from './harness'

export const VLMEVAL_LABEL = 'VLMEvalKit Qwen2VLChat'
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const MCQ_CN_PROMPT = '请直接回答选项字母。'
const MCQ_EN_PROMPT = 'Please select the correct answer from the options above.'

/**
 * The rows as VLMEvalKit's pandas holds them. A TSV read by PromptLoom gives every cell as text; VLMEvalKit's
 * read_csv types each column over the whole file (all integers → int64; integers with an empty cell, or decimals →
 * float64, printed "3.0"; else object), so a column whose cells are all strings is typed that way here
 * (shared/loaders/pandas-tsv.ts). Columns with other values (JSON numbers) are taken as they are.
 */
const typedTables = new WeakMap<Row[], Map<string, unknown[]>>()
function typedCell(rows: Row[] | undefined, row: Row, i: number | undefined, key: string): unknown {
  const v = row[key]
  if (!rows || i === undefined || rows[i] !== row) return v
  let cols = typedTables.get(rows)
  if (!cols) typedTables.set(rows, (cols = new Map()))
  let typed = cols.get(key)
  if (!typed) {
    const raw: unknown[] = rows.map((r) => r[key])
    typed = raw.every((x) => x === undefined || x === null || typeof x === 'string')
      ? typeColumn(raw.map((x) => (typeof x !== 'string' || isNaString(x) ? null : x))).cells
      : raw
    cols.set(key, typed)
  }
  return typed[i]
}

/** str() of a cell as pandas holds it (an int64 "3", a float64 "3.0"). */
const pyStr = cellStr

/** pd.isna of a cell: a missing column, null, NaN. */
function isNa(v: unknown): boolean {
  return v === undefined || pyIsNa(v)
}

/** vlmeval.smp.toliststr: a "['a', 'b']" cell is a list, any other string one item. */
function toListStr(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(pyStr)
  const s = pyStr(v)
  if (s.length > 1 && s[0] === '[' && s[s.length - 1] === ']') {
    const inner = s.slice(1, -1).trim()
    if (!inner) return []
    return inner.split(',').map((x) => x.trim().replace(/^(['"])(.*)\1$/s, '$2'))
  }
  return [s]
}

/** The picture files the kit hands the model: image_path's names, else <index>.png for each dumped base64 image. */
function imagesOf(cell: Cell, rows: Row[] | undefined): string[] {
  if (!isNa(cell('image_path'))) return toListStr(cell('image_path'))
  const image = cell('image')
  if (!isNa(image)) {
    let imgs = toListStr(image)
    // ImageBaseDataset.__init__: an `image` of at most 64 characters is another row's index; that row's pictures.
    const ref = pyStr(image)
    if (ref.length > 0 && ref.length <= 64 && rows) {
      const target = rows.find((r) => r.index !== undefined && pyStr(r.index) === ref)
      if (target && !isNa(target.image)) imgs = toListStr(target.image)
    }
    const index = pyStr(cell('index'))
    return imgs.length > 1 ? imgs.map((_, i) => `${index}_${i}.png`) : [`${index}.png`]
  }
  return []
}

type Cell = (key: string) => unknown

export type VlmStruct = Array<{ type: 'image' | 'text'; value: string }>

/** Hint/Question/Options text, as both build_prompt variants write it; `ending` is what follows the options. */
function mcqText(row: Row, cell: Cell, custom: boolean): string {
  if (!('question' in row)) throw new PyError('KeyError', "'question'")
  const options: Array<[string, unknown]> = []
  for (const c of LETTERS) if (c in row && !isNa(cell(c))) options.push([c, cell(c)])
  let optionsPrompt = 'Options:\n'
  for (const [k, v] of options) optionsPrompt += `${k}. ${pyStr(v)}\n`
  const hint = 'hint' in row && !isNa(cell('hint')) ? pyStr(cell('hint')) : null
  let prompt = ''
  if (hint !== null) prompt += `Hint: ${hint}\n`
  prompt += `Question: ${pyStr(cell('question'))}\n`
  if (options.length) {
    prompt += optionsPrompt
    if (custom) prompt += /[\u4e00-\u9fff]/.test(prompt) ? MCQ_CN_PROMPT : MCQ_EN_PROMPT
    else prompt += 'Please select the correct answer from the options above. \n'
  }
  // Qwen2-VL's prompt is rstripped; the dataset's keeps its " \n".
  return custom ? prompt.replace(/\s+$/u, '') : prompt
}

/** inference.py: the model's own prompt when use_custom_prompt(dataset) holds, else the dataset's build_prompt. */
export function vlmevalStruct(row: Row, o: VlmevalOptions, rows?: Row[], index?: number): { struct: VlmStruct; custom: boolean } {
  const custom = (o.use_custom_prompt ?? true) && !o.custom_dataset
  const cell: Cell = (key) => typedCell(rows, row, index, key)
  const struct: VlmStruct = imagesOf(cell, rows).map((p) => ({ type: 'image', value: p }))
  struct.push({ type: 'text', value: mcqText(row, cell, custom) })
  return { struct, custom }
}

function emptyTrace(profile: ModelProfile): HarnessTrace {
  const eos = profile.special_tokens.eos_token
  return { harness: 'vlmevalkit', wrapper: 'Qwen2VLChat', label: VLMEVAL_LABEL, stopWords: typeof eos === 'string' ? [eos] : [] }
}

/** One row through VLMEvalKit: the kit's prompt from the row's columns, then Qwen2VLChat's messages and template. */
export function wrapVlmeval(row: Row | undefined, profile: ModelProfile, h: HarnessSpec, opts: WrapOptions): WrapResult {
  const out: WrapResult = { trace: emptyTrace(profile), warnings: [], signals: [] }
  const { trace, warnings } = out
  const o = h.model_kwargs as VlmevalOptions
  if (opts.mode === 'ppl') {
    trace.error = { message: 'VLMEvalKit generates an answer and matches it; it scores no PPL/likelihood', stage: 'ppl' }
    return out
  }
  if (!row) {
    trace.error = { message: 'no dataset row to build the VLMEvalKit prompt from', stage: 'parse' }
    return out
  }
  let built
  try {
    built = vlmevalStruct(row, o, opts.table, opts.tableIndex)
  } catch (e) {
    trace.error = { message: errorText(e), stage: 'parse' }
    return out
  }
  if ((opts.table?.length ?? 0) <= 1 && [...LETTERS, 'hint', 'question'].some((k) => typeof row[k] === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(row[k] as string)))
    warnings.push(
      'VLMEvalKit reads the TSV with pandas, which types each column over the whole file: a number here prints as "3.0" upstream if its column has an empty or decimal cell in another row, and this row was rendered on its own.'
    )
  trace.modelInput = built.struct
  trace.vlmPrompt = built.custom ? 'model' : 'dataset'
  warnings.push(
    built.custom
      ? "VLMEvalKit: Qwen2VLChat's own MCQ prompt (use_custom_prompt and a registered MCQ benchmark) replaces the dataset config's template."
      : "VLMEvalKit: the dataset's ImageMCQDataset.build_prompt (a custom set, or use_custom_prompt=False) replaces the dataset config's template."
  )
  const messages: ChatMessage[] = []
  if (o.system_prompt !== undefined && o.system_prompt !== null) messages.push({ role: 'system', content: o.system_prompt })
  messages.push({
    role: 'user',
    content: built.struct.map((s) => (s.type === 'image' ? { type: 'image', image: `file://${s.value}` } : { type: 'text', text: s.value }))
  })
  trace.chatMessages = messages
  if (!/image/.test(typeof profile.chat_template === 'string' ? profile.chat_template : JSON.stringify(profile.chat_template ?? '')))
    warnings.push(`${profile.name}'s chat template never mentions images: VLMEvalKit's image parts reach it as they are.`)
  const r = renderForModel(profile, { messages }, { addGenerationPrompt: true, countTokens: opts.countTokens })
  warnings.push(...r.warnings)
  if (r.error || r.text === undefined) {
    trace.error = { message: r.error?.message ?? 'the chat template gave no text', stage: 'apply_chat_template' }
    return out
  }
  out.signals = r.signals
  trace.prompt = r.text
  // The processor tokenizes the text with its defaults (special tokens added as the tokenizer is configured).
  trace.addSpecialTokens = null
  out.tokens = opts.countTokens ? opts.countTokens(r.text) : undefined
  return out
}
