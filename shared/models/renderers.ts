// The narrow interface renderForModel needs from each prompt-format implementation, in one normalized shape.
// One adapter file (default-renderers.ts) implements it and is the only place that knows the formats' own call
// signatures.
import { errorText as pyErrorText } from '../python/errors'
import type { Diagnostic } from '../diagnostics'

export interface ChatMessage {
  role: string
  /** Usually a string; null for an open assistant slot; a list of parts for multimodal content. */
  content: unknown
  [key: string]: unknown
}

/** A message as the model's API receives it (OpenCompass API parser roles such as HUMAN are kept as they are). */
export interface OutputMessage {
  role: string
  content: unknown
  [key: string]: unknown
}

export type TextResult = { ok: true; text: string; warnings: string[] } | { ok: false; error: Diagnostic; warnings?: string[] }
export type TextOrMessagesResult =
  | { ok: true; text: string; warnings: string[] }
  | { ok: true; messages: OutputMessage[]; warnings: string[] }
  | { ok: false; error: Diagnostic; warnings?: string[] }

export interface HfRenderRequest {
  messages: ChatMessage[]
  tools?: unknown[] | null
  documents?: unknown[] | null
  add_generation_prompt: boolean
  continue_final_message?: boolean
  special_tokens: Record<string, string | string[]>
  extra?: Record<string, unknown>
  now?: Date
}

/** OpenCompass PromptList item: literal text, a section marker, or a role item. */
export type PromptListItem =
  | string
  | { section: 'begin' | 'round' | 'end' | 'ice'; pos: 'begin' | 'end' }
  | { role: string; prompt: string; fallback_role?: string; [key: string]: unknown }

export interface FormatRenderers {
  hf(source: string, req: HfRenderRequest): TextResult
  fastchat(templateName: string, messages: ChatMessage[], opts: { addGenerationPrompt: boolean; version?: 'head' | 'v0.2.36' }): TextResult
  lazyllm(
    cls: 'ChatPrompter' | 'AlpacaPrompter',
    init: Record<string, unknown>,
    call: Record<string, unknown>,
    opts: { model_configs?: Record<string, unknown>; model_group?: string; env?: { disable_system_prompt?: boolean } }
  ): TextOrMessagesResult
}

/** Turns whatever an implementation returned as a warning into one readable line. */
export function warningText(w: unknown): string {
  if (typeof w === 'string') return w
  if (w && typeof w === 'object') {
    const o = w as Record<string, unknown>
    if (typeof o.message === 'string') return typeof o.code === 'string' ? `${o.code}: ${o.message}` : o.message
  }
  return JSON.stringify(w)
}

/** Turns whatever an implementation gave as an error (string, Error, {code,message}) into one readable line. */
export function errorText(e: unknown): string {
  if (typeof e === 'string') return e
  if (e instanceof Error) return pyErrorText(e)
  return warningText(e)
}
