// `promptloom render` on worker threads (main/cli/render-parallel.ts): the built CLI on a dataset large enough to
// be split into blocks writes the same bytes, the same counts and the same exit code as on one thread, to a file
// and to standard output. Runs the bundle in out/ (npm test builds it first), as a person runs the CLI.
import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHARED_DIR } from '../../support/shared-dir'

const root = join(__dirname, '../../..')
const cli = join(root, 'out/main/cli.js')
const ROWS = 25_000
let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-render-threads-'))
  execFileSync('python3', [join(SHARED_DIR, 'upstream/render-job/make_render_job_data.py'), dir, '--rows', String(ROWS)], { stdio: 'ignore' })
  // A line that cannot be read: skipped and reported (exit 1) the same way on every thread.
  appendFileSync(join(dir, 'data', 'test.jsonl'), '{"question": 5\n')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function render(threads: number, extra: string[]) {
  const args = [cli, 'render', '--config', join(dir, 'bench_gen.py'), '--dataset', join(dir, 'data'), '--model', join(dir, 'chatml.py'), '--model', join(dir, 'api.py'), ...extra]
  const r = spawnSync(process.execPath, args, { env: { ...process.env, PROMPTLOOM_RENDER_THREADS: String(threads), NODE_DISABLE_COMPILE_CACHE: '1' }, maxBuffer: 1 << 30 })
  return { code: r.status, out: r.stdout, err: r.stderr.toString() }
}

describe('render on worker threads', () => {
  it('writes the one-thread bytes, line counts and exit code, to a file and to standard output', () => {
    const one = render(1, ['--variant', 'bench-dialogue', '--out', join(dir, 'one.jsonl')])
    const two = render(2, ['--variant', 'bench-dialogue', '--out', join(dir, 'two.jsonl')])
    expect(two.err).toContain('(2 threads)')
    expect(one.err).not.toContain('threads)')
    expect(readFileSync(join(dir, 'two.jsonl')).equals(readFileSync(join(dir, 'one.jsonl')))).toBe(true)
    expect(two.err.replace(' (2 threads)', '').replace('two.jsonl', 'one.jsonl')).toBe(one.err)
    expect(two.code).toBe(one.code)
    expect(one.code).toBe(1)
    const piped = render(2, ['--variant', 'bench-dialogue'])
    expect(piped.out.equals(readFileSync(join(dir, 'one.jsonl')))).toBe(true)
    expect(piped.code).toBe(1)
  }, 300_000)
})
