// The `media.probe` and `media.peaks` API calls: facts about a row's media (dimensions, bytes, format, duration)
// for the zoom view, and waveform peaks for the audio player. Files are read only when they resolve (realpath,
// so no symlink escapes) under the opened roots; inline media only by an id the inline store already holds.
import { sharp } from '../media/sharp'
import type { MediaInfo, MediaPeaks, MediaResult, MediaSource } from '../../../shared/api/types'
import { inlineMedia, probeMedia, resolveUnderRoots } from '../media'
import { runTask } from '../workers/pool'

async function underRoots(roots: string[], requested: string): Promise<MediaResult<string>> {
  const c = await resolveUnderRoots(roots, requested)
  if (c.ok) return { ok: true, value: c.path }
  return { ok: false, code: c.code, message: c.reason }
}

export async function probeMediaSource(roots: string[], src: MediaSource): Promise<MediaResult<MediaInfo>> {
  if ('inline' in src) {
    const e = inlineMedia.get(src.inline)
    if (!e) return { ok: false, code: 'missing', message: 'This inline media is no longer held; show the row again' }
    const base: MediaInfo = { mime: e.mime, media: e.media, bytes: e.bytes.length }
    if (e.media !== 'image') return { ok: true, value: base }
    try {
      const m = await sharp(e.bytes).metadata()
      return { ok: true, value: { ...base, width: m.width ?? null, height: m.height ?? null, codec: m.format ?? null } }
    } catch (err) {
      return { ok: false, code: 'corrupt', message: `Cannot read ${e.mime}: ${(err as Error).message}` }
    }
  }
  const file = await underRoots(roots, src.path)
  if (!file.ok) return file
  const r = await probeMedia(file.value)
  if (!r.ok) return r
  const { poster: _poster, ...info } = r.value
  return { ok: true, value: info }
}

export async function peaksOf(roots: string[], path: string, n: number): Promise<MediaResult<MediaPeaks>> {
  const file = await underRoots(roots, path)
  if (!file.ok) return file
  const r = await runTask('audio-peaks', { file: file.value, n })
  if (!r.ok) return r
  // Three decimals are plenty for a few hundred pixels, and keep the JSON small.
  return { ok: true, value: { peaks: Array.from(r.value.peaks, (v) => Math.round(v * 1000) / 1000), durationSec: r.value.durationSec } }
}

/** The API's media calls over the open project's roots (they change when another project opens). */
export class MediaService {
  constructor(private roots: () => string[]) {}

  /** Dimensions, bytes and format of a row's media (a file under the opened roots, or an inline id). */
  probe(src: MediaSource): Promise<MediaResult<MediaInfo>> {
    return probeMediaSource(this.roots(), src)
  }

  /** Waveform peaks of an audio file under the opened roots. */
  peaks(q: { path: string; n: number }): Promise<MediaResult<MediaPeaks>> {
    return peaksOf(this.roots(), q.path, q.n)
  }
}
