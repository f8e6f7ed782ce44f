// Public API of the Hugging Face chat-template renderer: compile once, render as transformers'
// apply_chat_template(tokenize=False) does.
export { compileChatTemplate, renderChatTemplate } from './render'
export { DEFAULT_RENDER_LIMITS, MAX_RANGE, type RenderLimits } from './budget'
export type { CompiledChatTemplate, CompileResult, RenderErrorKind, RenderOptions, RenderResult } from './render'
