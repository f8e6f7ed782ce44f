// When a config names a dataset class, the rows are the ones its load() builds: the reproduced loader
// (shared/loaders) runs over the raw data, its rows are written once as JSONL into the project's cache
// (<project>/.promptloom/cache/loaded/…, or a per-user cache when the project folder is read-only), pictures it
// decodes go to <cache>/media, and the app opens that JSONL like any dataset. Source files are never written.
// A class PromptLoom does not reproduce leaves the file's rows as they are, with one problem that says so.
import { createHash } from 'node:crypto'
import { access, constants, mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Diagnostic } from '../../../shared/api/types'
import type { DatasetConfig } from '../../../shared/config/import'
import { PyFloat } from '../../../shared/python/json'
import { PyError, checkReaderColumns, loadKwargs, loaderFor } from '../../../shared/loaders'
import { MissingTool } from '../../../shared/loaders/io'
import { NpInt } from '../../../shared/loaders/py'
import { PilImage } from '../../../shared/loaders/hf-disk'
import { bytesValue } from '../../../shared/media/media-value'
import { storeKey } from '../store/store-location'
import { nodeLoaderIO } from './node-io'

/** Classes whose load() gives the file's rows unchanged (AISBench/OpenCompass CustomDataset over JSONL). */
const AS_IS = new Set(['CustomDataset'])

export type LoaderOutcome =
  | { kind: 'loaded'; file: string; cacheDir: string; cwd: string; problems: Diagnostic[] }
  | { kind: 'as-is'; problems: Diagnostic[] }

/** The project's cache folder: PROMPTLOOM_STATE_DIR, else <root>/.promptloom/cache if writable, else ~/.cache. */
export async function projectCacheDir(
  root: string,
  dataset: string,
  env: NodeJS.ProcessEnv = process.env
): Promise<string> {
  const key = storeKey(dataset)
  if (env.PROMPTLOOM_STATE_DIR) return path.join(env.PROMPTLOOM_STATE_DIR, key, 'cache')
  const inProject = path.join(root, '.promptloom')
  const writable = await access(root, constants.W_OK).then(
    () => true,
    () => false
  )
  if (writable) return path.join(inProject, 'cache')
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'promptloom', 'projects', key)
}

/** Changes when the data changes: size and mtime of the file, or of every file directly in the folder. */
async function dataStamp(p: string): Promise<string> {
  const st = await stat(p).catch(() => null)
  if (!st) return 'missing'
  if (!st.isDirectory()) return `${st.size}:${st.mtimeMs}`
  const parts: string[] = []
  for (const e of (await readdir(p)).sort()) {
    const s2 = await stat(path.join(p, e)).catch(() => null)
    if (s2) parts.push(`${e}:${s2.size}:${s2.mtimeMs}`)
  }
  return parts.join('|')
}

/** One row as a JSON line the dataset reader reads back with Python's types (1.0 stays a float, bytes tagged). */
export function pyJsonLine(v: unknown): string {
  const go = (x: unknown): string => {
    if (x === null || x === undefined) return 'null'
    if (x instanceof PyFloat)
      return Number.isFinite(x.value) ? (Number.isInteger(x.value) ? `${x.value}.0` : String(x.value)) : 'null'
    if (x instanceof NpInt) return String(x.value)
    if (typeof x === 'number') return Number.isFinite(x) ? String(x) : 'null'
    if (typeof x === 'bigint') return x.toString()
    if (x instanceof Uint8Array) return JSON.stringify(bytesValue(x))
    // A decoded `datasets` Image cell stays a picture: the {bytes, path} struct it was stored as.
    if (x instanceof PilImage) return go({ bytes: x.bytes, path: x.path })
    if (Array.isArray(x)) return `[${x.map(go).join(',')}]`
    if (typeof x === 'object')
      return `{${Object.entries(x as Record<string, unknown>)
        .map(([k, y]) => `${JSON.stringify(k)}:${go(y)}`)
        .join(',')}}`
    return JSON.stringify(x)
  }
  return go(v)
}

export interface ApplyLoaderOptions {
  entry: DatasetConfig
  /** The data the entry's `path` names, resolved (a file or a folder). */
  dataset: string
  root: string
  /** Relative media paths in the data resolve against this folder (upstream: the working directory). */
  mediaFolder?: string
}

export async function applyLoader(o: ApplyLoaderOptions): Promise<LoaderOutcome> {
  const type = o.entry.type
  const loader = loaderFor(type)
  const source = o.dataset
  if (!loader) {
    if (!type || AS_IS.has(type)) return { kind: 'as-is', problems: [] }
    return {
      kind: 'as-is',
      problems: [
        {
          code: 'loader-not-reproduced',
          message: `${type}.load() is not reproduced by PromptLoom: the rows are used as they are in the file, which may differ from what ${type} builds.`,
          severity: 'warning',
          source
        }
      ]
    }
  }
  const kwargs = { ...loadKwargs(o.entry.raw as Record<string, unknown>), path: o.dataset }
  const cwd =
    o.mediaFolder ??
    (await stat(o.dataset).then(
      (s) => (s.isDirectory() ? o.dataset : path.dirname(o.dataset)),
      () => path.dirname(o.dataset)
    ))
  const cacheDir = await projectCacheDir(o.root, o.dataset)
  const key = createHash('sha256')
    .update(JSON.stringify([type, kwargs, cwd, await dataStamp(o.dataset)]))
    .digest('hex')
    .slice(0, 16)
  const file = path.join(
    cacheDir,
    'loaded',
    `${path.basename(o.dataset).replace(/[^\w.-]+/g, '_')}.${type}.${key}.jsonl`
  )
  const problems: Diagnostic[] = [
    {
      code: 'loader',
      message: `Rows built as ${type}.load() builds them (reproduced from upstream's code); pictures it decodes are kept in ${path.join(cacheDir, 'media')}.`,
      severity: 'info',
      source
    }
  ]
  if (
    await stat(file).then(
      () => true,
      () => false
    )
  )
    return { kind: 'loaded', file, cacheDir, cwd, problems }
  const io = nodeLoaderIO({ cwd, cacheDir: path.join(cacheDir, 'media') })
  let res
  try {
    res = await loader(kwargs, io)
  } catch (e) {
    if (e instanceof MissingTool)
      return {
        kind: 'as-is',
        problems: [
          {
            code: 'loader-needs-tool',
            message: `${type}.load() with these options needs ${e.message}. The rows are shown as they are in the file.`,
            severity: 'error',
            source
          }
        ]
      }
    const why = e instanceof PyError ? e.pyMessage : e instanceof Error ? e.message : String(e)
    return {
      kind: 'as-is',
      problems: [
        {
          code: 'loader-failed',
          message: `${type}.load() fails on this data (${why}); upstream would stop here. The rows are shown as they are in the file.`,
          severity: 'error',
          source
        }
      ]
    }
  }
  const readerError = checkReaderColumns(res.columns, o.entry.reader_cfg)
  if (readerError)
    problems.push({
      code: 'loader-columns',
      message: `${type}.load() gives the columns ${res.columns.join(', ')}: ${readerError.pyMessage}`,
      severity: 'error',
      source
    })
  await mkdir(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, res.rows.map((r) => pyJsonLine(r)).join('\n') + (res.rows.length ? '\n' : ''))
  await rename(tmp, file)
  return { kind: 'loaded', file, cacheDir, cwd, problems }
}
