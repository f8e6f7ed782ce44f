// Accessibility: axe-core run on the workspace in each state a user reaches (plain, shortcut sheet, template editor,
// model picker, filter bar, zoomed image), in light and dark. The app's CSP forbids inline scripts, so axe is not
// added as a <script> tag: its source is evaluated over CDP (Runtime.evaluate), which the page's CSP does not govern.
// Serious and critical violations fail the check; the rest are listed in the check's note.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assert, launchBrowser, root, startServe } from './harness.mjs'

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
const shots = join(root, 'test-output', 'e2e')

async function injectAxe(page) {
  if (await page.evaluate(() => typeof window.axe === 'object')) return
  await page.evaluate(AXE_SOURCE)
  assert(await page.evaluate(() => typeof window.axe?.run === 'function'), 'axe-core did not load under the page CSP')
}

/** Runs axe on the page; returns the violations as { id, impact, help, nodes: [target…] }. */
async function axeViolations(page) {
  await injectAxe(page)
  return page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations']
    })
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 12).map((n) => `${n.target.join(' ')}${n.failureSummary ? ' — ' + n.failureSummary.split('\n').slice(1, 2).join('').trim() : ''}`)
    }))
  })
}

const BLOCKING = new Set(['serious', 'critical'])

function describe(vs) {
  return vs.map((v) => `[${v.impact}] ${v.id}: ${v.help} @ ${v.nodes.join(' ; ')}`).join('\n   ')
}

/** One state: axe must find no serious or critical violation; minor and moderate ones are reported, not failed. */
async function checkState(t, page, name, enter, leave) {
  await t.check(`a11y: ${name} has no serious or critical axe violation`, async () => {
    try {
      await enter()
      // Let transitions and async renders settle before axe measures contrast.
      await page.waitForTimeout(150)
      const vs = await axeViolations(page)
      const bad = vs.filter((v) => BLOCKING.has(v.impact))
      assert(bad.length === 0, `\n   ${describe(bad)}`)
      const minor = vs.filter((v) => !BLOCKING.has(v.impact))
      return minor.length ? `minor: ${minor.map((v) => v.id).join(', ')}` : 'clean'
    } finally {
      await leave?.()
    }
  })
}

async function toList(page) {
  await page.getByTestId('row-list').focus()
}

export async function runA11ySpecs(t, page) {
  await t.check('a11y: axe-core runs under the renderer CSP', async () => {
    await injectAxe(page)
    const csp = await page.evaluate(async () => (await fetch(location.pathname)).headers.get('content-security-policy'))
    assert(csp && csp.includes("script-src 'self'"), `CSP ${csp}`)
    return await page.evaluate(() => `axe ${window.axe.version}`)
  })

  // Start from a plain workspace: no overlay, the first row, its matrix shown.
  await toList(page)
  await page.keyboard.press('Escape')
  await page.getByTestId('model-column').first().waitFor()

  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme })
    await checkState(t, page, `workspace (${scheme})`, async () => {
      await page.getByTestId('row-item').first().click()
      await page.getByTestId('model-column').first().waitFor()
    })
    await checkState(
      t,
      page,
      `shortcut sheet (${scheme})`,
      async () => {
        await toList(page)
        await page.keyboard.press('?')
        await page.getByTestId('shortcuts').waitFor()
      },
      async () => {
        await page.keyboard.press('Escape')
        await page.getByTestId('shortcuts').waitFor({ state: 'detached' })
      }
    )
    await checkState(
      t,
      page,
      `template editor (${scheme})`,
      async () => {
        await toList(page)
        await page.keyboard.press('t')
        await page.getByTestId('template-editor').waitFor()
        await page.locator('.cm-content').first().waitFor()
      },
      async () => {
        await toList(page)
        await page.keyboard.press('t')
        await page.getByTestId('template-editor').waitFor({ state: 'detached' })
      }
    )
    await checkState(
      t,
      page,
      `model picker (${scheme})`,
      async () => {
        await toList(page)
        await page.keyboard.press('p')
        await page.getByTestId('model-picker').waitFor()
        await page.locator('[data-testid^=add-model-]').first().waitFor()
      },
      async () => {
        await page.keyboard.press('Escape')
        await page.getByTestId('model-picker').waitFor({ state: 'detached' })
      }
    )
    await checkState(
      t,
      page,
      `export dialog (${scheme})`,
      async () => {
        await toList(page)
        await page.keyboard.press('E')
        await page.getByTestId('export-panel').waitFor()
      },
      async () => {
        await page.keyboard.press('Escape')
        await page.getByTestId('export-panel').waitFor({ state: 'detached' })
      }
    )
    await checkState(
      t,
      page,
      `filter bar (${scheme})`,
      async () => {
        await page.getByTestId('filter-toggle').click()
        await page.getByTestId('filter-status-accepted').waitFor()
      },
      async () => {
        await page.getByTestId('filter-toggle').click()
      }
    )
    await checkState(
      t,
      page,
      `zoomed image (${scheme})`,
      async () => {
        await page.getByTestId('row-item').first().click()
        await page.getByTestId('zoom-open').first().click()
        await page.getByTestId('zoom-dims').waitFor()
      },
      async () => {
        await page.keyboard.press('Escape')
        await page.getByTestId('media-zoom').waitFor({ state: 'detached' })
      }
    )
    if (scheme === 'dark') await page.screenshot({ path: join(shots, 'a11y-dark.png') })
  }
  await page.emulateMedia({ colorScheme: 'light' })

  await t.check('zoom: an image shows its dimensions, bytes and format, probed by its bytes', async () => {
    await page.getByTestId('row-item').first().click()
    await page.getByTestId('zoom-open').first().click()
    await page.getByTestId('zoom-dims').waitFor()
    const dims = await page.getByTestId('zoom-dims').textContent()
    const bytes = await page.getByTestId('zoom-bytes').textContent()
    const format = await page.getByTestId('zoom-format').textContent()
    assert(/^\d+×\d+ px$/.test(dims.trim()), `dims ${dims}`)
    assert(/^[\d.]+ (B|KB|MB)$/.test(bytes.trim()), `bytes ${bytes}`)
    assert(/PNG|JPEG|WEBP|GIF/.test(format), `format ${format}`)
    await page.screenshot({ path: join(shots, 'zoom.png') })
    await page.getByTestId('zoom-close').click()
    await page.getByTestId('media-zoom').waitFor({ state: 'detached' })
    const back = await page.evaluate(() => document.activeElement?.dataset.testid)
    assert(back === 'zoom-open', `focus after Close on ${back}`)
    return `${dims.trim()}, ${bytes.trim()}, ${format.trim()}`
  })

  await t.check('media API: probe and peaks refuse files outside the opened roots, and bad arguments', async () => {
    const r = await page.evaluate(async () => {
      const call = async (ch, args) => (await fetch('/api/' + ch, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) })).json()
      return {
        probe: await call('media.probe', [{ path: '/etc/passwd' }]),
        peaks: await call('media.peaks', [{ path: '/etc/hostname', n: 64 }]),
        badInline: await call('media.probe', [{ inline: '../../x' }]),
        badN: await call('media.peaks', [{ path: 'a.wav', n: 1e6 }])
      }
    })
    const refused = (x) => x.ok && x.value && x.value.ok === false && x.value.code === 'refused'
    assert(refused(r.probe), `probe: ${JSON.stringify(r.probe)}`)
    assert(refused(r.peaks), `peaks: ${JSON.stringify(r.peaks)}`)
    assert(r.badInline.ok === false && /inline/.test(r.badInline.error), `inline: ${JSON.stringify(r.badInline)}`)
    assert(r.badN.ok === false && /n/.test(r.badN.error), `n: ${JSON.stringify(r.badN)}`)
  })

  await t.check('audio: the waveform is drawn under the player and a click seeks', async () => {
    // demo-011 (row 10) is a spoken WAV clip.
    await page.getByTestId('row-item').nth(10).click()
    const wave = page.getByTestId('waveform')
    await wave.waitFor()
    await page.waitForFunction(() => (document.querySelector('[data-testid=row-audio]')?.duration ?? 0) > 0)
    const inked = await wave.evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data
      let n = 0
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++
      return n / (c.width * c.height)
    })
    assert(inked > 0.02, `only ${(inked * 100).toFixed(1)}% of the canvas is drawn`)
    const box = await wave.boundingBox()
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2)
    const r = await page.evaluate(() => {
      const a = document.querySelector('[data-testid=row-audio]')
      return { t: a.currentTime, d: a.duration, now: document.querySelector('[data-testid=waveform]').getAttribute('aria-valuenow') }
    })
    assert(Math.abs(r.t / r.d - 0.5) < 0.05, `seeked to ${r.t} of ${r.d}`)
    await page.keyboard.press('ArrowRight')
    const after = await page.evaluate(() => document.querySelector('[data-testid=row-audio]').currentTime)
    assert(after > r.t, `ArrowRight on the waveform did not seek forward (${after})`)
    await page.screenshot({ path: join(shots, 'audio-waveform.png') })
    return `${(inked * 100).toFixed(0)}% inked, seek to ${r.t.toFixed(2)} / ${r.d.toFixed(2)} s (slider ${r.now}%)`
  })

  await runValidatingBadgeSpec(t)

  await t.check('diff view: Escape inside it closes it and gives focus back to the list', async () => {
    await toList(page)
    await page.keyboard.press('d')
    await page.getByTestId('diff-view').waitFor()
    await page.getByTestId('diff-left').focus()
    await page.keyboard.press('Escape')
    await page.getByTestId('diff-view').waitFor({ state: 'detached' })
    const at = await page.evaluate(() => document.activeElement?.dataset.testid)
    assert(at === 'row-list', `focus on ${at}`)
  })
}

/**
 * A dataset large enough that validation runs after opening (over 16 MB): while it runs the top bar says
 * "Validating rows…" and the count "N rows (validating)"; both go when it ends.
 */
async function runValidatingBadgeSpec(t) {
  const dir = mkdtempSync(join(tmpdir(), 'pl-e2e-validating-'))
  const file = join(dir, 'big.jsonl')
  const ROWS = 400_000
  const lines = []
  for (let i = 0; i < ROWS; i++) lines.push(JSON.stringify({ id: `r${i}`, question: `What is ${i} plus ${i % 97}? ${'x'.repeat(24)}`, answer: String(i + (i % 97)) }))
  writeFileSync(file, lines.join('\n') + '\n')
  const serve = await startServe([join(root, 'assets/demo')])
  const browser = await launchBrowser()
  try {
    const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage())
    page.setDefaultTimeout(60000)
    await t.check('validation: a "Validating rows…" badge and "N rows (validating)" while a large dataset validates', async () => {
      // Opened from the Open panel once the page is up, so the whole validation happens while the page watches.
      await page.goto(serve.url)
      await page.getByTestId('model-column').first().waitFor()
      await page.getByTestId('row-list').focus()
      await page.keyboard.press('o')
      await page.getByTestId('open-path').fill(file)
      await page.getByTestId('open-path').press('Enter')
      await page.getByTestId('validating-badge').waitFor()
      const count = (await page.locator('.count').textContent()).trim()
      const badge = (await page.getByTestId('validating-badge').textContent()).trim()
      await page.screenshot({ path: join(shots, 'validating.png') })
      assert(/^[\d,]+ rows \(validating\)$/.test(count), `count ${count}`)
      assert(badge === 'Validating rows…', `badge ${badge}`)
      await page.getByTestId('validating-badge').waitFor({ state: 'detached', timeout: 120000 })
      const done = (await page.locator('.count').textContent()).trim()
      assert(done === `${ROWS.toLocaleString('en-US')} rows`, `count after validation ${done}`)
      return `${count} → ${done}`
    })
  } finally {
    await browser.close()
    serve.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
