// A prompt built from data, as a person composes it in the Prompt builder: which column plays which role, the
// shape (plain string or dialogue), named sections (TFRobot's composition: system, instruction, examples, context,
// question, choices, answer cue — each a small template, reorderable, switchable; a wrap section renders the sections
// it wraps and places the result in its own template), and how in-context examples are chosen. buildVariant turns it
// into an ordinary OpenCompass reader_cfg + infer_cfg (AISBench's MMPromptTemplate for the multimodal shape), so what
// the matrix shows is what the harness will run.
import { CONTENT_SPEC_KEY, type ContentSpec, type MediaColumn } from './mm-content'
import type { FieldEdit } from './schema'

export type Shape = 'string' | 'dialogue' | 'multimodal'
export type Selector = { kind: 'none' } | { kind: 'fixed'; ids: number[] } | { kind: 'random'; k: number; seed: number } | { kind: 'bm25'; k: number }

export interface ColumnRoles {
  question?: string
  /** Option columns in letter order (A, B, C…); their letters label them in the prompt. */
  choices: string[]
  answer?: string
  context?: string
  /** Media columns (image, audio, video) in the order their parts go; read by the multimodal shape. */
  media?: MediaColumn[]
}

export interface Section {
  id: string
  /** Shown in the builder and used in saved snippets. */
  name: string
  /** OpenCompass placeholders ({column}); '{wrapped}' in a wrap section is where its wrapped sections go. */
  template: string
  enabled: boolean
  /** A wrap section: the ids of the sections it renders inside its template (they are not placed on their own). */
  wraps?: string[]
}

export interface Recipe {
  abbr: string
  shape: Shape
  roles: ColumnRoles
  sections: Section[]
  selector: Selector
  /** The person's edits of the derived field schema (kind, required, allowed values), by field name. */
  fields?: Record<string, FieldEdit>
}

/** The place of the in-context examples among the sections. */
export const EXAMPLES_SECTION = 'examples'
/** The section whose text ends the question turn and precedes the answer (an example's answer follows it). */
export const ANSWER_CUE_SECTION = 'answer_cue'
const SYSTEM_SECTION = 'system'
const ICE_TOKEN = '</E>'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const NAME_HINTS: Record<'question' | 'answer' | 'context', RegExp> = {
  question: /^(question|query|prompt|problem|input|instruction|q)$/i,
  answer: /^(answer|label|target|gold|output|correct|a)$/i,
  context: /^(context|passage|document|hint|article|background)$/i
}

const MEDIA_NAME = /^(image|img|picture|photo|audio|speech|video|clip)(_?\d+|_path|s)?$/i

/**
 * Column roles guessed from names (question/answer/context, option columns A–Z or option_a…) and, for media, from
 * what the reader found in the cells (`media` kinds by column) or the name; for the person to confirm.
 */
export function guessRoles(columns: string[], mediaKinds: Record<string, MediaColumn['kind']> = {}): ColumnRoles {
  const pick = (re: RegExp) => columns.find((c) => re.test(c))
  let choices = columns.filter((c) => /^[A-J]$/.test(c)).sort()
  if (choices.length < 2) choices = columns.filter((c) => /^(option|choice)[_ ]?[a-j1-9]$/i.test(c)).sort()
  const kindByName = (c: string): MediaColumn['kind'] => (/audio|speech/i.test(c) ? 'audio' : /video|clip/i.test(c) ? 'video' : 'image')
  // VLMEvalKit writes `image_path` beside a base64 `image`: the picture is one, not two.
  const media = columns
    .filter((c) => mediaKinds[c] || MEDIA_NAME.test(c))
    .filter((c) => !(c === 'image_path' && columns.includes('image')))
    .map((c) => ({ column: c, kind: mediaKinds[c] ?? kindByName(c) }))
  return {
    question: pick(NAME_HINTS.question),
    answer: columns.find((c) => NAME_HINTS.answer.test(c) && !choices.includes(c)),
    context: pick(NAME_HINTS.context),
    choices: choices.length >= 2 ? choices : [],
    ...(media.length ? { media } : {})
  }
}

/** A starting recipe for the roles: the usual sections of a (multiple-choice) question prompt. */
export function defaultRecipe(abbr: string, roles: ColumnRoles, shape: Shape = 'dialogue'): Recipe {
  const choices = roles.choices.map((c, i) => `${LETTERS[i]}. {${c}}`).join('\n')
  const mcq = roles.choices.length > 0
  return {
    abbr,
    shape,
    roles,
    selector: { kind: 'none' },
    sections: [
      { id: SYSTEM_SECTION, name: 'System', template: mcq ? 'You answer multiple-choice questions.' : 'Answer the question briefly and precisely.', enabled: shape === 'dialogue' },
      { id: 'instruction', name: 'Instruction', template: mcq ? 'Answer with the letter of the correct option.' : '', enabled: mcq },
      { id: EXAMPLES_SECTION, name: 'Examples', template: '', enabled: true },
      { id: 'context', name: 'Context', template: roles.context ? `{${roles.context}}` : '', enabled: !!roles.context },
      { id: 'question', name: 'Question', template: roles.question ? `Question: {${roles.question}}` : '', enabled: !!roles.question },
      { id: 'choices', name: 'Choices', template: choices, enabled: mcq },
      { id: ANSWER_CUE_SECTION, name: 'Answer cue', template: 'Answer:', enabled: true }
    ]
  }
}

/** The text of the enabled sections in order, wrap sections expanded; `skip` leaves sections out. */
function composeText(sections: Section[], skip: Set<string>): string {
  const byId = new Map(sections.map((s) => [s.id, s]))
  const wrapped = new Set(sections.flatMap((s) => (s.enabled ? (s.wraps ?? []) : [])))
  const textOf = (s: Section, depth: number): string => {
    if (!s.wraps) return s.template
    if (depth > 8) throw new Error(`section "${s.name}" wraps itself`)
    const inner = s.wraps
      .map((id) => byId.get(id))
      .filter((w): w is Section => !!w && w.enabled && !skip.has(w.id))
      .map((w) => textOf(w, depth + 1))
      .filter((t) => t !== '')
      .join('\n')
    return s.template.includes('{wrapped}') ? s.template.split('{wrapped}').join(inner) : [s.template, inner].filter(Boolean).join('\n')
  }
  return sections
    .filter((s) => s.enabled && !skip.has(s.id) && !wrapped.has(s.id) && s.id !== EXAMPLES_SECTION)
    .map((s) => textOf(s, 0))
    .filter((t) => t !== '')
    .join('\n')
}

function retriever(sel: Selector): Record<string, unknown> {
  switch (sel.kind) {
    case 'none':
      return { type: 'ZeroRetriever' }
    case 'fixed':
      return { type: 'FixKRetriever', fix_id_list: sel.ids }
    case 'random':
      return { type: 'RandomRetriever', ice_num: sel.k, seed: sel.seed }
    case 'bm25':
      return { type: 'BM25Retriever', ice_num: sel.k }
  }
}

export interface BuiltVariant {
  abbr: string
  reader_cfg: { input_columns: string[]; output_column?: string }
  infer_cfg: Record<string, unknown>
}

/** Sections before the examples go first (the system turn, an instruction); the rest form each question. */
function splitAtExamples(r: Recipe): { head: Section[]; body: Section[] } {
  const k = r.sections.findIndex((s) => s.id === EXAMPLES_SECTION)
  if (k < 0) return { head: [], body: r.sections }
  return { head: r.sections.slice(0, k), body: r.sections.slice(k + 1) }
}

/** The prompt_mm slots format_mm fills from content segments: text as it is, each media kind as a URL part. */
function promptMm(media: MediaColumn[]): Record<string, unknown> {
  const mm: Record<string, unknown> = { text: { type: 'text', text: '{question}' } }
  for (const kind of ['image', 'video', 'audio'] as const) {
    if (media.some((m) => m.kind === kind)) mm[kind] = { type: `${kind}_url`, [`${kind}_url`]: { url: `{${kind}}` } }
  }
  return mm
}

/** Examples for the multimodal shape: fixed rows only (they are written into each row's content). */
function multimodalExamples(r: Recipe): number[] {
  const on = r.sections.some((s) => s.id === EXAMPLES_SECTION && s.enabled)
  return on && r.selector.kind === 'fixed' ? r.selector.ids : []
}

/**
 * The multimodal shape: AISBench's MMPromptTemplate over a `content` column the builder composes (mm-content.ts).
 * The system section has no place in it (MMPromptTemplate's rounds carry prompt_mm parts), so it is left out.
 */
function buildMultimodal(r: Recipe): BuiltVariant {
  const { head, body } = splitAtExamples(r)
  const answer = r.roles.answer ? `{${r.roles.answer}}` : ''
  const cueText = body.find((s) => s.id === ANSWER_CUE_SECTION && s.enabled)?.template ?? ''
  const question = composeText(body, new Set([ANSWER_CUE_SECTION]))
  const q = [question, cueText].filter(Boolean).join('\n')
  const spec: ContentSpec = {
    media: r.roles.media ?? [],
    head: composeText(head.filter((s) => s.id !== SYSTEM_SECTION), new Set()),
    example: `${q}${cueText ? ' ' : '\n'}${answer}`,
    question: q,
    examples: multimodalExamples(r)
  }
  return {
    abbr: r.abbr,
    reader_cfg: { input_columns: ['content'], ...(r.roles.answer ? { output_column: r.roles.answer } : {}) },
    infer_cfg: {
      prompt_template: { type: 'MMPromptTemplate', template: { round: [{ role: 'HUMAN', prompt_mm: promptMm(spec.media) }] } },
      retriever: { type: 'ZeroRetriever' },
      inferencer: { type: 'GenInferencer' },
      [CONTENT_SPEC_KEY]: spec
    }
  }
}

/** The recipe as OpenCompass configs spell it (PromptTemplate, retriever, GenInferencer); AISBench's for multimodal. */
export function buildVariant(r: Recipe): BuiltVariant {
  if (r.shape === 'multimodal') return buildMultimodal(r)
  const withExamples = r.selector.kind !== 'none' && r.sections.some((s) => s.id === EXAMPLES_SECTION && s.enabled)
  const { head, body } = splitAtExamples(r)
  const answer = r.roles.answer ? `{${r.roles.answer}}` : ''
  const cueText = body.find((s) => s.id === ANSWER_CUE_SECTION && s.enabled)?.template ?? ''
  const question = composeText(body, new Set([ANSWER_CUE_SECTION]))
  const inputs = [...new Set([r.roles.context, r.roles.question, ...r.roles.choices].filter((c): c is string => !!c))]
  const reader_cfg = { input_columns: inputs, ...(r.roles.answer ? { output_column: r.roles.answer } : {}) }
  let ice_template: Record<string, unknown> | undefined
  let prompt_template: Record<string, unknown>
  if (r.shape === 'string') {
    const headText = composeText(head, new Set())
    const q = [question, cueText].filter(Boolean).join('\n')
    if (withExamples) ice_template = { type: 'PromptTemplate', template: `${q}${cueText ? ' ' : '\n'}${answer}\n` }
    const parts = [headText ? `${headText}\n\n` : '', withExamples ? ICE_TOKEN : '', q]
    prompt_template = { type: 'PromptTemplate', template: parts.join(''), ...(withExamples ? { ice_token: ICE_TOKEN } : {}) }
  } else {
    const system = head.find((s) => s.id === SYSTEM_SECTION && s.enabled)
    const headText = composeText(head.filter((s) => s.id !== SYSTEM_SECTION), new Set())
    const human = [headText, question].filter(Boolean).join('\n')
    const round = [
      { role: 'HUMAN', prompt: [human, cueText].filter(Boolean).join('\n') },
      { role: 'BOT', prompt: answer }
    ]
    if (withExamples) ice_template = { type: 'PromptTemplate', template: { round } }
    const begin: unknown[] = []
    if (system?.template) begin.push({ role: 'SYSTEM', fallback_role: 'HUMAN', prompt: system.template })
    if (withExamples) begin.push(ICE_TOKEN)
    prompt_template = { type: 'PromptTemplate', template: { ...(begin.length ? { begin } : {}), round }, ...(withExamples ? { ice_token: ICE_TOKEN } : {}) }
  }
  return {
    abbr: r.abbr,
    reader_cfg,
    infer_cfg: {
      ...(ice_template ? { ice_template } : {}),
      prompt_template,
      retriever: withExamples ? retriever(r.selector) : { type: 'ZeroRetriever' },
      inferencer: { type: 'GenInferencer' }
    }
  }
}
