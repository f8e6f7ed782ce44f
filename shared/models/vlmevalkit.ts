// A vision-language chat model as VLMEvalKit sends it (open-compass/VLMEvalKit@e8e78f05f3080fe28154f2130321f17951c3be94):
// an image multiple-choice row becomes the kit's own prompt — the dataset's ImageMCQDataset.build_prompt
// (vlmeval/dataset/image_mcq.py), or, for a registered MCQ benchmark, Qwen2-VL's own _build_mcq_prompt
// (vlmeval/vlm/qwen2_vl/prompt.py) — and the model wraps it: Qwen2VLChat.generate_inner_transformers puts
// [system_prompt] + one user message of [{type: image, image: file://…}…, {type: text, text}] through the
// processor's apply_chat_template(add_generation_prompt=True). The dataset config's template plays no part: VLMEvalKit
// builds its prompt from the row's own columns (question, hint, A…Z, image / image_path).
// Golden cases made by running that code: test/conformance/cases-local/vlmevalkit.jsonl.
import type { Row } from '../engine'
import type { HarnessTrace } from '../api/types'
import type { ModelProfile, VlmevalOptions } from './profile'
import { renderForModel } from './render-for-model'
import type { ChatMessage } from './renderers'
import type { HarnessSpec, WrapOptions, WrapResult } from './harness'

export const VLMEVAL_LABEL = 'VLMEvalKit Qwen2VLChat'
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const MCQ_CN_PROMPT = '请直接回答选项字母。'
const MCQ_EN_PROMPT = 'Please select the correct answer from the options above.'

/** pd.isna as a cell read from a TSV looks: a missing column, null, NaN, or an empty cell (pandas reads it as NaN). */
function isNa(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v))
}

/** Python's str() of a cell (f-string). Floats that pandas would hold as x.0 are not told apart from ints here. */
function pyStr(v: unknown): string {
  if (typeof v === 'string') return v
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  return String(v)
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
function imagesOf(row: Row): string[] {
  if (!isNa(row.image_path)) return toListStr(row.image_path)
  if (!isNa(row.image)) {
    const imgs = toListStr(row.image)
    return imgs.length > 1 ? imgs.map((_, i) => `${pyStr(row.index)}_${i}.png`) : [`${pyStr(row.index)}.png`]
  }
  return []
}

export type VlmStruct = Array<{ type: 'image' | 'text'; value: string }>

/** Hint/Question/Options text, as both build_prompt variants write it; `ending` is what follows the options. */
function mcqText(row: Row, custom: boolean): string {
  if (!('question' in row)) throw new Error("KeyError: 'question'")
  const options: Array<[string, unknown]> = []
  for (const c of LETTERS) if (c in row && !isNa(row[c])) options.push([c, row[c]])
  let optionsPrompt = 'Options:\n'
  for (const [k, v] of options) optionsPrompt += `${k}. ${pyStr(v)}\n`
  const hint = 'hint' in row && !isNa(row.hint) ? pyStr(row.hint) : null
  let prompt = ''
  if (hint !== null) prompt += `Hint: ${hint}\n`
  prompt += `Question: ${pyStr(row.question)}\n`
  if (options.length) {
    prompt += optionsPrompt
    if (custom) prompt += /[\u4e00-\u9fff]/.test(prompt) ? MCQ_CN_PROMPT : MCQ_EN_PROMPT
    else prompt += 'Please select the correct answer from the options above. \n'
  }
  // Qwen2-VL's prompt is rstripped; the dataset's keeps its " \n".
  return custom ? prompt.replace(/\s+$/u, '') : prompt
}

/** inference.py: the model's own prompt when use_custom_prompt(dataset) holds, else the dataset's build_prompt. */
export function vlmevalStruct(row: Row, o: VlmevalOptions): { struct: VlmStruct; custom: boolean } {
  const custom = (o.use_custom_prompt ?? true) && !o.custom_dataset
  const struct: VlmStruct = imagesOf(row).map((p) => ({ type: 'image', value: p }))
  struct.push({ type: 'text', value: mcqText(row, custom) })
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
    built = vlmevalStruct(row, o)
  } catch (e) {
    trace.error = { message: e instanceof Error ? e.message : String(e), stage: 'parse' }
    return out
  }
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
