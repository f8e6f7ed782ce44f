// Read buffers reused across tasks on one thread. Allocating a fresh multi-MiB Buffer per task lets glibc's
// malloc raise its mmap threshold and keep the freed blocks in a per-thread arena, so RSS ratchets up with every
// file opened; a few reused buffers keep it flat. Tasks on the same thread may interleave (in-process mode),
// so buffers are lent and returned, never shared.
const free: Buffer[] = []
const MAX_KEPT = 4
// Batch-sized buffers are kept (a 2 MiB batch read, the 4 MiB an export batch writes at a time); one grown for a
// giant row goes back to the garbage collector.
const MAX_POOLED = 4 << 20

/**
 * A buffer of at least `size` bytes; give it back with `release` when the task is done with it. The smallest kept
 * one that fits, so a 2 MiB read does not take the 4 MiB buffer the next export batch needs; a new one is a power
 * of two, so requests that vary by a few bytes (each batch's size) find it again instead of allocating (and
 * faulting in) fresh memory every time. One too big to keep is its exact size.
 */
export function borrow(size: number): Buffer {
  let best = -1
  for (let i = 0; i < free.length; i++) if (free[i].length >= size && (best < 0 || free[i].length < free[best].length)) best = i
  if (best >= 0) return free.splice(best, 1)[0]
  return Buffer.allocUnsafeSlow(size <= 4096 || size > MAX_POOLED ? size : 2 ** Math.ceil(Math.log2(size)))
}

/** Keeps the buffer for the next task unless it is oversized; a full pool keeps its larger buffers. */
export function release(buf: Buffer): void {
  if (buf.length > MAX_POOLED || free.includes(buf)) return
  if (free.length < MAX_KEPT) free.push(buf)
  else {
    let smallest = 0
    for (let i = 1; i < free.length; i++) if (free[i].length < free[smallest].length) smallest = i
    if (free[smallest].length < buf.length) free[smallest] = buf
  }
}
