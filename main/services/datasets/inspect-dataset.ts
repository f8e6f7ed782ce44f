// inspectDataset: open a dataset and check every media reference against the roots (the dataset's folder
// plus any the caller opened): resolved, missing or refused. Backs `promptloom inspect` and the app's check.
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { resolveUnderRoots } from '../media/roots'
import { abbreviateRef } from '../media/refs'
import type { ColumnInfo, DatasetError, MediaRefKind, SplitInfo } from './types'
import { openDataset, type OpenOptions } from './open-dataset'

export interface MediaProblem {
  file: string
  row: number
  column: string
  value: string
  code: 'media-missing' | 'media-refused'
  reason: string
}

export interface InspectReport {
  path: string
  format: string
  rowCount: number
  splits: SplitInfo[]
  columns: ColumnInfo[]
  media: {
    total: number
    byKind: Partial<Record<MediaRefKind, number>>
    /** File references checked against the roots (capped by maxFileRefs; `truncated` says so). */
    checked: number
    resolved: number
    missing: number
    refused: number
    /** http(s) references are never fetched: the app is offline. */
    offline: number
    inline: number
    /** Media stored as bytes in the data (Parquet binary, HF Image/Audio structs). */
    embedded: number
    truncated: boolean
    problems: MediaProblem[]
  }
  errors: DatasetError[]
  errorCount: number
  skipped: number
  fromCache: boolean
}

export interface InspectOptions extends OpenOptions {
  /** Extra folders media may live in, besides the dataset's own. */
  roots?: string[]
  /** Media problems listed in full (all are counted). Default 1000. */
  maxProblems?: number
}

export async function inspectDataset(target: string, options: InspectOptions = {}): Promise<InspectReport> {
  const handle = await openDataset(target, options)
  const isDir = (await stat(handle.path)).isDirectory()
  const base = isDir ? handle.path : path.dirname(handle.path)
  const maxProblems = options.maxProblems ?? 1000
  const refs = handle.media.files
  const problems: MediaProblem[] = []
  let resolved = 0
  let missing = 0
  // Refused at validation time (traversal, NUL, encoded tricks) already appear as warnings.
  let refused = handle.errors.filter((e) => e.code === 'media-refused').length
  const memo = new Map<string, Promise<Awaited<ReturnType<typeof resolveUnderRoots>>>>()
  const check = (file: string, value: string): Promise<Awaited<ReturnType<typeof resolveUnderRoots>>> => {
    // Relative references are relative to the data file first, then to the dataset folder.
    const roots = [...new Set([path.dirname(file), base, ...(options.roots ?? [])])]
    const key = `${roots[0]}\0${value}`
    let p = memo.get(key)
    if (!p) {
      p = resolveUnderRoots(roots, value)
      memo.set(key, p)
    }
    return p
  }
  let next = 0
  const workers = Array.from({ length: 32 }, async () => {
    while (next < refs.length) {
      const r = refs[next++]
      const res = await check(r.file, r.value)
      if (res.ok) resolved++
      else {
        if (res.code === 'missing') missing++
        else refused++
        if (problems.length < maxProblems) {
          problems.push({ file: r.file, row: r.row, column: r.column, value: abbreviateRef(r.value), code: res.code === 'missing' ? 'media-missing' : 'media-refused', reason: res.reason })
        }
      }
    }
  })
  await Promise.all(workers)
  problems.sort((a, b) => a.row - b.row)
  const by = handle.media.byKind
  return {
    path: handle.path,
    format: handle.format,
    rowCount: handle.rowCount,
    splits: handle.splits,
    columns: handle.columns,
    media: {
      total: handle.media.total,
      byKind: by,
      checked: refs.length,
      resolved,
      missing,
      refused,
      offline: by.http ?? 0,
      inline: (by['data-url'] ?? 0) + (by.base64 ?? 0),
      embedded: by.bytes ?? 0,
      truncated: handle.media.truncated,
      problems
    },
    errors: handle.errors,
    errorCount: handle.errorCount,
    skipped: handle.skipped,
    fromCache: handle.fromCache
  }
}
