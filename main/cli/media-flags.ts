// The media options every exporting command shares (render, export): how each asset is written and re-encoded.
import type { MediaEncoding } from '../../shared/api/types'
import { checkMediaEncoding, MEDIA_FORMS } from '../services/export/media-encoder'
import { UsageError } from './args'

export const MEDIA_FLAGS = {
  media: { type: 'string' },
  'media-max-side': { type: 'string' },
  'media-format': { type: 'string' },
  'media-quality': { type: 'string' }
} as const

export const MEDIA_HELP = `Media (images, audio, video in the output):
  --media keep|url|path|data-url|base64   how each asset is written (default keep: as the dataset gives it;
                                          url: file:// URL, path: absolute path, data-url / base64: inlined)
  --media-max-side N                      re-encode images whose longest side exceeds N pixels
  --media-format jpeg|png|webp            re-encode images to this format
  --media-quality Q                       1..100 for jpeg and webp (default 85)
Assets that must become files (inline or re-encoded, with --media path|url) are written to <out>_media/.`

const int = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a positive integer, got "${v}"`)
  return Number(v)
}

export function mediaFromFlags(flags: { media?: string; 'media-max-side'?: string; 'media-format'?: string; 'media-quality'?: string }): MediaEncoding {
  const form = (flags.media ?? 'keep') as MediaEncoding['form']
  if (!(MEDIA_FORMS as readonly string[]).includes(form)) throw new UsageError(`--media must be one of ${MEDIA_FORMS.join(', ')}`)
  const format = flags['media-format'] as MediaEncoding['format']
  if (format !== undefined && !['jpeg', 'png', 'webp'].includes(format)) throw new UsageError('--media-format must be jpeg, png or webp')
  const e: MediaEncoding = { form, maxSide: int('media-max-side', flags['media-max-side']), format, quality: int('media-quality', flags['media-quality']) }
  for (const k of ['maxSide', 'format', 'quality'] as const) if (e[k] === undefined) delete e[k]
  const problem = checkMediaEncoding(e)
  if (problem) throw new UsageError(`--media: ${problem}`)
  return e
}
