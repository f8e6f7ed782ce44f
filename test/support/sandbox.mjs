// One throwaway folder per test run. Every suite (vitest, conformance, end-to-end) runs with TMPDIR, the user config
// folder and the cache folder (dataset indexes, thumbnails, loader caches) pointed inside it, so nothing a test or a
// spawned CLI writes can land in the real /tmp, in ~/.config, in ~/.cache or in the checkout, and removing this one
// folder at the end puts them back as they were.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Creates the run folder and points the environment of this process (and every child it spawns) into it. */
export function enterSandbox(prefix = 'promptloom-test-') {
  const dir = mkdtempSync(join(tmpdir(), prefix))
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
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
