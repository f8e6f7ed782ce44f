// Renders one dataset row for the exact-input matrix: the dataset-side PromptList (with where every piece came
// from), then each chosen model's own input — an OpenCompass meta template applied to that PromptList, or the
// messages OpenCompass would send through a chat template / FastChat / LazyLLM / an API — with token counts and
// every warning and signal.
import type { ModelRender, Diagnostic, PromptBlock, ReferenceAnswer, RenderItem, Segment } from '../../../shared/api/types'
import {
  applyMetaTemplate,
  clpRefusal,
  parseMode,
  swcePromptCheck,
  swceRefusal,
  buildPromptList,
  isMultiTurn,
  turnPrompts,
  chatMessages,
  openAiMessages,
  parsedJson,
  pyRepr,
  stripAnsi,
  toPlainJson,
  toSegments,
  type EngineError,
  type EngineWarning,
  type Mode,
  type BuiltRow,
  type Prepared,
  type Prompt,
  type PromptList,
  chatApiParse,
  chatList,
  chatLmParse,
  chatPromptList,
  chatTurns,
  isChatInferencer,
  toEngineError,
  type ChatMessageJson,
  type Row
} from '../../../shared/engine'
import { renderMetaTemplate } from '../../../shared/models/meta-template'
import { harnessFor, harnessSeqLimit, renderForModel, wrapChatHistory, wrapChatPrompt, type HarnessSpec, type ModelProfile, type WrapResult } from '../../../shared/models'
import type { ChatMessage } from '../../../shared/models/renderers'
import { chatTemplateMediaSignals, countPhrase, mediaPartsOf, partModality, partRef, profileModalities, type MediaPartRef } from '../../../shared/models/multimodal'
import { audioTokenCost, imageTokenCost, videoTokenCost, type AudioLength, type MediaTokenCost } from '../../../shared/models/media-tokens'
import type { ModelMediaPart } from '../../../shared/api/types'
import type { TokenCounter } from '../models/tokenizer'
import { metaSeqLimit, withExamples } from './seq-limit'
import { conversationOf } from './variants'
import { partMedia } from '../../../shared/conversation'
import { renderConversationRow } from './render-conversation'
import { errorText } from '../../../shared/python/errors'
import { diagnostic, type DiagnosticData } from '../../../shared/diagnostics'

export interface ModelContext {
  profile: ModelProfile
  counter: TokenCounter
}

export function engineProblem(e: EngineError | EngineWarning, severity: Diagnostic['severity']): Diagnostic {
  const data: DiagnosticData = {}
  for (const [k, v] of Object.entries(e.at ?? {})) if (typeof v === 'string' || typeof v === 'number') data[k] = v
  const stage = 'stage' in e ? (e as EngineError).stage : undefined
  // The engine keeps upstream's exact text (AISBench colours it with ANSI codes); people read it without them.
  const message = stripAnsi(e.message)
  return diagnostic(e.code, severity, stage ? `${stage}: ${message}` : message, { data })
}

/** The PromptList as role blocks for display; a plain string prompt is one block. */
export function promptBlocks(prompt: Prompt): PromptBlock[] {
  if (!Array.isArray(prompt)) return [{ segments: toSegments(prompt) }]
  return prompt.map((it) => {
    if (it.t === 's') return { segments: toSegments(it.s) }
    if (it.t === 'd') {
      const d = it.d
      if (typeof d.section === 'string') return { section: `${d.section} ${String(d.pos)}`, segments: [] }
      const role = typeof d.role === 'string' ? d.role : undefined
      // A chat message whose content is parts (text and media): the text as it is, each medium named, never its data.
      if (!it.p && it.pk === 'content' && Array.isArray(d.content)) return { role, segments: partSegments(d.content, role) }
      const segs: Segment[] = it.p ? toSegments(it.p) : [{ text: typeof d.prompt === 'string' ? d.prompt : JSON.stringify(d.prompt ?? null), source: { kind: 'template' } }]
      return { role, segments: segs }
    }
    return { segments: [{ text: JSON.stringify(it.v), source: { kind: 'template' } }] }
  })
}

/** Content parts for display: text parts as text, each media part as a short label (kind and reference, no base64). */
function partSegments(parts: unknown[], role: string | undefined): Segment[] {
  return parts.map((p): Segment => {
    const o = (p && typeof p === 'object' ? p : {}) as Record<string, unknown>
    if (o.type === 'text' && typeof o.text === 'string') return { text: o.text, source: { kind: 'field', field: role ?? 'content' } }
    const m = partMedia(p)
    if (!m) return { text: `⟨${typeof o.type === 'string' ? o.type : 'part'}⟩`, source: { kind: 'media' } }
    const inline = m.ref.startsWith('data:') || m.ref.length > 256
    const label = inline ? `inline ${m.kind}, ${m.ref.length.toLocaleString()} chars` : `${m.kind}: ${m.ref}`
    return { text: `⟨${label}⟩`, source: { kind: 'media' } }
  })
}

function tokensOf(counter: TokenCounter, text: string) {
  return counter.count(text)
}

/**
 * One frozen object for every row of a plain-string template: an export shares the problem list of lines whose
 * problems are the same objects, and encodes it once (export.ts, sharedProblems).
 */
const META_NOT_APPLIED: Diagnostic = Object.freeze({
  code: 'meta-template-not-applied',
  message: "The dataset template is a plain string, so OpenCompass sends it unchanged: this model's meta template (roles, special tokens) is not applied. Use a dialogue template (round=[…]) to get them.",
  severity: 'info'
})

/**
 * OpenCompass meta-template profile: the meta template applied to the PromptList itself (renderMetaTemplate, the
 * function renderForModel uses for a conversation too), in the inferencer's mode (a PPL label prompt is parsed with
 * mode='ppl': no generation prompt after the last turn).
 */
function renderMeta(prompt: Prompt, m: ModelContext, family: Prepared['family'], row: number, spans: boolean, mode: Mode = 'gen'): ModelRender {
  const p = m.profile
  const parser = p.meta_parser ?? 'lm'
  const { applied, input } = renderMetaTemplate(prompt, p, { mode, family, row, spans })
  const problems = applied.warnings.map((w) => engineProblem(w, 'warning'))
  // Upstream's LMTemplateParser returns a plain-string prompt untouched: no role markers, no BOS.
  if (!Array.isArray(prompt) && p.meta_template && parser === 'lm') problems.push(META_NOT_APPLIED)
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  if (applied.error || !applied.parsed || !input) {
    return { ...base, kind: 'text', text: '', problems: [...problems, engineProblem(applied.error!, 'error')] }
  }
  if (input.kind === 'text') {
    const tokens = tokensOf(m.counter, input.text)
    const mm = parser === 'lm' ? lmDroppedMedia(prompt, p.name, p.meta_family ?? family) : null
    if (mm) problems.push(...mm.problems)
    return { ...base, kind: 'text', text: input.text, segments: input.segments as Segment[], tokens, ...(mm?.media.length ? { media: mm.media } : {}), problems: withLength(problems, tokens.count, p.context_length) }
  }
  const json = parsedJson(applied.parsed)
  // An API model receives the API parser's messages after OpenCompass's OpenAI conversion (HUMAN → user, …);
  // the conversion maps item for item, so each message keeps its spans.
  let sent: unknown
  try {
    sent = sentMessages(applied.parsed.kind, json)
  } catch (e) {
    return { ...base, kind: 'text', text: '', problems: [...problems, { code: 'conversion-error', message: errorText(e), severity: 'error' }] }
  }
  const items = input.kind === 'messages' ? input.items : []
  const messages = (sent as { role?: unknown; content: unknown }[]).map((x, i) => {
    const it = items[i]
    const segments = it && !('raw' in it) && typeof x.content === 'string' ? (it.segments as Segment[] | undefined) : undefined
    return { role: String(x.role ?? '(none)'), content: typeof x.content === 'string' ? x.content : (x.content as unknown[]), segments }
  })
  // Inline media (data: URLs, base64) is never counted as text: the API's model counts the picture its own way.
  const tokens = tokensOf(m.counter, JSON.stringify(withoutMediaData(sent)))
  const media = apiMedia(sent as { content?: unknown }[])
  return { ...base, kind: 'messages', messages, tokens, ...(media.length ? { media } : {}), problems: withLength(problems, tokens.count, p.context_length) }
}

/** Messages with every media part's reference emptied, for counting the text tokens. */
export function withoutMediaData(messages: unknown): unknown {
  if (!Array.isArray(messages)) return messages
  return messages.map((msg) => {
    if (!msg || typeof msg !== 'object' || !Array.isArray((msg as { content?: unknown }).content)) return msg
    const content = ((msg as { content: unknown[] }).content).map((part) => (partModality(part) ? { type: (part as { type?: unknown }).type } : part))
    return { ...(msg as object), content }
  })
}

/** Inline media never reaches the display as text: a data URL or base64 is abbreviated to its kind and length. */
export function shortRef(ref: string): string {
  if (/^data:/i.test(ref)) return `(data: URL, ${ref.length.toLocaleString()} chars)`
  if (ref.length > 256 && /^[A-Za-z0-9+/=\s]+$/.test(ref.slice(0, 256))) return `(inline, ${ref.length.toLocaleString()} chars)`
  return ref.length > 300 ? `${ref.slice(0, 200)}… (${ref.length.toLocaleString()} chars)` : ref
}

/** Media parts an API model receives as they are: the server's own model counts them. */
function apiMedia(messages: { content?: unknown }[]): ModelMediaPart[] {
  return mediaPartsOf(messages).map((x) => mediaPart({ modality: x.modality, ref: shortRef(x.ref), how: 'sent as a content part: the server\'s model counts it' }, x.ref))
}

/** The media parts of the dataset-side PromptList's role items (their prompt_mm lists), with the role of each. */
function promptMm(prompt: Prompt): { role: string; parts: unknown[]; hasPrompt: boolean }[] {
  if (!Array.isArray(prompt)) return []
  const out: { role: string; parts: unknown[]; hasPrompt: boolean }[] = []
  for (const it of prompt) {
    if (it.t !== 'd' || !Array.isArray(it.d.prompt_mm)) continue
    const hasPrompt = it.p ? it.p.text.length > 0 : typeof it.d.prompt === 'string' && it.d.prompt.length > 0
    out.push({ role: String(it.d.role ?? '(no role)'), parts: it.d.prompt_mm as unknown[], hasPrompt })
  }
  return out
}

/**
 * An LM meta template reads each role item's `prompt` (LMTemplateParser: begin + prompt + end): prompt_mm parts
 * are not read, so images, audio and the text parts of an MMPromptTemplate turn are dropped and a turn with only
 * prompt_mm is empty. The text is upstream's; the signals say what was lost.
 */
function lmDroppedMedia(prompt: Prompt, name: string, family: string): { problems: Diagnostic[]; media: ModelMediaPart[] } | null {
  const turns = promptMm(prompt)
  if (!turns.length) return null
  const problems: Diagnostic[] = []
  const media: ModelMediaPart[] = []
  const who = family === 'aisbench' ? 'AISBench' : 'OpenCompass'
  for (const t of turns) {
    const parts: MediaPartRef[] = []
    let texts = 0
    t.parts.forEach((part, j) => {
      const modality = partModality(part)
      if (modality) parts.push({ modality, ref: partRef(part), message: 0, part: j })
      else if (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text') texts++
    })
    for (const x of parts) media.push(mediaPart({ modality: x.modality, ref: shortRef(x.ref), dropped: true, how: 'dropped: an LM meta template reads only the turn\'s "prompt"' }, x.ref))
    const what = [parts.length ? countPhrase(parts) : '', texts ? `${texts} text part${texts === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ')
    if (what)
      problems.push({
        code: 'media-dropped',
        severity: 'warning',
        message: `Text-only model: ${what} of the ${t.role} turn dropped — ${name}'s LM meta template reads each turn's "prompt", not its prompt_mm, so ${who} sends it without them.`
      })
    if (!t.hasPrompt)
      problems.push({
        code: 'empty-turn',
        severity: 'warning',
        message: `The ${t.role} turn is empty: it has only prompt_mm, so the model receives the turn's role markers with nothing between them (as ${who}'s LMTemplateParser builds it).`
      })
  }
  return { problems, media }
}

/**
 * The messages an OpenAI-style API receives for a parsed prompt. A prompt that is only multimodal parts (AISBench
 * prompt_mm with no meta template: the parser returns the parts themselves) is one user message whose content is
 * those parts, as AISBench's service models send it; reading the parts as messages was the "KeyError: 'role'".
 */
export function sentMessages(kind: string, json: unknown): unknown {
  if (kind === 'parts') return [{ role: 'user', content: json }]
  return openAiMessages(json)
}

function withLength(problems: Diagnostic[], count: number, ctx: number): Diagnostic[] {
  if (count <= ctx) return problems
  return [...problems, { code: 'over-context', message: `${count.toLocaleString()} tokens exceed the context length ${ctx.toLocaleString()}`, severity: 'error' }]
}

/** Per profile, made once: every row's render of the profile carries the same list. */
const SPECIAL_TOKENS = new WeakMap<ModelProfile, string[]>()

function specialTokenList(p: ModelProfile): string[] {
  let out = SPECIAL_TOKENS.get(p)
  if (!out) SPECIAL_TOKENS.set(p, (out = listSpecialTokens(p)))
  return out
}

function listSpecialTokens(p: ModelProfile): string[] {
  const out: string[] = []
  for (const v of Object.values(p.special_tokens ?? {})) {
    if (typeof v === 'string') out.push(v)
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x)
  }
  return out
}

/**
 * Other formats take a conversation. OpenCompass turns the PromptList into messages with the API parser and
 * its HF-chat conversion (empty turns skipped, same roles merged) before a chat template sees them; an
 * OpenAI-style API gets OpenCompass's OpenAI conversion.
 */
function renderConversation(prompt: Prompt, m: ModelContext, family: Prepared['family'], row: number): ModelRender {
  const p = m.profile
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  const applied = applyMetaTemplate(prompt, null, { parser: 'api', mode: 'gen', family, row })
  const problems = applied.warnings.map((w) => engineProblem(w, 'warning'))
  if (applied.error || !applied.parsed) return { ...base, kind: 'text', text: '', problems: [...problems, engineProblem(applied.error!, 'error')] }
  const json = parsedJson(applied.parsed)
  let messages: ChatMessage[]
  try {
    const conv = p.format === 'openai-messages' ? sentMessages(applied.parsed.kind, json) : chatMessages(json)
    messages = conv as ChatMessage[]
  } catch (e) {
    return { ...base, kind: 'text', text: '', problems: [...problems, { code: 'conversion-error', message: errorText(e), severity: 'error' }] }
  }
  return renderMessages(messages, m, problems)
}

/** A conversation through the profile's own format (FastChat, LazyLLM, an API, …), with its signals. */
export function renderMessages(messages: ChatMessage[], m: ModelContext, problems: Diagnostic[], opts: { processor?: boolean } = {}): ModelRender {
  const p = m.profile
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  const r = renderForModel(p, { messages }, { addGenerationPrompt: true, countTokens: (t) => m.counter.count(t), processor: opts.processor })
  const parts = mediaPartsOf(messages)
  let media: ModelMediaPart[] | undefined
  if (parts.length && p.format === 'openai-messages') media = apiMedia(messages)
  else if (parts.length && p.format === 'hf-chat-template') {
    // A chat template rendered directly (transformers' processor path): placeholders written against parts received.
    media = templateMedia(p, parts, r.error ? null : (r.text ?? ''))
    problems.push(...chatTemplateMediaSignals(p, parts, r.error ? { error: r.error.message, listContent: true } : { text: r.text ?? '' }))
  } else if (parts.length) {
    // FastChat and LazyLLM take text: content parts are joined as their text.
    const takes = profileModalities(p)
    media = parts.map((x) => mediaPart({ modality: x.modality, ref: shortRef(x.ref), dropped: !takes.includes(x.modality) }, x.ref))
    const dropped = parts.filter((x) => !takes.includes(x.modality))
    if (dropped.length) problems.push({ code: 'media-dropped', message: `Text-only model: ${countPhrase(dropped)} dropped — ${p.format === 'fastchat' ? 'FastChat' : p.format === 'lazyllm' ? 'LazyLLM' : p.name} builds a string from the text parts only.`, severity: 'warning' })
  }
  for (const w of r.warnings) problems.push({ code: 'format-warning', message: w, severity: 'warning' })
  for (const s of r.signals) problems.push({ code: s.code, message: s.message, severity: s.severity })
  if (r.error) problems.push({ code: r.error.code, message: r.error.message, severity: 'error' })
  const tokens = r.tokens ?? (r.text !== undefined ? m.counter.count(r.text) : m.counter.count(JSON.stringify(r.messages ?? [])))
  if (r.kind === 'text') {
    const text = r.text ?? ''
    return { ...base, kind: 'text', text, segments: [{ text, source: { kind: 'chat-template' } }], tokens, ...(media ? { media } : {}), inputMessages: messages, problems: dedupe(withLength(problems, tokens.count, p.context_length)) }
  }
  // renderForModel counts the text parts only: inline media is never counted as text.
  return {
    ...base,
    kind: 'messages',
    messages: (r.messages ?? []).map((x) => ({ role: x.role, content: typeof x.content === 'string' ? x.content : (x.content as unknown[]) })),
    tokens,
    ...(media ? { media } : {}),
    problems: dedupe(withLength(problems, tokens.count, p.context_length))
  }
}

/**
 * A chat-template model as its harness wraps it (OpenCompass/AISBench *withChatTemplate): the wrapper's own parser
 * and meta template, `_convert_chat_messages`, then the chat template or FastChat, then what the wrapper does with
 * the text. Where upstream stops (a template that rejects the roles, PPL), the column says so instead of a text.
 */
function renderHarness(prompt: Prompt, m: ModelContext, h: HarnessSpec, row: number, mode: Mode, at?: { table: Row[]; tableIndex: number; labelPrompts?: Prompt[] }): ModelRender {
  return harnessRender(wrapChatPrompt(prompt, m.profile, h, { mode, row, data: at?.table[at.tableIndex], ...at, countTokens: (t) => m.counter.count(t) }), m)
}

export function harnessRender(r: WrapResult, m: ModelContext): ModelRender {
  const p = m.profile
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  const t = r.trace
  const problems: Diagnostic[] = r.warnings.map((w) => ({ code: 'harness', message: w, severity: 'info' }))
  for (const s of r.signals) problems.push({ code: s.code, message: s.message, severity: s.severity })
  // What the chat template received: its media parts, against what the model takes and what the template wrote.
  const received = Array.isArray(t.chatMessages) ? (t.chatMessages as { content?: unknown }[]) : []
  const parts = mediaPartsOf(received)
  const listContent = received.some((x) => Array.isArray(x.content))
  if (t.error?.stage === 'apply_chat_template') problems.push(...chatTemplateMediaSignals(p, parts, { error: t.error.message, listContent }))
  else if (!t.error && t.prompt !== undefined) problems.push(...chatTemplateMediaSignals(p, parts, { text: t.prompt }))
  const media = parts.length ? templateMedia(p, parts, t.error ? null : (t.prompt ?? '')) : undefined
  if (t.error) {
    const message =
      t.error.stage === 'ppl'
        ? `${t.label} cannot score PPL (upstream: ${t.error.message}); use a gen variant, or a model class that implements get_ppl.`
        : `${t.label} fails at ${t.error.stage}: ${t.error.message}`
    problems.push({ code: t.error.stage === 'ppl' ? 'ppl-unsupported' : 'harness-error', message, severity: 'error' })
    return { ...base, kind: 'text', text: '', harness: t, ...(media ? { media } : {}), problems: dedupe(problems) }
  }
  if (t.postPromptError)
    problems.push({
      code: 'harness-generate-error',
      message: `${t.label}: generate() then fails with ${t.postPromptError} — its generation_kwargs must carry is_synthetic, batch_size and do_performance.`,
      severity: 'warning'
    })
  const text = t.prompt ?? ''
  const tokens = r.tokens ?? m.counter.count(text)
  return { ...base, kind: 'text', text, segments: [{ text, source: { kind: 'chat-template' } }], tokens, harness: t, ...(media ? { media } : {}), problems: dedupe(withLength(problems, tokens.count, p.context_length)) }
}

/**
 * Each media part a chat template received, with the placeholder the profile's template writes for it; parts the
 * model does not take, or beyond the placeholders the template wrote (per modality), are marked dropped.
 */
function templateMedia(p: ModelProfile, parts: MediaPartRef[], text: string | null): ModelMediaPart[] {
  const takes = profileModalities(p)
  const seen: Record<string, number> = {}
  return parts.map((x) => {
    const ph = p.media?.[x.modality]?.placeholder
    const k = (seen[x.modality] = (seen[x.modality] ?? 0) + 1)
    const written = ph && text !== null ? text.split(ph).length - 1 : 0
    const dropped = text === null || !takes.includes(x.modality) || (ph !== undefined && k > written)
    return mediaPart({ modality: x.modality, ref: shortRef(x.ref), ...(ph ? { placeholder: ph } : {}), ...(dropped ? { dropped: true } : {}) }, x.ref)
  })
}

// The reference a part carries in full (a data URL, base64): kept beside the shown part, never sent to the renderer.
const fullRefs = new WeakMap<ModelMediaPart, string>()
function mediaPart(part: ModelMediaPart, full: string): ModelMediaPart {
  fullRefs.set(part, full)
  return part
}

/** A picture's size, by the reference as a part carries it (file:// URL, path, data URL); null when unknown. */
export type MediaSizeOf = (ref: string) => { width: number; height: number } | null

/** An audio clip's exact length, by the reference as a part carries it; null when unknown. */
export type AudioLengthOf = (ref: string) => AudioLength | null

/** What the workspace knows about a row's media: picture sizes, clip lengths, and the URL the renderer loads each from. */
export interface RowMediaInfo {
  sizeOf?: MediaSizeOf
  audioOf?: AudioLengthOf
  urlOf?: (ref: string) => string | undefined
}

/**
 * The media's own token cost where the profile's rule is known (shared/models/media-tokens.ts), with the real
 * picture size or clip length; added to the text count. Parts dropped cost nothing; unknown rules or sizes are counted as unknown.
 */
export function withMediaTokens(r: ModelRender, m: ModelContext, family: Prepared['family'], info: RowMediaInfo = {}): ModelRender {
  if (!r.media?.length) return r
  const urls = info.urlOf ? r.media.map((x) => info.urlOf!(fullRefs.get(x) ?? x.ref)) : []
  const withUrls = urls.some(Boolean) ? r.media.map((x, i) => (urls[i] ? mediaPart({ ...x, url: urls[i] }, fullRefs.get(x) ?? x.ref) : x)) : r.media
  // An API model's server counts its media itself: nothing is added here.
  if (!r.tokens || r.kind === 'messages') return { ...r, media: withUrls }
  const h = harnessFor(m.profile, family)
  const vk = h?.model_kwargs.vision_kwargs
  const visionKwargs = vk && typeof vk === 'object' && !Array.isArray(vk) ? (vk as Record<string, unknown>) : {}
  let add = 0
  let unknown = 0
  // The pictures this model's prompt holds (LLaVA-OneVision counts a picture among several differently).
  const images = withUrls.filter((x) => x.modality === 'image' && !x.dropped && x.placeholder !== undefined).length
  const media = withUrls.map((x) => {
    if (x.dropped || r.kind === 'messages' || x.placeholder === undefined) return x
    const ref = fullRefs.get(x) ?? x.ref
    let c: MediaTokenCost
    if (x.modality === 'image') c = imageTokenCost(m.profile.media?.image?.tokens, info.sizeOf ? info.sizeOf(ref) : null, visionKwargs, images)
    else if (x.modality === 'audio') c = audioTokenCost(m.profile.media?.audio?.tokens, info.audioOf ? info.audioOf(ref) : null)
    else if (x.modality === 'video') c = videoTokenCost(m.profile.media?.video?.tokens)
    else c = { tokens: null, how: `no ${x.modality} token rule is known: the count is the text only` }
    if (c.tokens === null) unknown++
    else add += c.tokens
    return { ...x, tokens: c.tokens, how: c.how, ...(c.crossAttention ? { crossAttention: c.crossAttention } : {}) }
  })
  const tokens = { ...r.tokens, count: r.tokens.count + add, media: add, ...(unknown ? { mediaUnknown: unknown } : {}) }
  const problems = r.contextLength ? withLength(r.problems.filter((q) => q.code !== 'over-context'), tokens.count, r.contextLength) : r.problems
  return { ...r, media, tokens, problems }
}

export function dedupe(ps: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>()
  return ps.filter((p) => {
    const k = `${p.code}\0${p.message}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/** One request of a row (a PPL label or a multi-turn turn) with its PromptList, for export and the matrix. */
export interface RenderedItem extends RenderItem {
  prompt: Prompt
}

export interface RenderedForModels {
  promptList: PromptBlock[]
  prompt: Prompt | null
  models: ModelRender[]
  problems: Diagnostic[]
  /** The conversation template: the row's final assistant turn, its reference answer (not sent to the models). */
  reference?: ReferenceAnswer | null
  /** Several requests per row (PPL labels, multi-turn turns); the fields above are the first one's. */
  items?: RenderedItem[]
  itemKind?: 'label' | 'turn'
}

/**
 * Inferencers that decide a model's input themselves. CLP, SWCELoss and LL inferencers refuse API models (an
 * API parser column; every chat wrapper is a local model); SWCELossInferencer tokenizes the prompt text as it is,
 * so every other model gets that text, with no meta or chat template. Null: the usual rendering applies.
 */
function ownInferencerRender(prompt: Prompt, prepared: Prepared, m: ModelContext, h: HarnessSpec | null, rowIndex: number, spans: boolean): ModelRender | null {
  const type = prepared.inferencer.type
  const scored = type === 'PPLInferencer' || type === 'PPLOnlyInferencer'
  if (type !== 'CLPInferencer' && type !== 'SWCELossInferencer' && type !== 'LLInferencer' && !scored) return null
  const base = { modelId: m.profile.id, modelName: m.profile.name, contextLength: m.profile.context_length, specialTokens: specialTokenList(m.profile) }
  const api = !h && m.profile.format === 'opencompass-meta' && m.profile.meta_parser === 'api'
  if (scored) {
    // OpenCompass's API model classes inherit BaseAPIModel.get_ppl, which raises (AISBench's API models score PPL).
    if (!api || prepared.family !== 'opencompass') return null
    return {
      ...base,
      kind: 'text',
      text: '',
      problems: [{ code: 'NotImplementedError', severity: 'error', message: `inferencer: ${type} scores each prompt with model.get_ppl, which OpenCompass's API model classes do not implement: BaseAPIModel.get_ppl raises NotImplementedError ('<model class> does not support ppl-based evaluation yet, try gen-based instead.')` }]
    }
  }
  const fail = (e: unknown): ModelRender => ({ ...base, kind: 'text', text: '', problems: [engineProblem(toEngineError(e, 'inferencer', { row: rowIndex }), 'error')] })
  if (type === 'LLInferencer') {
    // Only the HuggingFace model classes define get_loglikelihood; the API classes have no such method.
    if (!api) return null
    return {
      ...base,
      kind: 'text',
      text: '',
      problems: [{ code: 'AttributeError', severity: 'error', message: "inferencer: LLInferencer calls model.get_loglikelihood, which only OpenCompass's HuggingFace model classes define: an API model fails with AttributeError ('… object has no attribute get_loglikelihood')" }]
    }
  }
  if (type === 'CLPInferencer') {
    const refused = api ? clpRefusal('api') : null
    return refused ? fail(refused) : null
  }
  const refused = api ? swceRefusal('api') : swcePromptCheck(prompt, rowIndex)
  if (refused) return fail(refused)
  const s = prompt as Exclude<Prompt, PromptList>
  const tokens = tokensOf(m.counter, s.text)
  return { ...base, kind: 'text', text: s.text, ...(spans ? { segments: toSegments(s) as Segment[] } : {}), tokens, problems: withLength([], tokens.count, m.profile.context_length) }
}

/**
 * Each model's input for one request. A chat wrapper whose config sets max_seq_len measures the prompt its own way
 * to drop in-context examples, so its PromptList is rebuilt with that measure (`item`: the label's index for PPL).
 */
function renderModels(prompt: Prompt, prepared: Prepared, rowIndex: number, models: ModelContext[], spans: boolean, mode: Mode, own?: { testIndex: number; item: number; built: BuiltRow; labelPrompts?: Prompt[] }): ModelRender[] {
  const at = own ? { table: prepared.test, tableIndex: own.testIndex, labelPrompts: own.labelPrompts } : undefined
  return models.map((m) => {
    const h = harnessFor(m.profile, prepared.family)
    const byInferencer = ownInferencerRender(prompt, prepared, m, h, rowIndex, spans)
    if (byInferencer) return byInferencer
    const render = (p: Prompt): ModelRender =>
      h ? renderHarness(p, m, h, rowIndex, mode, at) : m.profile.format === 'opencompass-meta' ? renderMeta(p, m, prepared.family, rowIndex, spans, mode) : renderConversation(p, m, prepared.family, rowIndex)
    const limit = !own ? undefined : h ? harnessSeqLimit(m.profile, h, (t) => m.counter.count(t)) : metaSeqLimit(m, prepared.family)
    if (!limit || !own) return render(prompt)
    const built = buildPromptList(prepared, own.testIndex, limit, own.built)
    const item = built.items[own.item]
    return withExamples(render(item?.prompt ?? prompt), prepared.iceIdx[own.testIndex]?.length ?? 0, item, limit, mode, h ? `${h.wrapper} ` : '', m.counter.exact)
  })
}

/**
 * `spans: false` (bulk export without --spans) skips everything only the display needs: the span bookkeeping and
 * the PromptList blocks. The text is the same either way.
 */
export function renderPreparedRow(prepared: Prepared, testIndex: number, rowIndex: number, models: ModelContext[], spans = true, media?: RowMediaInfo): RenderedForModels {
  const r = renderPreparedRowText(prepared, testIndex, rowIndex, models, spans)
  const costs = (rs: ModelRender[]) => rs.map((x, j) => (x.media?.length && models[j] ? withMediaTokens(x, models[j], prepared.family, media) : x))
  if (!r.models.some((x) => x.media?.length) && !r.items?.some((it) => it.models.some((x) => x.media?.length))) return r
  return { ...r, models: costs(r.models), ...(r.items ? { items: r.items.map((it) => ({ ...it, models: costs(it.models) })) } : {}) }
}

function renderPreparedRowText(prepared: Prepared, testIndex: number, rowIndex: number, models: ModelContext[], spans: boolean): RenderedForModels {
  const conv = conversationOf(prepared.input)
  if (conv) return renderConversationRow(prepared, conv, testIndex, rowIndex, models, spans)
  if (isChatInferencer(prepared)) return renderChatRow(prepared, testIndex, rowIndex, models, spans)
  const built = buildPromptList(prepared, testIndex)
  const problems = built.warnings.map((w) => engineProblem(w, 'warning'))
  if (built.error || built.items.length === 0) {
    if (built.error) problems.push(engineProblem(built.error, 'error'))
    return { promptList: [], prompt: null, models: [], problems }
  }
  const blocks = (prompt: Prompt) => (spans ? promptBlocks(prompt) : [])
  if (prepared.mode === 'ppl') {
    // OpenCompass scores one prompt per label; each model parses each with mode='ppl'.
    const labelPrompts = built.items.map((b) => b.prompt)
    const items: RenderedItem[] = built.items.map((b, i) => ({
      title: pyRepr(b.label),
      label: toPlainJson(b.label),
      prompt: b.prompt,
      promptList: blocks(b.prompt),
      models: renderModels(b.prompt, prepared, rowIndex, models, spans, 'ppl', { testIndex, item: i, built, labelPrompts })
    }))
    return { ...firstOf(items), problems, items, itemKind: 'label' }
  }
  const prompt = built.items[0].prompt
  if (isMultiTurn(prepared)) {
    const split = turnPrompts(prepared, prompt, testIndex)
    problems.push(...split.warnings.map((w) => engineProblem(w, 'warning')))
    // No request can be made (infer_mode='last', a bad mode): the dialogue still shows, no model input does.
    if (split.error) return { promptList: blocks(prompt), prompt, models: [], problems: [...problems, engineProblem(split.error, 'error')] }
    const items: RenderedItem[] = split.turns.map((t) => ({
      title: String(t.turn),
      turn: t.turn,
      history: t.history,
      prompt: t.prompt,
      promptList: blocks(t.prompt),
      models: renderModels(t.prompt, prepared, rowIndex, models, spans, 'gen')
    }))
    if (items.length === 0) return { promptList: blocks(prompt), prompt, models: [], problems }
    return { ...firstOf(items), problems, items, itemKind: 'turn' }
  }
  return { promptList: blocks(prompt), prompt, models: renderModels(prompt, prepared, rowIndex, models, spans, parseMode(prepared), { testIndex, item: 0, built }), problems }
}

/**
 * OpenCompass ChatInferencer: the row becomes a chat and each assistant turn a request of the history before it;
 * the inferencer's own chat parser replaces each model's template parser (shared/engine/chat-inferencer.ts).
 */
function renderChatRow(prepared: Prepared, testIndex: number, rowIndex: number, models: ModelContext[], spans: boolean): RenderedForModels {
  const warnings: EngineWarning[] = []
  let turns
  let chat: ChatMessageJson[]
  try {
    chat = chatList(prepared, testIndex, warnings)
    turns = chatTurns(prepared, chat, testIndex, prepared.input.model_outputs?.[testIndex])
  } catch (e) {
    return { promptList: [], prompt: null, models: [], problems: [...warnings.map((w) => engineProblem(w, 'warning')), engineProblem(toEngineError(e, 'prompt', { row: testIndex }), 'error')] }
  }
  const problems = warnings.map((w) => engineProblem(w, 'warning'))
  const blocks = (prompt: Prompt) => (spans ? promptBlocks(prompt) : [])
  const items: RenderedItem[] = turns.map((t) => {
    const prompt = chatPromptList(t.history)
    return {
      title: String(t.turn),
      turn: t.turn,
      history: { source: t.source, answers: t.history.filter((x) => x.role === 'assistant').map((x) => String(x.content ?? '')) },
      prompt,
      promptList: blocks(prompt),
      models: models.map((m) => renderChatTurn(t.history, m, prepared, rowIndex))
    }
  })
  if (items.length === 0) {
    const whole = chatPromptList(chat)
    return { promptList: blocks(whole), prompt: whole, models: [], problems }
  }
  return { ...firstOf(items), problems, items, itemKind: 'turn' }
}

/**
 * AgentInferencer: the messages the agent gets for this request (its history and the user message: infer_last's
 * set_history(chat[:user_idx]) + chat(content); infer_every's chat(content, history)). The agent (LagentAgent /
 * CodeAgent) writes the LLM's prompt from them with its protocol, which only the agent library knows.
 */
function agentTurn(history: ChatMessageJson[], m: ModelContext, prepared: Prepared, base: Pick<ModelRender, 'modelId' | 'modelName' | 'contextLength' | 'specialTokens'>): ModelRender {
  const messages = history.map((x) => ({ role: x.role, content: typeof x.content === 'string' ? x.content : (x.content as unknown[]) }))
  const tokens = m.counter.count(JSON.stringify(messages))
  const mode = prepared.inferencer.inferMode ?? 'last'
  const steps =
    mode === 'every' ? " Earlier assistant turns are the agent's own steps (its inner_steps), shown as placeholders." : mode === 'every_with_gt' ? " Earlier assistant turns reach the agent through its gt_response(), in the agent's own step format, shown here as the dataset has them." : ''
  return {
    ...base,
    kind: 'messages',
    messages,
    tokens,
    problems: [
      {
        code: 'agent-protocol',
        severity: 'warning',
        message: `AgentInferencer hands these messages to an agent model (LagentAgent / CodeAgent, opencompass.models.lagent), which writes ${m.profile.name}'s prompt with its own protocol (system prompt, tool descriptions, ReAct steps) and runs tools between calls: that prompt needs the agent library and is not shown. A plain model config fails upstream (AgentInferencer reads model.agent).${steps}`
      }
    ]
  }
}

/** One ChatInferencer request through a model: its chat parser (LM: begin/content/end; API: api_role) or format. */
function renderChatTurn(history: ChatMessageJson[], m: ModelContext, prepared: Prepared, row: number): ModelRender {
  const p = m.profile
  const h = harnessFor(p, prepared.family)
  if (h) return harnessRender(wrapChatHistory(history, p, h, { mode: 'gen', row, countTokens: (t) => m.counter.count(t) }), m)
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  const fail = (e: unknown): ModelRender => ({ ...base, kind: 'text', text: '', problems: [engineProblem(toEngineError(e, 'parse', { row }), 'error')] })
  if (prepared.inferencer.type === 'AgentInferencer') return agentTurn(history, m, prepared, base)
  if (p.format === 'opencompass-meta' && (p.meta_parser ?? 'lm') === 'lm') {
    try {
      const text = chatLmParse(history, p.meta_template ?? null)
      const tokens = m.counter.count(text)
      return { ...base, kind: 'text', text, segments: [{ text, source: { kind: 'meta' } }], tokens, problems: withLength([], tokens.count, p.context_length) }
    } catch (e) {
      return fail(e)
    }
  }
  if (p.format === 'opencompass-meta') {
    try {
      const sent = openAiMessages(chatApiParse(history, p.meta_template ?? null)) as { role?: unknown; content: unknown }[]
      const tokens = m.counter.count(JSON.stringify(sent))
      const messages = sent.map((x) => ({ role: String(x.role ?? '(none)'), content: typeof x.content === 'string' ? x.content : (x.content as unknown[]) }))
      return { ...base, kind: 'messages', messages, tokens, problems: withLength([], tokens.count, p.context_length) }
    } catch (e) {
      return fail(e)
    }
  }
  return renderMessages(history as ChatMessage[], m, [])
}

function firstOf(items: RenderedItem[]): Pick<RenderedForModels, 'promptList' | 'prompt' | 'models'> {
  const first = items[0]
  return { promptList: first?.promptList ?? [], prompt: first?.prompt ?? null, models: first?.models ?? [] }
}

/** The items as the API carries them: the engine's PromptList stays behind. */
export function apiItems(items: RenderedItem[] | undefined): RenderItem[] | undefined {
  return items?.map(({ prompt: _prompt, ...rest }) => rest)
}
