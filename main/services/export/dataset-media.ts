// Which values of a dataset row are media, as the readers give them: a reference string (path, file:// URL,
// data: URL, base64), raw bytes (a Parquet binary cell), a Hugging Face Image/Audio/Video struct {bytes, path},
// or a list of these; AISBench `content` strings carry references inside AIS tags. The dataset export replaces
// each by its encoded form (see MediaSlots) and leaves every other value as it is.
import type { MediaType } from '../datasets/types'
import { classifyMediaRef } from '../media/refs'
import { sniffBytes } from '../media/sniff'

export type Kind = Exclude<MediaType, 'unknown'>

/** One asset in a row: what to encode, its kind when known, and its file name when the source names one. */
export interface MediaItem {
  source: string | Uint8Array
  media?: Kind
  name: string | null
}

const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array

/** An HF struct {bytes, path} (either may be null). */
export function isHfStruct(v: unknown): v is { bytes?: Uint8Array | string | null; path?: string | null } {
  if (!v || typeof v !== 'object' || Array.isArray(v) || isBytes(v)) return false
  const keys = Object.keys(v)
  return keys.length > 0 && keys.length <= 3 && 'bytes' in v && keys.every((k) => k === 'bytes' || k === 'path' || k === 'sampling_rate')
}

const kindOf = (m: MediaType | undefined): Kind | undefined => (m && m !== 'unknown' ? m : undefined)

/** The asset a single value holds, or null when it is not media. `key` (the column) helps recognise bare base64. */
export function mediaItem(v: unknown, key: string): MediaItem | null {
  if (typeof v === 'string') {
    const c = classifyMediaRef(v, key)
    if (!c || c.kind === 'http') return null
    return { source: v, media: kindOf(c.media), name: c.kind === 'relative' || c.kind === 'absolute' ? (v.split(/[\\/]/).pop() ?? null) : null }
  }
  if (isBytes(v)) {
    const s = sniffBytes(v.subarray(0, 256))
    return s ? { source: v, media: kindOf(s.media), name: null } : null
  }
  if (isHfStruct(v)) {
    const name = typeof v.path === 'string' && v.path ? v.path : null
    if (isBytes(v.bytes) && v.bytes.length) return { source: v.bytes, media: kindOf(sniffBytes(v.bytes.subarray(0, 256))?.media), name: name?.split(/[\\/]/).pop() ?? null }
    if (typeof v.bytes === 'string' && v.bytes) return { source: v.bytes, name: name?.split(/[\\/]/).pop() ?? null }
    if (name) return { source: name, media: kindOf(classifyMediaRef(name, key)?.media), name: name.split(/[\\/]/).pop() ?? null }
  }
  return null
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
