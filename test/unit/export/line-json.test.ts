// The export's line serializer (main/services/export/line-json.ts) must write exactly what JSON.stringify writes:
// render and Export promise byte-identical output whichever path made it.
import { describe, expect, it } from 'vitest'
import { LineBuffer, lineJson } from '../../../main/services/export/line-json'

const note = { code: 'meta-template-not-applied', message: 'The dataset template is a plain string, so OpenCompass sends it unchanged: “roles” … \u2028 "quoted" \\ back', severity: 'info' }

const lines: object[] = [
  { index: 0, split: 'test', variant: 'v', status: 'unreviewed', gold: 'A', model: 'm', format: 'string', prompt: 'Q: 1\nA: ', tokens: 3, tokens_exact: false, problems: [note] },
  { index: 1, split: 'test', variant: 'v', status: 'unreviewed', model: 'm', format: 'string', prompt: null, problems: [] },
  { index: 2, split: 'test', variant: 'v', status: 'accepted', gold: { a: [1, 2.5, null, 'x'] }, model: 'm', label: undefined, turn: 2, format: 'messages', prompt: [{ role: 'user', content: 'é\u0000\ud83d\ude00 lone \ud800' }], problems: [note, { ...note }, { severity: 'x', code: 'other-order', message: 'm' }, { code: 'extra', message: 'm', severity: 'warning', at: { row: 1 } }] },
  { index: 3, split: 'test', variant: 'v', status: 'unreviewed', model: '(dataset)', label: 'B', format: 'prompt-list', prompt: ['x', { role: 'HUMAN', prompt: '{q}' }], problems: [], spans: [{ segments: [{ text: 't', source: { kind: 'template' } }] }], harness: 'OpenCompass HuggingFacewithChatTemplate' },
  { index: 4, n: -0, inf: Infinity, nan: NaN, big: 1e21, small: 5e-7, t: true, f: false, fn: () => 1, nested: { u: undefined, fn: () => 1 }, problems: 'not a list' },
  { problems: [null, 1, 'x', [note]] }
]

describe('lineJson', () => {
  it('writes what JSON.stringify writes, memoized problems included', () => {
    // Twice: the second pass reads every problem from the memo.
    for (let pass = 0; pass < 2; pass++) for (const l of lines) expect(lineJson(l)).toBe(JSON.stringify(l))
  })
})

describe('LineBuffer', () => {
  it('hands over whole lines in order, a line longer than the buffer included', () => {
    const b = new LineBuffer(64)
    const texts = ['short', 'é'.repeat(30), 'x'.repeat(200), '\ud83d\ude00'.repeat(10), 'end']
    const chunks: Buffer[] = []
    for (const t of texts) {
      const full = b.add(t)
      if (full) chunks.push(full)
    }
    const last = b.take()
    if (last) chunks.push(last)
    expect(Buffer.concat(chunks).toString('utf8')).toBe(texts.map((t) => t + '\n').join(''))
    expect(chunks.every((c) => c.toString('utf8').endsWith('\n'))).toBe(true)
  })
})
