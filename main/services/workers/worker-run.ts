// A dataset worker thread (started by worker-entry.ts): it receives { id, name, input }, posts { id, progress } while
// working and { id, result } or { id, error } at the end.
import { parentPort } from 'node:worker_threads'
import { TASKS, type TaskName } from './tasks'

interface Request {
  id: number
  name: TaskName
  input: unknown
}

const cancelled = new Set<number>()

/** Typed arrays in a result are transferred, not copied: a 1M-row index is 20 MB. */
function transferables(value: unknown, out: ArrayBuffer[] = [], depth = 0): ArrayBuffer[] {
  if (depth > 3 || value === null || typeof value !== 'object') return out
  if (ArrayBuffer.isView(value)) {
    const buf = value.buffer
    if (buf instanceof ArrayBuffer && !out.includes(buf) && value.byteLength === buf.byteLength) out.push(buf)
    return out
  }
  for (const v of Array.isArray(value) ? value : Object.values(value)) transferables(v, out, depth + 1)
  return out
}

parentPort?.on('message', (msg: Request | { cancel: number }) => {
  if ('cancel' in msg) {
    cancelled.add(msg.cancel)
    return
  }
  const { id, name, input } = msg
  const task = TASKS[name] as (i: unknown, ctx: import('./task-types').TaskContext) => Promise<unknown>
  const ctx = {
    progress: (p: { bytesDone: number; rows: number }) => parentPort?.postMessage({ id, progress: p }),
    aborted: () => cancelled.has(id)
  }
  task(input, ctx).then(
    (result) => {
      try {
        parentPort?.postMessage({ id, result }, transferables(result))
      } catch {
        // Some buffers cannot be moved (sharp's output lives in memory V8 does not own): send a copy instead.
        parentPort?.postMessage({ id, result })
      }
    },
    (err: unknown) => parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) })
  ).finally(() => cancelled.delete(id))
})
