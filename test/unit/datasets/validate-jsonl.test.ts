// JSONL validation by byte range must give exactly what validation over the index gives: the same rows, row and
// line numbers, offsets and errors. Tiny batches push every row across a batch boundary.
import { describe, expect, it } from 'vitest'
import { scanJsonlRange, lineAlignedRanges } from '../../../main/services/datasets/jsonl-index'
import { validateRows } from '../../../main/services/datasets/validate-rows'
import { validateJsonlRange } from '../../../main/services/datasets/validate-jsonl'
import { tmpDir, write } from './helpers'

const ctx = { progress: () => undefined, aborted: () => false }
const limits = { maxErrors: 10000, maxFileRefs: 100 }

const long = JSON.stringify({ q: 'x'.repeat(300), image: 'a/b.png' })
const CONTENT = Buffer.concat([
  Buffer.from(`{"a":1}\r\n\n{"image":"img/1.png"}\n   \n{bad json}\n${long}\n`),
  Buffer.from([0x7b, 0x22, 0x71, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]), // {"q":"\xff"} — invalid UTF-8
  Buffer.from(`[1,2]\n${'{"big":"' + 'y'.repeat(200) + '"}'}\n{"last":true}`)
])

describe('validateJsonlRange', () => {
  it.each([16, 40, 100, 4096])('matches validation over the index with %i-byte batches', async (chunkBytes) => {
    const file = write(tmpDir(), 'a.jsonl', CONTENT)
    const maxRowBytes = 150 // the 200-byte row is too large, the 300-byte one too
    const idx = await scanJsonlRange({ file, start: 0, end: CONTENT.length }, ctx)
    const expected = await validateRows({ file, format: 'jsonl', ...idx, rowBase: 0, maxRowBytes, ...limits }, ctx)
    const got = await validateJsonlRange({ file, start: 0, end: CONTENT.length, rowBase: 0, lineBase: 0, maxRowBytes, ...limits, chunkBytes }, ctx)
    // The whitespace-only line 4 is not a row in the index; the range validation says so as a warning.
    const blank = got.errors.filter((e) => e.code === 'blank-line')
    expect(blank.map((e) => [e.severity, e.at.line, e.at.offset])).toEqual([['warning', 4, 32]])
    expect({ ...got, errors: got.errors.filter((e) => e.code !== 'blank-line'), errorCount: got.errorCount - 1 }).toEqual(expected)
    // bad JSON, too large, invalid UTF-8, an array, too large
    expect([...got.bad]).toEqual([2, 3, 4, 5, 6])
  })

  it('numbers rows and lines of a later range from the bases it is given', async () => {
    const text = Array.from({ length: 4000 }, (_, i) => (i % 7 === 3 ? '' : i % 11 === 5 ? '{oops' : JSON.stringify({ i, q: 'word '.repeat(i % 50) }))).join('\n')
    const file = write(tmpDir(), 'b.jsonl', text)
    const size = Buffer.byteLength(text)
    const idx = await scanJsonlRange({ file, start: 0, end: size }, ctx)
    const expected = await validateRows({ file, format: 'jsonl', ...idx, rowBase: 0, maxRowBytes: 1 << 20, ...limits }, ctx)
    const cuts = await lineAlignedRanges(file, size, 1)
    expect(cuts).toEqual([[0, size]])
    // Split by hand at a line start in the middle, as the workers would.
    const mid = text.indexOf('\n', size >> 1) + 1
    const first = await scanJsonlRange({ file, start: 0, end: mid }, ctx)
    const a = await validateJsonlRange({ file, start: 0, end: mid, rowBase: 0, lineBase: 0, maxRowBytes: 1 << 20, ...limits, chunkBytes: 512 }, ctx)
    const b = await validateJsonlRange({ file, start: mid, end: size, rowBase: first.starts.length, lineBase: first.newlines, maxRowBytes: 1 << 20, ...limits, chunkBytes: 512 }, ctx)
    expect([...a.bad, ...b.bad]).toEqual([...expected.bad])
    expect([...a.errors, ...b.errors]).toEqual(expected.errors)
  })
})
