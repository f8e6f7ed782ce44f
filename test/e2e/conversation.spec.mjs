// Conversation-shaped multimodal datasets (#9): an OpenAI messages JSONL with image parts (a data: URL and a file
// under the dataset's folder) and a LLaVA conversations file whose pictures are in an images folder (project.json
// "mediaFolder", as LLaVA's --image-folder). Each opens with no config in the real UI: the conversation shows turn by
// turn with its pictures as media, the final assistant turn as the reference answer (not sent), and every model
// column holds the turns with no error; base64 never shows as text.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { assert, launchBrowser, startServe } from './harness.mjs'

const picture = (colour) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer()

const MODELS = ['openai-messages', 'qwen2.5-instruct', 'opencompass-api', 'qwen2.5-vl-instruct']

async function makeFiles(dir) {
  const red = await picture('#d33')
  const blue = await picture('#36c')
  const oai = join(dir, 'oai')
  mkdirSync(join(oai, 'media'), { recursive: true })
  writeFileSync(join(oai, 'media', 'blue.png'), blue)
  const rows = [
    {
      messages: [
        { role: 'system', content: 'You describe pictures.' },
        { role: 'user', content: [{ type: 'text', text: 'What colour is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${red.toString('base64')}` } }] },
        { role: 'assistant', content: 'Red.' }
      ]
    },
    {
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: `file://${join(oai, 'media', 'blue.png')}` } }, { type: 'text', text: 'And this one?' }] },
        { role: 'assistant', content: 'Blue.' }
      ]
    }
  ]
  writeFileSync(join(oai, 'chat.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  writeFileSync(join(oai, 'project.json'), JSON.stringify({ name: 'openai-chat', dataset: 'chat.jsonl', libraryModels: MODELS }))

  const llava = join(dir, 'llava')
  mkdirSync(join(llava, 'images'), { recursive: true })
  writeFileSync(join(llava, 'images', 'red.png'), red)
  writeFileSync(join(llava, 'images', 'blue.png'), blue)
  writeFileSync(
    join(llava, 'llava_eval.json'),
    JSON.stringify([
      {
        id: 'l1',
        image: 'red.png',
        conversations: [
          { from: 'human', value: '<image>\nWhat colour is the picture?' },
          { from: 'gpt', value: 'Red.' },
          { from: 'human', value: 'Is it bright?' },
          { from: 'gpt', value: 'Yes.' }
        ]
      },
      { id: 'l2', image: 'blue.png', conversations: [{ from: 'human', value: 'Name the colour: <image>' }, { from: 'gpt', value: 'Blue.' }] }
    ])
  )
  writeFileSync(join(llava, 'project.json'), JSON.stringify({ name: 'llava', dataset: 'llava_eval.json', mediaFolder: 'images', libraryModels: MODELS }))
  // The same file on its own elsewhere: its pictures are found only through the Open panel's media folder.
  const bare = join(dir, 'llava-bare')
  mkdirSync(bare)
  writeFileSync(join(bare, 'llava_eval.json'), readFileSync(join(llava, 'llava_eval.json')))
  return { oai, llava, bare: join(bare, 'llava_eval.json') }
}

async function openAndCheck(t, name, target, expect) {
  const serve = await startServe([target])
  const browser = await launchBrowser()
  const errors = []
  try {
    const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage())
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
    page.setDefaultTimeout(15000)
    await page.goto(serve.url)
    await page.getByTestId('conversation').waitFor()
    await t.check(`${name}: the conversation template is chosen with no config`, async () => {
      const label = await page.getByTestId('variant-select').evaluate((s) => s.selectedOptions[0]?.textContent ?? '')
      assert(/^conversation/.test(label), `template ${label}`)
      return label
    })
    await t.check(`${name}: the conversation shows its turns in order and the picture as media`, async () => {
      const roles = await page.getByTestId('conversation-turn').evaluateAll((els) => els.map((e) => e.dataset.role))
      assert(JSON.stringify(roles) === JSON.stringify(expect.roles), `turns ${roles}`)
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-testid=conversation] [data-testid=row-image]')].some((i) => i.complete && i.naturalWidth === 64)
      )
      assert((await page.locator('[data-testid=conversation] [data-testid=media-error]').count()) === 0, 'a picture of the conversation cannot be shown')
      return roles.join(' → ')
    })
    await t.check(`${name}: the final assistant turn is the reference answer, not sent`, async () => {
      const ref = await page.getByTestId('reference-answer').innerText()
      assert(ref.includes('reference answer') && ref.includes(expect.reference), `reference ${ref}`)
      const exacts = await page.getByTestId('model-column').evaluateAll((els) => els.map((e) => e.dataset.exact ?? ''))
      assert(exacts.every((x) => !x.includes(expect.reference)), 'a model receives the reference answer')
    })
    await t.check(`${name}: every model column holds the turns, none shows an error`, async () => {
      const cols = await page.getByTestId('model-column').evaluateAll((els) => els.map((e) => [e.dataset.model, e.dataset.exact ?? '']))
      assert(cols.length === MODELS.length, `${cols.length} columns`)
      for (const [model, exact] of cols) assert(exact.includes(expect.question), `${model} lacks the question: ${exact.slice(0, 200)}`)
      const problems = await page.locator('[data-testid=model-problem].error').allTextContents()
      assert(problems.length === 0, problems.join(' | '))
      // The API column shows the picture part as media in place.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-model=openai-messages] [data-testid=content-part-media] [data-testid=row-image]')].some((i) => i.complete && i.naturalWidth === 64)
      )
      // A vision-language chat-template model receives the picture in place of the part.
      const vl = cols.find(([m]) => m === 'qwen2.5-vl-instruct')?.[1] ?? ''
      assert(vl.includes('<|vision_start|><|image_pad|><|vision_end|>'), `the VL model lacks the picture: ${vl.slice(0, 300)}`)
      // Text-only models say what they do not receive.
      const dropped = await page.locator('[data-model="qwen2.5-instruct"] [data-testid=model-problem]', { hasText: 'media-dropped' }).count()
      assert(dropped === 1, 'the text-only chat model does not say the picture is dropped')
      return cols.map(([m]) => m).join(', ')
    })
    await t.check(`${name}: base64 never shows as text`, async () => {
      const text = await page.evaluate(() => document.body.innerText)
      assert(!/iVBORw0KGgo/.test(text), 'base64 shown as text')
    })
    for (const after of expect.after ?? []) await after(page)
    assert(errors.length === 0, errors.join('\n'))
  } finally {
    await browser.close()
    serve.stop()
  }
}

export async function runConversationSpecs(t) {
  const dir = mkdtempSync(join(tmpdir(), 'pl-e2e-conv-'))
  const f = await makeFiles(dir)
  await openAndCheck(t, 'OpenAI messages JSONL with images', f.oai, { roles: ['system', 'user'], reference: 'Red.', question: 'What colour is this?' })
  await openAndCheck(t, 'LLaVA conversations with an images folder', f.llava, {
    roles: ['user', 'assistant', 'user'],
    reference: 'Yes.',
    question: 'Is it bright?',
    after: [
      (page) =>
      t.check('LLaVA conversations: the Export dialog writes the curated dataset as the JSON list it came as, pictures as base64 equal to the files', async () => {
        await page.getByTestId('export').click()
        await page.getByTestId('export-what-dataset').check()
        await page.getByTestId('export-only-all').check()
        await page.getByTestId('export-media').selectOption('base64')
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-run').click()])
        const file = join(dir, 'llava-curated.json')
        await download.saveAs(file)
        assert(download.suggestedFilename().endsWith('.json'), `file name ${download.suggestedFilename()}`)
        const rows = JSON.parse(readFileSync(file, 'utf8'))
        assert(rows.length === 2 && rows[0].conversations.length === 4, `rows ${JSON.stringify(rows).slice(0, 200)}`)
        assert(Buffer.from(rows[0].image, 'base64').equals(readFileSync(join(f.llava, 'images', 'red.png'))), 'the picture does not decode to red.png')
        return `${rows.length} rows`
      }),
      (page) =>
        t.check('LLaVA conversations: a bare file opened from the Open panel with a media folder shows its pictures', async () => {
          await page.keyboard.press('Escape')
          await page.getByTestId('open').click()
          await page.getByTestId('open-path').fill(f.bare)
          await page.getByTestId('open-media-folder').fill(join(f.llava, 'images'))
          await page.getByTestId('open-go').click()
          await page.waitForFunction(() => document.querySelector('[data-testid=project-name]')?.textContent?.includes('llava_eval'))
          await page.waitForFunction(() =>
            [...document.querySelectorAll('[data-testid=conversation] [data-testid=row-image]')].some((i) => i.complete && i.naturalWidth === 64)
          )
          assert((await page.locator('[data-testid=conversation] [data-testid=media-error]').count()) === 0, 'a picture cannot be shown')
        })
    ]
  })
}
