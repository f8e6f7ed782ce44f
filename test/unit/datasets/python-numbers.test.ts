// Rows read for rendering keep Python's number types: 1.0 stays a float (PyFloat) so str() prints "1.0" as
// OpenCompass does, integers stay numbers, and integers past 2^53 stay exact (bigint).
import { describe, expect, it } from 'vitest'
import { PyFloat } from '../../../shared/python/json'
import { openDataset, peekJsonl } from '../../../main/services/datasets'
import { tmpDir, write } from './helpers'

describe('Python numbers in rows read for rendering', () => {
  it.each([
    ['jsonl', 'a.jsonl', (row: string) => `${row}\n`],
    ['json array', 'a.json', (row: string) => `[${row}]`]
  ])('%s: readRow of {"x": 1.0} gives a PyFloat', async (_name, name, wrap) => {
    const h = await openDataset(write(tmpDir(), name, wrap('{"x": 1.0}')), { cacheDir: null })
    const x = (await h.readRow('default', 0))?.value.x
    expect(x).toBeInstanceOf(PyFloat)
    expect((x as PyFloat).value).toBe(1)
  })

  it('readRow of {"x": 1} gives a plain number', async () => {
    const h = await openDataset(write(tmpDir(), 'a.jsonl', '{"x": 1}\n'), { cacheDir: null })
    expect((await h.readRow('default', 0))?.value).toEqual({ x: 1 })
  })

  it('keeps a non-integral float a number and a row without floats unchanged', async () => {
    const h = await openDataset(write(tmpDir(), 'a.jsonl', '{"x": 2.5, "y": 3}\n{"s": "1.0 in text", "n": 4}\n'), { cacheDir: null })
    const rows = (await h.readRows('default', 0, 2)).map((r) => r.value)
    expect(rows).toEqual([{ x: 2.5, y: 3 }, { s: '1.0 in text', n: 4 }])
  })

  it('keeps an integer past 2^53 exact', async () => {
    const h = await openDataset(write(tmpDir(), 'a.jsonl', '{"id": 12345678901234567890}\n'), { cacheDir: null })
    expect((await h.readRow('default', 0))?.value.id).toBe(12345678901234567890n)
  })

  it('gives the first rows (before indexing) the same Python numbers', async () => {
    const file = write(tmpDir(), 'a.jsonl', '{"x": 1.0}\n{"x": 1}\n')
    const rows = await peekJsonl(file, 2)
    expect(rows[0].value.x).toBeInstanceOf(PyFloat)
    expect(rows[1].value.x).toBe(1)
  })
})

describe('Python numbers in Parquet rows read for rendering', () => {
  it('gives DOUBLE 1.0 as a PyFloat, 2.5 as a number, INT64 1 as a number and past 2^53 as a bigint', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'x', data: [1.0, 2.5], type: 'DOUBLE' },
        { name: 'n', data: [1n, 9007199254740993n], type: 'INT64' }
      ]
    })
    const h = await openDataset(write(tmpDir(), 'a.parquet', Buffer.from(buf)), { cacheDir: null })
    const [a, b] = (await h.readRows('default', 0, 2)).map((r) => r.value)
    expect(a.x).toBeInstanceOf(PyFloat)
    expect((a.x as PyFloat).value).toBe(1)
    expect(a.n).toBe(1)
    expect(b.x).toBe(2.5)
    expect(b.n).toBe(9007199254740993n)
    expect(h.columns.map((c) => [c.name, c.type])).toEqual([['x', 'number'], ['n', 'integer']])
  })
})
