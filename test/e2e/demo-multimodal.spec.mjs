// The demo opens on its multimodal variant (#9 item 7): the picture or clip and the question reach an AISBench API
// chat model as content parts, Qwen2.5-VL's chat template as its vision block (the picture beside it), and the
// text-only meta-template models say what they dropped. Each model column holds its media parts and none shows an
// error; the variant chosen last is remembered across openings. Screenshots for the README, light and dark.
import { join } from 'node:path'
import { assert, launchBrowser, root, startServe } from './harness.mjs'

/** What each model column of the shown row holds: its media parts, problems by severity, the exact input. */
async function columns(page) {
  return page.getByTestId('model-column').evaluateAll((els) =>
    els.map((e) => ({
      model: e.dataset.model,
      exact: e.dataset.exact ?? '',
      inline: [...e.querySelectorAll('[data-testid=exact-text] [data-testid=inline-media]')].map((x) => ({ kind: x.dataset.kind, img: !!x.querySelector('img') })),
      parts: [...e.querySelectorAll('[data-testid=content-part-media]')].map((x) => !!x.querySelector('img, audio')),
      dropped: [...e.querySelectorAll('[data-testid=media-dropped] [data-testid=inline-media]')].map((x) => x.dataset.kind),
      errors: [...e.querySelectorAll('.problems li.error')].map((x) => x.textContent),
      codes: [...e.querySelectorAll('[data-testid=model-problem] .code')].map((x) => x.textContent)
    }))
  )
}

export async function runDemoMultimodalSpecs(t, shots) {
  const serve = await startServe([join(root, 'assets/demo')])
  const b = await launchBrowser()
  const page = b.ctx.pages()[0] ?? (await b.ctx.newPage())
  page.setDefaultTimeout(15000)
  try {
    await t.check('demo: opens on the multimodal variant', async () => {
      await page.goto(serve.url)
      await page.getByTestId('model-column').first().waitFor()
      const v = await page.getByTestId('variant-select').inputValue()
      assert(v === 'demo-mm-media', `variant ${v}`)
    })

    await t.check('demo multimodal: each model column holds its media parts, none shows an error', async () => {
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=inline-media-image]').length > 0)
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=inline-media-image], [data-testid=content-part-media] img')].every((i) => i.complete && i.naturalWidth > 0))
      const cols = await columns(page)
      const by = Object.fromEntries(cols.map((c) => [c.model, c]))
      assert(cols.length === 5, `${cols.length} columns`)
      for (const c of cols) assert(c.errors.length === 0, `${c.model} shows an error: ${c.errors.join(' | ')}`)
      const api = by['vllm-api-chat']
      assert(api.parts.length === 1 && api.parts[0], `API column media parts ${JSON.stringify(api.parts)}`)
      const vl = by['qwen2.5-vl-7b-instruct-hf']
      assert(vl.exact.includes('<|vision_start|><|image_pad|><|vision_end|>Which shape is blue?'), vl.exact.slice(0, 300))
      assert(vl.inline.length === 1 && vl.inline[0].kind === 'image' && vl.inline[0].img, `VL column inline media ${JSON.stringify(vl.inline)}`)
      for (const id of ['demo-chatml', 'demo-llama3', 'demo-internlm2']) {
        const c = by[id]
        assert(c.dropped.join() === 'image', `${id} dropped ${c.dropped.join()}`)
        assert(c.codes.includes('media-dropped') && c.codes.includes('empty-turn'), `${id} signals ${c.codes.join()}`)
      }
      await page.screenshot({ path: join(shots, 'multimodal-light.png') })
      return cols.map((c) => c.model).join(', ')
    })

    await t.check('demo multimodal: an audio row reaches the API model as audio, and Qwen2.5-VL says it dropped it', async () => {
      await page.getByTestId('row-item').nth(10).click()
      await page.waitForFunction(() => document.querySelector('[data-testid=model-column]')?.dataset.exact?.includes('audio_url'))
      await page.waitForFunction(() => !!document.querySelector('[data-testid=model-column] [data-testid=content-part-media] audio'))
      const cols = await columns(page)
      const vl = cols.find((c) => c.model === 'qwen2.5-vl-7b-instruct-hf')
      assert(vl.dropped.join() === 'audio' && vl.codes.includes('media-dropped'), `VL column ${JSON.stringify(vl)}`)
      for (const c of cols) assert(c.errors.length === 0, `${c.model} shows an error: ${c.errors.join(' | ')}`)
      await page.getByTestId('row-item').nth(0).click()
    })

    await t.check('demo: the variant chosen last is remembered when the project opens again', async () => {
      await page.getByTestId('variant-select').selectOption('demo-mm-dialogue')
      await page.goto(serve.url)
      await page.getByTestId('model-column').first().waitFor()
      await page.waitForFunction(() => document.querySelector('[data-testid=variant-select]')?.value === 'demo-mm-dialogue')
      await page.getByTestId('variant-select').selectOption('demo-mm-media')
    })
  } finally {
    await b.close()
    serve.stop()
  }

  // Dark theme: the same view, for the README.
  const s2 = await startServe([join(root, 'assets/demo')])
  const b2 = await launchBrowser({ colorScheme: 'dark' })
  try {
    await t.check('demo multimodal in the dark theme: media parts in place, screenshot', async () => {
      const p = b2.ctx.pages()[0] ?? (await b2.ctx.newPage())
      await p.goto(s2.url)
      await p.waitForFunction(() => [...document.querySelectorAll('[data-testid=inline-media-image]')].some((i) => i.complete && i.naturalWidth > 0))
      await p.screenshot({ path: join(shots, 'multimodal-dark.png') })
    })
  } finally {
    await b2.close()
    s2.stop()
  }
}
