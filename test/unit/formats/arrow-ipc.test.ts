// The Arrow IPC stream reader against streams pyarrow 25 wrote (test/fixtures/arrow/make.py): every value as
// pyarrow's to_pylist gives it, batches read on their own, and corrupt files as ArrowError with a byte offset.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ArrowError, ArrowStreamReader, indexArrowStream } from '../../../shared/formats/arrow-ipc'

const dir = path.join(__dirname, '../../fixtures/arrow')
const types = new Uint8Array(readFileSync(path.join(dir, 'types.arrow')))
const expected = JSON.parse(readFileSync(path.join(dir, 'types.json'), 'utf8')) as Record<string, unknown>[]

/** The fixture's JSON spelling: bytes tagged, NaN as a string, 64-bit ints as numbers. */
function plain(v: unknown): unknown {
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString('base64') }
  if (typeof v === 'bigint') return Number(v)
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN'
  if (Array.isArray(v)) return v.map(plain)
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
  return v
}

describe('Arrow IPC stream reader', () => {
  it('reads the schema: names, types, nesting and the huggingface metadata', async () => {
    const r = await ArrowStreamReader.fromBytes(types)
    expect(r.schema.fields.map((f) => f.name)).toEqual(Object.keys(expected[0]))
    const st = r.schema.fields.find((f) => f.name === 'st')!
    expect(st.type).toEqual({ kind: 'struct' })
    expect(st.children.map((c) => [c.name, c.type.kind])).toEqual([
      ['bytes', 'binary'],
      ['path', 'utf8']
    ])
    expect(r.schema.fields.find((f) => f.name === 'dict')!.dictionary).not.toBeNull()
    expect(r.schema.metadata.get('huggingface')).toBe('{"x": 1}')
  })

  it('gives every value as pyarrow does, across two record batches', async () => {
    const r = await ArrowStreamReader.fromBytes(types)
    expect(r.rowCount).toBe(3)
    expect(r.index.batches.map((b) => [b.firstRow, b.rows])).toEqual([
      [0, 2],
      [2, 1]
    ])
    const rows = await r.rows()
    // Timestamps are ISO strings with a Z; the fixture has none, so the comparison is exact.
    expect(plain(rows)).toEqual(expected)
  })

  it('keeps a 64-bit integer beyond 2^53 exact as a bigint', async () => {
    const r = await ArrowStreamReader.fromBytes(types)
    expect((await r.rows(0, 1))[0].i64).toBe(2n ** 60n)
  })

  it('reads only the batch that holds the rows asked for', async () => {
    const reads: Array<[number, number]> = []
    const r = await ArrowStreamReader.open(async (pos, len) => {
      reads.push([pos, len])
      return types.subarray(pos, pos + len)
    }, types.length)
    const [first, second] = r.index.batches
    reads.length = 0
    const rows = await r.rows(2, 3)
    expect(rows.map((x) => x.s)).toEqual(['héllo'])
    expect(reads.some(([pos]) => pos === second.bodyStart)).toBe(true)
    expect(reads.some(([pos]) => pos === first.bodyStart)).toBe(false)
  })

  it('wraps floats when asked (Python floats), leaving ints alone', async () => {
    const r = await ArrowStreamReader.fromBytes(types, { float: (x) => ({ f: x }) })
    const row = (await r.rows(0, 1))[0]
    expect(row.f64).toEqual({ f: 1 })
    expect(row.i8).toBe(1)
  })

  it('names the byte where a truncated stream ends', async () => {
    const cut = types.subarray(0, types.length - 40)
    const err = await ArrowStreamReader.fromBytes(cut).catch((e) => e)
    expect(err).toBeInstanceOf(ArrowError)
    expect(err.message).toMatch(/claims \d+ bytes; the file has \d+ left/)
  })

  it('refuses a file that is not an Arrow stream', async () => {
    const bytes = new TextEncoder().encode('{"not": "arrow"}\n')
    const err = await indexArrowStream(async (p, n) => bytes.subarray(p, p + n), bytes.length).catch((e) => e)
    expect(err).toBeInstanceOf(ArrowError)
    expect(err.message).toMatch(/Not an Arrow IPC stream/)
  })

  it('reports a buffer pointing outside the body instead of reading garbage', async () => {
    const r0 = await ArrowStreamReader.fromBytes(types)
    const b = r0.index.batches[0]
    // The same header over an 8-byte body: its buffers' offsets point past the end.
    const r = new ArrowStreamReader({ ...r0.index, batches: [{ ...b, bodyLength: 8 }] }, async (p, n) =>
      types.subarray(p, p + n)
    )
    const err = await r.rows(0, 1).catch((e) => e)
    expect(err).toBeInstanceOf(ArrowError)
    expect(err.message).toMatch(/outside the message body/)
  })
})
