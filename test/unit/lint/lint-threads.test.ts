// Lint on worker threads gives the one-thread report: near-duplicate signatures are computed by the built worker
// (out/main/dataset-worker.js; npm test builds it first) while the main thread renders, over several batches of rows
// made in the test, and the JSON report is byte for byte the report of a run where everything stays on one thread.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { configureWorkers, liveWorkers, shutdownWorkers } from '../../../main/services/workers/pool'
import type { LintReport } from '../../../shared/lint/report'
import { cleanup, group, lintProject, makeProject } from './helpers'

const workerFile = join(__dirname, '../../../out/main/dataset-worker.js')

afterEach(async () => {
  await shutdownWorkers()
  configureWorkers({ workerFile: null, idleMs: 5000 })
})
afterAll(cleanup)

/** 1,300 rows (three batches): near duplicates, exact duplicates and inputs too short to judge among them. */
function rows(): Record<string, unknown>[] {
  return Array.from({ length: 1300 }, (_, i) => {
    const question =
      i % 13 === 0
        ? `Hi ${i % 2}?`
        : i % 11 === 0
          ? 'Which river flows through the capital city shown on the old map?'
          : i % 7 === 0
            ? `Which river flows through the capital city number ${i - 1} shown on the map, exactly?`
            : `Which river flows through the capital city number ${i} shown on the map?`
    return { question, answer: `River ${i % 5}` }
  })
}

const json = (r: LintReport) => JSON.stringify({ ...r, elapsedMs: 0 }, null, 2)

describe('lint on worker threads', () => {
  it('reports byte for byte what one thread reports', async () => {
    expect(existsSync(workerFile)).toBe(true)
    const dir = makeProject({ test: rows() })
    configureWorkers({ workerFile: null })
    const one = await lintProject(dir)
    one.ws.close()
    configureWorkers({ workerFile, maxWorkers: 2 })
    const threaded = await lintProject(dir)
    threaded.ws.close()
    expect(liveWorkers()).toBeGreaterThan(0)
    expect(group(threaded.report, 'near-duplicate-prompt')!.count).toBeGreaterThan(100)
    expect(json(threaded.report)).toBe(json(one.report))
  }, 60_000)
})
