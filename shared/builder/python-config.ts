// A built variant written as an ordinary dataset config (.py): PromptTemplate (or AISBench's MMPromptTemplate), the
// retriever, GenInferencer and CustomDataset imported from opencompass or ais_bench, values as Python literals. What
// the builder previewed is what `opencompass` / `ais_bench` (and `promptloom render --config`) will run from this file.
import { floatRepr, intRepr, strRepr } from '../python/repr'
import { CONTENT_SPEC_KEY } from './mm-content'
import type { BuiltVariant } from './recipe'

const IDENT = /^[A-Za-z_]\w*$/
export type Framework = 'opencompass' | 'aisbench'
// Class names a config imports and uses unquoted as `type=`, by the module each framework has them in.
const MODULES: Record<Framework, Record<string, string>> = {
  opencompass: {
    PromptTemplate: 'opencompass.openicl.icl_prompt_template',
    ZeroRetriever: 'opencompass.openicl.icl_retriever',
    FixKRetriever: 'opencompass.openicl.icl_retriever',
    RandomRetriever: 'opencompass.openicl.icl_retriever',
    BM25Retriever: 'opencompass.openicl.icl_retriever',
    GenInferencer: 'opencompass.openicl.icl_inferencer',
    CustomDataset: 'opencompass.datasets'
  },
  aisbench: {
    PromptTemplate: 'ais_bench.benchmark.openicl.icl_prompt_template',
    MMPromptTemplate: 'ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm',
    ZeroRetriever: 'ais_bench.benchmark.openicl.icl_retriever',
    FixKRetriever: 'ais_bench.benchmark.openicl.icl_retriever',
    RandomRetriever: 'ais_bench.benchmark.openicl.icl_retriever',
    BM25Retriever: 'ais_bench.benchmark.openicl.icl_retriever',
    GenInferencer: 'ais_bench.benchmark.openicl.icl_inferencer',
    CustomDataset: 'ais_bench.benchmark.datasets'
  }
}
const CLASSES = new Set(Object.values(MODULES).flatMap((m) => Object.keys(m)))

/** A JSON value as Python source: dict(k=…) when every key is an identifier, {…} otherwise; `type` names a class. */
export function pyLiteral(v: unknown, indent = 0, key?: string): string {
  const pad = '    '.repeat(indent + 1)
  const end = '    '.repeat(indent)
  if (v === null || v === undefined) return 'None'
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'number') return Number.isInteger(v) ? intRepr(v) : floatRepr(v)
  if (typeof v === 'string') return key === 'type' && CLASSES.has(v) ? v : strRepr(v)
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]'
    if (v.every((x) => typeof x !== 'object' || x === null)) return `[${v.map((x) => pyLiteral(x)).join(', ')}]`
    return `[\n${v.map((x) => `${pad}${pyLiteral(x, indent + 1)},`).join('\n')}\n${end}]`
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined)
  if (entries.length === 0) return 'dict()'
  if (entries.every(([k]) => IDENT.test(k))) return `dict(\n${entries.map(([k, x]) => `${pad}${k}=${pyLiteral(x, indent + 1, k)},`).join('\n')}\n${end})`
  return `{\n${entries.map(([k, x]) => `${pad}${strRepr(k)}: ${pyLiteral(x, indent + 1, k)},`).join('\n')}\n${end}}`
}

function usedClasses(v: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => usedClasses(x, out))
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'type' && typeof x === 'string' && CLASSES.has(x)) out.add(x)
      else usedClasses(x, out)
    }
  }
  return out
}

/** The framework that runs a built variant: AISBench for MMPromptTemplate, OpenCompass otherwise. */
function frameworkOf(v: BuiltVariant): Framework {
  const t = v.infer_cfg.prompt_template as { type?: unknown } | undefined
  return t?.type === 'MMPromptTemplate' ? 'aisbench' : 'opencompass'
}

/**
 * The config text. `datasetPath` is written as given (relative paths are read from the config's folder by PromptLoom
 * and from the working folder by OpenCompass and AISBench: run it from the config's folder). The builder's content
 * composition (promptloom_content) is PromptLoom's preview only: the saved config reads the composed data instead.
 */
export function toConfigText(v: BuiltVariant, datasetPath: string): string {
  const framework = frameworkOf(v)
  const modules = MODULES[framework]
  const infer_cfg = Object.fromEntries(Object.entries(v.infer_cfg).filter(([k]) => k !== CONTENT_SPEC_KEY))
  const name = v.abbr.replace(/\W+/g, '_').replace(/^(\d)/, '_$1')
  const dataset = { abbr: v.abbr, type: 'CustomDataset', path: datasetPath, reader_cfg: `${name}_reader_cfg`, infer_cfg: `${name}_infer_cfg` }
  const classes = [...usedClasses({ ...infer_cfg, dataset }, new Set(['CustomDataset']))].sort()
  const byModule = new Map<string, string[]>()
  for (const c of classes) byModule.set(modules[c], [...(byModule.get(modules[c]) ?? []), c])
  const imports = [...byModule].sort(([a], [b]) => (a < b ? -1 : 1)).map(([m, cs]) => `from ${m} import ${cs.join(', ')}`)
  const datasetText = pyLiteral(dataset, 1).replace(`reader_cfg=${strRepr(dataset.reader_cfg)}`, `reader_cfg=${dataset.reader_cfg}`).replace(`infer_cfg=${strRepr(dataset.infer_cfg)}`, `infer_cfg=${dataset.infer_cfg}`)
  const header =
    framework === 'aisbench'
      ? [
          `# Written by PromptLoom's prompt builder: an AISBench dataset config. MMPromptTemplate reads each row's content`,
          `# (AIS content tags) and places no in-context examples, so the builder composed the content — examples with their`,
          `# media, then the row's media and question — into the data file this config reads. The prompts PromptLoom showed`,
          `# are the prompts this config builds; the field schema of the source columns is in the .schema.json beside it.`
        ]
      : [
          `# Written by PromptLoom's prompt builder: an OpenCompass dataset config. The prompts PromptLoom showed are the`,
          `# prompts this config builds; the field schema the template needs is in the .schema.json beside it.`
        ]
  return [
    ...header,
    ...imports,
    '',
    `${name}_reader_cfg = ${pyLiteral(v.reader_cfg)}`,
    '',
    `${name}_infer_cfg = ${pyLiteral(infer_cfg)}`,
    '',
    `${name}_datasets = [\n    ${datasetText},\n]`,
    ''
  ].join('\n')
}
