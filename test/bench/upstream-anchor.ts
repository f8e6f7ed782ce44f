// The upstream side of the engine and render benchmarks: the rows of ../shared/upstream/perf/scripts/synth.py and
// the figures of oc_prompt_bench.py (real OpenCompass / AISBench prompt building), measured in this run whenever the
// upstream trees are here: OC_CHECKOUT / AIS_CHECKOUT, else ../upstream-trees/{opencompass,aisbench} beside the
// checkout (exported trees of the commits in ../shared/upstream/README.md). Without them the figure is a fixed
// anchor, printed as such with the date and the machine it was measured on.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, cpus, platform, tmpdir } from 'node:os'
import { join } from 'node:path'
import { SHARED_DIR } from '../support/shared-dir'

const REPO = join(__dirname, '..', '..')

/** An exported upstream tree: the environment variable's, else the one beside the checkout; null when neither exists. */
export function upstreamTree(name: 'opencompass' | 'aisbench'): string | null {
  const env = process.env[name === 'opencompass' ? 'OC_CHECKOUT' : 'AIS_CHECKOUT']
  for (const dir of [env, join(REPO, '..', 'upstream-trees', name)]) if (dir && existsSync(dir)) return dir
  return null
}

/** This machine, for the first line of a benchmark's output: what the figures of this run were measured on. */
export function machineLine(): string {
  let py = 'no python3'
  try {
    py = execFileSync('python3', ['--version'], { encoding: 'utf8' }).trim()
  } catch {
    // The Python anchors then fail with their own message.
  }
  return `machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, ${platform()}, Node ${process.versions.node}, ${py}`
}

const SCRIPTS = join(SHARED_DIR, 'upstream', 'perf', 'scripts')
const HARNESS = join(SHARED_DIR, 'upstream', 'opencompass', 'harness')

export interface QaRow {
  question: string
  answer: string
  image: string
}

/** synth.qa_rows(n, seed, prefix) from Python itself, so both sides read byte-identical rows. */
export function synthRows(n: number, seed: number, prefix: string): QaRow[] {
  const code = `import json,sys; sys.path.insert(0, ${JSON.stringify(SCRIPTS)}); import synth; json.dump(synth.qa_rows(${n}, ${seed}, ${JSON.stringify(prefix)}), sys.stdout, ensure_ascii=False)`
  return JSON.parse(execFileSync('python3', ['-c', code], { encoding: 'utf8', maxBuffer: 1 << 28 })) as QaRow[]
}

// Printed only when no upstream tree is here: session 1's figures (a median of 3 runs; the CPU model was not
// recorded), from before this bench compared best with best.
const FIXED: Record<string, number> = { 'oc-a': 281_000, 'oc-b': 4_900, 'oc-c': 5_000, 'ais-mm': 28_500 }
const FIXED_LABEL = 'FIXED anchor, not measured in this run: 2026-11-22, 2 cores, Python 3.11, median of 3'

/** Upstream runs per case: as many as our side's minimum, and each side gives its best run. */
export const UPSTREAM_REPS = 5

export interface UpstreamFigures {
  note?: string
  figure(name: string): { rate: number; label: string }
}

/** Each case's best and median prompts/s over UPSTREAM_REPS runs (after a warm-up run). */
function run(suite: 'oc' | 'ais', checkout: string, rows: number): Map<string, { best: number; median: number }> {
  // The harness makes temporary folders of its own: they go inside this one, removed at the end.
  const dir = mkdtempSync(join(tmpdir(), 'pl-bench-upstream-'))
  try {
    const json = join(dir, 'figures.json')
    execFileSync(
      'python3',
      [join(SCRIPTS, 'oc_prompt_bench.py'), suite, '--checkout', checkout, '--harness', HARNESS, '--rows', String(rows), '--reps', String(UPSTREAM_REPS), '--json', json],
      { stdio: 'ignore', env: { ...process.env, TMPDIR: dir } }
    )
    const res = JSON.parse(readFileSync(json, 'utf8')) as { cases: { case: string; prompts_per_s_max: number; prompts_per_s_median: number }[] }
    return new Map(res.cases.map((c) => [`${suite}-${c.case}`, { best: c.prompts_per_s_max, median: c.prompts_per_s_median }]))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function measureUpstream(rows: number): UpstreamFigures {
  const measured = new Map<string, { best: number; median: number }>()
  const missing: string[] = []
  for (const [suite, name, env] of [['oc', 'opencompass', 'OC_CHECKOUT'], ['ais', 'aisbench', 'AIS_CHECKOUT']] as const) {
    const tree = upstreamTree(name)
    if (!tree) {
      missing.push(env)
      continue
    }
    for (const [k, v] of run(suite, tree, rows)) measured.set(k, v)
  }
  return {
    note: missing.length
      ? `${missing.join(' and ')} not set and no ../upstream-trees: those upstream figures are FIXED anchors, not measured in this run (see ../shared/upstream/README.md to measure them here)`
      : undefined,
    figure: (name) =>
      measured.has(name)
        ? { rate: measured.get(name)!.best, label: `measured in this run, best of ${UPSTREAM_REPS}; median ${Math.round(measured.get(name)!.median).toLocaleString('en-US')}/s` }
        : { rate: FIXED[name], label: FIXED_LABEL }
  }
}
