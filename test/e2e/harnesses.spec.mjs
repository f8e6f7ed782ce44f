// End-to-end: one model under two harnesses, side by side (issue 11 item 3). In the model picker the built-in
// Qwen2.5 profile is added, then "Also via… lm-evaluation-harness, examples in one user turn" adds a second column of
// the same profile; each column's chip names its harness, the texts differ the way the harnesses differ (AISBench:
// examples as alternating turns; lm-eval single-turn: examples and question in one user message, joined by " " and
// "\n\n"), and the diff view says the difference is the harness's.
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { assert, Checks, launchBrowser, root, startServe, watchedPage } from './harness.mjs'
import { enterSandbox } from '../support/sandbox.mjs'

const exactOf = (page, id) => page.locator(`[data-testid=model-column][data-model="${id}"]`).getAttribute('data-exact')

export async function runHarnessSpecs(t) {
  const serve = await startServe([join(root, 'assets/demo')])
  const browser = await launchBrowser()
  const errors = []
  try {
    const page = await watchedPage(browser, errors, 20000)
    await page.goto(serve.url)
    await page.getByTestId('model-column').first().waitFor()
    const before = await page.getByTestId('model-column').first().getAttribute('data-exact')
    await page.getByTestId('variant-select').selectOption('demo-mm-dialogue')
    await page.waitForFunction((b) => document.querySelector('[data-testid=model-column]')?.dataset.exact !== b, before)

    let second = ''
    await t.check('harnesses: the picker adds Qwen2.5, then the same profile via lm-evaluation-harness', async () => {
      await page.getByTestId('row-list').focus()
      await page.keyboard.press('p')
      await page.getByTestId('model-picker').waitFor()
      await page.getByTestId('add-model-qwen2.5-instruct').click()
      await page.locator('[data-testid=model-column][data-model="qwen2.5-instruct"]').waitFor()
      await page.getByTestId('add-harness-qwen2.5-instruct').selectOption('lm-eval,fewshot_as_multiturn=false')
      const col = page.locator('[data-testid=model-column][data-model^="qwen2.5-instruct@lm-eval-"]')
      await col.waitFor()
      second = await col.getAttribute('data-model')
      await page.keyboard.press('Escape')
      await page.getByTestId('model-picker').waitFor({ state: 'detached' })
      return second
    })

    await t.check('harnesses: each column\'s chip names its harness', async () => {
      const chip = (id) => page.locator(`[data-testid=model-column][data-model="${id}"] [data-testid=harness]`).textContent()
      const chips = [(await chip('qwen2.5-instruct')).trim(), (await chip(second)).trim()]
      assert(chips[0] === 'via AISBench HuggingFacewithChatTemplate' && chips[1] === 'via lm-evaluation-harness HFLM', chips.join(' | '))
      return chips.join(' | ')
    })

    await t.check('harnesses: AISBench keeps the examples as turns, lm-eval joins them into one user message', async () => {
      await page.waitForFunction((id) => !!document.querySelector(`[data-testid=model-column][data-model="${id}"]`)?.dataset.exact, second)
      const ais = await exactOf(page, 'qwen2.5-instruct')
      const lme = await exactOf(page, second)
      assert(/Answer with the letter only\.<\|im_end\|>\n<\|im_start\|>assistant\n[ABCD]<\|im_end\|>\n<\|im_start\|>user\nQuestion: /.test(ais), `AISBench text: ${ais.slice(0, 400)}`)
      assert(/Answer with the letter only\. [ABCD]\n\nQuestion: /.test(lme), `lm-eval text: ${lme.slice(0, 400)}`)
      assert((lme.match(/<\|im_start\|>user\n/g) ?? []).length === 1, 'lm-eval single-turn text has more than one user turn')
      assert(ais !== lme, 'the two columns render the same text')
    })

    await t.check('harnesses: the diff view compares the two columns and says the harness made the difference', async () => {
      await page.getByTestId('toggle-diff').click()
      await page.getByTestId('diff-view').waitFor()
      await page.getByTestId('diff-left').selectOption('qwen2.5-instruct')
      await page.getByTestId('diff-right').selectOption(second)
      const note = (await page.getByTestId('diff-harness').textContent()).trim()
      assert(/AISBench HuggingFacewithChatTemplate → lm-evaluation-harness HFLM/.test(note), note)
      await page.locator('[data-testid=diff-text] .diff-delete').first().waitFor()
      const inserted = await page.locator('[data-testid=diff-text] .diff-insert').allTextContents()
      assert(inserted.some((s) => s.includes('↵\n↵') || /^ [ABCD]/.test(s)), `inserted: ${JSON.stringify(inserted.slice(0, 5))}`)
      await page.getByTestId('diff-close').click()
      return note
    })

    await t.check('harnesses: no page errors', async () => assert(errors.length === 0, errors.join(' | ')))
  } finally {
    await browser.close()
    serve.stop()
  }
}

// `node test/e2e/harnesses.spec.mjs` runs this spec alone (the build must be current).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sandbox = enterSandbox('promptloom-e2e-harnesses-')
  const t = new Checks()
  await runHarnessSpecs(t)
  sandbox.leave()
  console.log(`\ne2e: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`)
  process.exit(t.failed ? 1 : 0)
}
