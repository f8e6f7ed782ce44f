// A lint worker thread (entry: lint-worker.ts; see lint-threads.ts): opens the project the main thread opened, as
// `promptloom lint` opens it, then lints the blocks of rows it is sent, one at a time, and sends back each block's
// per-row records (moved out: its memory goes with the message).
import { parentPort, workerData } from 'node:worker_threads'
import type { Host } from '../../api/host'
import { configureWorkers } from '../workers/pool'
import { Workspace } from '../workspace/workspace'
import { LintRun, transferablesOfBlock } from './lint-run'
import type { Block, LintThreadJob, LintWorkerReply } from './lint-threads'

// This thread is already a worker: its own tasks (the config, the dataset index, signatures) run in it.
configureWorkers({ workerFile: null })

const quietHost: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }
const job = workerData as LintThreadJob
// Curation is not read: the main thread counts statuses itself and lints on one thread when rows have edits.
const ws = new Workspace(quietHost, { curation: 'memory' })
const post = (m: LintWorkerReply, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer)
const fail = (e: unknown) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) })

let queue: Promise<LintRun | null> = ws.session
  .openSpec(job.spec)
  .then(async () => {
    const run = new LintRun(await ws.lint.source({ variantId: job.variantId, modelIds: job.modelIds }))
    // This thread is one lane of a lint on a thread per core: no pool workers of its own.
    run.signHere = true
    return run
  })
  .then(
    (run) => {
      post({ type: 'ready', total: run.src.total, modelIds: run.src.models.map((m) => m.profile.id) })
      return run
    },
    (e: unknown) => {
      fail(e)
      return null
    }
  )

parentPort!.on('message', (b: Block) => {
  queue = queue.then(async (run) => {
    if (!run) return run
    try {
      await run.lintRange(b.start, b.end)
      const block = run.takeBlock(b.start, b.end)
      post({ type: 'block', id: b.id, block }, transferablesOfBlock(block))
    } catch (e) {
      fail(e)
    }
    return run
  })
})
