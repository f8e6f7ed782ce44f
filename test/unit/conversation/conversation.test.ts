// Conversation-shaped rows (shared/conversation): OpenAI messages and LLaVA/ShareGPT conversations become one list of
// OpenAI-style messages, media parts where the data puts them, the final assistant turn kept apart as the reference.
import { describe, expect, it } from 'vitest'
import { contentPlainText, conversationColumn, partMedia, rowConversation } from '../../../shared/conversation'

const openai = { column: 'messages', style: 'openai' as const }
const sharegpt = { column: 'conversations', style: 'sharegpt' as const }
const image = (url: string) => ({ type: 'image_url', image_url: { url } })

describe('conversation datasets', () => {
  it('recognises a messages column as OpenAI chat and a conversations column as ShareGPT', () => {
    expect(conversationColumn([{ name: 'messages', type: 'array' }])).toEqual(openai)
    expect(conversationColumn([{ name: 'id', type: 'string' }, { name: 'conversations', type: 'array' }])).toEqual(sharegpt)
    expect(conversationColumn([{ name: 'messages', type: 'string' }, { name: 'question', type: 'string' }])).toBeNull()
  })

  it('still recognises a conversations column that a few broken rows make mixed', () => {
    expect(conversationColumn([{ name: 'conversations', type: 'mixed', counts: { array: 2, string: 1 }, present: 3 }])).toEqual(sharegpt)
    expect(conversationColumn([{ name: 'conversations', type: 'mixed', counts: { array: 1, string: 2 }, present: 3 }])).toBeNull()
  })

  it('keeps OpenAI content parts as they are and takes the final assistant turn as the reference answer', () => {
    const parts = [{ type: 'text', text: 'What colour?' }, image('data:image/png;base64,iVBORw0KGgo=')]
    const r = rowConversation(
      { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: parts }, { role: 'assistant', content: 'Green.' }] },
      openai
    )
    expect(r.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: parts }])
    expect(r.reference).toEqual({ role: 'assistant', content: 'Green.' })
    expect(r.warnings).toEqual([])
  })

  it('keeps earlier assistant turns as history', () => {
    const r = rowConversation(
      { messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }, { role: 'assistant', content: 'd' }] },
      openai
    )
    expect(r.messages.map((m) => m.content)).toEqual(['a', 'b', 'c'])
    expect(r.reference?.content).toBe('d')
  })

  it('sends a conversation that ends on a user turn whole, with no reference answer', () => {
    const r = rowConversation({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }] }, openai)
    expect(r.messages).toHaveLength(3)
    expect(r.reference).toBeNull()
  })

  it('maps ShareGPT tags to roles and puts each <image> picture where the placeholder stands, text kept byte for byte', () => {
    const r = rowConversation(
      {
        images: ['a.png', 'b.png'],
        conversations: [
          { from: 'system', value: 'S' },
          { from: 'human', value: 'Compare <image> with\n<image>?' },
          { from: 'gpt', value: 'Same.' }
        ]
      },
      sharegpt
    )
    expect(r.messages).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: [{ type: 'text', text: 'Compare ' }, image('a.png'), { type: 'text', text: ' with\n' }, image('b.png'), { type: 'text', text: '?' }] }
    ])
    expect(r.reference).toEqual({ role: 'assistant', content: 'Same.' })
    expect(r.warnings).toEqual([])
  })

  it("takes LLaVA's single `image` field for the one <image>", () => {
    const r = rowConversation({ image: 'coco/1.jpg', conversations: [{ from: 'human', value: '<image>\nWhat is it?' }, { from: 'gpt', value: 'A cat.' }] }, sharegpt)
    expect(r.messages[0].content).toEqual([image('coco/1.jpg'), { type: 'text', text: '\nWhat is it?' }])
  })

  it('puts pictures with no placeholder before the first user turn, as LLaVA eval does, and says so', () => {
    const r = rowConversation({ image: 'x.png', conversations: [{ from: 'human', value: 'Describe.' }, { from: 'gpt', value: 'Ok.' }] }, sharegpt)
    expect(r.messages[0].content).toEqual([image('x.png'), { type: 'text', text: 'Describe.' }])
    expect(r.warnings.map((w) => [w.code, w.severity])).toEqual([['conversation-media-placed', 'info']])
  })

  it('leaves a placeholder without a picture as text and warns that LLaMA-Factory refuses the row', () => {
    const r = rowConversation({ image: 'x.png', conversations: [{ from: 'human', value: '<image> and <image>' }, { from: 'gpt', value: 'Ok.' }] }, sharegpt)
    expect(r.messages[0].content).toEqual([image('x.png'), { type: 'text', text: ' and <image>' }])
    expect(r.warnings).toEqual([expect.objectContaining({ code: 'conversation-media-count', severity: 'warning', message: expect.stringContaining('LLaMA-Factory refuses') })])
  })

  it('expands <image> in OpenAI-style string contents when the row lists images (LLaMA-Factory sharegpt with OpenAI tags)', () => {
    const r = rowConversation({ images: ['p.png'], messages: [{ role: 'user', content: '<image>Who?' }, { role: 'assistant', content: 'Me.' }] }, openai)
    expect(r.messages[0].content).toEqual([image('p.png'), { type: 'text', text: 'Who?' }])
  })

  it('sends a picture stored in the data (a Hugging Face Image struct) as a data: URL of its bytes', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'
    const r = rowConversation({ image: { bytes: { $bytes: png }, path: 'x.png' }, conversations: [{ from: 'human', value: '<image>Hi' }, { from: 'gpt', value: 'Ok.' }] }, sharegpt)
    expect(r.messages[0].content).toEqual([image(`data:image/png;base64,${png}`), { type: 'text', text: 'Hi' }])
  })

  it('says why a row without its conversation list sends nothing', () => {
    const r = rowConversation({ messages: 'not a list' }, openai)
    expect(r.messages).toEqual([])
    expect(r.warnings[0]).toMatchObject({ code: 'conversation-missing', severity: 'error' })
  })

  it('reads the media of every part spelling, input_audio as its base64', () => {
    expect(partMedia(image('a.png'))).toEqual({ kind: 'image', ref: 'a.png' })
    expect(partMedia({ type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } })).toEqual({ kind: 'audio', ref: 'UklGR', format: 'wav' })
    expect(partMedia({ type: 'video_url', video_url: 'v.mp4' })).toEqual({ kind: 'video', ref: 'v.mp4' })
    expect(partMedia({ type: 'text', text: 'x' })).toBeNull()
    expect(contentPlainText([{ type: 'text', text: 'a' }, image('b.png'), { type: 'text', text: 'c' }])).toBe('ac')
  })
})
