// Audit: AIS MMPromptTemplate (ais_bench/benchmark/openicl/icl_prompt_template/icl_prompt_template_mm.py) and
// PromptList.format_mm (ais_bench/benchmark/utils/prompt.py).
import { describe, expect, it } from 'vitest'
import type { PipelineInput } from '../../../shared/engine'
import { prep } from './helpers'
import { renderRow } from '../../../shared/engine'

const META = { round: [{ role: 'HUMAN', api_role: 'HUMAN' }, { role: 'BOT', api_role: 'BOT', generate: true }] }

function mm(template: unknown, test: Record<string, unknown>[]): Partial<PipelineInput> {
  return {
    family: 'aisbench',
    parser: 'api',
    meta_template: META,
    reader_cfg: { input_columns: ['question'], output_column: 'answer' },
    test,
    infer_cfg: { prompt_template: { type: 'MMPromptTemplate', template }, retriever: { type: 'ZeroRetriever' }, inferencer: { type: 'GenInferencer' } }
  }
}

const IMAGE_DICT = { type: 'image_url', image_url: { url: 'data:{image}' } }
const TEXT = { type: 'text', text: '{question}' }

describe('format_mm', () => {
  // `image_content = deepcopy(mm['image'])` (utils/prompt/prompt.py at 29c363e), then its url is filled: each
  // image part keeps its own url (golden ais-load-docvqa-001 has two images in one row).
  it('gives every image part of an item its own url when image_url is a dict', () => {
    const p = prep(mm({ round: [{ role: 'HUMAN', prompt_mm: { text: TEXT, image: IMAGE_DICT } }] }, [
      { content: '<AIS_IMAGE_START>IM1<AIS_CONTENT_TAG><AIS_TEXT_START>T<AIS_CONTENT_TAG><AIS_IMAGE_START>IM2', answer: 'x' }
    ]))
    const json = renderRow(p, 0).items[0].promptList?.json as Array<Record<string, unknown>>
    expect(json[1].prompt_mm).toEqual([
      { type: 'image_url', image_url: { url: 'data:IM1' } },
      { type: 'text', text: 'T' },
      { type: 'image_url', image_url: { url: 'data:IM2' } }
    ])
  })

  it('fills each image part from its own segment when image_url is a str (top-level key of the copy)', () => {
    const p = prep(mm({ round: [{ role: 'HUMAN', prompt_mm: { image: { type: 'image_url', image_url: 'data:{image}' } } }] }, [
      { content: '<AIS_IMAGE_START>IM1<AIS_CONTENT_TAG><AIS_IMAGE_START>IM2', answer: 'x' }
    ]))
    const json = renderRow(p, 0).items[0].promptList?.json as Array<Record<string, unknown>>
    expect(json[1].prompt_mm).toEqual([
      { type: 'image_url', image_url: 'data:IM1' },
      { type: 'image_url', image_url: 'data:IM2' }
    ])
  })

  // generate_item deep-copies the template per row (format_mm_url), so rows do not leak into each other.
  it('starts every row from the template url', () => {
    const p = prep(mm({ round: [{ role: 'HUMAN', prompt_mm: { image: IMAGE_DICT } }] }, [
      { content: '<AIS_IMAGE_START>R1', answer: 'x' },
      { content: '<AIS_IMAGE_START>R2', answer: 'y' }
    ]))
    const urls = [0, 1].map((i) => ((renderRow(p, i).items[0].promptList?.json as Array<Record<string, any>>)[1].prompt_mm[0].image_url.url))
    expect(urls).toEqual(['data:R1', 'data:R2'])
  })
})

describe('check_mm_template', () => {
  // `"prompt_mm" not in data.keys()` on a str round item.
  it('raises AttributeError for a str item in round', () => {
    const p = prep(mm({ round: ['intro', { role: 'HUMAN', prompt_mm: { text: TEXT } }] }, [{ content: '<AIS_TEXT_START>T', answer: 'x' }]))
    expect(renderRow(p, 0).error?.message).toBe("AttributeError: 'str' object has no attribute 'keys'")
  })

  it('returns False (a warning, no error) when a dict without prompt_mm comes before the str item', () => {
    const p = prep(mm({ round: [{ role: 'HUMAN', prompt: 'hi' }, 'later'] }, [{ content: '', answer: 'x' }]))
    const r = renderRow(p, 0)
    expect(r.error).toBeUndefined()
    expect(r.warnings.map((w) => w.code)).toContain('mm-template-without-prompt-mm')
  })
})

describe('generate_item after format_mm', () => {
  // `if "prompt_mm" in item` is a substring test for a str item, then get_mm_template indexes it with a str.
  it('raises TypeError for a str item containing "prompt_mm"', () => {
    const p = prep(mm({ begin: 'see prompt_mm', round: [{ role: 'HUMAN', prompt_mm: { text: TEXT } }] }, [{ content: '<AIS_TEXT_START>T', answer: 'x' }]))
    expect(renderRow(p, 0).error?.message).toBe("TypeError: string indices must be integers, not 'str'")
  })
})
