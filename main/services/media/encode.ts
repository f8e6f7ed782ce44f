// Encodes an asset for a prompt or an export: as a file:// URL, a path, a data: URL or raw base64, optionally
// re-encoded through sharp (longest side, format, quality) and wrapped in AISBench content tags
// (<AIS_IMAGE_START>…<AIS_CONTENT_TAG>) or as an OpenAI content part (image_url, input_audio, video_url). Files are
// read only from inside the given roots. The export path calls `encodePayload` on worker threads (task
// 'encode-media'): it returns the encoded text as ASCII bytes, so a base64 image never becomes a JS string on the
// main thread; `encodeAsset` is the same thing as a string, for one asset at a time.
import { createHash } from 'node:crypto'
import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { MediaType } from '../datasets/types'
import { resolveUnderRoots } from './roots'
import { sniffBytes } from './sniff'
import { exportImage } from './thumbnails'

export type AssetForm = 'file-url' | 'path' | 'data-url' | 'base64'
export type AssetWrap = 'none' | 'ais' | 'openai'

/** Re-encoding of images on the way out (audio and video are passed through untouched). */
export interface ReencodeOptions {
  /** Longest side in pixels; smaller images are not enlarged. */
  maxSide?: number
  /** Output format; without it an image keeps its format (or becomes PNG when sharp cannot write that format). */
  format?: 'jpeg' | 'png' | 'webp'
  /** 1..100 for jpeg and webp (default 85). */
  quality?: number
}

export interface EncodeRequest {
  /** A path (absolute, or relative to the first root), a file:// URL, a data: URL, or raw base64. */
  source: string
  form: AssetForm
  wrap?: AssetWrap
  /** Overrides the sniffed media type (e.g. an unrecognised audio codec). */
  media?: Exclude<MediaType, 'unknown'>
  roots: string[]
  reencode?: ReencodeOptions
  /**
   * Where re-encoded or inline assets are written when the form points to a file (path, file-url): a file named by
   * its content hash. Without it such an asset cannot be given as a path.
   */
  mediaDir?: string
}

export type OpenAiPart =
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'video_url'; video_url: { url: string } }

export type EncodeFailure = { ok: false; code: 'refused' | 'missing' | 'invalid' | 'unsupported'; message: string }

export type EncodeResult = { ok: true; value: string | OpenAiPart; mime: string; media: MediaType; bytes: number } | EncodeFailure

/** One asset encoded, the text as ASCII bytes (or the raw bytes for `form: 'raw'`), ready to be written. */
export type PayloadResult =
  | {
      ok: true
      /**
       * The encoded value: path, file:// URL, data: URL or base64, as bytes (UTF-8 for a path or URL); raw bytes for
       * 'raw'. Base64 the source already was, exactly as it would be re-encoded, is that text itself (ASCII).
       */
      payload: Uint8Array | string
      /** The file the value points to or came from (null for inline sources written nowhere). */
      file: string | null
      mime: string
      media: MediaType
      /** Size of the asset's bytes after any re-encoding. */
      bytes: number
      reencoded: boolean
      /** Original file name when known (for HF Image {path}). */
      name: string | null
    }
  | EncodeFailure

const AIS_TAG: Record<Exclude<MediaType, 'unknown'>, string> = {
  image: '<AIS_IMAGE_START>',
  audio: '<AIS_AUDIO_START>',
  video: '<AIS_VIDEO_START>'
}
export const AIS_CONTENT_TAG = '<AIS_CONTENT_TAG>'

const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}$/

/** Bytes of an inline asset (data: URL or raw base64), or null when `source` is not inline. */
export function decodeInline(source: string): { bytes: Buffer; mime: string | null } | null {
  const m = /^data:([^;,]*)((?:;[^;,]*)*?);base64,/i.exec(source.slice(0, 256))
  if (m) return { bytes: Buffer.from(source.slice(m[0].length), 'base64'), mime: m[1] || null }
  if (mayBeRawBase64(source)) {
    const compact = source.includes('\n') ? source.replace(/[\r\n]/g, '') : source
    if (compact.length % 4 === 0) return { bytes: Buffer.from(compact, 'base64'), mime: null }
  }
  return null
}

/** Whether a source reads as raw base64 rather than a path: the base64 alphabet (a path has a dot somewhere). */
function mayBeRawBase64(source: string): boolean {
  // An absolute POSIX path is all base64 alphabet too; only a JPEG's base64 starts with a slash.
  if (source.startsWith('/') && !source.startsWith('/9j/')) return false
  return source.length >= 16 && BASE64.test(source.length > 4096 ? source.slice(0, 4096) : source)
}

/** Decoding target reused by canonicalBase64 on this thread (kept up to this size). */
let scratch = Buffer.allocUnsafeSlow(0)
const SCRATCH_KEPT = 4 << 20

/**
 * The first bytes and the length of what raw base64 `s` decodes to, when `s` is exactly what encoding those bytes
 * gives back (standard alphabet, padded, unused bits zero, no line breaks); otherwise null. Such a source is its
 * own base64 output: no decode and encode, no copy of a 95 KB picture. Decoding into a reused buffer is the check
 * (Node's decoder skips what is not base64, so anything else decodes short); a regular expression over 95 KB
 * costs ten times more.
 */
function canonicalBase64(s: string): { head: Buffer; size: number } | null {
  const n = s.length
  if (n % 4 !== 0 || !mayBeRawBase64(s)) return null
  // The URL-safe alphabet decodes too, to the same bytes, but is not what encoding writes.
  if (s.includes('-') || s.includes('_')) return null
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0
  const size = (n / 4) * 3 - pad
  // The last character before the padding carries 2 (one '=') or 4 (two) bits that encoding leaves zero.
  if (pad && B64_VALUE.indexOf(s[n - pad - 1]) & (pad === 1 ? 0b11 : 0b1111)) return null
  const buf = size <= scratch.length ? scratch : Buffer.allocUnsafeSlow(size)
  if (size <= SCRATCH_KEPT) scratch = buf
  if (buf.write(s, 0, 'base64') !== size) return null
  return { head: Buffer.from(buf.subarray(0, 256)), size }
}

const B64_VALUE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** `source` as its own base64 payload when it already is canonical base64 of an asset that is not re-encoded. */
function passThroughBase64(req: Parameters<typeof encodePayload>[0]): PayloadResult | null {
  if (typeof req.source !== 'string') return null
  const c = canonicalBase64(req.source)
  if (!c) return null
  const sniffed = sniffBytes(c.head)
  const media: MediaType = req.media ?? sniffed?.media ?? 'unknown'
  if (media === 'image' && req.reencode && (req.reencode.maxSide || req.reencode.format)) return null
  const mime = sniffed?.mime ?? 'application/octet-stream'
  return { ok: true, payload: req.source, file: null, mime, media, bytes: c.size, reencoded: false, name: req.name ?? null }
}

function wrapValue(value: string, base64: string | null, mime: string, media: MediaType, wrap: AssetWrap): string | OpenAiPart {
  if (wrap === 'none') return value
  const m = media === 'unknown' ? 'image' : media
  if (wrap === 'ais') return `${AIS_TAG[m]}${value}${AIS_CONTENT_TAG}`
  if (m === 'image') return { type: 'image_url', image_url: { url: value } }
  if (m === 'video') return { type: 'video_url', video_url: { url: value } }
  // OpenAI input_audio takes bare base64 plus a format name, never a URL.
  return { type: 'input_audio', input_audio: { data: base64 ?? value, format: audioFormatName(mime) } }
}

/** OpenAI input_audio's format name for a MIME type. */
export function audioFormatName(mime: string): string {
  return mime.includes('mpeg') ? 'mp3' : mime.includes('wav') ? 'wav' : (mime.split(/[/;]/)[1] ?? 'wav')
}

/** Formats sharp writes; an image in another format is written as PNG when it must be re-encoded. */
const WRITABLE = new Set(['jpeg', 'png', 'webp'])

/** Where the asset is: inline bytes (decoded), or a file under the roots (read only when its bytes are needed). */
async function locate(source: string | Uint8Array, roots: string[]): Promise<{ ok: true; bytes: Buffer | null; file: string | null; mime: string | null } | EncodeFailure> {
  if (typeof source !== 'string') return { ok: true, bytes: Buffer.from(source.buffer, source.byteOffset, source.byteLength), file: null, mime: null }
  const inline = decodeInline(source)
  if (inline) return { ok: true, bytes: inline.bytes, file: null, mime: inline.mime }
  const res = await resolveUnderRoots(roots, source)
  if (!res.ok) return { ok: false, code: res.code, message: `${res.reason}: ${source.length > 200 ? source.slice(0, 200) + '…' : source}` }
  return { ok: true, bytes: null, file: res.path, mime: null }
}

/**
 * Encodes one asset as bytes ready to write: `form` as for encodeAsset, or 'raw' for the asset's own bytes (HF
 * Image columns). The payload of a path or URL form names a file: the source file itself, or, for an inline or
 * re-encoded asset, a file named by its content hash in `mediaDir`. A file is read only when its bytes are needed
 * (an encoded form, or an image to re-encode); a path to a large video costs a 256-byte sniff.
 */
export async function encodePayload(req: {
  source: string | Uint8Array
  form: AssetForm | 'raw'
  roots: string[]
  media?: Exclude<MediaType, 'unknown'>
  reencode?: ReencodeOptions
  mediaDir?: string
  /** The folder `mediaDir` becomes once the export is committed: paths in the payload name it. */
  mediaDirFinal?: string
  name?: string | null
}): Promise<PayloadResult> {
  const passed = req.form === 'base64' ? passThroughBase64(req) : null
  if (passed) return passed
  const src = await locate(req.source, req.roots)
  if (!src.ok) return src
  let bytes = src.bytes
  try {
    const head = bytes ? bytes.subarray(0, 256) : await readHead(src.file!)
    const sniffed = sniffBytes(head)
    let mime = sniffed?.mime ?? src.mime ?? 'application/octet-stream'
    const media: MediaType = req.media ?? sniffed?.media ?? ((src.mime?.split('/')[0] as MediaType | undefined) ?? 'unknown')
    let ext = sniffed?.ext ?? 'bin'
    const wantsReencode = media === 'image' && !!req.reencode && !!(req.reencode.maxSide || req.reencode.format)
    if (!bytes && (wantsReencode || (req.form !== 'path' && req.form !== 'file-url'))) bytes = await readFile(src.file!)
    let reencoded = false
    if (wantsReencode && bytes) {
      const own = sniffed?.ext === 'jpg' ? 'jpeg' : sniffed?.ext
      const format = req.reencode!.format ?? (own && WRITABLE.has(own) ? (own as 'jpeg' | 'png' | 'webp') : 'png')
      const r = await exportImage(bytes, { format, maxSide: req.reencode!.maxSide, quality: req.reencode!.quality, keepIfFits: format === own })
      if (!r.ok) return { ok: false, code: 'invalid', message: r.message }
      if (r.value.data !== bytes) {
        bytes = r.value.data
        mime = r.value.mime
        ext = format === 'jpeg' ? 'jpg' : format
        reencoded = true
      }
    }
    let file = reencoded ? null : src.file
    const name = req.name ?? (src.file ? src.file.split(/[\\/]/).pop()! : null)
    const size = bytes?.length ?? 0
    const done = (payload: Uint8Array): PayloadResult => ({ ok: true, payload, file, mime, media, bytes: size, reencoded, name })
    switch (req.form) {
      case 'raw':
        return done(bytes!)
      case 'base64':
        return done(base64Bytes(bytes!))
      case 'data-url':
        return done(base64Bytes(bytes!, `data:${mime.split(';')[0]};base64,`))
      case 'path':
      case 'file-url': {
        if (!file) {
          if (!req.mediaDir) return { ok: false, code: 'invalid', message: 'An inline or re-encoded asset has no file to point to; use data-url or base64' }
          const written = await writeMediaFile(req.mediaDir, bytes!, ext)
          file = req.mediaDirFinal ? join(req.mediaDirFinal, basename(written)) : written
        }
        return done(Buffer.from(req.form === 'path' ? file : pathToFileURL(file).href, 'utf8'))
      }
      default:
        return { ok: false, code: 'unsupported', message: `Unknown form ${String(req.form)}` }
    }
  } catch (e) {
    return { ok: false, code: 'missing', message: `Cannot read ${src.file ?? 'the asset'}: ${(e as Error).message}` }
  }
}

/** Chunks of a multiple of 3 bytes encode to whole base64 quanta, so chunks can be encoded one by one. */
const B64_CHUNK = 3 * 16384

/**
 * `prefix` + base64 of `bytes`, as ASCII bytes, made chunk by chunk into one buffer: no multi-megabyte string is
 * ever made (each chunk's 64 KB string dies young), so a worker encoding 2 MB images keeps a small heap.
 */
export function base64Bytes(bytes: Buffer, prefix = ''): Buffer {
  const out = Buffer.allocUnsafeSlow(prefix.length + Math.ceil(bytes.length / 3) * 4)
  let at = out.write(prefix, 0, 'latin1')
  for (let i = 0; i < bytes.length; i += B64_CHUNK) at += out.write(bytes.toString('base64', i, Math.min(i + B64_CHUNK, bytes.length)), at, 'latin1')
  return out
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await open(file, 'r')
  try {
    const b = Buffer.alloc(256)
    const { bytesRead } = await fh.read(b, 0, 256, 0)
    return b.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

/**
 * Writes bytes once as <mediaDir>/<sha256 prefix>.<ext> (atomic: temp then rename) and returns the path. The name
 * is the content's: a file already there (an earlier row's picture, the same bytes) is not written again — a
 * dataset that repeats its pictures cost a write, a rename and a 100 KB copy per row.
 */
async function writeMediaFile(dir: string, bytes: Buffer, ext: string): Promise<string> {
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${ext}`
  const dest = join(dir, name)
  // Files appear whole (renamed into place), so one of the right size is this content.
  if ((await stat(dest).catch(() => null))?.size === bytes.length) return dest
  await mkdir(dir, { recursive: true })
  const tmp = `${dest}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  await writeFile(tmp, bytes)
  await rename(tmp, dest)
  return dest
}

export async function encodeAsset(req: EncodeRequest): Promise<EncodeResult> {
  const wrap = req.wrap ?? 'none'
  const r = await encodePayload({ source: req.source, form: req.form, roots: req.roots, media: req.media, reencode: req.reencode, mediaDir: req.mediaDir })
  if (!r.ok) return r
  const value = typeof r.payload === 'string' ? r.payload : Buffer.from(r.payload.buffer, r.payload.byteOffset, r.payload.byteLength).toString(req.form === 'path' || req.form === 'file-url' ? 'utf8' : 'latin1')
  // OpenAI audio parts carry base64 whatever form the rest of the prompt uses.
  let b64: string | null = req.form === 'base64' ? value : req.form === 'data-url' ? value.slice(value.indexOf(',') + 1) : null
  if (wrap === 'openai' && r.media === 'audio' && b64 === null) {
    const raw = await encodePayload({ source: req.source, form: 'base64', roots: req.roots, media: req.media })
    if (raw.ok) b64 = typeof raw.payload === 'string' ? raw.payload : Buffer.from(raw.payload).toString('latin1')
  }
  return { ok: true, value: wrapValue(value, b64, r.mime, r.media, wrap), mime: r.mime, media: r.media, bytes: r.bytes }
}
