// One throwaway folder per test run. Every suite (vitest, conformance, end-to-end) runs with TMPDIR, the user config
// folder and the cache folder (dataset indexes, thumbnails, loader caches) pointed inside it, so nothing a test or a
// spawned CLI writes can land in the real /tmp, in ~/.config, in ~/.cache or in the checkout, and removing this one
// folder at the end puts them back as they were.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Run folders whose run was killed (Ctrl-C, a timeout) never reached leave(): each holds its process id, and a
 * folder whose process is gone is removed by the next run. Folders of runs still going are left alone.
 */
function sweepStale() {
  const base = tmpdir()
  let names = []
  try {
    names = readdirSync(base).filter((n) => n.startsWith('promptloom-'))
  } catch {
    return
  }
  for (const n of names) {
    let pid
    try {
      pid = Number(readFileSync(join(base, n, 'pid'), 'utf8'))
    } catch {
      continue
    }
    if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue
    rmSync(join(base, n), { recursive: true, force: true })
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e.code === 'EPERM'
  }
}

/**
 * Creates the run folder and points the environment of this process (and every child it spawns) into it. The folder
 * also goes when the process exits without leave() (an uncaught error, process.exit); a killed run's folder goes at
 * the next run (sweepStale).
 */
export function enterSandbox(prefix = 'promptloom-test-') {
  sweepStale()
  const dir = mkdtempSync(join(tmpdir(), prefix))
  writeFileSync(join(dir, 'pid'), String(process.pid))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  process.once('exit', remove)
  const saved = { TMPDIR: process.env.TMPDIR, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME }
  for (const sub of ['tmp', 'config', 'cache']) mkdirSync(join(dir, sub))
  process.env.TMPDIR = join(dir, 'tmp')
  process.env.XDG_CONFIG_HOME = join(dir, 'config')
  process.env.XDG_CACHE_HOME = join(dir, 'cache')
  return {
    dir,
    leave() {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
      process.removeListener('exit', remove)
      remove()
    }
  }
}
