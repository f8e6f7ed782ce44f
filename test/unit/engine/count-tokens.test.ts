// countTokens is upstream's get_token_len heuristic (matches of [A-Za-z0-9]+ plus CJK characters); the one-pass
// count must equal the regex count it replaces on any text.
import { describe, expect, it } from 'vitest'
import { countTokens } from '../../../shared/engine'

const byRegex = (s: string) => (s.match(/[A-Za-z0-9]+/g)?.length ?? 0) + (s.match(/[\u4e00-\u9fff]/g)?.length ?? 0)

describe('countTokens', () => {
  it('counts what the two regexes count, on mixed ASCII, CJK, accents, emoji and lone surrogates', () => {
    const alphabet = ['a', 'Z', '0', '9', ' ', '\n', '_', '-', 'é', 'ß', '东', '京', '\u4e00', '\u9fff', '\u4dff', '\ua000', '😀', '\ud800', '/', '@', '[', '`', '{']
    let seed = 7
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n
    for (let k = 0; k < 2000; k++) {
      let s = ''
      for (let i = rnd(60); i > 0; i--) s += alphabet[rnd(alphabet.length)]
      expect(countTokens(s)).toBe(byRegex(s))
    }
    expect(countTokens('')).toBe(0)
  })
})
