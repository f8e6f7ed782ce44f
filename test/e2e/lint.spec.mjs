// The Lint panel on the demo (browser mode): L runs lint in the background, the table gives counts per kind and
// model, a count filters the row list to exactly that group's rows, and counts follow curation (a rejected row
// leaves its group; undo brings it back).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { assert, root } from './harness.mjs'

const demoRows = readFileSync(join(root, 'assets/demo/data/test.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l))

const shownRows = (page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=row-item]')].map((e) => Number(e.dataset.index)))
const shownCount = (page) => page.evaluate(() => document.querySelector('[data-testid=shown-count]')?.textContent?.trim())

export async function runLintSpecs(t, page, shots) {
  // The specs after these expect the variant they left selected.
  const variantBefore = await page.getByTestId('variant-select').inputValue()
  await t.check('lint: ? lists L in the shortcut sheet', async () => {
    await page.getByTestId('row-list').focus()
    await page.keyboard.press('?')
    const sheet = page.getByTestId('shortcuts')
    await sheet.waitFor()
    const rows = await sheet.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())))
    await page.keyboard.press('Escape')
    const row = rows.find((r) => r[0] === 'L')
    assert(row && /lint every row/.test(row[1]), 'L is not in the sheet')
  })

  await t.check('lint: L opens the panel and runs lint over every row and model', async () => {
    await page.getByTestId('variant-select').selectOption('demo-mm-dialogue')
    await page.getByTestId('row-list').focus()
    await page.keyboard.press('Shift+L')
    await page.getByTestId('lint-panel').waitFor()
    await page.getByTestId('lint-table').waitFor()
    const summary = (await page.getByTestId('lint-summary').textContent()).replace(/\s+/g, ' ')
    assert(/14 rows × 5 models/.test(summary), summary)
    const heads = await page.locator('[data-testid=lint-table] thead th').allTextContents()
    assert(JSON.stringify(heads) === JSON.stringify(['Finding', 'dataset', 'vllm-api-chat', 'qwen2.5-vl-7b-instruct-hf', 'demo-chatml', 'demo-llama3', 'demo-internlm2']), heads.join(','))
    await page.screenshot({ path: join(shots, 'lint-panel.png') })
    return summary
  })

  await t.check('lint: clicking a group shows exactly its rows in the list', async () => {
    // Rows rejected earlier in the run are left out of every group (read while the list shows every row).
    const rejected = new Set(await page.evaluate(() => [...document.querySelectorAll('.row-item.rejected')].map((e) => Number(e.dataset.index))))
    await page.getByTestId('lint-group-label-imbalance-dataset').click()
    await page.waitForFunction(() => document.querySelector('[data-testid=lint-group-label-imbalance-dataset]')?.getAttribute('aria-pressed') === 'true')
    const count = Number(await page.getByTestId('lint-group-label-imbalance-dataset').textContent())
    await page.waitForFunction((n) => document.querySelector('[data-testid=shown-count]')?.textContent?.trim() === `${n} shown of 14`, count)
    const shown = await shownRows(page)
    // The group holds the rows whose answer is the most frequent letter (every tied letter) among live rows.
    const counts = {}
    demoRows.forEach((r, i) => !rejected.has(i) && (counts[r.answer] = (counts[r.answer] ?? 0) + 1))
    const max = Math.max(...Object.values(counts))
    const expected = demoRows.flatMap((r, i) => (counts[r.answer] === max && !rejected.has(i) ? [i] : []))
    assert(JSON.stringify(shown) === JSON.stringify(expected), `shown ${shown} expected ${expected}`)
    await page.getByTestId('lint-detail').waitFor()
    return `rows ${shown.join(', ')}`
  })

  await t.check('lint: the missing-media group lists row 9 only, and a reject takes it out of the count; undo brings it back', async () => {
    await page.getByTestId('lint-group-media-missing-dataset').click()
    await page.waitForFunction(() => document.querySelector('[data-testid=shown-count]')?.textContent?.trim() === '1 shown of 14')
    const shown = await shownRows(page)
    assert(JSON.stringify(shown) === '[9]', `shown ${shown}`)
    await page.getByTestId('row-item').first().click()
    await page.getByTestId('row-list').focus()
    await page.keyboard.press('r')
    await page.waitForFunction(() => !document.querySelector('[data-testid=lint-group-media-missing-dataset]'))
    const summary = (await page.getByTestId('lint-summary').textContent()).replace(/\s+/g, ' ')
    assert(/rejected left out/.test(summary), summary)
    await page.keyboard.press('Control+z')
    await page.getByTestId('lint-group-media-missing-dataset').waitFor()
    return summary
  })

  await t.check('lint: each model has a prompt-length histogram with its context limit', async () => {
    for (const m of ['demo-chatml', 'demo-llama3', 'demo-internlm2']) {
      const h = page.getByTestId(`lint-hist-${m}`)
      await h.waitFor()
      assert((await h.locator('line.limit').count()) === 1, `${m}: no limit line`)
      assert(/\/ 2,048 tokens/.test(await h.textContent()), `${m}: no limit figure`)
    }
  })

  await t.check('lint: with max_seq_len set, each model column says how many in-context examples survive', async () => {
    const chips = await page.getByTestId('examples-kept').allTextContents()
    assert(chips.length === 3 && chips.every((c) => c.trim() === '3 examples'), chips.join(' | '))
    const report = (await page.getByTestId('lint-truncation').textContent()).replace(/\s+/g, ' ')
    assert(/demo-llama3 \(max_seq_len 2,048\): 0 rows lose examples/.test(report), report)
  })

  await t.check('lint: the same group again shows every row; Escape closes the panel', async () => {
    const pressed = page.locator('[data-testid^=lint-group-][aria-pressed=true]')
    await pressed.first().click()
    await page.waitForFunction(() => document.querySelector('[data-testid=shown-count]')?.textContent?.trim() === '14 shown of 14')
    await page.getByTestId('row-list').focus()
    await page.keyboard.press('Escape')
    await page.getByTestId('lint-panel').waitFor({ state: 'detached' })
    return await shownCount(page)
  })
  await page.getByTestId('variant-select').selectOption(variantBefore)
}
