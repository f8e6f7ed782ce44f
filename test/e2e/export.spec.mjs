// End-to-end: the Export dialog (Shift+E) in browser mode — the curated dataset as VLMEvalKit TSV with its images
// as base64, downloaded and read back; the scope follows the list's status filter; the dialog's look in light and
// dark (screenshots under test-output/e2e).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { assert, root } from './harness.mjs'

/** Records of a TSV written with every field quoted (VLMEvalKit's dump): quoted fields may hold tabs and newlines. */
function tsvRecords(text) {
  const rows = []
  let row = []
  let i = 0
  while (i < text.length) {
    if (text[i] !== '"') throw new Error(`unquoted field at ${i}`)
    let j = i + 1
    let v = ''
    for (;;) {
      const q = text.indexOf('"', j)
      if (text[q + 1] === '"') {
        v += text.slice(j, q + 1)
        j = q + 2
      } else {
        v += text.slice(j, q)
        j = q + 1
        break
      }
    }
    row.push(v)
    if (text[j] === '\t') i = j + 1
    else {
      rows.push(row)
      row = []
      i = j + 1
    }
  }
  return rows
}

export async function runExportSpecs(t, page, shots) {
  await t.check('export: Shift+E opens the Export dialog with focus inside it', async () => {
    await page.getByTestId('row-list').focus()
    await page.keyboard.press('E')
    await page.getByTestId('export-panel').waitFor()
    const inside = await page.evaluate(() => !!document.activeElement?.closest('[data-testid=export-panel]'))
    assert(inside, 'focus is not in the dialog')
  })

  await t.check('export: the curated dataset as VLMEvalKit TSV downloads with base64 images equal to the files', async () => {
    await page.getByTestId('export-what-dataset').check()
    await page.getByTestId('export-only-all').check()
    await page.getByTestId('export-format').selectOption('vlmeval-tsv')
    await page.getByTestId('export-media-fixed').waitFor()
    await page.screenshot({ path: join(shots, 'export-dialog-light.png') })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(shots, 'export-dialog-dark.png') })
    await page.emulateMedia({ colorScheme: 'light' })
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-run').click()])
    const file = join(shots, 'export-curated.tsv')
    await download.saveAs(file)
    await page.getByTestId('export-result').waitFor()
    const [header, ...rows] = tsvRecords(readFileSync(file, 'utf8'))
    assert(rows.length === 14, `${rows.length} rows`)
    assert(rows.every((r) => r.length === header.length), 'a row has a different number of fields')
    const first = Object.fromEntries(rows[0].map((v, i) => [header[i], v]))
    const png = readFileSync(join(root, 'assets/demo/data/media/shapes-01.png'))
    assert(Buffer.from(first.image, 'base64').equals(png), 'the first image does not decode to shapes-01.png')
    return `${rows.length} rows, ${header.length} columns`
  })

  await t.check('export: Escape closes the dialog and focus returns to the list', async () => {
    await page.keyboard.press('Escape')
    await page.getByTestId('export-panel').waitFor({ state: 'detached' })
    const onList = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))
    assert(onList === 'row-list', `focus on ${onList}`)
  })

  await t.check('export: the scope starts from the list status filter (accepted only)', async () => {
    await page.getByTestId('filter-toggle').click()
    await page.getByTestId('filter-status-accepted').click()
    await page.getByTestId('row-list').focus()
    await page.keyboard.press('E')
    await page.getByTestId('export-panel').waitFor()
    const checked = await page.getByTestId('export-only-accepted').isChecked()
    await page.keyboard.press('Escape')
    await page.getByTestId('filter-status-accepted').click()
    await page.getByTestId('filter-toggle').click()
    assert(checked, 'scope is not "accepted" with the accepted filter on')
  })
}
