// On-disk cache of a file's index and validation summary, so reopening an unchanged file is instant.
// Keyed by the file's absolute path; valid only while size, mtime and a content hash all match. The hash
// covers the first and last MiB plus the size: cheap on a 400 MB file, and together with size and mtime it
// catches edits in place (an editor that keeps mtime would still have to keep both ends identical).
import { createHash } from 'node:crypto'
import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { DatasetFormat } from './types'
import type { RowIndex } from './row-index'
import type { ValidateOutput } from './validate-rows'

const MAGIC = 'PLIDX002'
const SAMPLE = 1 << 20

/** A file part as cached: its index plus what validation found (bad rows, columns, media refs, errors). */
export interface CachedPart extends Omit<ValidateOutput, 'cancelled'> {
  key: string | null
  format: DatasetFormat
  header?: string[] | null
  delimiter?: string
  /** Rows before skipping bad ones. */
  rawRows: number
  index: RowIndex | null
}

/** A part that gives no rows: the one error that says why (if any), and no index or the empty one a text file has. */
export function unopenedPart(format: DatasetFormat, error: ValidateOutput['errors'][number] | null, index: CachedPart['index'] = null): CachedPart {
  return {
    key: null,
    format,
    rawRows: 0,
    index,
    bad: new Uint32Array(0),
    columns: [],
    refsByKind: {},
    refsTotal: 0,
    fileRefs: [],
    fileRefsTruncated: false,
    errors: error ? [error] : [],
    errorCount: error ? 1 : 0
  }
}

export interface FileStamp {
  size: number
  mtimeMs: number
  hash: string
}

/** $XDG_CACHE_HOME/promptloom (default ~/.cache/promptloom), where the loaders' and the compile caches also live. */
export function defaultCacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'promptloom')
}

export async function stampOf(file: string): Promise<FileStamp> {
  const fh = await open(file, 'r')
  try {
    const st = await fh.stat()
    const h = createHash('sha256')
    h.update(String(st.size))
    const head = Buffer.allocUnsafe(Math.min(SAMPLE, st.size))
    const { bytesRead } = await fh.read(head, 0, head.length, 0)
    h.update(head.subarray(0, bytesRead))
    if (st.size > SAMPLE) {
      const tail = Buffer.allocUnsafe(Math.min(SAMPLE, st.size - SAMPLE))
      const r = await fh.read(tail, 0, tail.length, st.size - tail.length)
      h.update(tail.subarray(0, r.bytesRead))
    }
    return { size: st.size, mtimeMs: st.mtimeMs, hash: h.digest('hex') }
  } finally {
    await fh.close()
  }
}

function cacheFile(cacheDir: string, file: string, optionsKey: string): string {
  const id = createHash('sha256').update(`${path.resolve(file)}\0${optionsKey}`).digest('hex').slice(0, 32)
  return path.join(cacheDir, 'index', `${id}.bin`)
}

type PartHeader = Omit<CachedPart, 'index' | 'bad'> & { rows: number; badCount: number; hasIndex: boolean }

export async function saveCache(cacheDir: string, file: string, optionsKey: string, stamp: FileStamp, parts: CachedPart[]): Promise<void> {
  const headers: PartHeader[] = parts.map(({ index, bad, ...rest }) => ({
    ...rest,
    rows: index ? index.starts.length : 0,
    hasIndex: index !== null,
    badCount: bad.length
  }))
  const json = Buffer.from(JSON.stringify({ stamp, parts: headers }), 'utf8')
  const chunks: Buffer[] = [Buffer.from(MAGIC, 'latin1'), Buffer.alloc(4), json]
  chunks[1].writeUInt32LE(json.length)
  const view = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength)
  for (const p of parts) {
    if (p.index) chunks.push(view(p.index.starts), view(p.index.ends), view(p.index.lines))
    chunks.push(view(p.bad))
  }
  const dest = cacheFile(cacheDir, file, optionsKey)
  await mkdir(path.dirname(dest), { recursive: true })
  // Write then rename, so a crash never leaves a half-written cache that looks valid.
  const tmp = `${dest}.${process.pid}.tmp`
  await writeFile(tmp, Buffer.concat(chunks))
  await rename(tmp, dest)
}

export async function loadCache(cacheDir: string, file: string, optionsKey: string, stamp: FileStamp): Promise<CachedPart[] | null> {
  let buf: Buffer
  try {
    buf = await readFile(cacheFile(cacheDir, file, optionsKey))
  } catch {
    return null
  }
  try {
    if (buf.toString('latin1', 0, 8) !== MAGIC) return null
    const jlen = buf.readUInt32LE(8)
    const head = JSON.parse(buf.toString('utf8', 12, 12 + jlen)) as { stamp: FileStamp; parts: PartHeader[] }
    if (head.stamp.size !== stamp.size || head.stamp.mtimeMs !== stamp.mtimeMs || head.stamp.hash !== stamp.hash) return null
    let at = 12 + jlen
    const take = <T>(ctor: { new (b: ArrayBuffer): T; BYTES_PER_ELEMENT: number }, n: number): T => {
      const bytes = n * ctor.BYTES_PER_ELEMENT
      if (at + bytes > buf.length) throw new Error('short cache file')
      // Copy: the read buffer is not aligned for a Float64Array view.
      const out = new ctor(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + bytes) as ArrayBuffer)
      at += bytes
      return out
    }
    return head.parts.map(({ rows, badCount, hasIndex, ...rest }) => {
      const index = hasIndex ? { starts: take(Float64Array, rows), ends: take(Float64Array, rows), lines: take(Uint32Array, rows) } : null
      return { ...rest, index, bad: take(Uint32Array, badCount) }
    })
  } catch {
    return null
  }
}
