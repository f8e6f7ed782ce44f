// Which rows have media that cannot be shown: a file that is missing, refused (outside the opened roots, or a
// traversal trick) or unreadable (there, but not an image, audio or video file). One pass over the split after it
// opens, resolving each distinct path once, so the row list can say how many rows are affected and the warning
// filter can find them. Remote URLs are not fetched (the app is offline) and are not problems here.
import { dirname, isAbsolute, resolve } from 'node:path'
import { resolveUnderRoots } from '../media/roots'
import { sniffFile } from '../media/sniff'
import { findMediaRefs } from './row-media'

export const MEDIA_WARNINGS = ['media-missing', 'media-refused', 'media-unreadable'] as const
export type MediaWarning = (typeof MEDIA_WARNINGS)[number]

export interface MediaCheck {
  /** Row index → the media problems it has (rows without problems are absent). */
  rows: Map<number, MediaWarning[]>
  counts: Record<MediaWarning, number>
  /** Whether the pass saw every row (false when it was cancelled). */
  complete: boolean
}

const CHUNK = 2000

export async function checkSplitMedia(a: {
  total: number
  readRows: (start: number, count: number) => Promise<{ index: number; value: Record<string, unknown>; at: { file?: string } }[]>
  datasetFile: string
  /** Where relative references resolve when not beside the row's file (a loader's media folder). */
  mediaBase?: string | null
  roots: string[]
  signal?: AbortSignal
  onProgress?: (done: number, total: number) => void
}): Promise<MediaCheck> {
  const out: MediaCheck = { rows: new Map(), counts: { 'media-missing': 0, 'media-refused': 0, 'media-unreadable': 0 }, complete: false }
  const seen = new Map<string, Promise<MediaWarning | null>>()
  const check = (path: string): Promise<MediaWarning | null> => {
    let p = seen.get(path)
    if (!p) {
      p = (async () => {
        const c = await resolveUnderRoots(a.roots, path)
        if (!c.ok) return c.code === 'missing' ? 'media-missing' : 'media-refused'
        return (await sniffFile(c.path).catch(() => null)) ? null : 'media-unreadable'
      })()
      seen.set(path, p)
    }
    return p
  }
  for (let start = 0; start < a.total; start += CHUNK) {
    if (a.signal?.aborted) return out
    for (const r of await a.readRows(start, Math.min(CHUNK, a.total - start))) {
      const base = a.mediaBase ?? dirname(r.at.file ?? a.datasetFile)
      const found = new Set<MediaWarning>()
      for (const ref of findMediaRefs(r.value)) {
        if (ref.refKind !== 'relative' && ref.refKind !== 'absolute' && ref.refKind !== 'file-url') continue
        const path = ref.refKind === 'relative' && !isAbsolute(ref.value) ? resolve(base, ref.value) : ref.value
        const w = await check(path)
        if (w) found.add(w)
      }
      if (!found.size) continue
      const list = [...found]
      out.rows.set(r.index, list)
      for (const w of list) out.counts[w]++
    }
    a.onProgress?.(Math.min(start + CHUNK, a.total), a.total)
  }
  out.complete = true
  return out
}
