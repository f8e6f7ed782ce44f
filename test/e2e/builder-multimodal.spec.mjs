// End-to-end: the prompt builder's multimodal shape (issue 15). A multiple-choice JSONL with a picture per row and
// no config opens with media-capable default models; b opens the builder on the multimodal shape (the image column
// found); three fixed examples are chosen through the UI; every model column shows the examples' pictures and the
// row's in place (the API model as content parts, the vision-language template inline, the text-only one as
// dropped media with its signal); Save writes an AISBench config plus the composed data, and `promptloom render` of
// that config gives exactly what each column showed.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { assert, launchBrowser, root, startServe, watchedPage } from './harness.mjs'

async function writeDataset() {
  const base = mkdtempSync(join(tmpdir(), 'pl-e2e-builder-mm-'))
  const dir = join(base, 'dots')
  mkdirSync(join(dir, 'images'), { recursive: true })
  const row = (i) => ({ qid: `q${i}`, question: `How many dots are in picture ${i}?`, A: String(i), B: String(i + 1), C: String(i + 2), D: String(i + 3), answer: 'A', image: `images/d${i}.png` })
  for (const i of [1, 2, 3, 4, 20, 21]) {
    await sharp({ create: { width: 40 + i, height: 30, channels: 3, background: { r: 12 * i, g: 90, b: 160 } } }).png().toFile(join(dir, 'images', `d${i}.png`))
  }
  writeFileSync(join(dir, 'train.jsonl'), [1, 2, 3, 4].map((i) => JSON.stringify(row(i))).join('\n') + '\n')
  writeFileSync(join(dir, 'test.jsonl'), [20, 21].map((i) => JSON.stringify(row(i))).join('\n') + '\n')
  return { base, dir }
}

/** Each model column of the shown row: its exact input, pictures inline or as content parts, dropped media, signals. */
function columns(page) {
  return page.getByTestId('model-column').evaluateAll((els) =>
    els.map((e) => ({
      model: e.dataset.model,
      exact: e.dataset.exact ?? '',
      inline: e.querySelectorAll('[data-testid=exact-text] [data-testid=inline-media] img').length,
      parts: e.querySelectorAll('[data-testid=content-part-media] img').length,
      dropped: e.querySelectorAll('[data-testid=media-dropped] [data-testid=inline-media]').length,
      errors: [...e.querySelectorAll('.problems li.error')].map((x) => x.textContent),
      codes: [...e.querySelectorAll('[data-testid=model-problem] .code')].map((x) => x.textContent)
    }))
  )
}

export async function runBuilderMultimodalSpecs(t) {
  const { base, dir } = await writeDataset()
  const serve = await startServe([dir])
  const browser = await launchBrowser()
  const errors = []
  try {
    const page = await watchedPage(browser, errors)
    await page.goto(serve.url)
    await page.getByTestId('model-column').first().waitFor()

    await t.check('builder multimodal: a picture dataset opens with media-capable models and b starts on the multimodal shape', async () => {
      const models = (await columns(page)).map((c) => c.model)
      assert(models.join() === 'opencompass-api,qwen2.5-vl-instruct,chatml', `default models ${models.join()}`)
      await page.getByTestId('row-list').focus()
      await page.keyboard.press('b')
      await page.getByTestId('prompt-builder').waitFor()
      assert(await page.getByTestId('pb-shape-multimodal').isChecked(), 'the multimodal shape is not chosen for a dataset with pictures')
      const media = await page.$$eval('[data-testid=pb-media]', (xs) => xs.filter((x) => x.checked).map((x) => x.value))
      assert(media.join() === 'image', `media columns ${media}`)
      return models.join(', ')
    })

    await t.check('builder multimodal: three fixed examples put four pictures in every model that takes them, in place', async () => {
      await page.getByTestId('pb-selector').selectOption('fixed')
      await page.getByTestId('pb-fixed-ids').fill('0, 1, 2')
      await page.getByTestId('pb-fixed-ids').press('Enter')
      await page.getByTestId('pb-fixed-ids').blur()
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=model-column]')].every((e) => (e.dataset.exact ?? '').includes('How many dots are in picture 3?')), null, { timeout: 15000 })
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=model-column] img')].every((i) => i.complete && i.naturalWidth > 0))
      const cols = await columns(page)
      for (const c of cols) {
        assert(c.errors.length === 0, `${c.model} shows an error: ${c.errors.join(' | ')}`)
        assert(!c.exact.includes('How many dots are in picture 4?'), `${c.model}: not exactly train rows 0, 1, 2`)
        assert(c.exact.includes('How many dots are in picture 20?'), `${c.model}: the test row is missing`)
      }
      const [api, vl, text] = cols
      assert(api.parts === 4, `API column: ${api.parts} picture parts`)
      assert(vl.inline === 4 && (vl.exact.match(/<\|image_pad\|>/g) ?? []).length === 4, `VL column: ${vl.inline} inline pictures`)
      assert(text.dropped === 4 && text.codes.includes('media-dropped'), `text-only column: ${text.dropped} dropped, signals ${text.codes}`)
      await page.screenshot({ path: join(root, 'test-output', 'e2e', 'prompt-builder-multimodal.png') })
      return 'API 4 parts, VL 4 inline, text-only 4 dropped with media-dropped'
    })

    await t.check('builder multimodal: Save writes an AISBench config and its data, and promptloom render gives every column as shown', async () => {
      const shown = await columns(page)
      await page.getByTestId('pb-save').click()
      await page.waitForFunction(() => (document.querySelector('[data-testid=pb-message]')?.textContent ?? '').includes('AISBench config written to'))
      const config = join(base, 'dots-built_gen.py')
      const py = readFileSync(config, 'utf8')
      assert(py.includes('type=MMPromptTemplate') && py.includes("path='./dots-built_gen.content.jsonl'"), 'the config does not read the composed data')
      const data = readFileSync(join(base, 'dots-built_gen.content.jsonl'), 'utf8').trim().split('\n')
      assert(data.length === 2, `${data.length} data rows`)
      const out = execFileSync(process.execPath, [join(root, 'out/main/cli.js'), 'render', '--config', config, ...shown.flatMap((c) => ['--model', c.model])], { encoding: 'utf8' })
      const lines = out.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.index === 0)
      for (const c of shown) {
        const l = lines.find((x) => x.model === c.model)
        assert(l, `no rendered line for ${c.model}`)
        const text = typeof l.prompt === 'string' ? l.prompt : JSON.stringify(l.prompt)
        if (typeof l.prompt === 'string') assert(text === c.exact, `${c.model}: render differs from the matrix`)
        else for (const i of [1, 2, 3, 20]) assert(text.includes(join(dir, 'images', `d${i}.png`)), `${c.model}: picture ${i} is not in the rendered messages`)
      }
      return config
    })

    await t.check('builder multimodal: no page errors', async () => assert(errors.length === 0, errors.join(' | ')))
  } finally {
    await browser.close()
    serve.stop()
    rmSync(base, { recursive: true, force: true })
  }
}
