// OpenCompass custom datasets (dicts without `type`, as configs/datasets/compassbench_20_v1_1 writes them) opened
// in the workspace the app and the CLI use: the run's make_custom_dataset_config is reproduced from the data's
// first row and `.meta.json`, and a circular-mcq dataset's rows are CircularCustomDataset's rotations (issue #12).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { mediaHost as host } from '../../support/host'
import { Workspace } from '../../../main/services/workspace/workspace'


// compassbench_v1_reason_gen_d26d08.py / compassbench_v1_language_gen_7aa06d.py, cut to one dataset each.
const REASON = `compassbench_v1_reason_datasets = [
    dict(path='data/compassbench_v1.1/reason/EN_Commonsense.jsonl',
         abbr='reasonbench_en_commonsense_circular', data_type='circular-mcq', infer_method='gen'),
]
`
const SUMMARY = `from opencompass.openicl.icl_evaluator import RougeEvaluator

compassbench_v1_language_datasets = [
     dict(path='data/compassbench_v1.1/language/content_summarization_en.jsonl',
          abbr='content_summarization_en', data_type= 'qa', infer_method='gen', output_column='summary',
          human_prompt='{article}\\nSummary of the article is:\\n',
          evaluator=RougeEvaluator),
]
`
const MCQ = [
  { question: 'Which is a mammal?', A: 'shark', B: 'dolphin', C: 'tuna', answer: 'B' },
  { question: 'What do plants take in?', A: 'oxygen', B: 'carbon dioxide', C: 'helium', answer: 'B' }
]

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function project(config: string, dataRel: string, rows: object[], extra: Record<string, string> = {}): string {
  const d = mkdtempSync(join(tmpdir(), 'plwscustom'))
  dirs.push(d)
  mkdirSync(join(d, dataRel, '..'), { recursive: true })
  writeFileSync(join(d, dataRel), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  for (const [rel, text] of Object.entries(extra)) writeFileSync(join(d, rel), text)
  writeFileSync(join(d, 'cfg.py'), config)
  return d
}

async function open(d: string) {
  const ws = new Workspace(host, { curation: 'memory' })
  const p = await ws.session.open(join(d, 'cfg.py'))
  await ws.session.addModel('opencompass-api')
  return { ws, p }
}

const userText = async (ws: Workspace, variantId: string, index: number): Promise<unknown> => {
  const r = await ws.render.row({ index, variantId, modelIds: ['opencompass-api'] })
  return (r.models[0].messages as { content: unknown }[])[0].content
}

describe('custom datasets in the workspace', () => {
  it("builds a circular-mcq dataset's template from the first row: Question and one line per option", async () => {
    const { ws } = await open(project(REASON, 'data/compassbench_v1.1/reason/EN_Commonsense.jsonl', MCQ))
    expect(await userText(ws, 'reasonbench_en_commonsense_circular', 0)).toBe('Question: Which is a mammal?\nA. shark\nB. dolphin\nC. tuna')
    ws.close()
  })

  it('gives each row once per rotation of its options, the answer moved with its option', async () => {
    const { ws } = await open(project(REASON, 'data/compassbench_v1.1/reason/EN_Commonsense.jsonl', MCQ))
    const page = await ws.rows.page({ start: 0, count: 10 })
    expect(page.total).toBe(6)
    expect(await userText(ws, 'reasonbench_en_commonsense_circular', 1)).toBe('Question: Which is a mammal?\nA. tuna\nB. shark\nC. dolphin')
    const r = await ws.render.row({ index: 1, variantId: 'reasonbench_en_commonsense_circular', modelIds: ['opencompass-api'] })
    expect([r.fields.answer, r.fields.qid, r.fields.circular_pattern]).toEqual(['C', 0, ['B', 'C', 'A']])
    ws.close()
  })

  it('says where the template came from', async () => {
    const { ws, p } = await open(project(REASON, 'data/compassbench_v1.1/reason/EN_Commonsense.jsonl', MCQ))
    expect(p.problems).toContainEqual(expect.objectContaining({ code: 'custom-dataset', severity: 'info', message: expect.stringContaining('a CircularCustomDataset with GenInferencer') }))
    ws.close()
  })

  it("uses the config's human_prompt and output column for a QA dataset", async () => {
    const rows = [{ article: 'The city opened a library.', summary: 'Library opens.' }]
    const { ws } = await open(project(SUMMARY, 'data/compassbench_v1.1/language/content_summarization_en.jsonl', rows))
    expect(await userText(ws, 'content_summarization_en', 0)).toBe('The city opened a library.\nSummary of the article is:\n')
    ws.close()
  })

  it('takes the prompts a .meta.json beside the data gives', async () => {
    const rel = 'data/compassbench_v1.1/reason/EN_Commonsense.jsonl'
    const meta = { human_prompt: '{question}\nOptions: {A} / {B} / {C}' }
    const { ws } = await open(project(REASON, rel, MCQ, { [`${rel}.meta.json`]: JSON.stringify(meta) }))
    expect(await userText(ws, 'reasonbench_en_commonsense_circular', 0)).toBe('Which is a mammal?\nOptions: shark / dolphin / tuna')
    ws.close()
  })

  it("reports upstream's error for a data_type and infer_method it has no builder for", async () => {
    const cfg = `x_datasets = [dict(path='data/t.jsonl', abbr='t', data_type='qa', infer_method='ppl')]\n`
    const { ws, p } = await open(project(cfg, 'data/t.jsonl', [{ question: 'q', answer: 'a' }]))
    expect(p.problems).toContainEqual(expect.objectContaining({ code: 'custom-dataset', severity: 'error', message: expect.stringContaining('ValueError: Unsupported dataset data_type: qa and infer_method: ppl') }))
    ws.close()
  })

  it("builds each entry's template from its own data file, not the project's one dataset", async () => {
    const cfg = `x_datasets = [
    dict(path='data/a.jsonl', abbr='a', infer_method='gen'),
    dict(path='data/b.jsonl', abbr='b', infer_method='gen'),
]
`
    const d = project(cfg, 'data/a.jsonl', [{ question: 'Q a', answer: '1' }], { 'data/b.jsonl': JSON.stringify({ question: 'Q b', A: 'x', B: 'y', answer: 'A' }) + '\n' })
    const { ws, p } = await open(d)
    // The rows rendered are the project's (data/a.jsonl); b's own first row has options, so b is an MCQ.
    expect(p.problems).toContainEqual(expect.objectContaining({ code: 'custom-dataset', severity: 'info', message: expect.stringContaining(`x_datasets[1] has no type`) }))
    expect(p.problems).toContainEqual(expect.objectContaining({ message: expect.stringContaining(`from the first row of ${join(d, 'data/b.jsonl')}`) }))
    // safe_format leaves a field the row lacks as written.
    expect(await userText(ws, 'b', 0)).toBe('Question: Q a\nA. {A}\nB. {B}')
    expect(await userText(ws, 'a', 0)).toBe('Q a')
    ws.close()
  })

  it("stands the project's dataset in for an entry whose own file is absent, with a warning", async () => {
    const cfg = `x_datasets = [dict(path='elsewhere/t.jsonl', abbr='t', data_type='qa', infer_method='gen')]\n`
    const d = project(cfg, 'data/t.jsonl', [{ question: 'q here', answer: 'a' }])
    writeFileSync(join(d, 'project.json'), JSON.stringify({ dataset: 'data/t.jsonl', config: 'cfg.py' }))
    const ws = new Workspace(host, { curation: 'memory' })
    const p = await ws.session.open(d)
    await ws.session.addModel('opencompass-api')
    expect(p.problems).toContainEqual(expect.objectContaining({ code: 'custom-dataset', severity: 'warning', message: expect.stringContaining('elsewhere/t.jsonl') }))
    expect(await userText(ws, 't', 0)).toBe('q here')
    ws.close()
  })

  it('writes nothing beside the data (the rotated rows go to the project cache)', async () => {
    const d = project(REASON, 'data/compassbench_v1.1/reason/EN_Commonsense.jsonl', MCQ)
    const { ws } = await open(d)
    expect(readdirSync(join(d, 'data/compassbench_v1.1/reason'))).toEqual(['EN_Commonsense.jsonl'])
    ws.close()
  })
})
