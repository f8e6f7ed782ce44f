// Public API of the Hugging Face chat-template renderer: compile once, render as transformers'
// apply_chat_template(tokenize=False) does, and describe what a template adds beyond the messages.
import { renderChatTemplate, type CompiledChatTemplate, type RenderOptions } from './render'

export { compileChatTemplate, renderChatTemplate } from './render'
export { DEFAULT_RENDER_LIMITS, MAX_RANGE, type RenderLimits } from './budget'
export type { CompiledChatTemplate, CompileResult, ErrorPlace, RenderErrorKind, RenderOptions, RenderResult, RenderWarning } from './render'

export interface ChatTemplateAdditions {
  /** render(add_generation_prompt=true) minus render(false), when the one extends the other; else null. */
  generationPromptSuffix: string | null
  /** The output changes with the date (strftime_now or a date default), so it is not reproducible unpinned. */
  dependsOnDate: boolean
}

/**
 * What the template adds beyond the messages, for signals in the UI. Costs up to three extra renders;
 * null when the template does not render for these options.
 */
export function describeChatTemplateAdditions(t: CompiledChatTemplate | string, opts: RenderOptions): ChatTemplateAdditions | null {
  const base = { ...opts, continue_final_message: false }
  const withGen = renderChatTemplate(t, { ...base, add_generation_prompt: true })
  const without = renderChatTemplate(t, { ...base, add_generation_prompt: false })
  let generationPromptSuffix: string | null = null
  if (withGen.ok && without.ok && withGen.text.startsWith(without.text)) generationPromptSuffix = withGen.text.slice(without.text.length)
  const ref = without.ok ? without : withGen
  if (!ref.ok) return null
  const agp = !without.ok
  const a = renderChatTemplate(t, { ...base, add_generation_prompt: agp, now: '2001-02-03T04:05:06' })
  const b = renderChatTemplate(t, { ...base, add_generation_prompt: agp, now: '2012-11-10T09:08:07' })
  const dependsOnDate = a.ok && b.ok && a.text !== b.text
  return { generationPromptSuffix, dependsOnDate }
}
