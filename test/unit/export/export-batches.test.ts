// The curated dataset export from a byte-range file goes through 'export-rows' batches: workers read the rows from
// their byte ranges and build the records. Its bytes must be those of records built from rows read on the main
// thread (the path Parquet and Arrow sources take), for every text format and media form, curation included.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
const wsSmall = () => ws

/** The export's bytes through the app's path (batches), then through records built on this thread, same target. */
async function bothWays(format: DatasetExportFormat, media: MediaEncoding, curationColumns: boolean, ws = wsSmall()): Promise<[Buffer, Buffer]> {
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

describe('export from a byte-range file in several batches', () => {
  // 700 rows: three batches (256 rows at most each), every one written into the file by its own task, in order.
  let many: Workspace
  beforeAll(async () => {
    const lines = Array.from({ length: 700 }, (_, i) => JSON.stringify({ id: i, question: `Question ${i}: "which"?`, image: `data:image/png;base64,${'iVBORw0KGgo'.repeat(1 + (i % 5))}` }))
    writeFileSync(join(t.dir, 'many.jsonl'), lines.join('\n') + '\n')
    many = new Workspace(host, { curation: 'memory' })
    await many.session.open(join(t.dir, 'many.jsonl'))
    // The scope leaves the first 300 rows out; the batches are cut from the 400 it keeps.
    await many.curation.apply({ indices: Array.from({ length: 300 }, (_, i) => i) }, { kind: 'status', status: 'rejected' })
  })
  afterAll(() => many.close())

  it.each(['jsonl', 'json', 'vlmeval-tsv'] as DatasetExportFormat[])('as %s gives the bytes records built from rows read here give', async (format) => {
    const [viaBatches, viaRows] = await bothWays(format, { form: 'keep' }, true, many)
    expect(viaBatches.toString('utf8').split('Question').length - 1).toBe(400)
    expect(viaBatches.equals(viaRows)).toBe(true)
  })

  it('cancelled after its first batch leaves no output and no temp file', async () => {
    const ctl = new AbortController()
    const target = join(t.dir, 'cancelled.jsonl')
    const r = await many.exports.dataset({ only: 'all', format: 'jsonl', media: { form: 'keep' } }, target, ctl.signal, (done) => {
      if (done > 0) ctl.abort()
    })
    expect(r.cancelled).toBe(true)
    expect(readdirSync(t.dir).filter((f) => f.startsWith('cancelled') || f.startsWith('.cancelled'))).toEqual([])
  })
})
