// Record parts (text and encoded media bytes) gathered into one buffer: each part is copied once, as UTF-8 or as
// it is, and no string is ever joined with a 95 KB picture. The working buffer is borrowed from the thread's
// scratch buffers (a batch's worth is reused, not reallocated per batch) and written out from where it is
// (view(), then clear() to fill it again).
import { borrow, release } from '../datasets/scratch-buffers'

export class PartBuffer {
  private buf: Buffer
  private at = 0

  /** `size`: the bytes expected, so the buffer is not grown (copied) on the way. */
  constructor(size = 1 << 20) {
    this.buf = borrow(size)
  }

  get length(): number {
    return this.at
  }

  add(part: string | Uint8Array): void {
    if (typeof part === 'string') {
      // UTF-8 takes at most 3 bytes per UTF-16 unit; the exact count only when that bound does not fit (a 95 KB
      // base64 string near the end of the buffer would otherwise grow it for nothing).
      this.reserve(this.buf.length - this.at >= part.length * 3 ? 0 : Buffer.byteLength(part, 'utf8'))
      this.at += this.buf.write(part, this.at, 'utf8')
    } else {
      this.reserve(part.byteLength)
      this.buf.set(part, this.at)
      this.at += part.byteLength
    }
  }

  /** The bytes added so far (the working buffer itself: valid until the next add, clear or release). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.at)
  }

  /** Empties the buffer, keeping its memory. */
  clear(): void {
    this.at = 0
  }

  /** Gives the working buffer back; the PartBuffer must not be used afterwards. */
  release(): void {
    release(this.buf)
    this.at = 0
  }

  private reserve(n: number): void {
    if (this.buf.length - this.at >= n) return
    const next = borrow(Math.max(this.buf.length * 2, this.at + n))
    this.buf.copy(next, 0, 0, this.at)
    release(this.buf)
    this.buf = next
  }
}
