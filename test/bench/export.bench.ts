// Media export benchmark: `npx tsx test/bench/export.bench.ts [rows]` (`npm run bench -- export`).
// A 10,000-row JSONL whose rows each reference a ~2 MB PNG (40 distinct files), exported through the app's path
// (Workspace.exportDataset: worker-thread encoding, spliced streaming, atomic write) with every image inlined as
// base64 — about 27 GB written. Prints rows/s, output MB/s and the process's peak RSS (main thread and workers),
// beside an anchor measured in the same run on the same files: a bare loop that reads each file, base64-encodes it
// with Buffer.toString and appends it to a file (rate over 2,000 rows). Then a re-encoded export (max side 512,
// WebP) of 1,000 rows, beside a bare sharp loop over the same files. Output files are removed as soon as measured.
import { mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import type { Host } from '../../main/api/host'
import { shutdownWorkers } from '../../main/services/workers/pool'
import { Workspace } from '../../main/services/workspace/workspace'

sharp.cache(false) // libvips' operation cache would count against the export's memory
const ROWS = Number(process.argv[2] && process.argv[2] !== '--make-images' ? process.argv[2] : 10_000)
const DISTINCT = 40
const ANCHOR_ROWS = Math.min(2_000, ROWS)
const REENCODE_ROWS = Math.min(1_000, ROWS)
const host: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }

/** Peak RSS over a run, sampled every 20 ms (worker threads live in this process, so their memory counts). */
function peakRss(): { stop(): number } {
  let peak = process.memoryUsage.rss()
  const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20)
  return {
    stop() {
      clearInterval(t)
      return Math.max(peak, process.memoryUsage.rss())
    }
  }
}

/** Makes the PNGs in a child process, so sharp's memory from making them does not count against the export. */
function makeImagesElsewhere(dir: string): string[] {
  const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1], '--make-images', dir], { stdio: 'inherit' })
  if (r.status !== 0) throw new Error('making the images failed')
  return Array.from({ length: DISTINCT }, (_, i) => path.join(dir, `img-${i}.png`))
}

async function makeImages(dir: string): Promise<string[]> {
  const files: string[] = []
  const w = 1000
  const h = 700
  for (let i = 0; i < DISTINCT; i++) {
    const raw = Buffer.alloc(w * h * 3)
    let x = 1 + i * 7919
    for (let k = 0; k < raw.length; k++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff
      raw[k] = (k % 3 === 0 ? k / 3 : x >> 16) & 0xff
    }
    const f = path.join(dir, `img-${i}.png`)
    await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).png({ compressionLevel: 1 }).toFile(f)
    files.push(f)
  }
  return files
}

const mb = (n: number) => (n / 1e6).toFixed(0)

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pl-export-bench-'))
  try {
    const media = path.join(dir, 'data', 'media')
    mkdirSync(media, { recursive: true })
    const files = makeImagesElsewhere(media)
    const avg = files.reduce((s, f) => s + statSync(f).size, 0) / files.length
    const lines: string[] = []
    for (let i = 0; i < ROWS; i++) lines.push(JSON.stringify({ id: i, question: `Question ${i}: what does the picture show?`, answer: 'ABCD'[i % 4], image: `media/img-${i % DISTINCT}.png` }))
    const data = path.join(dir, 'data', 'test.jsonl')
    writeFileSync(data, lines.join('\n') + '\n')
    const outBytes = ROWS * avg * 1.34
    const free = statfsSync(dir).bavail * statfsSync(dir).bsize
    console.log(`${ROWS.toLocaleString()} rows, ${DISTINCT} distinct PNGs of ${(avg / 1e6).toFixed(2)} MB on average; base64 output ≈ ${(outBytes / 1e9).toFixed(1)} GB (${(free / 1e9).toFixed(0)} GB free)`)
    if (free < outBytes * 1.3) throw new Error(`not enough free disk for the base64 run; pass fewer rows (npx tsx test/bench/export.bench.ts 2000)`)

    // Anchor: read + Buffer base64 + append, the least any base64 export must do.
    const anchorOut = path.join(dir, 'anchor.b64')
    let t = performance.now()
    const fd = openSync(anchorOut, 'w')
    let written = 0
    for (let i = 0; i < ANCHOR_ROWS; i++) {
      const b64 = readFileSync(files[i % DISTINCT]).toString('base64')
      written += writeSync(fd, `{"id":${i},"image":"`) + writeSync(fd, b64) + writeSync(fd, '"}\n')
    }
    closeSync(fd)
    const anchorS = (performance.now() - t) / 1000
    rmSync(anchorOut)
    const anchorRate = ANCHOR_ROWS / anchorS
    console.log(`anchor (readFile + Buffer.toString('base64') + write, ${ANCHOR_ROWS.toLocaleString()} rows): ${anchorRate.toFixed(0)} rows/s, ${mb(written / anchorS)} MB/s`)

    const ws = new Workspace(host, { curation: 'memory' })
    await ws.session.open(data)
    const out = path.join(dir, 'export.jsonl')
    const before = process.memoryUsage.rss()
    let rss = peakRss()
    t = performance.now()
    const r = await ws.exports.dataset({ only: 'all', format: 'jsonl', media: { form: 'base64' } }, out)
    const s = (performance.now() - t) / 1000
    const peak = Math.max(rss.stop(), process.resourceUsage().maxRSS * 1024)
    const size = statSync(out).size
    rmSync(out)
    console.log(
      `export ${r.rows.toLocaleString()} rows, images as base64 (JSONL, ${(size / 1e9).toFixed(1)} GB): ${(r.rows / s).toFixed(0)} rows/s, ${mb(size / s)} MB/s, ` +
        `peak RSS ${mb(peak)} MB (${mb(before)} MB before; goal < 500 MB)  | anchor ${anchorRate.toFixed(0)} rows/s → ${(anchorRate / (r.rows / s)).toFixed(2)}× the anchor's time`
    )

    // Re-encoded (sharp on the worker threads) vs a bare sharp loop on the same files.
    t = performance.now()
    let next = 0
    await Promise.all(
      [0, 1].map(async () => {
        while (next < REENCODE_ROWS) await sharp(files[next++ % DISTINCT]).rotate().resize(512, 512, { fit: 'inside' }).webp({ quality: 85 }).toBuffer()
      })
    )
    const bareRate = REENCODE_ROWS / ((performance.now() - t) / 1000)
    const w2 = new Workspace(host, { curation: 'memory' })
    const subData = path.join(dir, 'data', 'sub.jsonl')
    writeFileSync(subData, lines.slice(0, REENCODE_ROWS).join('\n') + '\n')
    await w2.session.open(subData)
    rss = peakRss()
    t = performance.now()
    const r2 = await w2.exports.dataset({ only: 'all', format: 'hf-parquet', media: { form: 'base64', maxSide: 512, format: 'webp' } }, path.join(dir, 'sub.parquet'))
    const s2 = (performance.now() - t) / 1000
    const peak2 = rss.stop()
    console.log(
      `export ${r2.rows.toLocaleString()} rows re-encoded (max side 512, WebP) to HF Parquet: ${(r2.rows / s2).toFixed(0)} rows/s, peak RSS ${mb(peak2)} MB  | anchor bare sharp loop (2 lanes): ${bareRate.toFixed(0)} images/s`
    )
    ws.close()
    w2.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
    await shutdownWorkers()
  }
}

if (process.argv[2] === '--make-images') void makeImages(process.argv[3])
else void main()
