// OpenCompass run configs with `chatml_datasets` (examples/eval_chatml_datasets.py) opened in the workspace the app
// and the CLI use: each entry becomes a ChatMLDataset built from the checkout's chatobj_custom_gen.py, its rows as
// ChatMLDataset.load builds them, its prompt the template's RawPromptTemplate message (issue #12).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { mediaHost as host } from '../../support/host'
import { Workspace } from '../../../main/services/workspace/workspace'


// opencompass/configs/datasets/chatobj_custom/chatobj_custom_gen.py, the grader prompt cut short.
const TEMPLATE = `chatobj_custom_reader_cfg = dict(input_columns=['question'], output_column='answer')

chatobj_custom_infer_cfg = dict(
    prompt_template=dict(
        type='RawPromptTemplate',
        messages=[
            {'role': 'user', 'content': '{question}\\nRemember to put your final answer within \\\\boxed{}.'},
        ],
    ),
    retriever=dict(type='ZeroRetriever'),
    inferencer=dict(type='GenInferencer'),
)

optional_evaluator = dict(
math_evaluator = dict(type='MATHVerifyEvaluator'),
mcq_rule_evaluator = dict(type='AccEvaluator', pred_postprocessor=dict(type='match_answer_pattern', answer_pattern=r'(?i)ANSWER\\s*:\\s*([A-D])')),
llm_evaluator = dict(
    type='GenericLLMEvaluator',
    prompt_template=dict(type='RawPromptTemplate', messages=[{'role': 'user', 'content': 'Grade: {question} {answer} {prediction}'}]),
    dataset_cfg=dict(type='ChatMLDataset'),
    judge_cfg=dict(),
),
cascade_evaluator = dict(type='CascadeEvaluator', rule_evaluator=dict(), llm_evaluator=dict(), parallel=False),
)

chatobj_custom_datasets = dict(
    type='ChatMLDataset',
)
`
// opencompass/configs/chatml_datasets/MaScQA/MaScQA_gen.py
const MASCQA = `datasets = [
    dict(
        abbr='MaScQA',
        path='./data/MaScQA/MaScQA.jsonl',
        evaluator=dict(
            type='llm_evaluator',
            judge_cfg=dict(),
        ),
        n=1,
    ),
]
`
// examples/eval_chatml_datasets.py, without models (and with the `datasets` the run reads first).
const RUN = (withDatasets: boolean) => `from mmengine.config import read_base

with read_base():
    from opencompass.configs.chatml_datasets.MaScQA.MaScQA_gen import datasets as MaScQA_chatml

${withDatasets ? 'datasets = []\n' : ''}chatml_datasets = sum(
    (v for k, v in locals().items() if k.endswith('_chatml')),
    [],
)
`
const ROW = { question: [{ role: 'system', content: 'You are a chemist.' }, { role: 'user', content: 'Molar mass of water?' }], answer: ['18 g/mol'], source: 'MaScQA' }

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function checkout(withDatasets = true): string {
  const d = mkdtempSync(join(tmpdir(), 'plwschatml'))
  dirs.push(d)
  const files: Record<string, string> = {
    'opencompass/configs/datasets/chatobj_custom/chatobj_custom_gen.py': TEMPLATE,
    'opencompass/configs/chatml_datasets/MaScQA/MaScQA_gen.py': MASCQA,
    'examples/eval_chatml.py': RUN(withDatasets),
    'examples/data/MaScQA/MaScQA.jsonl': JSON.stringify(ROW) + '\n'
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(d, rel)), { recursive: true })
    writeFileSync(join(d, rel), text)
  }
  return join(d, 'examples/eval_chatml.py')
}

async function open(config: string) {
  const ws = new Workspace(host, { curation: 'memory' })
  const p = await ws.session.open(config)
  await ws.session.addModel('opencompass-api')
  return { ws, p }
}

describe('chatml_datasets run configs in the workspace', () => {
  it("lists each chatml entry as a ChatMLDataset variant with the template's RawPromptTemplate", async () => {
    const { ws, p } = await open(checkout())
    expect(p.variants.map((v) => [v.id, v.kind])).toEqual([['MaScQA', 'RawPromptTemplate']])
    ws.close()
  })

  it('sends the first user message with the instruction the template appends', async () => {
    const { ws } = await open(checkout())
    const r = await ws.render.row({ index: 0, variantId: 'MaScQA', modelIds: ['opencompass-api'] })
    expect(r.models[0].messages).toEqual([{ role: 'user', content: 'Molar mass of water?\nRemember to put your final answer within \\boxed{}.' }])
    ws.close()
  })

  it('builds the rows as ChatMLDataset.load does: the ChatML columns renamed, the first answer as answer', async () => {
    const { ws } = await open(checkout())
    const r = await ws.render.row({ index: 0, variantId: 'MaScQA', modelIds: ['opencompass-api'] })
    expect(r.fields).toEqual({ chatml_question: ROW.question, chatml_answer: ['18 g/mol'], question: 'Molar mass of water?', answer: '18 g/mol' })
    ws.close()
  })

  it("says upstream's run fails on a run config without `datasets`", async () => {
    const { ws, p } = await open(checkout(false))
    expect(p.problems).toContainEqual(expect.objectContaining({ code: 'config', severity: 'error', message: expect.stringContaining("KeyError: 'datasets'") }))
    ws.close()
  })
})
