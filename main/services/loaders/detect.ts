// Recognises an AISBench mm_custom JSONL opened without its config ({"type": "image"|"video"|"audio",
// "path": [...], "question": …} on every line, as check_mm_custom requires) and gives it the config AISBench
// ships for it (configs/datasets/mm_custom/mm_custom_gen.py), so its rows are built by MMCustomDataset.load()
// and render through MMPromptTemplate with the media in place.
import { open } from 'node:fs/promises'
import type { DatasetConfig } from '../../../shared/config/import'
import { jsonObject } from '../../../shared/python/json'

const MM_TYPES = new Set(['image', 'video', 'audio'])

/** True when the first lines (up to 64 KiB) of a .jsonl file all have the mm_custom shape. */
export async function looksLikeMmCustom(file: string): Promise<boolean> {
  if (!/\.jsonl$/i.test(file)) return false
  const fh = await open(file, 'r').catch(() => null)
  if (!fh) return false
  try {
    const buf = Buffer.alloc(64 << 10)
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0)
    const lines = buf.toString('utf8', 0, bytesRead).split('\n')
    if (bytesRead === buf.length) lines.pop()
    let seen = 0
    for (const l of lines) {
      if (!l.trim()) continue
      let o: unknown
      try {
        o = JSON.parse(l)
      } catch {
        return false
      }
      const line = jsonObject(o)
      if (typeof line.type !== 'string' || !MM_TYPES.has(line.type) || !Array.isArray(line.path) || typeof line.question !== 'string') return false
      seen++
    }
    return seen > 0
  } finally {
    await fh.close()
  }
}

/** mm_custom_gen.py's entry for one file. */
export function mmCustomConfig(file: string): DatasetConfig {
  const reader_cfg = { input_columns: ['question', 'image', 'video', 'audio'], output_column: 'answer' }
  const infer_cfg = {
    prompt_template: {
      type: 'MMPromptTemplate',
      template: {
        round: [
          {
            role: 'HUMAN',
            prompt_mm: {
              text: { type: 'text', text: '{question}' },
              image: { type: 'image_url', image_url: { url: 'file://{image}' } },
              video: { type: 'video_url', video_url: { url: 'file://{video}' } },
              audio: { type: 'audio_url', audio_url: { url: 'file://{audio}' } }
            }
          }
        ]
      }
    },
    retriever: { type: 'ZeroRetriever' },
    inferencer: { type: 'GenInferencer' }
  }
  const raw = {
    abbr: 'mm_custom',
    type: 'MMCustomDataset',
    path: file,
    mm_type: 'path',
    num_frames: 5,
    reader_cfg,
    infer_cfg
  }
  return {
    variable: 'mm_custom_datasets',
    index: 0,
    abbr: 'mm_custom',
    type: 'MMCustomDataset',
    path: file,
    reader_cfg,
    infer_cfg,
    raw
  }
}
