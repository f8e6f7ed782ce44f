// The real size of each picture a row references, for the media token rules (shared/models/media-tokens.ts): files
// are read where they resolve under the opened roots (sharp reads the header only); inline PNG and JPEG sizes come
// from their first bytes (media/image-size.ts), other inline data is decoded for sharp. A
// model part names its picture as the row writes it, or with upstream's `file://` prefix (mm_custom_gen.py).
import { dirname, isAbsolute, resolve } from 'node:path'
import { imageSizeFromHeader } from '../media/image-size'
import { sharp } from '../media/sharp'
import { resolveUnderRoots } from '../media/roots'
import type { MediaRef } from '../../../shared/api/types'
import type { FoundRef } from './row-media'
import type { MediaSizeOf } from './render-row'

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

/** The picture sizes of a row's image references, looked up by the reference a content part carries. */
export async function rowImageSizes(refs: FoundRef[], datasetFile: string, roots: string[]): Promise<MediaSizeOf> {
  const sizes = new Map<string, Size | null>()
  const base = dirname(datasetFile)
  await Promise.all(
    refs
      .filter((r) => r.kind === 'image')
      .map(async (r) => {
        if (r.refKind === 'http') return
        if (r.refKind === 'data-url' || r.refKind === 'base64') {
          sizes.set(r.value, await sizeOfInline(r.value))
          return
        }
        const p = r.refKind === 'relative' && !isAbsolute(r.value) ? resolve(base, r.value) : r.value
        const c = await resolveUnderRoots(roots, p)
        sizes.set(r.value, c.ok ? await sizeOfFile(c.path) : null)
      })
  )
  return (ref) => {
    if (sizes.has(ref)) return sizes.get(ref)!
    const bare = ref.startsWith('file://') ? ref.slice('file://'.length) : ref
    return sizes.get(bare) ?? null
  }
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
