// Two PromptLoom processes on one project, and processes killed mid-action: every acknowledged action is in the store
// afterwards. Each process is test/tools/curation-writer.ts, which opens the dataset through the Workspace (the app's
// own path) and tags rows one action at a time, printing `ack N` when action N has returned.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Workspace } from '../../../main/services/workspace/workspace'
import { host } from './helpers'

const WRITER = join(__dirname, '../../tools/curation-writer.ts')
const ROWS = 10
let dir: string
let file: string

interface Run {
  lines: string[]
  exited: Promise<number | null>
  kill(): void
  go(): void
  waitFor(line: string): Promise<void>
}

function writer(prefix: string, count: number, wait = false): Run {
  const args = ['--import', 'tsx', WRITER, file, prefix, String(count), String(ROWS), ...(wait ? ['--wait'] : [])]
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  const lines: string[] = []
  const waiters: { line: string; resolve: () => void }[] = []
  let buf = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString()
    const parts = buf.split('\n')
    buf = parts.pop()!
    for (const l of parts) {
      lines.push(l)
      for (const w of waiters.filter((x) => x.line === l)) w.resolve()
    }
  })
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    lines,
    exited: exited.then((c) => {
      if (c !== 0 && c !== null) throw new Error(`writer ${prefix} exited ${c}: ${err}`)
      return c
    }),
    kill: () => child.kill('SIGKILL'),
    go: () => child.stdin.end('go\n'),
    waitFor: (line) =>
      lines.includes(line)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiters.push({ line, resolve })
            void exited.then(() =>
              setTimeout(() => reject(new Error(`writer ${prefix} ended before "${line}": ${err}`)), 50)
            )
          })
  }
}

/** The tags saved for every row, read by a fresh instance. */
async function savedTags(): Promise<Set<string>> {
  const ws = new Workspace(host, { curation: 'persistent' })
  await ws.session.open(file)
  const tags = new Set(ws.curation.tags())
  ws.close()
  return tags
}

const acked = (r: Run, prefix: string) =>
  r.lines.filter((l) => l.startsWith('ack ')).map((l) => `${prefix}-${l.slice(4)}`)

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-writers-'))
  file = join(dir, 'rows.jsonl')
  writeFileSync(
    file,
    Array.from({ length: ROWS }, (_, i) => JSON.stringify({ id: `r${i}`, question: `Question ${i}?` })).join('\n') +
      '\n'
  )
  process.env.PROMPTLOOM_CONFIG_DIR = join(dir, 'config')
})
afterEach(() => {
  delete process.env.PROMPTLOOM_CONFIG_DIR
  rmSync(dir, { recursive: true, force: true })
})

describe('two writers on one project', () => {
  it(
    'keeps every acknowledged action of both processes, and the second is told about the first',
    { timeout: 180_000 },
    async () => {
      const N = 60
      const a = writer('a', N, true)
      await a.waitFor('ready')
      const b = writer('b', N, true)
      await b.waitFor('ready')
      a.go()
      b.go()
      await Promise.all([a.exited, b.exited])
      const saved = await savedTags()
      const lost = [...acked(a, 'a'), ...acked(b, 'b')].filter((t) => !saved.has(t))
      const merged = [...a.lines, ...b.lines].filter((l) => l.startsWith('merged')).length
      console.log(
        `two writers: ${2 * N} tag actions acknowledged, ${lost.length} lost, ${merged} writes merged another writer's changes`
      )
      expect(acked(a, 'a')).toHaveLength(N)
      expect(acked(b, 'b')).toHaveLength(N)
      expect(lost).toEqual([])
      expect(merged).toBeGreaterThan(0)
      // b opened while a was running: its problems name the other instance.
      expect(b.lines).toContain('problem curation-shared')
    }
  )
})

describe('crash-kill', () => {
  it(
    'loses no acknowledged action when the process is killed with SIGKILL mid-action',
    { timeout: 240_000 },
    async () => {
      const KILLS = 5
      const all: string[] = []
      for (let k = 0; k < KILLS; k++) {
        const prefix = `k${k}`
        const w = writer(prefix, 100_000)
        await w.waitFor('ready')
        // Killed after a varying number of acknowledged actions, so the kill lands at different points of a write.
        await w.waitFor(`ack ${5 + 7 * k}`)
        await new Promise((r) => setTimeout(r, 3 * k))
        w.kill()
        await w.exited
        all.push(...acked(w, prefix))
      }
      const saved = await savedTags()
      const lost = all.filter((t) => !saved.has(t))
      console.log(`crash-kill: ${KILLS} kills, ${all.length} acknowledged actions, ${lost.length} lost`)
      expect(lost).toEqual([])
    }
  )
})
