// A model column's media parts in the app (#9 items 4, 5): the matrix row carries, per model, each media part in
// order with the URL the renderer loads it from (the row's own media), the placeholder its template writes, and the
// picture's token cost from its real size (a clip's from its exact length) where the rule is known; an LM meta
// template marks the parts dropped.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { mediaHost as host } from '../../support/host'
import { Workspace } from '../../../main/services/workspace/workspace'
import { pcmWav } from '../../support/wav'


const CONFIG = `from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.datasets import CustomDataset
mm_reader_cfg = dict(input_columns=['content'], output_column='answer')
mm_infer_cfg = dict(
    prompt_template=dict(type=MMPromptTemplate, template=dict(round=[dict(role='HUMAN', prompt_mm={
        'text': {'type': 'text', 'text': '{question}'},
        'image': {'type': 'image_url', 'image_url': {'url': '{image}'}},
    })])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer))
mm_datasets = [dict(abbr='mm', type=CustomDataset, path='data/test.jsonl', reader_cfg=mm_reader_cfg, infer_cfg=mm_infer_cfg)]
`

const CHATML = {
  id: 'chatml-meta',
  name: 'ChatML meta',
  family: 'qwen',
  format: 'opencompass-meta',
  meta_template: { round: [{ role: 'HUMAN', begin: '<|im_start|>user\n', end: '<|im_end|>\n' }, { role: 'BOT', begin: '<|im_start|>assistant\n', end: '<|im_end|>\n', generate: true }] },
  context_length: 4096
}

const dirs: string[] = []
const spaces: Workspace[] = []
afterEach(() => {
  for (const w of spaces.splice(0)) w.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const wav = (frames: number, rate: number) => pcmWav(frames, { rate })

async function project(): Promise<{ ws: Workspace; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pl-model-media-'))
  dirs.push(dir)
  mkdirSync(join(dir, 'data', 'media'), { recursive: true })
  await sharp({ create: { width: 320, height: 240, channels: 3, background: '#36c' } }).png().toFile(join(dir, 'data', 'media', 'blue.png'))
  const row = { question: 'What colour?', answer: 'blue', content: '<AIS_IMAGE_START>media/blue.png<AIS_CONTENT_TAG><AIS_TEXT_START>What colour?' }
  writeFileSync(join(dir, 'data', 'test.jsonl'), JSON.stringify(row) + '\n')
  mkdirSync(join(dir, 'configs'))
  writeFileSync(join(dir, 'configs', 'mm.py'), CONFIG.replace("path='data/test.jsonl'", "path='../data/test.jsonl'"))
  writeFileSync(join(dir, 'chatml.json'), JSON.stringify(CHATML))
  writeFileSync(join(dir, 'project.json'), JSON.stringify({ name: 'mm', dataset: 'data/test.jsonl', config: 'configs/mm.py', models: ['chatml.json'] }))
  const ws = new Workspace(host, { curation: 'memory' })
  spaces.push(ws)
  await ws.session.open(dir)
  return { ws, dir }
}

describe('model media parts in the matrix', () => {
  it('a vision-language column: its image beside the placeholder, with the URL of the row\'s picture and its real token cost', async () => {
    const { ws } = await project()
    await ws.session.addModel('qwen2.5-vl-instruct')
    const r = await ws.render.row({ index: 0, variantId: 'mm', modelIds: ['qwen2.5-vl-instruct'] })
    const m = r.models[0]
    expect(m.text).toContain('<|vision_start|><|image_pad|><|vision_end|>What colour?')
    expect(m.media).toHaveLength(1)
    const part = m.media![0]
    expect(part).toMatchObject({ modality: 'image', ref: 'media/blue.png', placeholder: '<|vision_start|><|image_pad|><|vision_end|>' })
    expect(part.url).toBe(r.media[0].url)
    // smart_resize(240, 320) → 252×308: 9 × 11 tokens of 28×28 pixels.
    expect(part.tokens).toBe(99)
    expect(m.tokens?.media).toBe(99)
  })

  it("an audio column counts the clip from the WAV's exact length: Gemma 4, 24000 samples at 16 kHz → 38 + begin/end of audio", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-model-media-'))
    dirs.push(dir)
    mkdirSync(join(dir, 'media'))
    // 1.5 s at 22.05 kHz: 33075 samples.
    writeFileSync(join(dir, 'media', 'clip.wav'), wav(33075, 22050))
    const turn = { role: 'user', content: [{ type: 'audio', audio: 'media/clip.wav' }, { type: 'text', text: 'What sound?' }] }
    writeFileSync(join(dir, 'chat.jsonl'), JSON.stringify({ messages: [turn, { role: 'assistant', content: 'None.' }] }) + '\n')
    const ws = new Workspace(host, { curation: 'memory' })
    spaces.push(ws)
    await ws.session.open(join(dir, 'chat.jsonl'))
    await ws.session.addModel('gemma-4-it')
    const r = await ws.render.row({ index: 0, variantId: 'conversation', modelIds: ['gemma-4-it'] })
    const part = r.models[0].media![0]
    expect(part).toMatchObject({ modality: 'audio', ref: 'media/clip.wav', placeholder: '<|audio|>' })
    expect(part.tokens).toBe(40)
    expect(r.models[0].tokens?.media).toBe(40)
  })

  it('an LM meta-template column lists the picture as dropped, still with its URL', async () => {
    const { ws } = await project()
    const r = await ws.render.row({ index: 0, variantId: 'mm', modelIds: ['chatml-meta'] })
    const m = r.models[0]
    expect(m.text).toBe('<|im_start|>user\n<|im_end|>\n<|im_start|>assistant\n')
    expect(m.media).toEqual([expect.objectContaining({ modality: 'image', dropped: true, url: r.media[0].url })])
    expect(m.problems.map((p) => p.code)).toEqual(['media-dropped', 'empty-turn'])
  })
})
