// Rows of a byte-range file (JSONL, a JSON array, CSV, TSV) read and decoded from their index's byte ranges. A
// handle reads its rows this way on the thread that asks, and hands the same spans to worker tasks
// (DatasetHandle.rowSpans), which read the rows themselves: a row's bytes never travel in a message.
import { read as fsRead } from 'node:fs'
import { open } from 'node:fs/promises'
import { decodeRow, type RowFormat } from './row-decode'
import { borrow, release } from './scratch-buffers'
import type { RowRecord } from './types'

export interface RowSpans {
  file: string
  format: RowFormat
  /** CSV/TSV: the header's column names and the delimiter. */
  header?: string[] | null
  delimiter?: string
  /** Per row, in ascending byte order: its number in the split, its row in the file, its 1-based line, its bytes [start, end). */
  indices: number[]
  raw: number[]
  lines: number[]
  starts: number[]
  ends: number[]
  /** `file` already open (an export opens it once for all its batches); otherwise the rows' reader opens it. */
  fd?: number
}

/** One read covers a window of rows unless gaps (skipped giant rows) would make it wasteful. */
const SINGLE_READ_BYTES = 32 << 20

/** The rows the spans name, decoded; a row that cannot be decoded comes back with `error` set and an empty value. */
export async function readSpans(sp: RowSpans): Promise<RowRecord[]> {
  const out: RowRecord[] = []
  for await (const r of spanRows(sp)) out.push(r)
  return out
}

/**
 * The same rows one at a time: the bytes are read at once, each row decoded only when it is asked for, so a batch
 * of 95 KB base64 cells is not all alive as strings while the first rows are worked on (what a young-generation
 * collection copies).
 */
export async function* spanRows(sp: RowSpans): AsyncGenerator<RowRecord> {
  const n = sp.indices.length
  if (n === 0) return
  const ctx = { format: sp.format, header: sp.header, delimiter: sp.delimiter, pythonNumbers: true }
  const fh = sp.fd === undefined ? await open(sp.file, 'r') : null
  const fd = fh ? fh.fd : sp.fd!
  const read = (buf: Buffer, length: number, position: number) => new Promise<void>((res, rej) => fsRead(fd, buf, 0, length, position, (e) => (e ? rej(e) : res())))
  const a = sp.starts[0]
  const b = sp.ends[n - 1]
  const buf = b - a <= SINGLE_READ_BYTES ? borrow(b - a) : null
  try {
    if (buf) await read(buf, b - a, a)
    for (let k = 0; k < n; k++) {
      const s = sp.starts[k]
      const e = sp.ends[k]
      let rowBuf: Buffer
      let base: number
      if (buf) {
        rowBuf = buf
        base = a
      } else {
        rowBuf = Buffer.allocUnsafe(e - s)
        await read(rowBuf, e - s, s)
        base = s
      }
      const at = { file: sp.file, line: sp.lines[k], row: sp.raw[k], offset: s }
      const d = decodeRow(rowBuf, s - base, e - base, ctx)
      if (d.ok) yield { index: sp.indices[k], value: d.value, at }
      else yield { index: sp.indices[k], value: {}, at, error: { code: d.code, message: d.message, stage: 'parse', severity: 'error', at } }
    }
  } finally {
    if (buf) release(buf)
    await fh?.close()
  }
}
