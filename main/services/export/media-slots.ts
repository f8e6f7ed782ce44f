// Media in a streamed export without big strings: while a record is built, each asset is replaced by a short
// token and its encoding starts (on a worker); when the record is serialized, the text is cut at the tokens and
// the encoded bytes go between the pieces. A base64 image is never part of a JSON.stringify or a JS string on the
// main thread, and memory is bounded by the records in flight, not by the dataset.
import type { MediaType } from '../datasets/types'
import type { AssetForm, PayloadResult } from '../media/encode'
import type { MediaEncoder } from './media-encoder'

type Settled = { ok: true; payload: Uint8Array | string; text: boolean } | { ok: false; fallback: string; message: string }

export type Part = string | Uint8Array

export class MediaSlots {
  private readonly nonce: string
  private pending: Promise<Settled>[] = []
  private settled: Settled[] = []
  /** Assets of the current record: each result as it came back (for columns that need its mime, name or size). */
  results: PayloadResult[] = []

  constructor(private readonly encoder: MediaEncoder) {
    this.nonce = encoder.nonce
  }

  /** Starts encoding one asset and returns the token that stands for it in the record. */
  put(source: string | Uint8Array, opts: { media?: Exclude<MediaType, 'unknown'>; raw?: boolean; form?: AssetForm; name?: string | null } = {}): string {
    const k = this.pending.length
    const form = opts.form ?? this.encoder.form
    const text = form === 'path' || form === 'file-url'
    this.pending.push(
      this.encoder.encode(source, opts).then(
        (r): Settled => {
          this.results[k] = r
          return r.ok ? { ok: true, payload: r.payload, text: text && !opts.raw } : { ok: false, fallback: typeof source === 'string' ? source : '', message: r.message }
        },
        (e: unknown): Settled => ({ ok: false, fallback: typeof source === 'string' ? source : '', message: e instanceof Error ? e.message : String(e) })
      )
    )
    return `\u0000${this.nonce}:${k}\u0000`
  }

  get size(): number {
    return this.pending.length
  }

  /** Waits for the record's assets; returns the messages of those that could not be encoded (kept as they were). */
  async settle(): Promise<string[]> {
    this.settled = await Promise.all(this.pending)
    return this.settled.filter((s): s is Extract<Settled, { ok: false }> => !s.ok).map((s) => s.message)
  }

  /**
   * The serialized record cut at its tokens, encoded assets in between. `json`: the text is JSON (tokens appear
   * escaped, text payloads are JSON-escaped); otherwise `escape` escapes text payloads for the format (TSV quoting).
   */
  splice(serialized: string, json: boolean, escape: (s: string) => string = (s) => s): Part[] {
    if (this.pending.length === 0) return [serialized]
    const nul = json ? '\\\\u0000' : '\\u0000'
    const re = new RegExp(`${nul}${this.nonce}:(\\d+)${nul}`, 'g')
    const esc = json ? (s: string) => JSON.stringify(s).slice(1, -1) : escape
    const out: Part[] = []
    let last = 0
    for (let m = re.exec(serialized); m; m = re.exec(serialized)) {
      if (m.index > last) out.push(serialized.slice(last, m.index))
      const s = this.settled[Number(m[1])]
      if (!s) out.push('')
      else if (!s.ok) out.push(esc(s.fallback))
      else if (s.text) out.push(esc(typeof s.payload === 'string' ? s.payload : Buffer.from(s.payload.buffer, s.payload.byteOffset, s.payload.byteLength).toString('utf8')))
      else out.push(s.payload)
      last = m.index + m[0].length
    }
    if (last < serialized.length) out.push(serialized.slice(last))
    return out
  }

  /** A settled asset's bytes (raw columns, e.g. Parquet Image bytes); null when it failed. */
  payload(token: string): Uint8Array | null {
    const m = /:(\d+)\u0000$/.exec(token)
    const s = m ? this.settled[Number(m[1])] : undefined
    if (!s?.ok) return null
    return typeof s.payload === 'string' ? Buffer.from(s.payload, 'latin1') : s.payload
  }
}
