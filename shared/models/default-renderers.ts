// The one adapter between renderForModel and the chat prompt-format implementations (shared/formats/*): it calls
// each with its own signature and normalizes results to FormatRenderers. (A meta template goes through
// meta-template.ts, the function the app's dataset rows use too.)
import { renderChatTemplate } from '../formats/hf'
import { renderFastchat, type ChatMessage as FastchatMessage } from '../formats/fastchat'
import { renderLazyllm, type ModelConfigs, type PrompterCall, type PrompterInit } from '../formats/lazyllm'
import type { FormatRenderers, OutputMessage, TextOrMessagesResult } from './renderers'
import { warningText } from './renderers'
import { contentText } from './conversation-inputs'
import { diagnostic, pyClassOf } from '../diagnostics'

const FASTCHAT_ROLES = new Set(['system', 'user', 'assistant'])

export const defaultRenderers: FormatRenderers = {
  hf(source, req) {
    const r = renderChatTemplate(source, {
      messages: req.messages,
      tools: req.tools,
      documents: req.documents,
      add_generation_prompt: req.add_generation_prompt,
      continue_final_message: req.continue_final_message,
      special_tokens: req.special_tokens,
      extra: req.extra,
      now: req.now
    })
    if (r.ok) return { ok: true, text: r.text, warnings: r.warnings.map(warningText) }
    // transformers' users read `TemplateError: boom`: the class leads the message, as FastChat's and LazyLLM's do.
    const pyClass = pyClassOf(r.error)
    return { ok: false, error: pyClass ? { ...r.error, message: `${pyClass}: ${r.error.message}` } : r.error }
  },

  fastchat(templateName, messages, opts) {
    // FastChat knows only system/user/assistant; its renderer maps and warns about anything else it receives.
    const mapped: FastchatMessage[] = messages.map((m) => ({
      role: (FASTCHAT_ROLES.has(m.role) ? m.role : 'user') as FastchatMessage['role'],
      content: contentText(m.content)
    }))
    const warnings: string[] = messages.filter((m) => !FASTCHAT_ROLES.has(m.role)).map((m) => `FastChat has no "${m.role}" role: sent as a user turn.`)
    const r = renderFastchat(templateName, mapped, { addGenerationPrompt: opts.addGenerationPrompt, version: opts.version })
    warnings.push(...r.warnings.map(warningText))
    if (r.ok) return { ok: true, text: r.text, warnings }
    return { ok: false, error: r.error ?? diagnostic('fastchat.failed', 'error', 'FastChat render failed'), warnings }
  },

  lazyllm(cls, init, call, opts) {
    const r = renderLazyllm(cls, init as PrompterInit, call as PrompterCall, {
      // Explicit prompt keys win; a bare group name is looked up in LazyLLM's model_groups.
      model: opts.model_configs ? undefined : opts.model_group,
      modelConfigs: opts.model_configs as ModelConfigs | undefined,
      disableSystemPrompt: opts.env?.disable_system_prompt
    })
    const warnings = r.warnings.map(warningText)
    if (!r.ok) return { ok: false, error: r.error ?? diagnostic('lazyllm.failed', 'error', 'LazyLLM render failed'), warnings }
    return lazyllmResult(r.result, warnings)
  },

}

// generate_prompt gives a string, or with an API format a payload {messages, tools?, system?}.
function lazyllmResult(result: unknown, warnings: string[]): TextOrMessagesResult {
  if (typeof result === 'string') return { ok: true, text: result, warnings }
  const payload = result as { messages?: OutputMessage[]; system?: string } | null
  if (payload && Array.isArray(payload.messages)) {
    const messages = typeof payload.system === 'string' ? [{ role: 'system', content: payload.system }, ...payload.messages] : payload.messages
    return { ok: true, messages, warnings }
  }
  return { ok: false, error: diagnostic('lazyllm.result', 'error', `unexpected LazyLLM result: ${JSON.stringify(result)}`), warnings }
}
