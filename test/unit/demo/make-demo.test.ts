// The demo generator still makes the committed demo: test/tools/make-demo.mjs run into a temporary folder gives
// every committed file of assets/demo and assets/icons byte for byte. The spoken clips need espeak-ng and sox; where
// those are not installed the clips are left out of the run and out of the comparison (the test says so).
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const REPO = resolve(__dirname, '../../..')
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
const audio = has('espeak-ng') && has('sox')
const isAudio = (f: string) => /^assets\/demo\/data\/media\/.*\.(wav|mp3)$/.test(f)

const committed = execFileSync('git', ['ls-files', '-z', 'assets/demo', 'assets/icons'], { cwd: REPO, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '')
const out = mkdtempSync(join(tmpdir(), 'make-demo-test-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

describe('make-demo', () => {
  it(`regenerates the committed demo and icon byte for byte${audio ? '' : ' (spoken clips left out: no espeak-ng/sox here)'}`, () => {
    const r = spawnSync(process.execPath, [join(REPO, 'test/tools/make-demo.mjs'), '--out', out, ...(audio ? [] : ['--no-audio'])], { encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const made = execFileSync('find', ['.', '-type', 'f'], { cwd: out, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f !== '')
      .map((f) => 'assets/' + f.slice(2))
      .sort()
    const want = committed.filter((f) => audio || !isAudio(f)).sort()
    expect(made).toEqual(want)
    for (const f of want) expect(readFileSync(join(out, f.slice('assets/'.length))).equals(readFileSync(join(REPO, f))), f).toBe(true)
  }, 60_000)
})
