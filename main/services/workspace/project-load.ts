// Step 1 of a row's way from file to exported line: what opening a project builds. A path (or an explicit spec)
// becomes a LoadedProject — the config's template variants and problems, the rows a reproduced dataset loader
// builds, the indexed dataset, the model profiles and the project's template edits. ProjectSession holds the
// result; every other service reads the project through it.
import { readFile } from 'node:fs/promises'
import { dirname, isAbsolute, resolve } from 'node:path'
import type { DatasetSummary, ModelSummary, Diagnostic, ProjectSummary } from '../../../shared/api/types'
import type { EngineError, Prepared, Row } from '../../../shared/engine'
import type { DatasetConfig } from '../../../shared/config/import'
import { loadConfig } from '../config/load-config-async'
import { configInputProblems } from '../config/config-inputs'
import { completeCustomDatasets } from '../config/custom-datasets'
import { datasetDiagnostic, openDataset, type DatasetHandle } from '../datasets'
import type { RowRecord } from '../datasets/types'
import { migrateLegacyStore } from '../store/project-store'
import { applyLoader } from '../loaders/apply-loader'
import { looksLikeMmCustom, mmCustomConfig } from '../loaders/detect'
import { loadModels } from './load-models'
import { modelRefs, resolveProjectSpec, type ProjectSpec } from './project-spec'
import type { ModelContext } from './model-render'
import type { MediaCheck } from './media-check'
import type { Tasks } from './tasks'
import { ProjectTemplates, overridesFile } from './template-overrides'
import { defaultVariant, readsInputColumns, variantsFromConfig, type Variant } from './variants'
import { inferencerNote } from './infer-mode'
import { placedMessage } from '../../../shared/diagnostics'

export interface LoadedProject {
  summary: ProjectSummary
  spec: ProjectSpec
  dataset: DatasetHandle
  testSplit: string
  trainSplit: string
  variants: Variant[]
  models: ModelContext[]
  prepared: Map<string, Promise<Prepared | EngineError>>
  /** Template edits (infer_cfg pieces, model formats) over the config's and profiles' own. */
  templates: ProjectTemplates
  trainRows: Promise<Row[]> | null
  search: { key: string; matches: Uint32Array } | null
  /**
   * Settles when row numbers are final: background validation has ended and the project store (whose curation is
   * keyed by row number) is open. Curation writes and export wait for it. Resolved at once for a validated open.
   */
  ready: Promise<void>
  /** True once `ready` has settled. */
  settled: boolean
  /** The summary's problems that came from the dataset, replaced when validation ends. */
  datasetProblems: Diagnostic[]
  /** Set while background validation runs, to cancel it when another project replaces this one. */
  validationTask: { cancel(): void } | null
  /**
   * Where relative media references in rows resolve (the dataset's media folder; for rows a reproduced loader
   * built, the folder upstream would resolve them from). Null: the folder of the row's file.
   */
  mediaBase: string | null
  /** Folders media may also be served from: the source data and the loader's media cache. */
  extraRoots: string[]
  /** VLMEvalKit `index` → row number, built the first time a row's `image` is another row's index. */
  indexRows: Promise<Map<string, number>> | null
  /** Rows whose media cannot be shown (missing, refused, unreadable), once checked after the open. */
  media: MediaCheck | null
}

export interface LoadOptions {
  tasks: Tasks
  /** Return once rows can be read; the caller validates (ProjectSession's background validation). */
  deferValidation?: boolean
  /** Datasets smaller than this validate at once even when deferring. */
  deferMinBytes?: number
  /** Whether curation is saved with the project (an older folder store is then migrated to this dataset's). */
  persistent: boolean
  /** Called with the dataset's first rows as soon as they can be read, before it is indexed (see openDataset). */
  onFirstRows?: (file: string, split: string, rows: RowRecord[]) => void
}

/** Resolves what `path` is (project folder, config, dataset) and loads it. */
export async function loadProjectPath(path: string, o: LoadOptions, mediaFolder?: string): Promise<LoadedProject> {
  const spec = await resolveProjectSpec(path)
  if (mediaFolder) spec.mediaFolder = resolve(mediaFolder)
  return loadProject(spec, o)
}

export async function loadProject(spec: ProjectSpec, o: LoadOptions): Promise<LoadedProject> {
  const problems: Diagnostic[] = []
  let variants: Variant[] = []
  let cfgDatasets: DatasetConfig[] = []
  if (spec.configFile) {
    const text = await readFile(spec.configFile, 'utf8')
    const cfg = await loadConfig(spec.configFile)
    problems.push(...cfg.diagnostics)
    problems.push(...configInputProblems(cfg.inputs))
    if (cfg.diagnostics.some((d) => d.severity === 'error') && cfg.datasets.length === 0) {
      const d = cfg.diagnostics.find((x) => x.severity === 'error')!
      throw new Error(placedMessage(d))
    }
    if (!spec.dataset) {
      const p = cfg.datasets.find((d) => typeof d.path === 'string')?.path
      if (!p) throw new Error(`${spec.configFile}: no dataset path in the config; open the dataset and the config together as a project`)
      spec.dataset = isAbsolute(p) ? p : resolve(dirname(spec.configFile), p)
    }
    const completed = await completeCustomDatasets(cfg.datasets, { configFile: spec.configFile, projectData: spec.dataset })
    problems.push(...completed.problems)
    cfgDatasets = completed.datasets
    variants = variantsFromConfig(cfgDatasets, text)
    for (const v of variants) {
      const note = inferencerNote(v)
      if (note) problems.push({ code: 'inferencer', message: note.message, severity: note.severity, data: { variant: v.id } })
    }
  }
  // An mm_custom JSONL opened on its own gets AISBench's own config for it (mm_custom_gen.py).
  if (!spec.configFile && (await looksLikeMmCustom(spec.dataset))) {
    cfgDatasets = [mmCustomConfig(spec.dataset)]
    variants = variantsFromConfig(cfgDatasets, 'ais_bench')
  }
  // A config naming a dataset class: rows as its load() builds them (or the file's rows, with a problem saying so).
  let datasetFile = spec.dataset
  let mediaBase: string | null = spec.mediaFolder ?? null
  const extraRoots: string[] = spec.mediaFolder ? [spec.mediaFolder] : []
  if (cfgDatasets[0]) {
    const outcome = await applyLoader({ entry: cfgDatasets[0], dataset: spec.dataset, root: spec.root, mediaFolder: spec.mediaFolder })
    problems.push(...outcome.problems)
    if (outcome.kind === 'loaded') {
      datasetFile = outcome.file
      mediaBase = outcome.cwd
      extraRoots.push(outcome.cacheDir, outcome.cwd, /\.\w+$/.test(spec.dataset) ? dirname(spec.dataset) : spec.dataset)
    }
  }
  const task = o.tasks.start('Indexing dataset')
  let dataset: DatasetHandle
  try {
    const onFirstRows = o.onFirstRows
    dataset = await openDataset(datasetFile, {
      signal: task.signal,
      onProgress: (p) => task.progress(p.bytesDone, p.bytesTotal),
      ...(onFirstRows ? { onFirstRows: (split: string, rows: RowRecord[]) => onFirstRows(datasetFile, split, rows) } : {}),
      ...(o.deferValidation ? { validate: 'deferred' as const, deferMinBytes: o.deferMinBytes } : {})
    })
  } finally {
    task.finish(1, 1)
  }
  const splitNames = dataset.splits.map((s) => s.name)
  const reader = variants[0]?.reader_cfg ?? {}
  const pick = (want: unknown, fallback: string) => (typeof want === 'string' && splitNames.includes(want) ? want : splitNames.includes(fallback) ? fallback : splitNames[0])
  const testSplit = pick(reader.test_split, 'test')
  const trainSplit = pick(reader.train_split, 'train')
  if (variants.length === 0) variants = [defaultVariant(dataset.columns)]
  for (const [id, file] of Object.entries(spec.iceIdx ?? {})) {
    const v = variants.find((x) => x.id === id)
    if (v) v.iceIdxFile = file
    else problems.push({ code: 'config', severity: 'warning', message: `project.json iceIdx names "${id}", which is not a template variant of this project (${variants.map((x) => x.id).join(', ')})` })
  }

  const hasMedia = dataset.columns.some((c) => c.media) || variants.some((v) => !readsInputColumns(v))
  const loaded = await loadModels(modelRefs(spec, hasMedia))
  problems.push(...loaded.problems)
  const fromDataset = datasetProblems(dataset)
  problems.push(...fromDataset)

  // A folder store from an older version becomes this dataset's own store (with its template edits) first.
  if (o.persistent) problems.push(...migrateLegacyStore({ root: spec.root, dataset: spec.dataset, files: dataset.splits.flatMap((s) => s.files) }))
  const prepared = new Map<string, Promise<Prepared | EngineError>>()
  const templates = new ProjectTemplates(overridesFile(spec.root, spec.dataset), variants, loaded.models, (id) => prepared.delete(id))
  problems.push(...(await templates.load()))

  const summary: ProjectSummary = {
    id: `${spec.root}#${Date.now()}`,
    name: spec.name,
    root: spec.root,
    configFile: spec.configFile,
    dataset: datasetSummary(dataset),
    variants: variants.map((v) => ({ id: v.id, label: v.label, kind: v.kind })),
    models: loaded.models.map((m) => modelSummary(m, 'project')),
    problems
  }
  return { summary, spec, dataset, testSplit, trainSplit, variants, models: loaded.models, prepared, templates, trainRows: null, search: null, ready: Promise.resolve(), settled: true, datasetProblems: fromDataset, validationTask: null, mediaBase, extraRoots: [...new Set(extraRoots)], indexRows: null, media: null }
}

/** The dataset's problems as the project lists them (the first 50). */
export function datasetProblems(d: DatasetHandle): Diagnostic[] {
  return d.errors.slice(0, 50).map(datasetDiagnostic)
}

export function datasetSummary(d: DatasetHandle): DatasetSummary {
  const validation = d.validation === 'pending' ? 'running' : d.validation
  const byCode: Record<string, number> = {}
  for (const e of d.errors) if (e.severity === 'error') byCode[e.code] = (byCode[e.code] ?? 0) + 1
  return {
    ...(d.skipped || Object.keys(byCode).length ? { skipped: { total: Math.max(d.skipped, d.errors.filter((e) => e.severity === 'error').length), byCode } } : {}),
    ...(validation !== 'done' ? { validation } : {}),
    path: d.path,
    format: d.format,
    splits: d.splits.map((s) => ({ name: s.name, rowCount: s.rowCount, file: s.files[0] ?? d.path })),
    columns: d.columns.map((c) => ({ name: c.name, type: c.type })),
    problems: d.errors.slice(0, 200).map((e) => ({ file: e.at.file, line: e.at.line, row: e.at.row, byteOffset: e.at.offset, field: e.at.column, message: e.message }))
  }
}

export function modelSummary(m: ModelContext, source: string): ModelSummary {
  return { id: m.profile.id, name: m.profile.name, format: m.profile.format, contextLength: m.profile.context_length, source }
}

/** The folders media may be served from: the project root and the dataset's folder. */
export function rootsOf(p: LoadedProject): string[] {
  const { spec, dataset } = p
  const ds = dataset.path
  return [...new Set([spec.root, ds.match(/\.\w+$/) ? dirname(ds) : ds, ...p.extraRoots])]
}

/** The rows of `split` (0 when the dataset has no such split). */
export function splitSize(p: LoadedProject, split: string): number {
  return p.dataset.splits.find((s) => s.name === split)?.rowCount ?? 0
}
