// The workspace on the real demo project: rows, per-row rendering through each model's format, search,
// curation and export — the same code the app and the CLI run.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import { Workspace } from '../../../main/services/workspace/workspace'
import { demoProjectDir } from '../../../main/services/app-paths'

const events: unknown[] = []
const host: Host = {
  mode: 'browser',
  mediaUrl: (p) => `/media?path=${encodeURIComponent(p)}`,
  inlineMediaUrl: (id) => `/media?inline=${id}`,
  pickSavePath: async () => null,
  offerDownload: (p) => `/download/${encodeURIComponent(p)}`,
  emit: (_e, payload) => events.push(payload)
}

let ws: Workspace
beforeAll(async () => {
  ws = new Workspace(host, { curation: 'memory' })
  await ws.session.open(demoProjectDir())
})

describe('Workspace on the demo project', () => {
  it('opens the project with its splits, variants and models', () => {
    const p = ws.session.current()!
    expect(p.name).toBe('PromptLoom demo')
    expect(p.dataset.splits.map((s) => [s.name, s.rowCount])).toEqual([
      ['train', 5],
      ['test', 14]
    ])
    expect(p.variants.map((v) => v.id)).toEqual(['demo-mm-media', 'demo-mm-string', 'demo-mm-dialogue', 'demo-mm-ppl'])
    expect(p.models.map((m) => m.id)).toEqual(['vllm-api-chat', 'qwen2.5-vl-7b-instruct-hf', 'demo-chatml', 'demo-llama3', 'demo-internlm2'])
  })

  it('pages rows of the test split with previews and media', async () => {
    const page = await ws.rows.page({ start: 10, count: 10 })
    expect(page.total).toBe(14)
    expect(page.items.map((i) => i.index)).toEqual([10, 11, 12, 13])
    expect(page.items[0].preview).toMatch(/^demo-011 · /)
    expect(page.items[0].media[0].kind).toBe('audio')
  })

  it('renders a dialogue row through each meta template, byte for byte', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-dialogue', modelIds: ['demo-chatml', 'demo-llama3'] })
    const [chatml, llama] = r.models
    expect(chatml.kind).toBe('text')
    expect(chatml.text!.startsWith('<|im_start|>user\nYou answer multiple-choice questions')).toBe(true)
    expect(chatml.text!.endsWith('Answer with the letter only.<|im_end|>\n<|im_start|>assistant\n')).toBe(true)
    expect(llama.text!.startsWith('<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n')).toBe(true)
    // The spans cover the exact text.
    expect(chatml.segments!.map((s) => s.text).join('')).toBe(chatml.text)
  })

  it('masks the answer of the row being rendered but keeps the in-context answers', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-string', modelIds: ['demo-chatml'] })
    const text = r.models[0].text!
    expect(r.fields.answer).toBe('C')
    expect(text.endsWith('D. Star\nAnswer:')).toBe(true)
    expect(text).toContain('Answer: B\n')
  })

  it('renders the PPL variant as one prompt per label, each through every model', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-ppl', modelIds: ['demo-chatml', 'demo-llama3'] })
    expect(r.itemKind).toBe('label')
    expect(r.items!.map((it) => it.title)).toEqual(["'A'", "'B'", "'C'", "'D'"])
    for (const [i, l] of ['A', 'B', 'C', 'D'].entries()) {
      expect(r.items![i].models.map((m) => m.modelId)).toEqual(['demo-chatml', 'demo-llama3'])
      expect(r.items![i].models[0].text!.endsWith(`D. Star\nAnswer: ${l}`)).toBe(true)
    }
    // The in-context examples use their own answers, whatever the label.
    expect(r.items![3].models[0].text).toContain('Answer: B\n\nQuestion: How many blue squares')
    expect(r.models).toEqual(r.items![0].models)
  })

  it('renders a generation variant without items', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-dialogue', modelIds: ['demo-chatml'] })
    expect(r.items).toBeUndefined()
    expect(r.itemKind).toBeUndefined()
  })

  it('says when a string template leaves a meta template unapplied, as upstream does', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-string', modelIds: ['demo-chatml'] })
    expect(r.models[0].text).not.toContain('<|im_start|>')
    expect(r.models[0].problems.map((p) => [p.code, p.severity])).toContainEqual(['meta-template-not-applied', 'info'])
  })

  it('shows the row image through the media route and reports a missing file per row', async () => {
    const ok = await ws.render.row({ index: 0, variantId: 'demo-mm-string', modelIds: [] })
    expect(ok.media[0]).toMatchObject({ field: 'image', kind: 'image' })
    expect(ok.media[0].url).toMatch(/^\/media\?path=.*shapes-01\.png$/)
    const missing = await ws.render.row({ index: 9, variantId: 'demo-mm-string', modelIds: [] })
    expect(missing.media[0].url).toBeUndefined()
    expect(missing.media[0].error).toMatch(/missing file/)
    expect(missing.problems.some((p) => p.code === 'media')).toBe(true)
  })

  it('serves inline base64 media as decoded bytes, never as a data: URL', async () => {
    const r = await ws.render.row({ index: 8, variantId: 'demo-mm-string', modelIds: [] })
    const m = r.media.find((x) => x.field === 'image')!
    expect(m.url).toMatch(/^\/media\?inline=[0-9a-f]{32}$/)
    // What reaches the DOM as text is a short abbreviation, not the payload.
    expect(m.raw.length).toBeLessThan(120)
    const { serveInline } = await import('../../../main/services/media/inline-store')
    const res = serveInline(m.url!.split('=')[1], null)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^image\//)
  })

  it('renders through a library chat-template profile as the template does', async () => {
    const { models } = await (async () => {
      const w = new Workspace(host, { curation: 'memory' })
      const dir = mkdtempSync(join(tmpdir(), 'pl-ws-'))
      writeFileSync(join(dir, 'data.jsonl'), JSON.stringify({ question: 'Why?', answer: 'Because' }) + '\n')
      writeFileSync(join(dir, 'project.json'), JSON.stringify({ dataset: 'data.jsonl', models: [], libraryModels: ['qwen2.5-instruct'] }))
      await w.session.open(dir)
      return w.render.row({ index: 0, variantId: 'default', modelIds: ['qwen2.5-instruct'] })
    })()
    // Qwen2.5's own template adds its default system prompt; the answer column is masked in the test prompt.
    expect(models[0].text).toMatch(/^<\|im_start\|>system\nYou are Qwen, created by Alibaba Cloud/)
    expect(models[0].text!.endsWith('<|im_start|>user\nquestion: Why?\nAnswer: <|im_end|>\n<|im_start|>assistant\n')).toBe(true)
    expect(models[0].problems.some((p) => p.code === 'added-default-system')).toBe(true)
  })

  it('searches plain text, field:value and regex', async () => {
    expect((await ws.rows.page({ start: 0, count: 50, query: 'demo-010' })).items.map((i) => i.index)).toEqual([9])
    expect((await ws.rows.page({ start: 0, count: 50, query: 'answer:C' })).items.every((i) => i.index >= 0)).toBe(true)
    const re = await ws.rows.page({ start: 0, count: 50, query: '/^demo-01[0-2]$/' })
    expect(re.items.map((i) => i.index)).toEqual([9, 10, 11])
  })

  it('filters by curation status', async () => {
    await ws.curation.apply({ indices: [2, 3] }, { kind: 'status', status: 'accepted' })
    expect((await ws.rows.page({ start: 0, count: 50, query: 'status:accepted' })).items.map((i) => i.index)).toEqual([2, 3])
    await ws.curation.apply({ indices: [2, 3] }, { kind: 'status', status: 'unreviewed' })
  })

  it('refuses a status for a row that does not exist', async () => {
    await expect(ws.curation.apply({ indices: [99] }, { kind: 'status', status: 'accepted' })).rejects.toThrow(/row 99 is out of range/)
  })

  it('exports one line per row and model, atomically, with progress events', async () => {
    events.length = 0
    const r = await ws.exports.run({ variantId: 'demo-mm-dialogue', modelIds: ['demo-chatml', 'demo-llama3'], only: 'all', destination: 'download' })
    expect(r.rows).toBe(28)
    expect(r.downloadUrl).toMatch(/^\/download\//)
    const file = decodeURIComponent(r.downloadUrl!.slice('/download/'.length))
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(lines[0]).toMatchObject({ index: 0, model: 'demo-chatml', format: 'string', gold: 'C', variant: 'demo-mm-dialogue' })
    expect(events.some((e) => (e as { finished?: boolean }).finished)).toBe(true)
  })

  it('exports only accepted rows when asked', async () => {
    await ws.curation.apply({ indices: [4] }, { kind: 'status', status: 'accepted' })
    const r = await ws.exports.run({ variantId: 'demo-mm-string', modelIds: ['demo-chatml'], only: 'accepted', destination: 'download' })
    expect(r.rows).toBe(1)
    await ws.curation.apply({ indices: [4] }, { kind: 'status', status: 'unreviewed' })
  })
})

describe('Workspace errors', () => {
  it('names the file when a path is neither dataset nor config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-ws-'))
    const f = join(dir, 'notes.txt')
    writeFileSync(f, 'hello')
    await expect(new Workspace(host, { curation: 'memory' }).session.open(f)).rejects.toThrow(/notes\.txt: not a dataset/)
  })

  it('names the field when project.json is malformed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-ws-'))
    writeFileSync(join(dir, 'project.json'), JSON.stringify({ dataset: 5 }))
    await expect(new Workspace(host, { curation: 'memory' }).session.open(dir)).rejects.toThrow(/field "dataset" must be a string/)
  })

  it('reports a broken model profile and still loads the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-ws-'))
    writeFileSync(join(dir, 'data.jsonl'), '{"q": "x"}\n')
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ id: 'Bad Id', name: 'b', family: 'x', format: 'opencompass-meta', context_length: 1 }))
    writeFileSync(join(dir, 'project.json'), JSON.stringify({ dataset: 'data.jsonl', models: ['bad.json'] }))
    const p = await new Workspace(host, { curation: 'memory' }).session.open(dir)
    expect(p.models).toEqual([])
    expect(p.problems.find((x) => x.code === 'model-profile')?.message).toMatch(/bad\.json: id: id must be lowercase/)
  })

  it('keeps Python float formatting of dataset values (1.0 stays 1.0)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-ws-'))
    writeFileSync(join(dir, 'data.jsonl'), '{"x": 1.0, "y": 2, "z": 1e-07, "answer": "a"}\n')
    const w = new Workspace(host, { curation: 'memory' })
    writeFileSync(join(dir, 'project.json'), JSON.stringify({ dataset: 'data.jsonl', libraryModels: ['openai-messages'] }))
    await w.session.open(dir)
    const r = await w.render.row({ index: 0, variantId: 'default', modelIds: ['openai-messages'] })
    expect(r.promptList.map((b) => b.segments.map((s) => s.text).join('')).join('')).toBe('x: 1.0\ny: 2\nz: 1e-07\nAnswer: ')
  })
})
