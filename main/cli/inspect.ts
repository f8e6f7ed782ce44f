// `promptloom inspect PATH [--json]`: check a dataset before curating it, or in CI. Uses the same readers,
// index and cache as the app. Exit 0 when every row loads, 1 when rows were skipped, 2 on usage errors.
import { inspectDataset, type InspectReport } from '../services/datasets'
import { shutdownWorkers } from '../services/workers/pool'

export interface InspectIo {
  stdout: (s: string) => void
  stderr: (s: string) => void
}

const USAGE = `Usage: promptloom inspect PATH [--json] [--media-folder DIR] [--root DIR …] [--no-cache]

Checks a dataset as the app reads it: rows, columns (media columns marked), every media reference (resolved, missing,
refused), every bad row with file, line and byte offset.

  --json              the report as JSON
  --media-folder DIR  where the rows' relative media paths are (VLMEvalKit images folder, LLaVA --image-folder),
                      as render and lint take it
  --root DIR          another folder media may live in (repeatable)
  --no-cache          index the file again instead of using the cached index

Exit codes: 0 every row loads, 1 rows were skipped, 2 usage error.
`

function where(at: { file: string; line?: number; row?: number; offset?: number; column?: string }): string {
  const parts = [at.file]
  if (at.line !== undefined) parts.push(`line ${at.line}`)
  if (at.row !== undefined) parts.push(`row ${at.row}`)
  if (at.offset !== undefined) parts.push(`byte ${at.offset}`)
  if (at.column) parts.push(`column ${at.column}`)
  return parts.join(', ')
}

function text(r: InspectReport): string {
  const out: string[] = []
  out.push(`${r.path}`)
  out.push(`format: ${r.format}   rows: ${r.rowCount}   skipped: ${r.skipped}${r.fromCache ? '   (index from cache)' : ''}`)
  for (const s of r.splits) out.push(`  split ${s.name}: ${s.rowCount} rows (${s.files.length} file${s.files.length === 1 ? '' : 's'})`)
  out.push('columns:')
  const w = Math.max(4, ...r.columns.map((c) => c.name.length))
  for (const c of r.columns) out.push(`  ${c.name.padEnd(w)}  ${c.type.padEnd(7)}  present in ${c.present}${c.media ? `   ${c.media} (media: shown as media, never prompt text)` : ''}`)
  const m = r.media
  out.push(`media references: ${m.total}`)
  if (m.total > 0) {
    out.push(`  files checked ${m.checked}${m.truncated ? ' (capped)' : ''}: resolved ${m.resolved}, missing ${m.missing}, refused ${m.refused}`)
    if (m.offline) out.push(`  http(s): ${m.offline} (not fetched: offline)`)
    if (m.inline) out.push(`  inline (data: URL / base64): ${m.inline}`)
    if (m.embedded) out.push(`  embedded bytes (Parquet binary, HF Image/Audio): ${m.embedded}`)
    for (const p of m.problems) out.push(`  ${p.code === 'media-missing' ? 'missing' : 'refused'}: ${p.file}, row ${p.row}, column ${p.column}: ${p.value} — ${p.reason}`)
  }
  const errs = r.errors
  if (errs.length) {
    out.push(`problems: ${r.errorCount}${r.errorCount > r.errors.length ? ` (first ${r.errors.length} listed)` : ''}`)
    for (const e of errs) out.push(`  ${e.severity === 'error' ? 'skipped' : 'warning'} [${e.code}] ${where(e.at)}: ${e.message}`)
  }
  return `${out.join('\n')}\n`
}

export async function runInspect(args: string[], io: InspectIo): Promise<number> {
  let json = false
  let cache = true
  const roots: string[] = []
  const paths: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '--json') json = true
    else if (a === '--no-cache') cache = false
    else if ((a === '--root' || a === '--media-folder') && args[i + 1]) roots.push(args[++i])
    else if (a === '--help' || a === '-h') {
      io.stdout(USAGE)
      return 0
    } else if (a.startsWith('--')) {
      io.stderr(`promptloom inspect: unknown option ${a}\n${USAGE}`)
      return 2
    } else paths.push(a)
  }
  if (paths.length !== 1) {
    io.stderr(`promptloom inspect: expected one PATH\n${USAGE}`)
    return 2
  }
  let report: InspectReport
  try {
    report = await inspectDataset(paths[0], { roots, ...(cache ? {} : { cacheDir: null }) })
  } catch (err) {
    io.stderr(`promptloom inspect: cannot open ${paths[0]}: ${(err as Error).message}\n`)
    return 2
  } finally {
    await shutdownWorkers()
  }
  io.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : text(report))
  const fileLevel = report.errors.some((e) => e.severity === 'error')
  return report.skipped > 0 || fileLevel ? 1 : 0
}
