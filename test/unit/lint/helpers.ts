// A project made in a temp folder (rows, config, model profiles, media) and linted the way the app and the CLI
// lint it: Workspace.open → lintSource → LintRun.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Host } from '../../../main/api/host'
import { LintRun } from '../../../main/services/lint/lint-run'
import { Workspace } from '../../../main/services/workspace/workspace'
import type { LintReport } from '../../../shared/lint/report'

export const host: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }

export const CHATML = `{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}`

export interface ProjectInput {
  test: Record<string, unknown>[]
  train?: Record<string, unknown>[]
  /** Python source of the prompt template's `template=` value. */
  template?: string
  /** Python source of the ice template's `template=`, with FixKRetriever over `fixK`. */
  iceTemplate?: string
  fixK?: number[]
  inputColumns?: string[]
  outputColumn?: string
  models?: Record<string, unknown>[]
  /** Extra files (relative path → bytes) under data/. */
  files?: Record<string, Buffer | string>
}

export function hfProfile(id: string, chat_template: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, name: id, family: 'test', format: 'hf-chat-template', chat_template, context_length: 4096, ...extra }
}

const dirs: string[] = []

export function makeProject(p: ProjectInput): string {
  const dir = mkdtempSync(join(tmpdir(), 'promptloom-lint-'))
  dirs.push(dir)
  mkdirSync(join(dir, 'data'))
  mkdirSync(join(dir, 'models'))
  const jsonl = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
  writeFileSync(join(dir, 'data', 'test.jsonl'), jsonl(p.test))
  writeFileSync(join(dir, 'data', 'train.jsonl'), jsonl(p.train ?? [p.test[0]]))
  for (const [f, b] of Object.entries(p.files ?? {})) {
    mkdirSync(join(dir, 'data', f, '..'), { recursive: true })
    writeFileSync(join(dir, 'data', f), b)
  }
  const inputs = p.inputColumns ?? ['question']
  const ice = p.iceTemplate
    ? `ice_template=dict(type=PromptTemplate, template=${p.iceTemplate}),\n    retriever=dict(type=FixKRetriever, fix_id_list=${JSON.stringify(p.fixK ?? [0])}),`
    : `retriever=dict(type=ZeroRetriever),`
  writeFileSync(
    join(dir, 'config.py'),
    `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever, FixKRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.datasets import CustomDataset

reader_cfg = dict(input_columns=${JSON.stringify(inputs)}, output_column=${JSON.stringify(p.outputColumn ?? 'answer')}, train_split='train', test_split='test')
infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template=${p.template ?? "dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])"}${p.iceTemplate ? ", ice_token='</E>'" : ''}),
    ${ice}
    inferencer=dict(type=GenInferencer),
)
t_datasets = [dict(abbr='t', type=CustomDataset, path='data', reader_cfg=reader_cfg, infer_cfg=infer_cfg)]
`
  )
  const models = p.models ?? [hfProfile('chatml', CHATML)]
  models.forEach((m, i) => writeFileSync(join(dir, 'models', `m${i}.json`), JSON.stringify(m)))
  writeFileSync(join(dir, 'project.json'), JSON.stringify({ name: 'lint test', dataset: 'data', config: 'config.py', models: models.map((_, i) => `models/m${i}.json`) }))
  return dir
}

export async function lintProject(p: ProjectInput | string): Promise<{ report: LintReport; run: LintRun; ws: Workspace }> {
  const dir = typeof p === 'string' ? p : makeProject(p)
  const ws = new Workspace(host, { curation: 'memory' })
  await ws.session.open(dir)
  const run = await new LintRun(await ws.lint.source({})).run()
  return { report: run.report(), run, ws }
}

export function cleanup() {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
}

export function group(r: LintReport, kind: string, model: string | null = null) {
  return r.groups.find((g) => g.kind === kind && g.model === model)
}
