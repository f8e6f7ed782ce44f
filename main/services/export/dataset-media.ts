// Which values of a dataset row are media, in the representation the readers share (shared/media/media-value.ts):
// a reference string (path, file:// URL, data: URL, base64), binary {"$bytes": base64} (or raw bytes), a Hugging
// Face Image/Audio/Video struct {bytes, path}, or a list of these; AISBench `content` strings carry references
// inside AIS tags. The dataset export replaces each by its encoded form (see MediaSlots) and leaves every other
// value as it is.
import { isBytesValue, isHfMediaStruct } from '../../../shared/media/media-value'
import type { MediaType } from '../datasets/types'
import { classifyMediaRef } from '../media/refs'
import { sniffBytes } from '../media/sniff'

export type Kind = Exclude<MediaType, 'unknown'>

/** One asset in a row: what to encode (a reference, base64 text or bytes), its kind when known, its file name. */
export interface MediaItem {
  source: string | Uint8Array
  media?: Kind
  name: string | null
  /** Binary in the row (not text): it must be encoded even when the export keeps media as they are. */
  binary?: boolean
}

const kindOf = (m: MediaType | undefined): Kind | undefined => (m && m !== 'unknown' ? m : undefined)
const baseName = (p: string | null | undefined): string | null => (p ? (p.split(/[\\/]/).pop() ?? null) : null)

/** The kind of base64-encoded bytes, from their first bytes. */
function kindOfBase64(b64: string): Kind | undefined {
  return kindOf(sniffBytes(Buffer.from(b64.slice(0, 344), 'base64'))?.media)
}

/** Binary cell: tagged {"$bytes"} or raw bytes; only bytes a known media format starts with count as media. */
function binaryItem(v: unknown, name: string | null, hinted: boolean): MediaItem | null {
  if (isBytesValue(v)) {
    const media = kindOfBase64(v.$bytes)
    return media || hinted ? { source: v.$bytes, media, name, binary: true } : null
  }
  if (v instanceof Uint8Array) {
    const media = kindOf(sniffBytes(v.subarray(0, 256))?.media)
    return media || hinted ? { source: v, media, name, binary: true } : null
  }
  return null
}

/** The asset a single value holds, or null when it is not media. `key` (the column) helps recognise bare base64. */
export function mediaItem(v: unknown, key: string): MediaItem | null {
  if (typeof v === 'string') {
    const c = classifyMediaRef(v, key)
    if (!c || c.kind === 'http') return null
    return { source: v, media: kindOf(c.media), name: c.kind === 'relative' || c.kind === 'absolute' ? baseName(v) : null }
  }
  if (isHfMediaStruct(v)) {
    // With bytes the path is only a name; without, it names the file.
    if (v.bytes) return binaryItem(v.bytes, baseName(v.path), true)
    return v.path ? { source: v.path, media: kindOf(classifyMediaRef(v.path, key)?.media), name: baseName(v.path) } : null
  }
  return binaryItem(v, null, false)
}

/** The assets of a value: one, a list of them, or none. */
export function mediaItems(v: unknown, key: string): MediaItem[] | null {
  if (Array.isArray(v)) {
    if (v.length === 0) return null
    const items = v.map((x) => mediaItem(x, key))
    return items.every((x): x is MediaItem => x !== null) ? items : null
  }
  const one = mediaItem(v, key)
  return one ? [one] : null
}
