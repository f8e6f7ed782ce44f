import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { LOADERS } from '../../../shared/loaders'
import { filesUnder, hfParquet, ioFor, png, put, workDir } from './fixtures'

describe('AISBench loaders over Parquet', () => {
  it('HLEDataset puts the question first and a non-empty image string after it', async () => {
    const w = workDir()
    put(
      w.data,
      'hle.parquet',
      hfParquet([
        { name: 'question', kind: 'string', data: ['Q1', 'Q2'] },
        { name: 'image', kind: 'string', data: ['data:image/png;base64,AAAA', ''] },
        { name: 'answer', kind: 'string', data: ['a', 'b'] }
      ])
    )
    const r = await LOADERS.HLEDataset({ path: path.join(w.data, 'hle.parquet') }, ioFor(w))
    expect(r.rows.map((x) => x.content)).toEqual([
      '<AIS_TEXT_START>Q1<AIS_CONTENT_TAG><AIS_IMAGE_START>data:image/png;base64,AAAA<AIS_CONTENT_TAG>',
      '<AIS_TEXT_START>Q2<AIS_CONTENT_TAG>'
    ])
  })

  it('RealworldQADataset writes the image bytes unchanged as image_<row>.webp in the cache', async () => {
    const w = workDir()
    const bytes = await png()
    put(
      w.data,
      'rw/data/test-0.parquet',
      hfParquet([
        { name: 'question', kind: 'string', data: ['Where?'] },
        { name: 'answer', kind: 'string', data: ['here'] },
        { name: 'image', kind: 'media', data: [{ bytes, path: null }] }
      ])
    )
    const r = await LOADERS.RealworldQADataset({ path: path.join(w.data, 'rw/data/test-0.parquet') }, ioFor(w))
    const file = path.join(r.imageRoot!, 'image_0.webp')
    expect(readFileSync(file).equals(bytes)).toBe(true)
    expect(String(r.rows[0].content).endsWith(`<AIS_IMAGE_START>${file}<AIS_CONTENT_TAG>`)).toBe(true)
    expect(filesUnder(path.join(w.data, 'rw'))).toEqual(['data/test-0.parquet'])
  })

  it('RefCOCODataset makes one row per referring expression with the bbox as [x, y, x+w, y+h]', async () => {
    const w = workDir()
    put(
      w.data,
      'rc/val-00000.parquet',
      hfParquet([
        { name: 'question_id', kind: 'int', data: [7] },
        { name: 'file_name', kind: 'string', data: ['a.jpg'] },
        { name: 'image', kind: 'media', data: [{ bytes: await png(32, 24, 4), path: null }] },
        { name: 'answer', kind: 'strings', data: [['left dog', 'the dog']] },
        { name: 'bbox', kind: 'doubles', data: [[1, 2, 10, 5.5]] }
      ])
    )
    const r = await LOADERS.RefCOCODataset({ path: path.join(w.data, 'rc'), split: 'val' }, ioFor(w))
    const file = path.join(r.imageRoot!, 'a.jpg')
    expect(r.rows).toEqual([
      {
        content: `<AIS_IMAGE_START>${file}<AIS_CONTENT_TAG><AIS_TEXT_START>left dog<AIS_CONTENT_TAG>`,
        answer: '{"question_id": 7, "bbox": [1.0, 2.0, 11.0, 7.5], "image_width": 32, "image_height": 24}'
      },
      {
        content: `<AIS_IMAGE_START>${file}<AIS_CONTENT_TAG><AIS_TEXT_START>the dog<AIS_CONTENT_TAG>`,
        answer: '{"question_id": 7, "bbox": [1.0, 2.0, 11.0, 7.5], "image_width": 32, "image_height": 24}'
      }
    ])
    expect(r.upstreamImageRoot).toBe(path.join(w.data, 'rc/temp_save_images/val'))
  })

  it('VideoMMEDataset joins the options under the question and points at <video_path>/<videoID>.mp4', async () => {
    const w = workDir()
    put(
      w.data,
      'vm.parquet',
      hfParquet([
        { name: 'videoID', kind: 'string', data: ['abc'] },
        { name: 'question', kind: 'string', data: ['Which?'] },
        { name: 'options', kind: 'strings', data: [['A. x', 'B. y']] },
        { name: 'answer', kind: 'string', data: ['A'] }
      ])
    )
    const r = await LOADERS.VideoMMEDataset({ path: path.join(w.data, 'vm.parquet'), video_path: 'videos' }, ioFor(w))
    expect(String(r.rows[0].content)).toContain(
      `<AIS_VIDEO_START>${path.join(w.data, 'videos/abc.mp4')}<AIS_CONTENT_TAG>`
    )
    expect(String(r.rows[0].content)).toContain(
      '<AIS_TEXT_START>Question: Which?\nA. x\nB. y\nAnswer: <AIS_CONTENT_TAG>'
    )
  })

  it('MMMUDataset writes image_N bytes unchanged, named after the struct path suffix, and places them at <image N>', async () => {
    const w = workDir()
    const a = await png()
    put(
      w.data,
      'Art/validation-0.parquet',
      hfParquet([
        { name: 'id', kind: 'string', data: ['validation_Art_1'] },
        { name: 'question', kind: 'string', data: ['Compare <image 1> with this.'] },
        { name: 'options', kind: 'string', data: ["['red', 'blue']"] },
        { name: 'answer', kind: 'string', data: ['A'] },
        { name: 'image_1', kind: 'media', data: [{ bytes: a, path: 'x.jpg' }] }
      ])
    )
    const r = await LOADERS.MMMUDataset(
      { path: w.data, split: 'validation', mult_choice_prompt: '{question}\n{choices}\n({letters})' },
      ioFor(w)
    )
    const file = path.join(r.imageRoot!, 'validation_Art_1_1.jpg')
    expect(readFileSync(file).equals(a)).toBe(true)
    expect(r.rows[0].content).toBe(
      `<AIS_TEXT_START>Compare <AIS_CONTENT_TAG><AIS_IMAGE_START>${file}<AIS_CONTENT_TAG><AIS_TEXT_START> with this.\nA) red\nB) blue\n(A,B)<AIS_CONTENT_TAG>`
    )
    expect(r.rows[0].answer).toMatchObject({
      type: 'multiple-choice',
      choices: '{"A": "red", "B": "blue"}',
      answer: 'A',
      subject: 'Art'
    })
  })

  it('MathVisionDataset filters levels, saves a decoded Image feature as <id>.png and puts the question first', async () => {
    const w = workDir()
    put(
      w.data,
      'mv/data/test-00000.parquet',
      hfParquet(
        [
          { name: 'id', kind: 'string', data: ['1', '2'] },
          { name: 'question', kind: 'string', data: ['Which?', 'Too hard?'] },
          { name: 'options', kind: 'strings', data: [['red', 'blue'], []] },
          {
            name: 'decoded_image',
            kind: 'media',
            data: [
              { bytes: await png(), path: null },
              { bytes: await png(), path: null }
            ]
          },
          { name: 'answer', kind: 'string', data: ['2', '7'] },
          { name: 'level', kind: 'int', data: [1, 5] }
        ],
        { decoded_image: { _type: 'Image' } }
      )
    )
    const r = await LOADERS.MathVisionDataset(
      { path: path.join(w.data, 'mv'), split: 'test', subset_list: ['Level 1'] },
      ioFor(w)
    )
    const file = path.join(r.imageRoot!, '1.png')
    expect(r.rows).toHaveLength(1)
    expect(r.rows[0]).toMatchObject({
      image: file,
      question_type: 'mcq',
      choices_text: 'A) red\nB) blue',
      answer: { type: 'mcq', answer: 'B', choices: '{"A": "red", "B": "blue"}', level: 1 }
    })
    expect(r.rows[0].content).toBe(
      `<AIS_TEXT_START>Which?\n\nA) red\nB) blue<AIS_CONTENT_TAG><AIS_IMAGE_START>${file}<AIS_CONTENT_TAG>`
    )
  })
})
