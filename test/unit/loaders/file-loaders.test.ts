import { describe, expect, it } from 'vitest'
import path from 'node:path'
import { LOADERS } from '../../../shared/loaders'
import { ioFor, jpeg, put, wav, workDir } from './fixtures'

describe('AISBench loaders over files and folders', () => {
  it('TEXTVQADataset joins the answers from <name>_annotations.json and puts the image first', async () => {
    const w = workDir()
    const img = put(w.data, 'imgs/1.jpg', await jpeg())
    put(w.data, 'tv/val.jsonl', JSON.stringify({ question_id: 5, image: img, question: 'Text?' }) + '\n')
    put(w.data, 'tv/val_annotations.json', JSON.stringify({ annotations: [{ question_id: 5, answers: ['stop'] }] }))
    const r = await LOADERS.TEXTVQADataset(
      { path: path.join(w.data, 'tv/val.jsonl'), image_type: 'image_path' },
      ioFor(w)
    )
    expect(r.rows[0]).toMatchObject({
      answer: ['stop'],
      image_url: img,
      content: `<AIS_IMAGE_START>${img}<AIS_CONTENT_TAG><AIS_TEXT_START>Text?<AIS_CONTENT_TAG>`
    })
  })

  it('TEXTVQADataset fails on a question without annotation', async () => {
    const w = workDir()
    put(w.data, 'tv/val.jsonl', JSON.stringify({ question_id: 6, image: 'x.jpg', question: 'Q' }) + '\n')
    put(w.data, 'tv/val_annotations.json', JSON.stringify({ annotations: [] }))
    await expect(
      LOADERS.TEXTVQADataset({ path: path.join(w.data, 'tv/val.jsonl'), image_type: 'image_path' }, ioFor(w))
    ).rejects.toMatchObject({ pyClass: 'ValueError' })
  })

  it('VocalSoundDataset takes the answer from the last "_" piece of the full path', async () => {
    const w = workDir()
    const f = put(w.data, 'vs/f01_2_cough.wav', wav())
    const r = await LOADERS.VocalSoundDataset({ path: path.join(w.data, 'vs'), audio_type: 'audio_path' }, ioFor(w))
    expect(r.rows).toHaveLength(1)
    expect(r.rows[0]).toMatchObject({ audio_url: f, answer: 'cough' })
    expect(
      String(r.rows[0].content).startsWith(`<AIS_AUDIO_START>${f}<AIS_CONTENT_TAG><AIS_TEXT_START>In this audio`)
    ).toBe(true)
  })

  it('VideoBenchDataset writes "Choices: " only for six choices and names the count', async () => {
    const w = workDir()
    put(w.data, 'vb/answer/ANSWER.json', JSON.stringify({ DS: { k1: 'A' } }))
    put(
      w.data,
      'vb/DS_new.json',
      JSON.stringify({
        k1: { vid_path: '/v/DS/1.mp4', video_id: 1, question: 'Q?', choices: { A: 'yes', B: 'no', C: null } }
      })
    )
    const r = await LOADERS.VideoBenchDataset({ path: path.join(w.data, 'vb'), video_type: 'video_path' }, ioFor(w))
    expect(r.rows[0]).toMatchObject({
      video_url: '/v/DS/1.mp4',
      video_id: '1',
      answer: 'A',
      choices_prompt: ' A.yes B.no \n Among the two options A, B above, the one closest to the correct answer is: '
    })
  })

  it('OmniDocBenchDataset keeps a copy of the page as answer and an absolute image url', async () => {
    const w = workDir()
    put(w.data, 'o.json', JSON.stringify([{ layout_dets: [], page_info: { image_path: 'p1.png' } }]))
    const r = await LOADERS.OmniDocBenchDataset({ path: path.join(w.data, 'o.json'), image_path: 'imgs' }, ioFor(w))
    expect(r.rows[0].answer).toEqual({ layout_dets: [], page_info: { image_path: 'p1.png' } })
    expect(r.rows[0].content).toBe(
      `<AIS_IMAGE_START>${path.join(w.data, 'imgs/p1.png')}<AIS_CONTENT_TAG><AIS_TEXT_START>Parse the image<AIS_CONTENT_TAG>`
    )
  })
})
