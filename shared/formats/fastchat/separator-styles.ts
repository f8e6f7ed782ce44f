// `Conversation.get_prompt()` of FastChat (fastchat/conversation.py at 0e6d3e4, and tag v0.2.36): one branch per
// SeparatorStyle, reproducing upstream byte for byte, including its quirks. Each reproduced quirk that changes the
// output in a way a user would not expect is reported as a warning.
import { PyError } from '../../python/errors'
import { strFormat } from '../../python/format'
import { pyRstripChars, pyStrip } from '../../python/str-methods'
import { jsonRuntime } from '../../python/json'
import type { FormatWarning, MessageContent, PromptResult, SeparatorStyle } from './types'
import { SEPARATOR_STYLES, isImageMessage, isTruthyMessage } from './types'
import { diagnostic } from '../../diagnostics'

/**
 * Which source to mimic: FastChat HEAD (0e6d3e4), its last PyPI release (v0.2.36), or UltraFeedback's trimmed copy
 * (src/comparison_data_generation/fastchat.py: 14 styles, no image tuples, its own LLAMA2 branch).
 */
export type FastchatDialect = 'head' | 'v0.2.36' | 'ultrafeedback'

/**
 * The styles UltraFeedback's copy knows, FastChat's from ADD_COLON_SINGLE to ROBIN as they were before LLAMA3 came in
 * between; any other falls through to its `Invalid style` error.
 */
const ULTRAFEEDBACK_STYLES: ReadonlySet<SeparatorStyle> = new Set(SEPARATOR_STYLES.slice(0, SEPARATOR_STYLES.indexOf('ROBIN') + 1).filter((s) => s !== 'LLAMA3'))

export const IMAGE_PLACEHOLDER = '$$<image>$$'

/** The fields `get_prompt` reads. */
export interface PromptFields {
  name: string
  systemTemplate: string
  systemMessage: string
  roles: readonly string[]
  messages: readonly (readonly [string, MessageContent])[]
  sepStyle: SeparatorStyle | null
  sep: string | null
  sep2: string | null
}

/** A Python exception raised while rendering, with the message it happened at; caught at the top, turned into data. */
class RenderError extends PyError {
  constructor(
    pyClass: string,
    message: string,
    readonly messageIndex: number | null
  ) {
    super(pyClass, message)
  }
}

type Failure = readonly [pyClass: string, message: string]
const CONCAT_STR_TUPLE: Failure = ['TypeError', 'can only concatenate str (not "tuple") to str']
const CONCAT_TUPLE_STR: Failure = ['TypeError', 'can only concatenate tuple (not "str") to tuple']

/** Styles whose branch unpacks `(text, images)` into placeholders + text. */
function unpacksImages(style: SeparatorStyle, dialect: FastchatDialect): boolean {
  if (dialect === 'ultrafeedback') return false
  if (style === 'CHATML') return true
  if (dialect === 'v0.2.36') return false
  return style === 'ADD_COLON_SINGLE' || style === 'ADD_COLON_TWO' || style === 'CLLM'
}

function withImages(m: string | { text: string; images: number }): string {
  return typeof m === 'string' ? m : IMAGE_PLACEHOLDER.repeat(m.images) + m.text
}

/** A truthy message as the style's branch sees it: a string, or the error Python raises on a tuple there. */
function textOf(
  m: string | { text: string; images: number },
  i: number,
  failure: Failure,
  style: SeparatorStyle,
  dialect: FastchatDialect
): string {
  if (typeof m === 'string') return m
  if (unpacksImages(style, dialect)) return withImages(m)
  throw new RenderError(failure[0], failure[1], i)
}

export function renderPrompt(conv: PromptFields, dialect: FastchatDialect = 'head'): PromptResult {
  const warnings: FormatWarning[] = []
  let system: string
  try {
    system = strFormat(jsonRuntime.formatModel, conv.systemTemplate, [], new Map([['system_message', conv.systemMessage]]))
  } catch (e) {
    if (!(e instanceof PyError)) throw e
    return {
      ok: false,
      warnings,
      error: diagnostic('fastchat.system_template', 'error', e.pyMessage, { data: { stage: 'render', template: conv.name } })
    }
  }
  noteEmptyMessages(conv, warnings)
  try {
    const text = renderStyle(conv, system, dialect, warnings)
    return { ok: true, text, warnings }
  } catch (e) {
    if (!(e instanceof RenderError)) throw e
    const invalidStyle = e.pyMessage.startsWith('ValueError: Invalid style')
    return {
      ok: false,
      warnings,
      error: diagnostic(invalidStyle ? 'fastchat.invalid_style' : 'fastchat.message_type', 'error', e.pyMessage, {
        data: e.messageIndex === null ? { stage: 'render', template: conv.name } : { stage: 'render', template: conv.name, message: e.messageIndex }
      })
    }
  }
}

function noteEmptyMessages(conv: PromptFields, warnings: FormatWarning[]): void {
  const last = conv.messages.length - 1
  conv.messages.forEach(([role, m], i) => {
    if (m === '' && i !== last) {
      warnings.push({
        code: 'fastchat.empty_message_open_slot',
        message: `Message ${i} (${role}) is an empty string; FastChat treats it like None and renders an open "${role}" slot there.`
      })
    }
  })
}

function renderStyle(conv: PromptFields, S: string, dialect: FastchatDialect, warnings: FormatWarning[]): string {
  const style = conv.sepStyle
  const sep = conv.sep ?? ''
  const sep2 = conv.sep2 ?? ''
  const seps = [sep, sep2]
  const msgs = conv.messages
  const t = (m: string | { text: string; images: number }, i: number, failure = CONCAT_STR_TUPLE): string =>
    textOf(m, i, failure, style as SeparatorStyle, dialect)
  let ret = ''
  if (dialect === 'ultrafeedback' && style !== null && !ULTRAFEEDBACK_STYLES.has(style)) {
    throw new RenderError('ValueError', `Invalid style: ${SEPARATOR_STYLES.indexOf(style) + 1}`, null)
  }
  if (dialect === 'ultrafeedback' && style === 'LLAMA2') {
    // UltraFeedback's LLAMA2: no "[INST] " fallback, the system (which already holds "<s>[INST] <<SYS>>...")
    // glued to the first message, and the *stored* role as the tag.
    msgs.forEach(([role, m], i) => {
      if (!isTruthyMessage(m)) return void (ret += role)
      ret += i === 0 ? S + t(m, i) : role + ' ' + t(m, i) + seps[i % 2]
    })
    return ret
  }
  switch (style) {
    case 'ADD_COLON_SINGLE':
      ret = S + sep
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + ': ' + t(m, i) + sep : role + ':'))
      return ret
    case 'ADD_COLON_TWO':
      ret = S + seps[0]
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + ': ' + t(m, i) + seps[i % 2] : role + ':'))
      return ret
    case 'ADD_COLON_SPACE_SINGLE':
      ret = S + sep
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + ': ' + t(m, i) + sep : role + ': '))
      return ret
    case 'ADD_NEW_LINE_SINGLE':
      ret = S === '' ? '' : S + sep
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + '\n' + t(m, i) + sep : role + '\n'))
      return ret
    case 'NO_COLON_SINGLE':
      ret = S
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + t(m, i) + sep : role))
      return ret
    case 'NO_COLON_TWO':
      ret = S
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + t(m, i) + seps[i % 2] : role))
      return ret
    case 'RWKV':
      ret = S
      msgs.forEach(([role, m], i) => {
        if (!isTruthyMessage(m)) return void (ret += role + ':')
        const text = t(m, i, ['AttributeError', "'tuple' object has no attribute 'replace'"])
        const collapsed = text.replaceAll('\r\n', '\n').replaceAll('\n\n', '\n')
        if (collapsed !== text) {
          warnings.push({
            code: 'fastchat.rwkv_newlines_collapsed',
            message: `Message ${i}: RWKV style rewrites \\r\\n to \\n and collapses \\n\\n to \\n in a single pass, so blank lines are lost (four newlines become two).`
          })
        }
        ret += role + ': ' + collapsed + '\n\n'
      })
      return ret
    case 'LLAMA2':
      ret = conv.systemMessage ? S : '[INST] '
      msgs.forEach(([role, m], i) => {
        const tag = conv.roles[i % 2]
        if (role !== tag) {
          warnings.push({
            code: 'fastchat.llama2_role_by_position',
            message: `Message ${i} was appended as "${role}" but LLAMA2 style tags it "${tag}" by its position.`
          })
        }
        if (!isTruthyMessage(m)) return void (ret += tag)
        if (i === 0) ret += t(m, i, CONCAT_TUPLE_STR) + ' '
        else ret += tag + ' ' + t(m, i) + seps[i % 2]
      })
      return ret
    case 'LLAMA3':
      ret = '<|begin_of_text|>' + (conv.systemMessage ? S : '')
      msgs.forEach(([role, m], i) => {
        ret += `<|start_header_id|>${role}<|end_header_id|>\n\n`
        if (!isTruthyMessage(m)) return
        const text = t(m, i, ['AttributeError', "'tuple' object has no attribute 'strip'"])
        const stripped = pyStrip(text)
        if (stripped !== text) {
          warnings.push({
            code: 'fastchat.llama3_strip',
            message: `Message ${i}: LLAMA3 style strips leading and trailing whitespace from every message.`
          })
        }
        ret += stripped + '<|eot_id|>'
      })
      return ret
    case 'CHATGLM': {
      const roundAdd = conv.name === 'chatglm2' ? 1 : 0
      ret = S ? S + sep : ''
      msgs.forEach(([role, m], i) => {
        if (i % 2 === 0) ret += `[Round ${Math.floor(i / 2) + roundAdd}]${sep}`
        if (isImageMessage(m)) {
          // Python formats the tuple with repr(), which includes the image objects' own repr: unknowable here.
          throw new RenderError('TypeError', 'CHATGLM style would print the (text, images) tuple with repr()', i)
        }
        ret += isTruthyMessage(m) ? `${role}：${m}${sep}` : `${role}：`
      })
      return ret
    }
    case 'CHATML':
      ret = S === '' ? '' : S + sep + '\n'
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + '\n' + t(m, i) + sep + '\n' : role + '\n'))
      return ret
    case 'CHATGLM3':
      ret = conv.systemMessage ? S : ''
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + '\n' + t(m, i) : role))
      return ret
    case 'CHATINTERN':
      ret = S
      msgs.forEach(([role, m], i) => {
        if (i % 2 === 0) ret += '<s>'
        ret += isTruthyMessage(m) ? role + ':' + t(m, i) + seps[i % 2] + '\n' : role + ':'
      })
      return ret
    case 'DOLLY':
      ret = S
      msgs.forEach(([role, m], i) => {
        if (!isTruthyMessage(m)) return void (ret += role + ':\n')
        ret += role + ':\n' + t(m, i) + seps[i % 2]
        if (i % 2 === 1) ret += '\n\n'
      })
      return ret
    case 'PHOENIX':
      ret = S
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + ': <s>' + t(m, i) + '</s>' : role + ': <s>'))
      return ret
    case 'ROBIN':
      ret = S + sep
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + ':\n' + t(m, i) + sep : role + ':\n'))
      return ret
    case 'FALCON_CHAT':
      ret = conv.systemMessage ? S + sep : ''
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + ': ' + t(m, i) + sep : role + ':'))
      return ret
    case 'METAMATH':
      ret = S === '' ? '' : S + sep
      msgs.forEach(([role, m], i) => {
        // sep2 is a prefix of the answer here, not a separator.
        const starting = i % 2 === 0 ? ':\n' : ': ' + sep2
        const ending = i % 2 === 0 ? sep : ''
        ret += isTruthyMessage(m) ? role + starting + t(m, i) + ending : role + starting
      })
      return ret
    case 'DEEPSEEK_CHAT':
      ret = S
      msgs.forEach(([role, m], i) => (ret += isTruthyMessage(m) ? role + ': ' + t(m, i) + seps[i % 2] : role + ':'))
      return ret
    case 'YUAN2': {
      ret = conv.systemMessage ? S + seps[1] : ''
      msgs.forEach(([, m], i) => {
        if (isTruthyMessage(m)) ret += t(m, i, CONCAT_TUPLE_STR) + '<n>'
      })
      const stripped = pyRstripChars(ret, '<n>')
      let suffixOnly = ret
      while (suffixOnly.endsWith('<n>')) suffixOnly = suffixOnly.slice(0, -3)
      if (stripped !== suffixOnly) {
        warnings.push({
          code: 'fastchat.yuan2_rstrip_chars',
          message: `YUAN2 style calls rstrip("<n>"), which removes any trailing "<", "n" or ">" characters, so the end of the last message was eaten ("${suffixOnly.slice(stripped.length)}").`
        })
      }
      return stripped + seps[0]
    }
    case 'GEMMA':
      if (conv.systemMessage) {
        warnings.push({
          code: 'fastchat.system_ignored',
          message: 'GEMMA style ignores the system message: it does not appear in the prompt.'
        })
      }
      ret = '<bos>'
      msgs.forEach(([role, m], i) => {
        ret += isTruthyMessage(m) ? '<start_of_turn>' + role + '\n' + t(m, i) + sep : '<start_of_turn>' + role + '\n'
      })
      return ret
    case 'CLLM': {
      ret = S + seps[0]
      const start = Math.max(0, msgs.length - 2)
      if (start > 0) {
        warnings.push({
          code: 'fastchat.cllm_last_two_only',
          message: `CLLM style renders only the last two messages; ${start} earlier message(s) are left out of the prompt.`
        })
      }
      msgs.slice(start).forEach(([role, m], i) => {
        ret += isTruthyMessage(m) ? role + ': ' + t(m, start + i) + seps[i % 2] : role + ':'
      })
      return ret
    }
    case 'DEFAULT':
      ret = S + '\n'
      msgs.forEach(([role, m], i) => {
        if (!isTruthyMessage(m)) return void (ret += role + ':')
        if (isImageMessage(m)) {
          warnings.push({
            code: 'fastchat.images_dropped',
            message: `Message ${i}: DEFAULT style keeps only the text of an image message; the images leave no placeholder.`
          })
        }
        ret += role + ': ' + (isImageMessage(m) ? m.text : m) + '\n'
      })
      return ret
    default:
      throw new RenderError('ValueError', `Invalid style: ${style === null ? 'None' : `SeparatorStyle.${style}`}`, null)
  }
}
