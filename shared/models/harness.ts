// A chat-template model as an evaluation harness wraps it: OpenCompass's and AISBench's HuggingFacewithChatTemplate,
// VLLMwithChatTemplate and TurboMindModelwithChatTemplate (../shared/specs/opencompass-chat.md). The dataset-side
// PromptList goes through the wrapper's own APITemplateParser (its default meta template unless the config gives
// one), then `_convert_chat_messages`, then `apply_chat_template(add_generation_prompt=True)` or a FastChat
// conversation, then what the wrapper does with the text (TurboMind's BOS strip, special tokens at tokenization).
// The app's matrix, `promptloom render` and the conformance runner all come through wrapChatPrompt.
import { PyError, errorText } from '../python/errors'
import { applyMetaTemplate, chatApiParse, chatMessages, parsedJson } from '../engine'
import type { ChatMessageJson, Mode, Prompt, SeqLimit } from '../engine'
import { getConversationTemplate, type RegistryVersion } from '../formats/fastchat'
import { conversationTemplateForModel } from '../formats/fastchat/model-adapters'
import { PROCESSOR_WRAPPERS, type ChatWrapper, type HarnessName, type LmEvalWrapper, type ModelProfile, type VlmevalWrapper } from './profile'
import { LM_EVAL_LABEL, lmEvalStopWords, wrapLmEval } from './lm-eval'
import { VLMEVAL_LABEL, wrapVlmeval } from './vlmevalkit'
import { aisVisionInput } from './multimodal'
import type { Row } from '../engine'
import { renderForModel } from './render-for-model'
import type { ChatMessage } from './renderers'
import type { Signal, TokenCount } from './signals'
import type { HarnessTrace } from '../api/types'

export interface HarnessSpec {
  name: HarnessName
  wrapper: ChatWrapper | LmEvalWrapper | VlmevalWrapper
  model_kwargs: Record<string, unknown>
}

const WRAPPER_SHORT: Record<ChatWrapper | LmEvalWrapper | VlmevalWrapper, string> = {
  Qwen2VLChat: 'Qwen2-VL',
  HuggingFacewithChatTemplate: 'HF',
  VLLMwithChatTemplate: 'vLLM',
  TurboMindModelwithChatTemplate: 'TurboMind',
  HFLM: 'HF',
  HuggingFaceQwen2VLwithChatTemplate: 'HF VL',
  VLLMOfflineVLModel: 'vLLM VL'
}
export const HARNESS_TITLE: Record<HarnessName, string> = {
  opencompass: 'OpenCompass',
  aisbench: 'AISBench',
  'lm-eval': 'lm-evaluation-harness',
  vlmevalkit: 'VLMEvalKit'
}

/** "OpenCompass HuggingFacewithChatTemplate": what a model column says about the semantics it follows. */
export function harnessLabel(h: HarnessSpec): string {
  if (h.name === 'lm-eval') return LM_EVAL_LABEL
  if (h.name === 'vlmevalkit') return VLMEVAL_LABEL
  return `${HARNESS_TITLE[h.name]} ${h.wrapper}`
}

export function harnessShortLabel(h: HarnessSpec): string {
  return `${HARNESS_TITLE[h.name]} ${WRAPPER_SHORT[h.wrapper]}`
}

/**
 * The harness a profile renders under: its own, or — for a chat-template profile that names none — the
 * HuggingFacewithChatTemplate of the harness whose config is open (OpenCompass or AISBench). Other formats
 * (meta templates, FastChat, LazyLLM, APIs) are not chat-template wrappers: null.
 */
export function harnessFor(profile: ModelProfile, family: HarnessName): HarnessSpec | null {
  if (profile.harness) return harnessWithName(profile.harness, family)
  if (profile.format !== 'hf-chat-template') return null
  // One object per (profile, family): the wrapper's profile and its probed facts are cached by it (a fresh object
  // per row probed the template again on every row).
  let m = defaults.get(profile)
  if (!m) defaults.set(profile, (m = {}))
  return (m[family] ??= { name: family, wrapper: 'HuggingFacewithChatTemplate', model_kwargs: {} })
}
const defaults = new WeakMap<ModelProfile, Partial<Record<HarnessName, HarnessSpec>>>()

/** A profile's harness without a name follows the config's; one object per (harness, family), so caches hold. */
const named = new WeakMap<object, Partial<Record<HarnessName, HarnessSpec>>>()
function harnessWithName(h: NonNullable<ModelProfile['harness']>, family: HarnessName): HarnessSpec {
  if (h.name) return h as HarnessSpec
  let m = named.get(h)
  if (!m) named.set(h, (m = {}))
  return (m[family] ??= { ...h, name: family })
}

// OpenCompass `_get_meta_template`: "all system roles are mapped to human in purpose".
const OC_DEFAULT_META = Object.freeze({
  round: [
    { role: 'HUMAN', api_role: 'HUMAN' },
    { role: 'SYSTEM', api_role: 'HUMAN' },
    { role: 'BOT', api_role: 'BOT', generate: true }
  ]
})
// AISBench `_get_meta_template`: SYSTEM stays a system message.
const AIS_DEFAULT_META = Object.freeze({
  round: [
    { role: 'HUMAN', api_role: 'HUMAN' },
    { role: 'BOT', api_role: 'BOT', generate: true }
  ],
  reserved_roles: [{ role: 'SYSTEM', api_role: 'SYSTEM' }]
})

function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false
  if (Array.isArray(v)) return v.length > 0
  if (typeof v === 'object') return Object.keys(v as object).length > 0
  return true
}

/** `APITemplateParser(meta_template or default)`: the config's meta template, else the harness default. */
export function wrapperMetaTemplate(h: HarnessSpec): unknown {
  const own = h.model_kwargs.meta_template
  if (truthy(own)) return own
  return h.name === 'aisbench' ? AIS_DEFAULT_META : OC_DEFAULT_META
}

/**
 * `wrapper.stop_words`: `list(set(config stop_words + generation_config eos + tokenizer.eos_token))` without empty
 * strings. The generation config's eos is taken to be the tokenizer's. Sorted (upstream's order is set order).
 */
export function wrapperStopWords(h: HarnessSpec, profile: ModelProfile): string[] {
  if (h.name === 'lm-eval') return lmEvalStopWords(h, profile)
  if (h.name === 'vlmevalkit') {
    const eos = profile.special_tokens.eos_token
    return typeof eos === 'string' ? [eos] : []
  }
  const words = new Set<string>()
  const own = h.model_kwargs.stop_words
  if (Array.isArray(own)) for (const w of own) if (typeof w === 'string') words.add(w)
  const eos = profile.special_tokens.eos_token
  if (typeof eos === 'string') {
    words.add(eos)
    // TurboMind strips the blanks around the generation config's decoded eos words that start with one.
    if (h.wrapper === 'TurboMindModelwithChatTemplate' && /^\s/.test(eos)) words.add(eos.trim())
  }
  words.delete('')
  return [...words].sort()
}

export interface WrapResult {
  trace: HarnessTrace
  /** Quirks of upstream worth a warning, and the chat template's own warnings. */
  warnings: string[]
  signals: Signal[]
  tokens?: TokenCount
}

export interface WrapOptions {
  mode: Mode
  row?: number
  /** The dataset row itself: VLMEvalKit builds its prompt from the row's columns, not from the config's template. */
  data?: Row
  /** The split `data` is row `tableIndex` of (VLMEvalKit types TSV columns over the whole file). */
  table?: Row[]
  tableIndex?: number
  /** PPL: every label's prompt for this row (lm-eval splits plain-string label prompts into context + choice). */
  labelPrompts?: Prompt[]
  countTokens?: (text: string) => TokenCount
}

/** The profile the chat template renders with under this wrapper: only vLLM forwards chat_template_kwargs. */
const renderProfiles = new WeakMap<ModelProfile, WeakMap<HarnessSpec, ModelProfile>>()
function profileForWrapper(profile: ModelProfile, h: HarnessSpec): ModelProfile {
  let byHarness = renderProfiles.get(profile)
  if (!byHarness) renderProfiles.set(profile, (byHarness = new WeakMap()))
  let p = byHarness.get(h)
  if (!p) {
    const kw = h.wrapper === 'VLLMwithChatTemplate' ? h.model_kwargs.chat_template_kwargs : undefined
    p = {
      ...profile,
      chat_template_kwargs:
        kw && typeof kw === 'object' && !Array.isArray(kw) ? (kw as Record<string, unknown>) : undefined
    }
    byHarness.set(h, p)
  }
  return p
}

/** Upstream's "Type: message" text of a PyError (the engine's PyRaise, the errors raised here). */
const pyError = errorText

/** TurboMind `drop_middle`: a PromptList input becomes the prompt of its first message (`input[0]['prompt']`). */
function dropMiddle(input: unknown): string {
  if (typeof input === 'string') return input
  const list = input as unknown[]
  if (list.length === 0) throw new PyError('IndexError', 'list index out of range')
  const first = list[0]
  if (!first || typeof first !== 'object' || !('prompt' in first)) throw new PyError('KeyError', "'prompt'")
  return String((first as { prompt: unknown }).prompt)
}

/**
 * `_format_with_fast_chat_template`: the conversation FastChat's adapters give for NAME (matched as a model path), in
 * the FastChat the profile's fastchat_version names; system messages are skipped (the conversation keeps its own),
 * an open assistant slot ends it.
 */
function renderFastchatConversation(name: string, messages: Array<{ role: string; content: unknown }>, version: RegistryVersion): string {
  const { template } = conversationTemplateForModel(name, version)
  const conv = getConversationTemplate(template, version)
  if (!conv) throw new PyError('KeyError', `'${template}'`)
  for (const m of messages) {
    if (m.role === 'user') conv.appendMessage(conv.roles[0], String(m.content))
    else if (m.role === 'assistant') conv.appendMessage(conv.roles[1], String(m.content))
    else if (m.role !== 'system') throw new PyError('ValueError', `Unknown role: ${m.role}`)
  }
  conv.appendMessage(conv.roles[1], null)
  const r = conv.getPrompt()
  if (!r.ok) throw new Error(r.error?.message ?? 'FastChat get_prompt failed')
  return r.text
}

/** AISBench `generate` pops these from the generation kwargs without defaults, in this order. */
const AIS_POPPED = ['is_synthetic', 'batch_size', 'do_performance'] as const

/** One dataset PromptList through the wrapper, from its own parser to the text the engine receives. */
export function wrapChatPrompt(prompt: Prompt, profile: ModelProfile, h: HarnessSpec, opts: WrapOptions): WrapResult {
  if (h.name === 'lm-eval') return wrapLmEval(prompt, profile, h, opts)
  if (h.name === 'vlmevalkit') return wrapVlmeval(opts.data, profile, h, opts)
  const applied = applyMetaTemplate(prompt, wrapperMetaTemplate(h), { parser: 'api', mode: opts.mode, family: h.name, row: opts.row })
  if (applied.error || !applied.parsed) {
    const out = emptyResult(profile, h)
    out.warnings.push(...applied.warnings.map((w) => w.message))
    out.trace.error = { message: applied.error?.message ?? 'the template parser gave no result', stage: 'parse' }
    return out
  }
  const out = wrapParsed(parsedJson(applied.parsed), profile, h, opts)
  out.warnings.unshift(...applied.warnings.map((w) => w.message))
  if (out.trace.chatMessages && Array.isArray(out.trace.chatMessages)) noteQuirks(prompt, out.trace.chatMessages as { role: string; content: unknown }[], h, out.warnings)
  return out
}

/**
 * One ChatInferencer request (`chat[:i]`): the inferencer's own parser replaces the wrapper's, keeping its meta
 * template (OpenCompass's default maps a system message to HUMAN), then the same steps as any prompt.
 */
export function wrapChatHistory(history: ChatMessageJson[], profile: ModelProfile, h: HarnessSpec, opts: WrapOptions): WrapResult {
  if (h.name === 'lm-eval' || h.name === 'vlmevalkit') {
    const out = emptyResult(profile, h)
    out.trace.error = { message: h.name === 'vlmevalkit' ? 'VLMEvalKit chat sets (MMDU, MT-Bench-style) are not reproduced; ChatInferencer rows cannot be shown via VLMEvalKit' : 'lm-evaluation-harness has no counterpart of OpenCompass ChatInferencer (a chat replayed turn by turn); render this dataset with a gen variant', stage: 'parse' }
    return out
  }
  let parsed: unknown
  try {
    parsed = chatApiParse(history, wrapperMetaTemplate(h))
  } catch (e) {
    const out = emptyResult(profile, h)
    out.trace.error = { message: pyError(e), stage: 'parse' }
    return out
  }
  return wrapParsed(parsed, profile, h, opts)
}

function emptyResult(profile: ModelProfile, h: HarnessSpec): WrapResult {
  return { trace: { harness: h.name, wrapper: h.wrapper, label: harnessLabel(h), stopWords: wrapperStopWords(h, profile) } as HarnessTrace, warnings: [], signals: [] }
}

/** The wrapper's `generate` on a parsed prompt: [TurboMind drop_middle], messages, template, text. */
function wrapParsed(parsed: unknown, profile: ModelProfile, h: HarnessSpec, opts: WrapOptions): WrapResult {
  const out = emptyResult(profile, h)
  const { trace, warnings } = out
  let input = parsed
  trace.modelInput = input
  const fastchat =
    typeof h.model_kwargs.fastchat_template === 'string' && h.model_kwargs.fastchat_template
      ? h.model_kwargs.fastchat_template
      : undefined
  if (fastchat) trace.fastchat = fastchat
  const fastchatVersion = profile.fastchat_version ?? 'head'

  if (h.wrapper === 'TurboMindModelwithChatTemplate' && h.model_kwargs.drop_middle === true && opts.mode === 'gen') {
    try {
      input = dropMiddle(input)
    } catch (e) {
      trace.error = { message: pyError(e), stage: 'drop_middle' }
      return out
    }
    warnings.push(
      'TurboMind drop_middle: only the first message of the parsed prompt reaches the model (upstream reads input[0]["prompt"]).'
    )
  }

  const processor = (PROCESSOR_WRAPPERS as readonly string[]).includes(h.wrapper)
  if (processor && opts.mode === 'gen') {
    // AISBench's VL wrappers rewrite the first item's image (and, HF, video) parts before converting the messages.
    const vk = h.model_kwargs.vision_kwargs
    try {
      const v = aisVisionInput(input, h.wrapper as (typeof PROCESSOR_WRAPPERS)[number], vk && typeof vk === 'object' && !Array.isArray(vk) ? (vk as Record<string, unknown>) : {})
      input = v.input
      if (v.warning) warnings.push(`${harnessLabel(h)} logs "${v.warning}": it expects a prompt of one message (it rewrites only the first one's parts).`)
    } catch (e) {
      trace.error = { message: pyError(e), stage: 'format_vision_input' }
      return out
    }
  }

  let messages: Array<{ role: string; content: unknown }>
  try {
    messages = chatMessages(input) as Array<{ role: string; content: unknown }>
    trace.chatMessages = messages
  } catch (e) {
    const message = pyError(e)
    trace.chatMessages = { error: message }
    trace.error = { message, stage: 'convert_chat_messages' }
    return out
  }
  if (opts.mode === 'ppl') {
    trace.error = {
      message: `NotImplementedError: ${h.wrapper} does not support ppl-based evaluation yet, try gen-based instead.`,
      stage: 'ppl'
    }
    return out
  }

  let text: string
  if (fastchat) {
    try {
      text = renderFastchatConversation(fastchat, messages, fastchatVersion)
    } catch (e) {
      trace.error = { message: pyError(e), stage: 'fastchat_template' }
      return out
    }
    if (messages.some((m) => m.role === 'system'))
      warnings.push(
        `fastchat_template: FastChat skips system messages; the "${conversationTemplateForModel(fastchat, fastchatVersion).template}" conversation keeps its own system prompt.`
      )
  } else {
    // transformers looks at conversation[0] to tell a batch from one conversation.
    if (messages.length === 0) {
      trace.error = { message: 'IndexError: list index out of range', stage: 'apply_chat_template' }
      return out
    }
    const r = renderForModel(
      profileForWrapper(profile, h),
      { messages: messages as ChatMessage[] },
      { addGenerationPrompt: true, countTokens: opts.countTokens, processor }
    )
    warnings.push(...r.warnings)
    if (r.error || r.text === undefined) {
      trace.error = { message: r.error?.message ?? 'the chat template gave no text', stage: 'apply_chat_template' }
      return out
    }
    text = r.text
    // Double BOS is judged below on what is really tokenized; the generic check assumes add_special_tokens=True.
    out.signals = r.signals.filter((s) => s.code !== 'double-bos')
    const bos = profile.special_tokens.bos_token
    if (h.wrapper === 'TurboMindModelwithChatTemplate' && bos && text.startsWith(bos)) {
      text = text.slice(bos.length)
      warnings.push(
        `TurboMind removes one leading ${bos} from the chat template's text: lmdeploy adds BOS itself when it tokenizes.`
      )
    }
  }
  if (h.wrapper === 'HuggingFacewithChatTemplate' && !fastchat && truthy(h.model_kwargs.chat_template_kwargs))
    warnings.push(
      'HuggingFacewithChatTemplate takes no chat_template_kwargs: upstream logs them as unused and renders without them.'
    )

  trace.prompt = text
  trace.addSpecialTokens = addSpecialTokens(h, !!fastchat)
  out.tokens = opts.countTokens ? opts.countTokens(text) : undefined
  const dbl = doubleBos(text, profile, trace.addSpecialTokens)
  if (dbl) out.signals.push(dbl)

  if (h.name === 'aisbench' && !processor) {
    const kw = h.model_kwargs.generation_kwargs
    const have = kw && typeof kw === 'object' && !Array.isArray(kw) ? (kw as Record<string, unknown>) : {}
    const missing = AIS_POPPED.find((k) => !(k in have))
    if (missing) trace.postPromptError = `KeyError: '${missing}'`
  }
  return out
}

/**
 * GenInferencer's `max_seq_len` example dropping as the wrappers measure it (OpenCompass only, and only when the
 * model config sets max_seq_len): `get_token_len_from_template` parses the prompt, `str()`s the parsed PromptList
 * (prompts joined with nothing) and counts the tokens of that string as ONE user message through the chat template
 * — not the multi-turn prompt that is sent, and without chat_template_kwargs.
 */
export function harnessSeqLimit(
  profile: ModelProfile,
  h: HarnessSpec,
  countTokens: (text: string) => TokenCount
): SeqLimit | undefined {
  const max = h.model_kwargs.max_seq_len
  if (h.name !== 'opencompass' || typeof max !== 'number' || !(max > 0)) return undefined
  const plain = profileWithoutKwargs(profile)
  return {
    maxSeqLen: max,
    tokenLen(prompt, mode) {
      const applied = applyMetaTemplate(prompt, wrapperMetaTemplate(h), { parser: 'api', mode, family: 'opencompass' })
      // A prompt the parser rejects fails the same way when it is sent; nothing is dropped for it here.
      if (!applied.parsed) return 0
      const json = parsedJson(applied.parsed)
      const text =
        typeof json === 'string'
          ? json
          : Array.isArray(json)
            ? json
                .map((x) =>
                  x && typeof x === 'object' && typeof (x as { prompt?: unknown }).prompt === 'string'
                    ? (x as { prompt: string }).prompt
                    : typeof x === 'string'
                      ? x
                      : ''
                )
                .join('')
            : ''
      const r = renderForModel(
        plain,
        { messages: [{ role: 'user', content: text }] },
        { addGenerationPrompt: true, signals: false, countTokens }
      )
      return r.tokens?.count ?? 0
    }
  }
}

const plainProfiles = new WeakMap<ModelProfile, ModelProfile>()
function profileWithoutKwargs(profile: ModelProfile): ModelProfile {
  let p = plainProfiles.get(profile)
  if (!p) plainProfiles.set(profile, (p = { ...profile, chat_template_kwargs: undefined }))
  return p
}

/** How the wrapper encodes the text: HF and vLLM chat paths without special tokens, HF FastChat with them. */
function addSpecialTokens(h: HarnessSpec, fastchat: boolean): boolean | null {
  if (h.wrapper === 'HuggingFacewithChatTemplate') return fastchat
  if (h.wrapper === 'VLLMwithChatTemplate') return fastchat ? null : false
  // HuggingFaceQwen2VLwithChatTemplate: self.processor(text=text, …) tokenizes with the tokenizer's defaults.
  if (h.wrapper === 'HuggingFaceQwen2VLwithChatTemplate') return true
  return null
}

/** A BOS twice in what is tokenized: the text's own, plus the tokenizer's when it adds special tokens. */
function doubleBos(text: string, profile: ModelProfile, addSpecial: boolean | null | undefined): Signal | null {
  const bos = profile.special_tokens.bos_token
  if (!bos) return null
  const added = addSpecial !== false && profile.add_bos_token === true
  const tokenized = (added ? bos : '') + text
  if (!tokenized.startsWith(bos + bos)) return null
  return {
    code: 'double-bos',
    severity: 'error',
    message: added
      ? `The text starts with ${bos} and the tokenizer adds another when it encodes it: the model sees BOS twice.`
      : `The text starts with BOS twice (${bos}${bos}).`,
    detail: { bos, source: added ? 'template+tokenizer' : 'text' }
  }
}

/** Upstream behaviours a reader would not expect, said once per request. */
function noteQuirks(
  prompt: Prompt,
  messages: Array<{ role: string; content: unknown }>,
  h: HarnessSpec,
  warnings: string[]
): void {
  if (!Array.isArray(prompt)) return
  const hasSystem = prompt.some((it) => it.t === 'd' && it.d.role === 'SYSTEM')
  if (hasSystem && !messages.some((m) => m.role === 'system'))
    warnings.push(
      `${harnessLabel(h)}: the SYSTEM prompt is sent as part of the first user turn (the default meta template maps SYSTEM to HUMAN); the chat template's own default system prompt, if any, still applies.`
    )
  if (
    h.name === 'opencompass' &&
    !truthy(h.model_kwargs.meta_template) &&
    messages.some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.endsWith('\n'))
  )
    warnings.push(
      `${harnessLabel(h)}: every user turn ends in "\\n" (the default meta template's empty SYSTEM round role is merged into it).`
    )
}
