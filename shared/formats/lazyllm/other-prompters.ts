// The small prompters around the two main ones: EmptyPrompter (pass-through), a bare LazyLLMPrompterBase subclass
// with a custom template (the doc's MyPrompter), and the legacy `Prompter` of prompter.py.
import { LazyLLMPrompterBase, type LazyllmResult, type LazyllmWarning } from './prompter-base'
import { PyError, isDict, pyFormat, pyRepr, pyStr, pyTypeRepr, type PyDict, type PyValue } from './python-values'
import { diagnostic } from '../../diagnostics'

/** `EmptyPrompter`: the input unchanged, or a single user message when an API format is asked for. */
export class EmptyPrompter {
  generatePrompt(input?: PyValue, opts: { format?: string | null; returnDict?: boolean } = {}): LazyllmResult<PyValue> {
    const warnings: LazyllmWarning[] = []
    if (opts.format || opts.returnDict)
      return { ok: true, result: { messages: [{ role: 'user', content: input ?? null }] }, warnings }
    return { ok: true, result: input ?? null, warnings }
  }

  /** No split marker: only a prompt prefix is removed. */
  getResponse(output: string, input?: string | null): LazyllmResult<string> {
    return { ok: true, result: input && output.startsWith(input) ? output.slice(input.length) : output, warnings: [] }
  }
}

/** A minimal `LazyLLMPrompterBase` subclass that calls `_init_prompt(template, instruction_template, split)`. */
export class CustomPrompter extends LazyLLMPrompterBase {
  constructor(template: string, instructionTemplate: string, split: string | null = null) {
    super({ show: false, tools: null })
    this.initPrompt(template, instructionTemplate, split)
  }
}

export const LEGACY_TEMPLATES: Readonly<Record<string, { prompt: string; response_split: string }>> = {
  alpaca: {
    prompt:
      'Below is an instruction that describes a task, paired with an input that provides further context. Write a response that appropriately completes the request.\n\n### Instruction:\n{instruction}\n\n### Input:\n{input}\n\n### Response:\n',
    response_split: '### Response:'
  },
  // The stray U+0D3F after the full stop is upstream's.
  puyu: {
    prompt:
      '<bos><|System|>:You are an AI assistant whose name is InternLM (书生·浦语).\n- InternLM (书生·浦语) is a conversational language model that is developed by Shanghai AI Laboratory (上海人工智能实验室). It is designed to be helpful, honest, and harmless.\n- InternLM (书生·浦语) can understand and communicate fluently in the language chosen by the user such as English and 中文.<eosys>\n<|Human|>:{instruction}<eoh>\n<|Assistant|>:please tell me what to do。ി\n<|Human|>:{input}<eoh>\n<|Assistant|>:',
    response_split: '<|Assistant|>:'
  }
}

export interface LegacyPrompterOptions {
  prompt?: string | null
  response_split?: string | null
  chat_prompt?: string | null
  history_symbol?: string
  eoa?: string | null
  eoh?: string | null
  show?: boolean
}

function keysOf(s: string): string[] {
  const seen: string[] = []
  for (const m of s.matchAll(/\{([\p{L}\p{N}_]+)\}/gu)) if (!seen.includes(m[1])) seen.push(m[1])
  return seen
}

/** The legacy `Prompter` (prompter.py): `str.format` on a prompt, optional chat history, response split. */
export class LegacyPrompter {
  readonly prompt: string | null
  readonly responseSplit: string | null
  chatPrompt: string | null
  readonly historySymbol: string
  readonly eoa: string | null
  readonly eoh: string | null
  readonly promptKeys: string[]
  readonly useHistory: boolean
  readonly initError: string | null = null

  constructor(opts: LegacyPrompterOptions = {}) {
    this.prompt = opts.prompt ?? null
    this.responseSplit = opts.response_split ?? null
    this.chatPrompt = opts.chat_prompt ?? null
    this.historySymbol = opts.history_symbol ?? 'llm_chat_history'
    this.eoa = opts.eoa ?? null
    this.eoh = opts.eoh ?? null
    this.promptKeys = this.prompt ? keysOf(this.prompt) : []
    if (this.chatPrompt !== null) {
      const chatKeys = keysOf(this.chatPrompt)
      const extra = chatKeys.filter((k) => !this.promptKeys.includes(k))
      if (
        !this.promptKeys.every((k) => chatKeys.includes(k)) ||
        extra.length !== 1 ||
        extra[0] !== this.historySymbol
      ) {
        this.initError = 'AssertionError: '
      }
      this.useHistory = true
    } else {
      this.useHistory = this.promptKeys.includes(this.historySymbol)
      if (this.useHistory) {
        this.promptKeys = this.promptKeys.filter((k) => k !== this.historySymbol)
        this.chatPrompt = this.prompt
      }
    }
  }

  static fromTemplate(name: string): LegacyPrompter | null {
    const t = Object.prototype.hasOwnProperty.call(LEGACY_TEMPLATES, name) ? LEGACY_TEMPLATES[name] : undefined
    return t ? new LegacyPrompter(t) : null
  }

  generatePrompt(
    input: PyValue,
    history: PyValue = null,
    tools: PyValue = null,
    label: string | null = null
  ): LazyllmResult<PyValue> {
    const warnings: LazyllmWarning[] = []
    const fail = (message: string): LazyllmResult<PyValue> => ({
      ok: false,
      warnings,
      error: diagnostic(`lazyllm.${message.split(':')[0]}`, 'error', message, { data: { stage: 'generate', class: 'Prompter' } })
    })
    if (this.initError) return fail(this.initError)
    if (this.prompt === null) return { ok: true, result: input, warnings }
    if (tools !== null) return fail('AssertionError: ')
    let args: PyDict
    if (!isDict(input)) {
      if (this.promptKeys.length !== 1) {
        return fail(
          `AssertionError: invalid prompt \`${this.prompt}\` for <${pyTypeRepr(input)}> input \`${pyStr(input)}\``
        )
      }
      args = { [this.promptKeys[0]]: input }
    } else args = { ...input }
    let text: string
    try {
      if (this.useHistory && Array.isArray(history) && history.length > 0) {
        if (!Array.isArray(history[0])) throw new PyError('AssertionError', 'history must be list of list')
        if (this.eoa === null || this.eoh === null) throw new PyError('TypeError', 'join on None')
        const eoh = this.eoh
        args[this.historySymbol] = history
          .map((h) => {
            if (!Array.isArray(h) || !h.every((x) => typeof x === 'string'))
              throw new PyError('TypeError', 'sequence item: expected str instance')
            return h.join(eoh)
          })
          .join(this.eoa)
        text = pyFormat(this.chatPrompt ?? '', args)
      } else {
        if (this.useHistory) args[this.historySymbol] = ''
        text = pyFormat(this.prompt, args)
      }
    } catch (e) {
      if (!(e instanceof PyError)) throw e
      return fail(
        `RuntimeError: Generate prompt failed, and prompt is ${this.prompt}; chat-prompt is ${this.chatPrompt ?? 'None'}; input is ${pyStr(args)}; history is ${pyRepr(history)}`
      )
    }
    if (label) text += label
    return { ok: true, result: text, warnings }
  }

  getResponse(response: string, input: string | null = null): string {
    if (input && response.startsWith(input)) return response.slice(input.length)
    if (this.responseSplit === null) return response
    const parts = response.split(this.responseSplit)
    return parts[parts.length - 1]
  }
}
