// End-to-end checks of the curation workspace on the demo (browser mode): filters, bulk actions on a filtered
// set, undo, field edits reaching the prompt, the diff view, the model picker, column focus, in-context example
// hiding, the Open panel and drag and drop; and a million-row dataset that must open, jump to its last row and
// scroll without long tasks.
import { mkdtempSync, rmSync, createWriteStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assert, launchBrowser, startServe, watchedPage } from './harness.mjs'

const waitShown = (page, text) =>
  page.waitForFunction((want) => document.querySelector('[data-testid=shown-count]')?.textContent?.trim() === want, text)
const exactOf = (page, n = 0) => page.getByTestId('model-column').nth(n).getAttribute('data-exact')
const focusList = (page) => page.getByTestId('row-list').focus()

/** Runs on a page showing the demo, after the base checks (row 0 accepted, row 1 rejected). */
export async function runCurationChecks(t, page, shots) {
  await t.check('filter by status shows only those rows, "N shown of M"', async () => {
    await page.getByTestId('filter-toggle').click()
    await page.getByTestId('filter-status-accepted').click()
    await waitShown(page, '1 shown of 14')
    await page.getByTestId('filter-status-accepted').click()
    await waitShown(page, '14 shown of 14')
  })

  await t.check('bulk accept of a filtered set, then undo with Ctrl+Z', async () => {
    await page.getByTestId('filter-status-unreviewed').click()
    await waitShown(page, '12 shown of 14')
    await page.getByTestId('bulk-accept').click()
    await waitShown(page, '0 shown of 14')
    await page.getByTestId('filter-status-unreviewed').click()
    await page.getByTestId('filter-status-accepted').click()
    await waitShown(page, '13 shown of 14')
    await focusList(page)
    await page.keyboard.press('Control+z')
    await waitShown(page, '1 shown of 14')
    await page.getByTestId('last-change').filter({ hasText: 'Undid: accepted 12 rows' }).waitFor()
    await page.keyboard.press('Control+Shift+Z')
    await waitShown(page, '13 shown of 14')
    await page.keyboard.press('Control+z')
    await waitShown(page, '1 shown of 14')
    await page.getByTestId('filter-clear').click()
    await waitShown(page, '14 shown of 14')
    await page.getByTestId('filter-toggle').click()
  })

  await t.check('x picks rows, Shift+j extends, a accepts the picked rows', async () => {
    await page.getByTestId('row-item').nth(4).click()
    await focusList(page)
    await page.keyboard.press('x')
    await page.keyboard.press('Shift+J')
    await page.keyboard.press('Shift+J')
    const picked = await page.locator('.row-item.picked').count()
    assert(picked === 3, `${picked} picked rows`)
    await page.keyboard.press('a')
    await page.waitForFunction(() => [...document.querySelectorAll('.row-item.accepted')].length >= 4)
    await page.keyboard.press('Control+z')
    await page.waitForFunction(() => [...document.querySelectorAll('.row-item.accepted')].length === 1)
    await page.keyboard.press('Escape')
    assert((await page.locator('.row-item.picked').count()) === 0, 'Esc did not unpick')
  })

  await t.check('e edits a field: the prompt changes, the diff shows, the list marks it; undo restores', async () => {
    // A variant whose template reads the question column (the multimodal one reads `content`), the ChatML column.
    if ((await page.getByTestId('variant-select').inputValue()) === 'demo-mm-media') await page.getByTestId('variant-select').selectOption('demo-mm-dialogue')
    await page.getByTestId('row-item').nth(2).click()
    await focusList(page)
    await page.waitForFunction(() => document.querySelector('[data-testid=model-column][data-model=demo-chatml]')?.dataset.exact?.includes('According to the chart'))
    const before = await page.locator('[data-testid=model-column][data-model=demo-chatml]').getAttribute('data-exact')
    // e edits the field in focus (here question's ✎); with none in focus and none chosen yet it asks which.
    await page.evaluate(() => ((document.querySelector('details.fields'))?.setAttribute('open', '')))
    await page.getByTestId('edit-question').focus()
    await page.keyboard.press('e')
    const editor = page.getByTestId('field-editor')
    await editor.waitFor()
    const label = await editor.getAttribute('aria-label')
    assert(label === 'Edit field question', `editing ${label}`)
    await editor.fill('Which fruit sold the most, according to the chart? ✏️')
    await editor.press('Control+Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid=model-column][data-model=demo-chatml]')?.dataset.exact?.includes('Which fruit sold the most, according to the chart? ✏️'))
    await page.getByTestId('diff-text').first().waitFor()
    await page.locator('.row-item.selected [data-testid=badge-edited]').waitFor()
    await page.screenshot({ path: join(shots, 'curation-edit.png') })
    await focusList(page)
    await page.keyboard.press('Control+z')
    await page.waitForFunction((b) => document.querySelector('[data-testid=model-column][data-model=demo-chatml]')?.dataset.exact === b, before)
  })

  await t.check('notes and tags are kept per row', async () => {
    await page.getByTestId('note').fill('chart is hard to read')
    await page.getByTestId('tag-input').fill('charts')
    await page.getByTestId('tag-input').press('Enter')
    await page.getByTestId('tags').filter({ hasText: '#charts' }).waitFor()
    await page.locator('.row-item.selected .badge.tag').waitFor()
    await page.getByTestId('row-item').nth(3).click()
    await page.getByTestId('row-item').nth(2).click()
    await page.waitForFunction(() => document.querySelector('[data-testid=note]')?.value === 'chart is hard to read')
  })

  await t.check('d opens a diff between two model columns, by line or character', async () => {
    await focusList(page)
    await page.keyboard.press('d')
    const view = page.getByTestId('diff-view')
    await view.waitFor()
    assert((await view.locator('.diff-insert').count()) > 0 && (await view.locator('.diff-delete').count()) > 0, 'no inserted or deleted pieces')
    await page.getByTestId('diff-char').click()
    const stats = await view.locator('.diff-stats').textContent()
    assert(/\+\d+/.test(stats), `stats ${stats}`)
    await page.screenshot({ path: join(shots, 'diff-view.png') })
    await page.getByTestId('diff-line').click()
    await focusList(page)
    await page.keyboard.press('d')
    await view.waitFor({ state: 'detached' })
    return stats.trim()
  })

  await t.check('m maximizes one model column at a time, then shows all again', async () => {
    const cols = page.getByTestId('model-column')
    const n = await cols.count()
    await page.keyboard.press('m')
    await page.getByTestId('maximized').waitFor()
    assert((await cols.count()) === 1, 'more than one column while maximized')
    for (let i = 1; i < n; i++) await page.keyboard.press('m')
    await page.keyboard.press('m')
    await page.getByTestId('maximized').waitFor({ state: 'detached' })
    assert((await cols.count()) === n, `${await cols.count()} columns after cycling`)
  })

  await t.check('i hides the in-context examples as chips and shows them again', async () => {
    await page.getByTestId('variant-select').selectOption('demo-mm-string')
    // Wait for the render of this variant itself, not a late one of the previous variant.
    await page.waitForFunction(() => document.querySelector('[data-testid=detail]')?.dataset.variant === 'demo-mm-string' && document.querySelectorAll('[data-testid=exact-text] .ice-0').length > 0)
    const exact = await exactOf(page)
    await focusList(page)
    await page.keyboard.press('i')
    await page.getByTestId('ice-hidden').first().waitFor()
    const chip = await page.getByTestId('ice-hidden').first().textContent()
    assert(/3 in-context examples hidden/.test(chip), chip)
    assert((await exactOf(page)) === exact, 'hiding examples changed the exact input')
    await page.keyboard.press('i')
    await page.getByTestId('ice-hidden').first().waitFor({ state: 'detached' })
    return chip.trim()
  })

  await t.check('the model picker adds a library profile column and × removes it', async () => {
    const cols = page.getByTestId('model-column')
    const n = await cols.count()
    await focusList(page)
    await page.keyboard.press('p')
    const picker = page.getByTestId('model-picker')
    await picker.waitFor()
    const add = picker.locator('[data-testid^=add-model-]').first()
    const id = (await add.getAttribute('data-testid')).slice('add-model-'.length)
    await add.click()
    await page.waitForFunction((want) => document.querySelectorAll('[data-testid=model-column]').length === want, n + 1)
    await page.screenshot({ path: join(shots, 'model-picker.png') })
    await page.getByTestId('import-path').fill('/no/such/model')
    await page.getByTestId('import-model').click()
    const problem = await page.getByTestId('model-problems').textContent()
    assert(/no such file, folder or built-in profile/.test(problem), problem)
    await page.keyboard.press('Escape')
    await picker.waitFor({ state: 'detached' })
    await page.locator(`[data-testid=model-column][data-model="${id}"] [data-testid=remove-column]`).click()
    await page.waitForFunction((want) => document.querySelectorAll('[data-testid=model-column]').length === want, n)
    return id
  })

  await t.check('Open: browser mode says to type a path; a typed path opens and joins the recent list', async () => {
    await focusList(page)
    await page.keyboard.press('o')
    await page.getByTestId('open-panel').waitFor()
    await page.getByTestId('browse-file').click()
    const msg = await page.getByTestId('open-message').textContent()
    assert(/type the path/.test(msg), msg)
    await page.getByTestId('open-path').fill(join(process.cwd(), 'assets/demo'))
    await page.getByTestId('open-path').press('Enter')
    await page.getByTestId('open-panel').waitFor({ state: 'detached' })
    await page.keyboard.press('o')
    await page.getByTestId('recent-list').filter({ hasText: 'PromptLoom demo' }).waitFor()
    await page.keyboard.press('Escape')
  })

  await t.check('dropping a file in browser mode explains that the desktop app is needed', async () => {
    await page.evaluate(() => {
      const dt = new DataTransfer()
      dt.items.add(new File(['{}'], 'x.jsonl'))
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
    })
    await page.getByTestId('notice').filter({ hasText: 'Drag and drop needs the desktop app' }).waitFor()
    await page.getByTestId('notice').click()
  })

  await t.check('the shortcut sheet lists the curation keys', async () => {
    await focusList(page)
    await page.keyboard.press('?')
    const sheet = await page.getByTestId('shortcuts').textContent()
    for (const w of ['undo', 'redo', 'pick', 'edit the selected field', 'maximize', 'diff']) assert(sheet.includes(w), `sheet lacks ${w}`)
    await page.keyboard.press('Escape')
  })
}

function writeBigJsonl(file, rows) {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file)
    out.on('error', reject)
    out.on('finish', resolve)
    let i = 0
    const write = () => {
      let ok = true
      while (i < rows && ok) {
        ok = out.write(JSON.stringify({ id: `r${i}`, question: `What is ${i} plus ${i % 97}?`, answer: String(i + (i % 97)), category: ['math', 'trivia', 'code'][i % 3] }) + '\n')
        i++
      }
      if (i < rows) out.once('drain', write)
      else out.end()
    }
    write()
  })
}

/** A generated million-row JSONL: opens, End jumps to row 999,999, scrolling has no long task over 100 ms. */
export async function runMillionRowSpecs(t, shots) {
  const dir = mkdtempSync(join(tmpdir(), 'pl-e2e-1m-'))
  const file = join(dir, 'big.jsonl')
  const t0 = Date.now()
  await writeBigJsonl(file, 1_000_000)
  const genMs = Date.now() - t0
  const serve = await startServe([file])
  const browser = await launchBrowser()
  const errors = []
  try {
    const page = await watchedPage(browser, errors, 60000)
    await t.check('1M rows: opens and counts every row', async () => {
      const t1 = Date.now()
      await page.goto(serve.url)
      await page.waitForFunction(() => document.querySelector('[data-testid=row-count]')?.textContent?.trim() === '1,000,000 rows')
      await page.getByTestId('model-column').first().waitFor()
      return `generated in ${genMs} ms, open to first matrix ${Date.now() - t1} ms`
    })
    await t.check('1M rows: End jumps to row 999,999 and renders it', async () => {
      await page.getByTestId('row-list').focus()
      const t1 = Date.now()
      await page.keyboard.press('End')
      await page.locator('.row-item.selected[data-index="999999"]').waitFor()
      await page.waitForFunction(() => document.querySelector('[data-testid=model-column]')?.dataset.exact?.includes('What is 999999 plus'))
      const ms = Date.now() - t1
      await page.screenshot({ path: join(shots, 'million-rows-end.png') })
      const box = await page.locator('.row-item.selected').boundingBox()
      const list = await page.getByTestId('row-list').boundingBox()
      assert(box && list && box.y >= list.y - 1 && box.y + box.height <= list.y + list.height + 1, `row 999,999 is outside the list: ${JSON.stringify({ box, list })}`)
      return `${ms} ms`
    })
    // Figures only: speed targets live in `npm run bench` (test/bench/ui.bench.ts), not in pass/fail checks.
    await t.check('1M rows: scrolling keeps the DOM small', async () => {
      const r = await page.evaluate(async () => {
        const tasks = []
        const obs = new PerformanceObserver((l) => l.getEntries().forEach((e) => tasks.push(e.duration)))
        obs.observe({ type: 'longtask', buffered: false })
        const el = document.querySelector('[data-testid=row-list]')
        const frames = []
        let last = performance.now()
        for (let i = 0; i < 120; i++) {
          el.scrollTop = Math.random() * el.scrollHeight
          await new Promise((res) => requestAnimationFrame(() => res()))
          const now = performance.now()
          frames.push(now - last)
          last = now
        }
        await new Promise((res) => setTimeout(res, 300))
        obs.disconnect()
        frames.sort((a, b) => a - b)
        return { longest: Math.max(0, ...tasks), longTasks: tasks.length, p95Frame: frames[Math.floor(frames.length * 0.95)], rows: document.querySelectorAll('[data-testid=row-item]').length }
      })
      assert(r.rows < 100, `${r.rows} row elements in the DOM`)
      return `longest task ${r.longest.toFixed(0)} ms, ${r.longTasks} long tasks, p95 frame ${r.p95Frame.toFixed(0)} ms, ${r.rows} row elements`
    })
    await t.check('1M rows: a status filter scans with progress and can be cancelled', async () => {
      // Background validation of the 1M rows shows its own progress bar first; wait for it to finish.
      await page.waitForFunction(() => !document.querySelector('.progress'), null, { timeout: 120000 })
      await page.getByTestId('filter-toggle').click()
      await page.getByTestId('filter-status-flagged').click()
      const bar = page.locator('.progress')
      await bar.waitFor()
      const text = await bar.textContent()
      assert(/Filtering rows [\d,]+ \/ 1,000,000/.test(text), text)
      await bar.getByRole('button', { name: 'Cancel' }).click()
      await bar.waitFor({ state: 'detached' })
      return text.replace(/\s+/g, ' ').trim()
    })
    await t.check('1M rows: no page errors', async () => assert(errors.length === 0, errors.join(' | ')))
  } finally {
    await browser.close()
    serve.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
