// The curated dataset export (issue #9 item 6): each format written through the workspace (the app's and the
// CLI's path) and read back — JSONL, AISBench mm_custom, VLMEvalKit TSV through the app's own reader, Parquet
// through hyparquet — with scope, field edits, curation columns and media encodings.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import { openDataset } from '../../../main/services/datasets'
import { Workspace } from '../../../main/services/workspace/workspace'
import { main } from '../../../main/cli/index'
import { makeImage, makeWav, tempDir } from './fixtures'

const host: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }
const t = tempDir('ds')
let images: Buffer[]
let wav: Buffer
let ws: Workspace

beforeAll(async () => {
  const data = join(t.dir, 'data')
  const { mkdirSync } = await import('node:fs')
  mkdirSync(join(data, 'media'), { recursive: true })
  images = []
  for (let i = 0; i < 4; i++) images.push(await makeImage(join(data, 'media', `p${i}.png`), 80 + i * 40, 60))
  wav = makeWav(join(data, 'media', 'a.wav'))
  const rows = [0, 1, 2, 3].map((i) => ({ id: i, question: `What is in picture ${i}?`, answer: 'ABCD'[i], image: `media/p${i}.png`, score: i + 0.5 }))
  writeFileSync(join(data, 'test.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  ws = new Workspace(host, { curation: 'memory' })
  await ws.session.open(join(data, 'test.jsonl'))
  await ws.curation.apply({ indices: [0, 2] }, { kind: 'status', status: 'accepted' })
  await ws.curation.apply({ indices: [1] }, { kind: 'status', status: 'rejected' })
  await ws.curation.apply({ indices: [2] }, { kind: 'edit', field: 'question', value: 'Edited question?' })
  await ws.curation.apply({ indices: [2] }, { kind: 'tag', tag: 'hard', action: 'add' })
})
afterAll(() => {
  ws.close()
  t.remove()
})

const out = (name: string) => join(t.dir, name)
const noTemps = () => readdirSync(t.dir).filter((f) => f.endsWith('.tmp'))

describe('JSONL', () => {
  it('keeps the not-rejected rows with edits applied and images as base64 equal to the files', async () => {
    const r = await ws.exports.dataset({ only: 'not-rejected', format: 'jsonl', media: { form: 'base64' } }, out('a.jsonl'))
    expect([r.rows, r.media, r.mediaFailed]).toEqual([3, 3, 0])
    const rows = readFileSync(out('a.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(rows.map((x) => x.id)).toEqual([0, 2, 3])
    expect(rows[1].question).toBe('Edited question?')
    expect(rows.map((x) => Buffer.from(x.image, 'base64').equals(images[x.id]))).toEqual([true, true, true])
    expect(rows[0].score).toBe(0.5)
  })

  it('adds curation columns when asked', async () => {
    await ws.exports.dataset({ only: 'accepted', format: 'jsonl', media: { form: 'keep' }, curationColumns: true }, out('b.jsonl'))
    const rows = readFileSync(out('b.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(rows.map((x) => [x.id, x.image, x.curation_status, x.curation_tags, x.curation_edited])).toEqual([
      [0, 'media/p0.png', 'accepted', [], []],
      [2, 'media/p2.png', 'accepted', ['hard'], ['question']]
    ])
  })
})

describe('AISBench mm_custom', () => {
  it('writes {type, path, question, answer} with absolute paths to the (unchanged) files', async () => {
    const r = await ws.exports.dataset({ only: 'accepted', format: 'mm-custom', media: { form: 'keep' } }, out('c.jsonl'))
    expect(r.rows).toBe(2)
    const rows = readFileSync(out('c.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(rows[1]).toEqual({ type: 'image', path: [join(t.dir, 'data', 'media', 'p2.png')], question: 'Edited question?', answer: 'C' })
  })

  it('writes re-encoded images into the export media folder and points to them', async () => {
    await ws.exports.dataset({ only: 'accepted', format: 'mm-custom', media: { form: 'path', maxSide: 50, format: 'jpeg' } }, out('d.jsonl'))
    const rows = readFileSync(out('d.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const p = rows[0].path[0] as string
    expect(p.startsWith(join(t.dir, 'd_media') + '/')).toBe(true)
    const m = await sharp(readFileSync(p)).metadata()
    expect([m.format, Math.max(m.width, m.height)]).toEqual(['jpeg', 50])
  })
})

describe('VLMEvalKit TSV', () => {
  it('quotes every field and reads back through the app reader with base64 images equal to the files', async () => {
    await ws.exports.dataset({ only: 'all', format: 'vlmeval-tsv', media: { form: 'keep' } }, out('e.tsv'))
    const text = readFileSync(out('e.tsv'), 'utf8')
    expect(text.split('\n')[0]).toBe('"id"\t"question"\t"answer"\t"image"\t"score"')
    const ds = await openDataset(out('e.tsv'))
    const recs = await ds.readRows(ds.splits[0].name, 0, 10)
    expect(recs.map((r) => r.value.id)).toEqual(['0', '1', '2', '3'])
    expect(recs.map((r) => Buffer.from(String(r.value.image), 'base64').equals(images[Number(r.value.id)]))).toEqual([true, true, true, true])
    expect(recs[2].value.question).toBe('Edited question?')
  })

  it('writes a row with several images as a Python list literal', async () => {
    const d = tempDir('multi')
    try {
      const img = join(d.dir, 'x.png')
      const bytes = await makeImage(img, 30, 30)
      writeFileSync(join(d.dir, 'm.jsonl'), JSON.stringify({ index: 7, question: 'q "quoted"', image: ['x.png', 'x.png'] }) + '\n')
      const w2 = new Workspace(host, { curation: 'memory' })
      await w2.session.open(join(d.dir, 'm.jsonl'))
      await w2.exports.dataset({ only: 'all', format: 'vlmeval-tsv', media: { form: 'keep' } }, join(d.dir, 'm.tsv'))
      w2.close()
      const line = readFileSync(join(d.dir, 'm.tsv'), 'utf8').split('\n')[1]
      const b64 = bytes.toString('base64')
      expect(line).toBe(`"7"\t"q ""quoted"""\t"['${b64}', '${b64}']"`)
    } finally {
      d.remove()
    }
  })
})

describe('Hugging Face Parquet', () => {
  it('writes Image structs and the huggingface metadata; hyparquet reads the bytes back', async () => {
    const r = await ws.exports.dataset({ only: 'not-rejected', format: 'hf-parquet', media: { form: 'keep' }, curationColumns: true }, out('f.parquet'))
    expect(r.rows).toBe(3)
    const { parquetMetadataAsync, parquetReadObjects } = await import('hyparquet')
    const buf = readFileSync(out('f.parquet'))
    const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)
    const meta = await parquetMetadataAsync(file)
    const hf = JSON.parse(meta.key_value_metadata!.find((k) => k.key === 'huggingface')!.value!)
    expect(hf.info.features.image).toEqual({ _type: 'Image' })
    expect(hf.info.features.question).toEqual({ dtype: 'string', _type: 'Value' })
    const rows = await parquetReadObjects({ file, utf8: false })
    expect(rows.map((x) => [Number(x.id), x.question, x.curation_status])).toEqual([
      [0, 'What is in picture 0?', 'accepted'],
      [2, 'Edited question?', 'accepted'],
      [3, 'What is in picture 3?', 'unreviewed']
    ])
    expect(rows.map((x) => Buffer.from(x.image.bytes).equals(images[Number(x.id)]))).toEqual([true, true, true])
    expect(rows[0].image.path).toBe('p0.png')
    expect(rows[0].score).toBe(0.5)
  })

  it('re-encodes the image bytes when asked (max side honoured)', async () => {
    await ws.exports.dataset({ only: 'accepted', format: 'hf-parquet', media: { form: 'base64', maxSide: 40, format: 'webp' } }, out('g.parquet'))
    const { parquetReadObjects } = await import('hyparquet')
    const buf = readFileSync(out('g.parquet'))
    const rows = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), utf8: false })
    const m = await sharp(Buffer.from(rows[1].image.bytes)).metadata()
    expect([m.format, Math.max(m.width, m.height)]).toEqual(['webp', 40])
  })
})

describe('a Hugging Face Parquet source (Image structs as the readers give them)', () => {
  it('re-exports its images byte-equal as VLMEvalKit base64 and as JSONL data: URLs', async () => {
    await ws.exports.dataset({ only: 'all', format: 'hf-parquet', media: { form: 'keep' } }, out('src.parquet'))
    const w2 = new Workspace(host, { curation: 'memory' })
    try {
      await w2.session.open(out('src.parquet'))
      await w2.exports.dataset({ only: 'all', format: 'vlmeval-tsv', media: { form: 'keep' } }, out('from-parquet.tsv'))
      const ds = await openDataset(out('from-parquet.tsv'))
      const recs = await ds.readRows(ds.splits[0].name, 0, 10)
      expect(recs.map((r) => Buffer.from(String(r.value.image), 'base64').equals(images[Number(r.value.id)]))).toEqual([true, true, true, true])
      await w2.exports.dataset({ only: 'all', format: 'jsonl', media: { form: 'data-url' } }, out('from-parquet.jsonl'))
      const rows = readFileSync(out('from-parquet.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
      expect(rows.map((r) => r.image.startsWith('data:image/png;base64,') && Buffer.from(r.image.slice(22), 'base64').equals(images[Number(r.id)]))).toEqual([true, true, true, true])
    } finally {
      w2.close()
    }
  })
})

describe('atomicity', () => {
  it('a cancelled export leaves no output, no temp file and no media folder', async () => {
    const ctl = new AbortController()
    ctl.abort()
    const r = await ws.exports.dataset({ only: 'all', format: 'mm-custom', media: { form: 'path', maxSide: 20 } }, out('h.jsonl'), ctl.signal)
    expect(r.cancelled).toBe(true)
    expect([existsSync(out('h.jsonl')), existsSync(out('h_media')), noTemps()]).toEqual([false, false, []])
  })

  it('an export cancelled mid-way (after rows were written) leaves nothing either', async () => {
    const ctl = new AbortController()
    const r = await ws.exports.dataset({ only: 'all', format: 'jsonl', media: { form: 'data-url' } }, out('i.jsonl'), ctl.signal, (done) => {
      if (done > 0) ctl.abort()
    })
    expect(r.cancelled).toBe(true)
    expect([existsSync(out('i.jsonl')), noTemps()]).toEqual([false, []])
  })

  it('a temp file left by a killed export is removed by the next export into that folder', async () => {
    const stale = join(t.dir, '.j.jsonl.999999-0123456789ab.tmp')
    writeFileSync(stale, 'partial')
    await ws.exports.dataset({ only: 'all', format: 'jsonl', media: { form: 'keep' } }, out('j.jsonl'))
    expect([existsSync(stale), noTemps()]).toEqual([false, []])
  })

  it('keeps an audio file byte-equal as a data: URL', async () => {
    const d = tempDir('audio')
    try {
      writeFileSync(join(d.dir, 'a.wav'), wav)
      writeFileSync(join(d.dir, 's.jsonl'), JSON.stringify({ audio: 'a.wav', question: 'hear' }) + '\n')
      const w2 = new Workspace(host, { curation: 'memory' })
      await w2.session.open(join(d.dir, 's.jsonl'))
      await w2.exports.dataset({ only: 'all', format: 'jsonl', media: { form: 'data-url' } }, join(d.dir, 'o.jsonl'))
      w2.close()
      const row = JSON.parse(readFileSync(join(d.dir, 'o.jsonl'), 'utf8'))
      expect(row.audio.startsWith('data:audio/wav;base64,')).toBe(true)
      expect(Buffer.from(row.audio.slice(22), 'base64').equals(wav)).toBe(true)
    } finally {
      d.remove()
    }
  })
})

describe('promptloom export', () => {
  async function cli(args: string[]) {
    let o = ''
    let e = ''
    const code = await main(args, { stdout: (s) => void (o += s), stderr: (s) => void (e += s) })
    return { code, out: o, err: e }
  }

  it('--help lists scope, formats and media options', async () => {
    const r = await cli(['export', '--help'])
    expect(r.code).toBe(0)
    for (const s of ['--only all|accepted|not-rejected', 'hf-parquet', '--media keep|url|path|data-url|base64', 'Exit codes']) expect(r.out).toContain(s)
  })

  it('exports a dataset as VLMEvalKit TSV and exits 0', async () => {
    const r = await cli(['export', join(t.dir, 'data', 'test.jsonl'), '--format', 'vlmeval-tsv', '--out', out('k.tsv')])
    expect(r).toMatchObject({ code: 0, err: expect.stringContaining('wrote 4 row(s) as vlmeval-tsv with 4 media asset(s)') })
  })

  it('exits 1 and names the asset when one cannot be encoded', async () => {
    const d = tempDir('missing')
    try {
      writeFileSync(join(d.dir, 'x.jsonl'), JSON.stringify({ image: 'gone.png', question: 'q' }) + '\n')
      const r = await cli(['export', join(d.dir, 'x.jsonl'), '--media', 'base64', '--out', join(d.dir, 'o.jsonl')])
      expect(r.code).toBe(1)
      expect(r.err).toContain('row 0: File not found: gone.png')
      expect(JSON.parse(readFileSync(join(d.dir, 'o.jsonl'), 'utf8')).image).toBe('gone.png')
    } finally {
      d.remove()
    }
  })

  it('exits 2 on a bad option value', async () => {
    expect(await cli(['export', 'x.jsonl', '--out', out('z'), '--format', 'xlsx'])).toMatchObject({ code: 2, err: expect.stringContaining('--format must be one of') })
  })
})
