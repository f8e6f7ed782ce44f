// Writes a file so that readers see either the old content or the whole new content, never a torn file:
// write a temporary sibling, fsync it, rename over the target, fsync the directory.
//
// Temporary files never outlive their writer: abort() removes them; a process that is interrupted (SIGINT,
// SIGTERM: see removeOpenTemps) removes its own on the way out; one that is killed outright leaves a temp whose
// name carries its pid, and the next write into that folder removes the temps of writers no longer alive.
import { rmSync } from 'node:fs'
import { open, readdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'

export interface AtomicWriter {
  /** The temporary file being written (renamed to the target on commit). */
  readonly tempPath: string
  write(chunk: string | Uint8Array): Promise<void>
  /**
   * Lets other threads of this process write the next part of the file themselves (ordered-writes.ts): flushes,
   * and gives the temp file's descriptor and the offset where that part starts. Until `resumeAt`, write nothing here.
   */
  handOff(): Promise<{ fd: number; at: number }>
  /** Continues after a handed-off part, which ended at `at`. */
  resumeAt(at: number): void
  commit(): Promise<void>
  abort(): Promise<void>
}

const TEMP = /^\..+\.(\d+)-[0-9a-f]{12}\.tmp$/
const FLUSH_BYTES = 1 << 20

/** Temp files of writers in this process that are neither committed nor aborted. */
const openTemps = new Set<string>()

/** Removes this process's unfinished temp files now (synchronously: safe in an exit or signal handler). */
export function removeOpenTemps(): void {
  for (const t of openTemps) rmSync(t, { force: true })
  openTemps.clear()
}

export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`)
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes temp files in `dir` left by writers that were killed (their pid is gone); returns how many. */
export async function removeStaleTemps(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[])
  let n = 0
  for (const name of names) {
    const m = TEMP.exec(name)
    if (!m || alive(Number(m[1]))) continue
    await rm(join(dir, name), { force: true, recursive: true }).catch(() => {})
    n++
  }
  return n
}

export async function openAtomic(target: string): Promise<AtomicWriter> {
  await removeStaleTemps(dirname(target))
  const tmp = tempPathFor(target)
  const fh = await open(tmp, 'wx')
  openTemps.add(tmp)
  let buffered: Uint8Array[] = []
  let size = 0
  // Where the next write goes: writes are positioned, so parts written by others can sit between them.
  let at = 0
  const flush = async () => {
    if (!buffered.length) return
    const data = buffered
    const n = size
    buffered = []
    size = 0
    await fh.writev(data, at)
    at += n
  }
  return {
    tempPath: tmp,
    async write(chunk) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
      buffered.push(b)
      size += b.byteLength
      if (size >= FLUSH_BYTES || buffered.length >= 1024) await flush()
    },
    async handOff() {
      await flush()
      return { fd: fh.fd, at }
    },
    resumeAt(end) {
      at = end
    },
    async commit() {
      await flush()
      await fh.sync()
      await fh.close()
      await rename(tmp, target)
      openTemps.delete(tmp)
      const dir = await open(dirname(target), 'r').catch(() => null)
      if (dir) {
        await dir.sync().catch(() => {})
        await dir.close()
      }
    },
    async abort() {
      buffered = []
      await fh.close().catch(() => {})
      await rm(tmp, { force: true })
      openTemps.delete(tmp)
    }
  }
}

export async function writeFileAtomic(target: string, content: string): Promise<void> {
  const w = await openAtomic(target)
  try {
    await w.write(content)
    await w.commit()
  } catch (e) {
    await w.abort()
    throw e
  }
}
