// The app as a user feels it, in browser mode: `promptloom serve FILE` on generated 100k- and 1M-row JSONL files,
// driven by Playwright on Debian's Chromium (test/e2e/harness.mjs). For each size it prints time to the first
// matrix, End, random jumps, wheel-scroll smoothness, DOM rows, renderer heap and server peak RSS, each beside an
// anchor measured in the same run (the bare API calls behind it), and the targets as PASS/MISS (not asserted).
//   npm run -s build && npx tsx test/bench/ui.bench.ts [rows...]     (default: 100000 1000000)
//
// The in-page code is passed as strings: tsx compiles functions with name helpers (__name) that do not exist in
// the page, and strings keep this file free of DOM types.
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserContext, CDPSession, Page } from 'playwright-core'

interface Harness {
  startServe(args: string[]): Promise<{ url: string; origin: string; stop: () => void; stderr: () => string }>
  launchBrowser(opts?: { colorScheme?: string }): Promise<{ ctx: BrowserContext; close: () => Promise<void> }>
}

const ROOT = path.join(__dirname, '../..')
const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0)
const ROWS = SIZES.length ? SIZES : [100_000, 1_000_000]
const ROW_BYTES = 350
const JUMPS = 50
const SCROLL_MS = 3000

// ---------------------------------------------------------------------------------------------------- data

const WORDS = 'which of the following best describes how a model should answer when given this passage about rivers mountains prices and the weather in spring'.split(' ')

/** One ASCII row of exactly ROW_BYTES bytes (newline included), so a file of the right size is the right file. */
function rowLine(i: number, rnd: () => number): string {
  const rest = { id: `r${String(i).padStart(7, '0')}`, question: '', A: `alpha ${i % 1000}`, B: `beta ${(i * 7) % 1000}`, C: 'gamma', D: 'delta', answer: 'ABCD'[i % 4], image: `images/${String(i % 5000).padStart(5, '0')}.png`, category: ['math', 'trivia', 'code', 'vision'][i % 4] }
  const room = ROW_BYTES - 1 - JSON.stringify(rest).length
  let q = `[#${i}]`
  while (q.length < room) q += ' ' + WORDS[Math.floor(rnd() * WORDS.length)]
  rest.question = q.slice(0, room - 1) + '?'
  return JSON.stringify(rest) + '\n'
}

function dataset(rows: number): { file: string; genMs: number } {
  const file = path.join(os.tmpdir(), `promptloom-ui-bench-${rows}.jsonl`)
  if (existsSync(file) && statSync(file).size === rows * ROW_BYTES) return { file, genMs: 0 }
  const t0 = performance.now()
  let seed = 7
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  const fd = openSync(file, 'w')
  let buf: string[] = []
  for (let i = 0; i < rows; i++) {
    buf.push(rowLine(i, rnd))
    if (buf.length === 4096) {
      writeSync(fd, buf.join(''))
      buf = []
    }
  }
  writeSync(fd, buf.join(''))
  closeSync(fd)
  return { file, genMs: performance.now() - t0 }
}

// ---------------------------------------------------------------------------------------------------- in-page probes

const PAGE_JS = String.raw`(() => {
  if (window.__bench) return
  const B = (window.__bench = { marks: {}, longtasks: [] })
  const matrix = () => document.querySelector('[data-testid=model-column]')?.dataset.exact
  B.matrix = matrix
  const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())))
  // Startup marks, from navigation start (performance.now() is 0 there).
  const mo = new MutationObserver(() => {
    if (!B.marks.rows && document.querySelector('[data-testid=row-item][data-index]')) B.marks.rows = performance.now()
    if (!B.marks.matrix && matrix()) {
      B.marks.matrix = performance.now()
      requestAnimationFrame(() => (B.marks.matrixFrame = performance.now()))
      mo.disconnect()
    }
  })
  mo.observe(document, { subtree: true, childList: true, attributes: true })
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) B.longtasks.push({ start: e.startTime, dur: e.duration }) }).observe({ type: 'longtask', buffered: true })
  } catch {}
  // Resolves (with the time) when test() holds: checked on every DOM change and every frame.
  B.until = (test, timeout = 30000) => new Promise((resolve, reject) => {
    let done = false
    const finish = (ok) => { if (done) return; done = true; obs.disconnect(); clearTimeout(timer); ok ? resolve(performance.now()) : reject(new Error('timed out')) }
    const check = () => { let v = false; try { v = !!test() } catch {} if (v) finish(true); return v }
    const obs = new MutationObserver(check)
    const timer = setTimeout(() => finish(false), timeout)
    obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    const frame = () => { if (!done && !check()) requestAnimationFrame(frame) }
    frame()
  })
  const list = () => document.querySelector('[data-testid=row-list]')
  // A jump as with the scroll bar: put a random part of the list in view, wait for its rows, click the middle one,
  // wait for its matrix. "Seen" is the first frame after the DOM holds it.
  B.jump = async (frac) => {
    const el = list()
    const box = el.getBoundingClientRect()
    const x = box.left + box.width / 2, y = box.top + box.height / 2
    const rowAt = () => { const e = document.elementFromPoint(x, y)?.closest('.row-item'); return e && e.dataset.index !== undefined ? e : null }
    const t0 = performance.now()
    el.scrollTop = frac * (el.scrollHeight - el.clientHeight)
    await B.until(rowAt)
    const tList = performance.now()
    const row = rowAt()
    const idx = row.dataset.index
    row.click()
    const t1 = performance.now()
    const tDom = await B.until(() => matrix()?.includes('[#' + idx + ']'))
    const tSeen = await nextFrame()
    return { idx: Number(idx), list: tList - t0, dom: tDom - t1, select: tSeen - t1, total: tSeen - t0 }
  }
  // End: armed before the key is pressed; the clock starts at the keydown.
  B.armEnd = (idx) => {
    let t0 = 0
    window.addEventListener('keydown', (e) => { if (e.key === 'End') t0 = performance.now() }, { capture: true, once: true })
    B.endResult = B.until(() => document.querySelector('.row-item.selected[data-index="' + idx + '"]') && matrix()?.includes('[#' + idx + ']'), 60000)
      .then(nextFrame).then((t) => t - t0)
  }
  // Bare API round trips from the page, as the renderer's HTTP bridge makes them.
  B.call = async (channel, args) => {
    const r = await fetch('/api/' + channel, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) })
    const env = await r.json()
    if (!env.ok) throw new Error(channel + ': ' + env.error)
    return env.value
  }
  B.timed = async (channel, args) => { const t0 = performance.now(); await B.call(channel, args); return performance.now() - t0 }
  B.scrollStart = () => {
    const s = (B.sc = { frames: [], last: 0, running: true, lt0: performance.now(), rowsMin: 1e9, rowsMax: 0, blankFrames: 0, top0: list().scrollTop })
    const loop = (t) => {
      if (!s.running) return
      if (s.last) s.frames.push(t - s.last)
      s.last = t
      const n = document.querySelectorAll('[data-testid=row-item]').length
      s.rowsMin = Math.min(s.rowsMin, n)
      s.rowsMax = Math.max(s.rowsMax, n)
      if (document.querySelector('.row-item.loading')) s.blankFrames++
      requestAnimationFrame(loop)
    }
    requestAnimationFrame(loop)
  }
  B.scrollStop = async () => {
    const s = B.sc
    s.running = false
    await new Promise((r) => setTimeout(r, 200))
    const tasks = B.longtasks.filter((t) => t.start >= s.lt0)
    const el = list()
    return { frames: s.frames, longest: Math.max(0, ...tasks.map((t) => t.dur)), longTasks: tasks.length, rowsMin: s.rowsMin, rowsMax: s.rowsMax, blankFrames: s.blankFrames,
      rowsNow: document.querySelectorAll('[data-testid=row-item]').length, scrolledPx: el.scrollTop - s.top0,
      firstIndex: Number(document.querySelector('.row-item[data-index]')?.dataset.index ?? -1) }
  }
})()`

// ---------------------------------------------------------------------------------------------------- helpers

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))]
}
const ms = (x: number): string => `${x.toFixed(0)} ms`
const mb = (b: number): string => `${(b / 1e6).toFixed(0)} MB`
const sleep = (t: number): Promise<void> => new Promise((r) => setTimeout(r, t))

/** The serve process this process started (its child running out/main/cli.js serve FILE). */
function servePid(file: string): number | null {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid !== process.pid) continue
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0')
      if (cmd.some((a) => a.endsWith('out/main/cli.js')) && cmd.includes(file)) return Number(d)
    } catch {}
  }
  return null
}

function procMem(pid: number | null): { hwm: number; rss: number } {
  if (!pid) return { hwm: NaN, rss: NaN }
  const s = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (k: string): number => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN) * 1024
  return { hwm: kb('VmHWM'), rss: kb('VmRSS') }
}

async function heap(cdp: CDPSession): Promise<{ used: number; total: number; nodes: number }> {
  await cdp.send('HeapProfiler.collectGarbage')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const m = (n: string): number => metrics.find((x) => x.name === n)?.value ?? NaN
  return { used: m('JSHeapUsedSize'), total: m('JSHeapTotalSize'), nodes: m('Nodes') }
}

const table = (rows: [string, string, string, string][]): void => {
  const w = [0, 1, 2, 3].map((k) => Math.max(...rows.map((r) => r[k].length)))
  for (const r of rows) console.log('  ' + r.map((c, k) => c.padEnd(w[k])).join('  ').trimEnd())
}

// ---------------------------------------------------------------------------------------------------- one size

interface Result {
  rows: number
  serverReady: number
  firstRows: number
  firstMatrix: number
  openCold: number
  openWarm: number
  end: number
  jumpSelect: number[]
  jumpTotal: number[]
  anchorRender: number[]
  anchorBoth: number[]
  frames: number
  p95Frame: number
  longest: number
  peakRss: number
}

async function runSize(h: Harness, rows: number): Promise<Result> {
  const { file, genMs } = dataset(rows)
  console.log(`\n--- ${rows.toLocaleString('en-US')} rows: ${file} (${mb(statSync(file).size)}, ${genMs ? `generated in ${ms(genMs)}` : 'reused'})`)
  // A fresh HOME per server: its index cache starts cold, and the cold/warm opens below are under our control.
  const home = mkdtempSync(path.join(os.tmpdir(), 'pl-bench-home-'))
  const state = mkdtempSync(path.join(os.tmpdir(), 'pl-bench-state-'))
  const saved = { HOME: process.env.HOME, PROMPTLOOM_STATE_DIR: process.env.PROMPTLOOM_STATE_DIR, PROMPTLOOM_CONFIG_DIR: process.env.PROMPTLOOM_CONFIG_DIR }
  Object.assign(process.env, { HOME: home, PROMPTLOOM_STATE_DIR: state, PROMPTLOOM_CONFIG_DIR: home })
  const t0 = performance.now()
  const servePromise = h.startServe([file]) // spawns synchronously: the environment can be restored at once
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]
  else process.env[k] = v
  let serve: Awaited<ReturnType<Harness['startServe']>> | null = null
  let browser: Awaited<ReturnType<Harness['launchBrowser']>> | null = null
  try {
    serve = await servePromise
    const serverReady = performance.now() - t0
    const pid = servePid(file)
    const memOpen = procMem(pid)
    browser = await h.launchBrowser()
    const page: Page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage())
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.setDefaultTimeout(60000)
    const cdp = await browser.ctx.newCDPSession(page)
    await cdp.send('Performance.enable')
    await page.addInitScript(PAGE_JS)

    // First rows and first matrix, from navigation start.
    await page.goto(serve.url)
    // (Strings for waitForFunction are eval'd in the page, which the app's CSP forbids; evaluate is not.)
    await page.evaluate('window.__bench.until(() => window.__bench.marks.matrixFrame, 60000)')
    const marks = (await page.evaluate('window.__bench.marks')) as { rows: number; matrix: number; matrixFrame: number }
    const startupTasks = (await page.evaluate('window.__bench.longtasks')) as { dur: number }[]
    const heapStart = await heap(cdp)
    const cur = (await page.evaluate(`window.__bench.call('project.current', [])`)) as { variants: { id: string }[]; models: { id: string }[] }
    const variantId = cur.variants[0].id
    const modelIds = cur.models.map((m) => m.id)

    // End: the last row selected, in view and rendered.
    await page.getByTestId('row-list').focus()
    await page.evaluate(`window.__bench.armEnd(${rows - 1})`)
    await page.keyboard.press('End')
    const end = (await page.evaluate('window.__bench.endResult')) as number
    const anchorEnd = (await page.evaluate(`window.__bench.timed('render.row', [{ index: ${rows - 1}, variantId: ${JSON.stringify(variantId)}, modelIds: ${JSON.stringify(modelIds)} }])`)) as number

    // Random jumps, each followed by the bare API round trip for another random row (rows.page of its 200-row
    // page, as the list fetches it, then render.row), so both see the same server and the same page cache.
    let seed = 11
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    const jumps: { idx: number; list: number; select: number; total: number }[] = []
    const anchorRender: number[] = []
    const anchorBoth: number[] = []
    for (let k = 0; k < JUMPS; k++) {
      jumps.push((await page.evaluate(`window.__bench.jump(${rnd()})`)) as (typeof jumps)[number])
      const i = Math.floor(rnd() * rows)
      const page200 = (await page.evaluate(`window.__bench.timed('rows.page', [{ start: ${Math.floor(i / 200) * 200}, count: 200, variantId: ${JSON.stringify(variantId)} }])`)) as number
      const render = (await page.evaluate(`window.__bench.timed('render.row', [{ index: ${i}, variantId: ${JSON.stringify(variantId)}, modelIds: ${JSON.stringify(modelIds)} }])`)) as number
      anchorRender.push(render)
      anchorBoth.push(page200 + render)
    }

    // Wheel scrolling over the list for SCROLL_MS, from the top.
    await page.evaluate(`document.querySelector('[data-testid=row-list]').scrollTop = 0`)
    const box = (await page.getByTestId('row-list').boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await sleep(300)
    await page.evaluate('window.__bench.scrollStart()')
    const tw = performance.now()
    let wheels = 0
    while (performance.now() - tw < SCROLL_MS) {
      await page.mouse.wheel(0, 200)
      wheels++
      await sleep(16)
    }
    const sc = (await page.evaluate('window.__bench.scrollStop()')) as {
      frames: number[]; longest: number; longTasks: number; rowsMin: number; rowsMax: number; blankFrames: number; rowsNow: number; scrolledPx: number; firstIndex: number
    }
    const heapEnd = await heap(cdp)
    const domRows = (await page.evaluate(`document.querySelectorAll('[data-testid=row-item]').length`)) as number

    // Anchors for the start: project.open alone through the API, with a cold index cache and a warm one.
    rmSync(path.join(home, '.cache'), { recursive: true, force: true })
    const openCold = (await page.evaluate(`window.__bench.timed('project.open', [${JSON.stringify(file)}])`)) as number
    const openWarm = (await page.evaluate(`window.__bench.timed('project.open', [${JSON.stringify(file)}])`)) as number
    const mem = procMem(pid)

    const sel = jumps.map((j) => j.select)
    const tot = jumps.map((j) => j.total)
    const lst = jumps.map((j) => j.list)
    console.log(`server ${pid ?? '?'} ready (dataset opened, URL printed) in ${ms(serverReady)}; models ${modelIds.join(', ')}; page errors: ${errors.length}`)
    table([
      ['measure', 'value', 'anchor', 'note'],
      ['server start → URL (cold index)', ms(serverReady), `project.open via API: cold ${ms(openCold)}, warm ${ms(openWarm)}`, 'serve opens the whole dataset before printing the URL'],
      ['navigation → first list rows', ms(marks.rows), '', ''],
      ['navigation → first matrix seen', ms(marks.matrixFrame), `longest startup task ${ms(Math.max(0, ...startupTasks.map((t) => t.dur)))}`, ''],
      ['command → first matrix', ms(serverReady + marks.matrixFrame), '', 'server start + navigation (browser launch excluded)'],
      [`End → row ${(rows - 1).toLocaleString('en-US')} seen`, ms(end), `render.row alone ${ms(anchorEnd)}`, ''],
      [`jump: select → matrix seen (${JUMPS})`, `median ${ms(pct(sel, 0.5))}, p95 ${ms(pct(sel, 0.95))}`, `render.row alone median ${ms(pct(anchorRender, 0.5))}, p95 ${ms(pct(anchorRender, 0.95))}`, ''],
      ['jump: scroll bar → rows listed', `median ${ms(pct(lst, 0.5))}, p95 ${ms(pct(lst, 0.95))}`, '', 'the list fetches the 200-row page'],
      ['jump: scroll bar → matrix seen', `median ${ms(pct(tot, 0.5))}, p95 ${ms(pct(tot, 0.95))}`, `rows.page+render.row median ${ms(pct(anchorBoth, 0.5))}, p95 ${ms(pct(anchorBoth, 0.95))}`, ''],
      [`wheel scroll ${SCROLL_MS / 1000} s (${wheels} × 200 px)`, `${sc.frames.length} frames, p95 ${ms(pct(sc.frames, 0.95))}, worst ${ms(Math.max(...sc.frames))}`, `60 fps = ${Math.round(SCROLL_MS / 16.7)} frames`, `moved ${Math.round(sc.scrolledPx / 30)} rows; frames with '…' rows: ${sc.blankFrames}`],
      ['longest task while scrolling', ms(sc.longest), `${sc.longTasks} tasks > 50 ms`, ''],
      ['row elements in the DOM', `${sc.rowsMin}–${sc.rowsMax} while scrolling, ${domRows} after`, '', 'virtualized: should not grow'],
      ['renderer JS heap (after GC)', `${mb(heapStart.used)} at first matrix → ${mb(heapEnd.used)} after jumps + scroll`, `DOM nodes ${heapStart.nodes} → ${heapEnd.nodes}`, ''],
      ['server RSS', `peak ${mb(mem.hwm)} (at URL ${mb(memOpen.hwm)}), now ${mb(mem.rss)}`, '', 'VmHWM includes the two API reopens']
    ])
    return {
      rows, serverReady, firstRows: marks.rows, firstMatrix: marks.matrixFrame, openCold, openWarm, end,
      jumpSelect: sel, jumpTotal: tot, anchorRender, anchorBoth, frames: sc.frames.length, p95Frame: pct(sc.frames, 0.95), longest: sc.longest, peakRss: memOpen.hwm
    }
  } finally {
    await browser?.close().catch(() => undefined)
    serve?.stop()
    rmSync(home, { recursive: true, force: true })
    rmSync(state, { recursive: true, force: true })
    // /tmp is left as it was found (PL_BENCH_KEEP=1 keeps the dataset for another run).
    if (!process.env.PL_BENCH_KEEP) rmSync(file, { force: true })
  }
}

// ---------------------------------------------------------------------------------------------------- main

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'out/main/cli.js')) || !existsSync(path.join(ROOT, 'out/renderer'))) {
    console.log('run npm run build first')
    process.exit(1)
  }
  const h = (await import(pathToFileURL(path.join(ROOT, 'test/e2e/harness.mjs')).href)) as Harness
  console.log(`Chromium ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'}, viewport 1440×900, load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`)
  const results: Result[] = []
  for (const n of ROWS) results.push(await runSize(h, n))

  console.log('\ntargets (printed, not asserted):')
  const mark = (ok: boolean): string => (ok ? 'PASS' : 'MISS')
  for (const r of results) {
    const big = r.rows >= 1_000_000
    const n = r.rows.toLocaleString('en-US')
    if (big) console.log(`  ${mark(r.serverReady + r.firstMatrix < 1000)}  first rows < 1 s for ${n} rows: command → first matrix ${ms(r.serverReady + r.firstMatrix)} (navigation → matrix ${ms(r.firstMatrix)})`)
    console.log(`  ${mark(pct(r.jumpSelect, 0.5) < 100)}  jump < 100 ms (${n}): select → matrix median ${ms(pct(r.jumpSelect, 0.5))}, p95 ${ms(pct(r.jumpSelect, 0.95))}`)
    console.log(`  ${mark(r.p95Frame < 33)}  p95 frame < 33 ms while scrolling (${n}): ${ms(r.p95Frame)}`)
    if (big) console.log(`  ${mark(r.peakRss < 300e6)}  server peak RSS < 300 MB for ${n} rows: ${mb(r.peakRss)} (at first open)`)
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
