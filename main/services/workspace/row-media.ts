// Finds the media references in one row (top-level and nested string fields) and turns each into something
// the renderer can show: a media URL for files under an opened root, or the reason it cannot be shown.
import { dirname, isAbsolute, resolve } from 'node:path'
import type { MediaRef } from '../../../shared/api/types'
import { classifyMediaRef, refsInAisContent } from '../media/refs'
import { embeddedMedia } from '../../../shared/media/media-value'
import { toliststr } from '../../../shared/loaders/vlmeval-tsv'

const MEDIA_FIELD = /(image|img|picture|photo|audio|video|frame)/i

/** A VLMEvalKit list-literal cell (`['<b64>', '<b64>']`, toliststr): its items, or null when it is not one. */
function listCell(v: string, key: string): string[] | null {
  if (v.length < 4 || v[0] !== '[' || v[v.length - 1] !== ']' || !MEDIA_FIELD.test(key)) return null
  try {
    return toliststr(v)
  } catch {
    return null
  }
}
import { resolveUnderRoots } from '../media/roots'
import { inlineMedia } from '../media/inline-store'

// Deep enough for OpenAI messages: messages[i].content[j].image_url.url.
const MAX_DEPTH = 6
const MAX_REFS = 16

export interface FoundRef {
  field: string
  kind: MediaRef['kind']
  refKind: string
  value: string
}

export function findMediaRefs(row: Record<string, unknown>): FoundRef[] {
  const out: FoundRef[] = []
  const walk = (v: unknown, path: string, depth: number) => {
    if (out.length >= MAX_REFS) return
    if (typeof v === 'string') {
      const key = path.split('.').pop() ?? path
      const c = classifyMediaRef(v, key)
      const list = c ? null : listCell(v, key)
      if (c) out.push({ field: path, kind: c.media, refKind: c.kind, value: v })
      else if (list) {
        list.forEach((x, i) => {
          const ci = classifyMediaRef(x, key)
          if (ci && out.length < MAX_REFS) out.push({ field: `${path}[${i}]`, kind: ci.media, refKind: ci.kind, value: x })
        })
      }
      // An AISBench content string: each media segment is shown as media, the text stays text.
      else if (v.length > 20 && v.includes('<AIS_')) {
        for (const r of refsInAisContent(v)) if (out.length < MAX_REFS) out.push({ field: path, kind: r.ref.media, refKind: r.ref.kind, value: r.value })
      }
    } else if (v && typeof v === 'object' && depth < MAX_DEPTH) {
      // HF Image/Audio struct or binary bytes: the bytes are the media (the struct's path is only a name then).
      const m = embeddedMedia(v)
      if (m) {
        if (m.base64 !== null) out.push({ field: path, kind: m.kind ?? 'unknown', refKind: 'base64', value: m.base64 })
        else if (m.path !== null) {
          const c = classifyMediaRef(m.path, 'path')
          out.push({ field: path, kind: m.kind ?? c?.media ?? 'unknown', refKind: c?.kind ?? 'relative', value: m.path })
        }
        return
      }
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1))
      else for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k, depth + 1)
    }
  }
  // VLMEvalKit: `image_path` names the file the `image` cell is dumped to, so with an image it is not a reference.
  const hasImage = typeof row.image === 'string' && row.image.length > 64
  walk(hasImage && 'image_path' in row ? Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'image_path')) : row, '', 0)
  // One asset once: an mm_custom row names its file in `path` and again inside `content`.
  const seen = new Set<string>()
  return out.filter((r) => !seen.has(r.value) && !!seen.add(r.value))
}

const abbreviate = (s: string) => (s.length > 96 ? `${s.slice(0, 64)}… (${s.length.toLocaleString()} chars)` : s)

/** What a list or caption shows for a reference: inline media by kind and size, never its base64. */
export function refLabel(r: FoundRef): string {
  if (r.refKind === 'base64' || r.refKind === 'data-url') return `(${r.refKind === 'data-url' ? 'data: URL' : 'inline'} ${r.kind}, ${r.value.length.toLocaleString()} chars)`
  return abbreviate(r.value)
}

export interface MediaUrls {
  /** URL for a file already known to lie under an opened root. */
  file(absPath: string): string
  /** URL for decoded inline bytes held by the inline media store; absent where the host cannot serve them. */
  inline?(id: string): string
}

/**
 * Resolves references against the dataset file's folder and the opened roots. Inline media (data: URLs, raw
 * base64) is decoded once into the inline media store and served as bytes through the host's media route, so
 * base64 never reaches the DOM.
 */
export async function resolveRowMedia(refs: FoundRef[], datasetFile: string, roots: string[], urls: MediaUrls): Promise<MediaRef[]> {
  const base = dirname(datasetFile)
  return Promise.all(
    refs.map(async (r): Promise<MediaRef> => {
      const ref: MediaRef = { field: r.field, kind: r.kind, raw: refLabel(r) }
      switch (r.refKind) {
        case 'http':
          return { ...ref, error: 'remote URL: PromptLoom works offline and does not fetch it' }
        case 'data-url':
        case 'base64': {
          if (!urls.inline) return { ...ref, error: 'inline media is not shown here' }
          const put = inlineMedia.put(r.value)
          return put.ok ? { ...ref, kind: put.media === 'unknown' ? ref.kind : put.media, url: urls.inline(put.id) } : { ...ref, error: `inline media: ${put.message}` }
        }
        default: {
          const p = r.refKind === 'relative' && !isAbsolute(r.value) ? resolve(base, r.value) : r.value
          const c = await resolveUnderRoots(roots, p)
          if (c.ok) return { ...ref, url: urls.file(c.path) }
          return { ...ref, error: c.code === 'missing' ? `missing file: ${r.value}` : `refused: ${c.reason}` }
        }
      }
    })
  )
}

/**
 * One entry per file for the row panel: a builder-saved row names its picture in its own cell (as written, often
 * relative) and again inside its composed `content` (absolute), so the two references resolve to one URL. The
 * first keeps its place; its caption names every field that refers to it. Unresolved entries stay as they are.
 */
export function onePerFile(media: MediaRef[]): MediaRef[] {
  const byUrl = new Map<string, MediaRef>()
  const out: MediaRef[] = []
  for (const m of media) {
    const first = m.url ? byUrl.get(m.url) : undefined
    if (!first) {
      const copy = { ...m }
      if (m.url) byUrl.set(m.url, copy)
      out.push(copy)
    } else if (!first.field.split(', ').includes(m.field)) first.field = `${first.field}, ${m.field}`
  }
  return out
}

