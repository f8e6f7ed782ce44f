// Render split into shards run in parallel on this machine (`promptloom render --shard I/N`, what a distributed engine
// runs per task), beside the same render in one process measured in the same run; the shards' outputs concatenated
// must equal the one-process output byte for byte. Data: ../shared/upstream/render-job's 100,000-row job.
//   npx tsx test/bench/shards.bench.ts [rows]
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { SHARED_DIR } from '../support/shared-dir'

const ROWS = Number(process.argv[2] ?? 100_000)
const root = join(__dirname, '../..')
const cli = join(root, 'out/main/cli.js')
const dir = mkdtempSync(join(tmpdir(), 'pl-bench-shards-'))
execFileSync('python3', [join(SHARED_DIR, 'upstream/render-job/make_render_job_data.py'), dir, '--rows', String(ROWS)], { stdio: 'ignore' })
const args = ['render', '--config', join(dir, 'bench_gen.py'), '--dataset', join(dir, 'data'), '--model', join(dir, 'chatml.py'), '--variant', 'bench-dialogue']

function render(extra: string[], out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [cli, ...args, ...extra, '--out', out], { stdio: 'ignore' })
    c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`render ${extra.join(' ')} exited ${code}`))))
  })
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now()
  await fn()
  return (performance.now() - t0) / 1000
}

async function main(): Promise<void> {
  const whole = join(dir, 'whole.jsonl')
  console.log(`${ROWS.toLocaleString('en-US')} rows, FixK-5 dialogue through a ChatML meta template, ${cpus().length} cores`)
  const one = await timed(() => render([], whole))
  console.log(`1 process:            ${one.toFixed(2)} s (anchor)`)
  for (const n of [2, 4]) {
    const parts = Array.from({ length: n }, (_, i) => join(dir, `part-${i}.jsonl`))
    const t = await timed(() => Promise.all(parts.map((p, i) => render(['--shard', `${i}/${n}`], p))).then(() => undefined))
    const same = Buffer.concat(parts.map((p) => readFileSync(p))).equals(readFileSync(whole))
    console.log(`${n} shards in parallel: ${t.toFixed(2)} s → ${(one / t).toFixed(2)}× the one process; concatenated output ${same ? 'byte-identical' : 'DIFFERS'}`)
    if (!same) process.exitCode = 1
  }
}

main().finally(() => rmSync(dir, { recursive: true, force: true }))
