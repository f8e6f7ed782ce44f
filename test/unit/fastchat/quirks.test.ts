// FastChat's quirks, reproduced byte for byte and reported as warnings; registry, system handling and the OpenAI
// message conversion.
import { describe, expect, it } from 'vitest'
import {
  Conversation,
  getConversationTemplate,
  listTemplates,
  type MessageContent,
  type PromptResult
} from '../../../shared/formats/fastchat'

function render(
  name: string,
  messages: [0 | 1, MessageContent][],
  system?: string
): { conv: Conversation; out: PromptResult } {
  const conv = getConversationTemplate(name)!
  if (system !== undefined) conv.setSystemMessage(system)
  for (const [i, m] of messages) conv.appendMessage(conv.roles[i], m)
  return { conv, out: conv.getPrompt() }
}

function text(out: PromptResult): string {
  if (!out.ok) throw new Error(out.error.message)
  return out.text
}

const codes = (out: PromptResult): string[] => out.warnings.map((w) => w.code)

describe('registry', () => {
  it('lists the 102 HEAD templates in registration order', () => {
    const names = listTemplates()
    expect(names).toHaveLength(102)
    expect(names.slice(0, 3)).toEqual(['raw', 'one_shot', 'zero_shot'])
  })

  it('lists the 83 templates of v0.2.36', () => {
    expect(listTemplates('v0.2.36')).toHaveLength(83)
    expect(getConversationTemplate('gemma', 'v0.2.36')).toBeNull()
  })

  it('returns null for an unknown name', () => {
    expect(getConversationTemplate('no-such-template')).toBeNull()
  })

  it('gives a fresh copy each time, few-shot messages included', () => {
    const a = getConversationTemplate('one_shot')!
    a.appendMessage('Human', 'x')
    const b = getConversationTemplate('one_shot')!
    expect(b.messages).toHaveLength(2)
    expect(b.offset).toBe(2)
  })

  it('reports template fields as Python does', () => {
    const info = getConversationTemplate('llama-2')!.info()
    expect(info).toMatchObject({
      sep_style: 'LLAMA2',
      sep: ' ',
      sep2: ' </s><s>',
      roles: ['[INST]', '[/INST]'],
      system_message: ''
    })
  })
})

describe('system message handling', () => {
  it('formats system_template with the system message', () => {
    const { out } = render(
      'llama-2',
      [
        [0, 'Hi'],
        [1, null]
      ],
      'Be terse.'
    )
    expect(text(out)).toBe('[INST] <<SYS>>\nBe terse.\n<</SYS>>\n\nHi [/INST]')
  })

  it('starts llama-2 with a bare "[INST] " when the system message is empty', () => {
    expect(
      text(
        render('llama-2', [
          [0, 'Hi'],
          [1, null]
        ]).out
      )
    ).toBe('[INST] Hi [/INST]')
  })

  it('leaves braces in the system message alone (only the template is formatted)', () => {
    expect(
      text(
        render(
          'vicuna_v1.1',
          [
            [0, 'Q'],
            [1, null]
          ],
          'Use {x}.'
        ).out
      )
    ).toBe('Use {x}. USER: Q ASSISTANT:')
  })

  it('GEMMA drops the system message and warns', () => {
    const { out } = render(
      'gemma',
      [
        [0, 'Hi'],
        [1, null]
      ],
      'ignored'
    )
    expect(text(out)).toBe('<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n')
    expect(codes(out)).toContain('fastchat.system_ignored')
  })

  it('OpenAI messages carry the raw system message, not the templated one', () => {
    const { conv } = render(
      'llama-2',
      [
        [0, 'Hi'],
        [1, null]
      ],
      'Be terse.'
    )
    const openai = conv.toOpenAIApiMessages()
    expect(openai.messages).toEqual([
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'Hi' }
    ])
    expect(openai.warnings.map((w) => w.code)).toContain('fastchat.openai_raw_system')
  })

  it('OpenAI messages omit an empty system message and skip few-shot turns', () => {
    const conv = getConversationTemplate('one_shot')!
    conv.setSystemMessage('')
    conv.appendMessage('Human', 'Q')
    expect(conv.toOpenAIApiMessages().messages).toEqual([{ role: 'user', content: 'Q' }])
  })
})

describe('quirks', () => {
  it('renders "" like None: an open role mid-conversation', () => {
    const { conv, out } = render(
      'vicuna_v1.1',
      [
        [0, 'Hi'],
        [1, ''],
        [0, ''],
        [1, null]
      ],
      ''
    )
    expect(text(out)).toBe(' USER: Hi ASSISTANT:USER:ASSISTANT:')
    expect(codes(out)).toContain('fastchat.empty_message_open_slot')
    expect(conv.toOpenAIApiMessages().messages.slice(1)).toEqual([
      { role: 'assistant', content: '' },
      { role: 'user', content: '' }
    ])
  })

  it("YUAN2's rstrip('<n>') eats trailing n, < and > and warns", () => {
    const { out } = render('yuan2', [
      [0, 'Tell me about Python'],
      [1, null]
    ])
    expect(text(out)).toBe('Tell me about Pytho<sep>')
    expect(codes(out)).toContain('fastchat.yuan2_rstrip_chars')
  })

  it('CLLM renders only the last two messages', () => {
    const { out } = render('cllm', [
      [0, 'a'],
      [1, 'b'],
      [0, 'c'],
      [1, null]
    ])
    expect(text(out)).toMatch(/ USER: c ASSISTANT:$/)
    expect(text(out)).not.toContain('USER: a')
    expect(codes(out)).toContain('fastchat.cllm_last_two_only')
  })

  it('LLAMA2 tags messages by position, not by the stored role', () => {
    const conv = getConversationTemplate('llama-2')!
    conv.appendMessage('[INST]', 'first')
    conv.appendMessage('[INST]', 'second')
    const out = conv.getPrompt()
    expect(text(out)).toBe('[INST] first [/INST] second </s><s>')
    expect(codes(out)).toContain('fastchat.llama2_role_by_position')
  })

  it('RWKV collapses blank lines in a single pass', () => {
    const { out } = render('rwkv', [
      [0, 'a\n\n\n\nb'],
      [1, null]
    ])
    expect(text(out)).toContain('Bob: a\n\nb\n\nAlice:')
    expect(codes(out)).toContain('fastchat.rwkv_newlines_collapsed')
  })

  it('LLAMA3 strips each message', () => {
    const { out } = render('llama-3', [
      [0, '  hi  '],
      [1, null]
    ])
    expect(text(out)).toBe(
      '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n'
    )
  })

  it('yandexgpt cannot render: the ValueError is returned as data', () => {
    const { out } = render('yandexgpt', [[0, 'Hi']])
    expect(out.ok).toBe(false)
    if (!out.ok)
      expect(out.error).toMatchObject({
        code: 'fastchat.invalid_style',
        message: 'ValueError: Invalid style: None',
        data: { stage: 'render' }
      })
  })

  it('v0.2.36 registered chatgpt without a style', () => {
    const conv = getConversationTemplate('chatgpt', 'v0.2.36')!
    conv.appendMessage('user', 'Hi')
    const out = conv.getPrompt()
    expect(out.ok).toBe(false)
  })
})

describe('image messages', () => {
  it('puts one placeholder per image before the text', () => {
    const { out } = render(
      'vicuna_v1.1',
      [
        [0, { text: 'What?', images: 2 }],
        [1, null]
      ],
      ''
    )
    expect(text(out)).toBe(' USER: $$<image>$$$$<image>$$What? ASSISTANT:')
  })

  it('DEFAULT keeps the text only and warns', () => {
    const { out } = render('chatgpt', [
      [0, { text: 'What?', images: 1 }],
      [1, null]
    ])
    expect(text(out)).toBe('You are a helpful assistant.\nuser: What?\nassistant:')
    expect(codes(out)).toContain('fastchat.images_dropped')
  })

  it('styles without tuple handling fail the way Python does', () => {
    const { out } = render('raw', [[0, { text: 'x', images: 1 }]])
    expect(out.ok).toBe(false)
    if (!out.ok) expect(out.error.message).toBe('TypeError: can only concatenate str (not "tuple") to str')
  })
})
