// The whole job, as a person runs it: `promptloom render` as a process (start, config, dataset, every row, the
// file written) on ../shared/upstream/render-job's 100,000-row job, beside upstream OpenCompass doing the same job
// (upstream_render_job.py: read the JSONL, build every prompt with the real modules, write JSONL) in the same run
// when an exported OpenCompass tree is here (OC_CHECKOUT, else ../upstream-trees/opencompass); otherwise beside the
// last figure measured, printed as a fixed anchor with its date and machine.
// The prompts of both sides are compared, and promptloom's output must be the same bytes with 1 thread and with
// several. Also: 3 models in one job against 1 model (a row is read, parsed and built once; each model adds only
// its own formatting).
//   npx tsx test/bench/render.bench.ts [rows] [reps]
// Wall-clock figures are medians of `reps` runs (default 5), ours interleaved with the other cases, upstream's after
// them; the machine may be shared, so CPU time (user + sys of the process and its threads) is printed beside them.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { SHARED_DIR } from '../support/shared-dir'
import { machineLine, upstreamTree } from './upstream-anchor'

const ROWS = Number(process.argv[2] ?? 100_000)
const REPS = Math.max(1, Number(process.argv[3] ?? 5))
const root = join(__dirname, '../..')
const cli = join(root, 'out/main/cli.js')
const JOB = join(SHARED_DIR, 'upstream/render-job')

// Last upstream whole-job figures, for runs with no OpenCompass tree here: wall seconds for 100,000 rows (CPU 1.44 /
// 28.2 / 28.3 s), from this bench's own run on the machine named below.
const LAST_UPSTREAM = { date: '2026-11-24', machine: '2 cores, Python 3.11, OpenCompass a5acc4b', s: { string: 1.98, dialogue: 35.2, api: 38.4 } as Record<string, number> }

interface Run {
  wall: number
  cpu: number
  /** Threads the render used, as the CLI reports them ("(2 threads)"); 1 when it says none. */
  threads: number
}

/** Runs a process to the end; wall seconds and CPU seconds (user + sys, all its threads). */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  // /usr/bin/time gives the child's rusage; without it CPU is not reported.
  const haveTime = existsSync('/usr/bin/time')
  const t0 = performance.now()
  return new Promise((resolve, reject) => {
    const c = haveTime
      ? spawn('/usr/bin/time', ['-f', '%U %S', cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env })
      : spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env })
    let err = ''
    c.stderr.on('data', (d) => (err += d))
    c.on('exit', (code) => {
      const wall = (performance.now() - t0) / 1000
      if (code !== 0 && code !== 1) return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.slice(-500)}`))
      const m = /([\d.]+) ([\d.]+)\s*$/.exec(err)
      resolve({ wall, cpu: m ? Number(m[1]) + Number(m[2]) : NaN, threads: Number(/\((\d+) threads\)/.exec(err)?.[1] ?? 1) })
    })
  })
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const f2 = (x: number) => x.toFixed(2)

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error('build first: npm run build')
  const dir = mkdtempSync(join(tmpdir(), 'pl-bench-render-'))
  try {
    execFileSync('python3', [join(JOB, 'make_render_job_data.py'), dir, '--rows', String(ROWS)], { stdio: 'ignore' })
    const base = ['render', '--config', join(dir, 'bench_gen.py'), '--dataset', join(dir, 'data')]
    const cases: Record<string, string[]> = {
      dialogue: [...base, '--model', join(dir, 'chatml.py'), '--variant', 'bench-dialogue'],
      api: [...base, '--model', join(dir, 'api.py'), '--variant', 'bench-dialogue'],
      string: [...base, '--model', join(dir, 'chatml.py'), '--variant', 'bench-string'],
      '3 models': [...base, '--model', join(dir, 'chatml.py'), '--model', join(dir, 'api.py'), '--model', 'opencompass-internlm2-chat-meta', '--variant', 'bench-dialogue']
    }
    const out = (name: string) => join(dir, `${name.replace(/\W+/g, '_')}.jsonl`)
    const node = process.execPath
    console.log(machineLine())
    console.log(`${ROWS.toLocaleString('en-US')} rows, ${availableParallelism()} cores; promptloom = \`node out/main/cli.js render … --out F\` as a whole process, median of ${REPS} interleaved runs`)
    // The machine may be shared: wall times mean little without the load they were measured under.
    const load = () => loadavg().map((x) => x.toFixed(2)).join(' ')
    console.log(`load average at the start: ${load()}`)

    // Same bytes on 1 thread and on several, for every case.
    for (const [name, args] of Object.entries(cases)) {
      await timed(node, [cli, ...args, '--out', out(name) + '.1'], { ...process.env, PROMPTLOOM_RENDER_THREADS: '1' })
      await timed(node, [cli, ...args, '--out', out(name)])
      const same = readFileSync(out(name) + '.1').equals(readFileSync(out(name)))
      rmSync(out(name) + '.1')
      if (!same) {
        console.log(`${name}: output on several threads DIFFERS from one thread`)
        process.exitCode = 1
      }
    }

    const runs: Record<string, Run[]> = {}
    for (let r = 0; r < REPS; r++) {
      for (const [name, args] of Object.entries(cases)) (runs[name] ??= []).push(await timed(node, [cli, ...args, '--out', out(name)]))
      ;(runs['dialogue, 1 thread'] ??= []).push(await timed(node, [cli, ...cases.dialogue, '--out', out('one')], { ...process.env, PROMPTLOOM_RENDER_THREADS: '1' }))
    }

    // Upstream: the same job with the real OpenCompass modules, read the same way as ours: the median of REPS runs
    // (each takes tens of seconds; `reps` 1 for a quick look). Its temporary folders go inside this run's.
    const oc = upstreamTree('opencompass')
    const upstream: Record<string, { s: number; label: string }> = {}
    for (const c of ['dialogue', 'api', 'string']) {
      if (oc) {
        const up = join(dir, `up-${c}.jsonl`)
        const ups: Run[] = []
        for (let r = 0; r < REPS; r++) ups.push(await timed('python3', [join(JOB, 'upstream_render_job.py'), c, join(dir, 'data'), up], { ...process.env, OC_CHECKOUT: oc, TMPDIR: dir }))
        upstream[c] = { s: median(ups.map((x) => x.wall)), label: `measured in this run, median of ${REPS} (runs ${ups.map((x) => f2(x.wall)).join(' ')}; CPU ${f2(median(ups.map((x) => x.cpu)))} s)` }
        // Same prompts: upstream writes {"index", "prompt"}; promptloom's lines carry the prompt among other fields.
        const ours = readFileSync(out(c), 'utf8').trimEnd().split('\n')
        const theirs = readFileSync(up, 'utf8').trimEnd().split('\n')
        // The API parser's PromptList is what OpenCompass's OpenAI model converts to messages (HUMAN → user, …).
        const ROLE: Record<string, string> = { HUMAN: 'user', BOT: 'assistant', SYSTEM: 'system' }
        const sent = (p: unknown) => (Array.isArray(p) ? p.map((x: { role: string; prompt: unknown }) => ({ role: ROLE[x.role] ?? x.role, content: x.prompt })) : p)
        const differ = theirs.findIndex((l, i) => JSON.stringify(sent((JSON.parse(l) as { prompt: unknown }).prompt)) !== JSON.stringify((JSON.parse(ours[i]) as { prompt: unknown }).prompt))
        if (differ >= 0 || ours.length !== theirs.length) {
          console.log(`${c}: prompts differ from upstream's at line ${differ + 1}`)
          process.exitCode = 1
        }
        rmSync(up)
      } else upstream[c] = { s: (LAST_UPSTREAM.s[c] * ROWS) / 100_000, label: `FIXED anchor, not measured in this run (no OpenCompass tree here): ${LAST_UPSTREAM.date}, ${LAST_UPSTREAM.machine}` }
    }

    const line = (name: string, goal: string, up?: { s: number; label: string }) => {
      const w = median(runs[name].map((x) => x.wall))
      const cpu = median(runs[name].map((x) => x.cpu))
      const mb = statSync(out(name === 'dialogue, 1 thread' ? 'one' : name)).size / 1e6
      const vs = up ? `  | upstream ${f2(up.s)} s (${up.label}) → ×${(up.s / w).toFixed(1)} (goal ${goal})` : ''
      const threads = [...new Set(runs[name].map((x) => x.threads))].join('/')
      console.log(`${name.padEnd(20)} ${f2(w)} s wall (runs ${runs[name].map((x) => f2(x.wall)).join(' ')}), CPU ${f2(cpu)} s, ${threads} thread(s), ${mb.toFixed(0)} MB${vs}`)
    }
    line('dialogue', '≥ ×30', upstream.dialogue)
    line('dialogue, 1 thread', '≥ ×30', upstream.dialogue)
    line('api', '≥ ×30', upstream.api)
    line('string', '≥ ×3', upstream.string)
    line('3 models', '')
    const one = median(runs.dialogue.map((x) => x.wall))
    const three = median(runs['3 models'].map((x) => x.wall))
    const oneCpu = median(runs.dialogue.map((x) => x.cpu))
    const threeCpu = median(runs['3 models'].map((x) => x.cpu))
    console.log(`3 models in one job: ×${(three / one).toFixed(2)} one model's wall time, ×${(threeCpu / oneCpu).toFixed(2)} its CPU (goal ≤ ×1.6)`)
    console.log(`load average at the end: ${load()}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 1
})
