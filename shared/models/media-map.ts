// The multimodal render form (TFRobot's format_2_multimodal): for pipelines that attach media themselves, the messages
// a model receives with every media part replaced by a stable placeholder in the text — <image_1>, <audio_1>,
// <video_1>, numbered per kind in order across the whole prompt — and the map from each placeholder to its part
// (path, URL, data: URL or base64, as the export's media encoding writes it). Text parts are joined as they are,
// with nothing added between them, so the text is the model's text with placeholders where its media went.
import { partModality } from './multimodal'

/** The media kind a content part carries (partModality), its own type name for other non-text parts, null for text. */
function kindOf(part: Record<string, unknown>): string | null {
  const t = part.type
  if (t === 'text' || typeof t !== 'string') return null
  return partModality(part) ?? t.replace(/_url$/, '')
}

export interface MediaMapped {
  messages: { role: string; content: string }[]
  media: Record<string, unknown>
  /** The data's own text already holds a string shaped like a placeholder (a reader must not take it for media). */
  clash: boolean
}

const PLACEHOLDER_LIKE = /<[a-z]+_\d+>/

/** Messages whose content may be a list of parts → text with placeholders plus the placeholder → part map. */
export function toMediaMap(messages: readonly unknown[]): MediaMapped {
  const counts = new Map<string, number>()
  const media: Record<string, unknown> = {}
  let clash = false
  const out = messages.map((m) => {
    const msg = (m ?? {}) as { role?: unknown; content?: unknown }
    const role = typeof msg.role === 'string' ? msg.role : String(msg.role)
    if (!Array.isArray(msg.content)) {
      const t = typeof msg.content === 'string' ? msg.content : msg.content == null ? '' : JSON.stringify(msg.content)
      if (PLACEHOLDER_LIKE.test(t)) clash = true
      return { role, content: t }
    }
    let text = ''
    for (const p of msg.content) {
      const part = (p ?? {}) as Record<string, unknown>
      const kind = kindOf(part)
      if (kind === null) {
        const t = typeof part.text === 'string' ? part.text : ''
        if (PLACEHOLDER_LIKE.test(t)) clash = true
        text += t
        continue
      }
      const n = (counts.get(kind) ?? 0) + 1
      counts.set(kind, n)
      const key = `<${kind}_${n}>`
      media[key] = part
      text += key
    }
    return { role, content: text }
  })
  return { messages: out, media, clash }
}
