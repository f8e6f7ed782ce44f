// The conversation template (variants.ts conversationVariant): a row that carries a chat (OpenAI `messages`,
// LLaVA/ShareGPT `conversations`) is sent as that chat. Its turns become OpenAI-style messages with media parts where
// the data puts them (shared/conversation); the final assistant turn is the reference answer and is not sent.
//
// Each model receives the chat as it would from an evaluation harness that hands it a chat (OpenCompass's
// ChatInferencer does, with chat[:last assistant]):
//  - a chat-template model through its harness wrapper (OpenCompass HuggingFacewithChatTemplate, …), content lists
//    passed to the chat template where a turn holds media;
//  - an OpenAI-style API the messages with their content parts;
//  - an OpenCompass meta-template model the chat as a PromptList (SYSTEM in `begin`, HUMAN/BOT rounds, an open BOT
//    turn), text only: the media it cannot take are reported by the model's signals;
//  - FastChat and LazyLLM prompters the turns' text, likewise.
import type { ConversationTurnView, ConversationView, HarnessTrace, MediaRef, ModelRender, Problem } from '../../../shared/api/types'
import { classifyMediaRef } from '../media/refs'
import type { FoundRef } from './row-media'
import { chatPromptList, type ChatMessageJson, type Prepared } from '../../../shared/engine'
import { contentPlainText, partMedia, rowConversation, type ConversationColumn } from '../../../shared/conversation'
import { harnessFor, wrapChatHistory, type HarnessSpec, type ModelProfile, type TokenCount, type WrapResult } from '../../../shared/models'
import { LM_EVAL_LABEL, lmEvalDocs, lmEvalRequest, lmEvalStopWords } from '../../../shared/models/lm-eval'
import type { ChatMessage } from '../../../shared/models/renderers'
import { harnessRender, promptBlocks, renderMessages, type ModelContext, type RenderedForModels } from './render-row'

export function renderConversationRow(prepared: Prepared, col: ConversationColumn, testIndex: number, rowIndex: number, models: ModelContext[], spans: boolean): RenderedForModels {
  const row = prepared.test[testIndex] ?? {}
  const conv = rowConversation(row, col)
  const problems: Problem[] = conv.warnings.map((w) => ({ code: w.code, message: w.message, severity: w.severity, at: { row: rowIndex } }))
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
  const r = !h ? renderMessages(messages.map((x) => ({ ...x })) as ChatMessage[], m, []) : h.name === 'lm-eval' ? harnessRender(lmEvalConversation(messages, m.profile, h, opts), m) : harnessRender(wrapChatHistory(messages, m.profile, h, opts), m)
  if (dropped.length === 0) return r
  const turns = [...new Set(dropped.map((d) => d.turn))]
  const signal: Problem = {
    code: 'modality-dropped',
    message: `${m.profile.name} takes ${[...takes(m.profile)].join(' and ')} only: ${countWords(dropped)} in turn${turns.length === 1 ? '' : 's'} ${turns.join(', ')} ${dropped.length === 1 ? 'is' : 'are'} not sent; those turns are sent as their text.`,
    severity: 'warning'
  }
  return { ...r, problems: [signal, ...r.problems] }
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
 * What a profile takes besides text: its `modalities` when it declares them; an OpenAI-style messages API sends the
 * parts as they are (the server decides); every format that builds a string is text only.
 */
function takes(p: ModelProfile): Set<string> {
  const declared = (p as { modalities?: unknown }).modalities
  if (Array.isArray(declared)) return new Set(declared.filter((x): x is string => typeof x === 'string'))
  return new Set(p.format === 'openai-messages' ? ['text', 'image', 'audio', 'video'] : ['text'])
}

interface Dropped {
  kind: string
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
    for (const l of lost) dropped.push({ kind: l.kind, turn: i + 1 })
    const kept = msg.content.filter((part) => {
      const pm = partMedia(part)
      return !pm || ok.has(pm.kind)
    })
    const textOnly = kept.every((part) => !partMedia(part))
    return { ...msg, content: textOnly ? contentPlainText(kept) : kept }
  })
  return { messages, dropped }
}

function countWords(d: Dropped[]): string {
  const n = new Map<string, number>()
  for (const x of d) n.set(x.kind, (n.get(x.kind) ?? 0) + 1)
  return [...n].map(([k, c]) => `${c} ${k === 'audio' ? (c === 1 ? 'audio clip' : 'audio clips') : c === 1 ? k : `${k}s`}`).join(', ')
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
