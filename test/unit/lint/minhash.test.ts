// The near-duplicate signature: minhash keeps its minimums in signed integers for speed; the signature must be
// the plain unsigned MinHash (one multiply-add-mix hash per position over each character 4-gram's FNV hash).
import { describe, expect, it } from 'vitest'
import { MINHASH_SIZE, minhash, normalizeText } from '../../../shared/lint/dataset-checks'

function reference(norm: string): number[] {
  const out = new Array<number>(MINHASH_SIZE).fill(0xffffffff)
  const grams = norm.length < 4 ? (norm.length ? 1 : 0) : norm.length - 3
  for (let i = 0; i < grams; i++) {
    let g = 0x811c9dc5
    for (let j = i; j < Math.min(norm.length, i + 4); j++) g = Math.imul(g ^ norm.charCodeAt(j), 0x01000193)
    g >>>= 0
    for (let k = 0; k < MINHASH_SIZE; k++) {
      const mul = (Math.imul(0x9e3779b1, k + 1) | 1) >>> 0
      const add = Math.imul(0x85ebca6b, k + 7) >>> 0
      let h = (Math.imul(g, mul) + add) >>> 0
      h ^= h >>> 16
      h = Math.imul(h, 0x45d9f3b) >>> 0
      if (h < out[k]) out[k] = h
    }
  }
  return out
}

describe('minhash', () => {
  it.each(['', 'a', 'abc', 'abcd', 'which planet is the largest one by mass', '中文的问题和答案 mixed with ascii 123', 'x'.repeat(500)])('%j is the unsigned MinHash', (s) => {
    const norm = normalizeText(s)
    expect([...minhash(norm)]).toEqual(reference(norm))
  })

  it('writes into the slot it is given', () => {
    const slab = new Uint32Array(MINHASH_SIZE * 3)
    const slot = slab.subarray(MINHASH_SIZE, MINHASH_SIZE * 2)
    expect(minhash('near duplicate text', slot)).toBe(slot)
    expect([...slab.subarray(MINHASH_SIZE, MINHASH_SIZE * 2)]).toEqual(reference('near duplicate text'))
    expect(slab[0]).toBe(0)
  })
})
