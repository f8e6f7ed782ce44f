// GEditDataset.load (ais_bench/benchmark/datasets/g_edit.py): a `save_to_disk` folder read with load_from_disk,
// cut to one split, and each row given a `content` of its picture (PNG base64, utils/image_process.py:
// pil_to_base64(image, "PNG")) then its instruction, both closed by the content tag.
//  - split_count > 1: `split_count` contiguous splits, the first len % split_count of them one row longer; the
//    split_index-th is taken (dataset.select(range(start, end))).
//  - split_count <= 1: select(range(GEDIT_COUNT = 1212)): data with fewer rows fails with IndexError.
//  - use_raw: the picture is `input_image_raw`, else `input_image`.
//  - the row keeps every column (pictures stay pictures) and gets `content` (Dataset.from_dict per row, then
//    concatenate_datasets): columns = the dataset's, then `content` unless it was one already.
import { AIS_CONTENT_TAG, AIS_IMAGE_START, AIS_TEXT_START } from './ais-content'
import { PilImage, loadFromDisk } from './hf-disk'
import type { LoaderIO } from './io'
import { getDataPath } from './io'
import { PyError, cellStr, keyError } from './py'
import { pyTypeName } from '../python/json'
import { pillowPng } from '../media/pillow-png'
import type { LoaderResult } from './types'

const GEDIT_COUNT = 1212

/** Dataset._select_contiguous's bounds check (datasets.formatting: _check_valid_index_key). */
function checkKey(key: number, size: number): void {
  if ((key < 0 && key + size < 0) || key >= size)
    throw new PyError('IndexError', `Invalid key: ${key} is out of bounds for size ${size}`)
}

function pyInt(v: unknown, name: string, dflt: number): number {
  if (v === undefined) return dflt
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'boolean') return v ? 1 : 0
  throw new PyError('TypeError', `${name} must be an int, not ${cellStr(v)}`)
}

export async function loadGEdit(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  const useRaw = kwargs.use_raw === undefined ? false : !!kwargs.use_raw
  const splitCount = pyInt(kwargs.split_count, 'split_count', 1)
  const splitIndex = pyInt(kwargs.split_index, 'split_index', 0)
  const ds = await loadFromDisk(path, io)
  const total = ds.rows.length
  let start: number
  let end: number
  if (splitCount > 1) {
    const base = Math.floor(total / splitCount)
    const remainder = total % splitCount
    if (splitIndex < remainder) {
      start = splitIndex * (base + 1)
      end = start + base + 1
    } else {
      start = remainder * (base + 1) + (splitIndex - remainder) * base
      end = start + base
    }
  } else {
    start = 0
    end = GEDIT_COUNT
  }
  // Dataset.select on an empty dataset returns it unchanged; otherwise a contiguous range checks both ends.
  let rows = ds.rows
  if (total > 0) {
    if (start < 0 || end < start)
      throw new PyError('IndexError', `Invalid key: ${start} is out of bounds for size ${total}`)
    checkKey(start, total)
    checkKey(start + (end - start) - 1, total)
    rows = ds.rows.slice(start, end)
  }
  const imageColumn = useRaw ? 'input_image_raw' : 'input_image'
  const out: Record<string, unknown>[] = []
  for (const example of rows) {
    if (!(imageColumn in example)) throw keyError(imageColumn)
    const image = example[imageColumn]
    if (!(image instanceof PilImage))
      throw new PyError('AISBenchDataContentError', '[UTILS-UNK-001]Input must be a PIL Image object', { code: 'UTILS-UNK-001' })
    const pic = await io.decodePicture(image.bytes ?? (await io.readBytes(image.path ?? '')))
    if (pic.mode === 'CMYK') throw new PyError('OSError', 'cannot write mode CMYK as PNG')
    const b64 = io.base64(pillowPng(pic, io.deflate))
    if (!('instruction' in example)) throw keyError('instruction')
    const instruction = example.instruction
    if (typeof instruction !== 'string')
      throw new PyError('TypeError', `can only concatenate str (not "${pyTypeName(instruction)}") to str`)
    out.push({
      ...example,
      content: AIS_IMAGE_START + b64 + AIS_CONTENT_TAG + AIS_TEXT_START + instruction + AIS_CONTENT_TAG
    })
  }
  if (out.length === 0) throw new PyError('ValueError', 'Unable to concatenate an empty list of datasets.')
  const columns = ds.columns.includes('content') ? ds.columns : [...ds.columns, 'content']
  return { columns, rows: out, upstreamImageRoot: null, imageRoot: null }
}
