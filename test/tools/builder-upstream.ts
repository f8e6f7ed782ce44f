// The prompt builder's configs run through real OpenCompass: each recipe is built (shared/builder), written as the
// .py config the app saves, rendered by `promptloom render` from that file, and the same reader_cfg/infer_cfg and
// rows are run by ../shared/upstream's harness on an OpenCompass checkout; the final prompts must be byte-identical.
// The multimodal shape's AISBench config runs through real AISBench the same way (AIS_CHECKOUT). Needs the checkouts
// (upstream commits a5acc4b, 29c363e), so it is a tool, not a CI test:
//   OC_CHECKOUT=/path/to/opencompass AIS_CHECKOUT=/path/to/aisbench node_modules/.bin/tsx test/tools/builder-upstream.ts
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { CONTENT_SPEC_KEY, buildVariant, composeContent, defaultRecipe, guessRoles, type ContentSpec, type Recipe } from '../../shared/builder'
import { toConfigText } from '../../shared/builder/python-config'

const repo = resolve(__dirname, '../..')
const harness = resolve(repo, '../shared/upstream/opencompass/harness')
const checkout = process.env.OC_CHECKOUT
if (!checkout) {
  console.error('set OC_CHECKOUT to an OpenCompass checkout (commit a5acc4b)')
  process.exit(2)
}

// Rows with what trips string formatting: braces, quotes, CJK, a trailing space, an empty option.
const rows = [
  { question: 'Which city is the capital of France?', A: 'Paris', B: 'Lyon', C: 'Nice', D: 'Lille', answer: 'A' },
  { question: 'What does {x} print in Python f-strings?', A: 'x', B: '{x}', C: 'the value of x', D: 'an error', answer: 'C' },
  { question: '天空是什么颜色？', A: '蓝色', B: '绿色', C: '红色', D: '', answer: 'A' },
  { question: 'Pick the prime: ', A: '4', B: '6', C: '7', D: '9', answer: 'C' },
  { question: 'She said "hi" and left.', A: 'quoted', B: 'plain', C: 'both', D: 'none', answer: 'A' },
  { question: 'What is 2 + 2?', A: '3', B: '4', C: '5', D: '22', answer: 'B' },
  { question: 'Which is a mammal?', A: 'Shark', B: 'Trout', C: 'Dolphin', D: 'Eel', answer: 'C' }
]
const train = rows.slice(0, 4)
const test = rows.slice(4)

function recipe(shape: Recipe['shape'], selector: Recipe['selector'], abbr: string): Recipe {
  const r = defaultRecipe(abbr, guessRoles(Object.keys(rows[0])), shape)
  return { ...r, selector }
}
const recipes: Recipe[] = [
  recipe('string', { kind: 'fixed', ids: [0, 1, 2] }, 'mcq-string-3shot'),
  recipe('string', { kind: 'none' }, 'mcq-string-0shot'),
  recipe('dialogue', { kind: 'fixed', ids: [0, 2, 3] }, 'mcq-dialogue-3shot'),
  recipe('dialogue', { kind: 'random', k: 2, seed: 7 }, 'mcq-dialogue-random')
]
/**
 * The multimodal shape: each test row's content composed (composeContent, as the app composes it), written as the
 * data the saved AISBench config reads; `promptloom render` of that config through the API model against AISBench's
 * own MMPromptTemplate + APITemplateParser + VLLMCustomAPIChat request body on the same rows.
 */
function multimodalAgainstAisbench(aisCheckout: string, dir: string): { same: number; total: number } {
  const pics = ['red', 'green', 'blue', 'cyan', 'pink', 'gold', 'gray'].map((c, i) => join(dir, `pic-${i}-${c}.png`))
  for (const p of pics) writeFileSync(p, '')
  const mmRows = rows.map((r, i) => ({ ...r, image: pics[i] }))
  const r = { ...defaultRecipe('mcq-mm-3shot', guessRoles(Object.keys(mmRows[0])), 'multimodal'), selector: { kind: 'fixed' as const, ids: [0, 2, 3] } }
  const v = buildVariant(r)
  const spec = v.infer_cfg[CONTENT_SPEC_KEY] as ContentSpec
  const composed = mmRows.slice(4).map((row) => ({ ...row, content: composeContent(spec, row, mmRows.slice(0, 4)).content }))
  const data = join(dir, 'mcq-mm-3shot_gen.content.jsonl')
  writeFileSync(data, composed.map((x) => JSON.stringify(x)).join('\n') + '\n')
  const config = join(dir, 'mcq-mm-3shot_gen.py')
  writeFileSync(config, toConfigText(v, './mcq-mm-3shot_gen.content.jsonl'))
  const api = JSON.parse(readFileSync(join(repo, 'assets/profiles/opencompass-api.json'), 'utf8')) as { meta_template: unknown }
  const out = spawnSync(process.execPath, [join(repo, 'out/main/cli.js'), 'render', '--config', config, '--model', 'opencompass-api'], { encoding: 'utf8' })
  if (out.status !== 0) throw new Error(`render multimodal: ${out.stderr}`)
  const ours = out.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { index: number; prompt: unknown })
  const { [CONTENT_SPEC_KEY]: _composition, ...infer_cfg } = v.infer_cfg
  const cases = [{ id: 'builder-mm', category: 'builder', input: { kind: 'pipeline', reader_cfg: v.reader_cfg, infer_cfg, train: [], test: composed, meta_template: api.meta_template, parser: 'api', mode: 'gen' } }]
  writeFileSync(join(dir, 'builder_mm_cases.py'), `import json\nCASES = json.loads(${JSON.stringify(JSON.stringify(cases))})\n`)
  const up = spawnSync('python3', [join(harness, 'ais_run.py'), aisCheckout, join(dir, 'up-mm.jsonl'), '--cases', 'builder_mm_cases'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: `${dir}:${harness}`, TMPDIR: dir } })
  if (up.status !== 0) throw new Error(`upstream (AISBench): ${up.stderr}`)
  let same = 0
  let total = 0
  for (const line of readFileSync(join(dir, 'up-mm.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const c = JSON.parse(line) as { expected: { items?: { index: number; messages: unknown }[]; error?: string } }
    if (!c.expected.items) throw new Error(`AISBench failed: ${c.expected.error}`)
    for (const it of c.expected.items) {
      total++
      const mine = ours.find((o) => o.index === it.index)?.prompt
      // Compared as the conformance checker compares: strings byte for byte, key order free.
      if (isDeepStrictEqual(mine, it.messages)) same++
      else console.log(`multimodal row ${it.index}:\n  AISBench ${JSON.stringify(it.messages)}\n  ours     ${JSON.stringify(mine)}`)
    }
  }
  console.log(`multimodal shape: ${same} of ${total} requests identical with AISBench (3 fixed examples with pictures, API model)`)
  return { same, total }
}

const models = ['chatml', 'llama3', 'internlm2'].map((m) => join(repo, 'assets/demo/models', `${m}.json`))

const dir = mkdtempSync(join(tmpdir(), 'pl-builder-upstream-'))
try {
  writeFileSync(join(dir, 'train.jsonl'), train.map((r) => JSON.stringify(r)).join('\n') + '\n')
  writeFileSync(join(dir, 'test.jsonl'), test.map((r) => JSON.stringify(r)).join('\n') + '\n')
  const cases: unknown[] = []
  const ours = new Map<string, string>()
  for (const r of recipes) {
    const v = buildVariant(r)
    const config = join(dir, `${r.abbr}.py`)
    writeFileSync(config, toConfigText(v, '.'))
    for (const model of models) {
      const profile = JSON.parse(readFileSync(model, 'utf8')) as { id: string; meta_template: unknown }
      const out = spawnSync(process.execPath, [join(repo, 'out/main/cli.js'), 'render', '--config', config, '--dataset', dir, '--model', model], { encoding: 'utf8' })
      if (out.status !== 0) throw new Error(`render ${r.abbr} ${profile.id}: ${out.stderr}`)
      for (const line of out.stdout.split('\n').filter(Boolean)) {
        const l = JSON.parse(line) as { index: number; prompt: string }
        ours.set(`${r.abbr}|${profile.id}|${l.index}`, l.prompt)
      }
      cases.push({
        id: `${r.abbr}|${profile.id}`,
        category: 'builder',
        input: { kind: 'pipeline', reader_cfg: v.reader_cfg, infer_cfg: v.infer_cfg, train, test, meta_template: profile.meta_template, parser: 'lm', mode: 'gen' }
      })
    }
  }
  writeFileSync(join(dir, 'builder_cases.py'), `import json\nCASES = json.loads(${JSON.stringify(JSON.stringify(cases))})\n`)
  const up = spawnSync('python3', [join(harness, 'oc_run.py'), checkout, join(dir, 'up.jsonl'), '--cases', 'builder_cases'], {
    encoding: 'utf8',
    // The harness makes a temporary folder per case; keep them inside ours, which is removed at the end.
    env: { ...process.env, PYTHONPATH: `${dir}:${harness}`, TMPDIR: dir }
  })
  if (up.status !== 0) throw new Error(`upstream: ${up.stderr}`)
  let same = 0
  let total = 0
  for (const line of readFileSync(join(dir, 'up.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const c = JSON.parse(line) as { id: string; expected: { items?: { index: number; model_input: unknown }[]; error?: string } }
    if (!c.expected.items) {
      console.log(`${c.id}: upstream failed: ${c.expected.error}`)
      total++
      continue
    }
    for (const it of c.expected.items) {
      total++
      const mine = ours.get(`${c.id}|${it.index}`)
      if (mine === it.model_input) same++
      else console.log(`${c.id} row ${it.index}:\n  upstream ${JSON.stringify(it.model_input)}\n  ours     ${JSON.stringify(mine)}`)
    }
  }
  console.log(`builder configs: ${same} of ${total} prompts byte-identical with OpenCompass (${recipes.length} recipes × ${models.length} meta templates × ${test.length} rows)`)
  const mm = process.env.AIS_CHECKOUT ? multimodalAgainstAisbench(process.env.AIS_CHECKOUT, dir) : null
  if (!mm) console.log('multimodal shape: skipped (set AIS_CHECKOUT to an AISBench checkout, commit 29c363e)')
  process.exitCode = same === total && (!mm || mm.same === mm.total) ? 0 : 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
