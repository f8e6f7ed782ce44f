// The conversation template's variant (variants.ts): chosen for chat-shaped datasets, and replaced by a prompt or
// in-context template the user adds in the template editor.
import { describe, expect, it } from 'vitest'
import { conversationOf, conversationVariant, defaultVariant } from '../../../main/services/workspace/variants'

const col = (name: string, type: string) => ({ name, type, counts: {}, present: 1 }) as Parameters<typeof defaultVariant>[0][number]

describe('conversation variant', () => {
  it('is the default for a dataset with a conversations column', () => {
    expect(defaultVariant([col('id', 'string'), col('conversations', 'array')]).id).toBe('conversation')
  })

  it('is not the default for a dataset of scalar columns', () => {
    expect(defaultVariant([col('question', 'string'), col('answer', 'string')]).id).toBe('default')
  })

  it('gives way to a prompt template added in the editor', () => {
    const v = conversationVariant({ column: 'messages', style: 'openai' })
    expect(conversationOf(v)).toEqual({ column: 'messages', style: 'openai' })
    expect(conversationOf({ infer_cfg: { ...v.infer_cfg, prompt_template: { type: 'PromptTemplate', template: '{messages}' } } })).toBeNull()
  })
})
