// A model with an OpenCompass meta template: the template applied to the row's PromptList (LM text or API
// messages), with what an LM template drops of the row's media.
import type { Diagnostic, ModelMediaPart, ModelRender, Segment } from '../../../shared/api/types'
import { type Mode, openAiMessages, parsedJson, type Prepared, type Prompt } from '../../../shared/engine'
import { renderMetaTemplate } from '../../../shared/models/meta-template'
import { countPhrase, type MediaPartRef, partModality, partRef } from '../../../shared/models/multimodal'
import { errorText } from '../../../shared/python/errors'
import { apiMedia, mediaPart, shortRef, withoutMediaData } from './model-media'
import { engineProblem, modelBase, type ModelContext, withLength } from './model-render'

/**
 * One frozen object for every row of a plain-string template: an export shares the problem list of lines whose
 * problems are the same objects, and encodes it once (export.ts, sharedProblems).
 */
const META_NOT_APPLIED: Diagnostic = Object.freeze({
  code: 'meta-template-not-applied',
  message: "The dataset template is a plain string, so OpenCompass sends it unchanged: this model's meta template (roles, special tokens) is not applied. Use a dialogue template (round=[…]) to get them.",
  severity: 'info'
})

/**
 * OpenCompass meta-template profile: the meta template applied to the PromptList itself (renderMetaTemplate, the
 * function renderForModel uses for a conversation too), in the inferencer's mode (a PPL label prompt is parsed with
 * mode='ppl': no generation prompt after the last turn).
 */
export function renderMeta(prompt: Prompt, m: ModelContext, family: Prepared['family'], row: number, spans: boolean, mode: Mode = 'gen'): ModelRender {
  const p = m.profile
  const parser = p.meta_parser ?? 'lm'
  const { applied, input } = renderMetaTemplate(prompt, p, { mode, family, row, spans })
  const problems = applied.warnings.map((w) => engineProblem(w, 'warning'))
  // Upstream's LMTemplateParser returns a plain-string prompt untouched: no role markers, no BOS.
  if (!Array.isArray(prompt) && p.meta_template && parser === 'lm') problems.push(META_NOT_APPLIED)
  const base = modelBase(p)
  if (applied.error || !applied.parsed || !input) {
    return { ...base, kind: 'text', text: '', problems: [...problems, engineProblem(applied.error!, 'error')] }
  }
  if (input.kind === 'text') {
    const tokens = m.counter.count(input.text)
    const mm = parser === 'lm' ? lmDroppedMedia(prompt, p.name, p.meta_family ?? family) : null
    if (mm) problems.push(...mm.problems)
    return { ...base, kind: 'text', text: input.text, segments: input.segments as Segment[], tokens, ...(mm?.media.length ? { media: mm.media } : {}), problems: withLength(problems, tokens.count, p.context_length) }
  }
  const json = parsedJson(applied.parsed)
  // An API model receives the API parser's messages after OpenCompass's OpenAI conversion (HUMAN → user, …);
  // the conversion maps item for item, so each message keeps its spans.
  let sent: unknown
  try {
    sent = sentMessages(applied.parsed.kind, json)
  } catch (e) {
    return { ...base, kind: 'text', text: '', problems: [...problems, { code: 'conversion-error', message: errorText(e), severity: 'error' }] }
  }
  const items = input.kind === 'messages' ? input.items : []
  const messages = (sent as { role?: unknown; content: unknown }[]).map((x, i) => {
    const it = items[i]
    const segments = it && !('raw' in it) && typeof x.content === 'string' ? (it.segments as Segment[] | undefined) : undefined
    return { role: String(x.role ?? '(none)'), content: typeof x.content === 'string' ? x.content : (x.content as unknown[]), segments }
  })
  // Inline media (data: URLs, base64) is never counted as text: the API's model counts the picture its own way.
  const tokens = m.counter.count(JSON.stringify(withoutMediaData(sent)))
  const media = apiMedia(sent as { content?: unknown }[])
  return { ...base, kind: 'messages', messages, tokens, ...(media.length ? { media } : {}), problems: withLength(problems, tokens.count, p.context_length) }
}

/**
 * The messages an OpenAI-style API receives for a parsed prompt. A prompt that is only multimodal parts (AISBench
 * prompt_mm with no meta template: the parser returns the parts themselves) is one user message whose content is
 * those parts, as AISBench's service models send it; reading the parts as messages was the "KeyError: 'role'".
 */
export function sentMessages(kind: string, json: unknown): unknown {
  if (kind === 'parts') return [{ role: 'user', content: json }]
  return openAiMessages(json)
}

/** The media parts of the dataset-side PromptList's role items (their prompt_mm lists), with the role of each. */
function promptMm(prompt: Prompt): { role: string; parts: unknown[]; hasPrompt: boolean }[] {
  if (!Array.isArray(prompt)) return []
  const out: { role: string; parts: unknown[]; hasPrompt: boolean }[] = []
  for (const it of prompt) {
    if (it.t !== 'd' || !Array.isArray(it.d.prompt_mm)) continue
    const hasPrompt = it.p ? it.p.text.length > 0 : typeof it.d.prompt === 'string' && it.d.prompt.length > 0
    out.push({ role: String(it.d.role ?? '(no role)'), parts: it.d.prompt_mm as unknown[], hasPrompt })
  }
  return out
}

/**
 * An LM meta template reads each role item's `prompt` (LMTemplateParser: begin + prompt + end): prompt_mm parts
 * are not read, so images, audio and the text parts of an MMPromptTemplate turn are dropped and a turn with only
 * prompt_mm is empty. The text is upstream's; the signals say what was lost.
 */
function lmDroppedMedia(prompt: Prompt, name: string, family: string): { problems: Diagnostic[]; media: ModelMediaPart[] } | null {
  const turns = promptMm(prompt)
  if (!turns.length) return null
  const problems: Diagnostic[] = []
  const media: ModelMediaPart[] = []
  const who = family === 'aisbench' ? 'AISBench' : 'OpenCompass'
  for (const t of turns) {
    const parts: MediaPartRef[] = []
    let texts = 0
    t.parts.forEach((part, j) => {
      const modality = partModality(part)
      if (modality) parts.push({ modality, ref: partRef(part), message: 0, part: j })
      else if (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text') texts++
    })
    for (const x of parts) media.push(mediaPart({ modality: x.modality, ref: shortRef(x.ref), dropped: true, how: 'dropped: an LM meta template reads only the turn\'s "prompt"' }, x.ref))
    const what = [parts.length ? countPhrase(parts) : '', texts ? `${texts} text part${texts === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ')
    if (what)
      problems.push({
        code: 'media-dropped',
        severity: 'warning',
        message: `Text-only model: ${what} of the ${t.role} turn dropped — ${name}'s LM meta template reads each turn's "prompt", not its prompt_mm, so ${who} sends it without them.`
      })
    if (!t.hasPrompt)
      problems.push({
        code: 'empty-turn',
        severity: 'warning',
        message: `The ${t.role} turn is empty: it has only prompt_mm, so the model receives the turn's role markers with nothing between them (as ${who}'s LMTemplateParser builds it).`
      })
  }
  return { problems, media }
}
