// The CLI's commands, run in-process with captured output.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'
import { existsSync } from 'node:fs'
import { demoProjectDir } from '../../../main/services/app-paths'
import { demoCopy, openPersistent } from '../store/helpers'

async function run(args: string[]) {
  let out = ''
  let err = ''
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) })
  return { code, out, err }
}

describe('promptloom CLI', () => {
  it('prints its version', async () => {
    expect(await run(['--version'])).toMatchObject({ code: 0, out: expect.stringMatching(/^promptloom \d+\.\d+\.\d+\n$/) })
  })

  it('prints usage with --help', async () => {
    const r = await run(['--help'])
    expect(r.code).toBe(0)
    for (const cmd of ['serve', 'render', 'inspect', 'conformance']) expect(r.out).toContain(`promptloom ${cmd}`)
  })

  it('every command answers --help with its own usage and exit code 0', async () => {
    for (const cmd of ['serve', 'render', 'lint', 'export', 'inspect', 'conformance']) {
      const r = await run([cmd, '--help'])
      expect({ cmd, code: r.code }).toEqual({ cmd, code: 0 })
      expect(r.out, cmd).toContain(`promptloom ${cmd}`)
    }
  })

  it('inspect --media-folder resolves relative media against that folder, as render and lint do', async () => {
    const d = mkdtempSync(join(tmpdir(), 'pl-inspect-mf-'))
    mkdirSync(join(d, 'imgs'))
    writeFileSync(join(d, 'imgs', 'a.png'), readFileSync(join(demoProjectDir(), 'data/media/shapes-01.png')))
    writeFileSync(join(d, 'd.json'), JSON.stringify([{ id: '1', image: 'a.png', conversations: [{ from: 'human', value: '<image>\nWhat?' }, { from: 'gpt', value: 'Shapes.' }] }]))
    const without = JSON.parse((await run(['inspect', join(d, 'd.json'), '--json', '--no-cache'])).out)
    const withFolder = JSON.parse((await run(['inspect', join(d, 'd.json'), '--json', '--no-cache', '--media-folder', join(d, 'imgs')])).out)
    expect([without.media.missing, withFolder.media.missing, withFolder.media.resolved]).toEqual([1, 0, 1])
    rmSync(d, { recursive: true, force: true })
  })

  it('exits 2 with a usage message on an unknown command or option', async () => {
    expect(await run(['frobnicate'])).toMatchObject({ code: 2, err: expect.stringContaining('unknown command "frobnicate"') })
    expect(await run(['render', '--bogus'])).toMatchObject({ code: 2, err: expect.stringContaining('unknown option --bogus') })
  })

  it('render streams one JSON line per row and model to stdout', async () => {
    const r = await run(['render', '--config', demoProjectDir(), '--variant', 'demo-mm-dialogue'])
    expect(r.code).toBe(0)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines).toHaveLength(14 * 5)
    expect(new Set(lines.map((l) => l.model))).toEqual(new Set(['vllm-api-chat', 'qwen2.5-vl-7b-instruct-hf', 'demo-chatml', 'demo-llama3', 'demo-internlm2']))
    expect(lines.find((l) => l.model === 'demo-chatml').prompt).toMatch(/^<\|im_start\|>user\n/)
  })

  it('render writes one line per row, model and label for a PPL variant', async () => {
    const r = await run(['render', '--config', demoProjectDir(), '--variant', 'demo-mm-ppl', '--model', join(demoProjectDir(), 'models/chatml.json')])
    expect(r.code).toBe(0)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines).toHaveLength(14 * 4)
    expect(lines.slice(0, 4).map((l) => [l.index, l.model, l.label])).toEqual(['A', 'B', 'C', 'D'].map((x) => [0, 'demo-chatml', x]))
    expect(lines.slice(0, 4).map((l) => l.prompt.slice(-9))).toEqual(['A', 'B', 'C', 'D'].map((x) => `Answer: ${x}`))
  })

  it('render --model takes a built-in profile and --format messages gives messages', async () => {
    const r = await run(['render', '--config', demoProjectDir(), '--model', 'opencompass-api', '--format', 'messages', '--variant', 'demo-mm-dialogue'])
    expect(r.code).toBe(0)
    const first = JSON.parse(r.out.split('\n')[0])
    expect(first.model).toBe('opencompass-api')
    expect(first.format).toBe('messages')
    expect(first.prompt[0]).toEqual({ role: 'system', content: 'You answer multiple-choice questions about a picture or a short spoken clip.' })
  })

  it('render --format prompt-list writes the dataset-side PromptList as upstream JSON', async () => {
    const r = await run(['render', '--config', demoProjectDir(), '--format', 'prompt-list', '--variant', 'demo-mm-dialogue'])
    const first = JSON.parse(r.out.split('\n')[0])
    expect(first.format).toBe('prompt-list')
    expect(first.prompt[0]).toEqual({ section: 'begin', pos: 'begin' })
  })

  it('render --out writes the file and --spans adds where text came from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-cli-'))
    const out = join(dir, 'prompts.jsonl')
    const r = await run(['render', '--config', demoProjectDir(), '--model', join(demoProjectDir(), 'models/chatml.json'), '--out', out, '--spans', '--variant', 'demo-mm-dialogue'])
    expect(r.code).toBe(0)
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(lines).toHaveLength(14)
    expect(lines[0].spans.map((s: { text: string }) => s.text).join('')).toBe(lines[0].prompt)
    expect(lines[0].spans.some((s: { source: { kind: string; field?: string } }) => s.source.kind === 'field' && s.source.field === 'question')).toBe(true)
  })

  it('render --only accepted reads the reviewers\' saved curation', async () => {
    const dir = demoCopy()
    const ws = await openPersistent(dir)
    await ws.curation.apply({ indices: [2, 5] }, { kind: 'status', status: 'accepted' })
    ws.close()
    const r = await run(['render', '--config', dir, '--only', 'accepted', '--model', join(dir, 'models/chatml.json')])
    expect(r.code).toBe(0)
    expect(r.out.trim().split('\n').map((l) => JSON.parse(l).index)).toEqual([2, 5])
  })

  it('render never creates a project store', async () => {
    const dir = demoCopy()
    await run(['render', '--config', dir])
    expect(existsSync(join(dir, '.promptloom'))).toBe(false)
  })

  it('render --model ID@lm-eval adds the same model as lm-evaluation-harness sends it, beside its own column', async () => {
    const r = await run(['render', '--config', demoProjectDir(), '--variant', 'demo-mm-dialogue', '--model', 'qwen2.5-instruct', '--model', 'qwen2.5-instruct@lm-eval,fewshot_as_multiturn=false'])
    const first = r.out.trim().split('\n').slice(0, 2).map((l) => JSON.parse(l))
    expect(first.map((l) => [l.model, l.harness])).toEqual([
      ['qwen2.5-instruct', 'AISBench HuggingFacewithChatTemplate'],
      [expect.stringMatching(/^qwen2\.5-instruct@lm-eval-/), 'lm-evaluation-harness HFLM']
    ])
  })

  it('render refuses an unknown harness after "@", naming the known ones', async () => {
    const r = await run(['render', '--config', demoProjectDir(), '--model', 'qwen2.5-instruct@helm'])
    expect([r.code, r.err]).toEqual([2, expect.stringContaining('unknown harness "helm" after "@": use one of opencompass, aisbench, lm-eval, vlmevalkit')])
  })

  it('render names an unknown model', async () => {
    const r = await run(['render', '--config', demoProjectDir(), '--model', 'no-such-model'])
    expect(r.code).toBe(2)
    expect(r.err).toContain('no-such-model: no such file, folder or built-in profile')
  })

  it('conformance writes one output line per case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-cli-'))
    const cases = join(dir, 'cases.jsonl')
    // Written by hand: JSON.stringify would print 1.0 as 1, and the point is that 1.0 survives.
    writeFileSync(
      cases,
      '{"id": "x-1", "family": "opencompass", "input": {"kind": "pipeline", "reader_cfg": {"input_columns": ["q"], "output_column": "a"}, ' +
        '"infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": "Q: {q} A: {a}"}, "retriever": {"type": "ZeroRetriever"}, ' +
        '"inferencer": {"type": "GenInferencer"}}, "train": [], "test": [{"q": 1.0, "a": "x"}], "meta_template": null, "parser": "lm", "mode": "gen"}, "expected": {}}\n' +
        '{"id": "x-2", "family": "martian", "input": {}, "expected": {}}\n'
    )
    const r = await run(['conformance', cases])
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => l.id)).toEqual(['x-1', 'x-2'])
    expect(JSON.stringify(lines[0].output)).toContain('Q: 1.0 A: ')
    expect(lines[1].output).toEqual({ error: 'unsupported family' })
  })
})
