// A chat-template model as lm-evaluation-harness sends it: HFLM with `--apply_chat_template`, the prompt built by
// ConfigurableTask.fewshot_context (EleutherAI/lm-evaluation-harness@4e7e0d47f33bc71070c1d38394bafbb52b117163,
// lm_eval/api/task.py, lm_eval/api/utils.py, lm_eval/models/huggingface.py). Golden cases made by running that code:
// test/conformance/cases-local/lm-eval.jsonl (generator: test/tools/harness-goldens/lm_eval_goldens.py).
//
// How a PromptLoom row becomes an lm-eval task doc (README "Harnesses"): the dataset config's PromptList is split
// into turns with the API parser (HUMAN → user, BOT → assistant, SYSTEM → system; same roles joined with "\n", an
// empty turn kept). The SYSTEM text is the task's `description` (unless the options give one); each in-context
// example round is a few-shot doc whose doc_to_text is its user text and doc_to_target its assistant text, taken in
// the retriever's order (lm-eval's first_n sampler over exactly those docs); the row's own user text is the eval
// doc's doc_to_text. The final BOT prefix of the template (e.g. "A: ") has no counterpart: lm-eval only prefills
// with gen_prefix. A plain string template is one doc_to_text holding everything.
import { PyError, errorText } from '../python/errors'
import { applyMetaTemplate, parsedJson } from '../engine'
import type { Prompt } from '../engine'
import type { HarnessTrace } from '../api/types'
import type { LmEvalOptions, ModelProfile } from './profile'
import { renderForModel } from './render-for-model'
import type { ChatMessage } from './renderers'
import type { HarnessSpec, WrapOptions, WrapResult } from './harness'

/** The parser that splits the dataset PromptList into turns: HUMAN/BOT rounds, SYSTEM kept as a system turn. */
const SPLIT_META = Object.freeze({
  round: [
    { role: 'HUMAN', api_role: 'HUMAN' },
    { role: 'BOT', api_role: 'BOT', generate: true }
  ],
  reserved_roles: [{ role: 'SYSTEM', api_role: 'SYSTEM' }]
})

export function lmEvalOptions(h: HarnessSpec): LmEvalOptions {
  return h.model_kwargs as LmEvalOptions
}

export const LM_EVAL_LABEL = 'lm-evaluation-harness HFLM'

/** Python's str.isspace on one character, as lm_eval.api.utils uses it at the join boundaries. */
function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /^[\s\u001c-\u001f\u0085]$/u.test(ch)
}

/** lm_eval.api.utils.maybe_delimit. */
export function maybeDelimit(prefix: string | null | undefined, suffix: string | null | undefined, delimiter = ' '): string {
  if (!prefix) return suffix || ''
  if (!suffix) return prefix || ''
  return isSpace(prefix[prefix.length - 1]) || isSpace(suffix[0]) ? prefix + suffix : prefix + delimiter + suffix
}

/** lm_eval.api.utils.requires_delimiter. */
function requiresDelimiter(prefix: string, suffix: string): boolean {
  if (prefix === '') return false
  return !(isSpace(prefix[prefix.length - 1]) || isSpace(suffix[0]))
}

interface Message {
  role: 'system' | 'user' | 'assistant'
  content: string
  delimiter: string
}

/** ConfigurableTask.build_qa_turn for a string question and (for examples) a string answer. */
function buildQaTurn(q: string, a: string | null, genPrefix: string | null, tgtDelim: string, fewDelim: string): Message[] {
  const hasAnswer = a !== null && a !== ''
  const msgs: Message[] = [
    {
      role: 'user',
      content: q,
      delimiter: hasAnswer && !genPrefix ? tgtDelim : genPrefix && requiresDelimiter(q, genPrefix) ? tgtDelim : ''
    }
  ]
  if (hasAnswer) msgs.push({ role: 'assistant', content: maybeDelimit(genPrefix, a, ' '), delimiter: fewDelim })
  else if (genPrefix) msgs.push({ role: 'assistant', content: genPrefix, delimiter: '' })
  return msgs
}

/** lm_eval.api.utils.multiturn_to_singleturn (which also blanks the last delimiter it joins, as upstream mutates it). */
function multiturnToSingleturn(messages: Message[]): ChatMessage[] {
  const [system, rest] = messages[0].role === 'system' ? [messages[0], messages.slice(1)] : [null, messages]
  const text = (ms: Message[]) => ms.map((m, i) => m.content + (i === ms.length - 1 ? '' : m.delimiter)).join('')
  const res: ChatMessage[] =
    rest[rest.length - 1].role === 'assistant'
      ? [
          { role: 'user', content: text(rest.slice(0, -1)) },
          { role: 'assistant', content: rest[rest.length - 1].content }
        ]
      : [{ role: 'user', content: text(rest) }]
  return system ? [{ role: 'system', content: system.content }, ...res] : res
}

/** The row's turns as lm-eval docs: description (SYSTEM), few-shot (question, answer) pairs, the eval question. */
export interface LmEvalDocs {
  system: string | null
  shots: Array<{ q: string; a: string }>
  question: string
  /** PPL: the label's own answer text, scored as the continuation. */
  answer: string | null
}

const ROLE: Record<string, string> = { HUMAN: 'user', BOT: 'assistant', SYSTEM: 'system' }

/**
 * The parsed PromptList as turns: HUMAN → user, BOT → assistant, SYSTEM → system; consecutive items of one role are
 * one turn (their non-empty texts joined by "\n"). Unlike OpenCompass's _convert_chat_messages an empty turn stays:
 * an empty question is an eval doc whose doc_to_text is "".
 */
function splitTurns(parsed: unknown): Array<{ role: string; content: unknown }> {
  if (typeof parsed === 'string') return [{ role: 'user', content: parsed }]
  const out: Array<{ role: string; content: unknown; parts: unknown[] }> = []
  for (const it of parsed as Array<{ role?: unknown; prompt?: unknown }>) {
    const role = ROLE[String(it.role)]
    if (!role) throw new PyError('KeyError', `'${String(it.role)}'`)
    const last = out[out.length - 1]
    if (last && last.role === role) last.parts.push(it.prompt ?? '')
    else out.push({ role, content: '', parts: [it.prompt ?? ''] })
  }
  return out.map((t) => {
    if (t.parts.some((x) => typeof x !== 'string')) return { role: t.role, content: t.parts.length === 1 ? t.parts[0] : t.parts }
    return { role: t.role, content: (t.parts as string[]).filter((x) => x !== '').join('\n') }
  })
}

export function lmEvalDocs(messages: Array<{ role: string; content: unknown }>, mode: 'gen' | 'ppl' = 'gen'): LmEvalDocs | { error: string } {
  if (messages.some((m) => typeof m.content !== 'string'))
    return { error: MULTIMODAL }
  let i = 0
  let system: string | null = null
  const str = (v: unknown) => v as string
  if (messages[0]?.role === 'system') system = str(messages[i++].content)
  const shots: LmEvalDocs['shots'] = []
  let pending: string | null = null
  for (; i < messages.length; i++) {
    const m = messages[i]
    if (m.role === 'user') pending = str(m.content)
    else if (m.role === 'assistant') {
      shots.push({ q: pending ?? '', a: str(m.content) })
      pending = null
    } else
      return { error: `a ${m.role} turn after the first user turn has no place in an lm-eval task (only a leading SYSTEM becomes its description)` }
  }
  if (pending !== null) return { system, shots, question: pending, answer: null }
  // Generation with no user text after the last example: the eval doc's doc_to_text is "".
  if (mode === 'gen') return { system, shots, question: '', answer: null }
  // PPL: the PromptList ends in the label's assistant turn, the continuation scored.
  const last = shots.pop()
  if (!last) return { system, shots, question: '', answer: null }
  return { system, shots, question: last.q, answer: last.a }
}

const MULTIMODAL = "lm-eval HFLM is text-only and this row has image or audio parts (lm-eval's HFMultimodalLM is not reproduced)"

const TEMPLATE_ERRORS = /^(TemplateError|UndefinedError|TemplateSyntaxError|TemplateRuntimeError|TemplateAssertionError|SecurityError)\b/

function emptyTrace(h: HarnessSpec, profile: ModelProfile): HarnessTrace {
  return { harness: 'lm-eval', wrapper: 'HFLM', label: LM_EVAL_LABEL, stopWords: lmEvalStopWords(h, profile) }
}

/** generate_until's `until`: the task's (default [fewshot_delimiter]) plus the EOS token HFLM adds. */
export function lmEvalStopWords(h: HarnessSpec, profile: ModelProfile): string[] {
  const o = lmEvalOptions(h)
  const until = [...(o.until ?? [o.fewshot_delimiter ?? '\n\n'])]
  const eos = profile.special_tokens.eos_token
  if (typeof eos === 'string' && !until.includes(eos)) until.push(eos)
  return until
}

const kwargProfiles = new WeakMap<ModelProfile, WeakMap<HarnessSpec, ModelProfile>>()
/** HFLM passes chat_template_args (and enable_thinking) to apply_chat_template as template kwargs. */
function profileWithArgs(profile: ModelProfile, h: HarnessSpec): ModelProfile {
  let m = kwargProfiles.get(profile)
  if (!m) kwargProfiles.set(profile, (m = new WeakMap()))
  let p = m.get(h)
  if (!p) {
    const o = lmEvalOptions(h)
    const args = { ...(o.chat_template_args ?? {}), ...(o.enable_thinking !== undefined ? { enable_thinking: o.enable_thinking } : {}) }
    p = { ...profile, chat_template_kwargs: Object.keys(args).length ? args : undefined }
    m.set(h, p)
  }
  return p
}

/**
 * One dataset PromptList as lm-eval builds and sends it. Generation: fewshot_context's text. PPL (an OpenCompass
 * label prompt): the loglikelihood request lm-eval makes for that choice — context, then the continuation
 * (target_delimiter + answer; under a chat template the delimiter is dropped unless gen_prefix ends in no blank).
 */
export function wrapLmEval(prompt: Prompt, profile: ModelProfile, h: HarnessSpec, opts: WrapOptions): WrapResult {
  const out: WrapResult = { trace: emptyTrace(h, profile), warnings: [], signals: [] }
  const { trace, warnings } = out
  if (Array.isArray(prompt) && prompt.some((it) => it.t === 'd' && 'prompt_mm' in it.d)) {
    trace.error = { message: MULTIMODAL, stage: 'parse' }
    return out
  }
  const applied = applyMetaTemplate(prompt, SPLIT_META, { parser: 'api', mode: opts.mode, family: 'opencompass', row: opts.row })
  warnings.push(...applied.warnings.map((w) => w.message))
  if (applied.error || !applied.parsed) {
    trace.error = { message: applied.error?.message ?? 'the template parser gave no result', stage: 'parse' }
    return out
  }
  const parsed = parsedJson(applied.parsed)
  trace.modelInput = parsed
  let turns: Array<{ role: string; content: unknown }>
  try {
    turns = splitTurns(parsed)
  } catch (e) {
    trace.error = { message: errorText(e), stage: 'convert_chat_messages' }
    return out
  }
  const docs = typeof parsed === 'string' && opts.mode === 'ppl' && opts.labelPrompts ? stringChoiceDocs(parsed, opts) : lmEvalDocs(turns, opts.mode)
  if ('error' in docs) {
    trace.error = { message: docs.error, stage: 'parse' }
    return out
  }
  if (typeof parsed === 'string' && opts.mode === 'ppl' && docs.answer !== null)
    warnings.push(
      'lm-eval: plain-string label prompts — the text every label shares is the doc_to_text (one user message) and the rest of this label\'s text its choice, scored as the continuation.'
    )
  return lmEvalRequest(docs, profile, h, opts, out, typeof parsed === 'string')
}

/**
 * A PPL config of plain-string label prompts (MMLU-style "…Answer: A"): lm-eval's multiple_choice task for it has
 * the labels' common text as doc_to_text and each label's own remainder as its choice.
 */
function stringChoiceDocs(own: string, opts: WrapOptions): LmEvalDocs {
  const texts: string[] = []
  for (const p of opts.labelPrompts ?? []) {
    const a = applyMetaTemplate(p, SPLIT_META, { parser: 'api', mode: 'ppl', family: 'opencompass', row: opts.row })
    const j = a.parsed ? parsedJson(a.parsed) : undefined
    if (typeof j !== 'string') return { system: null, shots: [], question: own, answer: null }
    texts.push(j)
  }
  let n = 0
  if (texts.length > 1) {
    const first = [...texts[0]]
    n = first.length
    for (const t of texts.slice(1)) {
      const cs = [...t]
      let k = 0
      while (k < n && k < cs.length && cs[k] === first[k]) k++
      n = k
    }
    n = first.slice(0, n).join('').length
  }
  if (n === 0 || n >= own.length) return { system: null, shots: [], question: own, answer: null }
  return { system: null, shots: [], question: own.slice(0, n), answer: own.slice(n) }
}

/** fewshot_context → HFLM.apply_chat_template → the request, from docs already split. */
export function lmEvalRequest(docs: LmEvalDocs, profile: ModelProfile, h: HarnessSpec, opts: WrapOptions, out: WrapResult, plainString = false): WrapResult {
  const { trace, warnings } = out
  const o = lmEvalOptions(h)
  const tgt = o.target_delimiter ?? ' '
  const few = o.fewshot_delimiter ?? '\n\n'
  const genPrefix = o.gen_prefix ? o.gen_prefix : null
  const multiturn = o.fewshot_as_multiturn ?? true
  const description = o.description ?? docs.system ?? ''

  const messages: Message[] = []
  const systemPrompt = maybeDelimit(o.system_instruction ?? null, description, few)
  if (systemPrompt) messages.push({ role: 'system', content: systemPrompt, delimiter: '' })
  for (const s of docs.shots) messages.push(...buildQaTurn(s.q, s.a, genPrefix, tgt, few))
  messages.push(...buildQaTurn(docs.question, null, genPrefix, tgt, ''))
  const chat: ChatMessage[] = multiturn
    ? messages.map((m) => ({ role: m.role, content: m.content }))
    : multiturnToSingleturn(messages)
  trace.chatMessages = chat

  const addGenerationPrompt = !genPrefix
  const render = (msgs: ChatMessage[]) =>
    renderForModel(profileWithArgs(profile, h), { messages: msgs }, { addGenerationPrompt, continueFinalMessage: !addGenerationPrompt, countTokens: opts.countTokens })
  let r = render(chat)
  if (r.error && TEMPLATE_ERRORS.test(r.error.message) && chat.some((m) => m.role === 'system')) {
    const first = r.error.message
    const without = chat.filter((m) => m.role !== 'system')
    r = render(without)
    trace.chatMessages = without
    trace.retriedWithoutSystem = first
    warnings.push(
      `lm-eval: the chat template failed (${first}); HFLM logs "Failed to apply chat template. removing the system role in chat history." and renders again without the system message — its text is lost.`
    )
  }
  warnings.push(...r.warnings)
  if (r.error || r.text === undefined) {
    trace.error = { message: r.error?.message ?? 'the chat template gave no text', stage: 'apply_chat_template' }
    return out
  }
  out.signals = r.signals.filter((s) => s.code !== 'double-bos')
  const ctx = r.text
  let text = ctx
  if (opts.mode === 'ppl') {
    // construct_requests (multiple_choice) under a chat template: the delimiter only follows a gen_prefix that ends
    // in no whitespace. HFLM scores the continuation's tokens after the context's.
    const delim = genPrefix && !isSpace(genPrefix[genPrefix.length - 1]) ? tgt : ''
    const answer = docs.answer ?? ''
    trace.continuation = delim + answer
    text = ctx + trace.continuation
    warnings.push(
      `lm-eval scores loglikelihood(context, continuation): the text is the context the chat template built followed by the continuation ${JSON.stringify(trace.continuation)}, which is encoded separately and scored.`
    )
    if (docs.answer === null)
      warnings.push('lm-eval: this label prompt has no assistant turn to score (a plain string template): the continuation is empty.')
  }
  if (plainString && docs.shots.length === 0)
    warnings.push('lm-eval: the template is a plain string, so the whole text (with any in-context examples in it) is one doc_to_text.')
  trace.prompt = text
  // HFLM.tok_encode / tok_batch_encode: no special tokens when the text already starts with BOS, else add_bos_token
  // if given, else the tokenizer's default.
  const bos = profile.special_tokens.bos_token
  trace.addSpecialTokens = bos && text.startsWith(bos) ? false : (o.add_bos_token ?? null)
  out.tokens = opts.countTokens ? opts.countTokens(text) : undefined
  return out
}

