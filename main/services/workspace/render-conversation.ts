// The conversation template (variants.ts conversationVariant): a row that carries a chat (OpenAI `messages`,
// LLaVA/ShareGPT `conversations`) is sent as that chat. Its turns become OpenAI-style messages with media parts where
// the data puts them (shared/conversation); the final assistant turn is the reference answer and is not sent.
//
// Each model receives the chat as it would from an evaluation harness that hands it a chat (OpenCompass's
// ChatInferencer does, with chat[:last assistant]):
//  - a chat-template model through its harness wrapper (OpenCompass HuggingFacewithChatTemplate, …); a vision/audio
//    chat-template model with no harness of its own as transformers' processor renders it, content lists in place;
//  - an lm-evaluation-harness column as fewshot_context would build the chat;
//  - an OpenAI-style API the messages with their content parts;
//  - an OpenCompass meta-template model the chat as a PromptList (SYSTEM in `begin`, HUMAN/BOT rounds, an open BOT
//    turn), FastChat and LazyLLM prompters the turns' text.
// A model that does not take a modality (profile `modalities`) receives the turn's text and a media-dropped signal.
import type { ConversationTurnView, ConversationView, HarnessTrace, MediaRef, ModelMediaPart, ModelRender, Diagnostic } from '../../../shared/api/types'
import { countPhrase, profileModalities, type MediaModality } from '../../../shared/models/multimodal'
import { classifyMediaRef } from '../media/refs'
import type { FoundRef } from './row-media'
import { chatPromptList, type ChatMessageJson, type Prepared } from '../../../shared/engine'
import { contentPlainText, partMedia, rowConversation, type ConversationColumn } from '../../../shared/conversation'
import { harnessFor, wrapChatHistory, type HarnessSpec, type ModelProfile, type TokenCount, type WrapResult } from '../../../shared/models'
import { LM_EVAL_LABEL, lmEvalDocs, lmEvalRequest, lmEvalStopWords } from '../../../shared/models/lm-eval'
import type { ChatMessage } from '../../../shared/models/renderers'
import { harnessRender } from './render-harness'
import { promptBlocks } from './prompt-blocks'
import { renderMessages } from './render-messages'
import { shortRef } from './model-media'
import type { ModelContext } from './model-render'
import type { RenderedForModels } from './render-row'

export function renderConversationRow(prepared: Prepared, col: ConversationColumn, testIndex: number, rowIndex: number, models: ModelContext[], spans: boolean): RenderedForModels {
  const row = prepared.test[testIndex] ?? {}
  const conv = rowConversation(row, col)
  const problems: Diagnostic[] = conv.warnings.map((w) => ({ code: w.code, message: w.message, severity: w.severity }))
  const ref = conv.reference
  const reference = ref ? { role: ref.role, text: contentPlainText(ref.content), content: ref.content, turn: conv.messages.length + 1 } : null
  if (conv.messages.length === 0) return { promptList: [], prompt: null, models: [], problems, reference }
  const history = conv.messages as ChatMessageJson[]
  const prompt = chatPromptList(history)
  return {
    promptList: spans ? promptBlocks(prompt) : [],
    prompt,
    models: models.map((m) => renderConversationFor(history, m, prepared.family, rowIndex)),
    problems,
    reference
  }
}

function renderConversationFor(history: ChatMessageJson[], m: ModelContext, family: Prepared['family'], row: number): ModelRender {
  const { messages, dropped } = forModel(history, m.profile)
  const h = harnessFor(m.profile, family)
  const opts = { mode: 'gen' as const, row, countTokens: (t: string) => m.counter.count(t) }
  const copy = () => messages.map((x) => ({ ...x })) as ChatMessage[]
  let r: ModelRender
  if (isProcessorModel(m.profile)) r = renderMessages(copy(), m, [PROCESSOR_NOTE], { processor: true })
  else if (!h) r = renderMessages(copy(), m, [])
  else if (h.name === 'lm-eval') r = harnessRender(lmEvalConversation(messages, m.profile, h, opts), m)
  else r = harnessRender(wrapChatHistory(messages, m.profile, h, opts), m)
  if (dropped.length === 0) return r
  const turns = [...new Set(dropped.map((d) => d.turn))]
  const signal: Diagnostic = {
    code: 'media-dropped',
    message: `Text-only model: ${countPhrase(dropped)} dropped — ${m.profile.name} takes ${profileModalities(m.profile).join(' and ')} only, so turn${turns.length === 1 ? '' : 's'} ${turns.join(', ')} ${turns.length === 1 ? 'is' : 'are'} sent as ${turns.length === 1 ? 'its' : 'their'} text (no harness sends such parts to it without failing).`,
    severity: 'warning'
  }
  const media: ModelMediaPart[] = dropped.map((d) => ({ modality: d.modality, ref: shortRef(d.ref), dropped: true, how: `dropped: ${m.profile.name} takes text only` }))
  return { ...r, media: [...media, ...(r.media ?? [])], problems: [signal, ...r.problems] }
}

/**
 * A vision/audio-language chat-template model with no harness of its own renders the conversation as transformers'
 * processor does (ProcessorMixin.apply_chat_template: image_url parts become {"type": "image", "url"} before the
 * template runs), which is how a chat reaches such a model in practice; OpenCompass's HuggingFacewithChatTemplate
 * tokenizes text only and would pass the parts through unread.
 */
function isProcessorModel(p: ModelProfile): boolean {
  return p.format === 'hf-chat-template' && !p.harness && profileModalities(p).some((x) => x !== 'text')
}

const PROCESSOR_NOTE: Diagnostic = {
  code: 'harness',
  message: "Rendered as transformers' processor.apply_chat_template renders the conversation (image_url parts become {\"type\": \"image\", \"url\"}): OpenCompass's HuggingFacewithChatTemplate would send the text only.",
  severity: 'info'
}

/**
 * lm-evaluation-harness has no chat dataset path: a conversation reaches HFLM as fewshot_context builds a chat —
 * a leading system turn as the description, each earlier (user, assistant) pair as a fewshot_as_multiturn example,
 * the last user turn as the question — then HFLM.apply_chat_template (shared/models/lm-eval.ts).
 */
function lmEvalConversation(messages: ChatMessageJson[], profile: ModelProfile, h: HarnessSpec, opts: { mode: 'gen'; row: number; countTokens: (t: string) => TokenCount }): WrapResult {
  const out: WrapResult = { trace: { harness: 'lm-eval', wrapper: 'HFLM', label: LM_EVAL_LABEL, stopWords: lmEvalStopWords(h, profile) } as HarnessTrace, warnings: [], signals: [] }
  const docs = lmEvalDocs(messages as Array<{ role: string; content: unknown }>)
  if ('error' in docs) {
    out.trace.error = { message: docs.error, stage: 'parse' }
    return out
  }
  if (docs.shots.length) out.warnings.push(`lm-eval: the conversation's ${docs.shots.length} earlier exchange${docs.shots.length === 1 ? '' : 's'} reach HFLM as few-shot turns (fewshot_context with its delimiters), the last user turn as the question.`)
  return lmEvalRequest(docs, profile, h, opts, out)
}

/**
 * What a profile takes besides text: its `modalities` (absent: text only), except that an OpenAI-style messages API
 * sends the parts as they are and its server decides.
 */
function takes(p: ModelProfile): Set<string> {
  return new Set(p.format === 'openai-messages' ? ['text', 'image', 'audio', 'video'] : profileModalities(p))
}

interface Dropped {
  modality: MediaModality
  ref: string
  turn: number
}

/**
 * The conversation as this model can receive it. No harness sends media parts to a text-only model without failing
 * (a chat template concatenating a list raises TypeError, OpenCompass's meta templates take strings), so a turn with
 * parts the model cannot take is sent as its text, and the column says what was left out.
 */
function forModel(history: ChatMessageJson[], p: ModelProfile): { messages: ChatMessageJson[]; dropped: Dropped[] } {
  const ok = takes(p)
  const dropped: Dropped[] = []
  const messages = history.map((msg, i) => {
    if (!Array.isArray(msg.content)) return msg
    const lost = msg.content.map((part) => partMedia(part)).filter((x): x is NonNullable<typeof x> => !!x && !ok.has(x.kind))
    if (lost.length === 0) return msg
    for (const l of lost) dropped.push({ modality: l.kind, ref: l.ref, turn: i + 1 })
    const kept = msg.content.filter((part) => {
      const pm = partMedia(part)
      return !pm || ok.has(pm.kind)
    })
    const textOnly = kept.every((part) => !partMedia(part))
    return { ...msg, content: textOnly ? contentPlainText(kept) : kept }
  })
  return { messages, dropped }
}


/**
 * The row's conversation as the app shows it: each turn's text and media parts in order (media resolved as the row's
 * media are: a URL under the opened roots, inline data through the inline store, or why it cannot be shown), and the
 * reference answer apart. Base64 never reaches the view.
 */
export async function conversationView(
  row: Record<string, unknown>,
  col: ConversationColumn,
  resolve: (refs: FoundRef[]) => Promise<MediaRef[]>
): Promise<ConversationView> {
  const conv = rowConversation(row, col)
  const turns = [...conv.messages, ...(conv.reference ? [conv.reference] : [])]
  const refs: FoundRef[] = []
  const slots: Array<Array<{ text: string } | { ref: number }>> = turns.map((m, i) => {
    if (!Array.isArray(m.content)) return [{ text: contentPlainText(m.content) }]
    return m.content.map((part, j) => {
      const pm = partMedia(part)
      if (!pm) return { text: contentPlainText([part]) }
      const c = classifyMediaRef(pm.ref, pm.kind)
      // input_audio carries raw base64; a media part names a file even without an extension.
      const refKind = c?.kind ?? (pm.ref.length >= 64 && !/[\s/.]/.test(pm.ref.slice(0, 64)) ? 'base64' : 'relative')
      refs.push({ field: `${col.column}[${i}].content[${j}]`, kind: pm.kind, refKind, value: pm.ref })
      return { ref: refs.length - 1 }
    })
  })
  const media = refs.length ? await resolve(refs) : []
  const view = (k: number): ConversationTurnView => ({
    role: turns[k].role,
    parts: slots[k].map((s) => ('ref' in s ? { kind: 'media' as const, media: media[s.ref] } : { kind: 'text' as const, text: s.text }))
  })
  const n = conv.messages.length
  return { style: col.style, turns: conv.messages.map((_, k) => view(k)), reference: conv.reference ? view(n) : null }
}
