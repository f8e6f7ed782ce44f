// `promptloom render` as one step of a larger job: `--shard I/N` slices the rows so the shards' outputs concatenated
// are the whole output, and `--dataset -` reads the rows from standard input.
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'
import { parseShard } from '../../../main/cli/dataset-input'
import { shardRange } from '../../../main/services/workspace/export'
import { layoutOf } from '../../../main/services/datasets/layout'
import { demoProjectDir } from '../../../main/services/app-paths'

async function run(args: string[], stdin?: string) {
  let out = ''
  let err = ''
  const input = stdin === undefined ? undefined : (async function* () {
    // Two chunks split inside a line, as a pipe delivers them.
    const b = Buffer.from(stdin)
    yield b.subarray(0, b.length >> 1)
    yield b.subarray(b.length >> 1)
  })()
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s), stdin: input })
  return { code, out, err }
}

const demo = ['render', '--config', demoProjectDir(), '--model', join(demoProjectDir(), 'models/chatml.json'), '--model', join(demoProjectDir(), 'models/llama3.json')]

describe('render --shard', () => {
  it('gives every row to exactly one shard, in order', () => {
    for (const total of [0, 1, 7, 14, 100]) {
      for (const count of [1, 2, 3, 5, 16]) {
        const ranges = Array.from({ length: count }, (_, index) => shardRange(total, { index, count }))
        expect(ranges[0].start).toBe(0)
        expect(ranges.at(-1)!.end).toBe(total)
        for (let i = 1; i < count; i++) expect(ranges[i].start).toBe(ranges[i - 1].end)
      }
    }
  })

  it('outputs of all shards concatenated equal the whole render, byte for byte', async () => {
    const whole = await run(demo)
    expect(whole.code).toBe(0)
    let joined = ''
    for (let i = 0; i < 3; i++) {
      const r = await run([...demo, '--shard', `${i}/3`])
      expect(r.code).toBe(0)
      joined += r.out
    }
    expect(joined).toBe(whole.out)
    expect(whole.out.split('\n').filter(Boolean).length).toBe(14 * 2)
  })

  it('refuses a shard outside 0..N-1 or not written I/N, with the usage exit code', async () => {
    expect(() => parseShard('3/3')).toThrow(/below N/)
    expect(() => parseShard('1-3')).toThrow(/must be I\/N/)
    expect(await run([...demo, '--shard', '4/2'])).toMatchObject({ code: 2, err: expect.stringContaining('--shard 4/2') })
  })
})

describe('render --dataset -', () => {
  it('renders rows read from standard input as the same rows from the file, examples still from the train split', async () => {
    const whole = await run(demo)
    const fromStdin = await run([...demo, '--dataset', '-'], readFileSync(join(demoProjectDir(), 'data/test.jsonl'), 'utf8'))
    expect(fromStdin.code).toBe(0)
    expect(fromStdin.out).toBe(whole.out)
  })

  it('skips a bad line from standard input and still renders the good rows', async () => {
    const rows = readFileSync(join(demoProjectDir(), 'data/test.jsonl'), 'utf8').split('\n').filter(Boolean)
    const r = await run([...demo, '--dataset', '-'], [rows[0], '{"question": ', rows[1]].join('\n') + '\n')
    expect(r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l).index)).toEqual([0, 0, 1, 1])
  })
})

describe('dataset folder layout', () => {
  it('follows symlinked split files, as in a Hugging Face hub snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-layout-'))
    writeFileSync(join(dir, 'blob-1'), '{"q": 1}\n')
    symlinkSync(join(dir, 'blob-1'), join(dir, 'train.jsonl'))
    writeFileSync(join(dir, 'test.jsonl'), '{"q": 2}\n')
    const l = await layoutOf(dir)
    expect(l.splits.map((s) => s.name).sort()).toEqual(['test', 'train'])
  })
})
