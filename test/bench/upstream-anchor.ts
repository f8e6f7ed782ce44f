// The upstream side of the engine benchmark: the rows of ../shared/upstream/perf/scripts/synth.py and the figures of
// oc_prompt_bench.py (real OpenCompass / AISBench prompt building), measured in this run when the upstream trees are
// given (OC_CHECKOUT, AIS_CHECKOUT: exported trees of the commits in ../shared/upstream/README.md). Without them the
// figure is a fixed anchor, and its label says when and where it was measured.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { SHARED_DIR } from '../support/shared-dir'

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

// Session 1's figures (2026-11-22, this machine kind: 2 cores, Python 3.11), printed only when no checkout is given.
const FIXED: Record<string, number> = { 'oc-a': 281_000, 'oc-b': 4_900, 'oc-c': 5_000, 'ais-mm': 28_500 }
const FIXED_LABEL = 'fixed anchor, measured 2026-11-22 on this machine kind, not in this run'

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
  for (const [suite, env] of [['oc', 'OC_CHECKOUT'], ['ais', 'AIS_CHECKOUT']] as const) {
    const tree = process.env[env]
    if (!tree || !existsSync(tree)) {
      missing.push(env)
      continue
    }
    for (const [k, v] of run(suite, tree, rows)) measured.set(k, v)
  }
  return {
    note: missing.length ? `${missing.join(' and ')} not set: those upstream figures are fixed anchors (see ../shared/upstream/README.md to measure them here)` : undefined,
    figure: (name) =>
      measured.has(name) ? { rate: measured.get(name)!, label: 'measured in this run, median of 3' } : { rate: FIXED[name], label: FIXED_LABEL }
  }
}
