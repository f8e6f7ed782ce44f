// Conformance runner for the 'hf-chat-template' family: renders a golden case's template with its inputs
// and answers {text} or {error, error_type} as the goldens (transformers + jinja2) do.
import { compileChatTemplate, renderChatTemplate } from '../formats/hf'
import { processorMessages } from '../models/multimodal'
import type { ConformanceRunner } from './types'
import { pyClassOf } from '../diagnostics'

/** A case's input: the template's file name and apply_chat_template's arguments. */
interface HfCaseInput {
  template?: string
  processor?: boolean
  messages?: Array<Record<string, unknown>>
  tools?: unknown[] | null
  documents?: unknown[] | null
  add_generation_prompt?: boolean
  continue_final_message?: boolean
  extra?: Record<string, unknown>
  now?: string
}

export const runHfChatTemplateCase: ConformanceRunner = (c, host) => {
  const input = (c.input ?? {}) as HfCaseInput
  const source = host.loadChatTemplate(String(input.template))
  if (source === undefined) return { error: `chat template not found: ${input.template}`, error_type: 'FileNotFoundError' }
  const compiled = compileChatTemplate(source)
  if (!compiled.ok) return { error: compiled.error.message, error_type: pyClassOf(compiled.error) }
  const r = renderChatTemplate(compiled.template, {
    // Processor-path cases (`processor: true`): ProcessorMixin.apply_chat_template's part rewrite first, as the
    // app's VL wrappers do (shared/models/harness.ts).
    messages: input.processor ? processorMessages(input.messages ?? []) : (input.messages ?? []),
    tools: input.tools ?? null,
    documents: input.documents ?? null,
    add_generation_prompt: !!input.add_generation_prompt,
    continue_final_message: input.continue_final_message,
    extra: input.extra ?? {},
    now: input.now
  })
  if (r.ok) return { text: r.text }
  return { error: r.error.message || `${pyClassOf(r.error) ?? r.error.code}`, error_type: r.error.code === 'raise_exception' ? 'raise_exception' : (pyClassOf(r.error) ?? r.error.code) }
}
