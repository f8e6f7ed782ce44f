// Batches written into one file by several writers at once (the export's worker threads; here tasks on this
// thread, which share the state the same way): each lands after the one before it, whatever order they finish in.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BatchOutput, OutputStopped, orderedOutput, outputEnd, stopOutput, type OrderedOutput } from '../../../main/services/export/ordered-writes'
import { tempDir } from './fixtures'

const t = tempDir('ordered')
afterAll(() => t.remove())

let n = 0
/** A file that starts with `head` (written before the batches, as a TSV header is) and its ordered output. */
function file(head: string): { out: OrderedOutput; read(): string; close(): void } {
  const path = join(t.dir, `f${n++}`)
  const fd = openSync(path, 'w+')
  writeSync(fd, head)
  const out = orderedOutput(fd, Buffer.byteLength(head))
  return { out, read: () => readFileSync(path, 'utf8'), close: () => closeSync(fd) }
}

const bytes = (s: string) => Buffer.from(s)
const tick = () => new Promise((r) => setTimeout(r, 5))

describe('ordered writes', () => {
  it('puts each batch after the one before it when later batches are ready first', async () => {
    const f = file('H|')
    const batch = async (k: number, text: string, delay: number) => {
      await new Promise((r) => setTimeout(r, delay))
      const o = new BatchOutput(f.out, k)
      await o.write(bytes(text))
      await o.finish()
    }
    await Promise.all([batch(0, 'zero|', 30), batch(1, 'one|', 0), batch(2, 'two|', 10)])
    expect(f.read()).toBe('H|zero|one|two|')
    expect(outputEnd(f.out)).toBe('H|zero|one|two|'.length)
    f.close()
  })

  it('keeps the turn while a batch streams several writes, reusing its buffer between them', async () => {
    const f = file('')
    const first = new BatchOutput(f.out, 0)
    const second = new BatchOutput(f.out, 1)
    const later = (async () => {
      await second.write(bytes('C'))
      await second.finish()
    })()
    const buf = Buffer.from('A')
    await first.write(buf)
    await tick()
    buf.write('B')
    await first.write(buf)
    await first.finish()
    await later
    expect(f.read()).toBe('ABC')
    f.close()
  })

  it('passes the turn on for a batch that writes nothing', async () => {
    const f = file('[')
    const a = new BatchOutput(f.out, 0)
    const b = new BatchOutput(f.out, 1)
    await a.finish()
    await b.write(bytes('x'))
    await b.finish()
    expect(f.read()).toBe('[x')
    f.close()
  })

  it("drops a JSON array element's leading comma only where no batch before wrote", async () => {
    const f = file('[')
    const batches = [',\n1', '', ',\n2,\n3']
    await Promise.all(
      batches.map(async (text, k) => {
        const o = new BatchOutput(f.out, k, true)
        await o.write(bytes(text))
        await o.finish()
      })
    )
    expect(f.read()).toBe('[\n1,\n2,\n3')
    f.close()
  })

  it('a stopped output makes a batch waiting for its turn give up without writing', async () => {
    const f = file('H')
    const waiting = new BatchOutput(f.out, 1).write(bytes('late'))
    await tick()
    stopOutput(f.out)
    await expect(waiting).rejects.toBeInstanceOf(OutputStopped)
    await expect(new BatchOutput(f.out, 0).finish()).rejects.toBeInstanceOf(OutputStopped)
    expect(f.read()).toBe('H')
    f.close()
  })
})
