// The media parts each model receives (sent, written as a placeholder, or dropped) and their token cost; full
// references stay here, the display gets short ones.
import type { ModelMediaPart, ModelRender } from '../../../shared/api/types'
import type { Prepared } from '../../../shared/engine'
import { harnessFor, type ModelProfile } from '../../../shared/models'
import { type MediaPartRef, mediaPartsOf, partModality, profileModalities } from '../../../shared/models/multimodal'
import { type AudioLength, audioTokenCost, imageTokenCost, type MediaTokenCost, videoTokenCost } from '../../../shared/models/media-tokens'
import { type ModelContext, withLength } from './model-render'

/** Messages with every media part's reference emptied, for counting the text tokens. */
export function withoutMediaData(messages: unknown): unknown {
  if (!Array.isArray(messages)) return messages
  return messages.map((msg) => {
    if (!msg || typeof msg !== 'object' || !Array.isArray((msg as { content?: unknown }).content)) return msg
    const content = ((msg as { content: unknown[] }).content).map((part) => (partModality(part) ? { type: (part as { type?: unknown }).type } : part))
    return { ...(msg as object), content }
  })
}

/** Inline media never reaches the display as text: a data URL or base64 is abbreviated to its kind and length. */
export function shortRef(ref: string): string {
  if (/^data:/i.test(ref)) return `(data: URL, ${ref.length.toLocaleString()} chars)`
  if (ref.length > 256 && /^[A-Za-z0-9+/=\s]+$/.test(ref.slice(0, 256))) return `(inline, ${ref.length.toLocaleString()} chars)`
  return ref.length > 300 ? `${ref.slice(0, 200)}… (${ref.length.toLocaleString()} chars)` : ref
}

/** Media parts an API model receives as they are: the server's own model counts them. */
export function apiMedia(messages: { content?: unknown }[]): ModelMediaPart[] {
  return mediaPartsOf(messages).map((x) => mediaPart({ modality: x.modality, ref: shortRef(x.ref), how: 'sent as a content part: the server\'s model counts it' }, x.ref))
}

/**
 * Each media part a chat template received, with the placeholder the profile's template writes for it; parts the
 * model does not take, or beyond the placeholders the template wrote (per modality), are marked dropped.
 */
export function templateMedia(p: ModelProfile, parts: MediaPartRef[], text: string | null): ModelMediaPart[] {
  const takes = profileModalities(p)
  const seen: Record<string, number> = {}
  return parts.map((x) => {
    const ph = p.media?.[x.modality]?.placeholder
    const k = (seen[x.modality] = (seen[x.modality] ?? 0) + 1)
    const written = ph && text !== null ? text.split(ph).length - 1 : 0
    const dropped = text === null || !takes.includes(x.modality) || (ph !== undefined && k > written)
    return mediaPart({ modality: x.modality, ref: shortRef(x.ref), ...(ph ? { placeholder: ph } : {}), ...(dropped ? { dropped: true } : {}) }, x.ref)
  })
}

// The reference a part carries in full (a data URL, base64): kept beside the shown part, never sent to the renderer.
const fullRefs = new WeakMap<ModelMediaPart, string>()
export function mediaPart(part: ModelMediaPart, full: string): ModelMediaPart {
  fullRefs.set(part, full)
  return part
}

/** A picture's size, by the reference as a part carries it (file:// URL, path, data URL); null when unknown. */
export type MediaSizeOf = (ref: string) => { width: number; height: number } | null

/** An audio clip's exact length, by the reference as a part carries it; null when unknown. */
export type AudioLengthOf = (ref: string) => AudioLength | null

/** What the workspace knows about a row's media: picture sizes, clip lengths, and the URL the renderer loads each from. */
export interface RowMediaInfo {
  sizeOf?: MediaSizeOf
  audioOf?: AudioLengthOf
  urlOf?: (ref: string) => string | undefined
}

/**
 * The media's own token cost where the profile's rule is known (shared/models/media-tokens.ts), with the real
 * picture size or clip length; added to the text count. Parts dropped cost nothing; unknown rules or sizes are counted as unknown.
 */
export function withMediaTokens(r: ModelRender, m: ModelContext, family: Prepared['family'], info: RowMediaInfo = {}): ModelRender {
  if (!r.media?.length) return r
  const urls = info.urlOf ? r.media.map((x) => info.urlOf!(fullRefs.get(x) ?? x.ref)) : []
  const withUrls = urls.some(Boolean) ? r.media.map((x, i) => (urls[i] ? mediaPart({ ...x, url: urls[i] }, fullRefs.get(x) ?? x.ref) : x)) : r.media
  // An API model's server counts its media itself: nothing is added here.
  if (!r.tokens || r.kind === 'messages') return { ...r, media: withUrls }
  const h = harnessFor(m.profile, family)
  const vk = h?.model_kwargs.vision_kwargs
  const visionKwargs = vk && typeof vk === 'object' && !Array.isArray(vk) ? (vk as Record<string, unknown>) : {}
  let add = 0
  let unknown = 0
  // The pictures this model's prompt holds (LLaVA-OneVision counts a picture among several differently).
  const images = withUrls.filter((x) => x.modality === 'image' && !x.dropped && x.placeholder !== undefined).length
  const media = withUrls.map((x) => {
    if (x.dropped || r.kind === 'messages' || x.placeholder === undefined) return x
    const ref = fullRefs.get(x) ?? x.ref
    let c: MediaTokenCost
    if (x.modality === 'image') c = imageTokenCost(m.profile.media?.image?.tokens, info.sizeOf ? info.sizeOf(ref) : null, visionKwargs, images)
    else if (x.modality === 'audio') c = audioTokenCost(m.profile.media?.audio?.tokens, info.audioOf ? info.audioOf(ref) : null)
    else if (x.modality === 'video') c = videoTokenCost(m.profile.media?.video?.tokens)
    else c = { tokens: null, how: `no ${x.modality} token rule is known: the count is the text only` }
    if (c.tokens === null) unknown++
    else add += c.tokens
    return { ...x, tokens: c.tokens, how: c.how, ...(c.crossAttention ? { crossAttention: c.crossAttention } : {}) }
  })
  const tokens = { ...r.tokens, count: r.tokens.count + add, media: add, ...(unknown ? { mediaUnknown: unknown } : {}) }
  const problems = r.contextLength ? withLength(r.problems.filter((q) => q.code !== 'over-context'), tokens.count, r.contextLength) : r.problems
  return { ...r, media, tokens, problems }
}
