// Renders one dataset row for the exact-input matrix: the dataset-side PromptList (with where every piece came
// from), then each chosen model's own input — an OpenCompass meta template applied to that PromptList, or the
// messages OpenCompass would send through a chat template / FastChat / LazyLLM / an API — with token counts and
// every warning and signal.
import type { ModelRender, Problem, PromptBlock, ReferenceAnswer, RenderItem, Segment } from '../../../shared/api/types'
import {
  applyMetaTemplate,
  buildPromptList,
  isMultiTurn,
  turnPrompts,
  chatMessages,
  openAiMessages,
  parsedJson,
  pyRepr,
  stripAnsi,
  toModelInput,
  toPlainJson,
  toSegments,
  type EngineError,
  type EngineWarning,
  type Mode,
  type Prepared,
  type Prompt,
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
import { harnessFor, harnessSeqLimit, renderForModel, wrapChatHistory, wrapChatPrompt, type HarnessSpec, type ModelProfile, type WrapResult } from '../../../shared/models'
import type { ChatMessage } from '../../../shared/models/renderers'
import type { TokenCounter } from '../models/tokenizer'
import { metaSeqLimit, withExamples } from './seq-limit'
import { conversationOf } from './variants'
import { partMedia } from '../../../shared/conversation'
import { renderConversationRow } from './render-conversation'

export interface ModelContext {
  profile: ModelProfile
  counter: TokenCounter
}

export function engineProblem(e: EngineError | EngineWarning, severity: Problem['severity']): Problem {
  const at: Record<string, string | number> = {}
  for (const [k, v] of Object.entries(e.at ?? {})) if (typeof v === 'string' || typeof v === 'number') at[k] = v
  const stage = 'stage' in e ? (e as EngineError).stage : undefined
  // The engine keeps upstream's exact text (AISBench colours it with ANSI codes); people read it without them.
  const message = stripAnsi(e.message)
  return { code: e.code, message: stage ? `${stage}: ${message}` : message, severity, at }
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
 * OpenCompass meta-template profile: the engine applies the meta template to the PromptList itself, in the
 * inferencer's mode (a PPL label prompt is parsed with mode='ppl': no generation prompt after the last turn).
 */
function renderMeta(prompt: Prompt, m: ModelContext, family: Prepared['family'], row: number, spans: boolean, mode: Mode = 'gen'): ModelRender {
  const p = m.profile
  const parser = p.meta_parser ?? 'lm'
  const applied = applyMetaTemplate(prompt, p.meta_template ?? null, { parser, mode, family: p.meta_family ?? family, row })
  const problems = applied.warnings.map((w) => engineProblem(w, 'warning'))
  if (!Array.isArray(prompt) && p.meta_template && parser === 'lm') {
    // Upstream's LMTemplateParser returns a plain-string prompt untouched: no role markers, no BOS.
    problems.push({
      code: 'meta-template-not-applied',
      message: 'The dataset template is a plain string, so OpenCompass sends it unchanged: this model\'s meta template (roles, special tokens) is not applied. Use a dialogue template (round=[…]) to get them.',
      severity: 'info'
    })
  }
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  if (applied.error || !applied.parsed) {
    return { ...base, kind: 'text', text: '', problems: [...problems, engineProblem(applied.error!, 'error')] }
  }
  const input = toModelInput(applied.parsed, spans)
  if (input.kind === 'text') {
    const tokens = tokensOf(m.counter, input.text)
    return { ...base, kind: 'text', text: input.text, segments: input.segments as Segment[], tokens, problems: withLength(problems, tokens.count, p.context_length) }
  }
  const json = parsedJson(applied.parsed)
  // An API model receives the API parser's messages after OpenCompass's OpenAI conversion (HUMAN → user, …);
  // the conversion maps item for item, so each message keeps its spans.
  let sent: unknown
  try {
    sent = sentMessages(applied.parsed.kind, json)
  } catch (e) {
    return { ...base, kind: 'text', text: '', problems: [...problems, { code: 'conversion-error', message: String((e as Error).message ?? e), severity: 'error' }] }
  }
  const items = input.kind === 'messages' ? input.items : []
  const messages = (sent as { role?: unknown; content: unknown }[]).map((x, i) => {
    const it = items[i]
    const segments = it && !('raw' in it) && typeof x.content === 'string' ? (it.segments as Segment[] | undefined) : undefined
    return { role: String(x.role ?? '(none)'), content: typeof x.content === 'string' ? x.content : (x.content as unknown[]), segments }
  })
  const tokens = tokensOf(m.counter, JSON.stringify(sent))
  return { ...base, kind: 'messages', messages, tokens, problems: withLength(problems, tokens.count, p.context_length) }
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

function withLength(problems: Problem[], count: number, ctx: number): Problem[] {
  if (count <= ctx) return problems
  return [...problems, { code: 'over-context', message: `${count.toLocaleString()} tokens exceed the context length ${ctx.toLocaleString()}`, severity: 'error' }]
}

function specialTokenList(p: ModelProfile): string[] {
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
    return { ...base, kind: 'text', text: '', problems: [...problems, { code: 'conversion-error', message: String((e as Error).message ?? e), severity: 'error' }] }
  }
  return renderMessages(messages, m, problems)
}

/** A conversation through the profile's own format (FastChat, LazyLLM, an API, …), with its signals. */
export function renderMessages(messages: ChatMessage[], m: ModelContext, problems: Problem[]): ModelRender {
  const p = m.profile
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  const r = renderForModel(p, { messages }, { addGenerationPrompt: true, countTokens: (t) => m.counter.count(t) })
  for (const w of r.warnings) problems.push({ code: 'format-warning', message: w, severity: 'warning' })
  for (const s of r.signals) problems.push({ code: s.code, message: s.message, severity: s.severity })
  if (r.error) problems.push({ code: r.error.code, message: r.error.message, severity: 'error' })
  const tokens = r.tokens ?? (r.text !== undefined ? m.counter.count(r.text) : m.counter.count(JSON.stringify(r.messages ?? [])))
  if (r.kind === 'text') {
    const text = r.text ?? ''
    return { ...base, kind: 'text', text, segments: [{ text, source: { kind: 'chat-template' } }], tokens, problems: dedupe(withLength(problems, tokens.count, p.context_length)) }
  }
  return {
    ...base,
    kind: 'messages',
    messages: (r.messages ?? []).map((x) => ({ role: x.role, content: typeof x.content === 'string' ? x.content : (x.content as unknown[]) })),
    tokens,
    problems: dedupe(withLength(problems, tokens.count, p.context_length))
  }
}

/**
 * A chat-template model as its harness wraps it (OpenCompass/AISBench *withChatTemplate): the wrapper's own parser
 * and meta template, `_convert_chat_messages`, then the chat template or FastChat, then what the wrapper does with
 * the text. Where upstream stops (a template that rejects the roles, PPL), the column says so instead of a text.
 */
function renderHarness(prompt: Prompt, m: ModelContext, h: HarnessSpec, row: number, mode: Mode, data?: Row): ModelRender {
  return harnessRender(wrapChatPrompt(prompt, m.profile, h, { mode, row, data, countTokens: (t) => m.counter.count(t) }), m)
}

export function harnessRender(r: WrapResult, m: ModelContext): ModelRender {
  const p = m.profile
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  const t = r.trace
  const problems: Problem[] = r.warnings.map((w) => ({ code: 'harness', message: w, severity: 'info' }))
  for (const s of r.signals) problems.push({ code: s.code, message: s.message, severity: s.severity })
  if (t.error) {
    const message =
      t.error.stage === 'ppl'
        ? `${t.label} cannot score PPL (upstream: ${t.error.message}); use a gen variant, or a model class that implements get_ppl.`
        : `${t.label} fails at ${t.error.stage}: ${t.error.message}`
    problems.push({ code: t.error.stage === 'ppl' ? 'ppl-unsupported' : 'harness-error', message, severity: 'error' })
    return { ...base, kind: 'text', text: '', harness: t, problems: dedupe(problems) }
  }
  if (t.postPromptError)
    problems.push({
      code: 'harness-generate-error',
      message: `${t.label}: generate() then fails with ${t.postPromptError} — its generation_kwargs must carry is_synthetic, batch_size and do_performance.`,
      severity: 'warning'
    })
  const text = t.prompt ?? ''
  const tokens = r.tokens ?? m.counter.count(text)
  return { ...base, kind: 'text', text, segments: [{ text, source: { kind: 'chat-template' } }], tokens, harness: t, problems: dedupe(withLength(problems, tokens.count, p.context_length)) }
}

export function dedupe(ps: Problem[]): Problem[] {
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
  problems: Problem[]
  /** The conversation template: the row's final assistant turn, its reference answer (not sent to the models). */
  reference?: ReferenceAnswer | null
  /** Several requests per row (PPL labels, multi-turn turns); the fields above are the first one's. */
  items?: RenderedItem[]
  itemKind?: 'label' | 'turn'
}

/**
 * Each model's input for one request. A chat wrapper whose config sets max_seq_len measures the prompt its own way
 * to drop in-context examples, so its PromptList is rebuilt with that measure (`item`: the label's index for PPL).
 */
function renderModels(prompt: Prompt, prepared: Prepared, rowIndex: number, models: ModelContext[], spans: boolean, mode: Mode, own?: { testIndex: number; item: number }): ModelRender[] {
  const data = own ? prepared.test[own.testIndex] : undefined
  return models.map((m) => {
    const h = harnessFor(m.profile, prepared.family)
    const render = (p: Prompt): ModelRender =>
      h ? renderHarness(p, m, h, rowIndex, mode, data) : m.profile.format === 'opencompass-meta' ? renderMeta(p, m, prepared.family, rowIndex, spans, mode) : renderConversation(p, m, prepared.family, rowIndex)
    const limit = !own ? undefined : h ? harnessSeqLimit(m.profile, h, (t) => m.counter.count(t)) : metaSeqLimit(m, prepared.family)
    if (!limit || !own) return render(prompt)
    const built = buildPromptList(prepared, own.testIndex, limit)
    const item = built.items[own.item]
    return withExamples(render(item?.prompt ?? prompt), prepared.iceIdx[own.testIndex]?.length ?? 0, item, limit, mode, h ? `${h.wrapper} ` : '', m.counter.exact)
  })
}

/**
 * `spans: false` (bulk export without --spans) skips everything only the display needs: the span bookkeeping and
 * the PromptList blocks. The text is the same either way.
 */
export function renderPreparedRow(prepared: Prepared, testIndex: number, rowIndex: number, models: ModelContext[], spans = true): RenderedForModels {
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
    const items: RenderedItem[] = built.items.map((b, i) => ({
      title: pyRepr(b.label),
      label: toPlainJson(b.label),
      prompt: b.prompt,
      promptList: blocks(b.prompt),
      models: renderModels(b.prompt, prepared, rowIndex, models, spans, 'ppl', { testIndex, item: i })
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
  return { promptList: blocks(prompt), prompt, models: renderModels(prompt, prepared, rowIndex, models, spans, 'gen', { testIndex, item: 0 }), problems }
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

/** One ChatInferencer request through a model: its chat parser (LM: begin/content/end; API: api_role) or format. */
function renderChatTurn(history: ChatMessageJson[], m: ModelContext, prepared: Prepared, row: number): ModelRender {
  const p = m.profile
  const h = harnessFor(p, prepared.family)
  if (h) return harnessRender(wrapChatHistory(history, p, h, { mode: 'gen', row, countTokens: (t) => m.counter.count(t) }), m)
  const base = { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
  const fail = (e: unknown): ModelRender => ({ ...base, kind: 'text', text: '', problems: [engineProblem(toEngineError(e, 'parse', { row }), 'error')] })
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
