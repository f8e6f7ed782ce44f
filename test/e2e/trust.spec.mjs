// End-to-end checks of issue 10's "nothing silent, the pane shows the row you act on": a dataset with broken lines
// and a missing image says so at the top of the row list (skipped lines listed with line and byte offset, and
// exportable; rows with missing media counted and found by the warning filter); with a broken template in the
// editor the pane still follows j/k to the row the list selects; and every curation toast names its rows.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assert, launchBrowser, startServe } from './harness.mjs'

const ROWS = Array.from({ length: 9 }, (_, i) => JSON.stringify({ id: `t${i}`, question: `Trust question ${i}?`, answer: 'A', image: i === 4 ? 'img/missing.png' : 'img/ok.png' }))

/** 9 good rows and 3 broken lines (lines 3, 7 and 11). */
function writeDataset(dir) {
  mkdirSync(join(dir, 'img'), { recursive: true })
  writeFileSync(join(dir, 'img', 'ok.png'), Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a9a70000000049454e44ae426082', 'hex'))
  const lines = [ROWS[0], ROWS[1], '{"id": "broken", ', ROWS[2], ROWS[3], ROWS[4], '[1, 2, 3]', ROWS[5], ROWS[6], ROWS[7], 'not json at all', ROWS[8]]
  const file = join(dir, 'trust.jsonl')
  writeFileSync(file, lines.join('\n') + '\n')
  return file
}

const rowInPane = (page) => page.evaluate(() => document.querySelector('[data-testid=detail]')?.getAttribute('data-row'))
const rowInList = (page) => page.evaluate(() => document.querySelector('.row-item.selected')?.getAttribute('data-index'))

export async function runTrustSpecs(t) {
  const dir = mkdtempSync(join(tmpdir(), 'pl-e2e-trust-'))
  const file = writeDataset(dir)
  const serve = await startServe([file])
  const browser = await launchBrowser()
  const errors = []
  try {
    const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage())
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
    page.setDefaultTimeout(20000)
    await page.goto(serve.url)
    await page.getByTestId('row-item').first().waitFor()

    await t.check('trust: the row list says how many lines were skipped and why', async () => {
      const notice = page.getByTestId('skipped-notice')
      await notice.waitFor()
      const text = (await notice.textContent()).replace(/\s+/g, ' ').trim()
      assert(/3 lines skipped/.test(text), text)
      assert(/invalid-json/.test(text) && /not-an-object/.test(text), text)
      return text
    })

    await t.check('trust: one click lists each skipped line with its line and byte offset, and exports them', async () => {
      await page.getByTestId('skipped-show').click()
      const items = page.getByTestId('skipped-item')
      await items.first().waitFor()
      const texts = await items.allTextContents()
      assert(texts.length === 3, `${texts.length} items`)
      const want = readFileSync(file, 'utf8').split('\n')
      const offsetOf = (line) => want.slice(0, line - 1).reduce((a, l) => a + Buffer.byteLength(l) + 1, 0)
      for (const [k, line] of [3, 7, 11].entries()) {
        assert(texts[k].includes(`line ${line}`) && texts[k].includes(`byte ${offsetOf(line)}`), texts[k])
      }
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('skipped-export').click()])
      const saved = join(dir, 'skipped.jsonl')
      await download.saveAs(saved)
      const lines = readFileSync(saved, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
      assert(lines.length === 3 && lines.map((l) => l.line).join() === '3,7,11', JSON.stringify(lines.map((l) => l.line)))
      return texts.join(' | ')
    })

    await t.check('trust: rows with missing media are counted and the warning filter finds them', async () => {
      const media = page.getByTestId('media-notice')
      await media.waitFor()
      const text = (await media.textContent()).replace(/\s+/g, ' ').trim()
      assert(/1 row has missing media/.test(text), text)
      await page.getByTestId('filter-toggle').click().catch(() => {})
      await page.getByTestId('filter-warning').selectOption('any')
      await page.waitForFunction(() => document.querySelector('[data-testid=row-count]')?.textContent?.trim() === '1 rows')
      const idx = await page.evaluate(() => [...document.querySelectorAll('[data-testid=row-item]')].map((e) => e.getAttribute('data-index')))
      assert(idx.join() === '4', `rows ${idx}`)
      await page.getByTestId('filter-warning').selectOption('')
      await page.waitForFunction(() => document.querySelector('[data-testid=row-count]')?.textContent?.trim() === '9 rows')
      return text
    })

    await t.check('trust: with a broken template the pane still follows the row, and a acts on the row it shows', async () => {
      await page.getByTestId('row-item').first().click()
      await page.getByTestId('row-list').focus()
      await page.keyboard.press('t')
      await page.locator('[data-testid=template-editor] .cm-content').waitFor()
      await page.locator('[data-testid=template-editor] .cm-content').click()
      await page.keyboard.press('Control+End')
      await page.keyboard.insertText('{ broken')
      await page.getByTestId('template-diagnostic').first().waitFor()
      await page.getByTestId('row-list').focus()
      for (let k = 0; k < 4; k++) await page.keyboard.press('j')
      await page.waitForFunction(() => document.querySelector('[data-testid=detail]')?.getAttribute('data-row') === '4')
      assert((await rowInList(page)) === '4', `list on ${await rowInList(page)}`)
      const problem = await page.getByTestId('row-problem').allTextContents()
      assert(problem.some((p) => /template/i.test(p)), `no template problem shown in place: ${problem.join(' | ')}`)
      await page.keyboard.press('a')
      await page.waitForFunction(() => document.querySelector('[data-testid=row-status]')?.textContent === 'accepted')
      const toast = await page.getByTestId('last-change').textContent()
      assert(toast.includes('row 4'), `toast: ${toast}`)
      assert((await rowInPane(page)) === '4', `pane on ${await rowInPane(page)}`)
      await page.keyboard.press('Escape')
      await page.getByTestId('template-editor').waitFor({ state: 'detached' })
      return toast
    })

    await t.check('trust: bulk and undo toasts name their rows', async () => {
      await page.getByTestId('row-list').focus()
      await page.keyboard.press('j')
      await page.keyboard.press('x')
      await page.keyboard.press('j')
      await page.keyboard.press('x')
      await page.keyboard.press('r')
      await page
        .waitForFunction(() => /rejected rows 5 and 6/i.test(document.querySelector('[data-testid=last-change]')?.textContent ?? ''), null, { timeout: 5000 })
        .catch(async (e) => {
          throw new Error(`${e.message}; toast: ${await page.getByTestId('last-change').textContent()}; focus: ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}`)
        })
      const undoTitle = await page.getByTestId('undo').getAttribute('title')
      assert(/rejected rows 5 and 6/i.test(undoTitle), `undo title: ${undoTitle}`)
      await page.keyboard.press('Control+z')
      await page.waitForFunction(() => /Undid: rejected rows 5 and 6/.test(document.querySelector('[data-testid=last-change]')?.textContent ?? ''))
      return undoTitle
    })

    await t.check('trust: the invalid-regex banner goes when the search is cleared', async () => {
      await page.getByTestId('search').fill('/[unclosed/')
      await page.getByTestId('search').press('Enter')
      await page.getByTestId('error').filter({ hasText: 'invalid regular expression' }).waitFor()
      await page.getByTestId('search').fill('')
      await page.getByTestId('search').press('Enter')
      await page.getByTestId('error').waitFor({ state: 'detached' })
    })

    await t.check('trust: no page errors', async () => assert(errors.length === 0, errors.join(' | ')))
  } finally {
    await browser.close()
    serve.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
