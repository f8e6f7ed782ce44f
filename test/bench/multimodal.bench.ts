// Multimodal dataset benchmark: `npx tsx test/bench/multimodal.bench.ts [rows] [rounds]`. Generates a VLMEvalKit
// TSV of `rows` rows (default 10,000), each with a base64 JPEG in its `image` column (~16 KB of base64), in /tmp
// (never in the repo; removed afterwards), then opens it the way the app does (index first, validation in the background) and prints,
// beside `wc -l` on the same file in the same run: time to an open handle (every row's byte range known), first
// rows read, the whole open with validation (column types, media columns), and peak memory.
import { execFileSync } from 'node:child_process'
import { createWriteStream, existsSync, rmSync, statSync } from 'node:fs'
import sharp from 'sharp'
import { openDataset } from '../../main/services/datasets'
import path from 'node:path'
import { tmpdir } from 'node:os'
import { configureWorkers, shutdownWorkers, warmWorkers } from '../../main/services/workers/pool'

const ROWS = Number(process.argv[2] ?? 10_000)
const ROUNDS = Math.max(1, Number(process.argv[3] ?? 3))
const FILE = path.join(tmpdir(), `promptloom-bench-mm-${ROWS}.tsv`)

async function generate(): Promise<void> {
  if (existsSync(FILE)) return
  // A few distinct noisy pictures, so the cells are real JPEG base64 of a realistic size.
  const pics: string[] = []
  for (let k = 0; k < 8; k++) {
    const raw = Buffer.alloc(128 * 96 * 3)
    let seed = k + 1
    for (let i = 0; i < raw.length; i++) raw[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff
    pics.push(
      (
        await sharp(raw, { raw: { width: 128, height: 96, channels: 3 } })
          .jpeg({ quality: 60 })
          .toBuffer()
      ).toString('base64')
    )
  }
  const out = createWriteStream(FILE)
  out.write('index\tquestion\thint\tA\tB\tC\tD\tanswer\tcategory\timage\n')
  for (let i = 0; i < ROWS; i++) {
    const line = `${i}\tWhich option describes picture ${i}?\tLook closely.\tred\tgreen\tblue\tgrey\t${'ABCD'[i % 4]}\tcolour\t${pics[i % pics.length]}\n`
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  await new Promise<void>((r) => out.end(() => r()))
}

const s = (ms: number): string => `${(ms / 1000).toFixed(3)} s`
const best = (xs: number[]): number => Math.min(...xs)

async function main(): Promise<void> {
  await generate()
  // The built worker (npm run build) when there is one, as the app runs it; otherwise the source under tsx.
  const built = path.join(__dirname, '../../out/main/dataset-worker.js')
  if (existsSync(built)) configureWorkers({ workerFile: built })
  warmWorkers()
  const size = statSync(FILE).size
  let peak = process.memoryUsage().rss
  const baseline = peak
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
  const wc: number[] = []
  const open: number[] = []
  const first: number[] = []
  const whole: number[] = []
  let media = ''
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now()
    execFileSync('wc', ['-l', FILE])
    wc.push(performance.now() - t)
    t = performance.now()
    const h = await openDataset(FILE, { cacheDir: null, validate: 'deferred', deferMinBytes: 0 })
    open.push(performance.now() - t)
    const rows = await h.readRows('default', 0, 50)
    first.push(performance.now() - t)
    if (rows.length !== 50) throw new Error(`read ${rows.length} first rows`)
    await h.validate()
    whole.push(performance.now() - t)
    media = h.columns
      .filter((c) => c.media)
      .map((c) => `${c.name}=${c.media}`)
      .join(', ')
    if (h.rowCount !== ROWS) throw new Error(`${h.rowCount} rows, expected ${ROWS}`)
  }
  clearInterval(sampler)
  await shutdownWorkers()
  console.log(`file: ${FILE} (${ROWS.toLocaleString()} rows, ${(size / 1e6).toFixed(0)} MB, base64 JPEG per row)`)
  console.log(
    `index (open handle):  best ${s(best(open))}   | anchor wc -l best ${s(best(wc))} → ${(best(open) / best(wc)).toFixed(1)}×`
  )
  console.log(`first 50 rows read:   best ${s(best(first))}`)
  console.log(`whole open + validate: best ${s(best(whole))} (media columns: ${media || 'none'})`)
  console.log(
    `peak memory: ${((peak - baseline) / 1e6).toFixed(0)} MB above the ${(baseline / 1e6).toFixed(0)} MB baseline (rss ${(peak / 1e6).toFixed(0)} MB)`
  )
  console.log(
    `rounds (ms): open ${open.map((x) => x.toFixed(0)).join(' ')} | first ${first.map((x) => x.toFixed(0)).join(' ')} | whole ${whole.map((x) => x.toFixed(0)).join(' ')} | wc ${wc.map((x) => x.toFixed(0)).join(' ')}`
  )
}

main()
  .catch((e) => {
    console.error(e)
    process.exitCode = 1
  })
  // /tmp is left as it was found (PL_BENCH_KEEP=1 keeps the file for another run).
  .finally(() => process.env.PL_BENCH_KEEP || rmSync(FILE, { force: true }))
