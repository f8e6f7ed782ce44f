// Shapes shared by the FastChat port: a registered template's fields, a message as FastChat stores it, and the
// data-shaped errors and warnings every public function returns instead of throwing.
import type { Diagnostic } from '../../diagnostics'

/** FastChat's `SeparatorStyle` members (HEAD order); `null` is a template registered with `sep_style=None`. */
export const SEPARATOR_STYLES = [
  'ADD_COLON_SINGLE',
  'ADD_COLON_TWO',
  'ADD_COLON_SPACE_SINGLE',
  'NO_COLON_SINGLE',
  'NO_COLON_TWO',
  'ADD_NEW_LINE_SINGLE',
  'LLAMA2',
  'LLAMA3',
  'CHATGLM',
  'CHATML',
  'CHATINTERN',
  'DOLLY',
  'RWKV',
  'PHOENIX',
  'ROBIN',
  'FALCON_CHAT',
  'CHATGLM3',
  'DEEPSEEK_CHAT',
  'METAMATH',
  'YUAN2',
  'GEMMA',
  'CLLM',
  'DEFAULT'
] as const

export type SeparatorStyle = (typeof SEPARATOR_STYLES)[number]

/** A template as registered upstream; omitted optional fields take the dataclass defaults. */
export interface TemplateDef {
  name: string
  systemTemplate?: string
  systemMessage: string
  systemMessageVision?: string
  roles: readonly string[]
  messages?: readonly (readonly [string, string])[]
  offset?: number
  sepStyle: SeparatorStyle | null
  sep: string | null
  sep2?: string | null
  stopStr?: string | readonly string[] | null
  stopTokenIds?: readonly number[] | null
  maxImageSizeMb?: number | null
}

/** FastChat's `(text, [image, ...])` tuple; rendering only uses the image count. */
export interface ImageMessage {
  text: string
  images: number
}

/** A message body: text, `null` (the open slot to generate) or an image tuple. */
export type MessageContent = string | null | ImageMessage

export interface FormatWarning {
  code: string
  message: string
}

export type PromptResult =
  | { ok: true; text: string; warnings: FormatWarning[] }
  /** The error's message is Python's own rendering, `"<ExceptionClass>: <str(exc)>"`, so it can be compared with upstream. */
  | { ok: false; error: Diagnostic; warnings: FormatWarning[] }

export interface OpenAIMessage {
  role: 'system' | 'user' | 'assistant'
  content: MessageContent
}

export function isImageMessage(m: MessageContent): m is ImageMessage {
  return typeof m === 'object' && m !== null
}

/** Python truthiness of a message: a non-empty string or a tuple. `""` counts as absent, like `None`. */
export function isTruthyMessage(m: MessageContent): m is string | ImageMessage {
  return isImageMessage(m) || (typeof m === 'string' && m.length > 0)
}
