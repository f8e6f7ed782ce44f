// The fields a template needs, derived from the template itself (TFRobot's additional_kwargs_schema): every
// OpenCompass {field} placeholder with where it stands, and the media slots of AISBench prompt_mm parts. Rows are
// checked against it before rendering (a missing or empty field, an image slot that is not an image), a placeholder
// no column fills is an error at its place (OpenCompass would leave the braces in the prompt), and the schema is
// written as JSON Schema beside an exported config so a caller knows what must be supplied.

import { CONTENT_SPEC_KEY, PLACEHOLDER, type ContentSpec } from './mm-content'

export type FieldKind = 'text' | 'image' | 'audio' | 'video'

export interface FieldUse {
  /** Where the placeholder is, as a path into infer_cfg ("prompt_template.template.round[0].prompt"). */
  path: string
  /** Offsets of `{name}` in that string. */
  from: number
  to: number
}

export interface FieldSchema {
  name: string
  kind: FieldKind
  required: boolean
  /** Allowed values (edited by the person, e.g. the answer letters); absent: any. */
  enum?: string[]
  uses: FieldUse[]
}

export interface SchemaIssue {
  code: 'unfilled-placeholder' | 'missing-field' | 'empty-field' | 'not-media' | 'not-allowed'
  field: string
  message: string
  severity: 'error' | 'warning'
  use?: FieldUse
}

// The ice token and the wrap marker are not fields.
const NOT_FIELDS = new Set(['wrapped'])
const MEDIA_PART: Record<string, FieldKind> = { image_url: 'image', image: 'image', audio_url: 'audio', input_audio: 'audio', audio: 'audio', video_url: 'video', video: 'video' }

/** Every field the infer_cfg's templates read, in first-use order; the output column is optional in the test prompt. */
export function deriveSchema(inferCfg: Record<string, unknown>, outputColumn?: string): FieldSchema[] {
  const fields = new Map<string, FieldSchema>()
  const visit = (v: unknown, path: string, media: FieldKind | null): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(PLACEHOLDER)) {
        const name = m[1]
        if (NOT_FIELDS.has(name)) continue
        let f = fields.get(name)
        if (!f) fields.set(name, (f = { name, kind: media ?? 'text', required: name !== outputColumn, uses: [] }))
        if (media && f.kind === 'text') f.kind = media
        f.uses.push({ path, from: m.index, to: m.index + m[0].length })
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${path}[${i}]`, media))
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>
      const partKind = typeof o.type === 'string' ? (MEDIA_PART[o.type] ?? null) : null
      for (const [k, x] of Object.entries(o)) {
        if (k === 'type' || k === 'ice_token') continue
        visit(x, path ? `${path}.${k}` : k, partKind && k !== 'text' ? partKind : media)
      }
    }
  }
  const spec = inferCfg[CONTENT_SPEC_KEY] as ContentSpec | undefined
  if (spec) {
    // The builder's multimodal shape: prompt_mm's {question}/{image} are format_mm's slots for content segments, not
    // columns; the columns are what the composition reads.
    for (const key of ['head', 'example', 'question'] as const) visit(spec[key], `${CONTENT_SPEC_KEY}.${key}`, null)
    spec.media.forEach((m, i) => {
      const f = fields.get(m.column)
      const use = { path: `${CONTENT_SPEC_KEY}.media[${i}]`, from: 0, to: 0 }
      if (f) {
        f.kind = m.kind
        f.uses.push(use)
      } else fields.set(m.column, { name: m.column, kind: m.kind, required: true, uses: [use] })
    })
    return [...fields.values()]
  }
  for (const key of ['ice_template', 'prompt_template']) if (inferCfg[key]) visit(inferCfg[key], key, null)
  return [...fields.values()]
}

const MEDIA_EXT: Record<Exclude<FieldKind, 'text'>, RegExp> = {
  image: /\.(png|jpe?g|gif|webp|bmp|tiff?)$/i,
  audio: /\.(wav|mp3|flac|ogg|opus|m4a)$/i,
  video: /\.(mp4|webm|mov|mkv|avi)$/i
}

/** Whether a cell can stand for media of this kind: a path or URL with its extension, a data: URL, or bytes. */
function looksLikeMedia(v: unknown, kind: Exclude<FieldKind, 'text'>): boolean {
  if (v && typeof v === 'object') return 'bytes' in v || '$bytes' in v || 'path' in v
  if (typeof v !== 'string') return false
  if (v.startsWith(`data:${kind}/`)) return true
  // Long base64 (VLMEvalKit cells) is taken as media; its bytes are checked when it is decoded.
  if (v.length > 256 && /^[A-Za-z0-9+/=\s]+$/.test(v.slice(0, 256))) return true
  return MEDIA_EXT[kind].test(v.split(/[?#]/)[0])
}

/** The person's changes to a derived field (the builder's schema editor): its kind, whether it is required, allowed values. */
export interface FieldEdit {
  kind?: FieldKind
  required?: boolean
  /** Allowed values; an empty list means any. */
  enum?: string[]
}

/** The derived schema with the person's edits applied (edits of fields the template no longer reads are ignored). */
export function applyFieldEdits(schema: FieldSchema[], edits: Record<string, FieldEdit> | undefined): FieldSchema[] {
  if (!edits) return schema
  return schema.map((f) => {
    const e = edits[f.name]
    if (!e) return f
    const out: FieldSchema = { ...f, kind: e.kind ?? f.kind, required: e.required ?? f.required }
    const allowed = e.enum ?? f.enum
    if (allowed && allowed.length) out.enum = allowed
    else delete out.enum
    return out
  })
}

/** Placeholders that no column of the dataset fills: errors at their place. */
export function unfilledPlaceholders(schema: FieldSchema[], columns: string[]): SchemaIssue[] {
  const have = new Set(columns)
  return schema
    .filter((f) => !have.has(f.name))
    .flatMap((f) =>
      f.uses.map((use) => ({
        code: 'unfilled-placeholder' as const,
        field: f.name,
        severity: 'error' as const,
        use,
        message: `{${f.name}} at ${use.path} (characters ${use.from}–${use.to}) is filled by no column: OpenCompass would send the braces as they are. Columns: ${columns.join(', ')}`
      }))
    )
}

/** What is wrong with one row for this schema (before any rendering). */
export function checkRow(schema: FieldSchema[], row: Record<string, unknown>): SchemaIssue[] {
  const issues: SchemaIssue[] = []
  for (const f of schema) {
    const v = row[f.name]
    if (v === undefined) {
      if (f.required) issues.push({ code: 'missing-field', field: f.name, severity: 'error', message: `no field "${f.name}"` })
      continue
    }
    if (f.kind !== 'text') {
      if (!looksLikeMedia(v, f.kind)) issues.push({ code: 'not-media', field: f.name, severity: 'error', message: `"${f.name}" should be ${f.kind === 'image' ? 'an image' : `${f.kind}`} (a path, URL, data: URL or bytes)` })
      continue
    }
    if (v === null || (typeof v === 'string' && v.trim() === '')) {
      if (f.required) issues.push({ code: 'empty-field', field: f.name, severity: 'warning', message: `"${f.name}" is empty` })
      continue
    }
    if (f.enum && !f.enum.includes(String(v))) issues.push({ code: 'not-allowed', field: f.name, severity: 'error', message: `"${f.name}" is ${JSON.stringify(v)}, not one of ${f.enum.join(', ')}` })
  }
  return issues
}

/** The schema as JSON Schema (2020-12), written beside an exported config. */
export function toJsonSchema(schema: FieldSchema[], title: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {}
  for (const f of schema) {
    properties[f.name] =
      f.kind === 'text'
        ? { ...(f.enum ? { enum: f.enum } : {}), description: `read by the template at ${f.uses.map((u) => u.path).join(', ')}` }
        : { type: ['string', 'object'], contentMediaType: `${f.kind}/*`, description: `${f.kind}: a path, URL, data: URL or {bytes, path}` }
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title,
    type: 'object',
    required: schema.filter((f) => f.required).map((f) => f.name),
    properties
  }
}
