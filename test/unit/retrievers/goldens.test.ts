// Every golden case whose outcome the retriever decides: its expected ice_idx, or its retriever-stage error.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { retrieveIndices, type Family } from '../../../shared/engine/retrievers'
import { CASES_DIR } from '../../support/shared-dir'


interface GoldenCase {
  id: string
  family: Family
  input: any
  expected: any
}

function load(file: string): GoldenCase[] {
  return readFileSync(join(CASES_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldenCase)
    .filter((c) => c.input.kind !== 'parse')
}

function columns(v: string[] | string): string[] {
  return Array.isArray(v) ? v : v.split(/\s+/).filter(Boolean)
}

/** Python slice string such as "[1:]" over the rows, as DatasetReader applies train_range/test_range. */
function range<T>(rows: T[], r: string | undefined): T[] {
  if (!r) return rows
  const m = /^\[(-?\d*):(-?\d*)\]$/.exec(r)
  if (!m) throw new Error(`unsupported range ${r}`)
  const norm = (s: string, dflt: number): number => (s === '' ? dflt : Number(s) < 0 ? rows.length + Number(s) : Number(s))
  return rows.slice(norm(m[1], 0), norm(m[2], rows.length))
}

const cases = [...load('opencompass.jsonl'), ...load('aisbench.jsonl')]
const decided = cases.filter((c) => c.expected.ice_idx || ['retrieve'].includes(c.expected.stage))

describe('retrieveIndices against the goldens', () => {
  it('finds the retriever cases', () => {
    expect(decided.length).toBeGreaterThan(40)
  })
  it.each(decided.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const { reader_cfg: rc, infer_cfg: ic } = c.input
    const result = retrieveIndices(ic.retriever, {
      train: range(c.input.train, rc.train_range),
      test: range(c.input.test, rc.test_range),
      inputColumns: columns(rc.input_columns),
      outputColumn: rc.output_column || null,
      family: c.family
    })
    if (c.expected.ice_idx) {
      expect(result.ok && result.indices).toEqual(c.expected.ice_idx)
    } else {
      expect(result.ok).toBe(false)
      if (!result.ok) {
        expect(result.error.message).toBe(c.expected.error)
        expect(result.error.stage).toBe('retrieve')
      }
    }
  })
})
