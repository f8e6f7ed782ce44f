#!/usr/bin/env node
// `npm test`: every suite in order — lint, typecheck, build, unit, conformance, end-to-end — and one closing
// line "N passed, M failed[, K skipped]" totalling them all. Known conformance failures (a list that may only
// shrink) count as skipped; any other failure fails the run.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { enterSandbox } from './support/sandbox.mjs'

const root = new URL('..', import.meta.url).pathname
const outDir = join(root, 'test-output')
mkdirSync(outDir, { recursive: true })
const only = process.env.PROMPTLOOM_SUITES?.split(',')
const totals = { passed: 0, failed: 0, skipped: 0 }
const lines = []

function run(name, cmd, args, opts = {}) {
  const t0 = Date.now()
  console.log(`\n== ${name}: ${cmd} ${args.join(' ')}`)
  const r = spawnSync(cmd, args, { cwd: root, stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8', env: { ...process.env, ...opts.env }, maxBuffer: 1 << 28 })
  return { code: r.status ?? 1, out: r.stdout ?? '', ms: Date.now() - t0 }
}

function record(name, passed, failed, skipped = 0, ms = 0) {
  totals.passed += passed
  totals.failed += failed
  totals.skipped += skipped
  lines.push(`${name.padEnd(12)} ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}  (${(ms / 1000).toFixed(1)} s)`)
}

const want = (s) => !only || only.includes(s)

// Every suite runs inside one throwaway folder (TMPDIR, user config), removed at the end; and the checkout must look
// the same afterwards (build output and test reports aside): a test that writes into the repository fails the run.
const sandbox = enterSandbox()
const BUILD_OUTPUT = /^(?:!!|\?\?) (?:out|test-output|node_modules|release)\/?$/
const treeState = () => {
  const r = spawnSync('git', ['status', '--porcelain', '--ignored', '--untracked-files=normal'], { cwd: root, encoding: 'utf8' })
  return r.status === 0 ? r.stdout.split('\n').filter((l) => l && !BUILD_OUTPUT.test(l)).sort().join('\n') : null
}
const treeBefore = treeState()

if (want('lint')) {
  const r = run('lint', 'eslint', ['.', '--max-warnings=0'])
  record('lint', r.code === 0 ? 1 : 0, r.code === 0 ? 0 : 1, 0, r.ms)
}
if (want('typecheck')) {
  const r1 = run('typecheck (node)', 'tsc', ['--noEmit', '-p', 'tsconfig.node.json'])
  const r2 = run('typecheck (web)', 'vue-tsc', ['--noEmit', '-p', 'tsconfig.web.json'])
  record('typecheck', (r1.code === 0) + (r2.code === 0), (r1.code !== 0) + (r2.code !== 0), 0, r1.ms + r2.ms)
}
let built = false
if (want('build') || want('e2e') || want('conformance')) {
  const r = run('build', 'npm', ['run', '-s', 'build'])
  built = r.code === 0
  record('build', built ? 1 : 0, built ? 0 : 1, 0, r.ms)
}
if (want('unit')) {
  const report = join(outDir, 'vitest.json')
  const r = run('unit', 'vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`])
  if (existsSync(report)) {
    const j = JSON.parse(readFileSync(report, 'utf8'))
    record('unit', j.numPassedTests, j.numFailedTests + (r.code !== 0 && j.numFailedTests === 0 ? 1 : 0), j.numPendingTests + j.numTodoTests, r.ms)
  } else record('unit', 0, 1, 0, r.ms)
}
if (want('conformance')) {
  if (!built) record('conformance', 0, 1)
  else {
    const r = run('conformance', 'node', ['test/conformance/run.mjs'], { capture: true })
    process.stdout.write(r.out)
    const m = /^conformance: (\d+) passed, (\d+) failed, (\d+) skipped/m.exec(r.out)
    if (m) record('conformance', +m[1], +m[2] + (r.code !== 0 && +m[2] === 0 ? 1 : 0), +m[3], r.ms)
    else record('conformance', 0, 1, 0, r.ms)
  }
}
if (want('e2e')) {
  if (!built) record('e2e', 0, 1)
  else {
    const r = run('e2e', 'node', ['test/e2e/run.mjs'], { capture: true })
    process.stdout.write(r.out)
    const m = /^e2e: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?/m.exec(r.out)
    if (m) record('e2e', +m[1], +m[2] + (r.code !== 0 && +m[2] === 0 ? 1 : 0), +(m[3] ?? 0), r.ms)
    else record('e2e', 0, 1, 0, r.ms)
  }
}

sandbox.leave()
if (treeBefore !== null) {
  const after = treeState()
  const before = new Set(treeBefore.split('\n'))
  const changed = after.split('\n').filter((l) => l && !before.has(l))
  if (changed.length) console.log(`\n== the checkout changed during the tests:\n${changed.join('\n')}`)
  record('clean tree', changed.length ? 0 : 1, changed.length ? 1 : 0)
}

console.log('\n== summary')
for (const l of lines) console.log(l)
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`)
process.exit(totals.failed ? 1 : 0)
