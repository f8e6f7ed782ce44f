// Models that take a conversation (HF chat template, FastChat, LazyLLM, an API): OpenCompass's conversion of the
// PromptList to messages, then the profile's own format.
import type { Diagnostic, ModelMediaPart, ModelRender } from '../../../shared/api/types'
import { applyMetaTemplate, chatMessages, parsedJson, type Prepared, type Prompt } from '../../../shared/engine'
import { renderForModel } from '../../../shared/models'
import type { ChatMessage } from '../../../shared/models/renderers'
import { chatTemplateMediaSignals, countPhrase, mediaPartsOf, profileModalities } from '../../../shared/models/multimodal'
import { errorText } from '../../../shared/python/errors'
import { sentMessages } from './render-meta'
import { apiMedia, mediaPart, shortRef, templateMedia } from './model-media'
import { dedupe, engineProblem, modelBase, type ModelContext, withLength } from './model-render'

/**
 * Other formats take a conversation. OpenCompass turns the PromptList into messages with the API parser and
 * its HF-chat conversion (empty turns skipped, same roles merged) before a chat template sees them; an
 * OpenAI-style API gets OpenCompass's OpenAI conversion.
 */
export function renderConversation(prompt: Prompt, m: ModelContext, family: Prepared['family'], row: number): ModelRender {
  const p = m.profile
  const base = modelBase(p)
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
  const base = modelBase(p)
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
  if (r.error) problems.push(r.error)
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
