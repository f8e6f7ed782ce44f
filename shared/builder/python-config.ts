// A built variant written as an ordinary OpenCompass dataset config (.py): PromptTemplate, retriever, GenInferencer
// and CustomDataset imported from opencompass, values as Python literals. What the builder previewed is what
// `opencompass` (and `promptloom render --config`) will run from this file.
import { floatRepr, intRepr, strRepr } from '../python/repr'
import type { BuiltVariant } from './recipe'

const IDENT = /^[A-Za-z_]\w*$/
// Class names a config imports and uses unquoted as `type=`.
const CLASSES: Record<string, string> = {
  PromptTemplate: 'opencompass.openicl.icl_prompt_template',
  ZeroRetriever: 'opencompass.openicl.icl_retriever',
  FixKRetriever: 'opencompass.openicl.icl_retriever',
  RandomRetriever: 'opencompass.openicl.icl_retriever',
  BM25Retriever: 'opencompass.openicl.icl_retriever',
  GenInferencer: 'opencompass.openicl.icl_inferencer',
  CustomDataset: 'opencompass.datasets'
}

/** A JSON value as Python source: dict(k=…) when every key is an identifier, {…} otherwise; `type` names a class. */
export function pyLiteral(v: unknown, indent = 0, key?: string): string {
  const pad = '    '.repeat(indent + 1)
  const end = '    '.repeat(indent)
  if (v === null || v === undefined) return 'None'
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'number') return Number.isInteger(v) ? intRepr(v) : floatRepr(v)
  if (typeof v === 'string') return key === 'type' && v in CLASSES ? v : strRepr(v)
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
      if (k === 'type' && typeof x === 'string' && x in CLASSES) out.add(x)
      else usedClasses(x, out)
    }
  }
  return out
}

/**
 * The config text. `datasetPath` is written as given (relative paths are read from the config's folder by PromptLoom
 * and from the working folder by OpenCompass: run it from the config's folder).
 */
export function toOpenCompassConfig(v: BuiltVariant, datasetPath: string): string {
  const name = v.abbr.replace(/\W+/g, '_').replace(/^(\d)/, '_$1')
  const dataset = { abbr: v.abbr, type: 'CustomDataset', path: datasetPath, reader_cfg: `${name}_reader_cfg`, infer_cfg: `${name}_infer_cfg` }
  const classes = [...usedClasses({ ...v.infer_cfg, dataset }, new Set(['CustomDataset']))].sort()
  const byModule = new Map<string, string[]>()
  for (const c of classes) byModule.set(CLASSES[c], [...(byModule.get(CLASSES[c]) ?? []), c])
  const imports = [...byModule].sort(([a], [b]) => (a < b ? -1 : 1)).map(([m, cs]) => `from ${m} import ${cs.join(', ')}`)
  const datasetText = pyLiteral(dataset, 1).replace(`reader_cfg=${strRepr(dataset.reader_cfg)}`, `reader_cfg=${dataset.reader_cfg}`).replace(`infer_cfg=${strRepr(dataset.infer_cfg)}`, `infer_cfg=${dataset.infer_cfg}`)
  return [
    `# Written by PromptLoom's prompt builder: an OpenCompass dataset config. The prompts PromptLoom showed are the`,
    `# prompts this config builds; the field schema the template needs is in the .schema.json beside it.`,
    ...imports,
    '',
    `${name}_reader_cfg = ${pyLiteral(v.reader_cfg)}`,
    '',
    `${name}_infer_cfg = ${pyLiteral(v.infer_cfg)}`,
    '',
    `${name}_datasets = [\n    ${datasetText},\n]`,
    ''
  ].join('\n')
}
