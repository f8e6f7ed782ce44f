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
  return !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as BytesValue).$bytes === 'string' && Object.keys(v).length === 1
}

/** An HF media struct: {bytes, path} and nothing else (Audio may add sampling_rate / array in memory, not on disk). */
export function isHfMediaStruct(v: unknown): v is { bytes: BytesValue | null; path: string | null } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
  if (!keys.includes('bytes') || !keys.includes('path') || keys.some((k) => k !== 'bytes' && k !== 'path')) return false
  return (o.bytes === null || isBytesValue(o.bytes)) && (o.path === null || typeof o.path === 'string') && (o.bytes !== null || o.path !== null)
}

/** HF feature types by column from a Parquet file's `huggingface` key-value metadata (both spellings). */
export function hfFeatureKinds(metadataJson: string | undefined): Map<string, MediaKind> {
  const out = new Map<string, MediaKind>()
  if (!metadataJson) return out
  let j: any
  try {
    j = JSON.parse(metadataJson)
  } catch {
    return out
  }
  const features = j?.info?.features ?? j?.dataset_info?.features
  if (!features || typeof features !== 'object') return out
  const kindOf = (f: any): MediaKind | null => {
    if (!f || typeof f !== 'object') return null
    if (Array.isArray(f)) return kindOf(f[0])
    const t = f._type
    if (t === 'Image') return 'image'
    if (t === 'Audio') return 'audio'
    if (t === 'Video') return 'video'
    if (t === 'Sequence' || t === 'List' || t === 'LargeList') return kindOf(f.feature)
    return null
  }
  for (const [name, f] of Object.entries(features)) {
    const k = kindOf(f)
    if (k) out.set(name, k)
  }
  return out
}
