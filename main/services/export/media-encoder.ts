// How an export gives each media asset (the user's choice: as it is, file:// URL, path, data: URL or base64,
// optionally re-encoded) and the encoder that applies it. Encoding runs on the dataset worker threads (task
// 'encode-media': read, sharp, base64) and comes back as bytes moved, not copied, so the main thread only writes
// them; a window of lines in flight bounds memory (see serialize.ts).
import type { MediaEncoding } from '../../../shared/api/types'
import type { MediaType } from '../datasets/types'
import type { AssetForm, PayloadResult, ReencodeOptions } from '../media/encode'
import { runTask } from '../workers/pool'
import { loadSharp } from '../media/sharp'
import type { MediaDir } from './media-dir'

export type { MediaEncoding }

export const MEDIA_FORMS = ['keep', 'url', 'path', 'data-url', 'base64'] as const

/** The encode form behind a user-facing choice ('keep' has none: references are written as they are). */
export function assetForm(form: MediaEncoding['form']): AssetForm | null {
  return form === 'keep' ? null : form === 'url' ? 'file-url' : form
}

export function reencodeOf(e: MediaEncoding): ReencodeOptions | undefined {
  return e.maxSide || e.format ? { maxSide: e.maxSide, format: e.format, quality: e.quality } : undefined
}

/** Checks a choice; the message says what to change. */
export function checkMediaEncoding(e: MediaEncoding): string | null {
  if (e.form === 'keep' && (e.maxSide || e.format || e.quality)) return 're-encoding (max side, format, quality) needs a media form: url, path, data-url or base64'
  if (e.quality !== undefined && (!Number.isInteger(e.quality) || e.quality < 1 || e.quality > 100)) return 'quality must be an integer from 1 to 100'
  if (e.maxSide !== undefined && (!Number.isInteger(e.maxSide) || e.maxSide < 1 || e.maxSide > 65535)) return 'max side must be a positive integer (pixels)'
  return null
}

export class MediaEncoder {
  readonly form: AssetForm | null
  private readonly reencode: ReencodeOptions | undefined
  constructor(
    readonly encoding: MediaEncoding,
    private readonly o: {
      /** Folders assets may be read from; relative references resolve against each in turn (dataset folder first). */
      roots: string[]
      /** Where inline or re-encoded assets go when the form is a path or URL. */
      mediaDir?: MediaDir
      signal?: AbortSignal
    }
  ) {
    this.form = assetForm(encoding.form)
    this.reencode = reencodeOf(encoding)
  }

  /** Moves assets written as files into place with the export. */
  async commit(): Promise<void> {
    await this.o.mediaDir?.commit()
  }

  /** Removes assets written for an export that is cancelled or failed. */
  async abort(): Promise<void> {
    await this.o.mediaDir?.abort()
  }

  get active(): boolean {
    return this.form !== null
  }

  /** One asset in the chosen form; `raw` gives its (re-encoded) bytes instead, as Parquet Image columns hold them. */
  encode(source: string | Uint8Array, opts: { raw?: boolean; media?: Exclude<MediaType, 'unknown'>; form?: AssetForm; name?: string | null } = {}): Promise<PayloadResult> {
    const form = opts.raw ? 'raw' : (opts.form ?? this.form)
    if (!form) return Promise.resolve({ ok: false, code: 'invalid', message: 'no media form chosen' })
    // sharp must be loaded on the main thread before any worker loads it (its shared libraries stay loaded); only
    // an export that encodes media pays for loading it.
    loadSharp()
    // Typed arrays are moved to the worker: give it a copy, the row keeps its bytes.
    const src = typeof source === 'string' ? source : source.slice()
    return runTask('encode-media', { source: src, form, roots: this.o.roots, media: opts.media, reencode: this.reencode, mediaDir: this.o.mediaDir?.temp, mediaDirFinal: this.o.mediaDir?.final, name: opts.name ?? null }, { signal: this.o.signal })
  }
}
