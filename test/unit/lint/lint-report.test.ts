// The report's counting: rows share their lists of findings (a clean set gives every row the same few facts per
// model), so a group's count and its example rows must still come from every row, in row order, whichever other
// findings each row has.
import { afterAll, describe, expect, it } from 'vitest'
import { cleanup, group, lintProject } from './helpers'

afterAll(cleanup)

describe('lint report counts', () => {
  it("a group's count and examples cover every row, in row order, whatever other findings the rows have", async () => {
    // Gold in the question on rows 0, 2, 3, 5, 6, 7; an empty hint on rows 2 and 6 (other finding lists).
    const rows = [
      { question: 'Capital of France? Paris', hint: 'x', answer: 'Paris' },
      { question: 'Capital of Italy?', hint: 'x', answer: 'Rome' },
      { question: 'Capital of Spain? Madrid', hint: ' ', answer: 'Madrid' },
      { question: 'Capital of Peru? Lima', hint: 'x', answer: 'Lima' },
      { question: 'Capital of Chile?', hint: 'x', answer: 'Santiago' },
      { question: 'Capital of Cuba? Havana', hint: 'x', answer: 'Havana' },
      { question: 'Capital of Iran? Tehran', hint: '', answer: 'Tehran' },
      { question: 'Capital of Mali? Bamako', hint: 'x', answer: 'Bamako' }
    ]
    const { report } = await lintProject({ test: rows, inputColumns: ['question', 'hint'] })
    const leak = group(report, 'gold-leak')!
    expect(leak.count).toBe(6)
    expect(leak.examples.map((e) => [e.row, e.message])).toEqual([
      [0, 'question contains the answer ("Paris")'],
      [2, 'question contains the answer ("Madrid")'],
      [3, 'question contains the answer ("Lima")'],
      [5, 'question contains the answer ("Havana")'],
      [6, 'question contains the answer ("Tehran")']
    ])
    expect(group(report, 'empty-field')?.examples.map((e) => e.row)).toEqual([2, 6])
    expect(group(report, 'added-generation-prompt', 'chatml')?.count).toBe(8)
  })
})
