// The rendered lines come in batches of rows read together (one await per batch for the writers): up to 500 rows,
// fewer when the rows are large, so a batch of base64 pictures is a couple of MiB, not 47 MB.
import { afterAll, describe, expect, it } from 'vitest'
import { BATCH_BYTES } from '../../../main/services/workspace/export'
import { Workspace } from '../../../main/services/workspace/workspace'
import { cleanup, host, makeProject } from '../lint/helpers'

afterAll(() => cleanup())

/** Each batch's row indices, for a project whose test rows have questions of `size` characters. */
async function batchesOf(rows: number, size: number): Promise<number[][]> {
  const dir = makeProject({ test: Array.from({ length: rows }, (_, i) => ({ question: `${i} ${'x'.repeat(size)}`, answer: 'a' })), template: "'Q: {question}\\nA: '" })
  const ws = new Workspace(host, { curation: 'memory' })
  try {
    const s = await ws.session.open(dir)
    const out: number[][] = []
    for await (const b of ws.exports.lineBatches({ variantId: s.variants[0].id, modelIds: s.models.map((m) => m.id), only: 'all', format: 'auto' })) out.push([...new Set(b.map((l) => l.index))])
    return out
  } finally {
    ws.close()
  }
}

describe('line batches', () => {
  it('hold 500 small rows each', async () => {
    const b = await batchesOf(1200, 10)
    expect(b.map((x) => x.length)).toEqual([500, 500, 200])
  })

  it('hold about BATCH_BYTES of large rows, every row once and in order', async () => {
    const b = await batchesOf(40, 200_000)
    expect(b.length).toBeGreaterThan(3)
    for (const x of b) expect(x.length * 200_000).toBeLessThanOrEqual(BATCH_BYTES)
    expect(b.flat()).toEqual(Array.from({ length: 40 }, (_, i) => i))
  })
})
