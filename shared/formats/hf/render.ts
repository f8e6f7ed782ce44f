// transformers' apply_chat_template around a compiled template: special tokens and kwargs merged into the
// context, `tools` and `documents` always passed (None when absent), raise_exception and strftime_now as
// globals, and continue_final_message's marker-and-cut. Errors come back as data, never thrown: a Diagnostic whose
// code is the kind of failure, `data.pyClass` the Python exception, and `range` the template text at fault
// (lines, columns and offsets into the text as given) when there is one.
import { startBudget, type RenderLimits } from './budget'
import { Scope, compileProgram, defaultGlobals } from './compile'
import { TemplateSyntaxError, spanOfError } from './positions'
import { strftime, toNaiveTime } from './strftime'
import { PyError, LimitExceeded, PyCallable, RaisedByTemplate, fromJs, str, typeName } from './values'
import { diagnostic, rangeFromOffsets, type Diagnostic } from '../../diagnostics'

export interface CompiledChatTemplate {
  readonly source: string
  /** @internal the compiled program */
  readonly run: (s: Scope, out: { s: string }) => number
}

export type CompileResult = { ok: true; template: CompiledChatTemplate } | { ok: false; error: Diagnostic }

export interface RenderOptions {
  messages: unknown[]
  tools?: unknown[] | null
  documents?: unknown[] | null
  add_generation_prompt?: boolean
  /** true continues `content`; a string names another field of the final message. */
  continue_final_message?: boolean | string
  /** bos_token, eos_token, … as transformers' special_tokens_map gives them; `extra` overrides. */
  special_tokens?: Record<string, unknown>
  /** Every other template kwarg (enable_thinking, date_string, …), each a top-level variable. */
  extra?: Record<string, unknown>
  /** The moment strftime_now reports: a Date, or "YYYY-MM-DDTHH:MM:SS" as naive local time. Default: now. */
  now?: Date | string
  /** Replaces single limits of DEFAULT_RENDER_LIMITS (steps, time, string and list sizes, macro nesting). */
  limits?: Partial<RenderLimits>
}

/** `limit_exceeded`: the template ran out of its budget (budget.ts); the place is where it was when it did. */
export type RenderErrorKind = 'raise_exception' | 'template_error' | 'limit_exceeded' | 'syntax_error' | 'input_error' | 'internal_error'

export type RenderResult = { ok: true; text: string; warnings: Diagnostic[] } | { ok: false; error: Diagnostic }

type Fail = Extract<RenderResult, { ok: false }>

/** A failure as data: `kind` its code, the Python class in data, and the template text at fault when `e` was placed. */
function failure(kind: RenderErrorKind, message: string, pyClass: string | undefined, placed?: { source: string; e: unknown }): Fail {
  const span = placed && spanOfError(placed.e)
  return {
    ok: false,
    error: diagnostic(kind, 'error', message, { ...(span ? { range: rangeFromOffsets(placed.source, span.start, span.end) } : {}), ...(pyClass ? { data: { pyClass } } : {}) })
  }
}

const cache = new Map<string, CompiledChatTemplate>()
const CACHE_LIMIT = 256

/** Compiles template text once; later calls with the same text return the cached template. */
export function compileChatTemplate(source: string): CompileResult {
  const hit = cache.get(source)
  if (hit) return { ok: true, template: hit }
  let run: CompiledChatTemplate['run']
  try {
    run = compileProgram(source)
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    const syntax = e instanceof TemplateSyntaxError
    return { ok: false, error: failure('syntax_error', syntax ? message : `cannot compile template: ${message}`, syntax ? e.pyClass : 'TemplateSyntaxError', { source, e }).error }
  }
  const template: CompiledChatTemplate = { source, run }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(source, template)
  return { ok: true, template }
}

const CFM_TAG = 'CONTINUE_FINAL_MESSAGE_TAG '

// jinja2's own globals hold no per-render state (each call makes a fresh namespace or cycler), so one
// scope serves every render; transformers' two globals are added per render because they close over it.
const JINJA_GLOBALS = new Scope(null)
for (const [k, v] of defaultGlobals()) JINJA_GLOBALS.vars.set(k, v)

const inputError = (message: string, pyClass = 'ValueError'): Fail => failure('input_error', message, pyClass)

/** Appends the continuation marker as transformers does; returns the final text, or an error. */
function markFinalMessage(messages: unknown[], field: string, source: string): { final: string } | Fail {
  const last = messages[messages.length - 1]
  const final = last instanceof Map ? last.get(field) : undefined
  if (final === undefined || final === null) return inputError(`continue_final_message is set but the final message has no "${field}" to continue!`)
  if (!source.includes(field)) return inputError(`continue_final_message is set to "${field}" but this is not an accepted field in the chat_template`)
  if (Array.isArray(final)) {
    for (let i = final.length - 1; i >= 0; i--) {
      const block = final[i]
      if (block instanceof Map && block.has('text')) {
        const text = block.get('text')
        if (typeof text !== 'string') return inputError(`unsupported operand type(s) for +: '${typeName(text)}' and 'str'`, 'TypeError')
        block.set('text', text + CFM_TAG)
        return { final: text }
      }
    }
    return inputError('continue_final_message is set but we could not find any text to continue in the final message!')
  }
  if (typeof final !== 'string') return inputError(`unsupported operand type(s) for +: '${typeName(final)}' and 'str'`, 'TypeError')
  ;(last as Map<string, unknown>).set(field, final + CFM_TAG)
  return { final }
}

/** Python's str.strip() on whitespace. */
const pyStrip = (s: string): string => s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, '')
const pyRstrip = (s: string): string => s.replace(/[\s\x1c-\x1f\x85]+$/, '')

/** Cuts the rendered chat at the marker as transformers does. */
function cutAtMarker(rendered: string, final: string): { text: string; trimmed: boolean } | Fail {
  const tag = CFM_TAG.trim()
  if (!rendered.includes(pyStrip(final)) || !rendered.includes(tag)) {
    return inputError(
      'continue_final_message is set but the final message does not appear in the chat after applying the chat template! ' +
        'This can happen if the chat template deletes portions of the final message. Please verify the chat template and ' +
        `final message in your chat to ensure they are compatible.Final message to continue: ${pyStrip(final)}\nRendered chat:\n${rendered}`
    )
  }
  const at = rendered.lastIndexOf(tag)
  if (rendered.slice(at, at + CFM_TAG.length) === CFM_TAG) return { text: rendered.slice(0, at), trimmed: false }
  return { text: pyRstrip(rendered.slice(0, at)), trimmed: true }
}

/** Renders a chat template exactly as transformers' apply_chat_template(tokenize=False) would. */
export function renderChatTemplate(t: CompiledChatTemplate | string, opts: RenderOptions): RenderResult {
  let template: CompiledChatTemplate
  if (typeof t === 'string') {
    const c = compileChatTemplate(t)
    if (!c.ok) return c
    template = c.template
  } else template = t

  const warnings: Diagnostic[] = []
  if (!Array.isArray(opts.messages)) return inputError('messages must be a list of messages', 'TypeError')
  const cfm = opts.continue_final_message
  if (cfm && opts.add_generation_prompt) {
    return inputError('continue_final_message and add_generation_prompt are not compatible. Use continue_final_message when you want the model to continue the final message, and add_generation_prompt when you want to add a header that will prompt it to start a new assistant message instead.')
  }
  if (opts.documents != null && (!Array.isArray(opts.documents) || opts.documents.some((d) => d === null || typeof d !== 'object' || Array.isArray(d)))) {
    return inputError("Documents should be a list of dicts with 'title' and 'text' keys!", 'TypeError')
  }
  if (opts.tools != null && (!Array.isArray(opts.tools) || opts.tools.some((d) => d === null || typeof d !== 'object' || Array.isArray(d)))) {
    return inputError('Tools should either be a JSON schema, or a callable function with type hints and a docstring suitable for auto-conversion to a schema.')
  }

  // Converted up front: input nested too deeply for the template to print is refused here, as input.
  const root = new Scope(null)
  let messages: unknown[]
  try {
    messages = fromJs(opts.messages) as unknown[]
    const special = opts.special_tokens ?? {}
    for (const k of Object.keys(special)) {
      const v = special[k]
      if (v !== null && v !== undefined) root.vars.set(k, fromJs(v))
    }
    const extra = opts.extra ?? {}
    for (const k of Object.keys(extra)) {
      const v = extra[k]
      if (v !== undefined) root.vars.set(k, fromJs(v))
    }
    root.vars.set('messages', messages)
    root.vars.set('tools', opts.tools == null ? null : fromJs(opts.tools))
    root.vars.set('documents', opts.documents == null ? null : fromJs(opts.documents))
  } catch (e) {
    return inputError(e instanceof Error ? e.message : String(e))
  }
  let final: string | null = null
  if (cfm) {
    if (messages.length === 0) return inputError('continue_final_message is set but there are no messages', 'IndexError')
    const marked = markFinalMessage(messages, typeof cfm === 'string' ? cfm : 'content', template.source)
    if ('ok' in marked) return marked
    final = marked.final
  }

  const globals = new Scope(JINJA_GLOBALS)
  globals.vars.set(
    'raise_exception',
    new PyCallable('raise_exception', (args) => {
      throw new RaisedByTemplate(args.length ? str(args[0]) : '')
    })
  )
  let clockUsed = false
  // Read the clock only when the template asks for it: most templates never do, and this runs once per render.
  let moment: ReturnType<typeof toNaiveTime> | null = null
  globals.vars.set(
    'strftime_now',
    new PyCallable('strftime_now', (args) => {
      clockUsed = true
      if (typeof args[0] !== 'string') throw new PyError('TypeError', `strftime() argument 1 must be str, not ${typeName(args[0])}`)
      moment ??= toNaiveTime(opts.now)
      return strftime(args[0], moment)
    })
  )
  root.parent = globals
  root.vars.set('add_generation_prompt', !!opts.add_generation_prompt)

  const out = { s: '' }
  try {
    startBudget(opts.limits)
    template.run(root, out)
  } catch (e) {
    const placed = { source: template.source, e }
    if (e instanceof RaisedByTemplate) return failure('raise_exception', e.message, 'TemplateError', placed)
    if (e instanceof LimitExceeded) return failure('limit_exceeded', e.message, e.pyClass, placed)
    // A size no check foresaw (the engine's own string or array limit): still the template's doing, at its place.
    if (e instanceof RangeError && /Invalid (string|array|typed array) length|Array buffer allocation failed/.test(e.message)) {
      return failure('limit_exceeded', `the template built a value too large to hold (${e.message})`, 'LimitExceeded', placed)
    }
    if (e instanceof PyError) return failure('template_error', e.message, e.pyClass, placed)
    if (e instanceof RangeError) return failure('template_error', e.message, 'RecursionError', placed)
    return failure('internal_error', e instanceof Error ? e.message : String(e), undefined, placed)
  }
  let text = out.s
  if (final !== null) {
    const cut = cutAtMarker(text, final)
    if ('ok' in cut) return cut
    text = cut.text
    if (cut.trimmed) warnings.push(diagnostic('continue_trimmed', 'warning', 'the template trimmed the final message, so the continuation point was right-stripped'))
  }
  if (clockUsed && opts.now === undefined) {
    warnings.push(diagnostic('clock_used', 'warning', 'the template calls strftime_now and no fixed time was given, so the output depends on when it is rendered'))
  }
  return { ok: true, text, warnings }
}
