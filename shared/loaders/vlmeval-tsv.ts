// The VLMEvalKit TSV conventions as AISBench's TSV loaders (MMStar, MMMU-Pro, DocVQA, InfoVQA, OCRBench v2)
// apply them: rows without an image dropped, `image` cells of ≤ 64 characters are another row's index, a
// `[…]` cell is a Python list of several images (toliststr), and dump_image writes each picture to
// <image root>/<index>.jpg, <index>_<i>.png or the `image_path` names. Upstream's quirks are kept: MMStar-style
// loaders look the index *string* up in a map with *int* keys (KeyError), DocVQA stringifies the index first.
import { evaluatePythonConfig } from '../config/python-config'
import { pyStr as configStr, runtime as configRuntime, type PyValue } from '../config/python-values'
import { type LoaderIO, pjoin } from './io'
import { type DataFrame, column, readTsv } from './pandas-tsv'
import { NpInt, PyError, PyFloat, cellStr, isNa, keyError } from './py'

export const IMAGE_MAP_LEN = 64

/** toliststr: a `[…]` string is eval'd into several strings; any other string is a list of one. */
export function toliststr(s: unknown): string[] {
  if (typeof s === 'string' && s.length >= 1 && s[0] === '[' && s[s.length - 1] === ']') {
    const r = evaluatePythonConfig(`v = ${s}`, { file: '<string>' })
    const err = r.diagnostics.find((d) => d.severity === 'error')
    if (err) throw new PyError('SyntaxError', err.message)
    const v = r.values.get('v')
    return configRuntime.items(v).map((x) => configStr(x as PyValue))
  }
  if (typeof s === 'string') return [s]
  if (Array.isArray(s)) return s.map(cellStr)
  throw new PyError('NotImplementedError', '')
}

/** A dict key as Python hashes it: 1 == 1.0, '1' is another key. */
function keyOf(v: unknown): string {
  if (typeof v === 'string') return `s:${v}`
  if (v instanceof NpInt) return `n:${v.value}`
  if (v instanceof PyFloat) return `n:${v.value}`
  if (typeof v === 'number') return `n:${v}`
  return `o:${cellStr(v)}`
}

export interface TsvRow {
  get(k: string): unknown
  has(k: string): boolean
}

export interface VlmTsvOptions {
  /** DocVQA/InfoVQA: `data['index'] = [str(x) …]` before the map is built, so references resolve. */
  indexAsStr?: boolean
  /** MMMU-Pro options-10: a reference that is not in the map is skipped (`if idx in image_map`). */
  skipMissingRef?: boolean
}

/** Reads the TSV and applies the image-column rules; returns the frame and one Series-like row per kept row. */
export async function readVlmTsv(
  path: string,
  io: LoaderIO,
  o: VlmTsvOptions = {}
): Promise<{ df: DataFrame; rows: TsvRow[] }> {
  const df = readTsv(await io.readText(path))
  const imageCol = df.columns.indexOf('image')
  let keep = Array.from({ length: df.length }, (_, i) => i)
  if (imageCol >= 0) keep = keep.filter((i) => !isNa(df.data[imageCol][i]))
  const cols = new Map<string, unknown[]>()
  df.columns.forEach((c, k) =>
    cols.set(
      c,
      keep.map((i) => df.data[k][i])
    )
  )
  const index = cols.get('index')
  if (o.indexAsStr) {
    if (!index) throw keyError('index')
    cols.set('index', index.map(cellStr))
  }
  if (cols.has('image')) {
    const images = cols.get('image')!.map(cellStr)
    const idx = cols.get('index')
    if (!idx) throw keyError('index')
    // Series iteration yields Python scalars: int64 → int, so the keys are ints.
    const map = new Map<string, { key: unknown; value: string }>()
    idx.forEach((k, i) => map.set(keyOf(k), { key: k, value: images[i] }))
    for (const entry of map.values()) {
      if (entry.value.length <= IMAGE_MAP_LEN) {
        const ref = entry.value
        const target = map.get(keyOf(ref))
        if (!target) {
          if (o.skipMissingRef) continue
          throw keyError(ref)
        }
        entry.value = target.value
      }
    }
    const lists = idx.map((k) => toliststr(map.get(keyOf(k))!.value))
    cols.set(
      'image',
      lists.map((x) => (x.length === 1 ? x[0] : x))
    )
  }
  if (cols.has('image_path')) {
    cols.set(
      'image_path',
      cols.get('image_path')!.map((x) => {
        const l = toliststr(x)
        return l.length === 1 ? l[0] : l
      })
    )
  }
  const names = [...cols.keys()]
  const rows: TsvRow[] = keep.map((_, r) => {
    const m = new Map(names.map((n) => [n, cols.get(n)![r]]))
    return { get: (k) => m.get(k), has: (k) => m.has(k) }
  })
  return { df: { ...df, length: keep.length }, rows }
}

/** dump_image (datasets/mmmu.py): the picture files of one row, decoded if not already there. */
export async function dumpImage(line: TsvRow, root: string, io: LoaderIO): Promise<string | string[]> {
  if (line.has('image')) {
    const image = line.get('image')
    if (Array.isArray(image)) {
      const names: unknown = line.has('image_path')
        ? line.get('image_path')
        : image.map((_, i) => `${cellStr(line.get('index'))}_${i}.png`)
      const list = Array.isArray(names) ? names : typeof names === 'string' ? [...names] : []
      const out: string[] = []
      for (let i = 0; i < Math.min(image.length, list.length); i++) {
        const p = pjoin(root, cellStr(list[i]))
        if (!(await io.exists(p))) await io.saveBase64Image(image[i], p)
        out.push(p)
      }
      return out
    }
    if (typeof image === 'string' && line.has('image_path')) {
      const p = pjoin(root, cellStr(line.get('image_path')))
      if (!(await io.exists(p))) await io.saveBase64Image(image, p)
      return [p]
    }
    const p = pjoin(root, `${cellStr(line.get('index'))}.jpg`)
    if (!(await io.exists(p))) await io.saveBase64Image(cellStr(image), p)
    return [p]
  }
  let tgt = toliststr(line.get('image_path'))
  const ok = await Promise.all(tgt.map((x) => io.exists(x)))
  if (!ok.every(Boolean)) tgt = tgt.map((x) => pjoin(root, x))
  return tgt
}

/** build_choices: option letters A–Z present and not NaN. */
export function buildChoices(line: TsvRow): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = []
  for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') if (line.has(ch) && !isNa(line.get(ch))) out.push([ch, line.get(ch)])
  return out
}

export { column }
