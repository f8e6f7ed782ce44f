// The curated dataset export from a byte-range file goes through 'export-rows' batches: workers read the rows from
// their byte ranges and build the records. Its bytes must be those of records built from rows read on the main
// thread (the path Parquet and Arrow sources take), for every text format and media form, curation included.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MediaEncoding } from '../../../shared/api/types'
import type { Host } from '../../../main/api/host'
import { writeDatasetExport, type DatasetExportFormat } from '../../../main/services/export/dataset-export'
import { Workspace } from '../../../main/services/workspace/workspace'
import { makeImage, tempDir } from './fixtures'

const host: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }
const t = tempDir('batches')
let ws: Workspace

beforeAll(async () => {
  // A VLMEvalKit TSV: base64 pictures inline (two rows share one, as benchmark files repeat pictures), a quoted
  // field with a tab and a doubled quote, a non-ASCII question.
  const pics: string[] = []
  for (let i = 0; i < 3; i++) pics.push((await makeImage(join(t.dir, `p${i}.png`), 40 + i * 10, 30, i === 1 ? 'jpeg' : 'png')).toString('base64'))
  const rows = [
    ['0', 'Which colour?', 'red', 'A', pics[0]],
    ['1', '"a ""quoted""\ttab"', 'blue', 'B', pics[1]],
    ['2', 'Qu’est-ce que c’est ?', 'green', 'C', pics[2]],
    ['3', 'Again the first', 'red', 'A', pics[0]]
  ]
  writeFileSync(join(t.dir, 'mm.tsv'), ['index\tquestion\tA\tanswer\timage', ...rows.map((r) => r.join('\t'))].join('\n') + '\n')
  ws = new Workspace(host, { curation: 'memory' })
  await ws.session.open(join(t.dir, 'mm.tsv'))
  await ws.curation.apply({ indices: [0, 2] }, { kind: 'status', status: 'accepted' })
  await ws.curation.apply({ indices: [1] }, { kind: 'status', status: 'rejected' })
  await ws.curation.apply({ indices: [2] }, { kind: 'edit', field: 'question', value: 'Edited "question"?' })
  await ws.curation.apply({ indices: [2] }, { kind: 'tag', tag: 'hard', action: 'add' })
})
afterAll(() => {
  ws.close()
  t.remove()
})

/** The export's bytes through the app's path (batches), then through records built on this thread, same target. */
async function bothWays(format: DatasetExportFormat, media: MediaEncoding, curationColumns: boolean): Promise<[Buffer, Buffer]> {
  const target = join(t.dir, `out-${format}`)
  const clean = () => rmSync(join(t.dir, `out-${format}_media`), { recursive: true, force: true })
  await ws.exports.dataset({ only: 'not-rejected', format, media, curationColumns }, target)
  const viaBatches = readFileSync(target)
  clean()
  const p = ws.session.need()
  await writeDatasetExport({ target, format, rows: ws.exports.datasetRows('not-rejected'), columns: p.dataset.columns, encoder: ws.exports.mediaEncoder(media, target), curationColumns })
  const viaRows = readFileSync(target)
  clean()
  rmSync(target)
  return [viaBatches, viaRows]
}

describe('export from a byte-range file', () => {
  it('is cut into batches of byte ranges for the workers', () => {
    expect(ws.exports.datasetBatches('all')).not.toBeNull()
  })

  it.each([
    ['jsonl', { form: 'base64' }, false],
    ['jsonl', { form: 'keep' }, true],
    ['jsonl', { form: 'url' }, false],
    ['jsonl', { form: 'data-url', maxSide: 20 }, false],
    ['json', { form: 'base64' }, true],
    ['mm-custom', { form: 'keep' }, false],
    ['vlmeval-tsv', { form: 'keep' }, true]
  ] as Array<[DatasetExportFormat, MediaEncoding, boolean]>)('as %s with media %j (curation columns: %s) gives the bytes records built from rows read here give', async (format, media, curation) => {
    const [viaBatches, viaRows] = await bothWays(format, media, curation)
    expect(viaBatches.length).toBeGreaterThan(0)
    expect(viaBatches.equals(viaRows)).toBe(true)
  })
})
