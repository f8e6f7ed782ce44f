// Batches built on several threads written straight into one file, in batch order, without their bytes passing
// through the main thread (a 950 MB base64 export moved ~950 MB of buffers to it, whose garbage collection and
// writes made the rate swing between 120 and 220 MB/s). The writer's state is one SharedArrayBuffer: whose turn
// it is and where the file ends. Batch k waits for its turn, writes what it has at the end, keeps the turn while it
// streams the rest, and passes it on with the new end. The file is the AtomicWriter's temp file, written through its
// descriptor (threads of one process share descriptors) at explicit positions.
//
// No deadlock: the pool hands out batches in order, one task per thread, so batch k-1 is always running (or done)
// when batch k waits for it. A batch that fails or is cancelled stops the writer: every waiting batch gives up.
import { write } from 'node:fs'

/** The state of one ordered output, shared by the main thread and the workers. */
export interface OrderedOutput {
  fd: number
  state: SharedArrayBuffer
}

// Int32 cells: the batch whose turn it is (STOPPED once stopped) and whether any record has been written.
const TURN = 0
const WROTE = 1
const STOPPED = -1
// A Float64 after them: where the file ends (exact for any file under 8 PB).
const END_AT = 8

export function orderedOutput(fd: number, start: number): OrderedOutput {
  const state = new SharedArrayBuffer(16)
  new Float64Array(state, END_AT, 1)[0] = start
  return { fd, state }
}

/** Makes every batch waiting for its turn give up (cancel, a failed batch). */
export function stopOutput(o: OrderedOutput): void {
  const cells = new Int32Array(o.state, 0, 2)
  Atomics.store(cells, TURN, STOPPED)
  Atomics.notify(cells, TURN)
}

/** Where the file ends once every batch has passed its turn. */
export function outputEnd(o: OrderedOutput): number {
  return new Float64Array(o.state, END_AT, 1)[0]
}

export class OutputStopped extends Error {
  constructor() {
    super('the ordered output was stopped')
  }
}

/** One batch's view of the output: write() waits for the batch's turn and appends; finish() passes the turn on. */
export class BatchOutput {
  private readonly cells: Int32Array
  private readonly end: Float64Array
  private at = -1

  /**
   * `dropFirstByte`: the batch's first byte is left out when no batch before it wrote any (a JSON array element's
   * leading comma).
   */
  constructor(
    private readonly o: OrderedOutput,
    private readonly batch: number,
    private readonly dropFirstByte = false
  ) {
    this.cells = new Int32Array(o.state, 0, 2)
    this.end = new Float64Array(o.state, END_AT, 1)
  }

  get hasTurn(): boolean {
    return this.at >= 0
  }

  /** Appends bytes at the end of the file (waiting for this batch's turn first); the bytes may be reused afterwards. */
  async write(bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength === 0) return
    if (this.at < 0) {
      await this.waitTurn()
      if (this.dropFirstByte && Atomics.load(this.cells, WROTE) === 0) bytes = bytes.subarray(1)
    }
    Atomics.store(this.cells, WROTE, 1)
    let done = 0
    while (done < bytes.byteLength) {
      const n = await new Promise<number>((res, rej) => write(this.o.fd, bytes, done, bytes.byteLength - done, this.at + done, (e, w) => (e ? rej(e) : res(w))))
      done += n
    }
    this.at += done
  }

  /** Passes the turn to the next batch (after waiting for this one's, if it wrote nothing). */
  async finish(): Promise<void> {
    if (this.at < 0) await this.waitTurn()
    this.end[0] = this.at
    // Not ours to pass any more when the output was stopped meanwhile.
    if (Atomics.compareExchange(this.cells, TURN, this.batch, this.batch + 1) !== this.batch) throw new OutputStopped()
    Atomics.notify(this.cells, TURN)
  }

  private async waitTurn(): Promise<void> {
    for (;;) {
      const turn = Atomics.load(this.cells, TURN)
      if (turn === this.batch) break
      if (turn === STOPPED) throw new OutputStopped()
      const w = Atomics.waitAsync(this.cells, TURN, turn)
      if (w.async) await w.value
    }
    this.at = this.end[0]
  }
}
