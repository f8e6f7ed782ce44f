// How many renders of upstream dataset configs equal upstream's (issue #12).
//
//   node_modules/.bin/tsx test/tools/config-bench/measure-renders.ts TREE up.jsonl --family opencompass|aisbench \
//       [--repo DIR] [--per-config 3] [--work DIR]
//
// For every config of up.jsonl (upstream's dataset lists, from upstream_datasets.py) and its first --per-config
// datasets whose inferencer the upstream harness runs (Gen/PPL), it synthesizes rows (2 test, enough train for
// the retriever; label columns take the PPL template's labels), and two models: the LM parser with InternLM2's
// meta template, and the API parser with OpenAI's. Upstream renders from upstream's dataset dict with the real
// code (../shared/upstream/opencompass/harness, oc_run.py / ais_run.py, needs OC_CHECKOUT / AIS_CHECKOUT or
// TREE itself); PromptLoom renders from the dict its own importer (--repo) built from the same file, through
// its `conformance` command (out/main/cli.js of --repo: build it first). ../shared/conformance/check.mjs
// compares. A dataset PromptLoom does not import (or imports differently) is a render that is not equal.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ourImport } from './our-import'

const args = process.argv.slice(2)
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i >= 0 ? args.splice(i, 2)[1] : undefined
}
const repo = resolve(opt('--repo') ?? join(__dirname, '../../..'))
const family = (opt('--family') ?? 'opencompass') as 'opencompass' | 'aisbench'
const perConfig = Number(opt('--per-config') ?? 3)
const work = resolve(opt('--work') ?? join(repo, 'test-output', 'config-bench'))
const shared = resolve(opt('--shared') ?? process.env.PROMPTLOOM_SHARED ?? join(__dirname, '../../../../shared'))
const [tree, upFile] = args
if (!tree || !upFile) {
  console.error('usage: measure-renders.ts TREE up.jsonl --family opencompass|aisbench [--repo DIR] [--per-config N]')
  process.exit(2)
}
mkdirSync(work, { recursive: true })

type Json = any
const MODELS: { parser: 'lm' | 'api'; meta_template: Json; name: string }[] = [
  {
    name: 'internlm2-lm',
    parser: 'lm',
    meta_template: {
      round: [
        { role: 'HUMAN', begin: '<|im_start|>user\n', end: '<|im_end|>\n' },
        { role: 'BOT', begin: '<|im_start|>assistant\n', end: '<|im_end|>\n', generate: true }
      ],
      eos_token_id: 92542
    }
  },
  {
    name: 'openai-api',
    parser: 'api',
    meta_template: { round: [{ role: 'HUMAN', api_role: 'HUMAN' }, { role: 'BOT', api_role: 'BOT', generate: true }] }
  }
]
// OpenCompass runs through oc_run_extra.py: the shared harness plus the classes extra_goldens.py loads.
const HARNESS_INFERENCERS = new Set(['GenInferencer', 'PPLInferencer', ...(family === 'opencompass' ? ['CLPInferencer', 'LLInferencer', 'SWCELossInferencer', 'PPLOnlyInferencer', 'SCInferencer', 'AttackInferencer', 'ToTInferencer'] : [])])
const PPL_INFERENCERS = new Set(['PPLInferencer', 'LLInferencer'])
const HARNESS_RETRIEVERS = new Set(['ZeroRetriever', 'FixKRetriever', 'RandomRetriever', 'SlidingWindowRetriever', ...(family === 'opencompass' ? ['XiezhiRetriever'] : [])])

function labelsOf(infer: Json): Json[] | null {
  for (const k of ['prompt_template', 'ice_template']) {
    const t = infer?.[k]?.template
    if (t && typeof t === 'object' && !Array.isArray(t)) {
      if (Array.isArray(t.__label_dict__)) return t.__label_dict__.map((e: Json[]) => e[0])
      if (!('round' in t) && !('begin' in t)) return Object.keys(t)
    }
  }
  return null
}

function rows(reader: Json, infer: Json, n: number): Json[] {
  const cols: string[] = Array.isArray(reader?.input_columns) ? reader.input_columns : typeof reader?.input_columns === 'string' ? [reader.input_columns] : []
  const out: string | undefined = typeof reader?.output_column === 'string' ? reader.output_column : undefined
  const labels = labelsOf(infer)
  return Array.from({ length: n }, (_, i) => {
    const r: Record<string, Json> = {}
    for (const c of cols) r[c] = `${c} value ${i}`
    if (out) r[out] = labels ? labels[i % labels.length] : `${out} ${i}`
    // Columns the class reads with a shape of its own (not synthesizable as "col value i").
    if (infer?.inferencer?.type === 'CLPInferencer') r.choices = ['no', 'yes']
    if (infer?.inferencer?.type === 'LLInferencer') r.cont = `cont ${i}`
    if (infer?.retriever?.type === 'XiezhiRetriever') r.labels = [`label ${i % 2}`, 'common']
    if (String(infer?.prompt_template?.type ?? '').startsWith('OlympiadBench')) {
      Object.assign(r, { language: i % 2 ? 'Chinese' : 'English', subject: 'Math', question_type: 'Open-ended', answer_type: 'Numerical', is_multiple_answer: i % 2 === 1, unit: '' })
    }
    return r
  })
}

/** The harness's dataset has splits named train and test: other split names (dev, validation …) are mapped, on both sides. */
function splitsAsHarness(reader: Json): Json {
  if (!reader || typeof reader !== 'object') return reader
  const { train_split: _t, test_split: _s, ...rest } = reader
  return rest
}

function trainSize(infer: Json): number {
  const ids = infer?.retriever?.fix_id_list
  const k = Array.isArray(ids) && ids.length ? Math.max(...ids.filter((x: Json) => typeof x === 'number')) + 1 : 0
  return Math.max(5, k, Number(infer?.retriever?.ice_num ?? 0))
}

/**
 * Custom datasets (a dict without `type`, compassbench_v1): the run completes them from the data file's first row
 * (make_custom_dataset_config). A data file in the entry's style is written below --work (question, options A–D and
 * answer for an MCQ; the fields its prompts name for a QA); upstream completes the entry with the real function in
 * that folder (oc_run_extra.py, `custom_entry`), PromptLoom with completeCustomDataset as a project does (a meta_path
 * against the same folder), and both render the file's rows.
 */
async function customCases(d: Json, ours: Json, id: string): Promise<{ up: Json[]; ours: Json[] }> {
  const { completeCustomDataset } = (await import(pathToFileURL(join(repo, 'main/services/config/custom-datasets.ts')).href)) as typeof import('../../../main/services/config/custom-datasets')
  const cwd = join(work, 'custom', String(customCount++))
  const dataFile = resolve(cwd, String(d.path))
  const named = [d.human_prompt, d.bot_prompt].flatMap((p) => (typeof p === 'string' ? [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]) : []))
  const qa = d.data_type === 'qa'
  const out = typeof d.output_column === 'string' ? d.output_column : 'answer'
  const cols = [...new Set([...(named.length ? named : ['question']), ...(qa ? [] : ['A', 'B', 'C', 'D']), out])]
  const test = [0, 1].map((i) => Object.fromEntries(cols.map((c) => [c, c === out && !qa ? 'ABCD'[i] : `${c} value ${i}`])))
  mkdirSync(dirname(dataFile), { recursive: true })
  writeFileSync(dataFile, test.map((r) => JSON.stringify(r)).join('\n') + '\n')
  let reader: Json = {}
  let infer: Json = {}
  try {
    const done = (await completeCustomDataset({ ...(ours ?? {}), raw: ours?.raw ?? {} }, { configFile: resolve(cwd, 'config.py') })).dataset
    reader = done.reader_cfg
    infer = done.infer_cfg
  } catch {}
  const mode = infer?.inferencer?.type === 'PPLInferencer' ? 'ppl' : 'gen'
  const up: Json[] = []
  const our: Json[] = []
  for (const m of MODELS) {
    const base = { kind: 'pipeline', train: [], test, mode, parser: m.parser, meta_template: m.meta_template }
    up.push({ id: `${id}@${m.name}`, category: 'config-bench', input: { ...base, custom_entry: d, custom_cwd: cwd } })
    our.push({ id: `${id}@${m.name}`, family, category: 'config-bench', input: { ...base, reader_cfg: splitsAsHarness(reader), infer_cfg: infer } })
  }
  return { up, ours: our }
}
let customCount = 0

async function main(): Promise<void> {
  const { loadConfigFile } = (await import(pathToFileURL(join(repo, 'main/services/config/load-config.ts')).href)) as typeof import('../../../main/services/config/load-config')
  const ups = readFileSync(upFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string; datasets?: Json[]; error?: string })
  const upCases: Json[] = []
  const ourCases: Json[] = []
  let skipped = 0
  // Why each left-out dataset is left out: its inferencer or retriever, as the config names it.
  const leftOut = new Map<string, number>()
  for (const up of ups) {
    if (up.error || !up.datasets) continue
    const ours = ourImport(loadConfigFile, tree, up.file, work).datasets
    let taken = 0
    for (let i = 0; i < up.datasets.length && taken < perConfig; i++) {
      const d = up.datasets[i]
      if (family === 'opencompass' && d && typeof d === 'object' && !('type' in d)) {
        // A custom dataset: both sides complete it from the same data file (see customCases).
        taken++
        const c = await customCases(d, ours[i], `${up.file}#${i}`)
        upCases.push(...c.up)
        ourCases.push(...c.ours)
        continue
      }
      const inf = d?.infer_cfg
      if (!inf || !HARNESS_INFERENCERS.has(inf.inferencer?.type) || !HARNESS_RETRIEVERS.has(inf.retriever?.type)) {
        skipped++
        const why = !inf ? 'no infer_cfg' : !HARNESS_INFERENCERS.has(inf.inferencer?.type) ? `inferencer ${String(inf.inferencer?.type)}` : `retriever ${String(inf.retriever?.type)}`
        leftOut.set(why, (leftOut.get(why) ?? 0) + 1)
        continue
      }
      taken++
      const mode = PPL_INFERENCERS.has(inf.inferencer.type) ? 'ppl' : 'gen'
      const test = rows(d.reader_cfg, inf, 2)
      const train = rows(d.reader_cfg, inf, trainSize(inf))
      const o = ours[i]?.raw as Json
      for (const m of MODELS) {
        // LLInferencer on an API model fails upstream on the model class (no get_loglikelihood), which the
        // harness's stand-in API class cannot show: not measured.
        if (inf.inferencer.type === 'LLInferencer' && m.parser === 'api') continue
        const id = `${up.file}#${i}@${m.name}`
        const base = { kind: 'pipeline', train, test, mode, parser: m.parser, meta_template: m.meta_template }
        upCases.push({ id, category: 'config-bench', input: { ...base, reader_cfg: splitsAsHarness(d.reader_cfg), infer_cfg: inf } })
        ourCases.push({ id, family, category: 'config-bench', input: { ...base, reader_cfg: splitsAsHarness(o?.reader_cfg ?? {}), infer_cfg: o?.infer_cfg ?? {} } })
      }
    }
  }
  // Upstream: the harness runs the real code on upstream's dicts.
  const upIn = join(work, `${family}-up-cases.json`)
  writeFileSync(upIn, JSON.stringify(upCases))
  writeFileSync(join(work, 'bench_cases.py'), `import json\nCASES = json.load(open(${JSON.stringify(upIn)}))\n`)
  const harness = family === 'aisbench' ? join(shared, 'upstream/opencompass/harness/ais_run.py') : join(__dirname, 'oc_run_extra.py')
  const checkout = resolve(process.env[family === 'aisbench' ? 'AIS_CHECKOUT' : 'OC_CHECKOUT'] ?? tree)
  const upOut = join(work, `${family}-up-expected.jsonl`)
  const t0 = Date.now()
  const py = spawnSync('python3', [harness, checkout, upOut, '--cases', 'bench_cases', '--commit', 'config-bench'], {
    cwd: work,
    env: { ...process.env, PYTHONPATH: work, SHARED: shared },
    encoding: 'utf8',
    maxBuffer: 1 << 30
  })
  if (py.status !== 0) {
    console.error(py.stderr.slice(-3000))
    process.exit(1)
  }
  const expected = new Map(readFileSync(upOut, 'utf8').trim().split('\n').map((l) => {
    const r = JSON.parse(l)
    return [r.id, r.expected]
  }))
  // PromptLoom: the same rows and models, the dataset dict from its own import.
  const ourFile = join(work, `${family}-our-cases.jsonl`)
  const kept = ourCases.filter((c) => expected.has(c.id))
  writeFileSync(ourFile, kept.map((c) => JSON.stringify({ ...c, expected: expected.get(c.id) })).join('\n') + '\n')
  const cli = spawnSync(process.execPath, [join(repo, 'out/main/cli.js'), 'conformance', ourFile], { encoding: 'utf8', maxBuffer: 1 << 30 })
  if (cli.status !== 0) {
    console.error(cli.stderr.slice(-3000))
    process.exit(1)
  }
  const outputs = join(work, `${family}-our-outputs.jsonl`)
  writeFileSync(outputs, cli.stdout)
  const report = join(work, `${family}-report.json`)
  spawnSync(process.execPath, [join(shared, 'conformance/check.mjs'), ourFile, '--outputs', outputs, '--json', report, '--show', '0'], { encoding: 'utf8' })
  const r = JSON.parse(readFileSync(report, 'utf8'))
  const total = kept.length
  console.log(`renders equal to upstream's: ${r.passed} / ${total} (${family}; ${MODELS.length} models × up to ${perConfig} datasets per config; ${skipped} datasets with an inferencer or retriever the harness does not run left out) in ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  const why = new Map<string, number>()
  for (const f of r.failures) {
    const k = String(f.why).replace(/\d+/g, 'N').replace(/"[^"]{20,}"/g, '"…"').slice(0, 90)
    why.set(k, (why.get(k) ?? 0) + 1)
  }
  for (const [k, n] of [...why].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${String(n).padStart(5)}  ${k}`)
  console.log('left out, by reason:')
  for (const [k, n] of [...leftOut].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${k}`)
}

void main()
