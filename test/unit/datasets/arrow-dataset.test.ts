// A Hugging Face `datasets.save_to_disk` folder opens as a dataset, as Parquet does: state.json's Arrow shards in
// order, Image columns kept as media ({bytes, path} structs, never text), rows read batch by batch on demand;
// a DatasetDict folder gives one split per dataset_dict.json entry, and a lone .arrow stream opens too.
// The shards are real pyarrow output (test/fixtures/arrow/make.py); the folders around them are written here.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDataset } from '../../../main/services/datasets'
import { runInspect } from '../../../main/cli/inspect'
import { tmpDir, write } from './helpers'

const fx = path.join(__dirname, '../../fixtures/arrow')
const arrow = readFileSync(path.join(fx, 'gedit.arrow'))
const meta = JSON.parse(readFileSync(path.join(fx, 'gedit.json'), 'utf8')) as {
  features: Record<string, unknown>
  pictures: Array<Record<'input_image' | 'input_image_raw', { png: string }>>
}

/** A Dataset folder as save_to_disk writes it; `split` is state.json's `_split`. */
function savedDataset(dir: string, rel: string, split: string | null = null): string {
  write(dir, `${rel}/data-00000-of-00001.arrow`, arrow)
  write(dir, `${rel}/dataset_info.json`, JSON.stringify({ citation: '', description: '', features: meta.features }))
  write(
    dir,
    `${rel}/state.json`,
    JSON.stringify({
      _data_files: [{ filename: 'data-00000-of-00001.arrow' }],
      _fingerprint: 'f',
      _format_columns: null,
      _format_kwargs: {},
      _format_type: null,
      _output_all_columns: false,
      _split: split
    })
  )
  return path.join(dir, rel)
}

describe('save_to_disk folders as datasets', () => {
  it('reads the rows state.json lists, not its JSON files as data', async () => {
    const d = savedDataset(tmpDir(), 'GEdit-Bench')
    const h = await openDataset(d, { cacheDir: null })
    expect(h.splits.map((s) => [s.name, s.rowCount])).toEqual([['default', 5]])
    expect(h.errors).toEqual([])
    expect(h.columns.map((c) => c.name)).toEqual([
      'key',
      'task_type',
      'instruction',
      'instruction_language',
      'input_image',
      'input_image_raw',
      'Intersection_exist'
    ])
  })

  it('keeps Image columns as media: the stored {bytes, path} struct, bytes tagged', async () => {
    const h = await openDataset(savedDataset(tmpDir(), 'g'), { cacheDir: null })
    expect(h.columns.filter((c) => c.media).map((c) => [c.name, c.media])).toEqual([
      ['input_image', 'image'],
      ['input_image_raw', 'image']
    ])
    const row = (await h.readRow('default', 0))!.value
    expect(row.input_image).toEqual({ bytes: { $bytes: meta.pictures[0].input_image.png }, path: null })
    expect(row.Intersection_exist).toBe(true)
    expect(h.media.byKind).toEqual({ bytes: 10 })
  })

  it('reads a window of rows from the record batch that holds it', async () => {
    const h = await openDataset(savedDataset(tmpDir(), 'g'), { cacheDir: null })
    const rows = await h.readRows('default', 3, 2)
    expect(rows.map((r) => [r.index, r.value.key])).toEqual([
      [3, '0004'],
      [4, '0005']
    ])
  })

  it('a DatasetDict folder has one split per entry of dataset_dict.json', async () => {
    const dir = tmpDir()
    savedDataset(dir, 'dd/train', 'train')
    savedDataset(dir, 'dd/test', 'test')
    write(dir, 'dd/dataset_dict.json', JSON.stringify({ splits: ['train', 'test'] }))
    const h = await openDataset(path.join(dir, 'dd'), { cacheDir: null })
    expect(h.splits.map((s) => [s.name, s.rowCount])).toEqual([
      ['train', 5],
      ['test', 5]
    ])
  })

  it('opens a lone .arrow stream file', async () => {
    const f = write(tmpDir(), 'cache-train.arrow', arrow)
    const h = await openDataset(f, { cacheDir: null })
    expect(h.format).toBe('arrow')
    expect(h.rowCount).toBe(5)
  })

  it('a truncated shard is one error naming the byte, not a crash', async () => {
    const dir = tmpDir()
    const d = savedDataset(dir, 'g')
    writeFileSync(path.join(d, 'data-00000-of-00001.arrow'), arrow.subarray(0, arrow.length - 100))
    const h = await openDataset(d, { cacheDir: null })
    expect(h.rowCount).toBe(0)
    expect(h.errors[0]).toMatchObject({ code: 'arrow-corrupt', severity: 'error' })
    expect(h.errors[0].message).toMatch(/^Not a readable Arrow stream: .*byte \d+/)
  })

  it('promptloom inspect lists the Image columns as media', async () => {
    const d = savedDataset(tmpDir(), 'g')
    let out = ''
    const code = await runInspect([d, '--no-cache'], { stdout: (s) => (out += s), stderr: () => undefined })
    expect(code).toBe(0)
    expect(out).toContain('rows: 5')
    expect(out).toMatch(/input_image\s+object\s+present in 5\s+image \(media: shown as media, never prompt text\)/)
  })
})
