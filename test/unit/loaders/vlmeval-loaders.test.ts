import { describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { LOADERS } from '../../../shared/loaders'
import { filesUnder, ioFor, jpeg, png, put, workDir } from './fixtures'

const tsv = (rows: string[][]): string => rows.map((r) => r.join('\t')).join('\n') + '\n'

describe('AISBench loaders over VLMEvalKit TSVs', () => {
  it('MMStar: content puts the picture first, then Hint/question/Options with no newline before Options', async () => {
    const w = workDir()
    const img = (await jpeg()).toString('base64')
    put(
      w.data,
      'MMStar.tsv',
      tsv([
        ['index', 'question', 'hint', 'A', 'B', 'answer', 'category', 'image'],
        ['3', 'What?', 'Look', 'cat', 'dog', 'A', 'c1', img]
      ])
    )
    const r = await LOADERS.MMStarDataset({ path: path.join(w.data, 'MMStar.tsv') }, ioFor(w))
    expect(r.columns).toEqual(['content', 'answer'])
    expect(r.rows[0].content).toBe(
      `<AIS_IMAGE_START>${path.join(r.imageRoot!, '3.jpg')}<AIS_CONTENT_TAG><AIS_TEXT_START>Hint: Look\nWhat?Options:\nA. cat\nB. dog\nPlease select the correct answer from the options above. \n<AIS_CONTENT_TAG>`
    )
    expect(r.rows[0].answer).toEqual({
      choices: '{"A": "cat", "B": "dog"}',
      answer: 'A',
      split: null,
      'l2-category': null,
      category: 'c1'
    })
  })

  it('decodes pictures into the media cache, never beside the source TSV', async () => {
    const w = workDir()
    put(
      w.data,
      'MMStar.tsv',
      tsv([
        ['index', 'question', 'answer', 'image'],
        ['1', 'q', 'A', (await png(16, 12, 4)).toString('base64')]
      ])
    )
    const r = await LOADERS.MMStarDataset({ path: path.join(w.data, 'MMStar.tsv') }, ioFor(w))
    expect(filesUnder(w.data)).toEqual(['MMStar.tsv'])
    expect(r.upstreamImageRoot).toBe(path.join(w.data, 'MMStar_images'))
    expect(r.imageRoot!.startsWith(w.cache)).toBe(true)
    // RGBA becomes RGB and the .jpg name makes it a JPEG, as decode_base64_to_image_file does.
    const md = await sharp(path.join(r.imageRoot!, '1.jpg')).metadata()
    expect([md.format, md.channels]).toEqual(['jpeg', 3])
  })

  it("MMStar keeps upstream's KeyError for an index reference (string looked up among int keys)", async () => {
    const w = workDir()
    put(
      w.data,
      'MMStar.tsv',
      tsv([
        ['index', 'question', 'answer', 'image'],
        ['1', 'q', 'A', (await jpeg()).toString('base64')],
        ['2', 'q2', 'B', '1']
      ])
    )
    await expect(LOADERS.MMStarDataset({ path: path.join(w.data, 'MMStar.tsv') }, ioFor(w))).rejects.toMatchObject({
      pyClass: 'KeyError',
      message: "'1'"
    })
  })

  it('DocVQA resolves index references and splits a list-literal cell into several pictures', async () => {
    const w = workDir()
    const a = (await jpeg()).toString('base64')
    const b = (await png()).toString('base64')
    put(
      w.data,
      'DocVQA_VAL.tsv',
      tsv([
        ['index', 'question', 'answer', 'image'],
        ['7', 'q1', "['x']", a],
        ['8', 'q2', "['y']", '7'],
        ['9', 'q3', "['z']", `"['${a}', '${b}']"`]
      ])
    )
    const r = await LOADERS.DocVQADataset({ path: path.join(w.data, 'DocVQA_VAL.tsv') }, ioFor(w))
    const root = r.imageRoot!
    expect(r.rows.map((x) => x.content)).toEqual([
      `<AIS_IMAGE_START>${root}/7.jpg<AIS_CONTENT_TAG><AIS_TEXT_START>q1\nAnswer the question using a single word or phrase.<AIS_CONTENT_TAG>`,
      `<AIS_IMAGE_START>${root}/8.jpg<AIS_CONTENT_TAG><AIS_TEXT_START>q2\nAnswer the question using a single word or phrase.<AIS_CONTENT_TAG>`,
      `<AIS_IMAGE_START>${root}/9_0.png<AIS_CONTENT_TAG><AIS_IMAGE_START>${root}/9_1.png<AIS_CONTENT_TAG><AIS_TEXT_START>q3\nAnswer the question using a single word or phrase.<AIS_CONTENT_TAG>`
    ])
    expect(existsSync(path.join(root, '8.jpg'))).toBe(true)
  })

  it('MMMU-Pro options-10 interleaves pictures at <image N> tags and prints float options as 4.0', async () => {
    const w = workDir()
    const a = (await jpeg()).toString('base64')
    put(
      w.data,
      'p.tsv',
      tsv([
        ['index', 'question', 'A', 'B', 'answer', 'category', 'image'],
        ['5', 'See <image 1> now', '4', '', 'A', 'math', a],
        ['6', 'x', '', '2', 'B', 'math', a]
      ])
    )
    const r = await LOADERS.MMMUProOptions10Dataset({ path: path.join(w.data, 'p.tsv') }, ioFor(w))
    expect(r.rows[0].content).toBe(
      `<AIS_TEXT_START>Question: See <AIS_CONTENT_TAG><AIS_IMAGE_START>${r.imageRoot}/5.jpg<AIS_CONTENT_TAG><AIS_TEXT_START> now\nOptions:\nA. 4.0\nAnswer directly with the option letter from the given choices. <AIS_CONTENT_TAG>`
    )
  })

  it('MMMU-Pro vision refuses an all-integer option column in json.dumps, as numpy int64 is', async () => {
    const w = workDir()
    put(
      w.data,
      'v.tsv',
      tsv([
        ['index', 'A', 'B', 'answer', 'category', 'image'],
        ['1', '3', '4', 'A', 'c', (await jpeg()).toString('base64')]
      ])
    )
    await expect(LOADERS.MMMUProVisionDataset({ path: path.join(w.data, 'v.tsv') }, ioFor(w))).rejects.toMatchObject({
      pyClass: 'TypeError'
    })
  })
})
