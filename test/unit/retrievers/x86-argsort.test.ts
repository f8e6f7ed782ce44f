// np.argsort as numpy 2.x runs it on AVX-512 CPUs (x86-simd-sort), checked against numpy's own output for arrays
// full of ties (test/fixtures/numpy-argsort-x86.json, made by test/tools/numpy_argsort_cases.py), and the note a
// BM25 retrieval gets when a tie decided its examples.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { numpyArgsort } from '../../../shared/engine/retrievers/numpy-argsort'
import { x86SimdArgsort } from '../../../shared/engine/retrievers/x86-simd-argsort'
import { retrieveIndices } from '../../../shared/engine/retrievers'

const fixture = JSON.parse(readFileSync(join(__dirname, '../../fixtures/numpy-argsort-x86.json'), 'utf8')) as {
  numpy: string
  cases: { values: number[]; argsort: number[] }[]
}

describe('x86SimdArgsort', () => {
  it(`orders ties as numpy ${fixture.numpy} does on an AVX-512 CPU, for every recorded array (bitonic network, partitions, std::sort)`, () => {
    const wrong = fixture.cases.filter((c) => JSON.stringify(x86SimdArgsort(c.values)) !== JSON.stringify(c.argsort)).map((c) => c.values.length)
    expect(wrong).toEqual([])
    // The fixture is worth its size only if numpy's generic order would fail it.
    expect(fixture.cases.filter((c) => JSON.stringify(numpyArgsort(c.values)) !== JSON.stringify(c.argsort)).length).toBeGreaterThan(50)
  })

  it('covers short arrays, the 256-element network limit and the partitioning path', () => {
    const sizes = fixture.cases.map((c) => c.values.length)
    expect(Math.min(...sizes)).toBeLessThan(16)
    expect(sizes.some((n) => n > 200 && n <= 256)).toBe(true)
    expect(Math.max(...sizes)).toBeGreaterThan(600)
  })

  it('returns an already sorted array as the identity, and declines arrays with NaN', () => {
    expect(x86SimdArgsort([0, 0, 1, 1, 1])).toEqual([0, 1, 2, 3, 4])
    expect(x86SimdArgsort([1, NaN, 0])).toBeUndefined()
  })
})

describe('BM25Retriever ties', () => {
  const ctx = (train: string[], test: string[]) => ({
    train: train.map((q) => ({ q })),
    test: test.map((q) => ({ q })),
    inputColumns: ['q'],
    outputColumn: null,
    family: 'opencompass' as const
  })

  it('notes the row when equal scores decided which train rows became examples', () => {
    const r = retrieveIndices({ type: 'BM25Retriever', ice_num: 1 }, ctx(['red apple', 'red apple', 'blue sky', 'green grass', 'yellow sun', 'white snow'], ['red apple pie']))
    expect(r.ok && r.notes).toEqual([expect.objectContaining({ row: 0, code: 'bm25-tie', message: expect.stringContaining('2 train rows share the lowest chosen BM25 score') })])
  })

  it('says nothing when the scores alone decide', () => {
    const r = retrieveIndices({ type: 'BM25Retriever', ice_num: 1 }, ctx(['red apple', 'green pear', 'blue sky', 'white snow', 'yellow sun'], ['red apple pie']))
    expect(r.ok && r.notes).toEqual([])
  })
})
