import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { openDataset } from '../../../main/services/datasets'
import { tmpDir, write } from './helpers'

describe('bad input is reported with its place and the rest loads', () => {
  const cases: Array<{ name: string; file: string; content: string | Buffer; code: string; line?: number; offset?: number; rows: number; opts?: object }> = [
    { name: 'malformed JSON line', file: 'a.jsonl', content: '{"a":1}\n{"a":\n{"a":3}\n', code: 'invalid-json', line: 2, offset: 8, rows: 2 },
    { name: 'a line that is not an object', file: 'a.jsonl', content: '{"a":1}\n[1,2]\n', code: 'not-an-object', line: 2, offset: 8, rows: 1 },
    {
      name: 'invalid UTF-8',
      file: 'a.jsonl',
      content: Buffer.concat([Buffer.from('{"a":1}\n{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"a":3}\n')]),
      code: 'invalid-utf8',
      line: 2,
      offset: 8,
      rows: 2
    },
    { name: 'unterminated CSV quote', file: 'a.csv', content: 'q,a\nx,1\n"broken,2\ny,3\n', code: 'unterminated-quote', line: 3, offset: 8, rows: 2 },
    { name: 'ragged CSV row', file: 'a.csv', content: 'q,a\nx,1\ny,2,extra\nz,3\n', code: 'ragged-row', line: 3, offset: 8, rows: 2 },
    { name: 'empty file', file: 'a.jsonl', content: '', code: 'empty-file', offset: 0, rows: 0 },
    { name: 'truncated JSON array', file: 'a.json', content: '[{"a":1},{"a":2},{"a":', code: 'json-structure', line: 1, offset: 17, rows: 2 },
    {
      name: 'a huge single line',
      file: 'a.jsonl',
      content: `{"a":1}\n{"big":"${'x'.repeat(5000)}"}\n{"a":3}\n`,
      code: 'row-too-large',
      line: 2,
      offset: 8,
      rows: 2,
      opts: { maxRowBytes: 1000 }
    }
  ]
  it.each(cases)('$name', async ({ file, content, code, line, offset, rows, opts }) => {
    const dir = tmpDir()
    const full = write(dir, file, content)
    const h = await openDataset(full, { cacheDir: null, ...opts })
    const err = h.errors.find((e) => e.code === code)
    expect(err, JSON.stringify(h.errors)).toBeDefined()
    expect(err!.at.file).toBe(full)
    if (line !== undefined) expect(err!.at.line).toBe(line)
    expect(err!.at.offset).toBe(offset)
    expect(h.rowCount).toBe(rows)
    const all = await h.readRows(h.splits[0]?.name ?? 'default', 0, 100)
    expect(all.every((r) => !r.error)).toBe(true)
  })

  it('counts each bad CSV record once: a ragged row and an unclosed quote are two skipped rows, two errors', async () => {
    const dir = tmpDir()
    const full = write(dir, 'a.csv', 'q,a\nx,1\ny,2,extra\n"z\nw",3\n"broken,2\nv,4\n')
    const h = await openDataset(full, { cacheDir: null })
    expect(h.errors.map((e) => [e.code, e.at.line])).toEqual([
      ['unterminated-quote', 6],
      ['ragged-row', 3]
    ])
    expect(h.skipped).toBe(2)
    expect(h.rowCount).toBe(3)
    rmSync(dir, { recursive: true, force: true })
  })

  it('reports a truncated Parquet file without crashing', async () => {
    const dir = tmpDir()
    const buf = Buffer.from(parquetWriteBuffer({ columnData: [{ name: 'q', data: ['a', 'b'], type: 'STRING' }] }))
    const full = write(dir, 'a.parquet', buf.subarray(0, buf.length - 20))
    const h = await openDataset(full, { cacheDir: null })
    expect(h.rowCount).toBe(0)
    // Placed at the footer it could not read (its length field at the end), not at byte 0.
    expect(h.errors[0]).toMatchObject({ code: 'parquet-corrupt', at: { file: full, offset: buf.length - 20 - 8 } })
    expect(h.errors[0].message).toMatch(/footer/)
  })

  it('reports a corrupt Parquet row group and skips its rows', async () => {
    const dir = tmpDir()
    const buf = Buffer.from(parquetWriteBuffer({ columnData: [{ name: 'q', data: ['aaaa', 'bbbb'], type: 'STRING' }] }))
    // Scribble over the data pages, leave the footer intact.
    for (let i = 4; i < 40 && i < buf.length - 100; i++) buf[i] = 0xff
    const full = write(dir, 'a.parquet', buf)
    const h = await openDataset(full, { cacheDir: null })
    const err = h.errors.find((e) => e.code === 'parquet-corrupt')
    expect(err, JSON.stringify(h.errors)).toBeDefined()
    expect(err!.at.file).toBe(full)
    expect(h.rowCount).toBe(0)
  })

  it('exports the skipped rows with their place and raw text', async () => {
    const dir = tmpDir()
    const full = write(dir, 'a.jsonl', '{"a":1}\nnot json\n{"a":3}\n{oops}\n')
    const h = await openDataset(full, { cacheDir: null })
    expect(h.skipped).toBe(2)
    const dest = path.join(dir, 'skipped.jsonl')
    expect(await h.exportSkipped(dest)).toBe(2)
    const lines = readFileSync(dest, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.line, l.offset, l.code, l.raw])).toEqual([
      [2, 8, 'invalid-json', 'not json'],
      [4, 25, 'invalid-json', '{oops}']
    ])
  })

  it('numbers readable rows contiguously around skipped ones', async () => {
    const dir = tmpDir()
    const h = await openDataset(write(dir, 'a.jsonl', '{"a":1}\nbad\n{"a":3}\n'), { cacheDir: null })
    expect((await h.readRows('default', 0, 10)).map((r) => [r.index, r.value, r.at.line])).toEqual([
      [0, { a: 1 }, 1],
      [1, { a: 3 }, 3]
    ])
  })
})
