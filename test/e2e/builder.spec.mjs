// End-to-end: the prompt builder on a dataset opened with no config (issue 15). A multiple-choice JSONL with train
// and test splits opens as "all columns, string template"; b opens the builder with the columns guessed; three fixed
// examples are chosen through the UI; every model column shows the built prompt with the examples; Save writes an
// OpenCompass config beside the dataset, and `promptloom render` of that config gives the prompts the matrix showed.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assert, launchBrowser, root, startServe, watchedPage } from './harness.mjs'

function writeDataset() {
  const base = mkdtempSync(join(tmpdir(), 'pl-e2e-builder-'))
  const dir = join(base, 'shapes')
  mkdirSync(dir)
  const row = (i) => ({ qid: `q${i}`, question: `Which number is ${i} doubled?`, A: String(2 * i), B: String(2 * i + 1), C: String(i), D: String(3 * i + 1), answer: 'A', category: 'arithmetic' })
  writeFileSync(join(dir, 'train.jsonl'), [1, 2, 3, 4].map((i) => JSON.stringify(row(i))).join('\n') + '\n')
  writeFileSync(join(dir, 'test.jsonl'), [20, 21, 22].map((i) => JSON.stringify(row(i))).join('\n') + '\n')
  return { base, dir }
}

export async function runBuilderSpecs(t) {
  const { base, dir } = writeDataset()
  const serve = await startServe([dir])
  const browser = await launchBrowser()
  const errors = []
  try {
    const page = await watchedPage(browser, errors)
    await page.goto(serve.url)
    await page.getByTestId('model-column').first().waitFor()
    const exact = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=model-column]')].map((e) => e.dataset.exact ?? ''))

    await t.check('builder: b opens it with question, options and answer guessed from the column names', async () => {
      const before = await exact()
      assert(before.every((x) => x.includes('qid: q20')), 'the no-config default does not show every column as text')
      await page.getByTestId('row-list').focus()
      await page.keyboard.press('b')
      await page.getByTestId('prompt-builder').waitFor()
      assert((await page.getByTestId('pb-question').inputValue()) === 'question', 'question column not guessed')
      assert((await page.getByTestId('pb-answer').inputValue()) === 'answer', 'answer column not guessed')
      const picked = await page.$$eval('[data-testid=pb-choice]', (xs) => xs.filter((x) => x.checked).map((x) => x.value))
      assert(picked.join() === 'A,B,C,D', `options ${picked}`)
    })

    await t.check('builder: three fixed examples through the UI fill every model column', async () => {
      await page.getByTestId('pb-selector').selectOption('fixed')
      await page.getByTestId('pb-fixed-ids').fill('0, 1, 2')
      await page.getByTestId('pb-fixed-ids').press('Enter')
      await page.getByTestId('pb-fixed-ids').blur()
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=model-column]')].every((e) => (e.dataset.exact ?? '').includes('Which number is 3 doubled?')), null, { timeout: 15000 })
      const shown = await exact()
      for (const x of shown) {
        assert(!x.includes('qid:') && !x.includes('category:'), 'columns outside the recipe still reach a model')
        assert(['1', '2', '3'].every((i) => x.includes(`Which number is ${i} doubled?`)) && !x.includes('Which number is 4 doubled?'), 'not exactly train rows 0, 1, 2 as examples')
        assert(x.includes('Which number is 20 doubled?'), 'the test row is missing')
      }
      await page.screenshot({ path: join(root, 'test-output', 'e2e', 'prompt-builder.png') })
      const fields = await page.getByTestId('pb-schema').textContent()
      assert(fields.includes('{question}') && fields.includes('{D}'), `schema: ${fields}`)
      return `${shown.length} model columns`
    })

    await t.check('builder: Save writes an OpenCompass config that promptloom render turns into the shown prompts', async () => {
      const shown = await exact()
      await page.getByTestId('pb-save').click()
      await page.waitForFunction(() => (document.querySelector('[data-testid=pb-message]')?.textContent ?? '').includes('Config written to'))
      const config = join(base, 'shapes-built_gen.py')
      const py = readFileSync(config, 'utf8')
      assert(py.includes('type=FixKRetriever') && py.includes('fix_id_list=[0, 1, 2]'), 'the config does not hold the chosen examples')
      const models = await page.evaluate(() => [...document.querySelectorAll('[data-testid=model-column]')].map((e) => e.dataset.model ?? ''))
      const out = execFileSync(process.execPath, [join(root, 'out/main/cli.js'), 'render', '--config', config, ...models.flatMap((m) => ['--model', m])], { encoding: 'utf8' })
      const lines = out.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.index === 0)
      for (let i = 0; i < models.length; i++) {
        const l = lines.find((x) => x.model === models[i])
        assert(l, `no rendered line for ${models[i]}`)
        const text = typeof l.prompt === 'string' ? l.prompt : JSON.stringify(l.prompt)
        assert(typeof l.prompt !== 'string' || text === shown[i], `${models[i]}: render differs from the matrix`)
      }
      return `${config}`
    })

    await t.check('builder: a wrap section places the sections it wraps inside its own template, in every model column', async () => {
      await page.getByTestId('pb-add-wrap').click()
      const wrap = page.locator('[data-testid=pb-section][data-section^=added-]').last()
      await wrap.getByRole('textbox', { name: 'Wrap template' }).fill('<q>\n{wrapped}\n</q>')
      const wraps = wrap.getByTestId('pb-wraps')
      await wraps.getByLabel('Question').check()
      await wraps.getByLabel('Choices').check()
      await page.waitForFunction(
        () => [...document.querySelectorAll('[data-testid=model-column]')].every((e) => (e.dataset.exact ?? '').includes('<q>\nQuestion: Which number is 20 doubled?\nA. 40\nB. 41\nC. 20\nD. 61\n</q>')),
        null,
        { timeout: 15000 }
      )
      return 'question and options inside <q>…</q>'
    })

    await t.check('builder: ☆ saves a section as a snippet that Start over keeps and Insert adds back', async () => {
      const wrap = page.locator('[data-testid=pb-section][data-section^=added-]').last()
      await wrap.getByTestId('pb-section-name').fill('Question wrap')
      await wrap.getByTestId('pb-section-name').press('Enter')
      await wrap.getByRole('button', { name: 'save Question wrap as a snippet' }).click()
      await page.locator('[data-testid=pb-snippet][data-name="Question wrap"]').waitFor()
      await page.getByRole('button', { name: 'Start over' }).click()
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=pb-section][data-section^=added-]').length === 0)
      await page.getByRole('button', { name: 'insert snippet Question wrap' }).click()
      const added = page.locator('[data-testid=pb-section][data-section^=added-]')
      await added.first().waitFor()
      assert((await added.getByRole('textbox', { name: 'Question wrap template' }).inputValue()) === '<q>\n{wrapped}\n</q>', 'the snippet text did not come back')
      assert((await added.getByTestId('pb-wraps').count()) === 1, 'a snippet with {wrapped} is not a wrap section')
      return 'snippet kept and inserted'
    })

    await t.check('builder: allowed values set on a field flag the rows outside them', async () => {
      const field = page.locator('[data-testid=pb-field][data-field=answer]')
      await field.getByTestId('pb-field-enum').fill('B, C')
      await field.getByTestId('pb-field-enum').press('Enter')
      await field.getByTestId('pb-field-enum').blur()
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=pb-row-issue]')].some((e) => (e.textContent ?? '').includes('not one of B, C')))
      const text = await page.getByTestId('pb-row-issue').allTextContents()
      assert(text.some((x) => x.includes('3 row(s)') && x.includes('"answer" is "A", not one of B, C')), text.join(' | '))
      return text.join(' | ')
    })

    await t.check('builder: no page errors', async () => assert(errors.length === 0, errors.join(' | ')))
  } finally {
    await browser.close()
    serve.stop()
    rmSync(base, { recursive: true, force: true })
  }
}
