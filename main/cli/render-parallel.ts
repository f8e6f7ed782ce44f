// `promptloom render` on several cores: worker threads render blocks of rows (read, build, format, JSON, UTF-8)
// and the main thread writes the blocks' bytes in row order, so the output is byte for byte the one-thread output.
// Each worker opens the project itself (config, dataset, models) exactly as the main thread did; blocks are handed
// out as workers finish, with at most WINDOW blocks rendered ahead of the one being written (bounded memory).
import { existsSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { ExportOptions } from '../services/workspace/export'
import type { ProjectSpec } from '../services/workspace/project-spec'

/** Rows per block: big enough that a block's messages cost nothing, small enough to keep both cores busy. */
export const BLOCK_ROWS = 2000
/** Below this many rows one thread is faster: a worker's start (modules, config, dataset) costs a few 100 ms. */
export const PARALLEL_MIN_ROWS = 20_000

let workerFile: string | null = null

/** Where the bundled render worker is (the CLI sets this; without it render runs on one thread). */
export function configureRenderWorker(file: string | null): void {
  workerFile = file && existsSync(file) ? file : null
}

/**
 * How many render threads to use for `rows` rows: 0 (render on the main thread) for small jobs, without the bundled
 * worker, or when the machine has no spare core — other processes already keep every core busy (1-minute load
 * average ≥ cores - 1), and extra threads would only add their start-up and contention (measured: on 2 cores under a
 * load of 10, 2 threads took 1.3 s more CPU and longer wall time than 1). PROMPTLOOM_RENDER_THREADS=N forces N
 * (1: one thread).
 */
export function renderWorkers(rows: number): number {
  const forced = Number(process.env.PROMPTLOOM_RENDER_THREADS)
  if (!workerFile || forced === 1 || rows < PARALLEL_MIN_ROWS) return 0
  const cores = availableParallelism()
  const want = forced > 1 ? forced : cores - loadavg()[0] >= 1 ? Math.min(cores, 4) : 0
  return want > 1 ? Math.min(want, Math.ceil(rows / BLOCK_ROWS)) : 0
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
 * The encoded output of rows [start, end) in order, rendered by `workers` threads. `onBlock` gets each block's
 * line and failed-line counts.
 */
export async function* renderInParallel(job: RenderJob, range: { start: number; end: number }, workers: number, onBlock: (lines: number, failed: number) => void): AsyncGenerator<Buffer> {
  if (!workerFile) throw new Error('no render worker')
  const blocks: { start: number; end: number }[] = []
  for (let s = range.start; s < range.end; s += BLOCK_ROWS) blocks.push({ start: s, end: Math.min(s + BLOCK_ROWS, range.end) })
  const window = workers * 3
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
  const idle: Worker[] = []
  const assign = () => {
    while (idle.length && nextAssign < blocks.length && nextAssign - nextWrite < window) {
      const id = nextAssign++
      idle.pop()!.postMessage({ type: 'block', id, ...blocks[id] })
    }
  }
  const pool = Array.from({ length: workers }, () => new Worker(workerFile!, { workerData: job }))
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
      if (!ready) {
        await new Promise<void>((r) => (wake = r))
        continue
      }
      done.delete(nextWrite++)
      assign()
      yield* ready
    }
  } finally {
    await Promise.all(pool.map((w) => w.terminate()))
  }
}
