// A chat-template model as its harness wraps it (OpenCompass/AISBench *withChatTemplate, lm-eval, VLMEvalKit):
// the wrapper's trace as a column, where upstream stops included.
import type { Diagnostic, ModelRender } from '../../../shared/api/types'
import type { Mode, Prompt, Row } from '../../../shared/engine'
import { type HarnessSpec, wrapChatPrompt, type WrapResult } from '../../../shared/models'
import { chatTemplateMediaSignals, mediaPartsOf } from '../../../shared/models/multimodal'
import { templateMedia } from './model-media'
import { dedupe, modelBase, type ModelContext, withLength } from './model-render'

/**
 * A chat-template model as its harness wraps it (OpenCompass/AISBench *withChatTemplate): the wrapper's own parser
 * and meta template, `_convert_chat_messages`, then the chat template or FastChat, then what the wrapper does with
 * the text. Where upstream stops (a template that rejects the roles, PPL), the column says so instead of a text.
 */
export function renderHarness(prompt: Prompt, m: ModelContext, h: HarnessSpec, row: number, mode: Mode, at?: { table: Row[]; tableIndex: number; labelPrompts?: Prompt[] }): ModelRender {
  return harnessRender(wrapChatPrompt(prompt, m.profile, h, { mode, row, data: at?.table[at.tableIndex], ...at, countTokens: (t) => m.counter.count(t) }), m)
}

export function harnessRender(r: WrapResult, m: ModelContext): ModelRender {
  const p = m.profile
  const base = modelBase(p)
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
