// `promptloom lint` as one step of a larger job, as render is: `--shard I/N` lints one contiguous slice of the rows,
// `--dataset -` lints rows read from standard input.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'
import type { LintReport } from '../../../shared/lint/report'
import { demoCopy } from '../store/helpers'

async function lint(args: string[], stdin?: string): Promise<{ code: number; report: LintReport; err: string }> {
  let out = ''
  let err = ''
  const input = stdin === undefined ? undefined : (async function* () {
    yield Buffer.from(stdin)
  })()
  const code = await main(['lint', '--json', '--fail-on', 'never', ...args], { stdout: (s) => void (out += s), stderr: (s) => void (err += s), stdin: input })
  return { code, report: JSON.parse(out) as LintReport, err }
}

/** Per-model findings (not the whole-set checks, which see one shard only) as key → count. */
function perModelCounts(r: LintReport): Map<string, number> {
  return new Map(r.groups.filter((g) => g.model !== null).map((g) => [g.key, g.count]))
}

describe('lint --shard', () => {
  it('lints each row in exactly one shard: rows and per-model finding counts add up to the whole run', async () => {
    const dir = demoCopy()
    const whole = await lint(['--config', dir])
    const shards = [await lint(['--config', dir, '--shard', '0/3']), await lint(['--config', dir, '--shard', '1/3']), await lint(['--config', dir, '--shard', '2/3'])]
    expect(shards.reduce((n, s) => n + s.report.rows, 0)).toBe(whole.report.rows)
    const summed = new Map<string, number>()
    for (const s of shards) for (const [k, n] of perModelCounts(s.report)) summed.set(k, (summed.get(k) ?? 0) + n)
    expect(summed).toEqual(perModelCounts(whole.report))
  })

  it('reports only rows of its own slice, and names the slice in the report', async () => {
    const { report } = await lint(['--config', demoCopy(), '--shard', '1/3'])
    const sh = report.project.shard!
    expect(sh).toMatchObject({ index: 1, count: 3 })
    expect(report.rows).toBe(sh.end - sh.start)
    const rows = report.groups.flatMap((g) => g.examples.map((e) => e.row))
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row).toBeGreaterThanOrEqual(sh.start)
      expect(row).toBeLessThan(sh.end)
    }
  })

  it('refuses a shard outside 0..N-1 with the usage exit code', async () => {
    let err = ''
    const code = await main(['lint', '--config', demoCopy(), '--shard', '3/3'], { stdout: () => {}, stderr: (s) => void (err += s) })
    expect(code).toBe(2)
    expect(err).toContain('--shard 3/3')
  })
})

describe('lint --dataset -', () => {
  it('lints rows from standard input as it lints the same rows from the file', async () => {
    const dir = demoCopy()
    const fromFile = await lint(['--config', dir])
    const fromStdin = await lint(['--config', dir, '--dataset', '-'], readFileSync(join(dir, 'data/test.jsonl'), 'utf8'))
    expect(fromStdin.code).toBe(0)
    expect(fromStdin.report.rows).toBe(fromFile.report.rows)
    const strip = (r: LintReport) => r.groups.map((g) => ({ key: g.key, count: g.count, rows: g.examples.map((e) => e.row) }))
    expect(strip(fromStdin.report)).toEqual(strip(fromFile.report))
  })
})
