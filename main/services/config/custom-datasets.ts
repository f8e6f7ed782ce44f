// Completes a config's custom dataset entries (dicts without `type`, as compassbench_v1's) the way OpenCompass's
// run does before anything else (shared/config/custom-dataset.ts): from the first row of the file the entry's own
// `path` names and the `<path>.meta.json` beside it (parse_example_dataset), each entry its own file, relative to the
// config's folder (upstream's working directory). Only when that file is absent here does the project's dataset
// stand in for it, with a warning: upstream would fail on the entry.
import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { dirname, isAbsolute, resolve } from 'node:path'
import type { Diagnostic } from '../../../shared/api/types'
import type { DatasetConfig, Json } from '../../../shared/config/import'
import { customDataKind, isCustomDataset, makeCustomDatasetConfig, unsupportedExtError, type FirstRow } from '../../../shared/config/custom-dataset'
import { splitRecords } from '../../../shared/loaders/pandas-tsv'
import { PyError } from '../../../shared/python/errors'
import { pyRepr } from '../../../shared/python/json'

export interface CompletedDatasets {
  datasets: DatasetConfig[]
  problems: Diagnostic[]
}

/** Reads parse_example_dataset's first row: the first line of a JSONL, the header and first record of a CSV. */
export async function readFirstRow(file: string, kind: 'jsonl' | 'csv'): Promise<FirstRow> {
  const text = await readFile(file, 'utf8')
  if (kind === 'jsonl') {
    const line = text.slice(0, text.indexOf('\n') + 1 || text.length)
    let row: unknown
    try {
      row = JSON.parse(line)
    } catch (e) {
      throw new PyError('JSONDecodeError', `the first line of ${file} is not JSON (${e instanceof Error ? e.message : String(e)})`)
    }
    if (!row || typeof row !== 'object' || Array.isArray(row)) throw new PyError('AttributeError', `the first line of ${file} is not a JSON object, so it has no .keys()`)
    return { kind: 'row', row: row as Record<string, Json> }
  }
  const [header, first] = splitRecords(text.replace(/^\uFEFF/, ''), ',')
  if (!header || !first) throw new PyError('StopIteration', `${file} has no ${header ? 'row after its header' : 'header'}`)
  const row: Record<string, Json> = {}
  header.forEach((h, i) => {
    if (i < first.length) row[h.v] = first[i].v
  })
  return { kind: 'row', row }
}

async function readMeta(file: string): Promise<Record<string, Json> | null> {
  if (!existsSync(file)) return null
  const j = JSON.parse(await readFile(file, 'utf8')) as Json
  if (!j || typeof j !== 'object' || Array.isArray(j)) throw new PyError('TypeError', `${file} is not a JSON object`)
  return j
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isFile() ?? false
}

/**
 * Which file the entry's first row is read from: its own path (upstream opens `config['path']` from the run's working
 * directory, the config's folder here). Absent, the project's dataset (`projectData`) stands in with a warning, or
 * upstream's FileNotFoundError is raised.
 */
async function entryDataFile(written: string, o: { configFile: string; projectData?: string }): Promise<{ file: string; standIn?: Diagnostic }> {
  const own = isAbsolute(written) ? written : resolve(dirname(o.configFile), written)
  if (await isFile(own)) return { file: own }
  const stand = o.projectData
  if (stand === undefined || !customDataKind(stand) || !(await isFile(stand))) throw new PyError('FileNotFoundError', `[Errno 2] No such file or directory: ${pyRepr(written)}`)
  return {
    file: stand,
    standIn: { code: 'custom-dataset', severity: 'warning', message: `${written} (the entry's path, read from ${dirname(o.configFile)}) is not here, so its template is built from the project's dataset ${stand} instead; upstream's run would fail on this entry (FileNotFoundError).` }
  }
}

/**
 * One custom entry completed; throws upstream's error (a PyError) where make_custom_dataset_config fails. The first
 * row comes from the entry's own path; `projectData` (the project's dataset) stands in only when that file is absent.
 */
export async function completeCustomDataset(d: DatasetConfig, o: { configFile: string; projectData?: string }): Promise<{ dataset: DatasetConfig; problems: Diagnostic[] }> {
  const { configFile } = o
  const raw = d.raw
  if (!('path' in raw)) throw new PyError('KeyError', "'path'")
  const written = String(raw.path)
  const kind = customDataKind(written)
  if (!kind) throw unsupportedExtError(written)
  const { file: dataFile, standIn } = await entryDataFile(written, o)
  const first = await readFirstRow(dataFile, customDataKind(dataFile) ?? kind)
  // meta_path defaults to `path + '.meta.json'`, beside the file the row was read from.
  const metaPath = typeof raw.meta_path === 'string' ? (isAbsolute(raw.meta_path) ? raw.meta_path : resolve(dirname(configFile), raw.meta_path)) : `${dataFile}.meta.json`
  const meta = await readMeta(metaPath)
  const built = makeCustomDatasetConfig(raw, first, meta)
  const obj = (j: Json | undefined): Record<string, Json> => (j && typeof j === 'object' && !Array.isArray(j) ? j : {})
  const dataset: DatasetConfig = {
    variable: d.variable,
    index: d.index,
    abbr: typeof built.abbr === 'string' ? built.abbr : undefined,
    type: String(built.type),
    path: written,
    reader_cfg: obj(built.reader_cfg),
    infer_cfg: obj(built.infer_cfg),
    eval_cfg: obj(built.eval_cfg),
    raw: built
  }
  const from = `the first row of ${dataFile}${meta ? ` and ${metaPath}` : ''}`
  const info: Diagnostic = {
    code: 'custom-dataset',
    severity: 'info',
    message: `${d.variable}[${d.index}] has no type, so OpenCompass's run builds it with make_custom_dataset_config: a ${String(built.type)} with ${String((dataset.infer_cfg.inferencer as Record<string, Json>).type)}, its columns and template from ${from}.`
  }
  return { dataset, problems: standIn ? [standIn, info] : [info] }
}

/** Every custom entry completed (the others as they are); an entry upstream would fail on stays as written, with an error problem. */
export async function completeCustomDatasets(datasets: DatasetConfig[], o: { configFile: string; projectData?: string }): Promise<CompletedDatasets> {
  const problems: Diagnostic[] = []
  const out: DatasetConfig[] = []
  for (const d of datasets) {
    if (!isCustomDataset(d.raw)) {
      out.push(d)
      continue
    }
    try {
      const done = await completeCustomDataset(d, o)
      out.push(done.dataset)
      problems.push(...done.problems)
    } catch (e) {
      const why = e instanceof PyError ? `${e.pyClass}: ${e.message}` : e instanceof Error ? e.message : String(e)
      problems.push({
        code: 'custom-dataset',
        severity: 'error',
        message: `${d.variable}[${d.index}] has no type, so OpenCompass's run builds it with make_custom_dataset_config, which fails here: ${why}`
      })
      out.push(d)
    }
  }
  return { datasets: out, problems }
}
