// `LazyLLMPrompterBase` (lazyllm/components/prompter/builtinPrompt.py at LazyAGI/LazyLLM@9d28284): the shared
// generate_prompt pipeline of AlpacaPrompter and ChatPrompter — slots, FC prompt, tool tokens, both history forms,
// the string / openai / anthropic renderers and get_response — reproduced with upstream's quirks, each of which
// adds a warning when it changes what the user would expect.
import { json5Dumps, json5Loads } from './json5'
import { MODEL_CONFIG_KEYS, type ModelConfigs } from './model-configs'
import {
  PyError,
  isDict,
  pyFormat,
  pyRepr,
  pyStr,
  pyStrip,
  pyTruthy,
  pyTypeName,
  pyTypeRepr,
  unpackPair,
  type PyDict,
  type PyValue
} from './python-values'
import { diagnostic, type Diagnostic, type DiagnosticData } from '../../diagnostics'

export const DEFAULT_SYSTEM = 'You are an AI-Agent developed by LazyLLM.'
export const ISA = '<!lazyllm-spliter!>'
export const ISE = '</!lazyllm-spliter!>'
export const FC_PROMPT_PLACEHOLDER = '<!lazyllm-fc-prompt!>'
export const FC_PROMPT =
  "{tool_start_token}tool name (one of {tool_names})\n{tool_args_token}the input to the tool, in a JSON format representing the kwargs. Can only return json.\n{tool_end_token}end of tool.\n(e.g. {tool_start_token}tool_name\n{tool_args_token}{{'input': 'hello world', 'num_beams': 5}}\n{tool_end_token}).\n"

const TOOL_TOKENS = ['tool_start_token', 'tool_args_token', 'tool_end_token'] as const

export interface LazyllmWarning {
  code: string
  message: string
}

export type LazyllmStage = 'init' | 'generate' | 'response'

export type LazyllmResult<T> =
  | { ok: true; result: T; warnings: LazyllmWarning[] }
  /** The error's message is Python's own rendering, `"<ExceptionClass>: <str(exc)>"`; data.stage is a LazyllmStage. */
  | { ok: false; error: Diagnostic; warnings: LazyllmWarning[] }

/** A tool list, or a function LazyLLM calls per request (upstream: a callable wrapped as a dynamic value). */
export type ToolsSource = PyValue[] | ((ctx: { query: PyValue; history: PyValue }) => PyValue[] | null) | null
export type SkillsSource = string | ((ctx: { query: PyValue; history: PyValue }) => string) | null

export type PreHook = (
  input: PyValue,
  history: PyValue,
  tools: PyValue,
  label: string | null
) => [PyValue, PyValue, PyValue, string | null]

export interface BaseOptions {
  show?: boolean
  tools?: ToolsSource
  history?: PyValue[] | null
  skills?: SkillsSource
  enableSystem?: boolean
  /** LazyLLM config `disable_system_prompt` (env LAZYLLM_DISABLE_SYSTEM_PROMPT), read at construction. */
  disableSystemPrompt?: boolean
}

export interface GenerateOptions {
  history?: PyValue[] | null
  tools?: PyValue[] | null
  label?: string | null
  show?: boolean
  /** Deprecated upstream: same as `format: 'openai'` when no format is given. */
  returnDict?: boolean
  /** null/undefined: the string prompt; 'openai' / 'anthropic': API payloads; anything else: see warnings. */
  format?: string | null
}

/** Turns a PyError raised inside the pipeline into the data callers get. */
export function errorFromException(
  e: unknown,
  stage: LazyllmStage,
  at: DiagnosticData
): Diagnostic {
  if (e instanceof PyError) return diagnostic(`lazyllm.${e.pyClass}`, 'error', e.pyMessage, { data: { stage, ...at } })
  throw e
}

/** `_get_extro_key_template` (the old spelling survives upstream). */
export function extraKeyTemplate(extraKeys: unknown): string {
  if (!pyTruthy(extraKeys as PyValue)) return ''
  const keys = typeof extraKeys === 'string' ? [extraKeys] : extraKeys
  if (!Array.isArray(keys)) throw new PyError('AssertionError', 'Only str, tuple[str], list[str] are supported')
  return (
    'Here are some extra messages you can referred to:\n\n' +
    keys.map((k) => `### ${pyStr(k as PyValue)}:\n{${pyStr(k as PyValue)}}\n\n`).join('')
  )
}

/** An instruction as AlpacaPrompter and ChatPrompter take it: a string, or `{system?, user?}` (other keys are ignored). */
export type InstructionArg = string | { system?: string; user?: string; [key: string]: unknown } | null

/** The arguments AlpacaPrompter and ChatPrompter add: the instruction and the extra keys it may name. */
export interface InstructionOptions {
  instruction?: InstructionArg
  extraKeys?: string | string[] | null
}

/** An instruction given as `{system, user}`: its parts ('' where one is absent or not a str); null for a str or None. */
export function instructionParts(ins: InstructionArg | undefined): { system: string; user: string } | null {
  if (ins === null || ins === undefined || typeof ins !== 'object') return null
  return { system: typeof ins.system === 'string' ? ins.system : '', user: typeof ins.user === 'string' ? ins.user : '' }
}

/** What `_generate_prompt_impl` and its API-format siblings render from: the split instruction and the filled parts. */
interface PromptParts {
  /** The system part of the instruction (before the user-instruction markers). */
  instruction: string
  input: PyValue
  /** The user part of the instruction (between the markers). */
  user: string
  history: PyValue
  tools: PyValue
  skills: string
}

function slotsOf(instruction: string): string[] {
  const seen: string[] = []
  for (const m of instruction.matchAll(/\{([\p{L}\p{N}_]+)\}/gu)) if (!seen.includes(m[1])) seen.push(m[1])
  return seen
}

export class LazyLLMPrompterBase {
  system = DEFAULT_SYSTEM
  sos = ''
  soh = ''
  soa = ''
  eos = ''
  eoh = ''
  eoa = ''
  /** Unset until a model config provides them; upstream reads them with getattr(..., default). */
  soe: string | undefined
  eoe: string | undefined
  tool_start_token: string | undefined
  tool_args_token: string | undefined
  tool_end_token: string | undefined
  show: boolean
  tools: ToolsSource
  skills: SkillsSource
  history: PyValue[]
  enableSystem: boolean
  preHook: PreHook | null = null
  template = ''
  instructionTemplate = ''
  protected fixedSplit: string | null = null
  /** Set when the constructor raised upstream; every call then reports it. */
  initError: Diagnostic | null = null
  readonly initWarnings: LazyllmWarning[] = []
  private warnings: LazyllmWarning[] = []

  constructor(opts: BaseOptions = {}) {
    if (opts.disableSystemPrompt) this.system = ''
    this.show = opts.show ?? false
    this.tools = opts.tools ?? null
    this.skills = opts.skills ?? ''
    this.history = opts.history ?? []
    this.enableSystem = opts.enableSystem ?? true
  }

  /** A subclass's `__init__` body: what it raises upstream becomes the prompter's initError, reported by every call. */
  protected initAs(cls: string, body: () => void): void {
    try {
      body()
    } catch (e) {
      this.initError = errorFromException(e, 'init', { class: cls })
    }
  }

  protected initPrompt(template: string, instructionTemplate: string, split: string | null = null): void {
    this.template = template
    this.instructionTemplate = instructionTemplate
    if (split) this.fixedSplit = split
  }

  /** The response split marker (`_split`). */
  get split(): string | null {
    return this.fixedSplit
  }

  /**
   * `_set_model_configs(**configs)`: sets the keys whose value is not null; `separator`, `plugin`, `interpreter`
   * and `stop_words` are accepted and ignored. Returns the TypeError Python raises for any other key.
   */
  setModelConfigs(configs: ModelConfigs | Record<string, unknown>): Diagnostic | null {
    for (const [key, value] of Object.entries(configs)) {
      if (!(MODEL_CONFIG_KEYS as readonly string[]).includes(key)) {
        return diagnostic('lazyllm.TypeError', 'error', `TypeError: _set_model_configs() got an unexpected keyword argument '${key}'`, { data: { stage: 'init', key } })
      }
      if (value === null || value === undefined) continue
      if (['separator', 'plugin', 'interpreter', 'stop_words'].includes(key)) continue
      ;(this as unknown as Record<string, unknown>)[key] = value
    }
    return null
  }

  setPreHook(fn: PreHook | null): this {
    this.preHook = fn
    return this
  }

  protected warn(code: string, message: string): void {
    if (!this.warnings.some((w) => w.code === code && w.message === message)) this.warnings.push({ code, message })
  }

  generatePrompt(input?: PyValue, opts: GenerateOptions = {}): LazyllmResult<string | PyDict> {
    this.warnings = [...this.initWarnings]
    if (this.initError) return { ok: false, error: this.initError, warnings: this.warnings }
    try {
      const result = this.generate(input ?? null, opts)
      return { ok: true, result, warnings: this.warnings }
    } catch (e) {
      return {
        ok: false,
        error: errorFromException(e, 'generate', { method: 'generate_prompt' }),
        warnings: this.warnings
      }
    }
  }

  /** `get_response(output, input=None)`. */
  getResponse(output: string, input?: string | null): LazyllmResult<string> {
    this.warnings = [...this.initWarnings]
    if (this.initError) return { ok: false, error: this.initError, warnings: this.warnings }
    if (input && output.startsWith(input))
      return { ok: true, result: output.slice(input.length), warnings: this.warnings }
    const split = this.split
    if (split === null || split === undefined) return { ok: true, result: output, warnings: this.warnings }
    const parts = output.split(split)
    return { ok: true, result: parts[parts.length - 1], warnings: this.warnings }
  }

  // ---- the pipeline (may throw PyError) ---------------------------------------------------------------------------

  protected generate(rawInput: PyValue, opts: GenerateOptions): string | PyDict {
    let format = opts.format ?? null
    if (opts.returnDict && format === null) {
      format = 'openai'
      this.warn('lazyllm.return_dict_deprecated', 'return_dict=True is deprecated upstream; it means format="openai".')
    }
    let input: PyValue = structuredCopy(rawInput)
    let history: PyValue = opts.history ?? null
    let callTools: PyValue = opts.tools ?? null
    let label = opts.label ?? null
    if (this.preHook) [input, history, callTools, label] = this.preHook(input, history, callTools, label)

    if (Array.isArray(callTools) && callTools.length === 0 && pyTruthy(this.tools as PyValue)) {
      this.warn(
        'lazyllm.empty_tools_fall_back',
        'tools=[] at call time does not clear the constructor tools: an empty list falls back to them.'
      )
    }
    const ctx = { query: input, history }
    let tools: PyValue = pyTruthy(callTools)
      ? callTools
      : typeof this.tools === 'function'
        ? this.tools(ctx)
        : this.tools
    if (typeof callTools === 'function') tools = (callTools as (c: typeof ctx) => PyValue)(ctx)
    const skills = typeof this.skills === 'function' ? this.skills(ctx) : (this.skills ?? '')

    const forChatApi = pyTruthy(format)
    if (forChatApi && format !== 'openai' && format !== 'anthropic') {
      this.warn(
        'lazyllm.unknown_format',
        `format=${JSON.stringify(format)} is not "openai" or "anthropic": upstream renders the string prompt, with API-shaped history and tools printed as Python reprs.`
      )
    }
    const filled = this.instructionAndInput(input, forChatApi, tools)
    const instruction = filled[0]
    input = filled[1]
    const histories = this.histories(history, forChatApi)
    const toolsPart = this.toolsPart(tools, forChatApi)
    this.checkValues(instruction, input, histories, toolsPart)
    const [systemInstruction, userInstruction] = this.splitInstruction(instruction)
    const parts: PromptParts = { instruction: systemInstruction, input, user: userInstruction, history: histories, tools: toolsPart, skills }
    if (format === 'anthropic') return this.renderAnthropic(parts)
    if (format === 'openai') return this.renderDict(parts)
    if (!this.enableSystem) {
      this.warn(
        'lazyllm.enable_system_ignored',
        'enable_system=False only affects API formats; the string prompt still contains the system text.'
      )
    }
    return this.renderString(parts, label)
  }

  /** `_handle_tool_call_instruction`. */
  private substituteToolTokens(instruction: string, tools: PyValue): string {
    const subs: [string, string][] = []
    for (const key of TOOL_TOKENS) {
      const value = this[key]
      if (value && instruction.includes(key)) subs.push([key, value])
    }
    if (instruction.includes('tool_names')) subs.push(['tool_names', this.toolNames(tools)])
    return subs.reduce((s, [k, v]) => s.replaceAll(`{${k}}`, v), instruction)
  }

  private toolNames(tools: PyValue): string {
    if (!pyTruthy(tools)) return ''
    const names = (tools as PyValue[]).map((t) => {
      if (!isDict(t) || !('function' in t)) throw new PyError('KeyError', "'function'")
      const fn = t.function
      if (!isDict(fn) || !('name' in fn)) throw new PyError('KeyError', "'name'")
      return fn.name
    })
    return json5Dumps(names)
  }

  /** `_get_instruction_and_input`. */
  private instructionAndInput(input: PyValue, forChatApi: boolean, tools: PyValue): [string, PyValue] {
    let instruction = this.instructionTemplate
    const fcPrompt = forChatApi || !pyTruthy(tools) ? '' : FC_PROMPT
    if (fcPrompt && !instruction.includes(FC_PROMPT_PLACEHOLDER)) instruction = `${instruction}\n\n${fcPrompt}`
    instruction = instruction.replaceAll(FC_PROMPT_PLACEHOLDER, fcPrompt)
    instruction = this.substituteToolTokens(instruction, tools)
    const slots = slotsOf(instruction)
    if (fcPrompt) {
      const missing = TOOL_TOKENS.filter((k) => slots.includes(k))
      if (missing.length > 0) {
        this.warn(
          'lazyllm.tools_need_tool_tokens',
          `String-mode tools need the model's tool tokens; ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} unset, so upstream leaves them as slots and the call fails unless the input supplies them.`
        )
      }
    }
    // isinstance(input, (str, int)): bool is an int subclass, but a float is neither and falls to the assert below.
    if (
      typeof input === 'string' ||
      typeof input === 'boolean' ||
      (typeof input === 'number' && Number.isInteger(input))
    ) {
      if (slots.length === 1) {
        if (/\{\{|\}\}/.test(instruction)) {
          this.warn(
            'lazyllm.format_unescapes_braces',
            'A string input is filled in with str.format, which turns {{ and }} in the instruction into single braces.'
          )
        }
        return [pyFormat(instruction, { [slots[0]]: input }), '']
      }
      if (slots.length !== 0) throw new PyError('AssertionError', '')
      return [instruction, input]
    }
    if (!isDict(input)) {
      throw new PyError(
        'AssertionError',
        `expected types are str, int and dict, bug get ${pyTypeRepr(input)}(\`${pyStr(input)})\``
      )
    }
    const rest: PyDict = { ...input }
    const missingSlots = slots.filter((k) => !(k in rest))
    if (missingSlots.length > 1) {
      this.warn(
        'lazyllm.slot_order_nondeterministic',
        `Several slots are missing from the input (${missingSlots.join(', ')}); upstream reports whichever comes first in a Python set, which depends on the hash seed.`
      )
    }
    const kwargs: [string, PyValue][] = []
    for (const k of slots) {
      if (!(k in rest)) throw new PyError('KeyError', pyRepr(k))
      kwargs.push([k, rest[k]])
      delete rest[k]
    }
    const leftover = Object.keys(rest)
    if (leftover.length > 1) throw new PyError('AssertionError', `Unexpected keys found in input: ${pyRepr(leftover)}`)
    if (kwargs.length > 0 && /\{\{|\}\}/.test(instruction)) {
      this.warn(
        'lazyllm.replace_keeps_doubled_braces',
        'A dict input is filled in with str.replace, so {{ and }} in the instruction stay doubled.'
      )
    }
    const filled = kwargs.reduce((s, [k, v]) => {
      if (typeof v !== 'string')
        throw new PyError('TypeError', `replace() argument 2 must be str, not ${pyTypeName(v)}`)
      return s.replaceAll(`{${k}}`, v)
    }, instruction)
    return [filled, leftover.length ? rest[leftover[0]] : '']
  }

  /** `_get_histories`. */
  private histories(callHistory: PyValue, forChatApi: boolean): string | PyValue[] {
    const call = Array.isArray(callHistory) ? callHistory : []
    if (!pyTruthy(this.history) && !pyTruthy(callHistory)) return ''
    if (forChatApi) {
      const content: PyValue[] = []
      for (const item of [...this.history, ...call]) {
        if (Array.isArray(item)) {
          if (item.length > 2) throw new PyError('AssertionError', 'history item length cannot be greater than 2')
          if (item.length > 0) content.push({ role: 'user', content: item[0] })
          if (item.length > 1) content.push({ role: 'assistant', content: item[1] })
        } else if (isDict(item)) content.push(item)
        else throw new PyError('ValueError', 'history must be a list of list or dict')
      }
      return content
    }
    const pair = (item: PyValue): string => {
      if (isDict(item)) {
        this.warn(
          'lazyllm.history_dict_unpacked',
          'A message dict inside a pair-form history is unpacked into its two keys (e.g. "rolecontent").'
        )
      }
      const [q, a] = unpackPair(item)
      return `${this.soh}${pyStr(q)}${this.eoh}${this.soa}${pyStr(a)}${this.eoa}`
    }
    let ret = this.history.map(pair).join('')
    if (!pyTruthy(callHistory)) return ret
    const first = call[0]
    if (Array.isArray(first)) return ret + call.map(pair).join('')
    if (!isDict(first))
      throw new PyError('NotImplementedError', 'Cannot transform json history to {type(history[0])} now')
    for (const item of call) {
      if (!isDict(item))
        throw new PyError('TypeError', `${pyTypeName(item)} indices must be integers or slices, not str`)
      if (!('role' in item)) throw new PyError('KeyError', "'role'")
      const role = item.role
      if (role === 'user') {
        if (!('content' in item)) throw new PyError('KeyError', "'content'")
        ret += `${this.soh}${pyStr(item.content)}${this.eoh}`
      } else if (role === 'assistant') {
        ret += this.assistantTurn(item)
      } else if (role === 'tool') {
        ret += `${this.soe ?? ''}${this.toolResult(item)}${this.eoe ?? ''}`
      } else {
        this.warn(
          'lazyllm.history_role_dropped',
          `A "${pyStr(role)}" message in the history is dropped from the string prompt.`
        )
      }
    }
    return ret
  }

  private assistantTurn(item: PyDict): string {
    let ret = this.soa
    const content = 'content' in item ? item.content : ''
    if (content === null)
      this.warn('lazyllm.history_none_content', 'An assistant message with content None renders as the text "None".')
    ret += pyStr(content)
    const calls = 'tool_calls' in item ? item.tool_calls : []
    if (!Array.isArray(calls)) throw new PyError('TypeError', `object of type '${pyTypeName(calls)}' has no len()`)
    for (const call of calls) {
      if (!isDict(call) || !('function' in call)) throw new PyError('KeyError', "'function'")
      let fn: PyValue = call.function
      if (this.tool_args_token) {
        if (!isDict(fn) || !('name' in fn)) throw new PyError('KeyError', "'name'")
        if (!('arguments' in fn)) throw new PyError('KeyError', "'arguments'")
        fn = pyStr(fn.name) + this.tool_args_token + json5Dumps(fn.arguments)
      } else {
        this.warn(
          'lazyllm.history_tool_call_repr',
          'Without a tool_args_token, each tool call is printed as a Python dict repr.'
        )
      }
      ret += `${this.tool_start_token ?? ''}\n${pyStr(fn)}${this.tool_end_token ?? ''}\n`
    }
    return ret + this.eoa
  }

  private toolResult(item: PyDict): string {
    // The KeyError inside `try` is swallowed, but the `except` branch reads item['content'] again and raises it.
    if (!('content' in item)) throw new PyError('KeyError', "'content'")
    const raw = item.content
    if (typeof raw !== 'string') return pyStr(raw)
    try {
      const parsed = json5Loads(pyStrip(raw))
      if (typeof parsed !== 'string' && (isDict(parsed) || Array.isArray(parsed))) {
        this.warn(
          'lazyllm.tool_result_repr',
          'A JSON tool result is parsed and printed as a Python repr (single quotes, True/None).'
        )
      }
      return pyStr(parsed)
    } catch (e) {
      if (e instanceof PyError) return raw
      throw e
    }
  }

  /** `_get_tools`. */
  private toolsPart(tools: PyValue, forChatApi: boolean): PyValue {
    if (forChatApi) return tools
    return pyTruthy(tools) ? '### Function-call Tools. \n\n' + json5Dumps(tools) + '\n\n' : ''
  }

  protected checkValues(_instruction: string, _input: PyValue, _history: PyValue, _tools: PyValue): void {}

  /** `_split_instruction`: only with both markers; everything after the closing marker is dropped. */
  private splitInstruction(instruction: string): [string, string] {
    const a = instruction.indexOf(ISA)
    if (a < 0 || !instruction.includes(ISE)) return [instruction, '']
    const e = instruction.lastIndexOf(ISE)
    if (e < a + ISA.length) return [instruction, '']
    const dropped = instruction.slice(e + ISE.length)
    if (dropped.trim() !== '') {
      this.warn(
        'lazyllm.after_user_instruction_dropped',
        `Text after the user instruction is dropped (${JSON.stringify(dropped.slice(0, 60))}${dropped.length > 60 ? '…' : ''}), including any function-call prompt.`
      )
    }
    return [instruction.slice(0, a), instruction.slice(a + ISA.length, e)]
  }

  /** `_generate_prompt_impl`. */
  private renderString(parts: PromptParts, label: string | null): string {
    const { instruction, user, history, tools, skills } = parts
    let input = parts.input
    let isTool = false
    if (isDict(input)) {
      // Upstream bug: it reads .get('role') from the extracted content, which is normally a string.
      this.warn(
        'lazyllm.dict_input_crashes',
        'A message dict left over as the input crashes upstream string rendering (it calls .get on the content).'
      )
      const content: PyValue = 'content' in input ? input.content : ''
      if (!isDict(content))
        throw new PyError('AttributeError', `'${pyTypeName(content)}' object has no attribute 'get'`)
      input = content
      isTool = content.role === 'tool'
    } else if (Array.isArray(input)) {
      for (const item of input)
        if (!isDict(item)) throw new PyError('AttributeError', `'${pyTypeName(item)}' object has no attribute 'get'`)
      isTool = input.some((item) => (item as PyDict).role === 'tool')
      input = input
        .map((item, idx) => {
          const c: PyValue = 'content' in (item as PyDict) ? (item as PyDict).content : ''
          if (typeof c !== 'string')
            throw new PyError('TypeError', `sequence item ${idx}: expected str instance, ${pyTypeName(c)} found`)
          return c
        })
        .join('\n')
    }
    if (history !== '' && typeof history !== 'string') {
      this.warn('lazyllm.api_history_as_repr', 'API-shaped history is printed into the string prompt as a Python repr.')
    }
    if (typeof tools !== 'string')
      this.warn('lazyllm.api_tools_as_repr', 'API-shaped tools are printed into the string prompt as a Python repr.')
    const params: Record<string, PyValue> = {
      system: this.system,
      instruction,
      input,
      user,
      history,
      tools,
      skills,
      sos: this.sos,
      eos: this.eos,
      soh: isTool ? (this.soe ?? this.soh) : this.soh,
      eoh: isTool ? (this.eoe ?? this.eoh) : this.eoh,
      soa: this.soa,
      eoa: this.eoa
    }
    return (pyFormat(this.template, params) + (label ? label : '')).replace(/^\n+/, '')
  }

  /** `_generate_prompt_dict_impl` (format "openai"). */
  private renderDict({ instruction, input, user, history, tools, skills }: PromptParts): PyDict {
    const messages: PyValue[] = Array.isArray(history) ? history : []
    if (typeof input === 'string') messages.push({ role: 'user', content: input })
    else if (isDict(input)) messages.push(input)
    else if (Array.isArray(input) && input.every(isDict)) messages.push(...input)
    else throw new PyError('TypeError', 'input must be a string or a dict')
    if (user) {
      if (messages.length === 0) throw new PyError('IndexError', 'list index out of range')
      const last = messages[messages.length - 1] as PyDict
      const content = last.content
      if (typeof content !== 'string')
        throw new PyError('TypeError', `can only concatenate str (not "${pyTypeName(content)}") to str`)
      messages[messages.length - 1] = { ...last, content: user + content }
    }
    if (this.enableSystem) {
      messages.unshift({ role: 'system', content: [this.system, instruction, skills].filter((x) => x).join('\n') })
    }
    return pyTruthy(tools) ? { messages, tools } : { messages }
  }

  /** The anthropic renderer: the openai payload minus system messages; the last one becomes `system`. */
  private renderAnthropic(parts: PromptParts): PyDict {
    const base = this.renderDict(parts)
    const all = base.messages as PyDict[]
    const systems = all.filter((m) => isDict(m) && m.role === 'system')
    if (systems.length > 1) {
      this.warn(
        'lazyllm.anthropic_last_system_wins',
        `${systems.length} system messages: the anthropic payload keeps only the content of the last one.`
      )
    }
    const out: PyDict = { messages: all.filter((m) => !(isDict(m) && m.role === 'system')) }
    if (systems.length > 0) out.system = systems[systems.length - 1].content
    if (pyTruthy(parts.tools)) out.tools = parts.tools
    return out
  }
}

/** `copy.deepcopy` for plain data. */
function structuredCopy(v: PyValue): PyValue {
  if (Array.isArray(v)) return v.map(structuredCopy)
  if (isDict(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, structuredCopy(x)]))
  return v
}
