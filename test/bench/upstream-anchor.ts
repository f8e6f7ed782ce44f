// The upstream side of the engine and render benchmarks: the rows of ../shared/upstream/perf/scripts/synth.py and
// the figures of oc_prompt_bench.py (real OpenCompass / AISBench prompt building), measured in this run whenever the
// upstream trees are here: OC_CHECKOUT / AIS_CHECKOUT, else ../upstream-trees/{opencompass,aisbench} beside the
// checkout (exported trees of the commits in ../shared/upstream/README.md). Without them the figure is a fixed
// anchor, printed as such with the date and the machine it was measured on.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { availableParallelism, cpus, platform } from 'node:os'
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

// Printed only when no upstream tree is here. Measured with this bench (median of 3) on the date and machine below.
const FIXED: Record<string, number> = { 'oc-a': 281_000, 'oc-b': 4_900, 'oc-c': 5_000, 'ais-mm': 28_500 }
const FIXED_LABEL = 'FIXED anchor, not measured in this run: 2026-11-22, AMD EPYC, 2 cores, Python 3.11'

export interface UpstreamFigures {
  note?: string
  figure(name: string): { rate: number; label: string }
}

function run(suite: 'oc' | 'ais', checkout: string, rows: number): Map<string, number> {
  const out = execFileSync(
    'python3',
    [join(SCRIPTS, 'oc_prompt_bench.py'), suite, '--checkout', checkout, '--harness', HARNESS, '--rows', String(rows), '--reps', '3', '--print-jsonl'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 }
  )
  const figures = new Map<string, number>()
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue
    const j = JSON.parse(line) as { name: string; prompts_per_s: number }
    figures.set(j.name, j.prompts_per_s)
  }
  return figures
}

export function measureUpstream(rows: number): UpstreamFigures {
  const measured = new Map<string, number>()
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
      measured.has(name) ? { rate: measured.get(name)!, label: 'measured in this run, median of 3' } : { rate: FIXED[name], label: FIXED_LABEL }
  }
}
