// Multimodal datasets opened as they are (#9): a VLMEvalKit TSV with base64 images, a Hugging Face Parquet with
// Image and Audio columns (written here with hyparquet-writer, as `datasets` lays them out), and an AISBench
// mm_custom JSONL. Each opens in the real UI; the row shows its media as media (pictures decoded, audio playable)
// and no model column shows an error.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { assert, launchBrowser, startServe } from './harness.mjs'

const picture = (colour) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer()

function wav(samples = 1600) {
  const b = Buffer.alloc(44 + samples * 2)
  b.write('RIFF', 0)
  b.writeUInt32LE(36 + samples * 2, 4)
  b.write('WAVEfmt ', 8)
  b.writeUInt32LE(16, 16)
  b.writeUInt16LE(1, 20)
  b.writeUInt16LE(1, 22)
  b.writeUInt32LE(16000, 24)
  b.writeUInt32LE(32000, 28)
  b.writeUInt16LE(2, 32)
  b.writeUInt16LE(16, 34)
  b.write('data', 36)
  b.writeUInt32LE(samples * 2, 40)
  for (let i = 0; i < samples; i++) b.writeInt16LE(Math.round(8000 * Math.sin(i / 8)), 44 + i * 2)
  return b
}

async function makeFiles(dir) {
  const red = await picture('#d33')
  const blue = await picture('#36c')
  // VLMEvalKit TSV (MMBench layout): index, question, options, answer, base64 image.
  const tsv = join(dir, 'vlm')
  mkdirSync(tsv)
  writeFileSync(
    join(tsv, 'MMBench_DEV.tsv'),
    [
      'index\tquestion\tA\tB\tanswer\tcategory\timage',
      `0\tWhat colour is the picture?\tred\tblue\tA\tcolour\t${red.toString('base64')}`,
      `1\tAnd this one?\tred\tblue\tB\tcolour\t${blue.toString('base64')}`
    ].join('\n') + '\n'
  )
  // Hugging Face Parquet: image and audio are {bytes, path} structs, features in the huggingface metadata.
  const hf = join(dir, 'hf')
  mkdirSync(hf)
  const features = {
    question: { dtype: 'string', _type: 'Value' },
    image: { _type: 'Image' },
    audio: { _type: 'Audio', sampling_rate: 16000 }
  }
  writeFileSync(
    join(hf, 'test-00000-of-00001.parquet'),
    Buffer.from(
      parquetWriteBuffer({
        columnData: [
          { name: 'question', data: ['What do you see and hear?', 'And here?'] },
          {
            name: 'image',
            data: [
              { bytes: new Uint8Array(red), path: 'red.png' },
              { bytes: new Uint8Array(blue), path: null }
            ]
          },
          {
            name: 'audio',
            data: [
              { bytes: new Uint8Array(wav()), path: 'tone.wav' },
              { bytes: new Uint8Array(wav()), path: null }
            ]
          }
        ],
        schema: [
          { name: 'root', num_children: 3 },
          { name: 'question', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
          { name: 'image', repetition_type: 'OPTIONAL', num_children: 2 },
          { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
          { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
          { name: 'audio', repetition_type: 'OPTIONAL', num_children: 2 },
          { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
          { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }
        ],
        kvMetadata: [{ key: 'huggingface', value: JSON.stringify({ info: { features } }) }]
      })
    )
  )
  // AISBench mm_custom JSONL, paths relative to the file as in AISBench's examples; an API chat model receives it.
  const mm = join(dir, 'mm')
  mkdirSync(join(mm, 'media'), { recursive: true })
  writeFileSync(join(mm, 'media', 'red.png'), red)
  writeFileSync(join(mm, 'media', 'tone.wav'), wav())
  writeFileSync(
    join(mm, 'mm_custom.jsonl'),
    [
      JSON.stringify({ type: 'image', path: ['media/red.png'], question: 'What colour is the bar?', answer: 'red' }),
      JSON.stringify({ type: 'audio', path: ['media/tone.wav'], question: 'What do you hear?', answer: 'a tone' })
    ].join('\n') + '\n'
  )
  writeFileSync(
    join(mm, 'project.json'),
    JSON.stringify({ name: 'mm_custom', dataset: 'mm_custom.jsonl', libraryModels: ['opencompass-api'] })
  )
  return { tsv: join(tsv, 'MMBench_DEV.tsv'), hf: join(hf, 'test-00000-of-00001.parquet'), mm }
}

async function openAndCheck(t, name, target, expectKinds, extra) {
  const serve = await startServe([target])
  const browser = await launchBrowser()
  const errors = []
  try {
    const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage())
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
    page.setDefaultTimeout(15000)
    await page.goto(serve.url)
    await page.getByTestId('row-item').first().waitFor()
    await page.getByTestId('model-column').first().waitFor()
    await t.check(`${name}: the row shows its media as media`, async () => {
      await page.waitForFunction((kinds) => {
        const ok = {
          image: () =>
            [...document.querySelectorAll('[data-testid=row-image]')].some((i) => i.complete && i.naturalWidth > 0),
          audio: () => !!document.querySelector('[data-testid=row-audio]')
        }
        return kinds.every((k) => ok[k]())
      }, expectKinds)
      const mediaErrors = await page.getByTestId('media-error').count()
      assert(mediaErrors === 0, `${mediaErrors} media errors`)
      // Base64 never shows as text in the row list or the exact inputs.
      const text = await page.evaluate(() => document.body.innerText)
      assert(!/iVBORw0KGgo|UklGR/.test(text), 'base64 shown as text')
      return expectKinds.join(' + ')
    })
    await t.check(`${name}: no model column shows an error`, async () => {
      const problems = await page.locator('[data-testid=model-problem].error').allTextContents()
      assert(problems.length === 0, problems.join(' | '))
      return `${await page.getByTestId('model-column').count()} columns`
    })
    if (extra) await extra(page)
    assert(errors.length === 0, errors.join('\n'))
  } finally {
    await browser.close()
    serve.stop()
  }
}

/**
 * A VLMEvalKit TSV of ~240 MB (2,500 rows, ~95 KB of base64 JPEG each, as benchmark files are): its first rows are
 * in the list while the file is still being indexed, before the open finishes and the project name changes.
 */
async function firstRowsCheck(t, dir) {
  const raw = Buffer.alloc(460 * 320 * 3)
  let seed = 7
  for (let i = 0; i < raw.length; i++) raw[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff
  const jpeg = (await sharp(raw, { raw: { width: 460, height: 320, channels: 3 } }).jpeg({ quality: 80 }).toBuffer()).toString('base64')
  const file = join(dir, 'big_vlm.tsv')
  const lines = ['index\tquestion\tA\tB\tanswer\timage']
  for (let i = 0; i < 2500; i++) lines.push(`${i}\tWhich option describes picture ${i}?\tred\tblue\t${'AB'[i % 2]}\t${jpeg}`)
  writeFileSync(file, lines.join('\n') + '\n')
  const serve = await startServe([join(dir, 'vlm', 'MMBench_DEV.tsv')])
  const browser = await launchBrowser()
  try {
    const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage())
    page.setDefaultTimeout(60000)
    await page.goto(serve.url)
    await page.getByTestId('model-column').first().waitFor()
    const before = await page.getByTestId('project-name').textContent()
    await t.check('a large VLMEvalKit TSV shows its first rows while it is indexed, before the open finishes', async () => {
      // When the first row of the new file and the new project name each appear, and whether the note showed.
      await page.evaluate((name) => {
        const seen = (window.__firstRows = { row: 0, project: 0, note: false })
        new MutationObserver(() => {
          const now = performance.now()
          if (!seen.row && [...document.querySelectorAll('[data-testid=row-item]')].some((r) => r.textContent.includes('Which option describes picture 0?'))) seen.row = now
          if (!seen.project && document.querySelector('[data-testid=project-name]')?.textContent !== name) seen.project = now
          seen.note ||= !!document.querySelector('[data-testid=first-rows-note]')
        }).observe(document.body, { childList: true, subtree: true, characterData: true })
      }, before)
      await page.getByTestId('row-list').focus()
      await page.keyboard.press('o')
      await page.getByTestId('open-path').fill(file)
      await page.getByTestId('open-path').press('Enter')
      await page.waitForFunction(() => window.__firstRows.project > 0)
      await page.getByTestId('row-item').first().waitFor()
      const seen = await page.evaluate(() => window.__firstRows)
      assert(seen.row > 0 && seen.row < seen.project, `first row at ${seen.row.toFixed(0)} ms, project at ${seen.project.toFixed(0)} ms`)
      assert(seen.note, 'no "showing the first rows" note while indexing')
      assert((await page.getByTestId('first-rows-note').count()) === 0, 'the note stays after the open')
      return `first rows ${(seen.project - seen.row).toFixed(0)} ms before the open finished`
    })
  } finally {
    await browser.close()
    serve.stop()
  }
}

export async function runMultimodalSpecs(t) {
  const dir = mkdtempSync(join(tmpdir(), 'pl-e2e-mm-'))
  const f = await makeFiles(dir)
  await firstRowsCheck(t, dir)
  await openAndCheck(t, 'VLMEvalKit TSV with base64 images', f.tsv, ['image'])
  await openAndCheck(t, 'Hugging Face Parquet with Image and Audio', f.hf, ['image', 'audio'])
  await openAndCheck(t, 'AISBench mm_custom JSONL', f.mm, ['image'], async (page) => {
    await t.check('AISBench mm_custom JSONL: the API model receives the picture as an image_url part', async () => {
      const exact = await page.getByTestId('model-column').first().getAttribute('data-exact')
      assert(/image_url/.test(exact ?? '') && /red\.png/.test(exact ?? ''), `exact input ${exact?.slice(0, 200)}`)
    })
  })
}
