// DatasetHandle.rowSpans: where rows are in a byte-range file, so a worker can read them itself (readSpans) and
// get the rows the handle's readRows gives; null where rows are not byte ranges (Parquet).
import { parquetWriteBuffer } from 'hyparquet-writer'
import { describe, expect, it } from 'vitest'
import { openDataset } from '../../../main/services/datasets'
import { readSpans } from '../../../main/services/datasets/row-spans'
import { tmpDir, write } from './helpers'

describe('rowSpans', () => {
  it('names the bytes of rows that read back as readRows gives them, skipped rows left out', async () => {
    // Row 2 is ragged (skipped at validation), so rows after it are renumbered.
    const file = write(tmpDir(), 'a.tsv', 'q\ta\nx\t1\n"quoted\ttab"\t2\nragged\n\u00e9t\u00e9\t4\nlast\t5\n')
    const h = await openDataset(file, { cacheDir: null })
    const spans = h.rowSpans('default', 1, 3)!
    expect(spans.map((s) => s.indices)).toEqual([[1, 2, 3]])
    expect(await readSpans(spans[0])).toEqual(await h.readRows('default', 1, 3))
  })

  it('is null for a Parquet file', async () => {
    const buf = parquetWriteBuffer({ columnData: [{ name: 'q', data: ['a', 'b'], type: 'STRING' }] })
    const h = await openDataset(write(tmpDir(), 'a.parquet', Buffer.from(buf)), { cacheDir: null })
    expect(h.rowSpans('default', 0, 2)).toBeNull()
  })
})
