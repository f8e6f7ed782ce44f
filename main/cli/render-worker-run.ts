// A render worker thread (entry: render-worker.ts; see render-parallel.ts): opens the project the main thread
// opened, then renders the blocks of rows it is sent — the same lines, through the same encoder, as one thread.
import { parentPort, workerData } from 'node:worker_threads'
import type { Host } from '../api/host'
import { Workspace } from '../services/workspace/workspace'
import type { RenderJob, WorkerReply } from './render-parallel'
import { renderBlock } from './render-block'

const quietHost: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }

const job = workerData as RenderJob
const ws = new Workspace(quietHost)
const post = (m: WorkerReply, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer)

// Blocks are rendered one at a time, in the order they arrive.
let queue: Promise<void> = ws.session.openSpec(job.spec).then(() => undefined)
queue.then(
  () => post({ type: 'ready' }),
  (e: unknown) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) })
)

parentPort!.on('message', (m: { type: 'block'; id: number; start: number; end: number }) => {
  queue = queue.then(async () => {
    try {
      const block = await renderBlock(ws, job.options, { start: m.start, end: m.end })
      const chunks: { buf: ArrayBuffer; off: number; len: number }[] = []
      const transfer: ArrayBuffer[] = []
      for (const c of block.chunks) {
        // Chunks are whole buffers of their own (never Node's shared pool): moved, not copied.
        const own = c.byteLength >= 4096 && c.buffer instanceof ArrayBuffer && !transfer.includes(c.buffer)
        const buf = own ? (c.buffer as ArrayBuffer) : c.buffer.slice(c.byteOffset, c.byteOffset + c.byteLength)
        chunks.push({ buf: buf as ArrayBuffer, off: own ? c.byteOffset : 0, len: c.byteLength })
        transfer.push(buf as ArrayBuffer)
      }
      post({ type: 'block', id: m.id, chunks, lines: block.lines, failed: block.failed }, transfer)
    } catch (e) {
      post({ type: 'error', message: e instanceof Error ? e.message : String(e) })
    }
  })
})
