// Files the export tests make: real images through sharp, a small WAV, and an AISBench-style multimodal project
// (MMPromptTemplate config + JSONL whose `content` carries AIS tags) in a temporary folder removed afterwards.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { pcmWav } from '../../support/wav'

export function tempDir(tag: string): { dir: string; remove(): void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `pl-export-${tag}-`)))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A noisy image (so encoders cannot shrink it to nothing) of the given size and format. */
export async function makeImage(file: string, width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  let x = 12345
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff
    raw[i] = (i % 3 === 0 ? (i / 3) % width : x >> 16) & 0xff
  }
  const img = sharp(raw, { raw: { width, height, channels: 3 } })
  const bytes = await (format === 'png' ? img.png() : format === 'jpeg' ? img.jpeg({ quality: 90 }) : img.webp({ quality: 90 })).toBuffer()
  writeFileSync(file, bytes)
  return bytes
}

export function makeWav(file: string, samples = 800): Buffer {
  const bytes = pcmWav(samples, { rate: 8000, amp: (i) => (Math.sin(i / 5) * 8000) / 32767 })
  writeFileSync(file, bytes)
  return bytes
}

export const MM_CONFIG = `from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer

mm_reader_cfg = dict(input_columns=['question', 'image'], output_column='answer', test_split='test')
mm_infer_cfg = dict(
    prompt_template=dict(
        type=MMPromptTemplate,
        template=dict(round=[dict(role='HUMAN', prompt_mm={
            'text': {'type': 'text', 'text': '{question}'},
            'image': {'type': 'image_url', 'image_url': {'url': '{image}'}},
            'audio': {'type': 'audio_url', 'audio_url': {'url': '{audio}'}},
        })]),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)
mm_datasets = [dict(abbr='mm', path='../data', reader_cfg=mm_reader_cfg, infer_cfg=mm_infer_cfg)]
`

/** A project: configs/mm_gen.py, data/test.jsonl (rows with AIS content over media/img-<i>.png), media files. */
export async function makeMmProject(root: string, rows: number, size: [number, number] = [64, 48]): Promise<{ config: string; data: string; images: Buffer[] }> {
  const data = join(root, 'data')
  mkdirSync(join(data, 'media'), { recursive: true })
  mkdirSync(join(root, 'configs'))
  const images: Buffer[] = []
  const lines: string[] = []
  for (let i = 0; i < rows; i++) {
    images.push(await makeImage(join(data, 'media', `img-${i}.png`), size[0], size[1]))
    const q = `Question ${i}: what is shown?`
    lines.push(JSON.stringify({ id: `r${i}`, question: q, answer: 'A', image: `media/img-${i}.png`, content: `<AIS_IMAGE_START>media/img-${i}.png<AIS_CONTENT_TAG><AIS_TEXT_START>${q}` }))
  }
  writeFileSync(join(data, 'test.jsonl'), lines.join('\n') + '\n')
  const config = join(root, 'configs', 'mm_gen.py')
  writeFileSync(config, MM_CONFIG)
  return { config, data, images }
}
