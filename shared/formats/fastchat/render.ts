// The convenience the app calls: OpenAI-style chat messages rendered through a FastChat template. FastChat only
// knows one system message and strictly alternating user/assistant turns, so anything else is mapped onto that
// shape here, and every drop, merge or remap is reported as a warning.
import type { Conversation } from './conversation'
import { getConversationTemplate, type RegistryVersion } from './registry'
import type { FormatWarning, OpenAIMessage } from './types'
import { diagnostic, type Diagnostic } from '../../diagnostics'

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface RenderFastchatOptions {
  /** Append the open assistant slot (`None`) when the conversation does not already end with an assistant turn. */
  addGenerationPrompt?: boolean
  version?: RegistryVersion
}

export interface RenderFastchatResult {
  ok: boolean
  text: string
  warnings: FormatWarning[]
  error?: Diagnostic
  /** What `to_openai_api_messages()` gives for the same conversation. */
  openaiMessages?: OpenAIMessage[]
}

/** Styles whose `get_prompt` never prints the system message. */
const SYSTEM_IGNORED_STYLES = new Set(['GEMMA'])

export function renderFastchat(
  templateName: string,
  messages: readonly ChatMessage[],
  opts: RenderFastchatOptions = {}
): RenderFastchatResult {
  const conv = getConversationTemplate(templateName, opts.version ?? 'head')
  if (!conv) {
    return {
      ok: false,
      text: '',
      warnings: [],
      error: diagnostic('fastchat.unknown_template', 'error', `KeyError: '${templateName}'`, { data: { stage: 'template', template: templateName } })
    }
  }
  const warnings: FormatWarning[] = []
  applySystem(conv, messages, warnings)
  appendTurns(conv, messages, warnings)
  const last = conv.messages.length - conv.offset > 0 ? conv.messages[conv.messages.length - 1][0] : null
  if (opts.addGenerationPrompt && last !== conv.roles[1]) conv.appendMessage(conv.roles[1], null)
  const prompt = conv.getPrompt()
  const openai = conv.toOpenAIApiMessages()
  warnings.push(...prompt.warnings)
  if (!prompt.ok) return { ok: false, text: '', warnings, error: prompt.error, openaiMessages: openai.messages }
  return { ok: true, text: prompt.text, warnings, openaiMessages: openai.messages }
}

function applySystem(conv: Conversation, messages: readonly ChatMessage[], warnings: FormatWarning[]): void {
  let leading = 0
  while (leading < messages.length && messages[leading].role === 'system') leading++
  if (leading === 0) return
  if (leading > 1) {
    warnings.push({
      code: 'fastchat.system_merged',
      message: `${leading} leading system messages were joined with "\\n" into FastChat's single system message.`
    })
  }
  const system = messages
    .slice(0, leading)
    .map((m) => m.content)
    .join('\n')
  conv.setSystemMessage(system)
  if (system !== '' && conv.sepStyle !== null && SYSTEM_IGNORED_STYLES.has(conv.sepStyle)) {
    warnings.push({
      code: 'fastchat.system_dropped',
      message: `Template "${conv.name}" (${conv.sepStyle}) ignores the system message: it is not in the prompt.`
    })
  } else if (system !== '' && !conv.systemTemplate.includes('{system_message}')) {
    warnings.push({
      code: 'fastchat.system_dropped',
      message: `Template "${conv.name}" has a system_template without {system_message}: the system message is not in the prompt.`
    })
  }
}

function appendTurns(conv: Conversation, messages: readonly ChatMessage[], warnings: FormatWarning[]): void {
  let prev: 'user' | 'assistant' | null = null
  messages.forEach((m, i) => {
    if (m.role === 'system') {
      if (i > 0 && messages.slice(0, i).some((x) => x.role !== 'system')) {
        warnings.push({
          code: 'fastchat.system_dropped',
          message: `Message ${i} is a system message after the conversation started; FastChat has no place for it and it was dropped.`
        })
      }
      return
    }
    if (prev === null && m.role === 'assistant') {
      warnings.push({
        code: 'fastchat.role_remapped',
        message: `The conversation starts with an assistant message; FastChat counts turns by position, so it is treated as the user turn "${conv.roles[0]}".`
      })
    }
    if (m.role === prev) {
      const lastMsg = conv.messages[conv.messages.length - 1]
      lastMsg[1] = `${lastMsg[1] ?? ''}\n\n${m.content}`
      warnings.push({
        code: 'fastchat.role_merged',
        message: `Message ${i} (${m.role}) follows another ${m.role} message; they were joined with a blank line, since FastChat alternates turns.`
      })
      return
    }
    conv.appendMessage(m.role === 'user' ? conv.roles[0] : conv.roles[1], m.content)
    prev = m.role
  })
}
