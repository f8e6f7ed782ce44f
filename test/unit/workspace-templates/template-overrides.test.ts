// Template edits through the workspace on a copy of the demo project: previews render unsaved edits without
// committing them, apply/revert change the project and save .promptloom/overrides.json (never the config file),
// a reopened project picks the edits up again, and diagnostics point at real lines and columns.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import { demoProjectDir } from '../../../main/services/app-paths'
import { Workspace } from '../../../main/services/workspace/workspace'
import { overridesFile } from '../../../main/services/workspace/template-overrides'
import { createApi } from '../../../main/api/create-api'

const host: Host = {
  mode: 'browser',
  mediaUrl: (p) => `/media?path=${encodeURIComponent(p)}`,
  pickSavePath: async () => null,
  offerDownload: (p) => `/download/${encodeURIComponent(p)}`,
  emit: () => {}
}

const V = 'demo-mm-string'
const D = 'demo-mm-dialogue'
const CHATML = 'demo-chatml'
const CONFIG = 'configs/demo_mmbench_gen.py'

let dir: string
let ws: Workspace
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pl-templates-'))
  cpSync(demoProjectDir(), dir, { recursive: true })
  ws = new Workspace(host, { curation: 'memory' })
  await ws.session.open(dir)
})

/** The demo's string-variant text with the prompt's opening sentence replaced. */
function editedPrompt(from: string, to: string): string {
  const text = ws.templates.get({ variantId: V }).text
  expect(text).toContain(from)
  return text.replace(from, to)
}

describe('template.get', () => {
  it('shows a variant as its infer_cfg pieces in JSON', () => {
    const doc = ws.templates.get({ variantId: V })
    expect(doc.language).toBe('json')
    expect(Object.keys(JSON.parse(doc.text))).toEqual(['ice_template', 'prompt_template', 'retriever'])
    expect(JSON.parse(doc.text).retriever).toEqual({ type: 'FixKRetriever', fix_id_list: [0, 1, 2] })
    expect(doc.overridden).toBe(false)
  })

  it('shows an OpenCompass-meta model as its meta template in JSON', () => {
    const doc = ws.templates.get({ modelId: CHATML })
    expect(doc.language).toBe('json')
    expect(JSON.parse(doc.text).round.map((r: { role: string }) => r.role)).toContain('HUMAN')
  })
})

describe('template.preview', () => {
  it('renders the row with the edited prompt template and commits nothing', async () => {
    const text = editedPrompt('The following are multiple-choice questions', 'EDITED PREAMBLE')
    const r = await ws.templates.preview({ index: 0, variantId: V, modelIds: [CHATML], edits: [{ target: { variantId: V }, text }] })
    expect(r.render?.models[0].text).toContain('EDITED PREAMBLE')
    expect(r.diagnostics).toEqual([[]])
    const plain = await ws.render.row({ index: 0, variantId: V, modelIds: [CHATML] })
    expect(plain.models[0].text).not.toContain('EDITED PREAMBLE')
  })

  it('renders the row with an edited meta template', async () => {
    const text = ws.templates.get({ modelId: CHATML }).text.replace('<|im_start|>user', '<|im_start|>EDITED_USER')
    const r = await ws.templates.preview({ index: 0, variantId: D, modelIds: [CHATML], edits: [{ target: { modelId: CHATML }, text }] })
    expect(r.render?.models[0].text).toContain('<|im_start|>EDITED_USER')
  })

  it('places a JSON syntax error at its line and column and renders the row with the error in place', async () => {
    // Line 3 is `    "type": "PromptTemplate",`; dropping its comma leaves the error at the next key.
    const lines = ws.templates.get({ variantId: V }).text.split('\n')
    expect(lines[2]).toBe('    "type": "PromptTemplate",')
    lines[2] = '    "type": "PromptTemplate"'
    const r = await ws.templates.preview({ index: 0, variantId: V, modelIds: [CHATML], edits: [{ target: { variantId: V }, text: lines.join('\n') }] })
    expect(r.render?.index).toBe(0)
    expect(r.render?.problems[0]).toMatchObject({ code: 'template-draft', severity: 'error' })
    expect(r.diagnostics[0]).toHaveLength(1)
    // The whole next key is underlined: "template" on line 4, columns 5 to 15.
    expect(r.diagnostics[0][0]).toMatchObject({ range: { start: { line: 4, column: 5 }, end: { line: 4, column: 15 } }, severity: 'error', code: 'json-syntax' })
    expect(r.diagnostics[0][0].message).toMatch(/expected ',' or '}'/)
  })

  it('places an engine error at the template path it names', async () => {
    // A template that is neither a str nor a dict: the engine raises at path "prompt_template".
    const text = JSON.stringify({ prompt_template: { type: 'PromptTemplate', template: 12 }, retriever: { type: 'ZeroRetriever' } }, null, 2)
    const r = await ws.templates.preview({ index: 0, variantId: V, modelIds: [CHATML], edits: [{ target: { variantId: V }, text }] })
    expect(r.render?.problems[0].data).toEqual({ path: 'prompt_template' })
    const errs = r.diagnostics[0].filter((d) => d.severity === 'error')
    expect(errs).toHaveLength(1)
    // The key "prompt_template" on line 2, columns 3 to 20.
    expect(text.split('\n')[1]).toBe('  "prompt_template": {')
    expect(errs[0]).toMatchObject({ range: { start: { line: 2, column: 3 }, end: { line: 2, column: 20 } }, code: 'ICLR-TYPE-001' })
    expect(errs[0].message).toMatch(/Prompt template must be a str or a dict/)
  })

  it('places a role the model does not know at the role the variant wrote', async () => {
    const tpl = { round: [{ role: 'HUMAN', prompt: '{question}' }, { role: 'NOPE', prompt: 'x' }] }
    const text = JSON.stringify({ prompt_template: { type: 'PromptTemplate', template: tpl }, retriever: { type: 'ZeroRetriever' } }, null, 2)
    const r = await ws.templates.preview({ index: 0, variantId: V, modelIds: [CHATML], edits: [{ target: { variantId: V }, text }] })
    const e = r.diagnostics[0].find((d) => /KeyError: 'NOPE'/.test(d.message))!
    expect(text.slice(e.range?.start.offset, e.range?.end.offset)).toBe('"NOPE"')
    expect(e.message).toMatch(/^ChatML/)
  })

  it('places a meta template schema error at the offending role', async () => {
    const text = JSON.stringify({ round: [{ role: 'HUMAN', begin: 'u:' }, { role: '', begin: 'a:', generate: true }] }, null, 2)
    const r = await ws.templates.preview({ index: 0, variantId: D, modelIds: [CHATML], edits: [{ target: { modelId: CHATML }, text }] })
    expect(r.render?.problems[0]).toMatchObject({ code: 'template-draft' })
    const e = r.diagnostics[0][0]
    const line = text.split('\n')[(e.range?.start.line ?? 0) - 1]
    expect(line).toContain('"role": ""')
    expect(e.message).toMatch(/role name must not be empty/)
  })
})

describe('apply, revert and saving', () => {
  it('apply changes every later render and saves the edit beside the project, not in the config', async () => {
    const config = readFileSync(join(dir, CONFIG), 'utf8')
    const text = editedPrompt('The following are multiple-choice questions', 'APPLIED PREAMBLE')
    const res = await ws.templates.apply({ variantId: V }, text)
    expect(res).toMatchObject({ applied: true, savedTo: overridesFile(dir, join(dir, 'data')) })
    expect(res.doc).toMatchObject({ overridden: true, text })
    expect((await ws.render.row({ index: 3, variantId: V, modelIds: [CHATML] })).models[0].text).toContain('APPLIED PREAMBLE')
    const saved = JSON.parse(readFileSync(overridesFile(dir, join(dir, 'data')), 'utf8'))
    expect(saved.variants[V].text).toBe(text)
    expect(readFileSync(join(dir, CONFIG), 'utf8')).toBe(config)
  })

  it('apply is refused while the text has a syntax error', async () => {
    const res = await ws.templates.apply({ variantId: V }, '{ "prompt_template": ')
    expect(res.applied).toBe(false)
    expect(res.diagnostics[0]).toMatchObject({ range: { start: { line: 1 } }, severity: 'error' })
    expect(existsSync(overridesFile(dir, join(dir, 'data')))).toBe(false)
  })

  it('revert restores the config template and drops the saved edit', async () => {
    const before = (await ws.render.row({ index: 0, variantId: V, modelIds: [CHATML] })).models[0].text
    await ws.templates.apply({ variantId: V }, editedPrompt('The following are', 'REVERT ME'))
    const res = await ws.templates.revert({ variantId: V })
    expect(res.doc.overridden).toBe(false)
    expect((await ws.render.row({ index: 0, variantId: V, modelIds: [CHATML] })).models[0].text).toBe(before)
    expect(JSON.parse(readFileSync(overridesFile(dir, join(dir, 'data')), 'utf8')).variants).toEqual({})
  })

  it('a reopened project uses the saved edits of variants and models', async () => {
    await ws.templates.apply({ variantId: V }, editedPrompt('The following are', 'PERSISTED'))
    const meta = ws.templates.get({ modelId: CHATML }).text.replace('<|im_start|>user', '<|im_start|>PERSISTED_USER')
    await ws.templates.apply({ modelId: CHATML }, meta)
    const again = new Workspace(host, { curation: 'memory' })
    const summary = await again.session.open(dir)
    expect(summary.problems.filter((p) => p.code === 'template-overrides')).toEqual([])
    expect(again.templates.get({ variantId: V }).overridden).toBe(true)
    expect((await again.render.row({ index: 0, variantId: V, modelIds: [CHATML] })).models[0].text).toContain('PERSISTED')
    expect((await again.render.row({ index: 0, variantId: D, modelIds: [CHATML] })).models[0].text).toContain('PERSISTED_USER')
  })

  it('a saved edit that no longer reads is reported when the project opens, and left out', async () => {
    const file = overridesFile(dir, join(dir, 'data'))
    await ws.templates.apply({ variantId: V }, editedPrompt('The following are', 'X'))
    writeFileSync(file, JSON.stringify({ version: 1, variants: { [V]: { text: '{ broken' } }, models: {} }))
    const summary = await new Workspace(host, { curation: 'memory' }).session.open(dir)
    const p = summary.problems.find((x) => x.code === 'template-overrides')
    expect(p?.severity).toBe('error')
    expect(p?.message).toMatch(/demo-mm-string.*line 1:3/)
  })

  it('export config writes the edited infer_cfg as JSON and refuses the config file itself', async () => {
    await ws.templates.apply({ variantId: V }, editedPrompt('The following are', 'EXPORTED'))
    const r = await ws.templates.exportConfig({ variantId: V, destination: 'download' })
    const path = decodeURIComponent(r.downloadUrl!.replace('/download/', ''))
    const cfg = JSON.parse(readFileSync(path, 'utf8'))
    expect(cfg.infer_cfg.prompt_template.template).toContain('EXPORTED')
    expect(cfg.infer_cfg.inferencer).toEqual({ type: 'GenInferencer' })
    const project = (ws.session as unknown as { project: { templates: { exportConfig: (a: string, b: string, c?: string) => Promise<void> } } }).project
    await expect(project.templates.exportConfig(V, join(dir, CONFIG), join(dir, CONFIG))).rejects.toThrow(/does not overwrite/)
  })
})

describe('the API', () => {
  it('validates template targets and runs a preview', async () => {
    const api = createApi(host)
    await api.workspace.session.open(dir)
    const bad = await api.dispatch('template.get', [{ variantId: V, modelId: CHATML }])
    expect(bad.ok).toBe(false)
    const doc = await api.dispatch('template.get', [{ variantId: V }])
    expect(doc.ok).toBe(true)
    const r = await api.dispatch('template.preview', [{ index: 1, variantId: V, modelIds: [CHATML], edits: [] }])
    expect(r.ok && (r.value as { render: { index: number } }).render.index).toBe(1)
  })
})
