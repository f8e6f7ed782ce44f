// @vitest-environment happy-dom
// A model's media parts shown in place (#9 item 5): each picture right after the placeholder run its template
// wrote, the exact text itself unchanged around it; a part with no loadable URL is named, never inlined as data.
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import SegmentText from '../../../renderer/src/components/SegmentText.vue'
import type { ModelMediaPart } from '../../../shared/api/types'

const PH = '<|vision_start|><|image_pad|><|vision_end|>'
const text = `<|im_start|>user\n${PH}What colour?${PH}And this?<|im_end|>\n`

describe('SegmentText with media parts', () => {
  const media: ModelMediaPart[] = [
    { modality: 'image', ref: 'a.png', placeholder: PH, url: '/media?path=a.png', tokens: 99 },
    { modality: 'image', ref: 'b.png', placeholder: PH, tokens: null }
  ]

  it('puts each picture right after its placeholder run, in order', () => {
    const w = mount(SegmentText, { props: { text, media } })
    const html = w.find('pre').html()
    const first = html.indexOf('data-testid="inline-media"')
    const second = html.indexOf('data-testid="inline-media"', first + 1)
    expect(first).toBeGreaterThan(html.indexOf('image_pad'))
    expect(html.slice(first, second)).toContain('What colour?')
    expect(w.findAll('[data-testid=inline-media-image]').map((e) => e.attributes('src'))).toEqual(['/media?path=a.png'])
    expect(w.findAll('[data-testid=inline-media]')[1].text()).toContain('image: b.png')
  })

  it('leaves the text around the pictures whole', () => {
    const w = mount(SegmentText, { props: { text, media } })
    const spans = w.findAll('pre > span:not(.inline-media)').map((e) => e.element.textContent ?? '').join('')
    expect(spans.replace(/↵/g, '')).toBe(text)
  })

  it('shows nothing inline for a dropped part', () => {
    const w = mount(SegmentText, { props: { text: 'x', media: [{ modality: 'audio', ref: 'c.wav', dropped: true }] } })
    expect(w.findAll('[data-testid=inline-media]')).toHaveLength(0)
  })
})
