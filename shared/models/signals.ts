// Signals: what a person must see about one model input, because a format silently rewrote the conversation or
// the input will not work as intended. Row signals look at the rendered input itself; profile signals come from
// probe renders with sentinel conversations (with and without a system message, consecutive turns, two dates),
// computed once per profile and cached, so a whole dataset pays for them once.
import type { ModelProfile } from './profile'
import type { ChatMessage, OutputMessage } from './renderers'
import { contentText } from './conversation-inputs'
import type { Diagnostic } from '../diagnostics'

export type SignalSeverity = 'info' | 'warning' | 'error'
export type SignalCode =
  | 'double-bos'
  | 'system-dropped'
  | 'system-remapped'
  | 'system-unsupported'
  | 'turns-merged'
  | 'empty-turn'
  | 'unfilled-field'
  | 'template-error'
  | 'over-context'
  | 'added-generation-prompt'
  | 'added-default-system'
  | 'added-date'

export interface Signal {
  code: SignalCode
  severity: SignalSeverity
  message: string
  detail: Record<string, unknown>
}

export type RawRender =
  | { ok: true; kind: 'text'; text: string; warnings: string[] }
  | { ok: true; kind: 'messages'; messages: OutputMessage[]; warnings: string[] }
  | { ok: false; error: Diagnostic; warnings: string[] }

/** Renders a conversation through the profile's format, without signals (the probes call it). */
export type ProbeRender = (messages: ChatMessage[], opts: { addGenerationPrompt: boolean; now?: Date }) => RawRender

export interface TokenCount {
  count: number
  /** false when the count is an estimate (no tokenizer.json on disk). */
  exact: boolean
}

// Sentinels: plain ASCII words no template trims, splits or rewrites, unlikely in any real text.
export const SENTINEL = { system: 'PLSENTSYSQ7', userA: 'PLSENTUSRA3', userB: 'PLSENTUSRB5', assistantA: 'PLSENTASTA2', assistantB: 'PLSENTASTB9' }
const DATE_A = new Date(2025, 6, 10, 12, 0, 0)
const DATE_B = new Date(2031, 2, 17, 12, 0, 0)

export interface ProfileFacts {
  system:
    | { status: 'kept' }
    | { status: 'dropped' }
    | { status: 'as-user-turn'; before: string }
    | { status: 'folded-into-user'; before: string }
    | { status: 'bare-text' }
    | { status: 'unsupported'; error: string }
    | { status: 'unknown'; error?: string }
  merged: { user?: boolean; assistant?: boolean }
  generationPrompt?: string
  defaultSystem?: string
  date?: { varies: boolean; text?: string }
}

function renderedText(r: RawRender): string | undefined {
  if (!r.ok) return undefined
  return r.kind === 'text' ? r.text : r.messages.map((m) => `${m.role}\u0000${contentText(m.content)}`).join('\u0001')
}

function commonSuffix(a: string, b: string): string {
  let n = 0
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++
  return a.slice(a.length - n)
}

// A turn header is real markup (`<|im_start|>user\n`, `[INST] `), not just whitespace between two texts.
const hasMarkup = (s: string): boolean => s.replace(/\s+/g, '').length >= 2

function probeSystem(render: ProbeRender, bos: string | undefined): ProfileFacts['system'] {
  const u = SENTINEL.userA
  const s = SENTINEL.system
  const a = render([{ role: 'user', content: u }], { addGenerationPrompt: true, now: DATE_A })
  const b = render([{ role: 'system', content: s }, { role: 'user', content: u }], { addGenerationPrompt: true, now: DATE_A })
  if (!b.ok) return a.ok ? { status: 'unsupported', error: b.error.message } : { status: 'unknown', error: b.error.message }
  if (b.kind === 'messages') {
    const holder = b.messages.find((m) => contentText(m.content).includes(s))
    if (!holder) return { status: 'dropped' }
    if (holder.role.toLowerCase() === 'system') return { status: 'kept' }
    return contentText(holder.content).includes(u) ? { status: 'folded-into-user', before: '' } : { status: 'as-user-turn', before: '' }
  }
  const tb = b.text
  if (!tb.includes(s)) return { status: 'dropped' }
  const ta = a.ok ? renderedText(a) : undefined
  if (ta === undefined || !ta.includes(u)) return { status: 'unknown' }
  const prefixA = ta.slice(0, ta.indexOf(u))
  const prefixB = tb.slice(0, tb.indexOf(s))
  const mid = tb.slice(tb.indexOf(s) + s.length, tb.indexOf(u, tb.indexOf(s)))
  if (prefixB === prefixA) {
    // The system text sits exactly where the user's text would: either a turn of its own with the user's
    // header (OpenCompass's fallback_role), or the start of the first user turn (Gemma).
    return hasMarkup(commonSuffix(prefixA, mid)) ? { status: 'as-user-turn', before: prefixB } : { status: 'folded-into-user', before: prefixB }
  }
  if (prefixB.startsWith(prefixA) && hasMarkup(prefixA)) return { status: 'folded-into-user', before: prefixB }
  // No role header before the system text, where a user turn does get one (Alpaca, Vicuna, DeepSeek, Yi).
  const lead = bos && prefixB.startsWith(bos) ? prefixB.slice(bos.length) : prefixB
  if (!hasMarkup(lead) && hasMarkup(prefixA)) return { status: 'bare-text' }
  return { status: 'kept' }
}

function probeMerge(render: ProbeRender, role: 'user' | 'assistant'): boolean | undefined {
  const lead: ChatMessage[] = role === 'assistant' ? [{ role: 'user', content: SENTINEL.userA }] : []
  const [x, y] = role === 'assistant' ? [SENTINEL.assistantA, SENTINEL.assistantB] : [SENTINEL.userA, SENTINEL.userB]
  const single = render([...lead, { role, content: x }], { addGenerationPrompt: false, now: DATE_A })
  const double = render([...lead, { role, content: x }, { role, content: y }], { addGenerationPrompt: false, now: DATE_A })
  if (!single.ok || !double.ok) return undefined
  if (double.kind === 'messages') return double.messages.some((m) => contentText(m.content).includes(x) && contentText(m.content).includes(y))
  const ts = renderedText(single) ?? ''
  const td = double.text
  if (!ts.includes(x) || !td.includes(x) || !td.includes(y)) return undefined
  const from = role === 'assistant' ? ts.indexOf(SENTINEL.userA) + SENTINEL.userA.length : 0
  const header = ts.slice(from, ts.indexOf(x))
  if (!hasMarkup(header)) return undefined
  const between = td.slice(td.indexOf(x) + x.length, td.indexOf(y))
  return !hasMarkup(commonSuffix(header, between))
}

function probeGenerationPrompt(render: ProbeRender): string | undefined {
  const msgs: ChatMessage[] = [{ role: 'user', content: SENTINEL.userA }]
  const on = render(msgs, { addGenerationPrompt: true, now: DATE_A })
  const off = render(msgs, { addGenerationPrompt: false, now: DATE_A })
  if (!on.ok || !off.ok || on.kind !== 'text' || off.kind !== 'text') return undefined
  return on.text.startsWith(off.text) && on.text.length > off.text.length ? on.text.slice(off.text.length) : undefined
}

function probeDefaultSystem(render: ProbeRender): string | undefined {
  const u = SENTINEL.userA
  const s = SENTINEL.system
  const a = render([{ role: 'user', content: u }], { addGenerationPrompt: true, now: DATE_A })
  if (!a.ok) return undefined
  if (a.kind === 'messages') {
    const sys = a.messages.find((m) => m.role.toLowerCase() === 'system')
    return sys ? contentText(sys.content) : undefined
  }
  const b = render([{ role: 'system', content: s }, { role: 'user', content: u }], { addGenerationPrompt: true, now: DATE_A })
  if (!b.ok || b.kind !== 'text' || !b.text.includes(s) || !a.text.includes(u)) return undefined
  const headerA = a.text.slice(0, a.text.indexOf(u))
  const prefixB = b.text.slice(0, b.text.indexOf(s))
  const midB = b.text.slice(b.text.indexOf(s) + s.length, b.text.indexOf(u, b.text.indexOf(s)))
  // Without a system message the template put text exactly where a system message goes.
  if (headerA.length > prefixB.length + midB.length && headerA.startsWith(prefixB) && headerA.endsWith(midB))
    return headerA.slice(prefixB.length, headerA.length - midB.length)
  return undefined
}

const MONTHS = 'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?'
const DATE_RE = new RegExp(`\\b\\d{1,2} (?:${MONTHS}) \\d{4}\\b|\\b(?:${MONTHS}) \\d{1,2},? \\d{4}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b`, 'g')

function probeDate(render: ProbeRender): ProfileFacts['date'] {
  const msgs: ChatMessage[] = [{ role: 'user', content: SENTINEL.userA }]
  const a = render(msgs, { addGenerationPrompt: true, now: DATE_A })
  const b = render(msgs, { addGenerationPrompt: true, now: DATE_B })
  const ta = renderedText(a)
  const tb = renderedText(b)
  if (ta === undefined || tb === undefined) return undefined
  if (ta !== tb) {
    let p = 0
    while (p < ta.length && ta[p] === tb[p]) p++
    let end = ta.length - commonSuffix(ta.slice(p), tb.slice(p)).length
    // Widen the differing span to whole words: "10 Jul 2025" and "17 Mar 2031" share their first digit.
    const word = /[\p{L}\p{N}]/u
    while (p > 0 && word.test(ta[p - 1])) p--
    while (end < ta.length && word.test(ta[end])) end++
    return { varies: true, text: ta.slice(p, end) }
  }
  // A fixed date written by the template itself (Llama 3.1's default date_string).
  const fixed = ta.match(DATE_RE)
  return fixed ? { varies: false, text: fixed[0] } : undefined
}

/** Probes a profile's format once: what it does with system messages, consecutive turns, and what it adds. */
export function probeProfile(render: ProbeRender, profile?: ModelProfile): ProfileFacts {
  return {
    system: probeSystem(render, profile?.special_tokens.bos_token),
    merged: { user: probeMerge(render, 'user'), assistant: probeMerge(render, 'assistant') },
    generationPrompt: probeGenerationPrompt(render),
    defaultSystem: probeDefaultSystem(render),
    date: probeDate(render)
  }
}

// LazyLLM's system: the model's prompt_keys, else the prompter default, unless disabled (spec §1.1).
function lazyllmSystem(profile: ModelProfile): string | undefined {
  const l = profile.lazyllm
  if (!l) return undefined
  const configured = l.model_configs?.system
  if (typeof configured === 'string') return configured || undefined
  return l.env?.disable_system_prompt ? undefined : 'You are an AI-Agent developed by LazyLLM.'
}

const OC_ROLE: Record<string, string> = { user: 'HUMAN', assistant: 'BOT' }
const FIELD_RE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g

export interface SignalContext {
  profile: ModelProfile
  messages: ChatMessage[]
  result: RawRender
  addGenerationPrompt: boolean
  facts: ProfileFacts
  tokens?: TokenCount
}

/** Every signal for one rendered input. */
export function computeSignals(ctx: SignalContext): Signal[] {
  const { profile, messages, result, facts } = ctx
  const out: Signal[] = []
  const push = (code: SignalCode, severity: SignalSeverity, message: string, detail: Record<string, unknown> = {}): void => {
    out.push({ code, severity, message, detail })
  }

  if (!result.ok) push('template-error', 'error', `The ${profile.format} format failed: ${result.error.message}`, { error: result.error.message })

  // Input shape: empty turns and consecutive same-role turns are the dataset's doing, but the format decides
  // what happens to them.
  // A turn of only media parts (an audio clip, a picture) is not empty for a model that receives the parts.
  const declared = (profile as { modalities?: unknown }).modalities
  const takesParts = profile.format === 'openai-messages' || (Array.isArray(declared) && declared.some((x) => x !== 'text'))
  const hasMediaPart = (c: unknown) => Array.isArray(c) && c.some((p) => !!p && typeof p === 'object' && typeof (p as { type?: unknown }).type === 'string' && (p as { type: string }).type !== 'text')
  messages.forEach((m, index) => {
    const last = index === messages.length - 1
    if (m.content === null && m.role === 'assistant' && last) return
    if (takesParts && hasMediaPart(m.content)) return
    if (contentText(m.content).trim() === '') push('empty-turn', 'warning', `Message ${index + 1} (${m.role}) is empty.`, { index, role: m.role, where: 'input' })
  })
  if (result.ok && result.kind === 'messages') {
    const inputTexts = new Set(messages.map((m) => contentText(m.content).trim()))
    result.messages.forEach((m, index) => {
      if (contentText(m.content).trim() === '' && !inputTexts.has(''))
        push('empty-turn', 'warning', `The format inserted an empty ${m.role} message at position ${index + 1}.`, { index, role: m.role, where: 'output' })
    })
  }
  if (result.ok && result.kind === 'text' && profile.format === 'opencompass-meta') {
    // OpenCompass renders every meta round role in every round, so a role the conversation never fills (a SYSTEM
    // round role, BOT after a final question in ppl mode) becomes an empty turn in the text.
    const used = new Set(messages.filter((m) => m.role !== 'system').map((m) => OC_ROLE[m.role] ?? m.role.toUpperCase()))
    if (ctx.addGenerationPrompt) used.add('BOT')
    for (const r of profile.meta_template?.round ?? []) {
      if (typeof r === 'string' || used.has(r.role) || r.prompt) continue
      push('empty-turn', 'warning', `The meta template renders its ${r.role} role in every round, empty here.`, { role: r.role, where: 'output', text: (r.begin ?? '') + (r.end ?? '') })
    }
  }
  for (const role of ['user', 'assistant'] as const) {
    const at = messages.findIndex((m, i) => i > 0 && m.role === role && messages[i - 1].role === role)
    if (at > 0 && facts.merged[role])
      push('turns-merged', 'warning', `Consecutive ${role} messages (${at} and ${at + 1}) are merged into one turn by this format.`, { role, index: at })
  }

  const system = messages.filter((m) => m.role === 'system')
  if (system.length > 0) {
    const droppedByCall = profile.format === 'lazyllm'
    const f = facts.system
    if (droppedByCall || f.status === 'dropped')
      push('system-dropped', 'warning', 'The system message does not reach the model: this format drops it.', { count: system.length })
    else if (f.status === 'as-user-turn')
      push('system-remapped', 'warning', 'The system message is sent as a user turn of its own (the format has no system role).', { as: 'user-turn' })
    else if (f.status === 'folded-into-user')
      push('system-remapped', 'info', 'The system message is folded into the first user turn.', { as: 'first-user-turn', prefix: f.before })
    else if (f.status === 'bare-text')
      push('system-remapped', 'info', 'The system message is written as plain text at the start, with no role marker.', { as: 'bare-text' })
    else if (f.status === 'unsupported')
      push('system-unsupported', 'error', `This format rejects system messages: ${f.error}`, { error: f.error })
    if (system.length > 1 || messages.findIndex((m) => m.role === 'system') > 0)
      push('system-remapped', 'warning', 'A system message that is not first in the conversation: most formats only handle a leading one.', {
        indexes: messages.flatMap((m, i) => (m.role === 'system' ? [i] : []))
      })
  }

  if (result.ok && result.kind === 'text') {
    const bos = profile.special_tokens.bos_token
    if (bos) {
      if (result.text.startsWith(bos + bos))
        push('double-bos', 'error', `The text starts with BOS twice (${bos}${bos}).`, { bos, source: 'text' })
      else if (result.text.startsWith(bos) && profile.add_bos_token === true)
        push('double-bos', 'warning', `The template already writes ${bos} and the tokenizer adds BOS again when it encodes with special tokens (add_bos_token).`, {
          bos,
          source: 'template+tokenizer'
        })
    }
  }

  const rendered = result.ok ? (result.kind === 'text' ? result.text : result.messages.map((m) => contentText(m.content)).join('\n')) : ''
  const fields = [...new Set([...rendered.matchAll(FIELD_RE)].map((m) => m[1]))]
  if (fields.length > 0)
    push('unfilled-field', 'warning', `Unfilled placeholder${fields.length > 1 ? 's' : ''}: ${fields.map((f) => `{${f}}`).join(', ')}.`, { fields })

  if (ctx.tokens && ctx.tokens.count > profile.context_length)
    push(
      'over-context',
      // An estimate can be wrong either way, so it warns; an exact count over the limit is an error.
      ctx.tokens.exact ? 'error' : 'warning',
      `${ctx.tokens.exact ? '' : 'About '}${ctx.tokens.count} tokens: over the model's context length of ${profile.context_length}.`,
      { tokens: ctx.tokens.count, exact: ctx.tokens.exact, context_length: profile.context_length }
    )

  if (result.ok) {
    const last = messages[messages.length - 1]
    const genRole = profile.format === 'opencompass-meta' ? profile.meta_template?.round.find((r) => typeof r !== 'string' && r.generate) : undefined
    // OpenCompass gen mode cuts the text at the generating role's begin: that begin is its generation prompt.
    const genPrompt = genRole && typeof genRole !== 'string' && result.kind === 'text' ? genRole.begin || undefined : facts.generationPrompt
    if (ctx.addGenerationPrompt && genPrompt && (!last || last.role !== 'assistant'))
      push('added-generation-prompt', 'info', 'The template appended a generation prompt.', { text: genPrompt })
    const defaultSystem = profile.format === 'lazyllm' ? lazyllmSystem(profile) : facts.defaultSystem
    if (defaultSystem && (profile.format === 'lazyllm' || system.length === 0) && rendered.includes(defaultSystem))
      push('added-default-system', 'info', 'The format added its own default system prompt.', { text: defaultSystem })
    if (facts.date)
      push(
        'added-date',
        'info',
        facts.date.varies ? "The template writes today's date into the input, so the input changes from day to day." : 'The template writes a fixed date into the input.',
        { text: facts.date.text, varies: facts.date.varies }
      )
  }
  return out
}
