// Lint on several threads: the rows are cut into blocks; the main thread lints blocks itself while worker threads
// (lint-worker.ts), each having opened the project the main thread opened, lint others, and send each block's
// per-row records back (LintRun.takeBlock → LintRun.absorb). Every record lands at its row, so the report is byte
// for byte the one-thread report, whichever thread linted which block.
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { workerFile } from '../workers/pool'
import type { ProjectSpec } from '../workspace/project-spec'
import type { LintBlock } from './lint-run'

/** Rows per block: a block's message costs nothing beside its rows' rendering; enough blocks to share them out. */
export const BLOCK_ROWS = 2000
/**
 * Below this many rows one thread is faster: a worker's start (modules, config, dataset, models) costs ~0.3–0.5 s
 * of CPU, what the main thread lints ~4,000 rows × 3 models in.
 */
export const PARALLEL_MIN_ROWS = 20_000
/** More threads than this only add start-up: the main thread's share of absorbing blocks grows with them. */
const MAX_THREADS = 4
/**
 * A worker's rendering garbage dies young: a small young generation keeps it from adding tens of MB to the
 * process (100,000 rows × 3 models on 2 threads: peak RSS 449 MB at 8 MB, 458–521 MB at 16, 551–571 MB unset).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 }

export interface Block {
  id: number
  start: number
  end: number
}

/** How a worker opens the main thread's lint source: the project, the variant and the models, in order. */
export interface LintThreadJob {
  spec: ProjectSpec
  variantId: string
  modelIds: string[]
  total: number
}

export type LintWorkerReply = { type: 'ready'; total: number; modelIds: string[] } | { type: 'block'; id: number; block: LintBlock } | { type: 'error'; message: string }

export function blocksOf(start: number, end: number): Block[] {
  const out: Block[] = []
  for (let s = start; s < end; s += BLOCK_ROWS) out.push({ id: out.length, start: s, end: Math.min(s + BLOCK_ROWS, end) })
  return out
}

/** The bundled lint worker: beside the dataset pool's worker (out/main), or its source under tsx. */
function lintWorkerFile(): string | null {
  const pool = workerFile()
  if (!pool) return null
  const file = pool.endsWith('.ts') ? join(__dirname, 'lint-worker.ts') : join(dirname(pool), 'lint-worker.js')
  return existsSync(file) ? file : null
}

/**
 * Worker threads to lint `rows` rows with, beside the main thread: one per core but the main thread's (at most
 * MAX_THREADS threads in all) for PARALLEL_MIN_ROWS rows or more, none below or on one core. Decided by the work and
 * the cores, not by the load average: on a busy machine each thread still gets its share of the cores, so two
 * threads still finish sooner than one. PROMPTLOOM_LINT_THREADS=N forces N threads in all (1: the main thread only).
 */
export function lintWorkers(rows: number): number {
  const forced = Number(process.env.PROMPTLOOM_LINT_THREADS)
  if (forced === 1 || !lintWorkerFile()) return 0
  const threads = forced > 1 ? forced : rows >= PARALLEL_MIN_ROWS ? Math.min(availableParallelism(), MAX_THREADS) : 1
  return Math.max(0, Math.min(threads, Math.ceil(rows / BLOCK_ROWS)) - 1)
}

/**
 * Lints every block, each by whichever thread is free first: `here` lints one on this thread, `absorb` takes a
 * block a worker linted. A worker that fails, or finds another project than `job` says (rows, models), stops, and
 * its block is linted here: slower, never different. Once `signal` fires no block is started; blocks under way on
 * workers are dropped (the run's rows then end at the first block not linted).
 */
export async function lintBlocks(blocks: Block[], job: LintThreadJob | null, here: (b: Block) => Promise<void>, absorb: (b: Block, result: LintBlock) => void, signal?: AbortSignal): Promise<void> {
  let next = 0
  const given: Block[] = []
  const take = (): Block | null => (signal?.aborted ? null : (given.shift() ?? (next < blocks.length ? blocks[next++] : null)))
  const rows = blocks.length ? blocks[blocks.length - 1].end - blocks[0].start : 0
  const workers = job ? lintWorkers(rows) : 0
  const file = workers ? lintWorkerFile() : null
  const running = file ? Array.from({ length: workers }, () => lintOnWorker(file, job!, take, absorb, (b) => given.push(b), signal)) : []
  for (let b = take(); b; b = take()) await here(b)
  await Promise.all(running)
  // Blocks given back by a worker that stopped after this thread had run out of blocks.
  for (let b = take(); b; b = take()) await here(b)
}

function lintOnWorker(file: string, job: LintThreadJob, take: () => Block | null, absorb: (b: Block, result: LintBlock) => void, giveBack: (b: Block) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const w = new Worker(file, { workerData: job, resourceLimits: WORKER_LIMITS })
    let held: Block | null = null
    let over = false
    const finish = () => {
      if (over) return
      over = true
      if (held) giveBack(held)
      held = null
      signal?.removeEventListener('abort', finish)
      void w.terminate().then(() => resolve())
    }
    const feed = () => {
      held = take()
      if (held) w.postMessage(held)
      else finish()
    }
    w.on('message', (m: LintWorkerReply) => {
      if (m.type === 'ready') {
        if (m.total !== job.total || m.modelIds.join('\n') !== job.modelIds.join('\n')) return finish()
        feed()
      } else if (m.type === 'block' && held && m.id === held.id) {
        const b = held
        held = null
        absorb(b, m.block)
        feed()
      } else finish()
    })
    w.on('error', finish)
    w.on('exit', finish)
    signal?.addEventListener('abort', finish, { once: true })
  })
}
