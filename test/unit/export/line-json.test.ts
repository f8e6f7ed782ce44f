// The export's line buffer (main/services/export/line-json.ts): lines go out whole, in order, as UTF-8.
import { describe, expect, it } from 'vitest'
import { LineBuffer } from '../../../main/services/export/line-json'

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
