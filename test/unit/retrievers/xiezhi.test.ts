// XiezhiRetriever (opencompass/datasets/xiezhi.py): examples are the train rows sharing a label with the test
// row, taken label by label (the loader sorts labels most specific first) until ice_num, duplicates kept.
import { describe, expect, it } from 'vitest'
import { retrieveIndices, type RetrieveContext } from '../../../shared/engine/retrievers'

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
})
