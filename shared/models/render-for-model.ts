// renderForModel: one conversation rendered exactly as a given model receives it, through the profile's own
// format (HF chat template, FastChat, LazyLLM, OpenCompass meta template, or a messages API), with signals. The
// one function for this: the app's model columns (main/services/workspace/render-row.ts renderMessages), export,
// the CLI, the harness wrappers and the tests all call it. The formats are reached through their one adapter
// (default-renderers.ts); the profile-level probe facts are cached per profile.
import type { ModelProfile } from './profile'
import { chatTemplateSource, selectChatTemplate } from './profile'
import type { ChatMessage, OutputMessage } from './renderers'
import { defaultRenderers as renderers } from './default-renderers'
import { errorText, warningText } from './renderers'
import { renderMetaTemplate } from './meta-template'
import { toItem } from '../engine'
import { lazyllmCallFromMessages, promptListFromMessages, contentText } from './conversation-inputs'
import { processorMessages } from './multimodal'
import { computeSignals, probeProfile, type ProfileFacts, type RawRender, type Signal, type TokenCount } from './signals'
import { diagnostic, type Diagnostic } from '../diagnostics'

export interface RenderInput {
  messages: ChatMessage[]
  tools?: unknown[] | null
  documents?: unknown[] | null
}

export interface RenderForModelOptions {
  /** Open an assistant turn at the end (HF add_generation_prompt, OpenCompass gen mode). Default true. */
  addGenerationPrompt?: boolean
  continueFinalMessage?: boolean
  /** The moment strftime_now sees; default: now. */
  now?: Date
  /** Exact token counter for the profile's tokenizer (main/services/models/tokenizer.ts); else an estimate. */
  countTokens?: (text: string) => TokenCount
  /** Skip the signals (e.g. for a benchmark of the bare render). Default true. */
  signals?: boolean
  /**
   * Render as a transformers processor does (ProcessorMixin.apply_chat_template): OpenAI-style image_url parts
   * become {"type": "image", "url": …} before the chat template runs (shared/models/multimodal.ts).
   */
  processor?: boolean
}

export interface RenderForModelResult {
  kind: 'text' | 'messages'
  text?: string
  messages?: OutputMessage[]
  warnings: string[]
  signals: Signal[]
  tokens?: TokenCount
  /**
   * Why the format failed: code `template-error`, data.kind the format's own code (a chat template's
   * `raise_exception`, `fastchat.message_type`, …), data.stage the format; a chat template's error keeps its range
   * in the template text, with `source` naming that text (`<profile>/chat_template[/<name>]`).
   */
  error?: Diagnostic
}

export type RenderForModel = (profile: ModelProfile, input: RenderInput, opts?: RenderForModelOptions) => RenderForModelResult

const DEFAULT_CHARS_PER_TOKEN = 4

/** A rough count for when no tokenizer is available; always marked as an estimate. */
export function estimateTokens(text: string, charsPerToken = DEFAULT_CHARS_PER_TOKEN): TokenCount {
  return { count: Math.ceil(text.length / charsPerToken), exact: false }
}

function rawRender(
  profile: ModelProfile,
  input: RenderInput,
  o: { addGenerationPrompt: boolean; continueFinalMessage?: boolean; now?: Date; processor?: boolean }
): RawRender {
  try {
    switch (profile.format) {
      case 'hf-chat-template': {
        const chosen = selectChatTemplate(profile.chat_template, { hasTools: !!input.tools && input.tools.length > 0 })
        if (!chosen.ok) return { ok: false, error: diagnostic('profile-error', 'error', chosen.message), warnings: [] }
        const r = renderers.hf(chosen.source, {
          messages: o.processor ? processorMessages(input.messages) : input.messages,
          tools: input.tools ?? null,
          documents: input.documents ?? null,
          add_generation_prompt: o.addGenerationPrompt && !o.continueFinalMessage,
          continue_final_message: o.continueFinalMessage,
          special_tokens: profile.special_tokens as Record<string, string | string[]>,
          extra: profile.chat_template_kwargs,
          now: o.now
        })
        if (r.ok) return { ok: true, kind: 'text', text: r.text, warnings: r.warnings }
        return { ok: false, error: r.error.range ? { ...r.error, source: chatTemplateSource(profile.id, chosen.name) } : r.error, warnings: r.warnings ?? [] }
      }
      case 'fastchat': {
        const r = renderers.fastchat(profile.fastchat_template ?? '', input.messages, { addGenerationPrompt: o.addGenerationPrompt, version: profile.fastchat_version })
        return r.ok ? { ok: true, kind: 'text', text: r.text, warnings: r.warnings } : { ok: false, error: r.error, warnings: r.warnings ?? [] }
      }
      case 'lazyllm': {
        const l = profile.lazyllm
        if (!l) return { ok: false, error: diagnostic('profile-error', 'error', 'profile has no lazyllm prompter'), warnings: [] }
        const { call } = lazyllmCallFromMessages(input.messages)
        if (input.tools && input.tools.length > 0) call.tools = input.tools
        const r = renderers.lazyllm(l.class, l.init, call, { model_configs: l.model_configs, model_group: l.model_group, env: l.env })
        if (!r.ok) return { ok: false, error: r.error, warnings: r.warnings ?? [] }
        return 'text' in r ? { ok: true, kind: 'text', text: r.text, warnings: r.warnings } : { ok: true, kind: 'messages', messages: r.messages, warnings: r.warnings }
      }
      case 'opencompass-meta': {
        // OpenCompass renders generation in gen mode (cut at the generating role) and scoring in ppl mode.
        const mode = o.addGenerationPrompt ? 'gen' : 'ppl'
        const list = promptListFromMessages(input.messages, { addGenerationPrompt: o.addGenerationPrompt })
        const prompt = list.map((item, i) => toItem(item, `messages.${i}`))
        const { applied, input: mi } = renderMetaTemplate(prompt, profile, { mode, family: 'opencompass' })
        const warnings = applied.warnings.map(warningText)
        if (!mi) return { ok: false, error: diagnostic(applied.error?.code ?? 'meta-template', 'error', applied.error ? applied.error.message : 'meta template gave no result', { data: { path: 'meta_template' } }), warnings }
        if (mi.kind === 'text') return { ok: true, kind: 'text', text: mi.text, warnings }
        if (mi.kind === 'parts') return { ok: true, kind: 'messages', messages: [{ role: 'user', content: mi.parts }], warnings }
        // The API parser's roles (HUMAN/BOT/SYSTEM or the meta's api_role) are kept as the model class receives them.
        const messages: OutputMessage[] = mi.items.map((it) => ('raw' in it ? { role: 'raw', content: it.raw } : { role: String(it.role), content: it.prompt }))
        return { ok: true, kind: 'messages', messages, warnings }
      }
      case 'openai-messages': {
        // An API that takes messages receives them as they are; the server applies its own template.
        const messages = input.messages.map((m) => ({ ...m }))
        return { ok: true, kind: 'messages', messages, warnings: [] }
      }
    }
  } catch (e) {
    // The formats report errors as data; a throw here is a bug in one of them, still shown as a template error.
    return { ok: false, error: diagnostic('internal_error', 'error', errorText(e)), warnings: [] }
  }
}

const factsCache = new WeakMap<ModelProfile, ProfileFacts>()
function factsFor(profile: ModelProfile): ProfileFacts {
  let f = factsCache.get(profile)
  if (!f) {
    f = probeProfile((messages, o) => rawRender(profile, { messages }, o), profile)
    factsCache.set(profile, f)
  }
  return f
}

export const renderForModel: RenderForModel = (profile, input, opts = {}) => {
  const addGenerationPrompt = opts.addGenerationPrompt ?? true
  const raw = rawRender(profile, input, {
    addGenerationPrompt,
    continueFinalMessage: opts.continueFinalMessage,
    now: opts.now,
    processor: opts.processor
  })
  const kind: 'text' | 'messages' = raw.ok ? raw.kind : profile.format === 'openai-messages' || profile.meta_parser === 'api' ? 'messages' : 'text'
  const result: RenderForModelResult = { kind, warnings: raw.warnings, signals: [] }
  if (raw.ok && raw.kind === 'text') result.text = raw.text
  if (raw.ok && raw.kind === 'messages') result.messages = raw.messages
  if (!raw.ok) result.error = { ...raw.error, code: 'template-error', data: { ...raw.error.data, kind: raw.error.code, stage: profile.format, profile: profile.id } }
  if (raw.ok) {
    const text = raw.kind === 'text' ? raw.text : raw.messages.map((m) => contentText(m.content)).join('\n')
    const cpt = profile.tokenizer?.kind === 'estimate' ? profile.tokenizer.chars_per_token : undefined
    result.tokens = opts.countTokens ? opts.countTokens(text) : estimateTokens(text, cpt)
  }
  if (opts.signals !== false)
    result.signals = computeSignals({
      profile,
      messages: input.messages,
      result: raw,
      addGenerationPrompt,
      facts: factsFor(profile),
      tokens: result.tokens
    })
  return result
}
