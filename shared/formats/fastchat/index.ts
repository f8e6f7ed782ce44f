// Public entry of the FastChat port: templates by name, the Conversation object, and the render convenience.
export { Conversation } from './conversation'
export type { OpenAIMessagesResult, TemplateInfo } from './conversation'
export { getConversationTemplate, hasTemplate, listTemplates } from './registry'
export type { RegistryVersion } from './registry'
export { renderFastchat } from './render'
export type { ChatMessage, RenderFastchatOptions, RenderFastchatResult } from './render'
export { IMAGE_PLACEHOLDER, renderPrompt } from './separator-styles'
export type { FastchatDialect, PromptFields } from './separator-styles'
export {
  UltraFeedbackConversation,
  getUltraFeedbackTemplate,
  listUltraFeedbackTemplates,
  ultraFeedbackTemplateForModelType
} from './ultrafeedback'
export type { UltraFeedbackTemplateDef, UltraFeedbackTemplateInfo } from './ultrafeedback'
export { SEPARATOR_STYLES } from './types'
export type {
  FormatWarning,
  ImageMessage,
  MessageContent,
  OpenAIMessage,
  PromptResult,
  SeparatorStyle,
  TemplateDef
} from './types'
