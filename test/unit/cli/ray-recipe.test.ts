// The Ray recipe (assets/recipes/ray_render.py): `promptloom render --shard I/N` as a Ray Data map_batches step gives
// byte for byte what one `promptloom render` process gives. Ray is installed from the package registry into a venv
// cached under node_modules/.cache (or PROMPTLOOM_RAY_PYTHON names a Python that has it); where it cannot be installed (no python3 venv, no network), the test is skipped
// and says why.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '../../..')
const cli = join(root, 'out/main/cli.js')
const venv = join(root, 'node_modules/.cache/promptloom-ray-venv')
const python = join(venv, 'bin/python')

/** A venv with Ray Data, or why there is none. */
function rayPython(): { python: string } | { why: string } {
  const usable = (py = python) => spawnSync(py, ['-c', 'import ray, ray.data'], { stdio: 'ignore', timeout: 120_000 }).status === 0
  // A Python that already has Ray Data (your own environment) is used as it is.
  const own = process.env.PROMPTLOOM_RAY_PYTHON
  if (own) return usable(own) ? { python: own } : { why: `PROMPTLOOM_RAY_PYTHON=${own} cannot import ray.data` }
  if (existsSync(python) && usable()) return { python }
  rmSync(venv, { recursive: true, force: true })
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true })
  const mk = spawnSync('python3', ['-m', 'venv', venv], { encoding: 'utf8', timeout: 120_000 })
  if (mk.status !== 0) return { why: `python3 -m venv failed: ${(mk.stderr || String(mk.error)).trim().slice(-200)}` }
  const pip = spawnSync(join(venv, 'bin/pip'), ['install', '-q', '--disable-pip-version-check', '--retries', '2', '--timeout', '30', 'ray', 'pandas', 'pyarrow'], { encoding: 'utf8', timeout: 900_000 })
  if (pip.status !== 0 || !usable()) {
    rmSync(venv, { recursive: true, force: true })
    return { why: `pip could not install ray, pandas, pyarrow: ${(pip.stderr || String(pip.error)).trim().slice(-300)}` }
  }
  return { python }
}

describe('Ray recipe', () => {
  it('renders the demo as 3 Ray shards, byte-identical to one process', { timeout: 1_500_000 }, (ctx) => {
    if (!existsSync(cli)) ctx.skip(`${cli} is not built (npm run build)`)
    const ray = rayPython()
    if ('why' in ray) ctx.skip(ray.why)
    const py = (ray as { python: string }).python
    const dir = mkdtempSync(join(tmpdir(), 'pl-ray-'))
    const demo = join(root, 'assets/demo')
    const whole = execFileSync(process.execPath, [cli, 'render', '--config', demo], { maxBuffer: 1 << 26 })
    const out = join(dir, 'prompts.jsonl')
    const r = spawnSync(py, [join(root, 'assets/recipes/ray_render.py'), '--shards', '3', '--num-cpus', '2', '--out', out, '--promptloom', `${process.execPath} ${cli}`, '--', '--config', demo], {
      encoding: 'utf8',
      timeout: 600_000,
      env: { ...process.env, RAY_USAGE_STATS_ENABLED: '0' }
    })
    expect(r.status, r.stderr.slice(-2000)).toBe(0)
    expect(readFileSync(out).equals(whole)).toBe(true)
    rmSync(dir, { recursive: true, force: true })
  })
})
