// XiezhiRetriever (opencompass/datasets/xiezhi.py): examples are the train rows sharing a label with the test
// row, taken label by label (the loader sorts labels most specific first) until ice_num, duplicates kept.
import { describe, expect, it } from 'vitest'
import { retrieveIndices, type RetrieveContext } from '../../../shared/engine/retrievers'
import { PyFloat } from '../../../shared/python/json'

const ctx = (test: string[][]): RetrieveContext => ({
  train: [['Physics', 'Science'], ['Chemistry', 'Science'], ['Organic chemistry', 'Chemistry', 'Science'], ['Law']].map((labels, i) => ({ question: `t${i}`, labels, answer: 'A' })),
  test: test.map((labels, i) => ({ question: `q${i}`, labels, answer: 'B' })),
  inputColumns: ['question', 'labels'],
  outputColumn: 'answer',
  family: 'opencompass'
})

describe('XiezhiRetriever', () => {
  it('takes the rows of each label in turn until ice_num, keeping a row met twice', () => {
    expect(retrieveIndices({ type: 'XiezhiRetriever', ice_num: 3 }, ctx([['Organic chemistry', 'Chemistry', 'Science']]))).toEqual({ ok: true, indices: [[2, 1, 2]] })
  })

  it('raises KeyError for a test label no train row has, as the dict lookup does', () => {
    expect(retrieveIndices({ type: 'XiezhiRetriever', ice_num: 3 }, ctx([['Astronomy']]))).toEqual({ ok: false, error: { code: 'KeyError', message: "KeyError: 'Astronomy'", stage: 'retrieve' } })
  })

  it('iterates a dict of labels by its keys and finds the float label 1.0 under the int key 1, as a Python dict does', () => {
    const c: RetrieveContext = { ...ctx([]), train: [{ labels: [1, 'x'] }, { labels: { 1: 'ignored' } }], test: [{ labels: [new PyFloat(1)] }] }
    expect(retrieveIndices({ type: 'XiezhiRetriever', ice_num: 3 }, c)).toEqual({ ok: true, indices: [[0]] })
  })

  it("compares len(ids) < ice_num as Python does: an ice_num given as a str raises the TypeError CPython's < raises", () => {
    expect(retrieveIndices({ type: 'XiezhiRetriever', ice_num: '3' }, ctx([['Law']]))).toEqual({
      ok: false,
      error: { code: 'TypeError', message: "TypeError: '<' not supported between instances of 'int' and 'str'", stage: 'retrieve' }
    })
  })
})
