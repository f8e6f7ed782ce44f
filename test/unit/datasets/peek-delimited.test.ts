// The first rows of a CSV/TSV before it is indexed (what the app shows while a large file is indexed): the index's
// own scanner over the file's first bytes, rows read as the handle reads them.
import { describe, expect, it } from 'vitest'
import { openDataset } from '../../../main/services/datasets'
import { scanCsvFile } from '../../../main/services/datasets/csv-index'
import { peekDelimited } from '../../../main/services/datasets/open-dataset'
import { tmpDir, write } from './helpers'

const noCtx = { progress: () => {}, aborted: () => false }

describe('peekDelimited', () => {
  it('gives the first rows as readRows gives them, quoted fields and an unreadable row included', async () => {
    // The ragged row is left out and the rows after it numbered as validation numbers them.
    const file = write(tmpDir(), 'a.tsv', 'q\ta\n"multi\nline"\t1\nragged\n"say ""hi"""\t3\nlast\t4\n')
    const peek = await peekDelimited(file, 'tsv', 2)
    const h = await openDataset(file, { cacheDir: null })
    expect(peek.map((r) => [r.index, r.value])).toEqual((await h.readRows('default', 0, 2)).map((r) => [r.index, r.value]))
  })
})

describe('scanCsvFile with maxBytes', () => {
  it('indexes only the records wholly inside the first maxBytes', async () => {
    const text = 'q,a\nx,1\n"y\nz",2\nlong,33333\n'
    const file = write(tmpDir(), 'a.csv', text)
    // The limit falls inside the last record.
    const scan = await scanCsvFile({ file, delimiter: ',', maxBytes: text.indexOf('33333') }, noCtx)
    expect([scan.header, [...scan.starts], [...scan.ends]]).toEqual([['q', 'a'], [4, 8], [7, 15]])
  })
})
