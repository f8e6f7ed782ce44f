// `promptloom render` on an AISBench multimodal config (MMCustomDataset + MMPromptTemplate): every model kind gets
// the prompt as upstream sends it, and says what it loses — a text-only LM meta template drops the prompt_mm turn
// (empty turn, signalled), a text-only chat template fails on the part list (said to be text-only beside
// upstream's error), a vision-language profile under AISBench's VL wrapper writes its image placeholder. A run
// with a row that could not be rendered exits 1 (#9).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli'

const run = runCli

const MM_CONFIG = `from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.datasets import MMCustomDataset

mm_reader_cfg = dict(input_columns=['question', 'image', 'video', 'audio'], output_column='answer')
mm_infer_cfg = dict(
    prompt_template=dict(
        type=MMPromptTemplate,
        template=dict(round=[
            dict(role="HUMAN", prompt_mm={
                "text": {"type": "text", "text": "{question}"},
                "image": {"type": "image_url", "image_url": {"url": "file://{image}"}},
                "video": {"type": "video_url", "video_url": {"url": "file://{video}"}},
                "audio": {"type": "audio_url", "audio_url": {"url": "file://{audio}"}},
            })
        ])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer))
mm_datasets = [dict(abbr='mm', type=MMCustomDataset, path='mm.jsonl', mm_type='path', reader_cfg=mm_reader_cfg, infer_cfg=mm_infer_cfg)]
`

// AISBench configs/models/hf_models/hf_qwenvl_model.py, with the built-in profile's HF name as path.
const QWEN_VL_MODEL = `from ais_bench.benchmark.models import HuggingFaceQwen2VLwithChatTemplate
models = [dict(type=HuggingFaceQwen2VLwithChatTemplate, abbr='hf-qwenvl-model', path='Qwen/Qwen2.5-VL-7B-Instruct',
    vision_kwargs=dict(min_pixels=1280 * 28 * 28, max_pixels=16384 * 28 * 28), max_out_len=256, batch_size=1, max_seq_len=2048)]
`

const CHATML_META = {
  id: 'chatml-meta',
  name: 'ChatML meta',
  family: 'qwen',
  format: 'opencompass-meta',
  meta_template: { round: [{ role: 'HUMAN', begin: '<|im_start|>user\n', end: '<|im_end|>\n' }, { role: 'BOT', begin: '<|im_start|>assistant\n', end: '<|im_end|>\n', generate: true }] },
  context_length: 4096
}

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-render-mm-'))
  writeFileSync(join(dir, 'mm.jsonl'), JSON.stringify({ type: 'image', path: ['/data/cat.png'], question: 'What is shown?', answer: 'cat' }) + '\n')
  writeFileSync(join(dir, 'mm_gen.py'), MM_CONFIG)
  writeFileSync(join(dir, 'qwen_vl.py'), QWEN_VL_MODEL)
  writeFileSync(join(dir, 'chatml.json'), JSON.stringify(CHATML_META))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('render: a multimodal AISBench prompt through every model kind', () => {
  it('an LM meta template sends the empty turn upstream builds, with the dropped modality and the empty turn signalled', async () => {
    const r = await run(['render', '--config', join(dir, 'mm_gen.py'), '--model', join(dir, 'chatml.json')])
    expect(r.lines[0].prompt).toBe('<|im_start|>user\n<|im_end|>\n<|im_start|>assistant\n')
    const codes = r.lines[0].problems.map((p: { code: string }) => p.code)
    expect(codes).toEqual(['media-dropped', 'empty-turn'])
    expect(r.lines[0].problems[0].message).toContain('1 image and 1 text part of the HUMAN turn dropped')
    expect(r.code).toBe(0)
  })

  it('a text-only chat template says it is text-only beside upstream\'s error, and render exits 1', async () => {
    const r = await run(['render', '--config', join(dir, 'mm_gen.py'), '--model', 'qwen2.5-instruct'])
    expect(r.lines[0].prompt).toBeNull()
    const byCode = Object.fromEntries(r.lines[0].problems.map((p: { code: string; message: string }) => [p.code, p.message]))
    expect(byCode['text-only-template']).toContain('This template is text-only: it cannot take the image part (1 image)')
    expect(byCode['harness-error']).toContain('TypeError: can only concatenate str (not "list") to str')
    expect(r.err).toContain('1 line(s) could not be rendered')
    expect(r.code).toBe(1)
  })

  it("a vision-language profile under AISBench's HuggingFaceQwen2VLwithChatTemplate writes the image's vision block", async () => {
    const r = await run(['render', '--config', join(dir, 'mm_gen.py'), '--model', join(dir, 'qwen_vl.py')])
    expect(r.lines[0].harness).toBe('AISBench HuggingFaceQwen2VLwithChatTemplate')
    expect(r.lines[0].prompt).toBe(
      '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n<|vision_start|><|image_pad|><|vision_end|>What is shown?<|im_end|>\n<|im_start|>assistant\n'
    )
    expect((r.lines[0].problems ?? []).filter((p: { severity: string }) => p.severity === 'error')).toEqual([])
    expect(r.code).toBe(0)
  })

  it('--format messages gives the VL wrapper\'s messages before the template: image parts as its processor takes them', async () => {
    const r = await run(['render', '--config', join(dir, 'mm_gen.py'), '--model', join(dir, 'qwen_vl.py'), '--format', 'messages'])
    expect(r.lines[0].prompt).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', image: { url: 'file:///data/cat.png' }, min_pixels: 1003520, max_pixels: 12845056 },
          { type: 'text', text: 'What is shown?' }
        ]
      }
    ])
  })

  it('--format messages for a text-only chat template gives the messages its template received, never a wrapped string', async () => {
    const r = await run(['render', '--config', join(dir, 'mm_gen.py'), '--model', 'qwen2.5-instruct', '--format', 'messages'])
    expect(r.lines[0].format).toBe('messages')
    expect(r.lines[0].prompt).toEqual([
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'file:///data/cat.png' } }, { type: 'text', text: 'What is shown?' }] }
    ])
  })

  it('--format messages for a meta-template model gives the dataset prompt as OpenAI messages', async () => {
    const r = await run(['render', '--config', join(dir, 'mm_gen.py'), '--model', join(dir, 'chatml.json'), '--format', 'messages'])
    expect(r.lines[0].prompt).toEqual([
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'file:///data/cat.png' } }, { type: 'text', text: 'What is shown?' }] }
    ])
  })

  it('--format messages for a FastChat model gives its conversation before the template', async () => {
    writeFileSync(join(dir, 'plain.jsonl'), JSON.stringify({ question: 'Hi?', answer: 'x' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'plain.jsonl'), '--model', 'vicuna-v1.1', '--format', 'messages'])
    const prompt = r.lines[0].prompt
    expect(Array.isArray(prompt)).toBe(true)
    expect(JSON.stringify(prompt)).not.toContain('USER:')
    expect(prompt.at(-1).role).toBe('user')
  })

  it('--format multimodal gives the text with a stable placeholder where each picture goes and the map to its part', async () => {
    const r = await run(['render', '--config', join(dir, 'mm_gen.py'), '--model', join(dir, 'chatml.json'), '--format', 'multimodal'])
    expect(r.lines[0].format).toBe('multimodal')
    expect(r.lines[0].prompt).toEqual([{ role: 'user', content: '<image_1>What is shown?' }])
    expect(r.lines[0].media).toEqual({ '<image_1>': { type: 'image_url', image_url: { url: 'file:///data/cat.png' } } })
  })

  it('--format multimodal encodes the mapped media as --media asks', async () => {
    const pic = join(dir, 'pic.png')
    const sharp = (await import('sharp')).default
    await sharp({ create: { width: 4, height: 3, channels: 3, background: '#0a0' } }).png().toFile(pic)
    writeFileSync(join(dir, 'mm.jsonl'), JSON.stringify({ type: 'image', path: [pic], question: 'Colour?', answer: 'green' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'mm_gen.py'), '--model', join(dir, 'chatml.json'), '--format', 'multimodal', '--media', 'data-url'])
    const url = r.lines[0].media['<image_1>'].image_url.url as string
    expect(url.startsWith('data:image/png;base64,')).toBe(true)
    expect(Buffer.from(url.split(',')[1], 'base64').equals(readFileSync(pic))).toBe(true)
  })
})
