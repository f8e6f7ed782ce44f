// The prompt builder: a recipe of sections over a dataset with no config, previewed through the template editor's
// path, saved as an OpenCompass config that `promptloom render` turns into the same prompts; the field schema
// derived from the template, rows checked against it, and placeholders no column fills placed.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../support/cli'
import { Workspace } from '../../../main/services/workspace/workspace'
import { applyFieldEdits, buildVariant, checkRow, defaultRecipe, deriveSchema, guessRoles, toJsonSchema, unfilledPlaceholders, type Recipe } from '../../../shared/builder'
import { host } from '../store/helpers'

function mcqDataset(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'pl-builder-')), 'mcq')
  mkdirSync(dir)
  const row = (i: number) => ({ qid: `q${i}`, question: `What is ${i} + ${i}?`, A: String(2 * i), B: String(2 * i + 1), C: String(i), D: String(3 * i), answer: 'A', image: `images/q${i}.png`, category: 'math' })
  writeFileSync(join(dir, 'train.jsonl'), [0, 1, 2, 3].map((i) => JSON.stringify(row(i))).join('\n') + '\n')
  writeFileSync(join(dir, 'test.jsonl'), [10, 11, 12].map((i) => JSON.stringify(row(i))).join('\n') + '\n')
  return dir
}

function recipe(shape: Recipe['shape']): Recipe {
  const r = defaultRecipe('mcq-built', guessRoles(['qid', 'question', 'A', 'B', 'C', 'D', 'answer', 'image', 'category']), shape)
  return { ...r, selector: { kind: 'fixed', ids: [0, 1, 2] } }
}

async function cliRender(args: string[]): Promise<Record<string, unknown>[]> {
  const r = await runCli(['render', ...args])
  expect(r.code, r.err).toBe(0)
  return r.lines
}

describe('prompt builder', () => {
  it('guesses question, options, answer and context columns from their names', () => {
    expect(guessRoles(['qid', 'question', 'A', 'B', 'C', 'D', 'answer', 'hint'])).toEqual({ question: 'question', choices: ['A', 'B', 'C', 'D'], answer: 'answer', context: 'hint' })
    expect(guessRoles(['prompt', 'option_a', 'option_b', 'label']).choices).toEqual(['option_a', 'option_b'])
  })

  for (const shape of ['string', 'dialogue'] as const) {
    it(`saves a ${shape} recipe as a config that renders exactly the previewed prompts`, async () => {
      const dir = mcqDataset()
      const ws = new Workspace(host, { curation: 'memory' })
      await ws.session.open(dir)
      const s = ws.session.current()!
      const r = recipe(shape)
      const check = await ws.templates.checkRecipe(r)
      expect(check.issues).toEqual([])
      const models = [s.models[0].id]
      const preview = await ws.templates.preview({ index: 1, variantId: s.variants[0].id, modelIds: models, edits: [{ target: { variantId: s.variants[0].id }, text: check.variantText }] })
      const shown = preview.render!.models[0]
      const saved = await ws.templates.saveRecipe(r)
      expect(saved.config).toBe(join(dir, '..', 'mcq-built_gen.py'))
      const lines = await cliRender(['--config', saved.config, '--model', s.models[0].id])
      const line = lines.find((l) => l.index === 1)!
      expect(line.prompt).toEqual(shown.kind === 'text' ? shown.text : shown.messages!.map((m) => ({ role: m.role, content: m.content })))
      // Three examples, from the train split, each with its answer; the test row last without one.
      const text = JSON.stringify(line.prompt)
      for (const i of [0, 1, 2]) expect(text).toContain(`What is ${i} + ${i}?`)
      expect(text).not.toContain('What is 3 + 3?')
      expect(text).toContain('What is 11 + 11?')
      ws.close()
    })
  }

  it('writes an ordinary OpenCompass config and never over the project config', async () => {
    const dir = mcqDataset()
    const ws = new Workspace(host, { curation: 'memory' })
    await ws.session.open(dir)
    const first = await ws.templates.saveRecipe(recipe('dialogue'))
    const second = await ws.templates.saveRecipe(recipe('dialogue'))
    expect(second.config).toBe(join(dir, '..', 'mcq-built_gen-2.py'))
    const py = readFileSync(first.config, 'utf8')
    expect(py).toContain('from opencompass.openicl.icl_prompt_template import PromptTemplate')
    expect(py).toContain('    retriever=dict(\n        type=FixKRetriever,\n        fix_id_list=[0, 1, 2],\n    ),')
    expect(py).toMatch(/mcq_built_datasets = \[\n {4}dict\(\n {8}abbr='mcq-built',\n {8}type=CustomDataset,\n {8}path='\.\/mcq'/)
    expect(JSON.parse(readFileSync(first.schema, 'utf8'))).toMatchObject({ type: 'object', required: ['question', 'A', 'B', 'C', 'D'] })
    ws.close()
  })
})

describe('field schema', () => {
  const built = buildVariant({ ...recipe('dialogue'), sections: [...recipe('dialogue').sections, { id: 'x', name: 'Extra', template: 'Topic: {topic}', enabled: true }] })

  it('lists every placeholder with its place, the output column optional', () => {
    const schema = deriveSchema(built.infer_cfg, 'answer')
    expect(schema.map((f) => [f.name, f.required])).toEqual([
      ['question', true], ['A', true], ['B', true], ['C', true], ['D', true], ['topic', true], ['answer', false]
    ])
    const topic = schema.find((f) => f.name === 'topic')!
    expect(topic.uses[0].path).toBe('ice_template.template.round[0].prompt')
    const prompt = (built.infer_cfg.ice_template as { template: { round: { prompt: string }[] } }).template.round[0].prompt
    expect(prompt.slice(topic.uses[0].from, topic.uses[0].to)).toBe('{topic}')
  })

  it('makes a placeholder no column fills an error at its place', () => {
    const issues = unfilledPlaceholders(deriveSchema(built.infer_cfg, 'answer'), ['question', 'A', 'B', 'C', 'D', 'answer'])
    expect(issues.map((i) => [i.code, i.field, i.use?.path])).toEqual([
      ['unfilled-placeholder', 'topic', 'ice_template.template.round[0].prompt'],
      ['unfilled-placeholder', 'topic', 'prompt_template.template.round[0].prompt']
    ])
  })

  it('flags a missing field, an empty one, a value outside the allowed set and an image slot that is not an image', () => {
    const schema = deriveSchema({ prompt_template: { type: 'MMPromptTemplate', template: { round: [{ role: 'HUMAN', prompt_mm: { text: { type: 'text', text: '{question} {label}' }, image: { type: 'image_url', image_url: { url: '{image}' } } } }] } } })
    expect(schema.find((f) => f.name === 'image')!.kind).toBe('image')
    schema.find((f) => f.name === 'label')!.enum = ['A', 'B']
    expect(checkRow(schema, { question: 'q', label: 'A', image: 'pics/1.png' })).toEqual([])
    expect(checkRow(schema, { question: ' ', label: 'Z', image: 'notes.txt' }).map((i) => i.code)).toEqual(['empty-field', 'not-allowed', 'not-media'])
    expect(checkRow(schema, { label: 'A', image: { bytes: '…', path: null } }).map((i) => [i.code, i.field])).toEqual([['missing-field', 'question']])
  })

  it('exports the schema as JSON Schema', () => {
    const schema = deriveSchema({ prompt_template: { type: 'PromptTemplate', template: '{question} <img>{image}' } })
    schema[1].kind = 'image'
    expect(toJsonSchema(schema, 't')).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      required: ['question', 'image'],
      properties: { image: { contentMediaType: 'image/*' } }
    })
  })
})

describe('field schema edits', () => {
  it('apply the kind, required and allowed values the person set, and an emptied list allows any value', () => {
    const schema = deriveSchema({ prompt_template: { type: 'PromptTemplate', template: '{question} {pic} {label}' } })
    const edited = applyFieldEdits(schema, { pic: { kind: 'image' }, question: { required: false }, label: { enum: ['A', 'B'] } })
    expect(edited.map((f) => [f.name, f.kind, f.required, f.enum ?? null])).toEqual([
      ['question', 'text', false, null],
      ['pic', 'image', true, null],
      ['label', 'text', true, ['A', 'B']]
    ])
    expect(applyFieldEdits(edited, { label: { enum: [] } }).find((f) => f.name === 'label')!.enum).toBeUndefined()
  })

  it('check the rows and write the JSON Schema with them', async () => {
    const dir = mcqDataset()
    const ws = new Workspace(host, { curation: 'memory' })
    try {
      await ws.session.open(dir)
      const r: Recipe = { ...recipe('dialogue'), fields: { A: { enum: ['20', '22'] } } }
      const check = await ws.templates.checkRecipe(r)
      // Test rows 10, 11, 12 have A = 20, 22, 24: only the last is outside the allowed values.
      expect(check.rowIssues.map((i) => [i.code, i.field, i.count, i.rows])).toEqual([['not-allowed', 'A', 1, [2]]])
      const saved = await ws.templates.saveRecipe(r)
      expect(JSON.parse(readFileSync(saved.schema, 'utf8')).properties.A.enum).toEqual(['20', '22'])
    } finally {
      ws.close()
    }
  })
})

describe('wrap sections', () => {
  it('place the sections they wrap at {wrapped}, and nothing there before any is ticked', () => {
    const base = defaultRecipe('w', { question: 'q', choices: [], answer: 'a' }, 'string')
    const wrap = { id: 'added-1', name: 'Wrap', template: '<q>\n{wrapped}\n</q>', enabled: true, wraps: [] as string[] }
    const at = base.sections.findIndex((s) => s.id === 'answer_cue')
    const sections = [...base.sections.slice(0, at), wrap, ...base.sections.slice(at)]
    const text = (r: typeof base) => (buildVariant(r).infer_cfg.prompt_template as { template: string }).template
    expect(text({ ...base, sections })).toContain('<q>\n\n</q>')
    const ticked = sections.map((s) => (s.id === 'added-1' ? { ...s, wraps: ['question'] } : s))
    expect(text({ ...base, sections: ticked })).toContain('<q>\nQuestion: {q}\n</q>')
    expect(text({ ...base, sections: ticked })).not.toContain('{wrapped}')
  })
})
