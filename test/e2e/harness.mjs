// Shared end-to-end plumbing: start `promptloom serve` (the built CLI) on a free port, launch Debian's Chromium
// through playwright-core (never a downloaded browser), and count checks.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'

export const root = new URL('../..', import.meta.url).pathname

export async function startServe(args = []) {
  const child = spawn(process.execPath, [join(root, 'out/main/cli.js'), 'serve', ...args, '--port', '0'], {
    cwd: root,
    // Project stores (curation) go to a throwaway folder: never into assets/demo/.promptloom.
    env: { ...process.env, PROMPTLOOM_STATE_DIR: process.env.PROMPTLOOM_STATE_DIR ?? mkdtempSync(join(tmpdir(), 'pl-e2e-state-')) },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  child.stderr.on('data', (c) => (err += c))
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out} ${err}`)), 20000)
    child.stdout.on('data', (c) => {
      out += c
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)))
  })
  return { url, origin: new URL(url).origin, stop: () => child.kill('SIGTERM'), stderr: () => err }
}

export async function launchBrowser({ colorScheme = 'light' } = {}) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'pl-e2e-chromium-'))
  const ctx = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    colorScheme,
    viewport: { width: 1440, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync']
  })
  return { ctx, close: async () => { await ctx.close(); rmSync(userDataDir, { recursive: true, force: true }) } }
}

/** The browser's page, its page errors and console errors collected into `errors`, with a default timeout. */
export async function watchedPage(browser, errors, timeout = 15000) {
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage())
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`))
  page.setDefaultTimeout(timeout)
  return page
}

export class Checks {
  passed = 0
  failed = 0
  skipped = 0
  async check(name, fn) {
    const t0 = Date.now()
    try {
      const info = await fn()
      this.passed++
      console.log(`ok - ${name}${info ? ` (${info})` : ''} [${Date.now() - t0} ms]`)
    } catch (e) {
      this.failed++
      console.log(`FAIL - ${name}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  skip(name, why) {
    this.skipped++
    console.log(`skip - ${name}: ${why}`)
  }
}

export function assert(cond, message) {
  if (!cond) throw new Error(message)
}
