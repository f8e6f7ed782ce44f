// Runs one `aisbench-loader` golden case through the app's own loader code: writes the case's raw files below a
// fresh data root, calls the reproduced load() (shared/loaders through nodeLoaderIO, pictures into a media cache
// folder as in the app), then the AISBench prompt path of the engine, and shapes the result like `expected`
// (paths replaced by {IMAGE_ROOT} / {DATA_ROOT}, NaN and bytes in the tagged forms).
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sharp } from '../media/sharp'
import { runEngineCase, type PipelineCaseInput } from '../../../shared/conformance/engine-case'
import type { ConformanceCase } from '../../../shared/conformance/types'
import { PyFloat } from '../../../shared/python/json'
import { PyError, checkReaderColumns, loaderFor, type LoaderResult } from '../../../shared/loaders'
import { NpInt } from '../../../shared/loaders/py'
import { base64Of } from '../../../shared/media/media-value'
import { pillowToBytes } from '../../../shared/media/pillow-png'
import { decodePicture, nodeLoaderIO, pillowMode } from './node-io'
import { PilImage } from '../../../shared/loaders/hf-disk'
import { createHash } from 'node:crypto'

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) await walk(p)
      else out.push(p)
    }
  }
  await walk(dir)
  return out
}

function errorText(e: unknown): { error: string; error_type?: string } {
  if (e instanceof PyError) return { error: e.pyMessage }
  return { error: `${e instanceof Error ? e.name : 'Error'}: ${e instanceof Error ? e.message : String(e)}` }
}

/** Row values as the goldens write them: NaN tagged, bytes tagged, PyFloat plain. */
export function goldenJson(v: unknown): unknown {
  if (v instanceof PyFloat)
    return Number.isFinite(v.value)
      ? v.value
      : { $float: Number.isNaN(v.value) ? 'NaN' : v.value > 0 ? 'Infinity' : '-Infinity' }
  if (typeof v === 'number' && !Number.isFinite(v))
    return { $float: Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity' }
  if (v instanceof NpInt) return v.value
  if (typeof v === 'bigint') return Number(v)
  if (v instanceof Uint8Array) return { $bytes: base64Of(v) }
  if (Array.isArray(v)) return v.map(goldenJson)
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, goldenJson(x)]))
  return v
}

function placeholders(v: unknown, subs: Array<[string, string]>): unknown {
  if (typeof v === 'string') {
    let s = v
    for (const [from, to] of subs) if (from) s = s.split(from).join(to)
    return s
  }
  if (Array.isArray(v)) return v.map((x) => placeholders(x, subs))
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [placeholders(k, subs) as string, placeholders(x, subs)])
    )
  return v
}

const FORMAT_NAME: Record<string, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WEBP', gif: 'GIF', tiff: 'TIFF' }

/** A decoded `datasets` Image cell as the goldens tag it: {"$image": {mode, size, format, pixels_sha256}}. */
async function imageTag(img: PilImage): Promise<unknown> {
  if (!img.bytes) return { $image: { path: img.path } }
  const md = await sharp(Buffer.from(img.bytes)).metadata()
  const pic = await decodePicture(img.bytes)
  const pixels_sha256 = createHash('sha256')
    .update(pic.mode === 'CMYK' ? pic.pixels : pillowToBytes(pic))
    .digest('hex')
  return {
    $image: {
      // The modes Pillow keeps for a PNG are read by png-modes.ts; sharp's metadata names the others.
      mode: pic.mode === 'P' || pic.mode === '1' || pic.mode === 'I;16' ? pic.mode : pillowMode(md),
      size: [pic.width, pic.height],
      format: md.format ? (FORMAT_NAME[md.format] ?? null) : null,
      pixels_sha256
    }
  }
}

/** Rows with every PilImage replaced by its tag. */
async function tagImages(v: unknown): Promise<unknown> {
  if (v instanceof PilImage) return imageTag(v)
  if (Array.isArray(v)) return Promise.all(v.map(tagImages))
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[k] = await tagImages(x)
    return out
  }
  return v
}

async function fileInfo(file: string): Promise<Record<string, unknown>> {
  try {
    const md = await sharp(file).metadata()
    if (!md.format || !FORMAT_NAME[md.format]) return {}
    return { format: FORMAT_NAME[md.format], mode: pillowMode(md), size: [md.width, md.height] }
  } catch {
    return {}
  }
}

/** An aisbench-loader case: the dataset's files, the loader and its arguments, and the pipeline its rows go through. */
interface LoaderCaseInput {
  dataset_type?: string
  files?: Record<string, { text?: string; base64?: string }>
  load_kwargs?: Record<string, unknown>
  reader_cfg?: PipelineCaseInput['reader_cfg']
  infer_cfg?: unknown
  meta_template?: unknown
  parser?: PipelineCaseInput['parser']
}

export async function runLoaderCase(c: ConformanceCase): Promise<unknown> {
  const input = (c.input ?? {}) as LoaderCaseInput
  const loader = loaderFor(input.dataset_type)
  if (!loader)
    return { error: `NotReproduced: PromptLoom does not reproduce ${input.dataset_type}.load()`, stage: 'load' }
  const base = await mkdtemp(path.join(tmpdir(), 'plload'))
  const dataRoot = path.join(base, 'data')
  const cacheDir = path.join(base, 'cache')
  try {
    const sub = (s: string): string => s.split('{DATA_ROOT}').join(dataRoot)
    for (const [rel, f] of Object.entries(input.files ?? {})) {
      const p = path.join(dataRoot, rel)
      await mkdir(path.dirname(p), { recursive: true })
      await writeFile(p, f.text !== undefined ? sub(f.text) : Buffer.from(f.base64 ?? '', 'base64'))
    }
    const before = new Set(await listFiles(dataRoot))
    const kwargs = JSON.parse(JSON.stringify(input.load_kwargs ?? {}), (_k, v) => (typeof v === 'string' ? sub(v) : v))
    const written = new Set<string>()
    const io = nodeLoaderIO({ cwd: dataRoot, cacheDir, written })
    let res: LoaderResult
    try {
      res = await loader(kwargs, io)
    } catch (e) {
      return placeholders({ ...errorText(e), stage: 'load' }, [[dataRoot, '{DATA_ROOT}']])
    }
    res = { ...res, rows: (await tagImages(res.rows)) as Record<string, unknown>[] }
    const subs: Array<[string, string]> = [
      [res.imageRoot ?? '', '{IMAGE_ROOT}'],
      [dataRoot, '{DATA_ROOT}']
    ]
    const engine = runEngineCase(
      {
        ...c,
        input: {
          reader_cfg: input.reader_cfg,
          infer_cfg: input.infer_cfg,
          meta_template: input.meta_template,
          parser: input.parser ?? 'api',
          mode: 'gen',
          train: res.rows,
          test: res.rows
        }
      },
      'aisbench'
    ) as { error?: string; items?: unknown[] }
    const readerError = checkReaderColumns(res.columns, input.reader_cfg ?? {})
    const items = readerError
      ? { ...errorText(readerError), stage: 'prompt' }
      : engine.error
        ? { error: engine.error, stage: 'prompt' }
        : engine.items
    const dumped: Record<string, unknown> = {}
    const created = [
      ...(await listFiles(dataRoot)).filter((f) => !before.has(f)),
      ...[...written].filter((f) => !f.startsWith(dataRoot + path.sep))
    ]
    for (const f of created.sort()) dumped[f] = await fileInfo(f)
    const out = {
      image_root: res.upstreamImageRoot === null ? null : path.resolve(dataRoot, res.upstreamImageRoot),
      columns: res.columns,
      rows: goldenJson(res.rows),
      items,
      dumped_files: dumped
    }
    return placeholders(out, subs)
  } finally {
    await rm(base, { recursive: true, force: true })
  }
}
