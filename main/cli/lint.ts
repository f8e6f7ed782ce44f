// `promptloom lint`: every row × model rendered on the export path, findings grouped by kind × model with counts,
// example rows and what to do; the exit code says whether CI should stop (--fail-on). The JSON report is
// documented in shared/lint/README.md.
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Host } from '../api/host'
import { reportFails, type LintReport } from '../../shared/lint/report'
import { LintRun } from '../services/lint/lint-run'
import { Workspace } from '../services/workspace/workspace'
import { resolveProjectSpec } from '../services/workspace/project-spec'
import { parseArgs, UsageError } from './args'
import { applyDatasetFlags, parseShard, type SpooledInput } from './dataset-input'
import { printErrors, type CliIo } from './io'

export const LINT_USAGE = `Usage: promptloom lint --config C [--dataset D|-] --model M [--model M2 …] [--variant ABBR]
                      [--shard I/N] [--json] [--fail-on error|warning|never]

Renders every row of the test split through each model (as Export and render do) and reports what is wrong,
grouped by kind and model: double BOS, system message dropped or remapped, turns merged, empty turns,
unfilled {fields}, template errors, prompts over the context length, examples truncated by max_seq_len, media
missing/unreadable/oversized or dropped by a model, what templates add; and whole-set checks: exact and near
duplicates, the gold answer in the prompt, empty fields, answer-label balance, in-context examples that are
test rows. Rejected rows (saved curation) are left out.

  --config C     project folder, OpenCompass/AISBench config, or dataset
  --dataset D    dataset path when the config's own path does not apply; - reads JSONL rows from standard
                 input (relative media paths then resolve against --media-folder, else the folder of the
                 config's own dataset, else the working directory)
  --media-folder F  where the rows' relative media paths are (VLMEvalKit images folder, LLaVA --image-folder)
  --shard I/N    only shard I of N (from 0), the same contiguous slice render --shard takes; the whole-set
                 checks (duplicates, label balance, examples in the test set) then see that slice only
  --model M      profile JSON, OpenCompass model config, model folder or built-in name (repeatable);
                 default: the project's models. M@HARNESS[,KEY=VALUE…] lints it under another harness
                 (opencompass, aisbench, lm-eval, vlmevalkit), e.g.
                 --model qwen2.5-instruct@lm-eval,fewshot_as_multiturn=false
  --variant V    template variant (dataset abbr); default: the first
  --json         print the report as JSON (documented in shared/lint/README.md, "version": 1)
  --fail-on L    exit 1 when a finding of level L or worse exists: error (default), warning, never

On 20,000 rows or more, rows are linted on one thread per core (at most 4); PROMPTLOOM_LINT_THREADS=N forces N
threads (1: one thread). The report is the same either way.

Exit codes: 0 nothing at the --fail-on level, 1 findings at that level (or the run failed), 2 usage error.
`

const quietHost: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }

export async function runLint(argv: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseArgs(argv, {
    config: { type: 'string' },
    dataset: { type: 'string' },
    'media-folder': { type: 'string' },
    model: { type: 'string', multiple: true },
    variant: { type: 'string' },
    shard: { type: 'string' },
    json: { type: 'boolean' },
    'fail-on': { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  if (flags.help) {
    io.stdout(LINT_USAGE)
    return 0
  }
  const config = flags.config ?? positional[0]
  if (!config) throw new UsageError('lint needs --config (a config file, dataset or project folder)')
  const failOn = (flags['fail-on'] ?? 'error') as 'error' | 'warning' | 'never'
  if (!['error', 'warning', 'never'].includes(failOn)) throw new UsageError('--fail-on must be error, warning or never')

  const shard = flags.shard ? parseShard(flags.shard) : undefined

  const ws = new Workspace(quietHost)
  let spooled: SpooledInput | null = null
  try {
    const spec = await resolveProjectSpec(config)
    spooled = await applyDatasetFlags(spec, flags, io.stdin)
    if (flags.model?.length) spec.modelFiles = await Promise.all(flags.model.map(async (m) => ((await stat(m).catch(() => null)) ? resolve(m) : m)))
    const summary = await ws.session.openSpec(spec)
    printErrors(io, summary.problems)
    if (summary.models.length === 0) throw new UsageError('no usable model: give --model with a profile, model config, model folder or built-in name')
    const variant = flags.variant ?? summary.variants[0].id
    if (!summary.variants.some((v) => v.id === variant)) throw new UsageError(`no variant "${variant}"; this config has: ${summary.variants.map((v) => v.id).join(', ')}`)
    const run = await new LintRun(await ws.lint.source({ variantId: variant, shard })).run()
    const report = run.report()
    io.stdout(flags.json ? JSON.stringify(report, null, 2) + '\n' : lintText(report))
    return reportFails(report, failOn) ? 1 : 0
  } finally {
    ws.close()
    await spooled?.dispose()
  }
}

const LEVEL = { error: 'ERROR  ', warning: 'WARN   ', info: 'info   ' } as const

/** The report for a terminal: one block per group, worst first. */
export function lintText(r: LintReport): string {
  const out: string[] = []
  const sh = r.project.shard
  const shard = sh ? ` · shard ${sh.index}/${sh.count} (rows ${sh.start}–${Math.max(sh.start, sh.end - 1)})` : ''
  out.push(`${r.project.name} · ${r.project.variant}${shard} · ${r.rows.toLocaleString()} rows × ${r.models.length} model${r.models.length === 1 ? '' : 's'}${r.rejected ? ` (${r.rejected} rejected, left out)` : ''} · ${(r.elapsedMs / 1000).toFixed(1)} s`)
  for (const m of r.models) out.push(`  ${m.id}: context ${m.contextLength.toLocaleString()}${m.maxSeqLen ? `, max_seq_len ${m.maxSeqLen}` : ''}, tokens ${m.tokens === 'exact' ? 'exact' : '≈ estimated'} (${m.tokenizer})`)
  out.push('')
  for (const g of r.groups) {
    out.push(`${LEVEL[g.severity]}${g.title} [${g.kind}] · ${g.model ?? 'dataset'} · ${g.count.toLocaleString()} row${g.count === 1 ? '' : 's'}`)
    // Examples with the same message are one line naming their rows.
    const byMessage = new Map<string, number[]>()
    for (const e of g.examples) {
      const m = `${e.message.replace(/\s+/g, ' ').slice(0, 160)}${e.at ? ` (${Object.entries(e.at).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`
      byMessage.set(m, [...(byMessage.get(m) ?? []), e.row])
    }
    const more = g.count > g.examples.length ? ', …' : ''
    for (const [m, rows] of byMessage) out.push(`         row${rows.length > 1 ? 's' : ''} ${rows.join(', ')}${byMessage.size === 1 ? more : ''}: ${m}`)
    out.push(`         → ${g.advice}`)
  }
  if (r.groups.length === 0) out.push('No findings.')
  out.push('')
  out.push('Prompt lengths (tokens; ≈ estimated):')
  for (const h of r.histograms) out.push(`  ${h.model}: ${h.exact ? '' : '≈'}p50 ${h.p50}, p95 ${h.p95}, max ${h.max} of ${h.contextLength.toLocaleString()}${h.over ? ` · ${h.over} over` : ''}`)
  for (const t of r.truncation) out.push(`  ${t.model}: max_seq_len ${t.maxSeqLen}: ${t.truncated} row(s) lose in-context examples, ${t.noneFit} do not fit even with none`)
  out.push('')
  out.push(`${r.summary.errors} error, ${r.summary.warnings} warning and ${r.summary.infos} info finding(s) in ${r.groups.length} group(s)${r.cancelled ? ' (cancelled: partial)' : ''}`)
  return out.join('\n') + '\n'
}
