// renderFastchat: OpenAI-style messages mapped onto a FastChat conversation, every drop/merge/remap warned about.
import { describe, expect, it } from 'vitest'
import { renderFastchat } from '../../../shared/formats/fastchat'

const codes = (r: { warnings: { code: string }[] }): string[] => r.warnings.map((w) => w.code)

describe('renderFastchat', () => {
  it('renders a system + user conversation with the generation slot', () => {
    const r = renderFastchat(
      'vicuna_v1.1',
      [
        { role: 'system', content: 'S.' },
        { role: 'user', content: 'Hi' }
      ],
      { addGenerationPrompt: true }
    )
    expect(r).toMatchObject({ ok: true, text: 'S. USER: Hi ASSISTANT:' })
    expect(r.warnings).toEqual([])
  })

  it('does not add the generation slot unless asked', () => {
    expect(renderFastchat('vicuna_v1.1', [{ role: 'user', content: 'Hi' }]).text).toMatch(/USER: Hi $/)
  })

  it('warns when the template ignores the system message', () => {
    const r = renderFastchat('gemma', [
      { role: 'system', content: 'S.' },
      { role: 'user', content: 'Hi' }
    ])
    expect(r.text).not.toContain('S.')
    expect(codes(r)).toContain('fastchat.system_dropped')
  })

  it('merges consecutive messages of one role and warns', () => {
    const r = renderFastchat('vicuna_v1.1', [
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' }
    ])
    expect(r.text).toContain('USER: a\n\nb')
    expect(codes(r)).toContain('fastchat.role_merged')
  })

  it('drops a system message that comes after the first turn', () => {
    const r = renderFastchat('vicuna_v1.1', [
      { role: 'user', content: 'a' },
      { role: 'system', content: 'late' }
    ])
    expect(r.text).not.toContain('late')
    expect(codes(r)).toContain('fastchat.system_dropped')
  })

  it('joins several leading system messages', () => {
    const r = renderFastchat('vicuna_v1.1', [
      { role: 'system', content: 'one' },
      { role: 'system', content: 'two' },
      { role: 'user', content: 'q' }
    ])
    expect(r.text.startsWith('one\ntwo USER: q')).toBe(true)
    expect(codes(r)).toContain('fastchat.system_merged')
  })

  it('warns when the conversation starts with the assistant', () => {
    expect(codes(renderFastchat('vicuna_v1.1', [{ role: 'assistant', content: 'x' }]))).toContain(
      'fastchat.role_remapped'
    )
  })

  it('returns an error for an unknown template', () => {
    const r = renderFastchat('nope', [])
    expect(r.ok).toBe(false)
    expect(r.error).toMatchObject({ code: 'fastchat.unknown_template', data: { stage: 'template' } })
  })

  it('returns the OpenAI messages alongside the prompt', () => {
    const r = renderFastchat('chatgpt', [{ role: 'user', content: 'q' }], { addGenerationPrompt: true })
    expect(r.openaiMessages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'q' }
    ])
  })
})
