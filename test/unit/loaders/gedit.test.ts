// GEditDataset over a `datasets.save_to_disk` folder the test writes: data-00000-of-00001.arrow as pyarrow wrote
// it (test/fixtures/arrow/make.py: 5 rows, two Image columns of Pillow PNGs), dataset_info.json and state.json.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createHash } from 'node:crypto'
import { LOADERS } from '../../../shared/loaders'
import { PilImage } from '../../../shared/loaders/hf-disk'
import { decodePicture } from '../../../main/services/loaders/node-io'
import { filesUnder, ioFor, put, workDir } from './fixtures'

const fx = path.join(__dirname, '../../fixtures/arrow')
const arrow = readFileSync(path.join(fx, 'gedit.arrow'))
const meta = JSON.parse(readFileSync(path.join(fx, 'gedit.json'), 'utf8')) as {
  features: Record<string, unknown>
  pictures: Array<Record<'input_image' | 'input_image_raw', { png: string; sha256: string }>>
}

function saveToDisk(dir: string, rel = 'GEdit-Bench'): string {
  put(dir, `${rel}/data-00000-of-00001.arrow`, arrow)
  put(dir, `${rel}/dataset_info.json`, JSON.stringify({ citation: '', description: '', features: meta.features }))
  put(
    dir,
    `${rel}/state.json`,
    JSON.stringify({
      _data_files: [{ filename: 'data-00000-of-00001.arrow' }],
      _fingerprint: 'x',
      _format_columns: null,
      _format_kwargs: {},
      _format_type: null,
      _output_all_columns: false,
      _split: null
    })
  )
  return path.join(dir, rel)
}

const content = (b64: string, text: string): string =>
  `<AIS_IMAGE_START>${b64}<AIS_CONTENT_TAG><AIS_TEXT_START>${text}<AIS_CONTENT_TAG>`

describe('GEditDataset', () => {
  it('split 1 of 3 over 5 rows takes rows 2–3 (the first 5 % 3 splits get one more row)', async () => {
    const w = workDir()
    const r = await LOADERS.GEditDataset({ path: saveToDisk(w.data), split_count: 3, split_index: 1 }, ioFor(w))
    expect(r.rows.map((x) => x.key)).toEqual(['0003', '0004'])
  })

  it('the last split of 3 over 5 rows is one row shorter', async () => {
    const w = workDir()
    const r = await LOADERS.GEditDataset({ path: saveToDisk(w.data), split_count: 3, split_index: 2 }, ioFor(w))
    expect(r.rows.map((x) => x.key)).toEqual(['0005'])
  })

  it('content is the picture as Pillow PNG base64, then the instruction, each closed by the tag', async () => {
    const w = workDir()
    const r = await LOADERS.GEditDataset({ path: saveToDisk(w.data), split_count: 5, split_index: 1 }, ioFor(w))
    expect(r.rows[0].content).toBe(content(meta.pictures[1].input_image.png, '把汽车的颜色改成红色 #1'))
  })

  it('use_raw takes input_image_raw', async () => {
    const w = workDir()
    const r = await LOADERS.GEditDataset(
      { path: saveToDisk(w.data), split_count: 5, split_index: 4, use_raw: true },
      ioFor(w)
    )
    expect(r.rows[0].content).toBe(content(meta.pictures[4].input_image_raw.png, '把汽车的颜色改成红色 #4'))
  })

  it('keeps every column, pictures as pictures, and adds content last', async () => {
    const w = workDir()
    const r = await LOADERS.GEditDataset({ path: saveToDisk(w.data), split_count: 5, split_index: 0 }, ioFor(w))
    expect(r.columns).toEqual([
      'key',
      'task_type',
      'instruction',
      'instruction_language',
      'input_image',
      'input_image_raw',
      'Intersection_exist',
      'content'
    ])
    const img = r.rows[0].input_image as PilImage
    expect(img).toBeInstanceOf(PilImage)
    const pic = await decodePicture(img.bytes!)
    expect([pic.mode, pic.width, pic.height]).toEqual(['RGB', 12, 10])
    expect(createHash('sha256').update(pic.pixels).digest('hex')).toBe(meta.pictures[0].input_image.sha256)
    expect(r.rows[0].Intersection_exist).toBe(true)
  })

  it('without split_count selects range(1212): smaller data fails with IndexError', async () => {
    const w = workDir()
    const err = await LOADERS.GEditDataset({ path: saveToDisk(w.data) }, ioFor(w)).catch((e) => e)
    expect(err.pyMessage).toBe('IndexError: Invalid key: 1211 is out of bounds for size 5')
  })

  it('a DatasetDict folder fails as load_from_disk(...).select does', async () => {
    const w = workDir()
    saveToDisk(w.data, 'dd/test')
    put(w.data, 'dd/dataset_dict.json', JSON.stringify({ splits: ['test'] }))
    const err = await LOADERS.GEditDataset({ path: path.join(w.data, 'dd'), split_count: 2 }, ioFor(w)).catch((e) => e)
    expect(err.pyClass).toBe('AttributeError')
  })

  it('a folder that is not a save_to_disk folder fails with FileNotFoundError', async () => {
    const w = workDir()
    put(w.data, 'plain/rows.jsonl', '{}\n')
    const err = await LOADERS.GEditDataset({ path: path.join(w.data, 'plain'), split_count: 2 }, ioFor(w)).catch(
      (e) => e
    )
    expect(err.pyClass).toBe('FileNotFoundError')
  })

  it('writes nothing beside the data', async () => {
    const w = workDir()
    const dir = saveToDisk(w.data)
    await LOADERS.GEditDataset({ path: dir, split_count: 2 }, ioFor(w))
    expect(filesUnder(dir)).toEqual(['data-00000-of-00001.arrow', 'dataset_info.json', 'state.json'])
  })
})
