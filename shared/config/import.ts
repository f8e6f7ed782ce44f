// Config import: reads an OpenCompass/AISBench config — a Python config file (read without running Python),
// or JSON/YAML of the same shape with `type` as the class-name string — and finds its dataset configs
// (`*_datasets` lists of dicts with abbr/reader_cfg/infer_cfg) and model configs (`models` lists).

import type { Node as YamlNode } from 'yaml'
import type { EvalLimits } from './python-budget'
import { evaluatePythonConfig, type ConfigInput, type ConfigResolver, type ConfigTextReader } from './python-config'
import { CHATML_TEMPLATE_MODULE, constructChatmlDatasets, readChatmlTemplate } from './chatml'
import { PyDict, PyError, PyList, PyTuple, fromJson, pyRepr, toJson, type Json, type PyValue } from './python-values'
import { configDiagnostic } from './config-diagnostic'
import { LineMap, rangeFromOffsets, type Diagnostic } from '../diagnostics'

export type { ConfigInput, ConfigResolver, ConfigTextReader } from './python-config'
export type { Json } from './python-values'

export interface DatasetConfig {
  /** The variable the dataset came from (e.g. 'gsm8k_datasets') and its position in that list. */
  variable: string
  index: number
  abbr?: string
  type?: string
  path?: string
  reader_cfg: Record<string, Json>
  infer_cfg: Record<string, Json>
  eval_cfg?: Record<string, Json>
  /** The whole dict as written (after evaluation). */
  raw: Record<string, Json>
}

export interface ModelConfig {
  variable: string
  index: number
  abbr?: string
  type?: string
  path?: string
  meta_template?: Json
  max_seq_len?: number
  max_out_len?: number
  batch_size?: number
  raw: Record<string, Json>
}

export interface ImportedConfig {
  datasets: DatasetConfig[]
  models: ModelConfig[]
  variables: Record<string, Json>
  diagnostics: Diagnostic[]
  /** Files the config read with open() and environment variables it asked for (Python configs). */
  inputs: ConfigInput[]
}

/**
 * The `yaml` package's functions a YAML config is read with. The host hands them over only for a YAML config, so
 * that opening any other config never loads the package (tens of ms on each thread that opens a project).
 */
export type YamlLib = Pick<typeof import('yaml'), 'parseDocument' | 'isMap' | 'isScalar' | 'isSeq'>

interface ImportBase {
  file: string
  /** For Python configs: finds the files named in `with read_base():` imports. */
  resolve?: ConfigResolver
  /** For Python configs: reads a file the config opens (the host applies its root rules). */
  readText?: ConfigTextReader
  limits?: Partial<EvalLimits>
}

export type ImportOptions = ImportBase & ({ format: 'python' } | { format: 'json' } | { format: 'yaml'; yaml: YamlLib })

/** Picks the format from a file name: .py → python, .yaml/.yml → yaml, anything else json. */
export function configFormatOf(file: string): ImportOptions['format'] {
  if (/\.py$/i.test(file)) return 'python'
  if (/\.ya?ml$/i.test(file)) return 'yaml'
  return 'json'
}

export function importConfig(text: string, options: ImportOptions): ImportedConfig {
  const { file } = options
  let values: Map<string, PyValue>
  let diagnostics: Diagnostic[]
  let inputs: ConfigInput[] = []
  if (options.format === 'python') {
    const r = evaluatePythonConfig(text, { file, resolve: options.resolve, readText: options.readText, limits: options.limits })
    values = r.values
    diagnostics = r.diagnostics
    inputs = r.inputs
  } else {
    const r = options.format === 'json' ? readJson(text, file) : readYaml(text, file, options.yaml)
    diagnostics = r.diagnostics
    values = topLevel(r.value)
  }
  const variables: Record<string, Json> = {}
  for (const [k, v] of values) variables[k] = toJson(v)
  const chatml = values.has('chatml_datasets') ? chatmlRunDatasets(values, options, diagnostics) : null
  const datasets = chatml ?? findDatasets(values)
  if (datasets.some((d) => d.variable !== 'datasets')) diagnostics.push(...duplicateDatasetWarnings(datasets, values, file))
  if (!datasets.some((d) => d.variable === 'datasets')) diagnostics.push(...notAListErrors(values, file))
  return { datasets, models: findModels(values), variables, diagnostics, inputs }
}

/** A bare dataset dict or a list of them is accepted as well as an object of named variables. */
function topLevel(v: PyValue): Map<string, PyValue> {
  const out = new Map<string, PyValue>()
  if (v instanceof PyList) out.set('datasets', v)
  else if (v instanceof PyDict && isDatasetDict(v)) out.set('datasets', new PyList([v]))
  else if (v instanceof PyDict) for (const [k, x] of v.entries()) out.set(String(k), x)
  return out
}

function readJson(text: string, file: string): { value: PyValue; diagnostics: Diagnostic[] } {
  try {
    return { value: fromJson(JSON.parse(text)), diagnostics: [] }
  } catch (e) {
    // V8 reports "… at position N" (and newer builds line/column); turn the offset into a line and column.
    const msg = e instanceof Error ? e.message : String(e)
    const pos = /position (\d+)/.exec(msg)
    const offset = pos ? Number(pos[1]) : 0
    return { value: null, diagnostics: [configDiagnostic(file, rangeFromOffsets(text, offset, offset), msg)] }
  }
}

function readYaml(text: string, file: string, yaml: YamlLib): { value: PyValue; diagnostics: Diagnostic[] } {
  const doc = yaml.parseDocument(text, { uniqueKeys: false })
  const lines = new LineMap(text)
  const diagnostics: Diagnostic[] = [...doc.errors, ...doc.warnings].map((e) =>
    configDiagnostic(file, lines.range(e.pos[0], e.pos[1]), e.message.split('\n')[0], doc.errors.includes(e as never) ? 'error' : 'warning')
  )
  if (doc.errors.length) return { value: null, diagnostics }
  return { value: yamlValue(doc.contents as YamlNode | null, yaml), diagnostics }
}

/** Walks the YAML tree so int/bool mapping keys stay typed (PPL label templates keyed 0/1). */
function yamlValue(node: YamlNode | null | undefined, yaml: YamlLib): PyValue {
  if (!node) return null
  if (yaml.isScalar(node)) {
    const v = node.value
    if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v
    return String(v)
  }
  if (yaml.isSeq(node)) return new PyList(node.items.map((x) => yamlValue(x as YamlNode, yaml)))
  if (yaml.isMap(node)) {
    const d = new PyDict()
    for (const pair of node.items) {
      const k = yamlValue(pair.key as YamlNode, yaml)
      d.set(k instanceof PyList ? new PyTuple(k.items) : k, yamlValue(pair.value as YamlNode, yaml))
    }
    // {"__label_dict__": [[k, v], …]} written out in YAML decodes like the JSON form.
    if (d.size === 1 && d.get('__label_dict__') instanceof PyList) return fromJson(toJson(d))
    return d
  }
  return null
}

function isDatasetDict(v: PyValue): v is PyDict {
  return v instanceof PyDict && v.get('infer_cfg') instanceof PyDict
}

function isModelDict(v: PyValue): v is PyDict {
  return v instanceof PyDict && (v.has('meta_template') || v.has('max_seq_len') || v.has('path') || v.has('abbr')) && !v.has('infer_cfg')
}

/** A `type` written as a dotted path ('opencompass.openicl.…PromptTemplate', as dumped configs hold) → class name. */
function normalizeTypes(j: Json): Json {
  if (Array.isArray(j)) return j.map(normalizeTypes)
  if (j && typeof j === 'object') {
    const out: Record<string, Json> = {}
    for (const [k, v] of Object.entries(j)) {
      out[k] = k === 'type' && typeof v === 'string' && /^[\w.]+\.\w+$/.test(v) ? (v.split('.').pop() as string) : normalizeTypes(v)
    }
    return out
  }
  return j
}

/** Lists held by the variables whose names match, flattened one level, each dict once (by identity). */
function collect(values: Map<string, PyValue>, names: (n: string) => boolean, accept: (v: PyValue) => boolean): { variable: string; index: number; value: PyDict }[] {
  const seen = new Set<PyValue>()
  const out: { variable: string; index: number; value: PyDict }[] = []
  for (const [name, v] of values) {
    if (!names(name)) continue
    const items = v instanceof PyList || v instanceof PyTuple ? v.items : [v]
    let index = 0
    const visit = (x: PyValue): void => {
      if (x instanceof PyList || x instanceof PyTuple) x.items.forEach(visit)
      else if (accept(x) && !seen.has(x)) {
        seen.add(x)
        out.push({ variable: name, index: index++, value: x as PyDict })
      }
    }
    items.forEach(visit)
  }
  return out
}

/** Every dict item of the matching variables, repeats kept (upstream's `datasets += cfg[k]`). */
function collectAll(values: Map<string, PyValue>, names: (n: string) => boolean): { variable: string; index: number; value: PyDict }[] {
  const out: { variable: string; index: number; value: PyDict }[] = []
  for (const [name, v] of values) {
    if (!names(name) || !(v instanceof PyList || v instanceof PyTuple)) continue
    v.items.forEach((x, index) => {
      if (x instanceof PyDict) out.push({ variable: name, index, value: x })
    })
  }
  return out
}

/**
 * A `*_datasets` variable that is a dict or a str (chatobj_custom_gen.py's `chatobj_custom_datasets = dict(…)`, the
 * template run.py's consturct_chatml_datasets merges into each `chatml_datasets` entry): `--datasets` does
 * `datasets += cfg[k]`, which adds the dict's keys (or the str's characters) as datasets, and the run fails on the
 * first one when dataset_abbr_from_cfg reads `cfg['path']` of a str.
 */
function notAListErrors(values: Map<string, PyValue>, file: string): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const [name, v] of values) {
    if (!name.endsWith('_datasets') || name.startsWith('__')) continue
    const items = v instanceof PyDict ? v.keys() : typeof v === 'string' ? [...v] : null
    if (!items || items.length === 0) continue
    const what = v instanceof PyDict ? `a dict, so its keys (${items.map((k) => pyRepr(k)).join(', ')}) are` : `a str, so its characters are`
    out.push(
      configDiagnostic(
        file,
        null,
        `${name} is ${what} what upstream's \`--datasets\` adds as datasets (\`datasets += cfg[k]\`); ${typeof items[0] === 'string' ? `OpenCompass then fails with TypeError: string indices must be integers, not 'str' (dataset_abbr_from_cfg reads ${pyRepr(items[0])}['path'])` : `OpenCompass then fails on ${pyRepr(items[0])}, which is not a dataset dict`}${name === 'chatobj_custom_datasets' ? ". This file is the template OpenCompass's run.py merges into each entry of a run config's `chatml_datasets`" : ''}`,
        'error'
      )
    )
  }
  return out
}

/** Datasets listed more than once (the same dict reached through two `*_datasets` variables): say so. */
function duplicateDatasetWarnings(datasets: DatasetConfig[], values: Map<string, PyValue>, file: string): Diagnostic[] {
  const byDict = new Map<PyValue, string[]>()
  for (const d of datasets) {
    const dict = (values.get(d.variable) as PyList | PyTuple).items[d.index]
    byDict.set(dict, [...(byDict.get(dict) ?? []), `${d.variable}[${d.index}]`])
  }
  const out: Diagnostic[] = []
  for (const [dict, places] of byDict) {
    if (places.length < 2) continue
    const abbr = dict instanceof PyDict ? dict.get('abbr') : undefined
    out.push(
      configDiagnostic(
        file,
        null,
        `dataset ${typeof abbr === 'string' ? `'${abbr}' ` : ''}is listed ${places.length} times (${places.join(', ')}): upstream's --datasets concatenates every *_datasets variable, so it runs it ${places.length} times too`,
        'warning'
      )
    )
  }
  return out
}

const str = (j: Json | undefined): string | undefined => (typeof j === 'string' ? j : undefined)
const num = (j: Json | undefined): number | undefined => (typeof j === 'number' ? j : undefined)
const obj = (j: Json | undefined): Record<string, Json> => (j && typeof j === 'object' && !Array.isArray(j) ? j : {})

/**
 * The datasets a config runs, as upstream lists them. A run config's top-level `datasets` is what
 * `opencompass run CONFIG` / `ais_bench CONFIG` run. For a dataset config, `--datasets NAME` concatenates every
 * variable whose name ends in `_datasets`, in definition order, without removing repeats: a dataset reached
 * through two such variables (an imported `x_datasets` and a local list holding the same dicts) is run twice,
 * and is listed twice here (with a warning, see duplicateDatasetWarnings).
 */
function findDatasets(values: Map<string, PyValue>): DatasetConfig[] {
  const hasRunList = collect(values, (n) => n === 'datasets', isDatasetDict).length > 0
  const picked = hasRunList ? collect(values, (n) => n === 'datasets', isDatasetDict) : collectAll(values, (n) => n.endsWith('_datasets'))
  return picked.map(({ variable, index, value }) => datasetConfig(variable, index, toJson(value)))
}

function datasetConfig(variable: string, index: number, value: Json): DatasetConfig {
  const raw = obj(normalizeTypes(value))
  return {
    variable,
    index,
    abbr: str(raw.abbr),
    type: str(raw.type),
    path: str(raw.path),
    // A reader_cfg that is not a dict (`reader_cfg = {…},` is a tuple) is kept as it is: upstream fails on it
    // when it builds the dataset, and so does the render (pipeline checkReaderCfg), saying why.
    reader_cfg: Array.isArray(raw.reader_cfg) ? (raw.reader_cfg as unknown as Record<string, Json>) : obj(raw.reader_cfg),
    infer_cfg: obj(raw.infer_cfg),
    eval_cfg: raw.eval_cfg === undefined ? undefined : obj(raw.eval_cfg),
    raw
  }
}

/**
 * A run config with `chatml_datasets`: upstream's run reads config['datasets'] first (a KeyError without it), then
 * appends the datasets consturct_chatml_datasets builds from the template module (shared/config/chatml.ts), which
 * is resolved like a read_base import of this config.
 */
function chatmlRunDatasets(values: Map<string, PyValue>, options: ImportOptions, diagnostics: Diagnostic[]): DatasetConfig[] {
  const { file } = options
  const fail = (message: string): void => void diagnostics.push(configDiagnostic(file, null, message))
  const out = collectAll(values, (n) => n === 'datasets').map(({ variable, index, value }) => datasetConfig(variable, index, toJson(value)))
  if (!values.has('datasets')) fail("KeyError: 'datasets' — OpenCompass's run reads the config's `datasets` (try_fill_in_custom_cfgs) before it adds chatml_datasets, so this run config fails upstream; `datasets = []` makes it run")
  const found = options.resolve?.(CHATML_TEMPLATE_MODULE, file)
  if (!found) {
    fail(`chatml_datasets: OpenCompass builds these datasets from ${CHATML_TEMPLATE_MODULE}, which is not found from this config (open it inside an OpenCompass checkout)`)
    return out
  }
  try {
    const { template, diagnostics: read } = readChatmlTemplate(found, { resolve: options.resolve, readText: options.readText, limits: options.limits })
    diagnostics.push(...read)
    constructChatmlDatasets(toJson(values.get('chatml_datasets') ?? null), template).forEach((d, i) => out.push(datasetConfig('chatml_datasets', i, d)))
  } catch (e) {
    if (!(e instanceof PyError)) throw e
    fail(`chatml_datasets: consturct_chatml_datasets (opencompass/utils/run.py) fails with ${e.pyClass}${e.message ? `: ${e.message}` : ''}`)
  }
  return out
}

function findModels(values: Map<string, PyValue>): ModelConfig[] {
  const hasRunList = collect(values, (n) => n === 'models', isModelDict).length > 0
  const picked = collect(values, hasRunList ? (n) => n === 'models' : (n) => n === 'models' || n.endsWith('_models') || n.endsWith('_model'), isModelDict)
  return picked.map(({ variable, index, value }) => {
    const raw = obj(normalizeTypes(toJson(value)))
    return {
      variable,
      index,
      abbr: str(raw.abbr),
      type: str(raw.type),
      path: str(raw.path),
      meta_template: raw.meta_template,
      max_seq_len: num(raw.max_seq_len),
      max_out_len: num(raw.max_out_len),
      batch_size: num(raw.batch_size),
      raw
    }
  })
}
