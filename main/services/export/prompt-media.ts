// Finds the media in a rendered prompt and hands each asset to the export's encoder: OpenAI content parts
// (image_url / video_url / audio_url urls), content-list parts with the asset on the part ({"type": "image",
// "image": …} as HF processors and lmms-eval take them) and AISBench content strings
// (<AIS_IMAGE_START>ref<AIS_CONTENT_TAG>…). Everything else in the prompt is left exactly as rendered.
import type { MediaType } from '../datasets/types'
import { classifyMediaRef } from '../media/refs'
import type { MediaSlots } from './media-slots'

type Kind = Exclude<MediaType, 'unknown'>
const URL_PARTS: Record<string, Kind> = { image_url: 'image', video_url: 'video', audio_url: 'audio' }
const AIS = /<AIS_(IMAGE|AUDIO|VIDEO)_START>([\s\S]*?)(?=<AIS_CONTENT_TAG>|$)/g

/** Whether a value in a media slot is a reference to encode (not a remote URL, not empty). */
function encodable(v: string, kind: Kind): boolean {
  if (!v || v.startsWith('http://') || v.startsWith('https://')) return false
  const c = classifyMediaRef(v, kind)
  if (c) return c.kind !== 'http'
  // A media slot holds a reference whatever its extension: a path without one still names a file.
  return v.length <= 4096 && !/[\n\r]/.test(v)
}

function aisString(s: string, slots: MediaSlots): string {
  if (!s.includes('_START>')) return s
  AIS.lastIndex = 0
  return s.replace(AIS, (all, tag: string, body: string) => {
    const kind = tag.toLowerCase() as Kind
    return encodable(body, kind) ? `<AIS_${tag}_START>${slots.put(body, { media: kind })}` : all
  })
}

/** A copy of `prompt` with every media reference replaced by its slot token. */
export function tokenizePromptMedia(prompt: unknown, slots: MediaSlots, depth = 0): unknown {
  if (typeof prompt === 'string') return aisString(prompt, slots)
  if (depth > 8 || prompt === null || typeof prompt !== 'object') return prompt
  if (Array.isArray(prompt)) return prompt.map((x) => tokenizePromptMedia(x, slots, depth + 1))
  const o = prompt as Record<string, unknown>
  const out: Record<string, unknown> = {}
  const type = typeof o.type === 'string' ? o.type : null
  for (const [k, v] of Object.entries(o)) {
    const urlKind = URL_PARTS[k]
    if (urlKind && typeof v === 'string') out[k] = encodable(v, urlKind) ? slots.put(v, { media: urlKind }) : v
    else if (urlKind && v && typeof v === 'object' && typeof (v as { url?: unknown }).url === 'string') {
      const url = (v as { url: string }).url
      out[k] = encodable(url, urlKind) ? { ...(v as object), url: slots.put(url, { media: urlKind }) } : v
    } else if (type && (type === 'image' || type === 'audio' || type === 'video') && (k === type || k === 'url' || k === 'path') && typeof v === 'string') {
      out[k] = encodable(v, type) ? slots.put(v, { media: type }) : v
    } else out[k] = tokenizePromptMedia(v, slots, depth + 1)
  }
  return out
}
