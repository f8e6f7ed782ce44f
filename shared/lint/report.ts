// The lint report: findings over a whole dataset × models, grouped by kind × model. This is the documented,
// versioned JSON that `promptloom lint --json` prints and the app's Lint panel shows (shared/lint/README.md). Adding
// optional fields keeps LINT_REPORT_VERSION; renaming or removing one, or changing a meaning, bumps it.

export const LINT_REPORT_VERSION = 1

export type LintSeverity = 'error' | 'warning' | 'info'

/** One row a group holds, as an example: its row number and what was found there. */
export interface LintExample {
  row: number
  message: string
  /** Where in the template or row (line/column of a template error, the field name, …). */
  at?: Record<string, string | number>
}

export interface LintGroup {
  /** `${kind}|${model}` (model empty for dataset checks): the key the app filters the row list with. */
  key: string
  kind: string
  /** The model this group is about, or null for checks of the dataset itself. */
  model: string | null
  severity: LintSeverity
  title: string
  /** What to do about it. */
  advice: string
  /** Rows affected (rejected rows are not counted). */
  count: number
  examples: LintExample[]
  /** Kind-specific figures: the label distribution, the upstream error code, … */
  detail?: Record<string, unknown>
}

export interface LintHistogram {
  model: string
  contextLength: number
  /** Whether counts come from the model's own tokenizer (false: estimates, shown as ≈). */
  exact: boolean
  /** Upper bounds are exclusive; the last bin ends above the longest prompt. */
  bins: { from: number; to: number; count: number }[]
  rows: number
  over: number
  max: number
  p50: number
  p95: number
}

export interface LintModelInfo {
  id: string
  name: string
  contextLength: number
  /** OpenCompass max_seq_len, when the model's config sets one: in-context examples are dropped to fit it. */
  maxSeqLen?: number
  tokens: 'exact' | 'estimate'
  /** The tokenizer's file or package, or why counts are estimates. */
  tokenizer: string
}

export interface LintReport {
  version: typeof LINT_REPORT_VERSION
  /** `shard`: the run linted only shard `index` of `count`, rows [start, end) (`lint --shard I/N`). */
  project: { name: string; config?: string; dataset: string; split: string; variant: string; shard?: { index: number; count: number; start: number; end: number } }
  models: LintModelInfo[]
  /** Rows rendered; rejected rows stay rendered but are left out of counts (`rejected`). */
  rows: number
  rejected: number
  /** True when the run was cancelled: figures cover the rows done so far. */
  cancelled: boolean
  summary: { errors: number; warnings: number; infos: number }
  groups: LintGroup[]
  histograms: LintHistogram[]
  /** In-context examples retrieved vs kept after max_seq_len truncation, per model with a max_seq_len. */
  truncation: { model: string; maxSeqLen: number; rows: number; truncated: number; noneFit: number; retrieved: number; minKept: number | null }[]
  elapsedMs: number
}

/** The key of a group: kind and model (empty for dataset checks). */
export function groupKey(kind: string, model: string | null): string {
  return `${kind}|${model ?? ''}`
}

/** The key of a token-length bin: rows of `model` with from ≤ tokens < to. */
export function binKey(model: string, from: number, to: number): string {
  return `tokens|${model}|${from}|${to}`
}

export type ParsedLintKey = { type: 'group'; kind: string; model: string | null } | { type: 'bin'; model: string; from: number; to: number }

export function parseLintKey(key: string): ParsedLintKey | null {
  const parts = key.split('|')
  if (parts[0] === 'tokens' && parts.length === 4) {
    const from = Number(parts[2])
    const to = Number(parts[3])
    return Number.isFinite(from) && Number.isFinite(to) ? { type: 'bin', model: parts[1], from, to } : null
  }
  if (parts.length !== 2 || !parts[0]) return null
  return { type: 'group', kind: parts[0], model: parts[1] || null }
}

const RANK: Record<LintSeverity, number> = { error: 2, warning: 1, info: 0 }

/** Whether a report fails at a threshold (`promptloom lint --fail-on`). */
export function reportFails(r: LintReport, failOn: 'error' | 'warning' | 'never'): boolean {
  if (failOn === 'never') return false
  return r.groups.some((g) => g.count > 0 && RANK[g.severity] >= RANK[failOn])
}
