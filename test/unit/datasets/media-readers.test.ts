// Readers keep media as media: Parquet binary stays bytes, Hugging Face Image/Audio structs are one media value
// (from the schema metadata or by shape), VLMEvalKit base64 cells and OpenAI content parts are media columns or
// references, and the default template never puts a media column into the prompt text.
import { describe, expect, it } from 'vitest'
import { openDataset } from '../../../main/services/datasets'
import { findMediaRefs } from '../../../main/services/workspace/row-media'
import { defaultVariant } from '../../../main/services/workspace/variants'
import { hfFeatureKinds } from '../../../shared/media/media-value'
import { hfParquet, jpeg, png, put, wav, workDir } from '../loaders/fixtures'

describe('media in readers', () => {
  it('keeps Parquet binary as bytes ({"$bytes": base64}), never UTF-8 text', async () => {
    const w = workDir()
    const bytes = await png()
    const f = put(
      w.data,
      'hf.parquet',
      hfParquet([
        { name: 'q', kind: 'string', data: ['a'] },
        { name: 'image', kind: 'media', data: [{ bytes, path: 'x.png' }] }
      ])
    )
    const h = await openDataset(f, { cacheDir: null })
    const row = (await h.readRow('default', 0))!.value
    expect(row.image).toEqual({ bytes: { $bytes: bytes.toString('base64') }, path: 'x.png' })
  })

  it('marks HF Image and Audio columns as media from the huggingface metadata and counts embedded bytes', async () => {
    const w = workDir()
    const f = put(
      w.data,
      'hf.parquet',
      hfParquet(
        [
          { name: 'q', kind: 'string', data: ['a', 'b'] },
          {
            name: 'image',
            kind: 'media',
            data: [
              { bytes: await png(), path: 'x.png' },
              { bytes: await jpeg(), path: null }
            ]
          },
          {
            name: 'audio',
            kind: 'media',
            data: [
              { bytes: wav(), path: 'a.wav' },
              { bytes: wav(), path: null }
            ]
          }
        ],
        {
          q: { _type: 'Value', dtype: 'string' },
          image: { _type: 'Image' },
          audio: { _type: 'Audio', sampling_rate: 16000 }
        }
      )
    )
    const h = await openDataset(f, { cacheDir: null })
    expect(h.columns.map((c) => [c.name, c.media ?? null])).toEqual([
      ['q', null],
      ['image', 'image'],
      ['audio', 'audio']
    ])
    expect(h.media.byKind).toEqual({ bytes: 4 })
    // The struct's path is a name when bytes are there, not a missing file.
    expect(h.media.files).toEqual([])
    expect(h.errors).toEqual([])
  })

  it('recognises HF media structs by shape when the file has no huggingface metadata', async () => {
    const w = workDir()
    const f = put(
      w.data,
      'plain.parquet',
      hfParquet([{ name: 'picture', kind: 'media', data: [{ bytes: await png(), path: null }] }])
    )
    const h = await openDataset(f, { cacheDir: null })
    expect(h.columns.find((c) => c.name === 'picture')?.media).toBe('image')
  })

  it('reads both spellings of the huggingface schema metadata, lists of features included', () => {
    expect([
      ...hfFeatureKinds(JSON.stringify({ info: { features: { a: { _type: 'Image' }, b: { _type: 'Value' } } } }))
    ]).toEqual([['a', 'image']])
    expect([
      ...hfFeatureKinds(
        JSON.stringify({
          dataset_info: {
            features: { imgs: { _type: 'Sequence', feature: { _type: 'Image' } }, v: [{ _type: 'Video' }] }
          }
        })
      )
    ]).toEqual([
      ['imgs', 'image'],
      ['v', 'video']
    ])
  })

  it('marks a VLMEvalKit base64 image column as media, and the default template leaves it out of the text', async () => {
    const w = workDir()
    const b64 = (await jpeg()).toString('base64')
    const f = put(w.data, 'bench.tsv', `index\tquestion\tanswer\timage\n1\tWhat?\tA\t${b64}\n2\tWhy?\tB\t${b64}\n`)
    const h = await openDataset(f, { cacheDir: null })
    expect(h.columns.find((c) => c.name === 'image')?.media).toBe('image')
    const v = defaultVariant(h.columns)
    expect(v.infer_cfg.prompt_template).toMatchObject({ template: 'index: {index}\nquestion: {question}\nAnswer: {answer}' })
  })

  it('finds image_url data: URLs and input_audio in OpenAI messages, and the bytes of an HF struct', () => {
    const row = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'input_audio', input_audio: { data: wav(512).toString('base64'), format: 'wav' } }
          ]
        }
      ],
      image: { bytes: { $bytes: 'iVBORw0KGgoAAAANSUhEUg==' }, path: 'x.png' }
    }
    const refs = findMediaRefs(row).map((r) => [r.field, r.refKind])
    expect(refs).toEqual([
      ['messages[0].content[1].image_url.url', 'data-url'],
      ['messages[0].content[2].input_audio.data', 'base64'],
      ['image', 'base64']
    ])
  })
})
