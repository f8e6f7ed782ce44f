// `promptloom lint` on copies of the demo project: the documented JSON report and the exit codes CI gates on.
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'
import { demoProjectDir } from '../../../main/services/app-paths'
import { Workspace } from '../../../main/services/workspace/workspace'
import type { LintReport } from '../../../shared/lint/report'
import { host } from '../lint/helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** The demo in a temp folder, so nothing is ever written into the checkout. */
function demo(): string {
  const root = mkdtempSync(join(tmpdir(), 'promptloom-lint-cli-'))
  dirs.push(root)
  const dir = join(root, 'demo')
  cpSync(demoProjectDir(), dir, { recursive: true, filter: (src) => !src.includes('.promptloom') })
  return dir
}

async function run(args: string[]) {
  let out = ''
  let err = ''
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) })
  return { code, out, err }
}

describe('promptloom lint', () => {
  it('--help explains the command and its exit codes', async () => {
    const r = await run(['lint', '--help'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^Usage: promptloom lint --config C/)
    expect(r.out).toContain('--fail-on')
  })

  it('--json gives the documented report (version 1) with groups per kind and model', async () => {
    const r = await run(['lint', '--config', demo(), '--json', '--variant', 'demo-mm-dialogue'])
    const report = JSON.parse(r.out) as LintReport
    expect(report.version).toBe(1)
    expect(report.project).toMatchObject({ name: 'PromptLoom demo', split: 'test', variant: 'demo-mm-dialogue' })
    expect(report.rows).toBe(14)
    expect(report.models.map((m) => [m.id, m.tokens])).toEqual([
      ['vllm-api-chat', 'estimate'],
      ['qwen2.5-vl-7b-instruct-hf', 'estimate'],
      ['demo-chatml', 'estimate'],
      ['demo-llama3', 'estimate'],
      ['demo-internlm2', 'estimate']
    ])
    const missing = report.groups.find((g) => g.kind === 'media-missing')!
    expect(missing).toMatchObject({ key: 'media-missing|', model: null, severity: 'error', count: 1, examples: [{ row: 9, message: 'missing file: media/missing-photo.png', at: { field: 'image' } }] })
    expect(missing.advice).toBeTruthy()
    expect(report.histograms.map((h) => [h.model, h.contextLength, h.rows])).toEqual([
      ['vllm-api-chat', 2048, 14],
      ['qwen2.5-vl-7b-instruct-hf', 32768, 14],
      ['demo-chatml', 2048, 14],
      ['demo-llama3', 2048, 14],
      ['demo-internlm2', 2048, 14]
    ])
  })

  it('exits 1 when errors are found (the default --fail-on error)', async () => {
    expect((await run(['lint', '--config', demo()])).code).toBe(1)
  })

  it('exits 0 with --fail-on never', async () => {
    expect((await run(['lint', '--config', demo(), '--fail-on', 'never'])).code).toBe(0)
  })

  it('exits 0 at --fail-on error but 1 at --fail-on warning when only warnings are left', async () => {
    const dir = demo()
    copyFileSync(join(dir, 'data/media/shapes-01.png'), join(dir, 'data/media/missing-photo.png'))
    const r = await run(['lint', '--config', dir, '--json'])
    expect(JSON.parse(r.out).summary.errors).toBe(0)
    expect(r.code).toBe(0)
    expect((await run(['lint', '--config', dir, '--fail-on', 'warning'])).code).toBe(1)
  })

  it('leaves rows rejected in the saved curation out of the counts', async () => {
    const dir = demo()
    const ws = new Workspace(host, { curation: 'persistent' })
    await ws.session.open(dir)
    await ws.curation.apply({ indices: [9] }, { kind: 'status', status: 'rejected' })
    ws.close()
    const r = await run(['lint', '--config', dir, '--json'])
    const report = JSON.parse(r.out) as LintReport
    expect(report.rejected).toBe(1)
    expect(report.groups.some((g) => g.kind === 'media-missing')).toBe(false)
  })

  it('prints groups with counts, examples and advice as text', async () => {
    const r = await run(['lint', '--config', demo()])
    expect(r.out).toContain('ERROR  Media file missing [media-missing] · dataset · 1 row')
    expect(r.out).toContain('row 9: missing file: media/missing-photo.png (field image)')
    expect(r.out).toMatch(/→ The referenced file does not exist/)
  })

  it('never creates a project store', async () => {
    const dir = demo()
    await run(['lint', '--config', dir])
    expect(existsSync(join(dir, '.promptloom'))).toBe(false)
  })

  it('exits 2 on a bad --fail-on', async () => {
    expect(await run(['lint', '--config', demo(), '--fail-on', 'sometimes'])).toMatchObject({ code: 2, err: expect.stringContaining('--fail-on must be') })
  })
})
