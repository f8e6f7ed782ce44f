// Datasets whose rows a reproduced AISBench loader builds, opened in the workspace the app and the CLI use:
// an mm_custom JSONL on its own, a config naming MMStarDataset over a VLMEvalKit TSV, a class PromptLoom does
// not reproduce, and a project whose media folder holds the pictures that rows name relatively.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { mediaHost as host } from '../../support/host'
import { Workspace } from '../../../main/services/workspace/workspace'


const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'plwsload'))
  dirs.push(d)
  return d
}
const png = (): Promise<Buffer> =>
  sharp({ create: { width: 8, height: 6, channels: 3, background: '#0a0' } })
    .png()
    .toBuffer()

const MM_TEMPLATE = {
  type: 'MMPromptTemplate',
  template: {
    round: [
      {
        role: 'HUMAN',
        prompt_mm: {
          text: { type: 'text', text: '{question}' },
          image: { type: 'image_url', image_url: { url: 'file://{image}' } }
        }
      }
    ]
  }
}

describe('workspace with reproduced dataset loaders', () => {
  it('opens an mm_custom JSONL on its own with MMCustomDataset: content parts reach an API model, media shown', async () => {
    const d = dir()
    writeFileSync(join(d, 'a.png'), await png())
    writeFileSync(
      join(d, 'mm.jsonl'),
      '{"type": "image", "path": ["a.png"], "question": "What colour?", "answer": "green"}\n'
    )
    const ws = new Workspace(host, { curation: 'memory' })
    const p = await ws.session.open(join(d, 'mm.jsonl'))
    expect(p.variants.map((v) => v.id)).toEqual(['mm_custom'])
    await ws.session.addModel('opencompass-api')
    const r = await ws.render.row({ index: 0, variantId: 'mm_custom', modelIds: ['opencompass-api'] })
    expect(r.models[0].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'file://a.png' } },
          { type: 'text', text: 'What colour?' }
        ]
      }
    ])
    expect(r.models[0].problems.filter((x) => x.severity === 'error')).toEqual([])
    expect(r.media).toEqual([
      { field: 'path[0]', kind: 'image', raw: 'a.png', url: `/media?path=${encodeURIComponent(join(d, 'a.png'))}` }
    ])
    ws.close()
  })

  it("flags no missing fields on mm_custom rows: MMPromptTemplate reads content, not the reader's image/audio columns", async () => {
    const d = dir()
    writeFileSync(join(d, 'a.png'), await png())
    writeFileSync(join(d, 'mm.jsonl'), '{"type": "image", "path": ["a.png"], "question": "What colour?", "answer": "green"}\n')
    const ws = new Workspace(host, { curation: 'memory' })
    await ws.session.open(join(d, 'mm.jsonl'))
    const page = await ws.rows.page({ start: 0, count: 10 })
    expect(page.items.flatMap((i) => i.warnings ?? [])).not.toContain('missing-field')
    ws.close()
  })

  it('builds MMStar rows from a TSV with base64 images: pictures in the project cache, served, nothing beside the source', async () => {
    const d = dir()
    mkdirSync(join(d, 'data'))
    writeFileSync(
      join(d, 'data', 'MMStar.tsv'),
      `index\tquestion\tA\tB\tanswer\timage\n1\tWhich?\tx\ty\tA\t${(await png()).toString('base64')}\n`
    )
    writeFileSync(
      join(d, 'mmstar.py'),
      `mmstar_datasets = ${JSON.stringify([{ abbr: 'mmstar', type: 'MMStarDataset', path: 'data/MMStar.tsv', reader_cfg: { input_columns: ['question'], output_column: 'answer' }, infer_cfg: { prompt_template: MM_TEMPLATE, retriever: { type: 'ZeroRetriever' }, inferencer: { type: 'GenInferencer' } } }])}\n`
    )
    const ws = new Workspace(host, { curation: 'memory' })
    const p = await ws.session.open(join(d, 'mmstar.py'))
    expect(p.dataset.columns.map((c) => c.name).filter((n) => !n.includes('.'))).toEqual(['content', 'answer'])
    await ws.session.addModel('opencompass-api')
    const r = await ws.render.row({ index: 0, variantId: 'mmstar', modelIds: ['opencompass-api'] })
    const url = (r.models[0].messages as any)[0].content[0].image_url.url as string
    expect(url).toMatch(/^file:\/\/.*\.promptloom\/cache\/media\/.*\/MMStar_images\/1\.jpg$/)
    expect(r.media[0].url).toBe(`/media?path=${encodeURIComponent(url.slice('file://'.length))}`)
    expect(readdirSync(join(d, 'data'))).toEqual(['MMStar.tsv'])
    ws.close()
  })

  it('says once that a dataset class is not reproduced and uses the rows as they are', async () => {
    const d = dir()
    writeFileSync(join(d, 'rows.jsonl'), '{"question": "Q", "answer": "A"}\n')
    writeFileSync(
      join(d, 'cfg.py'),
      `x_datasets = ${JSON.stringify([{ abbr: 'x', type: 'SomeBenchDataset', path: 'rows.jsonl', reader_cfg: { input_columns: ['question'], output_column: 'answer' }, infer_cfg: { prompt_template: { type: 'PromptTemplate', template: '{question}' }, retriever: { type: 'ZeroRetriever' }, inferencer: { type: 'GenInferencer' } } }])}\n`
    )
    const ws = new Workspace(host, { curation: 'memory' })
    const p = await ws.session.open(join(d, 'cfg.py'))
    const named = p.problems.filter((x) => x.message.includes('SomeBenchDataset'))
    expect(named).toHaveLength(1)
    expect(named[0].message).toContain('rows are used as they are in the file')
    ws.close()
  })

  it("resolves relative media against the project's mediaFolder (LLaVA --image-folder)", async () => {
    const d = dir()
    mkdirSync(join(d, 'images'))
    writeFileSync(join(d, 'images', 'cat.png'), await png())
    writeFileSync(join(d, 'q.jsonl'), '{"question_id": 1, "image": "cat.png", "text": "Describe it."}\n')
    writeFileSync(join(d, 'project.json'), JSON.stringify({ dataset: 'q.jsonl', mediaFolder: 'images' }))
    const ws = new Workspace(host, { curation: 'memory' })
    await ws.session.open(d)
    const r = await ws.render.row({ index: 0, variantId: 'default', modelIds: [] })
    expect(r.media).toEqual([
      {
        field: 'image',
        kind: 'image',
        raw: 'cat.png',
        url: `/media?path=${encodeURIComponent(join(d, 'images', 'cat.png'))}`
      }
    ])
    ws.close()
  })

  it('shows VLMEvalKit TSV conventions as media: an index reference, a list-literal cell, image_path only as a name', async () => {
    const d = dir()
    const a = (await png()).toString('base64')
    const b = (await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00f' } }).png().toBuffer()).toString('base64')
    writeFileSync(join(d, 'bench.tsv'), `index\tquestion\tanswer\timage\timage_path\n1\tq1\tA\t${a}\t1.jpg\n2\tq2\tB\t1\t2.jpg\n3\tq3\tC\t"['${a}', '${b}']"\t3.jpg\n`)
    const ws = new Workspace(host, { curation: 'memory' })
    await ws.session.open(join(d, 'bench.tsv'))
    const media = async (i: number) => (await ws.render.row({ index: i, variantId: 'default', modelIds: [] })).media.map((m) => [m.field, m.kind, !!m.url, m.error ?? null])
    expect(await media(0)).toEqual([['image', 'image', true, null]])
    expect(await media(1)).toEqual([['image', 'image', true, null]])
    expect(await media(2)).toEqual([['image[0]', 'image', true, null], ['image[1]', 'image', true, null]])
    ws.close()
  })

  it('takes the media folder given when opening (the Open dialog, render --media-folder)', async () => {
    const d = dir()
    mkdirSync(join(d, 'pics'))
    writeFileSync(join(d, 'pics', 'x.png'), await png())
    writeFileSync(join(d, 'q.jsonl'), '{"image": "x.png", "text": "What?"}\n')
    const ws = new Workspace(host, { curation: 'memory' })
    await ws.session.open(join(d, 'q.jsonl'), { mediaFolder: join(d, 'pics') })
    const r = await ws.render.row({ index: 0, variantId: 'default', modelIds: [] })
    expect(r.media.map((m) => m.url)).toEqual([`/media?path=${encodeURIComponent(join(d, 'pics', 'x.png'))}`])
    ws.close()
  })
})
