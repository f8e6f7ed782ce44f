// `promptloom render` on configs written like upstream's: PPL templates keyed by integer labels render, and a
// run whose renders or config failed exits 1 saying what failed (issue #12).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'

async function run(args: string[]) {
  let out = ''
  let err = ''
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) })
  return { code, out, err }
}

// configs/datasets/CLUE_C3/CLUE_C3_ppl_56b537.py, as upstream writes it.
const C3_PPL = `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.datasets import C3Dataset

C3_reader_cfg = dict(
    input_columns=['question', 'content', 'choice0', 'choice1', 'choice2', 'choice3', 'choices'],
    output_column='label')

C3_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template={
            0: '文章：{content}\\n问题：{question}\\n答案：{choice0}',
            1: '文章：{content}\\n问题：{question}\\n答案：{choice1}',
        }),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=PPLInferencer))

C3_datasets = [dict(type=C3Dataset, abbr='C3', path='./data/CLUE/C3/dev_0.json', reader_cfg=C3_reader_cfg, infer_cfg=C3_infer_cfg)]
`

const ROW = { question: 'Q?', content: 'C', choice0: 'a', choice1: 'b', choice2: 'c', choice3: 'd', choices: ['a', 'b'], label: 0 }

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-cfg-render-'))
  writeFileSync(join(dir, 'test.jsonl'), JSON.stringify(ROW) + '\n')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('render on upstream-style configs', () => {
  it('renders a PPL template keyed by integer labels, one line per label', async () => {
    writeFileSync(join(dir, 'c3_ppl.py'), C3_PPL)
    const r = await run(['render', '--config', join(dir, 'c3_ppl.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.label, l.prompt])).toEqual([
      [0, '文章：C\n问题：Q?\n答案：a'],
      [1, '文章：C\n问题：Q?\n答案：b']
    ])
  })

  it('exits 1 when a render fails, even where the line carries an empty prompt', async () => {
    writeFileSync(join(dir, 'c3_ppl.py'), C3_PPL)
    const r = await run(['render', '--config', join(dir, 'c3_ppl.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'qwen2.5-instruct'])
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.every((l) => l.problems.some((p: { severity: string }) => p.severity === 'error'))).toBe(true)
    expect(r.code).toBe(1)
    expect(r.err).toContain('2 line(s) could not be rendered')
  })

  it('exits 1 on a partial import and says what failed, while rendering the datasets built before the error', async () => {
    writeFileSync(join(dir, 'partial.py'), `${C3_PPL}\nbroken_datasets = [dict(abbr='x', infer_cfg=missing_cfg)]\n`)
    const r = await run(['render', '--config', join(dir, 'partial.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    expect(r.out.trim().split('\n')).toHaveLength(2)
    expect(r.err).toContain("promptloom: NameError: name 'missing_cfg' is not defined")
    expect(r.err).toContain('the config has 1 error(s) (above); only the datasets built before them were rendered')
    expect(r.code).toBe(1)
  })

  it('stops a runaway config with its place and exit 1, without taking the process down', async () => {
    writeFileSync(join(dir, 'huge.py'), `${C3_PPL}\nx = [0] * 10**9\n`)
    const r = await run(['render', '--config', join(dir, 'huge.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    expect(r.err).toContain('a value of 1,000,000,000 items exceeds the config limit')
    expect(r.code).toBe(1)
  })
})

describe('render on inferencers other than Gen and PPL', () => {
  const withInferencer = (name: string): string => C3_PPL.replace('inferencer=dict(type=PPLInferencer)', `inferencer=dict(type=${name})`).replace('import PPLInferencer', `import ${name}`)

  it('renders LLInferencer one prompt per label, as PPLInferencer, and says so', async () => {
    writeFileSync(join(dir, 'c3_ll.py'), withInferencer('LLInferencer'))
    const r = await run(['render', '--config', join(dir, 'c3_ll.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    expect(r.code).toBe(0)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => l.label)).toEqual([0, 1])
  })

  it('names an inferencer that is not reproduced among the project problems', async () => {
    const { Workspace } = await import('../../../main/services/workspace/workspace')
    writeFileSync(join(dir, 'c3_clp.py'), withInferencer('CLPInferencer'))
    const ws = new Workspace({ mode: 'browser', mediaUrl: (p: string) => p, pickSavePath: async () => null, emit: () => {} } as never)
    const s = await ws.session.openSpec({ root: dir, configFile: join(dir, 'c3_clp.py'), dataset: join(dir, 'test.jsonl'), modelFiles: ['opencompass-internlm2-chat-meta'] } as never)
    expect(s.problems).toContainEqual(expect.objectContaining({ code: 'inferencer', severity: 'warning', message: expect.stringContaining('C3: CLPInferencer is not reproduced') }))
  })
})

describe('render on a template class PromptLoom does not reproduce', () => {
  it('says OlympiadBenchTemplate is not reproduced instead of calling it unknown, and exits 1', async () => {
    writeFileSync(
      join(dir, 'olympiad.py'),
      C3_PPL.replace('type=PromptTemplate,\n        template={', 'type=OlympiadBenchTemplate,\n        template={').replace(
        'from opencompass.datasets import C3Dataset',
        'from opencompass.datasets import C3Dataset, OlympiadBenchTemplate'
      )
    )
    const r = await run(['render', '--config', join(dir, 'olympiad.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    const line = JSON.parse(r.out.trim().split('\n')[0])
    expect(line.problems[0].message).toContain('OlympiadBenchTemplate (opencompass.datasets.OlympiadBench) builds each prompt in Python')
    expect(r.code).toBe(1)
  })
})
