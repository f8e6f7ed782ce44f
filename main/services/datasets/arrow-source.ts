// Arrow IPC stream files (a Hugging Face `datasets.save_to_disk` folder's data-XXXXX-of-NNNNN.arrow shards, or a
// lone .arrow file) as a dataset source: the stream's message headers are located once (shared/formats/
// arrow-ipc.ts) and a read decodes only the record batches its rows are in. Values as Parquet rows give them
// (parquet-source.ts): binary → {"$bytes": base64} (an HF Image/Audio struct stays {bytes, path}, media by the
// schema's `huggingface` metadata), 64-bit integers as numbers (bigint beyond 2^53), dates and timestamps as ISO
// strings; rows read for rendering keep Python's floats (1.0 → PyFloat). A corrupt file is one error naming the
// byte; the rows of a batch that fails to decode are skipped and reported, the others load.
import { open } from 'node:fs/promises'
import type { DatasetError } from './types'
import { unopenedPart, type CachedPart } from './index-cache'
import { RowInspector } from './validate-rows'
import type { TaskContext } from '../workers/task-types'
import { ArrowError, ArrowStreamReader, type ReadAt } from '../../../shared/formats/arrow-ipc'
import { PyFloat } from '../../../shared/python/json'
import { bytesValue, hfFeatureKinds, type MediaKind } from '../../../shared/media/media-value'

export interface ArrowFile {
  file: string
  reader: ArrowStreamReader
  /** The same stream with floats kept as Python floats, for rows read for rendering. */
  pyReader: ArrowStreamReader
  rowCount: number
}

function fileReader(file: string): { read: ReadAt; size: () => Promise<number> } {
  return {
    size: async () => {
      const fh = await open(file, 'r')
      try {
        return (await fh.stat()).size
      } finally {
        await fh.close()
      }
    },
    read: async (pos, len) => {
      const fh = await open(file, 'r')
      try {
        const buf = Buffer.alloc(len)
        const { bytesRead } = await fh.read(buf, 0, len, pos)
        return new Uint8Array(buf.buffer, buf.byteOffset, bytesRead)
      } finally {
        await fh.close()
      }
    }
  }
}

const asError = (file: string, err: unknown): DatasetError => ({
  code: 'arrow-corrupt',
  message: `Not a readable Arrow stream: ${err instanceof ArrowError ? err.message : err instanceof Error ? err.message : String(err)}`,
  stage: 'open',
  severity: 'error',
  at: { file, offset: err instanceof ArrowError ? err.offset : 0 }
})

export async function openArrow(
  file: string
): Promise<{ ok: true; arrow: ArrowFile } | { ok: false; error: DatasetError }> {
  const f = fileReader(file)
  try {
    const size = await f.size()
    if (size === 0)
      return {
        ok: false,
        error: {
          code: 'empty-file',
          message: 'The file is empty',
          stage: 'open',
          severity: 'error',
          at: { file, offset: 0 }
        }
      }
    const reader = await ArrowStreamReader.open(f.read, size)
    const pyReader = new ArrowStreamReader(reader.index, f.read, {
      float: (x) => (Number.isInteger(x) ? new PyFloat(x) : x)
    })
    return { ok: true, arrow: { file, reader, pyReader, rowCount: reader.rowCount } }
  } catch (err) {
    return { ok: false, error: asError(file, err) }
  }
}

/** Media columns named by the stream's `huggingface` schema metadata (datasets' Image/Audio/Video features). */
export function arrowMediaFeatures(a: ArrowFile): Map<string, MediaKind> {
  return hfFeatureKinds(a.reader.schema.metadata.get('huggingface'))
}

/** JSON-safe values: bytes tagged, bigint as a number when exact, non-finite floats null; PyFloat kept. */
function safe(v: unknown): unknown {
  if (v instanceof PyFloat) return Number.isFinite(v.value) ? v : null
  if (typeof v === 'bigint')
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v
  if (v instanceof Uint8Array) return bytesValue(v)
  if (typeof v === 'number' && !Number.isFinite(v)) return null
  if (Array.isArray(v)) return v.map(safe)
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v)) out[k] = safe((v as Record<string, unknown>)[k])
    return out
  }
  return v
}

/** Rows [start, end); throws ArrowError on a batch that cannot be decoded. */
export async function readArrowRows(
  a: ArrowFile,
  start: number,
  end: number,
  opts: { pythonNumbers?: boolean } = {}
): Promise<Record<string, unknown>[]> {
  const rows = await (opts.pythonNumbers ? a.pyReader : a.reader).rows(start, end)
  return rows.map((r) => safe(r) as Record<string, unknown>)
}

/** Decodes every record batch once: columns, media refs, and the rows of batches that fail to decode. */
export async function validateArrow(
  a: ArrowFile,
  opts: { maxErrors: number; maxFileRefs: number; aborted: () => boolean; progress: (rows: number) => void }
): Promise<CachedPart> {
  const insp = new RowInspector(a.file, false, opts.maxFileRefs, opts.maxErrors, arrowMediaFeatures(a))
  const errors: DatasetError[] = []
  const bad: number[] = []
  for (const b of a.reader.index.batches) {
    if (opts.aborted()) break
    const lo = b.firstRow
    const hi = b.firstRow + b.rows
    try {
      const rows = await readArrowRows(a, lo, hi, { pythonNumbers: true })
      rows.forEach((r, k) => insp.inspect(r, lo + k, undefined, undefined))
    } catch (err) {
      errors.push({
        code: 'arrow-corrupt',
        message: `Record batch at byte ${b.metaStart}: ${err instanceof Error ? err.message : String(err)}; rows ${lo}–${hi - 1} skipped`,
        stage: 'parse',
        severity: 'error',
        at: { file: a.file, row: lo, offset: err instanceof ArrowError ? err.offset : b.metaStart }
      })
      for (let r = lo; r < hi; r++) bad.push(r)
    }
    opts.progress(hi)
  }
  return {
    key: null,
    format: 'arrow',
    rawRows: a.rowCount,
    index: null,
    bad: Uint32Array.from(bad),
    columns: [...insp.cols],
    refsByKind: insp.refsByKind,
    refsTotal: insp.refsTotal,
    fileRefs: insp.fileRefs,
    fileRefsTruncated: insp.fileRefsTruncated,
    errors: [...errors, ...insp.warnings],
    errorCount: errors.length + insp.warningCount
  }
}

/** Worker task: opens and validates one Arrow stream file off the main thread. */
export async function validateArrowFile(
  input: { file: string; maxErrors: number; maxFileRefs: number },
  ctx: TaskContext
): Promise<CachedPart> {
  const o = await openArrow(input.file)
  if (!o.ok) return unopenedPart('arrow', o.error)
  return validateArrow(o.arrow, {
    maxErrors: input.maxErrors,
    maxFileRefs: input.maxFileRefs,
    aborted: ctx.aborted,
    progress: (rows) => ctx.progress({ bytesDone: 0, rows })
  })
}
