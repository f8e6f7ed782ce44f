// Lint's media check: every media reference of a row resolved as the matrix resolves it (under the opened roots),
// then its first bytes sniffed and its size compared with what model APIs accept. Files are checked once per run
// (rows often share a picture); inline base64 is decoded only far enough to sniff it and size it.
import { stat } from 'node:fs/promises'
import { dirname, isAbsolute, resolve } from 'node:path'
import { resolveUnderRoots } from '../media/roots'
import { sniffBytes, sniffFile } from '../media/sniff'
import type { FoundRef } from '../workspace/row-media'

/** Largest sizes commonly accepted by model APIs (OpenAI: 20 MB images, 25 MB audio); video is a round guess. */
export const MEDIA_LIMITS = { image: 20 * 1024 * 1024, audio: 25 * 1024 * 1024, video: 100 * 1024 * 1024, unknown: 100 * 1024 * 1024 }

export interface MediaFinding {
  kind: 'media-missing' | 'media-refused' | 'media-unreadable' | 'media-oversized'
  field: string
  message: string
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`

export class MediaChecker {
  private files = new Map<string, Promise<Omit<MediaFinding, 'field'> | null>>()

  /** `mediaBase`: the project's media folder, which relative paths resolve against instead of the row's file's folder. */
  constructor(
    private roots: string[],
    private mediaBase: string | null = null
  ) {}

  async check(refs: FoundRef[], rowFile: string): Promise<MediaFinding[]> {
    const out: MediaFinding[] = []
    for (const r of refs) {
      const f = await this.one(r, rowFile)
      if (f) out.push({ ...f, field: r.field })
    }
    return out
  }

  private one(r: FoundRef, rowFile: string): Promise<Omit<MediaFinding, 'field'> | null> | Omit<MediaFinding, 'field'> | null {
    if (r.refKind === 'http') return { kind: 'media-refused', message: `remote URL ${r.value.slice(0, 80)}: not fetched (offline), the model's harness must reach it` }
    if (r.refKind === 'data-url' || r.refKind === 'base64') return inlineFinding(r)
    const p = r.refKind === 'relative' && !isAbsolute(r.value) ? resolve(this.mediaBase ?? dirname(rowFile), r.value) : r.value
    let hit = this.files.get(p)
    if (!hit) {
      hit = this.file(p, r)
      this.files.set(p, hit)
    }
    return hit
  }

  private async file(p: string, r: FoundRef): Promise<Omit<MediaFinding, 'field'> | null> {
    const c = await resolveUnderRoots(this.roots, p)
    if (!c.ok) return c.code === 'missing' ? { kind: 'media-missing', message: `missing file: ${r.value}` } : { kind: 'media-refused', message: `${r.value}: ${c.reason}` }
    try {
      const [s, sniffed] = await Promise.all([stat(c.path), sniffFile(c.path)])
      if (!sniffed) return { kind: 'media-unreadable', message: `${r.value}: not a known image, audio or video format (${s.size.toLocaleString()} bytes)` }
      const limit = MEDIA_LIMITS[sniffed.media] ?? MEDIA_LIMITS.unknown
      if (s.size > limit) return { kind: 'media-oversized', message: `${r.value}: ${mb(s.size)} ${sniffed.media}, over ${mb(limit)}` }
      return null
    } catch (e) {
      return { kind: 'media-unreadable', message: `${r.value}: ${(e as Error).message}` }
    }
  }
}

function inlineFinding(r: FoundRef): Omit<MediaFinding, 'field'> | null {
  const comma = r.refKind === 'data-url' ? r.value.indexOf(',') : -1
  const body = r.value.slice(comma + 1).replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(body)) return { kind: 'media-unreadable', message: `inline ${r.kind} in ${r.field}: not valid base64` }
  const bytes = Math.floor((body.length * 3) / 4) - (body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0)
  const head = Buffer.from(body.slice(0, 344), 'base64')
  const sniffed = sniffBytes(head)
  if (!sniffed) return { kind: 'media-unreadable', message: `inline ${r.kind} in ${r.field}: not a known image, audio or video format` }
  const limit = MEDIA_LIMITS[sniffed.media] ?? MEDIA_LIMITS.unknown
  if (bytes > limit) return { kind: 'media-oversized', message: `inline ${sniffed.media} in ${r.field}: ${mb(bytes)}, over ${mb(limit)}` }
  return null
}
