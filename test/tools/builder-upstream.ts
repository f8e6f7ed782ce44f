// The prompt builder's configs run through real OpenCompass: each recipe is built (shared/builder), written as the
// .py config the app saves, rendered by `promptloom render` from that file, and the same reader_cfg/infer_cfg and
// rows are run by ../shared/upstream's harness on an OpenCompass checkout; the final prompts must be byte-identical.
// Needs the checkout (upstream commit a5acc4b), so it is a tool, not a CI test:
//   OC_CHECKOUT=/path/to/opencompass node_modules/.bin/tsx test/tools/builder-upstream.ts
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildVariant, defaultRecipe, guessRoles, type Recipe } from '../../shared/builder'
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
  process.exitCode = same === total ? 0 : 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
