// The real size of each picture, and the exact length of each audio clip, a row references, for the media token
// rules (shared/models/media-tokens.ts): files are read where they resolve under the opened roots (sharp and
// music-metadata read the headers only); inline PNG and JPEG sizes come from their first bytes
// (media/image-size.ts), other inline pictures are decoded for sharp. A model part names its medium as the row
// writes it, or with upstream's `file://` prefix (mm_custom_gen.py).
import { dirname, isAbsolute, resolve } from 'node:path'
import { imageSizeFromHeader } from '../media/image-size'
import { sharp } from '../media/sharp'
import { resolveUnderRoots } from '../media/roots'
import { parseMetadata } from '../media/metadata'
import type { MediaRef } from '../../../shared/api/types'
import type { FoundRef } from './row-media'
import type { AudioLengthOf, MediaSizeOf, RowMediaInfo } from './model-media'
import type { ModelProfile } from '../../../shared/models/profile'
import type { AudioLength } from '../../../shared/models/media-tokens'

type Size = { width: number; height: number }

const cache = new Map<string, Size | null>()
const CACHE_MAX = 2000

async function sizeOfFile(file: string): Promise<Size | null> {
  if (cache.has(file)) return cache.get(file)!
  let out: Size | null = null
  try {
    const m = await sharp(file).metadata()
    if (m.width && m.height) out = { width: m.width, height: m.height }
  } catch {
    out = null
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string)
  cache.set(file, out)
  return out
}

/** Base64 characters decoded to read a header: 6 KB of picture, then 192 KB when a JPEG's header runs longer. */
const HEADER_CHARS = [8192, 262144]

async function sizeOfInline(value: string): Promise<Size | null> {
  const from = value.startsWith('data:') ? value.indexOf(',') + 1 : 0
  // PNG and JPEG sizes come from the header: a few KB decoded, not the whole cell through libvips.
  for (const chars of HEADER_CHARS) {
    const whole = value.length - from <= chars
    const head = imageSizeFromHeader(Buffer.from(value.slice(from, from + chars), 'base64'))
    if (head !== 'more') {
      if (head) return head
      break
    }
    if (whole) break
  }
  const b64 = from ? value.slice(from) : value
  try {
    const m = await sharp(Buffer.from(b64, 'base64')).metadata()
    return m.width && m.height ? { width: m.width, height: m.height } : null
  } catch {
    return null
  }
}

/** Where a file reference resolves under the opened roots, or null (an http URL, a file outside them, missing). */
async function fileOf(r: FoundRef, base: string, roots: string[]): Promise<string | null> {
  if (r.refKind === 'http' || r.refKind === 'data-url' || r.refKind === 'base64') return null
  const p = r.refKind === 'relative' && !isAbsolute(r.value) ? resolve(base, r.value) : r.value
  const c = await resolveUnderRoots(roots, p)
  return c.ok ? c.path : null
}

/** A lookup by the reference as a part carries it: the row's own value, or the same with upstream's file:// prefix. */
function byRef<T>(found: Map<string, T | null>): (ref: string) => T | null {
  return (ref) => {
    if (found.has(ref)) return found.get(ref)!
    const bare = ref.startsWith('file://') ? ref.slice('file://'.length) : ref
    return found.get(bare) ?? null
  }
}

/** The picture sizes of a row's image references, looked up by the reference a content part carries. */
export async function rowImageSizes(refs: FoundRef[], datasetFile: string, roots: string[]): Promise<MediaSizeOf> {
  const sizes = new Map<string, Size | null>()
  const base = dirname(datasetFile)
  await Promise.all(
    refs
      .filter((r) => r.kind === 'image' && r.refKind !== 'http')
      .map(async (r) => {
        if (r.refKind === 'data-url' || r.refKind === 'base64') {
          sizes.set(r.value, await sizeOfInline(r.value))
          return
        }
        const file = await fileOf(r, base, roots)
        sizes.set(r.value, file ? await sizeOfFile(file) : null)
      })
  )
  return byRef(sizes)
}

/**
 * A clip's exact sample count from its header: WAV (data chunk size / block align) and FLAC (STREAMINFO total
 * samples) carry it; a compressed stream's decoded length depends on its decoder's priming and padding, so it is
 * unknown rather than estimated from the duration.
 */
async function lengthOfFile(file: string): Promise<AudioLength | null> {
  try {
    const f = (await parseMetadata(file)).format
    if (!f.sampleRate) return null
    if (f.container === 'WAVE' && f.numberOfSamples) return { samples: f.numberOfSamples, sampleRate: f.sampleRate }
    // music-metadata gives a FLAC's STREAMINFO total samples only as the duration total / rate: multiplied back,
    // it is the integer it was made from.
    if (f.container === 'FLAC' && f.duration) return { samples: Math.round(f.duration * f.sampleRate), sampleRate: f.sampleRate }
    return null
  } catch {
    return null
  }
}

/** The exact lengths of a row's audio files (inline clips are not measured: their cost shows as unknown). */
export async function rowAudioLengths(refs: FoundRef[], datasetFile: string, roots: string[]): Promise<AudioLengthOf> {
  const lengths = new Map<string, AudioLength | null>()
  const base = dirname(datasetFile)
  await Promise.all(
    refs
      .filter((r) => r.kind === 'audio')
      .map(async (r) => {
        const file = await fileOf(r, base, roots)
        lengths.set(r.value, file ? await lengthOfFile(file) : null)
      })
  )
  return byRef(lengths)
}

/** What the models' token rules need to know of a row's media: picture sizes and clip lengths, read only when a rule uses them. */
export async function rowMediaFacts(refs: FoundRef[], datasetFile: string, roots: string[], profiles: ModelProfile[]): Promise<Pick<RowMediaInfo, 'sizeOf' | 'audioOf'>> {
  if (!refs.length) return {}
  const images = profiles.some((p) => p.media?.image?.tokens)
  const audio = profiles.some((p) => p.media?.audio?.tokens && p.media.audio.tokens.rule !== 'fixed')
  const [sizeOf, audioOf] = await Promise.all([images ? rowImageSizes(refs, datasetFile, roots) : undefined, audio ? rowAudioLengths(refs, datasetFile, roots) : undefined])
  return { ...(sizeOf ? { sizeOf } : {}), ...(audioOf ? { audioOf } : {}) }
}

/** The URL the renderer loads a part's medium from: the row's own media entry for the same reference. */
export function refUrlOf(refs: FoundRef[], media: MediaRef[]): (ref: string) => string | undefined {
  const byValue = new Map<string, string>()
  refs.forEach((r, i) => {
    const u = media[i]?.url
    if (u) byValue.set(r.value, u)
  })
  return (ref) => byValue.get(ref) ?? byValue.get(ref.startsWith('file://') ? ref.slice('file://'.length) : ref)
}
