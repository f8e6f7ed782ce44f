// `promptloom render` on several cores: blocks of rows are rendered (read, build, format, JSON, UTF-8) by the main
// thread and by worker threads, and the main thread writes the blocks' bytes in row order, so the output is byte for
// byte the one-thread output. Each worker opens the project itself (config, dataset, models) exactly as the main
// thread did; meanwhile the main thread, whose project is already open, renders the first blocks. Blocks are handed
// out as threads finish, with at most WINDOW blocks rendered ahead of the one being written (bounded memory).
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { ExportOptions } from '../services/workspace/export'
import type { ProjectSpec } from '../services/workspace/project-spec'
import type { RenderedBlock } from './render-block'

/** Rows per block: big enough that a block's messages cost nothing, small enough to keep both cores busy. */
export const BLOCK_ROWS = 2000
/** Below this many rows one thread is faster: a worker's start (modules, config, dataset) costs a few 100 ms. */
export const PARALLEL_MIN_ROWS = 20_000
/** More threads than this add start-up (each opens the project) for little: writing becomes the bound. */
const MAX_THREADS = 4

let workerFile: string | null = null

/** Where the bundled render worker is (the CLI sets this; without it render runs on one thread). */
export function configureRenderWorker(file: string | null): void {
  workerFile = file && existsSync(file) ? file : null
}

/**
 * How many threads render `rows` rows, the main thread included: one for small jobs (a worker's start costs more
 * than it renders) or without the bundled worker, else one per core (at most MAX_THREADS, at most one per block).
 * Decided by the work and the cores, not by the load average: on a busy machine the scheduler shares the cores per
 * thread, so a second thread still shortens the job. PROMPTLOOM_RENDER_THREADS=N forces N (1: one thread).
 */
export function renderThreads(rows: number): number {
  const forced = Math.floor(Number(process.env.PROMPTLOOM_RENDER_THREADS))
  if (!workerFile || forced === 1 || rows < PARALLEL_MIN_ROWS) return 1
  const want = forced > 1 ? forced : Math.min(availableParallelism(), MAX_THREADS)
  return Math.max(1, Math.min(want, Math.ceil(rows / BLOCK_ROWS)))
}

export interface RenderJob {
  spec: ProjectSpec
  options: ExportOptions
}

/** What a worker sends back. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'block'; id: number; chunks: { buf: ArrayBuffer; off: number; len: number }[]; lines: number; failed: number }
  | { type: 'error'; message: string }

/**
 * The encoded output of rows [start, end) in order, rendered by `threads` threads: this one (`renderHere`, over the
 * project it has open) and threads - 1 workers. `onBlock` gets each block's line and failed-line counts.
 */
export async function* renderInParallel(
  job: RenderJob,
  range: { start: number; end: number },
  threads: number,
  renderHere: (rows: { start: number; end: number }) => Promise<RenderedBlock>,
  onBlock: (lines: number, failed: number) => void
): AsyncGenerator<Buffer> {
  if (!workerFile) throw new Error('no render worker')
  const blocks: { start: number; end: number }[] = []
  for (let s = range.start; s < range.end; s += BLOCK_ROWS) blocks.push({ start: s, end: Math.min(s + BLOCK_ROWS, range.end) })
  const window = threads * 3
  const done = new Map<number, Buffer[]>()
  let nextAssign = 0
  let nextWrite = 0
  let failure: Error | null = null
  let wake: (() => void) | null = null
  const notify = () => {
    const w = wake
    wake = null
    w?.()
  }
  const canAssign = () => nextAssign < blocks.length && nextAssign - nextWrite < window
  const idle: Worker[] = []
  const assign = () => {
    while (idle.length && canAssign()) {
      const id = nextAssign++
      idle.pop()!.postMessage({ type: 'block', id, ...blocks[id] })
    }
  }
  const pool = Array.from({ length: threads - 1 }, () => new Worker(workerFile!, { workerData: job }))
  for (const w of pool) {
    w.on('message', (m: WorkerReply) => {
      if (m.type === 'error') failure ??= new Error(m.message)
      else if (m.type === 'block') {
        done.set(
          m.id,
          m.chunks.map((c) => Buffer.from(c.buf, c.off, c.len))
        )
        onBlock(m.lines, m.failed)
      }
      if (m.type !== 'error') idle.push(w)
      assign()
      notify()
    })
    w.on('error', (e) => {
      failure ??= e
      notify()
    })
    w.on('exit', (code) => {
      if (code !== 0 && nextWrite < blocks.length) failure ??= new Error(`a render worker stopped (exit code ${code})`)
      notify()
    })
  }
  try {
    while (nextWrite < blocks.length) {
      if (failure) throw failure
      const ready = done.get(nextWrite)
      if (ready) {
        done.delete(nextWrite++)
        assign()
        yield* ready
      } else if (canAssign()) {
        // Nothing to write yet: this thread renders the next block itself (workers' messages are handled meanwhile).
        const id = nextAssign++
        const b = await renderHere(blocks[id])
        done.set(id, b.chunks)
        onBlock(b.lines, b.failed)
      } else await new Promise<void>((r) => (wake = r))
    }
  } finally {
    await Promise.all(pool.map((w) => w.terminate()))
  }
}
