// The dataset-side PromptList as the display shows it: role blocks of segments, each with where it came from.
import type { PromptBlock, Segment } from '../../../shared/api/types'
import { type Prompt, toSegments } from '../../../shared/engine'
import { partMedia } from '../../../shared/conversation'

/** The PromptList as role blocks for display; a plain string prompt is one block. */
export function promptBlocks(prompt: Prompt): PromptBlock[] {
  if (!Array.isArray(prompt)) return [{ segments: toSegments(prompt) }]
  return prompt.map((it) => {
    if (it.t === 's') return { segments: toSegments(it.s) }
    if (it.t === 'd') {
      const d = it.d
      if (typeof d.section === 'string') return { section: `${d.section} ${String(d.pos)}`, segments: [] }
      const role = typeof d.role === 'string' ? d.role : undefined
      // A chat message whose content is parts (text and media): the text as it is, each medium named, never its data.
      if (!it.p && it.pk === 'content' && Array.isArray(d.content)) return { role, segments: partSegments(d.content, role) }
      const segs: Segment[] = it.p ? toSegments(it.p) : [{ text: typeof d.prompt === 'string' ? d.prompt : JSON.stringify(d.prompt ?? null), source: { kind: 'template' } }]
      return { role, segments: segs }
    }
    return { segments: [{ text: JSON.stringify(it.v), source: { kind: 'template' } }] }
  })
}

/** Content parts for display: text parts as text, each media part as a short label (kind and reference, no base64). */
function partSegments(parts: unknown[], role: string | undefined): Segment[] {
  return parts.map((p): Segment => {
    const o = (p && typeof p === 'object' ? p : {}) as Record<string, unknown>
    if (o.type === 'text' && typeof o.text === 'string') return { text: o.text, source: { kind: 'field', field: role ?? 'content' } }
    const m = partMedia(p)
    if (!m) return { text: `⟨${typeof o.type === 'string' ? o.type : 'part'}⟩`, source: { kind: 'media' } }
    const inline = m.ref.startsWith('data:') || m.ref.length > 256
    const label = inline ? `inline ${m.kind}, ${m.ref.length.toLocaleString()} chars` : `${m.kind}: ${m.ref}`
    return { text: `⟨${label}⟩`, source: { kind: 'media' } }
  })
}
