// Lint on worker threads gives the one-thread report: with the built workers (out/main; npm test builds them first)
// blocks of rows are linted on a lint worker and their near-duplicate signatures on the dataset pool, and the JSON
// report of rows made in the test is byte for byte the report of a run where everything stays on one thread.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { availableParallelism } from 'node:os'
import { LintRun } from '../../../main/services/lint/lint-run'
import { lintWorkers, PARALLEL_MIN_ROWS } from '../../../main/services/lint/lint-threads'
import { configureWorkers, shutdownWorkers } from '../../../main/services/workers/pool'
import { Workspace } from '../../../main/services/workspace/workspace'
import type { LintReport } from '../../../shared/lint/report'
import { cleanup, group, host, lintProject, makeProject } from './helpers'

const workerFile = join(__dirname, '../../../out/main/dataset-worker.js')

afterEach(async () => {
  delete process.env.PROMPTLOOM_LINT_THREADS
  await shutdownWorkers()
  configureWorkers({ workerFile: null, idleMs: 5000 })
})
afterAll(cleanup)

/** 4,500 rows (three blocks of a threaded run): near and exact duplicates, inputs too short to judge, an imbalance. */
function rows(): Record<string, unknown>[] {
  return Array.from({ length: 4500 }, (_, i) => {
    const question =
      i % 13 === 0
        ? `Hi ${i % 2}?`
        : i % 11 === 0
          ? 'Which river flows through the capital city shown on the old map?'
          : i % 7 === 0
            ? `Which river flows through the capital city number ${i - 1} shown on the map, exactly?`
            : `Which river flows through the capital city number ${i} shown on the map?`
    return { question, A: 'Rhine', B: 'Seine', answer: i % 4 ? 'A' : 'B' }
  })
}

const json = (r: LintReport) => JSON.stringify({ ...r, elapsedMs: 0 }, null, 2)

/** Lints `dir` with the main thread holding back until a worker has linted a block: the worker's share is certain. */
async function lintWithWorkerFirst(dir: string): Promise<{ report: LintReport; run: LintRun }> {
  const ws = new Workspace(host, { curation: 'memory' })
  try {
    await ws.session.open(dir)
    const source = await ws.lint.source({})
    const run: LintRun = new LintRun({
      ...source,
      readRows: async (start, count) => {
        for (const t0 = Date.now(); run.workerBlocks === 0 && Date.now() - t0 < 60_000; ) await new Promise((r) => setTimeout(r, 20))
        return source.readRows(start, count)
      }
    })
    await run.run()
    return { report: run.report(), run }
  } finally {
    ws.close()
  }
}

describe('lint on worker threads', () => {
  it('reports byte for byte what one thread reports', async () => {
    expect(existsSync(workerFile)).toBe(true)
    const dir = makeProject({ test: rows(), inputColumns: ['question', 'A', 'B'] })
    const one = await lintProject(dir)
    one.ws.close()
    configureWorkers({ workerFile, maxWorkers: 2 })
    process.env.PROMPTLOOM_LINT_THREADS = '2'
    const threaded = await lintWithWorkerFirst(dir)
    expect(one.run.workerBlocks).toBe(0)
    expect(threaded.run.workerBlocks).toBeGreaterThan(0)
    expect(group(threaded.report, 'near-duplicate-prompt')!.count).toBeGreaterThan(100)
    expect(group(threaded.report, 'label-imbalance')!.count).toBe(3375)
    expect(json(threaded.report)).toBe(json(one.report))
  }, 120_000)

  it('a cancelled run drops the blocks its workers took next and reports the rows before the first row not linted', async () => {
    const dir = makeProject({ test: rows(), inputColumns: ['question', 'A', 'B'] })
    configureWorkers({ workerFile, maxWorkers: 2 })
    process.env.PROMPTLOOM_LINT_THREADS = '2'
    const ws = new Workspace(host, { curation: 'memory' })
    try {
      await ws.session.open(dir)
      const source = await ws.lint.source({})
      const cancel = new AbortController()
      // This thread's first batch waits for the worker's first block, then the run is cancelled: rows 0–499 and
      // the worker's block are linted, the block the worker had taken next is dropped.
      const run: LintRun = new LintRun({
        ...source,
        readRows: async (start, count) => {
          for (const t0 = Date.now(); run.workerBlocks === 0 && Date.now() - t0 < 60_000; ) await new Promise((r) => setTimeout(r, 20))
          cancel.abort()
          return source.readRows(start, count)
        }
      })
      await run.run(cancel.signal)
      const report = run.report()
      const first500 = await new LintRun({ ...source, range: { start: 0, end: 500 } }).run()
      expect([report.cancelled, report.rows, run.workerBlocks]).toEqual([true, 500, 1])
      expect(report.groups).toEqual(first500.report().groups)
    } finally {
      ws.close()
    }
  }, 120_000)

  it('takes one thread per core for large sets only, decided by rows and cores', () => {
    configureWorkers({ workerFile })
    expect(lintWorkers(PARALLEL_MIN_ROWS - 1)).toBe(0)
    expect(lintWorkers(PARALLEL_MIN_ROWS)).toBe(Math.min(availableParallelism(), 4) - 1)
    process.env.PROMPTLOOM_LINT_THREADS = '1'
    expect(lintWorkers(1_000_000)).toBe(0)
    process.env.PROMPTLOOM_LINT_THREADS = '3'
    expect(lintWorkers(5000)).toBe(2)
  })
})
