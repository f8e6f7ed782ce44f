#!/usr/bin/env node
// End-to-end: the real UI in browser mode (the built renderer + the real main-process services behind the HTTP
// API, started through `promptloom serve`), driven by Playwright on Debian's Chromium. No page errors allowed.
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { assert, Checks, launchBrowser, root, startServe, watchedPage } from './harness.mjs'
import { runElectronSpecs } from './electron.spec.mjs'
import { runCurationChecks, runMillionRowSpecs } from './curation.spec.mjs'
import { runTemplateEditorSpecs } from './template-editor.mjs'
import { runA11ySpecs } from './a11y.spec.mjs'
import { runKeyboardSpecs } from './keyboard.spec.mjs'
import { runExportSpecs } from './export.spec.mjs'
import { runBuilderSpecs } from './builder.spec.mjs'
import { runBuilderMultimodalSpecs } from './builder-multimodal.spec.mjs'
import { runLintSpecs } from './lint.spec.mjs'
import { runMultimodalSpecs } from './multimodal.spec.mjs'
import { runConversationSpecs } from './conversation.spec.mjs'
import { runTrustSpecs } from './trust.spec.mjs'
import { runHarnessSpecs } from './harnesses.spec.mjs'
import { runDemoMultimodalSpecs } from './demo-multimodal.spec.mjs'
import { enterSandbox } from '../support/sandbox.mjs'

// Servers, browsers and project stores write only inside this run's sandbox folder, removed at the end.
const sandbox = enterSandbox('promptloom-e2e-')
const shots = join(root, 'test-output', 'e2e')
mkdirSync(shots, { recursive: true })
const t = new Checks()
const serve = await startServe([join(root, 'assets/demo')])
const browser = await launchBrowser()
const errors = []

try {
  const page = await watchedPage(browser, errors)
  page.on('response', (r) => r.status() >= 400 && !r.url().includes('/media?') && errors.push(`${r.status()} ${r.url()}`))

  await t.check('opens the demo project from the tokened URL', async () => {
    await page.goto(serve.url)
    await page.getByTestId('project-name').waitFor()
    const name = await page.getByTestId('project-name').textContent()
    assert(name === 'PromptLoom demo', `project name ${name}`)
    assert(!page.url().includes('token='), 'token left in the address bar')
  })

  await t.check('lists every test row', async () => {
    await page.getByTestId('row-item').first().waitFor()
    const count = await page.getByTestId('row-count').textContent()
    assert(/^14 rows$/.test(count.trim()), `row count ${count}`)
    return count.trim()
  })

  const columns = page.getByTestId('model-column')
  await t.check('the template picker switches to the dialogue variant', async () => {
    await columns.first().waitFor()
    const before = await columns.first().getAttribute('data-exact')
    await page.getByTestId('variant-select').selectOption('demo-mm-dialogue')
    await page.waitForFunction((b) => document.querySelector('[data-testid=model-column]')?.dataset.exact !== b, before)
  })

  await t.check('shows one exact-input column per model, each in its own format', async () => {
    await columns.first().waitFor()
    const n = await columns.count()
    assert(n === 5, `${n} model columns`)
    const exact = await columns.evaluateAll((els) => els.map((e) => [e.dataset.model, e.dataset.exact]))
    const byModel = Object.fromEntries(exact)
    const chatml = Object.entries(byModel).find(([k]) => /chatml/i.test(k))?.[1] ?? ''
    const llama = Object.entries(byModel).find(([k]) => /llama/i.test(k))?.[1] ?? ''
    assert(chatml.includes('<|im_start|>'), `ChatML input lacks <|im_start|>: ${chatml.slice(0, 200)}`)
    assert(llama.includes('<|start_header_id|>'), `Llama-3 input lacks its header tokens: ${llama.slice(0, 200)}`)
    assert(chatml.includes('How many'), 'the row question is not in the prompt')
  })

  await t.check('shows the row image as an image', async () => {
    const img = page.getByTestId('row-image').first()
    await img.waitFor()
    await page.waitForFunction(() => {
      const i = document.querySelector('[data-testid=row-image]')
      return i && i.complete && i.naturalWidth > 0
    })
    const w = await img.evaluate((el) => el.naturalWidth)
    return `${w}px wide`
  })

  await page.screenshot({ path: join(shots, 'workspace-light.png') })

  await t.check('j moves to the next row and re-renders', async () => {
    const before = await columns.first().getAttribute('data-exact')
    await page.locator('body').press('j')
    await page.waitForFunction((b) => document.querySelector('[data-testid=model-column]')?.dataset.exact !== b, before)
  })

  await t.check('clicking a row selects it', async () => {
    await page.getByTestId('row-item').nth(3).click()
    await page.waitForFunction(() => document.querySelector('.row-item.selected .row-index')?.textContent?.trim() === '3')
  })

  await t.check('an audio row shows a player with its duration', async () => {
    // demo-011 (row 10) is a spoken WAV clip.
    await page.getByTestId('row-item').nth(10).click()
    const audio = page.getByTestId('row-audio').first()
    await audio.waitFor()
    await page.waitForFunction(() => (document.querySelector('[data-testid=row-audio]')?.duration ?? 0) > 0)
    return `${(await audio.evaluate((a) => a.duration)).toFixed(2)} s`
  })

  await t.check('a marks the row accepted, r rejected', async () => {
    await page.getByTestId('row-item').nth(0).click()
    await page.locator('body').press('a')
    await page.waitForFunction(() => document.querySelector('[data-testid=row-status]')?.textContent === 'accepted')
    await page.locator('body').press('j')
    await page.locator('body').press('r')
    await page.waitForFunction(() => document.querySelector('[data-testid=row-status]')?.textContent === 'rejected')
  })

  await t.check('a row with a missing image says so instead of breaking', async () => {
    await page.getByTestId('search').fill('demo-010')
    await page.getByTestId('search').press('Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid=row-count]')?.textContent?.trim() === '1 rows')
    await page.getByTestId('media-error').first().waitFor()
    await page.getByTestId('search').fill('')
    await page.getByTestId('search').press('Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid=row-count]')?.textContent?.trim() === '14 rows')
  })

  await t.check('an inline base64 image is shown as an image served as bytes', async () => {
    await page.getByTestId('search').fill('demo-009')
    await page.getByTestId('search').press('Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid=row-count]')?.textContent?.trim() === '1 rows')
    await page.waitForFunction(() => {
      const i = document.querySelector('[data-testid=row-image]')
      return i && i.getAttribute('src')?.startsWith('/media?inline=') && i.complete && i.naturalWidth > 0
    })
    await page.getByTestId('search').fill('')
    await page.getByTestId('search').press('Enter')
    await page.waitForFunction(() => document.querySelector('[data-testid=row-count]')?.textContent?.trim() === '14 rows')
  })

  await t.check('? opens the shortcut sheet', async () => {
    await page.locator('body').press('?')
    await page.getByTestId('shortcuts').waitFor()
    await page.locator('body').press('Escape')
  })

  await t.check('Export… downloads the prompts as JSONL with one line per row and model', async () => {
    await page.getByTestId('export').click()
    await page.getByTestId('export-panel').waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-run').click()])
    const file = join(shots, 'export.jsonl')
    await download.saveAs(file)
    await page.keyboard.press('Escape')
    await page.getByTestId('export-panel').waitFor({ state: 'detached' })
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    assert(lines.length === 14 * 5, `${lines.length} lines`)
    assert(lines.every((l) => typeof l.model === 'string' && l.prompt !== undefined), 'a line lacks model or prompt')
    return `${lines.length} lines`
  })

  await t.check('a PPL variant shows a tab per label and ] switches to label B with its own exact input', async () => {
    await page.getByTestId('variant-select').selectOption('demo-mm-ppl')
    // The meta-template columns end in the label's answer (the API and chat-template columns are messages/harness).
    const chatmlColumn = page.locator('[data-testid=model-column][data-model=demo-chatml]')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=item-tab]').length === 4)
    const titles = await page.getByTestId('item-tab').evaluateAll((els) => els.map((e) => e.dataset.title))
    assert(titles.join(' ') === "'A' 'B' 'C' 'D'", `label tabs ${titles.join(' ')}`)
    await page.waitForFunction(() => document.querySelector('[data-testid=model-column][data-model=demo-chatml]')?.dataset.exact?.endsWith('Answer: A'))
    const before = await chatmlColumn.getAttribute('data-exact')
    await page.getByTestId('row-list').focus()
    await page.keyboard.press(']')
    await page.waitForFunction(() => document.querySelector('[data-testid=matrix]')?.dataset.item === "'B'")
    const after = await chatmlColumn.getAttribute('data-exact')
    assert(after !== before && after.endsWith('Answer: B'), `label B input ends ${JSON.stringify(after.slice(-12))}`)
    const pressed = await page.locator('[data-testid=item-tab][aria-pressed=true]').getAttribute('data-title')
    assert(pressed === "'B'", `pressed tab ${pressed}`)
    const block = await page.getByTestId('prompt-list').textContent()
    assert(block.trimEnd().endsWith('Answer: B'), 'the dataset-side PromptList did not follow the label')
    await page.screenshot({ path: join(shots, 'ppl-labels.png') })
    await page.keyboard.press('[')
    await page.waitForFunction(() => document.querySelector('[data-testid=matrix]')?.dataset.item === "'A'")
    await page.getByTestId('variant-select').selectOption('demo-mm-dialogue')
    await page.waitForFunction(() => !document.querySelector('[data-testid=item-tabs]') && document.querySelector('[data-testid=model-column][data-model=demo-chatml]')?.dataset.exact?.includes('<|im_start|>'))
  })

  await t.check('the API refuses a request without the token', async () => {
    const r = await fetch(`${serve.origin}/api/app.info`, { method: 'POST', body: '[]' })
    assert(r.status === 401, `status ${r.status}`)
  })

  await runTemplateEditorSpecs(t, page)
  await runCurationChecks(t, page, shots)
  await runExportSpecs(t, page, shots)
  await runLintSpecs(t, page, shots)
  await runA11ySpecs(t, page)
  await runKeyboardSpecs(t, page, serve.url)

  await t.check('no page errors', async () => assert(errors.length === 0, errors.join(' | ')))

  // After the error check: the refused request is meant to log a 403.
  await t.check('media outside the opened roots is refused', async () => {
    const r = await page.evaluate(async () => (await fetch('/media?path=' + encodeURIComponent('/etc/passwd'))).status)
    assert(r === 403, `status ${r}`)
  })

} finally {
  await browser.close()
  serve.stop()
}

await runBuilderSpecs(t)
await runBuilderMultimodalSpecs(t)

// Dark theme screenshot (the README shows both).
{
  const s2 = await startServe([join(root, 'assets/demo')])
  const b2 = await launchBrowser({ colorScheme: 'dark' })
  try {
    const p = b2.ctx.pages()[0] ?? (await b2.ctx.newPage())
    await p.goto(s2.url)
    await p.getByTestId('model-column').first().waitFor({ timeout: 15000 })
    // The dialogue variant on the CJK row: role markers, special tokens and CJK text in one view.
    const before = await p.getByTestId('model-column').first().getAttribute('data-exact')
    await p.getByTestId('variant-select').selectOption('demo-mm-dialogue')
    await p.waitForFunction((b) => document.querySelector('[data-testid=model-column]')?.dataset.exact !== b, before)
    await p.getByTestId('row-item').nth(6).click()
    await p.waitForFunction(() => document.querySelector('[data-testid=model-column]')?.dataset.exact?.includes('红色'))
    await p.waitForTimeout(300)
    await p.screenshot({ path: join(shots, 'workspace-dark.png') })
  } finally {
    await b2.close()
    s2.stop()
  }
}

await runMultimodalSpecs(t)
await runDemoMultimodalSpecs(t, shots)
await runConversationSpecs(t)
await runTrustSpecs(t)
await runHarnessSpecs(t)
if (process.env.PL_E2E_SKIP_1M) t.skip('1M rows', 'PL_E2E_SKIP_1M is set')
else await runMillionRowSpecs(t, shots)
await runElectronSpecs(t)
sandbox.leave()
console.log(`\ne2e: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`)
process.exit(t.failed ? 1 : 0)
