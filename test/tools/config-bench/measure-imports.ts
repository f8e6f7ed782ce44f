// How many upstream dataset configs PromptLoom imports with upstream's dataset list (issue #12).
//
//   python3 test/tools/config-bench/upstream_datasets.py TREE CONFIGS_DIR up.jsonl     # upstream's lists
//   node_modules/.bin/tsx test/tools/config-bench/measure-imports.ts TREE up.jsonl [--repo DIR] [--json out.json]
//
// TREE is the same checkout the Python script ran on (file names in up.jsonl are relative to it). --repo picks
// the PromptLoom checkout whose config importer is measured (default: this one), so a before/after pair is two
// runs of the same script. A config counts as imported when it imports without an error and its dataset list
// equals upstream's: same length, same order, each dataset's whole dict equal as JSON (keys in any order;
// classes by name). Configs on which upstream itself fails are counted apart (and whether we fail too). A list
// upstream builds from a set of str (calm.py) has a random order upstream (str hashes are randomised per process):
// it counts when it holds the same datasets and PromptLoom warned about the order.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ourImport } from './our-import'

const args = process.argv.slice(2)
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i >= 0 ? args.splice(i, 2)[1] : undefined
}
const repo = resolve(opt('--repo') ?? join(__dirname, '../../..'))
const jsonOut = opt('--json')
const [tree, upFile] = args
if (!tree || !upFile) {
  console.error('usage: measure-imports.ts TREE up.jsonl [--repo DIR] [--json out.json]')
  process.exit(2)
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

function canon(j: Json): Json {
  if (Array.isArray(j)) return j.map(canon)
  if (j && typeof j === 'object') {
    const out: Record<string, Json> = {}
    for (const k of Object.keys(j).sort()) out[k] = canon(j[k])
    return out
  }
  return j
}
const same = (a: Json, b: Json): boolean => JSON.stringify(canon(a)) === JSON.stringify(canon(b))

/** The first difference between two JSON values, as a path, for the report. */
function firstDiff(a: Json, b: Json, path = ''): string {
  if (same(a, b)) return ''
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} items vs ${b.length}`
    for (let i = 0; i < a.length; i++) {
      const d = firstDiff(a[i], b[i], `${path}[${i}]`)
      if (d) return d
    }
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a) || !(k in b)) return `${path}.${k}: ${k in a ? 'only ours' : 'only upstream'}`
      const d = firstDiff(a[k], b[k], `${path}.${k}`)
      if (d) return d
    }
  }
  return `${path}: ${JSON.stringify(a).slice(0, 80)} vs ${JSON.stringify(b).slice(0, 80)}`
}

async function main(): Promise<void> {
  const { loadConfigFile } = (await import(pathToFileURL(join(repo, 'main/services/config/load-config.ts')).href)) as typeof import('../../../main/services/config/load-config')
  const ups = readFileSync(upFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string; datasets?: Json[]; error?: string })
  const counts = { total: ups.length, imported: 0, upstreamFails: 0, upstreamFailsWeFail: 0, orderRandom: 0 }
  const failures: { file: string; why: string }[] = []
  const reasons = new Map<string, number>()
  const t0 = Date.now()
  // chatml_datasets configs are imported through a run config written here (our-import.ts).
  const work = mkdtempSync(join(tmpdir(), 'plbench'))
  for (const up of ups) {
    const r = ourImport(loadConfigFile, tree, up.file, work)
    const err = r.diagnostics.find((d) => d.severity === 'error')
    if (up.error) {
      counts.upstreamFails++
      if (err || r.datasets.length === 0) counts.upstreamFailsWeFail++
      continue
    }
    let why = ''
    if (err) why = `error: ${err.message.replace(/'[^']*'/g, "'…'").slice(0, 90)}`
    else {
      const ours = r.datasets.map((d) => d.raw as Json)
      const theirs = up.datasets ?? []
      if (ours.length !== theirs.length) why = `list: ${ours.length} datasets vs upstream ${theirs.length}`
      else {
        const i = ours.findIndex((d, k) => !same(d, theirs[k]))
        // Upstream's order is random when the config builds the list from a set of str (calm.py): PromptLoom says
        // so in a warning; the list counts as upstream's when it holds the same datasets.
        const key = (d: Json): string => JSON.stringify(canon(d))
        const random = r.diagnostics.some((d) => d.message.startsWith('iterating a set of str'))
        if (i >= 0 && random && same(ours.map(key).sort(), theirs.map(key).sort())) counts.orderRandom++
        else if (i >= 0) why = `dataset differs: ${firstDiff(ours[i], theirs[i]).replace(/^\[\d+\]/, '')}`
      }
    }
    if (!why) {
      counts.imported++
      continue
    }
    failures.push({ file: up.file, why })
    const key = why.replace(/\d+/g, 'N').slice(0, 70)
    reasons.set(key, (reasons.get(key) ?? 0) + 1)
  }
  const comparable = counts.total - counts.upstreamFails
  rmSync(work, { recursive: true, force: true })
  console.log(`imported with upstream's dataset list: ${counts.imported} / ${comparable} (of ${counts.total} configs; upstream itself fails on ${counts.upstreamFails}, we fail on ${counts.upstreamFailsWeFail} of those; ${counts.orderRandom} whose order upstream randomises, same datasets, with a warning) in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  for (const [k, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${String(n).padStart(4)}  ${k}`)
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ counts, failures }, null, 1))
}

void main()
