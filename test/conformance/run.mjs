#!/usr/bin/env node
// Conformance suite: runs `promptloom conformance` on every golden case file in ../shared/conformance/cases and
// test/conformance/cases-local,
// compares with the upstream outputs through ../shared/conformance/check.mjs, and fails on any failure that is
// not in known-failures.txt. That list may only shrink: a listed case that now passes is reported so it can be
// removed, and `--update` rewrites the list (use it only to remove entries).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('../..', import.meta.url).pathname
const shared = process.env.PROMPTLOOM_SHARED ?? join(root, '..', 'shared')
const casesDir = join(shared, 'conformance', 'cases')
const knownFile = join(root, 'test', 'conformance', 'known-failures.txt')
const outDir = join(root, 'test-output')
mkdirSync(outDir, { recursive: true })

if (!existsSync(casesDir)) {
  console.log(`conformance: no cases at ${casesDir}`)
  console.log('conformance: 0 passed, 1 failed, 0 skipped')
  process.exit(1)
}
// Golden cases this repository makes itself by running upstream (test/tools/harness-goldens): lm-eval, …
const localDir = join(root, 'test', 'conformance', 'cases-local')
const jsonl = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f)) : [])
const files = [...jsonl(casesDir), ...jsonl(localDir)]
const outputs = join(outDir, 'conformance-outputs.jsonl')
const cli = spawnSync(process.execPath, [join(root, 'out/main/cli.js'), 'conformance', ...files], { encoding: 'utf8', maxBuffer: 1 << 30 })
if (cli.status !== 0) {
  console.log(cli.stderr)
  console.log('conformance: 0 passed, 1 failed, 0 skipped')
  process.exit(1)
}
writeFileSync(outputs, cli.stdout)
const report = join(outDir, 'conformance-report.json')
const chk = spawnSync(process.execPath, [join(shared, 'conformance', 'check.mjs'), ...files, '--outputs', outputs, '--json', report, '--show', '0'], { encoding: 'utf8' })
process.stdout.write(chk.stdout.split('\n').filter((l) => !/^\d+ passed/.test(l)).join('\n'))
const r = JSON.parse(readFileSync(report, 'utf8'))
const known = new Set(
  existsSync(knownFile) ? readFileSync(knownFile, 'utf8').split('\n').map((l) => l.split('#')[0].trim()).filter(Boolean) : []
)
const failing = new Set(r.failures.map((f) => f.id))
const regressions = r.failures.filter((f) => !known.has(f.id))
const fixed = [...known].filter((id) => !failing.has(id))
for (const f of regressions) console.log(`REGRESSION ${f.id}: ${f.why}`)
if (fixed.length) console.log(`now passing, remove from known-failures.txt: ${fixed.join(' ')}`)
if (process.argv.includes('--update')) {
  writeFileSync(knownFile, r.failures.map((f) => `${f.id}  # ${f.why.slice(0, 160).replace(/\n/g, ' ')}`).join('\n') + '\n')
  console.log(`wrote ${r.failures.length} known failures`)
}
console.log(`conformance: ${r.passed} passed, ${regressions.length} failed, ${r.failures.length - regressions.length} skipped`)
process.exit(regressions.length ? 1 : 0)
