// The export's line buffer (main/services/export/line-json.ts): lines go out whole, in order, as UTF-8; and the
// encoder over it writes exactly JSON.stringify's bytes.
import { describe, expect, it } from 'vitest'
import { LineBuffer } from '../../../main/services/export/line-json'
import { encodeLines } from '../../../main/services/workspace/export'
import { Workspace } from '../../../main/services/workspace/workspace'
import { CHATML, cleanup, hfProfile, host, makeProject } from '../lint/helpers'

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

describe('LineBuffer with a tail', () => {
  it("replaces the text's closing brace by the tail, in and over the buffer's size", () => {
    const b = new LineBuffer(64)
    const pairs: [string, string][] = [
      ['{"a":1}', ',"p":[1]}'],
      ['{"é":"' + 'é'.repeat(20) + '"}', ',"p":"…"}'],
      ['{"x":"' + 'x'.repeat(200) + '"}', ',"p":[]}']
    ]
    const chunks: Buffer[] = []
    for (const [t, tail] of pairs) {
      const full = b.add(t, tail)
      if (full) chunks.push(full)
    }
    const last = b.take()
    if (last) chunks.push(last)
    expect(Buffer.concat(chunks).toString('utf8')).toBe(pairs.map(([t, tail]) => t.slice(0, -1) + tail + '\n').join(''))
  })
})

describe('encodeLines', () => {
  it('writes the bytes of JSON.stringify for every line, lines that share a problems list included', async () => {
    try {
      const meta = { id: 'oc', name: 'oc', family: 't', format: 'opencompass-meta', context_length: 12, meta_template: { round: [{ role: 'HUMAN', begin: '<u>', end: '\n' }, { role: 'BOT', begin: '<a>', end: '\n', generate: true }] } }
      const dir = makeProject({
        test: [{ question: 'hi', answer: 'a' }, { question: 'a much longer question … than the tiny context takes', answer: 'b' }, { question: 'ho', answer: 'c' }],
        template: "'Q: {question}\\nA: '",
        models: [meta, hfProfile('chatml', CHATML)]
      })
      const ws = new Workspace(host, { curation: 'memory' })
      const s = await ws.session.open(dir)
      const batches = []
      for await (const b of ws.exports.lineBatches({ variantId: s.variants[0].id, modelIds: ['oc', 'chatml'], only: 'all', format: 'auto' })) batches.push(b)
      const lines = batches.flat()
      expect(lines.filter((l) => l.problems?.some((p) => p.code === 'meta-template-not-applied')).length).toBe(3)
      expect(lines.some((l) => l.problems?.some((p) => p.code === 'over-context'))).toBe(true)
      const chunks: Buffer[] = []
      for await (const c of encodeLines((async function* () { yield* batches })())) chunks.push(c)
      expect(Buffer.concat(chunks).toString('utf8')).toBe(lines.map((l) => JSON.stringify(l) + '\n').join(''))
      ws.close()
    } finally {
      cleanup()
    }
  })
})
