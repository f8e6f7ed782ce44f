// Record parts (text and encoded media bytes) gathered into one buffer: each part is copied once, as UTF-8 or as
// it is, and no string is ever joined with a 95 KB picture. The working buffer is borrowed from the thread's
// scratch buffers (a batch's worth is reused, not reallocated per batch); bytes() copies out what was added into
// a buffer of its own size, which owns its memory and so can be moved to another thread.
import { borrow, release } from '../datasets/scratch-buffers'

export class PartBuffer {
  private buf: Buffer = borrow(1 << 20)
  private at = 0

  get length(): number {
    return this.at
  }

  add(part: string | Uint8Array): void {
    if (typeof part === 'string') {
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      this.reserve(part.length * 3)
      this.at += this.buf.write(part, this.at, 'utf8')
    } else {
      this.reserve(part.byteLength)
      this.buf.set(part, this.at)
      this.at += part.byteLength
    }
  }

  /** The bytes added so far, in a buffer of their own. */
  bytes(): Uint8Array {
    const out = Buffer.allocUnsafeSlow(this.at)
    this.buf.copy(out, 0, 0, this.at)
    return out
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
