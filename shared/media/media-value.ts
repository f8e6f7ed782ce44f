// How media live in row values once a reader has read them (the one representation every reader, the engine's
// callers and export share). Pure TypeScript: rows cross IPC and the browser-mode HTTP API as JSON.
//
//  - Binary data (a Parquet BYTE_ARRAY without a string annotation, an Arrow binary) is {"$bytes": "<base64>"}:
//    it stays bytes — never decoded as UTF-8 text — and the tag tells it from a string that happens to be base64.
//    The golden cases write binary values the same way.
//  - A Hugging Face `datasets` Image/Audio/Video cell is the struct as stored, {"bytes": {"$bytes": …} | null,
//    "path": string | null}; lists of them stay lists. Which columns are media comes from the Parquet file's
//    `huggingface` schema metadata ({"info": {"features": …}} or the Hub recipe's {"dataset_info": {"features": …}})
//    or, without it, from the shape (hfMediaOf). When bytes are present the path is only a name, not a file.
//  - Inline media written as text (a VLMEvalKit base64 `image` cell, a data: URL, an OpenAI `image_url` part) stay
//    strings; they are recognised where they are (main/services/media/refs.ts) and decoded once into the inline store.
//  - Files written by a reproduced loader (pictures decoded from a TSV or Parquet) are paths in the project's
//    media cache (<project>/.promptloom/media/…), never beside the source files.
// Base64 is never prompt text: readers and the default template leave media columns out of the text, and the UI
// shows media values as media.
import { jsonGet } from '../python/json'

export type MediaKind = 'image' | 'audio' | 'video'

export interface BytesValue {
  $bytes: string
}

const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Standard base64 of bytes (pure; Buffer is not available in shared/). */
export function base64Of(b: Uint8Array): string {
  const parts: string[] = []
  let chunk = ''
  let i = 0
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2]
    chunk += ALPHA[n >> 18] + ALPHA[(n >> 12) & 63] + ALPHA[(n >> 6) & 63] + ALPHA[n & 63]
    if (chunk.length >= 1 << 16) {
      parts.push(chunk)
      chunk = ''
    }
  }
  if (i < b.length) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8)
    chunk += ALPHA[n >> 18] + ALPHA[(n >> 12) & 63] + (i + 1 < b.length ? ALPHA[(n >> 6) & 63] : '=') + '='
  }
  parts.push(chunk)
  return parts.join('')
}

export function bytesValue(b: Uint8Array): BytesValue {
  return { $bytes: base64Of(b) }
}

export function isBytesValue(v: unknown): v is BytesValue {
  return (
    !!v &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    typeof (v as BytesValue).$bytes === 'string' &&
    Object.keys(v).length === 1
  )
}

/** An HF media struct: {bytes, path} and nothing else (Audio may add sampling_rate / array in memory, not on disk). */
export function isHfMediaStruct(v: unknown): v is { bytes: BytesValue | null; path: string | null } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
  if (!keys.includes('bytes') || !keys.includes('path') || keys.some((k) => k !== 'bytes' && k !== 'path')) return false
  return (
    (o.bytes === null || isBytesValue(o.bytes)) &&
    (o.path === null || typeof o.path === 'string') &&
    (o.bytes !== null || o.path !== null)
  )
}

/** HF feature types by column from a Parquet file's `huggingface` key-value metadata (both spellings). */
export function hfFeatureKinds(metadataJson: string | undefined): Map<string, MediaKind> {
  const out = new Map<string, MediaKind>()
  if (!metadataJson) return out
  let j: unknown
  try {
    j = JSON.parse(metadataJson)
  } catch {
    return out
  }
  const features = jsonGet(j, 'info', 'features') ?? jsonGet(j, 'dataset_info', 'features')
  if (!features || typeof features !== 'object') return out
  const kindOf = (f: unknown): MediaKind | null => {
    if (!f || typeof f !== 'object') return null
    if (Array.isArray(f)) return kindOf(f[0])
    const t = jsonGet(f, '_type')
    if (t === 'Image') return 'image'
    if (t === 'Audio') return 'audio'
    if (t === 'Video') return 'video'
    if (t === 'Sequence' || t === 'List' || t === 'LargeList') return kindOf(jsonGet(f, 'feature'))
    return null
  }
  for (const [name, f] of Object.entries(features)) {
    const k = kindOf(f)
    if (k) out.set(name, k)
  }
  return out
}

const B64_INDEX = new Map([...ALPHA].map((c, i) => [c, i]))

/** The first bytes of a base64 string (up to 3/4 of `chars` characters), for sniffing without decoding it all. */
export function base64Head(b64: string, chars = 48): Uint8Array {
  const out: number[] = []
  let acc = 0
  let bits = 0
  for (let i = 0; i < b64.length && i < chars; i++) {
    const v = B64_INDEX.get(b64[i])
    if (v === undefined) break
    acc = (acc << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out.push((acc >> bits) & 0xff)
    }
  }
  return Uint8Array.from(out)
}

const asc = (b: Uint8Array, at: number, s: string): boolean => {
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false
  return b.length >= at + s.length
}

/** Image, audio or video from magic bytes; null when the bytes are none of the formats people store. */
export function mediaKindOfBytes(b: Uint8Array): MediaKind | null {
  if (b[0] === 0x89 && asc(b, 1, 'PNG')) return 'image'
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image'
  if (asc(b, 0, 'GIF8') || asc(b, 0, 'BM') || asc(b, 0, 'II*\0') || asc(b, 0, 'MM\0*')) return 'image'
  if (asc(b, 0, 'RIFF')) return asc(b, 8, 'WEBP') ? 'image' : asc(b, 8, 'AVI ') ? 'video' : 'audio'
  if (asc(b, 0, 'ID3') || asc(b, 0, 'fLaC') || asc(b, 0, 'OggS') || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0))
    return 'audio'
  if (asc(b, 4, 'ftyp')) return asc(b, 8, 'M4A') ? 'audio' : asc(b, 8, 'avif') || asc(b, 8, 'heic') ? 'image' : 'video'
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'video'
  return null
}

/**
 * The media inside a cell, when the cell is a media value (HF struct with bytes or a path, or tagged bytes):
 * what the row shows instead of text. `kind` comes from the column's HF feature type when known, else the bytes.
 */
export function embeddedMedia(
  v: unknown,
  featureKind?: MediaKind
): { kind: MediaKind | null; base64: string | null; path: string | null } | null {
  if (isBytesValue(v))
    return { kind: featureKind ?? mediaKindOfBytes(base64Head(v.$bytes)), base64: v.$bytes, path: null }
  if (isHfMediaStruct(v)) {
    const b = v.bytes ? v.bytes.$bytes : null
    return { kind: featureKind ?? (b ? mediaKindOfBytes(base64Head(b)) : null), base64: b, path: b ? null : v.path }
  }
  return null
}

/** Short text for a media value in lists and cells: never the base64 itself. */
export function describeMediaValue(v: unknown, featureKind?: MediaKind): string | null {
  const m = embeddedMedia(v, featureKind)
  if (!m) return null
  if (m.base64 !== null)
    return `(${m.kind ?? 'binary'}, ${Math.floor((m.base64.length * 3) / 4).toLocaleString()} bytes)`
  return `(${m.kind ?? 'media'}: ${m.path})`
}
