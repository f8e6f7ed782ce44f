// OpenCompass's _convert_chat_messages merges consecutive same-role turns with
// `merged[-1]['content'] += '\n' + item['content']` (huggingface_above_v4_33.py:83): Python's operators decide what a
// multimodal (list) content does there.
import { describe, expect, it } from 'vitest'
import { chatMessages } from '../../../shared/engine'

const parts = [{ type: 'text', text: 'a' }]

describe('_convert_chat_messages with list content', () => {
  it("raises TypeError when a list follows a str of the same role ('\\n' + list)", () => {
    expect(() => chatMessages([{ role: 'HUMAN', prompt: 'x' }, { role: 'HUMAN', prompt: parts }])).toThrow('can only concatenate str (not "list") to str')
  })

  it('extends a list content by the characters of the str that follows (list += str)', () => {
    expect(chatMessages([{ role: 'HUMAN', prompt: parts }, { role: 'HUMAN', prompt: 'yz' }])).toEqual([{ role: 'user', content: [...parts, '\n', 'y', 'z'] }])
  })

  it('joins two str contents with a newline', () => {
    expect(chatMessages([{ role: 'HUMAN', prompt: 'x' }, { role: 'HUMAN', prompt: 'y' }])).toEqual([{ role: 'user', content: 'x\ny' }])
  })
})
