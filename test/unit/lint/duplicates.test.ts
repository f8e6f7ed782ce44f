// Near-duplicate detection buckets band keys in typed arrays; which rows it pairs must be what the plain version
// (a Map of row arrays per band key, buckets visited in the order first met) pairs, partners included.
import { describe, expect, it } from 'vitest'
import { duplicates, MINHASH_SIZE, NEAR_AGREE, rowFeatures, signatures, type RowFeatures } from '../../../shared/lint/dataset-checks'

const BANDS = 8
const BAND_ROWS = MINHASH_SIZE / BANDS

function referenceNear(features: (RowFeatures | undefined)[], live: (i: number) => boolean): Map<number, number> {
  const near = new Map<number, number>()
  const buckets = new Map<number, number[]>()
  features.forEach((f, i) => {
    if (!f?.sig || !live(i)) return
    for (let b = 0; b < BANDS; b++) {
      let h1 = Math.imul(b + 1, 0x9e3779b1) ^ (f.media | 0)
      let h2 = (f.media / 0x100000000) | 0
      for (let r = 0; r < BAND_ROWS; r++) {
        const v = f.sig[b * BAND_ROWS + r]
        h1 = Math.imul(h1 ^ v, 0x01000193)
        h2 = Math.imul(h2 ^ v, 0x5bd1e995) ^ (h2 >>> 13)
      }
      const key = (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff)
      const l = buckets.get(key)
      if (l) l.push(i)
      else buckets.set(key, [i])
    }
  })
  for (const l of buckets.values()) {
    for (let y = 1; y < l.length; y++) {
      const fj = features[l[y]]!
      for (let x = 0; x < Math.min(4, y); x++) {
        const fi = features[l[x]]!
        if (fi.exact === fj.exact) continue
        if (near.has(l[y]) && near.has(l[x])) break
        let agree = 0
        for (let k = 0; k < MINHASH_SIZE; k++) if (fi.sig![k] === fj.sig![k]) agree++
        if (agree < NEAR_AGREE) continue
        if (!near.has(l[x])) near.set(l[x], l[y])
        if (!near.has(l[y])) near.set(l[y], l[x])
        break
      }
    }
  }
  return near
}

/** Rows in families of near-duplicates (a word or two changed), some exact copies, some with a picture, a few too short. */
function features(n: number): (RowFeatures | undefined)[] {
  const words = ['river', 'city', 'map', 'capital', 'north', 'old', 'bridge', 'shown', 'exactly', 'which']
  const inputs = Array.from({ length: n }, (_, i) => {
    if (i % 17 === 0) return `q${i % 3}`
    const family = Math.floor(i / 6)
    const w = (k: number) => words[(family * 7 + k * 3 + (k === (i % 6) ? i : 0)) % words.length]
    return `Which ${w(1)} flows through the ${w(2)} ${w(3)} of ${w(4)} number ${family} on the ${w(5)} ${w(6)}?`
  })
  const { sigs, judged } = signatures(inputs)
  return inputs.map((t, i) => {
    if (i % 29 === 0) return undefined
    const f = rowFeatures(t, {}, i % 5 === 0 ? ['media/a.png'] : [], null)
    if (judged[i]) f.sig = sigs.subarray(i * MINHASH_SIZE, (i + 1) * MINHASH_SIZE)
    return f
  })
}

const sorted = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0])

describe('near duplicates', () => {
  it('pairs the rows, with the partners, that the plain bucketing pairs', () => {
    const fs = features(3000)
    const live = (i: number) => i % 23 !== 0
    const { near } = duplicates(fs, live)
    expect(near.size).toBeGreaterThan(500)
    expect(sorted(near)).toEqual(sorted(referenceNear(fs, live)))
  })
})
