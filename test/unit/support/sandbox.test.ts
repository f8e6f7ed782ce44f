// The test sandbox (test/support/sandbox.mjs): a run that was killed before leave() leaves its folder, which the
// next run removes; the folder of a run still going is kept.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs module without type declarations
import { enterSandbox } from '../../support/sandbox.mjs'

const SANDBOX = join(__dirname, '../../support/sandbox.mjs')

/** A process that enters a sandbox and waits; resolves with its folder once made. */
function startRun(): Promise<{ dir: string; kill(): Promise<void> }> {
  const code = `import(${JSON.stringify(SANDBOX)}).then((m) => { const s = m.enterSandbox(); console.log(s.dir); setInterval(() => {}, 1000) })`
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (b: Buffer) =>
      resolve({
        dir: b.toString().trim(),
        kill: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGKILL')))
      })
    )
    child.once('error', reject)
  })
}

describe('test sandbox', () => {
  it("removes a killed run's folder when the next run starts", async () => {
    const run = await startRun()
    expect(readFileSync(join(run.dir, 'pid'), 'utf8')).toMatch(/^\d+$/)
    await run.kill()
    expect(existsSync(run.dir)).toBe(true)
    enterSandbox().leave()
    expect(existsSync(run.dir)).toBe(false)
  })

  it('keeps the folder of a run that is still going', async () => {
    const run = await startRun()
    enterSandbox().leave()
    expect(existsSync(run.dir)).toBe(true)
    await run.kill()
    enterSandbox().leave()
  })
})
