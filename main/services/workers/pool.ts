// Runs dataset tasks on worker threads when a worker script is available, and in the current thread otherwise.
//
// Why both: the built app runs bundled JS (electron-vite emits out/main/dataset-worker.js from worker-entry.ts,
// see configureWorkers), benchmarks run TypeScript through tsx (whose loader workers inherit), and vitest runs
// TS source through its own transformer, which a Worker cannot load. Tests therefore run tasks in-process; the
// task code is the same either way (tasks.ts), only the transport differs.
//
// Where the worker script comes from, first match wins:
//   1. configureWorkers({ workerFile }) — the app calls this at startup with join(__dirname, 'dataset-worker.js');
//   2. PROMPTLOOM_WORKER_FILE in the environment;
//   3. dataset-worker.js next to this module's bundle (__dirname);
//   4. worker-entry.ts beside this file when running under tsx;
//   5. none: in-process.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { TASKS, type TaskInput, type TaskName, type TaskOutput } from './tasks'

export interface RunOptions {
  signal?: AbortSignal
  onProgress?: (p: { bytesDone: number; rows: number }) => void
}

interface PoolConfig {
  workerFile: string | null | undefined
  maxWorkers: number
  idleMs: number
}

// An idle worker is ended after idleMs: its heap (tens of MB after validating a large file) goes back to the OS,
// and a new one starts in ~30 ms when the next file is opened.
const config: PoolConfig = { workerFile: undefined, maxWorkers: 2, idleMs: 5000 }

/** Override where the worker script is (null forces in-process), how many workers to keep, and for how long idle. */
export function configureWorkers(opts: { workerFile?: string | null; maxWorkers?: number; idleMs?: number }): void {
  if (opts.workerFile !== undefined) config.workerFile = opts.workerFile
  if (opts.maxWorkers !== undefined) config.maxWorkers = Math.max(1, opts.maxWorkers)
  if (opts.idleMs !== undefined) config.idleMs = Math.max(0, opts.idleMs)
  void shutdownWorkers()
}

export function workerFile(): string | null {
  if (config.workerFile !== undefined) return config.workerFile
  const env = process.env.PROMPTLOOM_WORKER_FILE
  if (env && existsSync(env)) return env
  const here = typeof __dirname === 'string' ? __dirname : null
  if (here) {
    const built = join(here, 'dataset-worker.js')
    if (existsSync(built)) return built
    const underTsx = process.execArgv.some((a) => a.includes('tsx'))
    const source = join(here, 'worker-entry.ts')
    if (underTsx && existsSync(source)) return source
  }
  return null
}

/** Worker threads alive now (busy or idle): for diagnostics and tests. */
export function liveWorkers(): number {
  return slots.length
}

export function parallelism(): number {
  return workerFile() ? config.maxWorkers : 1
}

// A small young generation keeps each worker's garbage from parsing a million rows from piling up in RSS. Rows
// die young (decoded, inspected, dropped), so 8 MB costs no measurable CPU against 16 MB and saves ~20 MB of peak
// RSS opening the 1M-row benchmark file (process CPU time 2.85–3.08 s vs 2.75–3.04 s; peak 169–176 vs 188–194 MB).
const WORKER_OPTIONS = { resourceLimits: { maxYoungGenerationSizeMb: 8 } }

interface Slot {
  worker: Worker
  busy: boolean
  idleTimer: NodeJS.Timeout | null
}

const slots: Slot[] = []
const waiting: Array<(s: Slot) => void> = []
let nextId = 1

function acquire(file: string): Promise<Slot> {
  const free = slots.find((s) => !s.busy)
  if (free) {
    free.busy = true
    if (free.idleTimer) clearTimeout(free.idleTimer)
    free.idleTimer = null
    free.worker.ref()
    return Promise.resolve(free)
  }
  if (slots.length < config.maxWorkers) {
    const slot: Slot = { worker: new Worker(file, WORKER_OPTIONS), busy: true, idleTimer: null }
    slot.worker.on('error', () => dropSlot(slot))
    slots.push(slot)
    return Promise.resolve(slot)
  }
  return new Promise((res) => waiting.push(res))
}

function release(slot: Slot): void {
  const next = waiting.shift()
  if (next) return next(slot)
  slot.busy = false
  // Idle workers must not keep a CLI process alive.
  slot.worker.unref()
  scheduleIdleEnd(slot)
}

function scheduleIdleEnd(slot: Slot): void {
  if (slot.idleTimer) clearTimeout(slot.idleTimer)
  slot.idleTimer = setTimeout(() => {
    slot.idleTimer = null
    if (slot.busy) return
    dropSlot(slot)
    void slot.worker.terminate()
  }, config.idleMs)
  slot.idleTimer.unref()
}

function dropSlot(slot: Slot): void {
  const i = slots.indexOf(slot)
  if (i >= 0) slots.splice(i, 1)
}

/**
 * Starts workers (all of them, or `count`) ahead of the first task, so opening a dataset or a config does not wait
 * for thread start-up.
 */
export function warmWorkers(count = config.maxWorkers): void {
  const file = workerFile()
  if (!file) return
  while (slots.length < Math.min(count, config.maxWorkers)) {
    const slot: Slot = { worker: new Worker(file, WORKER_OPTIONS), busy: false, idleTimer: null }
    slot.worker.on('error', () => dropSlot(slot))
    slot.worker.unref()
    slots.push(slot)
    scheduleIdleEnd(slot)
  }
}

function transferablesOf(input: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = []
  if (input && typeof input === 'object') {
    for (const v of Object.values(input)) {
      if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer && v.byteLength === v.buffer.byteLength && !out.includes(v.buffer)) out.push(v.buffer)
    }
  }
  return out
}

export async function shutdownWorkers(): Promise<void> {
  const all = slots.splice(0)
  for (const s of all) if (s.idleTimer) clearTimeout(s.idleTimer)
  await Promise.all(all.map((s) => s.worker.terminate()))
}

/** Runs one task; resolves with its output, rejects only on programming errors or cancellation. */
export async function runTask<N extends TaskName>(name: N, input: TaskInput<N>, opts: RunOptions = {}): Promise<TaskOutput<N>> {
  const file = workerFile()
  if (!file) {
    const fn = TASKS[name] as unknown as (i: TaskInput<N>, ctx: import('./task-types').TaskContext) => Promise<TaskOutput<N>>
    return fn(input, {
      progress: (p) => opts.onProgress?.(p),
      aborted: () => opts.signal?.aborted === true
    })
  }
  const slot = await acquire(file)
  const id = nextId++
  return new Promise<TaskOutput<N>>((resolve, reject) => {
    const w = slot.worker
    const onAbort = (): void => w.postMessage({ cancel: id })
    const cleanup = (): void => {
      w.off('message', onMessage)
      w.off('error', onError)
      opts.signal?.removeEventListener('abort', onAbort)
      release(slot)
    }
    const onMessage = (msg: { id: number; progress?: { bytesDone: number; rows: number }; result?: unknown; error?: string }): void => {
      if (msg.id !== id) return
      if (msg.progress) return opts.onProgress?.(msg.progress)
      cleanup()
      if (msg.error !== undefined) reject(new Error(msg.error))
      else resolve(msg.result as TaskOutput<N>)
    }
    const onError = (err: Error): void => {
      w.off('message', onMessage)
      w.off('error', onError)
      opts.signal?.removeEventListener('abort', onAbort)
      dropSlot(slot)
      reject(err)
    }
    w.on('message', onMessage)
    w.on('error', onError)
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    // Typed arrays in the input are moved, not copied (callers pass fresh slices): half the peak memory.
    w.postMessage({ id, name, input }, transferablesOf(input))
  })
}
