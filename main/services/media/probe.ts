// probeMedia: what a file is (by its bytes) and the facts the UI shows beside it — image size, audio duration,
// rate and channels, video duration and size.
import { stat } from 'node:fs/promises'
import { sharp } from './sharp'
import { sniffFile } from './sniff'
import { audioInfo } from './audio'
import { probeMatroska, probeMp4 } from './video-probe'
import type { MediaInfo } from '../../../shared/api/types'

/** The facts the zoom view and audio player show (the API's MediaInfo), plus the poster frame slot. */
export interface MediaProbe extends MediaInfo {
  /** Why there is no poster frame for a video (none can be made offline without a decoder). */
  poster?: null
}

export type ProbeResult = { ok: true; value: MediaProbe } | { ok: false; code: 'missing' | 'unsupported' | 'corrupt'; message: string }

export async function probeMedia(file: string): Promise<ProbeResult> {
  let bytes: number
  try {
    bytes = (await stat(file)).size
  } catch {
    return { ok: false, code: 'missing', message: 'File not found' }
  }
  const s = await sniffFile(file)
  if (!s) return { ok: false, code: 'unsupported', message: 'Not a recognised image, audio or video file' }
  const base = { mime: s.mime, media: s.media, bytes }
  try {
    if (s.media === 'image') {
      const m = await sharp(file).metadata()
      return { ok: true, value: { ...base, width: m.width ?? null, height: m.height ?? null, codec: m.format ?? null } }
    }
    if (s.media === 'audio') {
      const a = await audioInfo(file, s.mime)
      if (!a.ok) return a
      return { ok: true, value: { ...base, ...a.value } }
    }
    const v = s.ext === 'mp4' || s.ext === 'mov' ? await probeMp4(file) : await probeMatroska(file, s.mime)
    return { ok: true, value: { ...base, durationSec: v.durationSec, width: v.width, height: v.height, codec: v.container, poster: null } }
  } catch (err) {
    return { ok: false, code: 'corrupt', message: `Cannot read ${s.mime}: ${(err as Error).message}` }
  }
}
