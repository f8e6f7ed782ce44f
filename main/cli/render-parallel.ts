// `promptloom render` on several cores: blocks of rows are rendered (read, build, format, JSON, UTF-8) by the main
// thread and by worker threads, and the main thread writes the blocks' bytes in row order, so the output is byte for
// byte the one-thread output. Each worker opens the project itself (config, dataset, models) exactly as the main
// thread did; meanwhile the main thread, whose project is already open, renders the first blocks. Blocks are handed
// out as threads finish, with at most WINDOW blocks rendered ahead of the one being written (bounded memory).
import { existsSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
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

/** What the main thread sends a worker: the project to open (once), then blocks of rows. */
export type WorkerRequest = { type: 'open'; job: RenderJob } | { type: 'block'; id: number; start: number; end: number }

/** What a worker sends back. */
export type WorkerReply =
  | { type: 'ready' }
  | {
      type: 'block'
      id: number
      chunks: { buf: ArrayBuffer; off: number; len: number }[]
      lines: number
      failed: number
    }
  | { type: 'error'; message: string }

/**
 * Render worker threads. They can be started before the job is known (startRenderWorkers), so that loading their
 * modules overlaps the main thread opening the project; `open` then has them open the same project, after the
 * main thread did (its dataset index and config are then cached: a worker never indexes a file itself).
 */
export class RenderWorkers {
  private workers: Worker[]
  private listener: ((w: Worker, m: WorkerReply) => void) | null = null
  private early: [Worker, WorkerReply][] = []
  /** The first failure (a worker's error, or one that stopped), kept until someone listens. */
  failure: Error | null = null
  private onFailure: (() => void) | null = null
  private finished = false
  /** Workers ended on purpose (not needed after all): their exit is no failure. */
  private ending = new Set<Worker>()

  constructor(count: number) {
    if (!workerFile) throw new Error('no render worker')
    this.workers = Array.from({ length: count }, () => new Worker(workerFile!))
    for (const w of this.workers) {
      w.on('message', (m: WorkerReply) => (this.listener ? this.listener(w, m) : this.early.push([w, m])))
      w.on('error', (e) => this.fail(e))
      w.on('exit', (code) => {
        if (code !== 0 && !this.finished && !this.ending.has(w))
          this.fail(new Error(`a render worker stopped (exit code ${code})`))
      })
    }
  }

  get count(): number {
    return this.workers.length
  }

  private fail(e: Error): void {
    this.failure ??= e
    this.onFailure?.()
  }

  /** Keeps the first `n` workers; the others are ended. */
  async keep(n: number): Promise<void> {
    const extra = this.workers.splice(n)
    for (const w of extra) this.ending.add(w)
    await Promise.all(extra.map((w) => w.terminate()))
  }

  /** Has every worker open the job's project. */
  open(job: RenderJob): void {
    for (const w of this.workers) w.postMessage({ type: 'open', job } satisfies WorkerRequest)
  }

  /** Replies from now on (and those that came before) go to `onReply`; `onFailure` is called on a failure. */
  listen(onReply: (w: Worker, m: WorkerReply) => void, onFailure: () => void): void {
    this.listener = onReply
    this.onFailure = onFailure
    for (const [w, m] of this.early.splice(0)) onReply(w, m)
  }

  send(w: Worker, m: WorkerRequest): void {
    w.postMessage(m)
  }

  async stop(): Promise<void> {
    this.finished = true
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()))
  }
}

/** Starts `count` render workers (none without the bundled worker file). */
export function startRenderWorkers(count: number): RenderWorkers | null {
  return workerFile && count > 0 ? new RenderWorkers(count) : null
}

/**
 * A dataset this large (its file, or the files in its folder) is rendered on several threads unless it holds fewer
 * than PARALLEL_MIN_ROWS rows: its workers are started before the project is open, since that is likely.
 */
export const EARLY_MIN_BYTES = 4 << 20

/**
 * Render workers started now, before the project is open, when `dataset` is large (EARLY_MIN_BYTES): they load
 * their modules while this thread opens the project. The caller keeps as many as the job turns out to need.
 */
export async function earlyRenderWorkers(dataset: string | undefined): Promise<RenderWorkers | null> {
  const count = renderThreads(Number.MAX_SAFE_INTEGER) - 1
  if (count < 1 || !dataset || (await datasetBytes(dataset)) < EARLY_MIN_BYTES) return null
  return startRenderWorkers(count)
}

/** A file's size, or the total size of the files directly in a folder; 0 when it cannot be read. */
async function datasetBytes(path: string): Promise<number> {
  const s = await stat(path).catch(() => null)
  if (!s) return 0
  if (!s.isDirectory()) return s.size
  const names = await readdir(path).catch(() => [] as string[])
  const sizes = await Promise.all(
    names.map((n) =>
      stat(join(path, n)).then(
        (x) => (x.isFile() ? x.size : 0),
        () => 0
      )
    )
  )
  return sizes.reduce((a, b) => a + b, 0)
}

/**
 * The encoded output of rows [start, end) in order, rendered by this thread (`renderHere`, over the project it has
 * open) and by `workers`, which have been told to open the project. `onBlock` gets each block's line and
 * failed-line counts. The workers are stopped at the end.
 */
export async function* renderInParallel(
  workers: RenderWorkers,
  range: { start: number; end: number },
  renderHere: (rows: { start: number; end: number }) => Promise<RenderedBlock>,
  onBlock: (lines: number, failed: number) => void
): AsyncGenerator<Buffer> {
  const blocks: { start: number; end: number }[] = []
  for (let s = range.start; s < range.end; s += BLOCK_ROWS)
    blocks.push({ start: s, end: Math.min(s + BLOCK_ROWS, range.end) })
  const window = (workers.count + 1) * 3
  const done = new Map<number, Buffer[]>()
  let nextAssign = 0
  let nextWrite = 0
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
      workers.send(idle.pop()!, { type: 'block', id, ...blocks[id] })
    }
  }
  workers.listen((w, m) => {
    if (m.type === 'error') workers.failure ??= new Error(m.message)
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
  }, notify)
  try {
    while (nextWrite < blocks.length) {
      if (workers.failure) throw workers.failure
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
    await workers.stop()
  }
}
