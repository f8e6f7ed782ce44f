// JSONL edge cases from issue #10 (item 10): a BOM before the first row, whitespace-only lines, and one huge
// line of `[` that used to stall the reader for minutes.
import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { openDataset } from '../../../main/services/datasets'
import { peekJsonl } from '../../../main/services/datasets/open-dataset'
import { tmpDir, write } from './helpers'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const file = (name: string, content: string | Buffer): string => {
  const d = tmpDir()
  dirs.push(d)
  return write(d, name, content)
}

describe('JSONL edges', () => {
  it('a UTF-8 BOM before the first row is not part of it', async () => {
    const h = await openDataset(file('bom.jsonl', '\uFEFF{"q":"first"}\n{"q":"second"}\n'), { cacheDir: null })
    expect(h.errors).toEqual([])
    expect(h.rowCount).toBe(2)
    const rows = await h.readRows(h.splits[0].name, 0, 2)
    expect(rows.map((r) => [r.value?.q, r.at])).toEqual([
      ['first', expect.objectContaining({ line: 1, offset: 3 })],
      ['second', expect.objectContaining({ line: 2, offset: 17 })]
    ])
  })

  it('whitespace-only lines are not rows, and each is said as a warning with its line', async () => {
    const h = await openDataset(file('ws.jsonl', '{"q":1}\n   \n{"q":2}\n\t\r\n\n{"q":3}\n  '), { cacheDir: null })
    expect(h.rowCount).toBe(3)
    expect(h.skipped).toBe(0)
    expect(h.errors.map((e) => [e.code, e.severity, e.at.line])).toEqual([
      ['blank-line', 'warning', 2],
      ['blank-line', 'warning', 4],
      ['blank-line', 'warning', 7]
    ])
    const rows = await h.readRows(h.splits[0].name, 0, 3)
    expect(rows.map((r) => [r.value?.q, r.at.line])).toEqual([
      [1, 1],
      [2, 3],
      [3, 6]
    ])
  })

  it('a whitespace-only line longer than a read batch is still not a row', async () => {
    const h = await openDataset(file('long-ws.jsonl', `{"q":1}\n${' '.repeat(3 << 20)}\n{"q":2}\n`), { cacheDir: null })
    expect([h.rowCount, h.skipped]).toEqual([2, 0])
    expect(h.errors.map((e) => [e.code, e.at.line])).toEqual([['blank-line', 2]])
  })

  it('the peek before the index skips the BOM and blank lines too', async () => {
    const rows = await peekJsonl(file('peek.jsonl', '\uFEFF{"q":1}\n \n{"q":2}\n'), 5)
    expect(rows.map((r) => r.value.q)).toEqual([1, 2])
  })

  it('a line nested 2 million levels deep is refused in well under a second, not parsed for minutes', async () => {
    const deep = '['.repeat(2_000_000)
    const t0 = performance.now()
    const h = await openDataset(file('deep.jsonl', `{"q":1}\n${deep}\n{"q":3}\n`), { cacheDir: null })
    expect(performance.now() - t0).toBeLessThan(3000)
    expect(h.rowCount).toBe(2)
    expect(h.errors.map((e) => [e.code, e.at.line, e.at.offset])).toEqual([['json-too-deep', 2, 8]])
  })

  it('nesting within the limit, and brackets inside strings, still parse', async () => {
    const ok = `{"a":${'['.repeat(5000)}${']'.repeat(5000)},"s":"${'['.repeat(20000)}"}`
    const h = await openDataset(file('ok.jsonl', `${ok}\n`), { cacheDir: null })
    expect([h.rowCount, h.errors]).toEqual([1, []])
  })
})
