// Differential test of the CSV/TSV reader against Python's csv module: files made by csv.writer over varied
// dialects (test/tools/csv_writer_fuzz.py, fixed seed) must read back as Python's csv.reader reads them — the same
// header, the same rows in the same order, and each record with the wrong field count skipped and counted once.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDataset } from '../../../main/services/datasets'

const FILES = 200
const SEED = 20261124
const python = spawnSync('python3', ['--version']).status === 0

interface Expected {
  file: string
  header: string[]
  rows: string[][]
  bad: number
}

const title = 'CSV/TSV reader agrees with Python csv on csv.writer files'

describe.skipIf(!python)(python ? title : `${title} — skipped: python3 is not on PATH`, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pl-csv-fuzz-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it(`reads ${FILES} fuzzed files and the issue's 300-row file exactly as csv.reader does`, async () => {
    const gen = spawnSync(
      'python3',
      [path.join(__dirname, '../../tools/csv_writer_fuzz.py'), dir, String(SEED), String(FILES)],
      { encoding: 'utf8' }
    )
    expect(gen.status, gen.stderr).toBe(0)
    const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected[]
    let rows = 0
    let bad = 0
    let agreed = 0
    const disagreements: string[] = []
    for (const e of expected) {
      const h = await openDataset(path.join(dir, e.file), { cacheDir: null })
      const got = await h.readRows(h.splits[0].name, 0, h.rowCount + 1)
      const want = e.rows.map((r) => Object.fromEntries(e.header.map((k, i) => [k, r[i]])))
      rows += want.length
      bad += e.bad
      const same =
        h.skipped === e.bad &&
        got.length === want.length &&
        got.every((g, i) => JSON.stringify(g.value) === JSON.stringify(want[i]))
      // Rows compare as objects keyed by the header, in order, so a misread header fails too.
      if (same) agreed++
      else disagreements.push(`${e.file}: ${got.length}/${want.length} rows, skipped ${h.skipped}/${e.bad}`)
    }
    console.log(
      `csv differential: ${expected.length} files, ${rows} rows (+${bad} ragged records), ${agreed} files agree`
    )
    expect(disagreements).toEqual([])
    expect(agreed).toBe(FILES + 1)
  }, 120_000)
})
