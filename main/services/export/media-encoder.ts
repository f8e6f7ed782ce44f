// How an export gives each media asset (the user's choice: as it is, file:// URL, path, data: URL or base64,
// optionally re-encoded) and the encoder that applies it. On the main thread encoding runs on the dataset worker
// threads (task 'encode-media': read, sharp, base64) and comes back as bytes moved, not copied, so the main thread
// only writes them; a window of lines in flight bounds memory. Inside a worker task that builds whole records
// ('export-rows') the encoder runs in that thread.
import { randomBytes } from 'node:crypto'
import type { MediaEncoding } from '../../../shared/api/types'
import type { MediaType } from '../datasets/types'
import type { AssetForm, PayloadResult, ReencodeOptions } from '../media/encode'
import { encodePayload } from '../media/encode'
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
  /** Marks the slot tokens of this encoder's records (MediaSlots): random, so dataset text cannot forge one. */
  readonly nonce = randomBytes(6).toString('hex')
  private readonly reencode: ReencodeOptions | undefined
  constructor(
    readonly encoding: MediaEncoding,
    private readonly o: {
      /** Folders assets may be read from; relative references resolve against each in turn (dataset folder first). */
      roots: string[]
      /** Where inline or re-encoded assets go when the form is a path or URL. */
      mediaDir?: MediaDir
      signal?: AbortSignal
      /** Encode in this thread (a worker task building records), not on the worker threads. */
      inThread?: boolean
    }
  ) {
    this.form = assetForm(encoding.form)
    this.reencode = reencodeOf(encoding)
  }

  /** What a worker needs to build an encoder that encodes as this one does (files go to the same media folder). */
  get roots(): string[] {
    return this.o.roots
  }

  get mediaDir(): { temp: string; final: string } | null {
    return this.o.mediaDir ? { temp: this.o.mediaDir.temp, final: this.o.mediaDir.final } : null
  }

  /**
   * Loads sharp on this (the main) thread when this encoder may hand a worker a picture to re-encode: libvips
   * must be loaded here before any worker loads it, and stay loaded when that worker exits.
   */
  prepareWorkers(): void {
    if (this.reencode) loadSharp()
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
    const form: AssetForm | 'raw' | null = opts.raw ? 'raw' : (opts.form ?? this.form)
    if (!form) return Promise.resolve({ ok: false, code: 'invalid', message: 'no media form chosen' })
    const req = { form, roots: this.o.roots, media: opts.media, reencode: this.reencode, mediaDir: this.o.mediaDir?.temp, mediaDirFinal: this.o.mediaDir?.final, name: opts.name ?? null }
    if (this.o.inThread) return encodePayload({ source, ...req })
    this.prepareWorkers()
    // Typed arrays are moved to the worker: give it a copy, the row keeps its bytes.
    return runTask('encode-media', { source: typeof source === 'string' ? source : source.slice(), ...req }, { signal: this.o.signal })
  }
}
