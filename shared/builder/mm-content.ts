// The builder's multimodal shape. AISBench's MMPromptTemplate fills prompt_mm only from a row's `content` (AIS content
// tags, as MMCustomDataset.load builds them) and never places in-context examples (its generate_item ignores ice), so
// an AISBench config cannot ask for examples with pictures. The builder therefore composes each row's `content`
// itself — the text before the examples, then each example's media and its text with the answer, then the row's
// media and its question — writes it as a column of a derived JSONL, and the saved AISBench config reads that file
// with a ZeroRetriever (format_mm turns each segment into one content part, in order). The app's live preview runs
// the same composition on each row: the draft's infer_cfg carries it as `promptloom_content`, a PromptLoom key that
// is never written into a saved config.
import { AIS_AUDIO_START, AIS_CONTENT_TAG, AIS_IMAGE_START, AIS_TEXT_START, AIS_VIDEO_START } from '../loaders/ais-content'
import { isBytesValue } from '../media/media-value'
import { pyStr } from '../python/json'

export type MediaKind = 'image' | 'audio' | 'video'

export interface MediaColumn {
  column: string
  kind: MediaKind
}

/** How each row's content is composed; templates use OpenCompass {column} placeholders. */
export interface ContentSpec {
  /** Media columns in the order their parts go (each cell: a path, URL, base64, data: URL, {bytes, path} or a list). */
  media: MediaColumn[]
  /** Text before the examples (an instruction); '' for none. */
  head: string
  /** Each example's text, its answer included. */
  example: string
  /** The row's own text, ending with the answer cue. */
  question: string
  /** Train-split rows used as examples, in order. */
  examples: number[]
}

/** The infer_cfg key a builder draft carries its ContentSpec under (PromptLoom's own; saved configs never have it). */
export const CONTENT_SPEC_KEY = 'promptloom_content'

const TAG: Record<MediaKind, string> = { image: AIS_IMAGE_START, audio: AIS_AUDIO_START, video: AIS_VIDEO_START }
/** An OpenCompass {field} placeholder (the builder's templates and their field schema read the same ones). */
export const PLACEHOLDER = /\{([A-Za-z_][\w.-]*)\}/g

/** Placeholders the row fills are replaced by str() of the cell; others stay as written (as safe_format leaves them). */
function fillText(template: string, row: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (m, name: string) => (name in row ? pyStr(row[name]) : m))
}

/** Rewrites a media path of a row (the saved data rebases relative paths onto its own folder). */
export type PathOf = (path: string, from: Record<string, unknown>) => string

/**
 * The references a media cell stands for, as they go into a content tag: paths as written (through `pathOf`, which
 * may rebase them), URLs and inline data as they are, embedded bytes ({"$bytes"}, alone or in a Hugging Face
 * {bytes, path} struct: shared/media/media-value.ts) as their base64. Empty cells give none.
 */
export function mediaRefs(cell: unknown, pathOf: (p: string) => string = (p) => p): string[] {
  if (cell === null || cell === undefined) return []
  if (typeof cell === 'string') {
    if (cell === '') return []
    const isInline = cell.startsWith('data:') || (cell.length > 256 && !/[./\\]/.test(cell.slice(0, 64)))
    return [isInline || /^[a-z][a-z0-9+.-]*:\/\//i.test(cell) ? cell : pathOf(cell)]
  }
  if (Array.isArray(cell)) return cell.flatMap((c) => mediaRefs(c, pathOf))
  if (isBytesValue(cell)) return cell.$bytes ? [cell.$bytes] : []
  if (typeof cell === 'object') {
    const o = cell as Record<string, unknown>
    if (isBytesValue(o.bytes) && o.bytes.$bytes) return [o.bytes.$bytes]
    if (typeof o.path === 'string') return mediaRefs(o.path, pathOf)
  }
  return []
}

function mediaSegments(spec: ContentSpec, row: Record<string, unknown>, pathOf?: PathOf): string {
  const rebase = pathOf ? (p: string) => pathOf(p, row) : undefined
  return spec.media.flatMap((m) => mediaRefs(row[m.column], rebase).map((ref) => TAG[m.kind] + ref + AIS_CONTENT_TAG)).join('')
}

const textSegment = (text: string) => (text === '' ? '' : AIS_TEXT_START + text + AIS_CONTENT_TAG)

export interface ComposedContent {
  content: string
  /** Example ids that are not rows of the train split (left out). */
  missing: number[]
}

/**
 * The row's `content`: head text, each example's media then text, the row's media then text. The last text
 * segment has no closing tag, as MMCustomDataset writes it.
 */
export function composeContent(spec: ContentSpec, row: Record<string, unknown>, train: readonly Record<string, unknown>[], pathOf?: PathOf): ComposedContent {
  const missing: number[] = []
  let s = textSegment(spec.head)
  for (const id of spec.examples) {
    const ex = train[id]
    if (!ex) {
      missing.push(id)
      continue
    }
    s += mediaSegments(spec, ex, pathOf) + textSegment(fillText(spec.example, ex))
  }
  s += mediaSegments(spec, row, pathOf) + AIS_TEXT_START + fillText(spec.question, row)
  return { content: s, missing }
}
