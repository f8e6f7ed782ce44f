// Fuzz test over every dataset reader (JSONL, JSON, CSV, TSV, Parquet) and both evaluators (chat templates, the
// config importer) — issue #10. Inputs come from a fixed seed (FUZZ_SEED, default 10) by mutating real files and
// templates and by splicing hostile fragments into them; each target runs for a time budget (FUZZ_MS per target,
// default 2000 ms). Every input must end in a result or a clean error; the test counts inputs, clean errors that
// carry a place, crashes (an exception escaping the public function, or a JavaScript error leaking into a message)
// and hangs (an input taking longer than HANG_MS), prints the figures, and fails on any crash or hang.
// Run longer: FUZZ_MS=30000 npx vitest run test/unit/fuzz
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { openDataset } from '../../../main/services/datasets'
import { renderChatTemplate } from '../../../shared/formats/hf'
import { importConfig } from '../../../shared/config/import'

const SEED = Number(process.env.FUZZ_SEED ?? 10)
const BUDGET_MS = Number(process.env.FUZZ_MS ?? 2000)
const HANG_MS = 5000
const repo = join(__dirname, '../../..')
const dir = mkdtempSync(join(tmpdir(), 'pl-fuzz-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** mulberry32: a small seeded generator, so every run makes the same inputs in the same order. */
function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** JavaScript's own error texts: seeing one in a message means an unexpected exception was passed through. */
// (Python's own "'NoneType' object is not iterable" is fine; JavaScript's names Symbol.iterator.)
const LEAK = /Cannot read propert|is not a function|Symbol\(Symbol\.iterator\)|undefined is not|Maximum call stack|Invalid (string|array) length|argument must be/

interface Figures {
  inputs: number
  ok: number
  cleanWithPlace: number
  cleanWithoutPlace: number
  crashes: number
  hangs: number
  slowestMs: number
  examples: string[]
}
const figures: Record<string, Figures> = {}

/** Feeds inputs from `make` to `run` until the budget is spent; `run` returns 'ok', 'placed', 'unplaced' or throws. */
async function fuzz(target: string, make: (r: () => number, i: number) => string | Buffer, run: (input: string | Buffer) => Promise<'ok' | 'placed' | 'unplaced'>): Promise<Figures> {
  const f: Figures = { inputs: 0, ok: 0, cleanWithPlace: 0, cleanWithoutPlace: 0, crashes: 0, hangs: 0, slowestMs: 0, examples: [] }
  figures[target] = f
  const r = rng(SEED)
  const end = performance.now() + BUDGET_MS
  for (let i = 0; performance.now() < end; i++) {
    const input = make(r, i)
    const t0 = performance.now()
    let outcome: 'ok' | 'placed' | 'unplaced' | 'crash'
    try {
      outcome = await run(input)
    } catch (e) {
      outcome = 'crash'
      if (f.examples.length < 3) f.examples.push(`input ${i}: ${(e as Error).stack?.split('\n').slice(0, 3).join(' | ') ?? String(e)}`)
    }
    const took = performance.now() - t0
    f.slowestMs = Math.max(f.slowestMs, Math.round(took))
    f.inputs++
    if (took > HANG_MS) {
      f.hangs++
      if (f.examples.length < 3) f.examples.push(`input ${i} took ${Math.round(took)} ms`)
    }
    if (outcome === 'ok') f.ok++
    else if (outcome === 'placed') f.cleanWithPlace++
    else if (outcome === 'unplaced') f.cleanWithoutPlace++
    else f.crashes++
  }
  return f
}

// ---- mutations ------------------------------------------------------------------------------------------------

const pick = <T,>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const TEXT_FRAGMENTS = ['\uFEFF', '\n', '\r\n', '\r', '   \n', '\t', '"', '\\', '\\u', '\\ud800', '{', '}', '[', ']', ',', ':', '""', '\0', 'é', '😀', ',,,', '"a""b"', 'null', '1e999', '-', '{"a":', '[[[[[[[[', ']]]]', '\u2028']

/** Byte-level mutations of a text file: flips, inserted fragments, deleted and duplicated slices, truncation. */
function mutateBytes(r: () => number, base: Buffer, fragments: readonly string[] = TEXT_FRAGMENTS): Buffer {
  let b = Buffer.from(base)
  const n = 1 + Math.floor(r() * 4)
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (b.length + 1))
    switch (Math.floor(r() * 7)) {
      case 0:
        if (b.length) b[Math.min(at, b.length - 1)] ^= 1 << Math.floor(r() * 8)
        break
      case 1:
        b = Buffer.concat([b.subarray(0, at), Buffer.from(pick(r, fragments)), b.subarray(at)])
        break
      case 2:
        b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + Math.floor(r() * 40)))])
        break
      case 3: {
        const len = Math.floor(r() * 200)
        b = Buffer.concat([b.subarray(0, at), b.subarray(at, at + len), b.subarray(at)])
        break
      }
      case 4:
        b = b.subarray(0, at)
        break
      case 5:
        // A long run of one hostile fragment (deep nesting, many delimiters, a long line).
        b = Buffer.concat([b.subarray(0, at), Buffer.from(pick(r, fragments).repeat(1 + Math.floor(r() * 20000))), b.subarray(at)])
        break
      default:
        b[Math.min(at, Math.max(0, b.length - 1))] = Math.floor(r() * 256)
    }
  }
  return b
}

// ---- readers ----------------------------------------------------------------------------------------------------

/** A dataset error is placed when it names the file and a line, byte offset or row. */
const placed = (e: { at: { file?: string; line?: number; offset?: number; row?: number } }): boolean =>
  !!e.at.file && (e.at.line !== undefined || e.at.offset !== undefined || e.at.row !== undefined)

async function readDataset(name: string, input: string | Buffer): Promise<'ok' | 'placed' | 'unplaced'> {
  const file = join(dir, name)
  writeFileSync(file, input)
  const h = await openDataset(file, { cacheDir: null })
  for (const s of h.splits) {
    const rows = await h.readRows(s.name, 0, Math.min(s.rowCount, 200))
    for (const row of rows) if (row.error && LEAK.test(row.error.message)) throw new Error(`leaked: ${row.error.message}`)
  }
  const errors = h.errors.filter((e) => e.severity === 'error')
  for (const e of h.errors) if (LEAK.test(e.message)) throw new Error(`leaked: ${e.message}`)
  if (errors.length === 0) return 'ok'
  return errors.every(placed) ? 'placed' : 'unplaced'
}

const rows = Array.from({ length: 30 }, (_, i) => ({ id: i, question: `What is ${i} + ${i}? "quoted", comma`, answer: String(2 * i), meta: { tags: ['a', 'b'], score: i / 3 } }))
const JSONL = Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
const JSON_ARRAY = Buffer.from(JSON.stringify(rows, null, 1))
const csvField = (v: string, d: string): string => (/["\n\r]/.test(v) || v.includes(d) ? `"${v.replace(/"/g, '""')}"` : v)
const table = (d: string): Buffer =>
  Buffer.from(['id', 'question', 'answer'].join(d) + '\r\n' + rows.map((r) => [String(r.id), r.question + '\nline two', r.answer].map((v) => csvField(v, d)).join(d)).join('\r\n') + '\r\n')
const PARQUET = Buffer.from(
  parquetWriteBuffer({
    columnData: [
      { name: 'id', data: Array.from({ length: 300 }, (_, i) => BigInt(i)), type: 'INT64' },
      { name: 'question', data: Array.from({ length: 300 }, (_, i) => `question ${i} ${'x'.repeat(i % 13)}`), type: 'STRING' },
      { name: 'score', data: Array.from({ length: 300 }, (_, i) => i / 7), type: 'DOUBLE' }
    ],
    pageSize: 256,
    rowGroupSize: 100
  })
)
/** Parquet: flipped bytes anywhere (pages, headers, footer), a truncation, or a scribbled range. */
function mutateParquet(r: () => number): Buffer {
  const b = Buffer.from(PARQUET)
  const kind = r()
  if (kind < 0.7) for (let k = 0, n = 1 + Math.floor(r() * 3); k < n; k++) b[Math.floor(r() * b.length)] ^= 1 << Math.floor(r() * 8)
  else if (kind < 0.85) return b.subarray(0, Math.floor(r() * b.length))
  else {
    const at = Math.floor(r() * b.length)
    for (let k = at; k < Math.min(b.length, at + 1 + Math.floor(r() * 64)); k++) b[k] = Math.floor(r() * 256)
  }
  return b
}

// ---- chat templates ------------------------------------------------------------------------------------------------

const TEMPLATE_DIR = join(repo, '..', 'shared', 'chat-templates', 'templates')
const TEMPLATES = readdirSync(TEMPLATE_DIR)
  .filter((f) => f.endsWith('.jinja'))
  .sort()
  .slice(0, 40)
  .map((f) => readFileSync(join(TEMPLATE_DIR, f), 'utf8'))
const JINJA_FRAGMENTS = [
  '{% for x in range(10**9) %}{{ x }}{% endfor %}',
  '{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}',
  "{{ 'a' * 10**9 }}",
  '{{ [0] * 10**8 }}',
  "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
  '{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}',
  '((((((((((((((((((((',
  '{{ messages[0].content.ljust(10**9) }}',
  '{% if %}',
  '{% endfor %}',
  '{{ x | tojson(indent=10**9) }}',
  '{{ raise_exception("no") }}',
  '{{ messages | map(attribute="content") | join(",") }}',
  '{% for m in messages %}{{ m.role }}{% endfor %}',
  '{{ "%0999999999d" % 1 }}',
  "{{ 'ab'.replace('', 'x' * 100000) }}",
  '{{',
  '}}',
  '{%-',
  '{# unterminated'
]
const MESSAGES = [
  { role: 'system', content: 'You are helpful.' },
  { role: 'user', content: 'Hi <|im_start|> {{ not a template }}' },
  { role: 'assistant', content: 'Hello.' },
  { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image' }] }
]

function makeTemplate(r: () => number): string {
  let t = pick(r, TEMPLATES)
  const n = 1 + Math.floor(r() * 3)
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (t.length + 1))
    const op = r()
    if (op < 0.4) t = t.slice(0, at) + pick(r, JINJA_FRAGMENTS) + t.slice(at)
    else if (op < 0.7) t = t.slice(0, at) + t.slice(Math.min(t.length, at + 1 + Math.floor(r() * 30)))
    else if (op < 0.85) t = t.slice(0, at) + t.slice(at, at + Math.floor(r() * 200)) + t.slice(at)
    else t = pick(r, JINJA_FRAGMENTS).repeat(1 + Math.floor(r() * 3))
  }
  return t
}

async function renderTemplate(input: string | Buffer): Promise<'ok' | 'placed' | 'unplaced'> {
  const r = renderChatTemplate(String(input), { messages: MESSAGES, add_generation_prompt: true, special_tokens: { bos_token: '<s>', eos_token: '</s>' }, now: '2025-01-02T03:04:05' })
  if (r.ok) return 'ok'
  if (r.error.code === 'internal_error' || LEAK.test(r.error.message)) throw new Error(`${r.error.code}: ${r.error.message}`)
  if (r.error.code === 'input_error') return 'unplaced'
  return r.error.range !== undefined ? 'placed' : 'unplaced'
}

// ---- configs --------------------------------------------------------------------------------------------------

const CONFIGS = ['demo_mmbench_gen.py', 'demo_mm_prompt.py'].map((f) => readFileSync(join(repo, 'assets', 'demo', 'configs', f), 'utf8'))
const PY_FRAGMENTS = [
  '\nx = [0] * 10**9\n',
  '\ny = [(a, b) for a in range(10**5) for b in range(10**5)]\n',
  '\nz = list(range(10**8))\n',
  '\nw = []\nw.append(w)\nprint(w)\n',
  '\ndef f(n):\n    return f(n + 1)\nf(0)\n',
  '\nwhile True:\n    pass\n',
  "\ns = 'a' * 10**9\n",
  '\nq = ' + '('.repeat(300) + '1' + ')'.repeat(300) + '\n',
  '\nd = dict(a=1, **{"b": 2})\n',
  '\nwith read_base():\n    from .nope import *\n',
  '\nimport os\nos.system("echo hi")\n',
  '\nx = f"{1:{2**40}}"\n',
  '\n\tbad indent\n',
  '"""unterminated',
  ')]}',
  '\nlambda: (yield)\n'
]

function makeConfig(r: () => number): string {
  let t = pick(r, CONFIGS)
  const n = 1 + Math.floor(r() * 3)
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (t.length + 1))
    const op = r()
    if (op < 0.45) t = t.slice(0, at) + pick(r, PY_FRAGMENTS) + t.slice(at)
    else if (op < 0.75) t = t.slice(0, at) + t.slice(Math.min(t.length, at + 1 + Math.floor(r() * 30)))
    else t = t.slice(0, at) + t.slice(at, at + Math.floor(r() * 200)) + t.slice(at)
  }
  return t
}

async function importPython(input: string | Buffer): Promise<'ok' | 'placed' | 'unplaced'> {
  // A 1 s time limit keeps each runaway input short; steps, sizes and depth keep their defaults.
  const c = importConfig(String(input), { file: join(dir, 'fuzz_config.py'), format: 'python', limits: { timeMs: 1000 } })
  const errors = c.diagnostics.filter((d) => d.severity === 'error')
  for (const d of c.diagnostics) if (LEAK.test(d.message)) throw new Error(`leaked: ${d.message}`)
  if (errors.length === 0) return 'ok'
  return errors.every((d) => d.range !== undefined && d.range.start.line >= 1 && d.range.start.column >= 1) ? 'placed' : 'unplaced'
}

// ---- the test ---------------------------------------------------------------------------------------------------

describe(`fuzz: every reader and both evaluators (seed ${SEED}, ${BUDGET_MS} ms each)`, () => {
  const targets: [string, (r: () => number, i: number) => string | Buffer, (x: string | Buffer) => Promise<'ok' | 'placed' | 'unplaced'>][] = [
    ['JSONL', (r) => mutateBytes(r, JSONL), (x) => readDataset('fuzz.jsonl', x)],
    ['JSON', (r) => mutateBytes(r, JSON_ARRAY), (x) => readDataset('fuzz.json', x)],
    ['CSV', (r) => mutateBytes(r, table(',')), (x) => readDataset('fuzz.csv', x)],
    ['TSV', (r) => mutateBytes(r, table('\t')), (x) => readDataset('fuzz.tsv', x)],
    ['Parquet', (r) => mutateParquet(r), (x) => readDataset('fuzz.parquet', x)],
    ['Jinja templates', (r) => makeTemplate(r), renderTemplate],
    ['Python configs', (r) => makeConfig(r), importPython]
  ]

  it.each(targets)('%s: no crash, no hang', async (name, make, run) => {
    const f = await fuzz(name, make, run)
    expect(f.examples.filter((e) => !e.includes(' took ')), JSON.stringify(f.examples)).toEqual([])
    expect([f.crashes, f.hangs], JSON.stringify(f.examples)).toEqual([0, 0])
    expect(f.inputs).toBeGreaterThan(0)
  }, BUDGET_MS + 60_000)

  afterAll(() => {
    const rowsOut = Object.entries(figures).map(([k, f]) => ({ target: k, ...f, examples: undefined }))
    const total = rowsOut.reduce((a, f) => ({ inputs: a.inputs + f.inputs, placed: a.placed + f.cleanWithPlace, unplaced: a.unplaced + f.cleanWithoutPlace, crashes: a.crashes + f.crashes, hangs: a.hangs + f.hangs }), { inputs: 0, placed: 0, unplaced: 0, crashes: 0, hangs: 0 })
    console.log(
      [
        `fuzz figures (seed ${SEED}, ${BUDGET_MS} ms per target, hang = over ${HANG_MS} ms):`,
        ...rowsOut.map((f) => `  ${f.target.padEnd(16)} inputs ${String(f.inputs).padStart(5)}  ok ${String(f.ok).padStart(5)}  clean errors with place ${String(f.cleanWithPlace).padStart(5)}  without place ${String(f.cleanWithoutPlace).padStart(4)}  crashes ${f.crashes}  hangs ${f.hangs}  slowest ${f.slowestMs} ms`),
        `  total            inputs ${total.inputs}, clean errors with place ${total.placed}, without place ${total.unplaced}, crashes ${total.crashes}, hangs ${total.hangs}`
      ].join('\n')
    )
  })
})
