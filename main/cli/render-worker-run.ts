// A render worker thread (entry: render-worker.ts; see render-parallel.ts). It is started early, while the main
// thread opens the project, and loads its modules meanwhile; it then opens the project the main thread opened
// ({type: 'open'}) and renders the blocks of rows it is sent — the same lines, through the same encoder, as one thread.
import { parentPort } from 'node:worker_threads'
import type { Host } from '../api/host'
import { Workspace } from '../services/workspace/workspace'
import type { RenderJob, WorkerReply, WorkerRequest } from './render-parallel'
import { renderBlock } from './render-block'

const quietHost: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }

const ws = new Workspace(quietHost)
const post = (m: WorkerReply, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer)
const fail = (e: unknown) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) })

let job: RenderJob | null = null
// Requests are handled one at a time, in the order they arrive.
let queue: Promise<void> = Promise.resolve()

parentPort!.on('message', (m: WorkerRequest) => {
  queue = queue.then(async () => {
    try {
      if (m.type === 'open') {
        job = m.job
        await ws.session.openSpec(job.spec)
        return post({ type: 'ready' })
      }
      if (!job) throw new Error('a block before the project was opened')
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
      fail(e)
    }
  })
})
