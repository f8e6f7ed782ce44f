// The multimodal render form (--format multimodal): content parts become stable placeholders in the text, numbered
// per kind across the prompt, with the map from each placeholder to its part.
import { describe, expect, it } from 'vitest'
import { toMediaMap } from '../../../shared/models'

describe('toMediaMap', () => {
  it('numbers each kind across the whole prompt, in order, and joins the text parts as they are', () => {
    const img = (u: string) => ({ type: 'image_url', image_url: { url: u } })
    const r = toMediaMap([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [img('a.png'), { type: 'text', text: 'First. ' }, { type: 'input_audio', input_audio: { data: 'AAA', format: 'wav' } }, img('b.png'), { type: 'text', text: 'Second?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'video_url', video_url: { url: 'c.mp4' } }, img('d.png')] }
    ])
    expect(r.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: '<image_1>First. <audio_1><image_2>Second?' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: '<video_1><image_3>' }
    ])
    expect(Object.keys(r.media)).toEqual(['<image_1>', '<audio_1>', '<image_2>', '<video_1>', '<image_3>'])
    expect(r.media['<image_2>']).toEqual(img('b.png'))
    expect(r.clash).toBe(false)
  })

  it("says when the data's own text already holds a placeholder-shaped string", () => {
    expect(toMediaMap([{ role: 'user', content: [{ type: 'text', text: 'see <image_1> above' }] }]).clash).toBe(true)
    expect(toMediaMap([{ role: 'user', content: 'plain <audio_2>' }]).clash).toBe(true)
  })
})
