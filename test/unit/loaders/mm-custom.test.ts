import { describe, expect, it } from 'vitest'
import path from 'node:path'
import { LOADERS } from '../../../shared/loaders'
import { ioFor, png, put, workDir } from './fixtures'

describe('MMCustomDataset', () => {
  it('builds content from the paths as written and ends with the question, without a closing tag', async () => {
    const w = workDir()
    put(
      w.data,
      'mm.jsonl',
      '{"type": "image", "path": ["a.png", "/x/b.png"], "question": "Q {image}", "answer": "A"}\n'
    )
    const r = await LOADERS.MMCustomDataset({ path: path.join(w.data, 'mm.jsonl'), mm_type: 'path' }, ioFor(w))
    expect(r.rows).toEqual([
      {
        type: 'image',
        path: ['a.png', '/x/b.png'],
        question: 'Q {image}',
        answer: 'A',
        content:
          '<AIS_IMAGE_START>a.png<AIS_CONTENT_TAG><AIS_IMAGE_START>/x/b.png<AIS_CONTENT_TAG><AIS_TEXT_START>Q {image}'
      }
    ])
  })

  it('inlines the file bytes as base64 with mm_type="base64", relative paths from the working folder', async () => {
    const w = workDir()
    const bytes = await png()
    put(w.data, 'm/a.png', bytes)
    put(w.data, 'mm.jsonl', '{"type": "image", "path": ["m/a.png"], "question": "Q"}\n')
    const r = await LOADERS.MMCustomDataset({ path: path.join(w.data, 'mm.jsonl'), mm_type: 'base64' }, ioFor(w))
    expect(r.rows[0].content).toBe(`<AIS_IMAGE_START>${bytes.toString('base64')}<AIS_CONTENT_TAG><AIS_TEXT_START>Q`)
  })

  it("keeps the first row's columns only, as Dataset.from_list does", async () => {
    const w = workDir()
    put(
      w.data,
      'mm.jsonl',
      '{"type": "audio", "path": ["a.wav"], "question": "Q", "id": 1}\n{"type": "audio", "path": ["b.wav"], "question": "R", "answer": "x"}\n'
    )
    const r = await LOADERS.MMCustomDataset({ path: path.join(w.data, 'mm.jsonl'), mm_type: 'path' }, ioFor(w))
    expect(r.columns).toEqual(['type', 'path', 'question', 'id', 'content'])
    expect(r.rows[1].id).toBeNull()
  })

  it('refuses a line of another type with UTILS-CFG-008, and a blank line with JSONDecodeError', async () => {
    const w = workDir()
    put(w.data, 'bad.jsonl', '{"type": "text", "path": [], "question": "Q"}\n')
    await expect(
      LOADERS.MMCustomDataset({ path: path.join(w.data, 'bad.jsonl'), mm_type: 'path' }, ioFor(w))
    ).rejects.toMatchObject({ pyClass: 'AISBenchConfigError', code: 'UTILS-CFG-008' })
    put(w.data, 'blank.jsonl', '{"type": "image", "path": [], "question": "Q"}\n\n')
    await expect(
      LOADERS.MMCustomDataset({ path: path.join(w.data, 'blank.jsonl'), mm_type: 'path' }, ioFor(w))
    ).rejects.toMatchObject({ pyClass: 'JSONDecodeError' })
  })
})
