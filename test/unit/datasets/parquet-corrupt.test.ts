// Corrupt Parquet (issue #10, item 7): every flipped byte of a valid snappy file with small pages gives either
// the right rows or clean 'parquet-corrupt' errors that name the row group, column chunk or footer and a byte
// offset inside the file, in bounded time — never a hang, a JavaScript TypeError, or "byte 0" for everything.
import { rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { openDataset } from '../../../main/services/datasets'
import { openParquet, readParquetRows, validateParquet } from '../../../main/services/datasets/parquet-source'
import { tmpDir, write } from './helpers'

const dir = tmpDir()
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const N = 300
/** Three row groups of 100 rows, pages of ~256 bytes, snappy: many small pages and page headers to hit. */
function sample(): Buffer {
  return Buffer.from(
    parquetWriteBuffer({
      columnData: [
        { name: 'id', data: Array.from({ length: N }, (_, i) => BigInt(i)), type: 'INT64' },
        { name: 'q', data: Array.from({ length: N }, (_, i) => `question number ${i} about something ${i % 7}`), type: 'STRING' },
        { name: 'score', data: Array.from({ length: N }, (_, i) => i / 3), type: 'DOUBLE' }
      ],
      pageSize: 256,
      rowGroupSize: 100
    })
  )
}
const BASE = sample()

/** Opens and validates a file the way the app does (in-process), then reads every row; returns what happened. */
async function readAll(buf: Buffer, name: string) {
  const file = write(dir, name, buf)
  const o = await openParquet(file)
  if (!o.ok) return { errors: [o.error], rows: 0 }
  const part = await validateParquet(o.pq, { maxErrors: 100, maxFileRefs: 10, aborted: () => false, progress: () => undefined })
  let rows = 0
  const readErrors: string[] = []
  for (let g = 0; g + 1 < o.pq.groupStarts.length; g++) {
    try {
      rows += (await readParquetRows(o.pq, o.pq.groupStarts[g], o.pq.groupStarts[g + 1])).length
    } catch (e) {
      readErrors.push((e as Error).message)
    }
  }
  return { errors: part.errors, rows, readErrors }
}

describe('corrupt Parquet', () => {
  it('reads the intact sample', async () => {
    const r = await readAll(BASE, 'ok.parquet')
    expect([r.errors, r.rows]).toEqual([[], N])
  })

  it('a flipped byte in a page header (once an endless loop) is a clean error at its page, quickly', async () => {
    const flipped = Buffer.from(BASE)
    flipped[8480] ^= 0xff
    const t0 = performance.now()
    const r = await readAll(flipped, 'hang.parquet')
    expect(performance.now() - t0).toBeLessThan(2000)
    expect(r.errors.map((e) => [e.code, e.at.row])).toEqual([['parquet-corrupt', 200]])
    expect(r.errors[0].message).toMatch(/^Row group 2, column q, page \d+ at byte 8\d\d\d: .*; rows 200–299 skipped$/)
    expect(r.errors[0].at.offset).toBeGreaterThan(8000)
    expect(r.rows).toBe(200)
  })

  it('a flipped footer byte is a clean footer error at the footer, not a Node internal message', async () => {
    const flipped = Buffer.from(BASE)
    flipped[10123] ^= 0xff
    const r = await readAll(flipped, 'footer.parquet')
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0].message).toMatch(/footer/)
    expect(r.errors[0].message).not.toMatch(/argument must be|Cannot read properties|is not a function/)
    expect(r.errors[0].at.offset).toBeGreaterThan(9000)
  })

  it('the CLI-facing open of that file answers with data, not an exception', async () => {
    const flipped = Buffer.from(BASE)
    flipped[10123] ^= 0xff
    const h = await openDataset(write(dir, 'cli.parquet', flipped), { cacheDir: null })
    expect(h.errors.map((e) => e.code)).toEqual(['parquet-corrupt'])
  })

  it('every 31st byte flipped: right rows or clean placed errors, each file in bounded time', async () => {
    const stats = { files: 0, clean: 0, placed: 0, intact: 0, slowest: 0 }
    for (let off = 0; off < BASE.length; off += 31) {
      const flipped = Buffer.from(BASE)
      flipped[off] ^= 0xff
      const t0 = performance.now()
      const r = await readAll(flipped, 'fuzz.parquet')
      stats.slowest = Math.max(stats.slowest, performance.now() - t0)
      stats.files++
      const messages = [...r.errors.map((e) => e.message), ...(r.readErrors ?? [])]
      for (const m of messages) expect(m, `byte ${off}`).not.toMatch(/Cannot read properties|is not a function|is not iterable|argument must be/)
      for (const e of r.errors) {
        expect(e.code, `byte ${off}`).toBe('parquet-corrupt')
        expect(e.at.offset, `byte ${off}: ${e.message}`).toBeGreaterThan(0)
        expect(e.at.offset).toBeLessThan(BASE.length)
        expect(e.message).toMatch(/Row group \d+|footer/)
      }
      if (r.errors.length === 0) stats.intact++
      else stats.placed++
      stats.clean++
    }
    expect(stats.slowest).toBeLessThan(3000)
    expect(stats.clean).toBe(stats.files)
  }, 120_000)
})
