// The prompt builder's multimodal shape: each row's AISBench content composed from its media and text columns with
// fixed examples (AISBench's MMPromptTemplate places none itself), previewed through the template editor's path,
// saved as an AISBench config plus the data it reads, which `promptloom render` turns into the previewed prompts.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli'
import { Workspace } from '../../../main/services/workspace/workspace'
import { CONTENT_SPEC_KEY, buildVariant, composeContent, defaultRecipe, deriveSchema, guessRoles, mediaRefs, toConfigText, type ContentSpec, type Recipe } from '../../../shared/builder'
import { host } from '../store/helpers'

const IMG = '<AIS_IMAGE_START>'
const TXT = '<AIS_TEXT_START>'
const TAG = '<AIS_CONTENT_TAG>'

async function pictureDataset(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'pl-builder-mm-')), 'shapes')
  mkdirSync(join(dir, 'images'), { recursive: true })
  const row = (i: number) => ({ qid: `q${i}`, question: `How many dots are in picture ${i}?`, A: String(i), B: String(i + 1), C: String(i + 2), D: String(i + 3), answer: 'A', image: `images/p${i}.png` })
  for (const i of [0, 1, 2, 3, 10, 11]) {
    await sharp({ create: { width: 32 + i, height: 24, channels: 3, background: { r: 10 * i, g: 80, b: 200 } } }).png().toFile(join(dir, 'images', `p${i}.png`))
  }
  writeFileSync(join(dir, 'train.jsonl'), [0, 1, 2, 3].map((i) => JSON.stringify(row(i))).join('\n') + '\n')
  writeFileSync(join(dir, 'test.jsonl'), [10, 11].map((i) => JSON.stringify(row(i))).join('\n') + '\n')
  return dir
}

const COLUMNS = ['qid', 'question', 'A', 'B', 'C', 'D', 'answer', 'image']

function mmRecipe(): Recipe {
  const r = defaultRecipe('shapes-mm', guessRoles(COLUMNS, { image: 'image' }), 'multimodal')
  return { ...r, selector: { kind: 'fixed', ids: [0, 1, 2] } }
}

async function cliRender(args: string[]): Promise<Record<string, unknown>[]> {
  const r = await runCli(['render', ...args])
  expect(r.code, r.err).toBe(0)
  return r.lines
}

describe('multimodal content composition', () => {
  const spec: ContentSpec = { media: [{ column: 'image', kind: 'image' }], head: 'Look at each picture.', example: '{question} {answer}', question: '{question}\nAnswer:', examples: [1, 0] }
  const train = [
    { question: 'q0?', answer: 'A', image: 'a.png' },
    { question: 'q1?', answer: 'B', image: 'b.png' }
  ]

  it('puts the head, each example (media, then text with its answer) and the row (media, then question) in order', () => {
    const c = composeContent(spec, { question: 'mine?', image: 'c.png' }, train)
    expect(c.content).toBe(`${TXT}Look at each picture.${TAG}${IMG}b.png${TAG}${TXT}q1? B${TAG}${IMG}a.png${TAG}${TXT}q0? A${TAG}${IMG}c.png${TAG}${TXT}mine?\nAnswer:`)
    expect(c.missing).toEqual([])
  })

  it('leaves out example ids the train split does not have, and says which', () => {
    const c = composeContent({ ...spec, examples: [0, 7] }, { question: 'mine?', image: 'c.png' }, train)
    expect(c.missing).toEqual([7])
    expect(c.content).not.toContain('undefined')
  })

  it('turns every kind of media cell into content references: paths rebased, URLs kept, bytes as base64, lists in order', () => {
    const rebase = (p: string) => `./data/${p}`
    expect(mediaRefs('x.png', rebase)).toEqual(['./data/x.png'])
    expect(mediaRefs('https://host/x.png', rebase)).toEqual(['https://host/x.png'])
    expect(mediaRefs('data:image/png;base64,AAAA', rebase)).toEqual(['data:image/png;base64,AAAA'])
    expect(mediaRefs({ bytes: { $bytes: 'AQID' }, path: 'x.png' }, rebase)).toEqual(['AQID'])
    expect(mediaRefs({ $bytes: 'AQID' }, rebase)).toEqual(['AQID'])
    expect(mediaRefs({ bytes: null, path: 'y.png' }, rebase)).toEqual(['./data/y.png'])
    expect(mediaRefs(['a.png', 'b.png'], rebase)).toEqual(['./data/a.png', './data/b.png'])
    expect(mediaRefs('', rebase)).toEqual([])
  })

  it('keeps a placeholder no column fills as written and shows other cells as Python str()', () => {
    const c = composeContent({ ...spec, head: '', examples: [], question: '{question} {n} {flag} {missing}' }, { question: 'q', n: 3, flag: true }, [])
    expect(c.content).toBe(`${TXT}q 3 True {missing}`)
  })
})

describe('multimodal recipe', () => {
  it('guesses media columns from what the reader found and from their names', () => {
    expect(guessRoles(['question', 'image', 'audio_path'], {}).media).toEqual([
      { column: 'image', kind: 'image' },
      { column: 'audio_path', kind: 'audio' }
    ])
    expect(guessRoles(['question', 'picture_cell'], { picture_cell: 'image' }).media).toEqual([{ column: 'picture_cell', kind: 'image' }])
    // VLMEvalKit's image_path beside a base64 image names the same picture.
    expect(guessRoles(['question', 'image', 'image_path']).media).toEqual([{ column: 'image', kind: 'image' }])
  })

  it('builds an MMPromptTemplate over the composed content with a ZeroRetriever', () => {
    const v = buildVariant(mmRecipe())
    expect(v.reader_cfg).toEqual({ input_columns: ['content'], output_column: 'answer' })
    expect(v.infer_cfg.prompt_template).toEqual({
      type: 'MMPromptTemplate',
      template: { round: [{ role: 'HUMAN', prompt_mm: { text: { type: 'text', text: '{question}' }, image: { type: 'image_url', image_url: { url: '{image}' } } } }] }
    })
    expect(v.infer_cfg.retriever).toEqual({ type: 'ZeroRetriever' })
    expect((v.infer_cfg[CONTENT_SPEC_KEY] as ContentSpec).examples).toEqual([0, 1, 2])
  })

  it('derives the field schema from the columns the composition reads, the image slot as an image', () => {
    const v = buildVariant(mmRecipe())
    const schema = deriveSchema(v.infer_cfg, 'answer')
    expect(schema.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['question', 'text', true],
      ['A', 'text', true],
      ['B', 'text', true],
      ['C', 'text', true],
      ['D', 'text', true],
      ['answer', 'text', false],
      ['image', 'image', true]
    ])
  })

  it('writes an AISBench config without PromptLoom keys', () => {
    const py = toConfigText(buildVariant(mmRecipe()), './shapes-mm_gen.content.jsonl')
    expect(py).toContain('from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate')
    expect(py).toContain('from ais_bench.benchmark.datasets import CustomDataset')
    expect(py).toContain("path='./shapes-mm_gen.content.jsonl'")
    expect(py).not.toContain('promptloom')
    expect(py).not.toContain('opencompass')
  })
})

describe('multimodal builder, end to end through the workspace and the CLI', () => {
  it('saves the config and composed data, and render gives the previewed content parts with every picture', async () => {
    const dir = await pictureDataset()
    const ws = new Workspace(host, { curation: 'memory' })
    try {
      await ws.session.open(dir)
      const s = ws.session.current()!
      const r = mmRecipe()
      const check = await ws.templates.checkRecipe(r)
      expect(check.issues).toEqual([])
      expect(check.rowIssues).toEqual([])
      const api = s.models.find((m) => m.id === 'opencompass-api')
      expect(api, s.models.map((m) => m.id).join()).toBeTruthy()
      const preview = await ws.templates.preview({ index: 1, variantId: s.variants[0].id, modelIds: [api!.id], edits: [{ target: { variantId: s.variants[0].id }, text: check.variantText }] })
      const shown = preview.render!.models[0]
      expect(preview.diagnostics.flat()).toEqual([])
      expect(preview.render!.problems.filter((p) => p.severity === 'error')).toEqual([])
      const saved = await ws.templates.saveRecipe(r)
      expect(saved.data).toBe(join(dir, '..', 'shapes-mm_gen.content.jsonl'))
      const data = readFileSync(saved.data!, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
      expect(data).toHaveLength(2)
      // Media paths made absolute, so AISBench finds them from wherever it runs.
      expect(data[1].image).toBe(join(dir, 'images', 'p11.png'))
      const lines = await cliRender(['--config', saved.config, '--model', api!.id])
      const line = lines.find((l) => l.index === 1)!
      const sent = JSON.stringify(line.prompt)
      // Three example pictures then the row's, each a part, and the texts between them, as the preview showed.
      expect([...sent.matchAll(/"image_url"/g)].length).toBeGreaterThanOrEqual(4)
      for (const i of [0, 1, 2, 11]) expect(sent).toContain(`images/p${i}.png`)
      expect(sent).not.toContain('p3.png')
      expect(sent).toContain('How many dots are in picture 2?\\nA. 2\\nB. 3\\nC. 4\\nD. 5\\nAnswer: A')
      const shownMessages = shown.messages!.map((m) => ({ role: m.role, content: m.content }))
      expect(line.prompt).toEqual(shownMessages)
    } finally {
      ws.close()
    }
  })

  it("lists each picture once in the row panel when the row's cell and its composed content spell its path differently", async () => {
    const dir = await pictureDataset()
    const ws = new Workspace(host, { curation: 'memory' })
    try {
      await ws.session.open(dir)
      const s = ws.session.current()!
      const check = await ws.templates.checkRecipe(mmRecipe())
      const preview = await ws.templates.preview({ index: 1, variantId: s.variants[0].id, modelIds: [], edits: [{ target: { variantId: s.variants[0].id }, text: check.variantText }] })
      const media = preview.render!.media
      // The row's `image` is relative (images/p11.png); its composed content names the same file by absolute path.
      expect(media.map((m) => m.url).filter(Boolean)).toHaveLength(4)
      expect(new Set(media.map((m) => m.url)).size).toBe(media.length)
      const own = media.find((m) => m.url?.includes('p11.png'))!
      expect(own.field).toBe('image, content')
    } finally {
      ws.close()
    }
  })
})
