// The workspace behind the API: the open project (dataset, template variants, model profiles), row paging and
// search, per-row rendering for the exact-input matrix, curation state, and export. One instance per host.
import { existsSync } from 'node:fs'
import { readFile, rm, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type {
  AppInfo,
  CurationChange,
  CurationOp,
  CurationStatus,
  DatasetSummary,
  ExportRequest,
  ExportResult,
  ExportScope,
  MediaEncoding,
  ModelSummary,
  Problem,
  ProjectSummary,
  RowFilter,
  RowListItem,
  RowPage,
  RowCuration,
  RowRender,
  RowSort,
  SkippedLine
} from '../../../shared/api/types'
import type { BuilderCheck, BuilderSaved, TemplateEdit, TemplatePreview, TemplateTarget } from '../../../shared/api/types'
import type { MediaInfo, MediaPeaks, MediaResult, MediaSource } from '../../../shared/api/types'
import { decodeLabelDicts, isEngineError, preparePipeline, toPlainJson, type EngineError, type Prepared, type Row } from '../../../shared/engine'
import type { Host } from '../../api/host'
import { appVersion, demoProjectDir } from '../app-paths'
import { loadConfig } from '../config/load-config-async'
import { configInputProblems } from '../config/config-inputs'
import { openDataset, type DatasetHandle } from '../datasets'
import type { CurationDb } from '../store/curation-db'
import { migrateLegacyStore, openProjectStore } from '../store/project-store'
import { storeCandidates } from '../store/store-location'
import { checkRecipe, saveRecipe } from './prompt-builder'
import type { Recipe } from '../../../shared/builder'
import { CurationState } from './curation'
import { exportBatches, exportLines, shardRange, writeExport, type ExportOptions, type ExportSource, type Shard } from './export'
import { checkMediaEncoding, MediaEncoder } from '../export/media-encoder'
import { MediaDir } from '../export/media-dir'
import { sourceFormat, writeDatasetExport, type DatasetExportFormat, type DatasetExportResult, type DatasetExportRow } from '../export/dataset-export'
import { libraryProfiles, loadModels } from './load-models'
import { findMediaRefs, refLabel, resolveRowMedia } from './row-media'
import { peaksOf, probeMediaSource } from './media-calls'
import { resolveProjectSpec, type ProjectSpec } from './project-spec'
import { apiItems, engineProblem, renderPreparedRow, type ModelContext } from './render-row'
import { refUrlOf, rowImageSizes } from './media-sizes'
import { compileRowQuery } from './row-query'
import { checkSplitMedia, type MediaCheck } from './media-check'
import { compileRowFilter, filterIsEmpty, filterReadsCuration, inputColumnsOf, rowFacts, scanRows, sortKeyOf } from './row-filter'
import { Tasks } from './tasks'
import { LintRun, type LintSource } from '../lint/lint-run'
import { LintSession } from '../lint/lint-session'
import type { LintReport } from '../../../shared/lint/report'
import { ProjectTemplates, overridesFile } from './template-overrides'
import { conversationOf, defaultVariant, readsInputColumns, variantsFromConfig, type Variant } from './variants'
import { conversationView } from './render-conversation'
import { contentPlainText } from '../../../shared/conversation'
import { inferencerNote, needsWholeSplit, variantMode } from './infer-mode'
import { applyLoader } from '../loaders/apply-loader'
import { looksLikeMmCustom, mmCustomConfig } from '../loaders/detect'
import { describeMediaValue } from '../../../shared/media/media-value'
import type { DatasetConfig } from '../../../shared/config/import'

/** Datasets above this many rows check their media with a progress bar (smaller ones finish at once). */
const MEDIA_CHECK_TASK_ROWS = 20_000

/** Retrievers that compare a row with every other row read the whole split; beyond this we refuse politely. */
const MAX_ROWS_IN_MEMORY = 200_000

type CurationSetResult = { index: number; status: CurationStatus }[]
const PREVIEW_CHARS = 160

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
  datasetProblems: Problem[]
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

export interface RowsQuery {
  start: number
  count: number
  query?: string
  filter?: RowFilter
  sort?: RowSort
  columns?: string[]
  variantId?: string
}

export class Workspace {
  readonly tasks: Tasks
  defaultPath: string | undefined
  /** The open project's curation: saved in its project store (main/services/store), or in memory only. */
  private store = new CurationState()
  private storeDb: CurationDb | null = null
  private project: LoadedProject | null = null
  private opening: Promise<ProjectSummary> | null = null
  /** The last lint of the open project (the Lint panel's groups, and the row filter by group). */
  private lint = new LintSession()

  constructor(
    private host: Host,
    private opts: { appRoot?: string; curation?: 'persistent' | 'memory'; deferValidationAbove?: number } = {}
  ) {
    this.tasks = new Tasks(host)
  }

  get curation(): CurationState {
    return this.store
  }

  /** Curation is saved with the project unless the host asks for memory only (tests on the repo's demo do). */
  private get persistent(): boolean {
    return (this.opts.curation ?? 'persistent') === 'persistent'
  }

  /** Closes the project store (its data is already on disk: this only releases the file). */
  close() {
    this.storeDb?.close()
    this.storeDb = null
  }

  info(): AppInfo {
    return { name: 'PromptLoom', version: appVersion(), mode: this.host.mode, node: process.versions.node, platform: process.platform }
  }

  roots(): string[] {
    return this.project ? rootsOf(this.project) : []
  }

  /** Every line the dataset skipped (could not read), with its place; the first 10,000. */
  skippedLines(): SkippedLine[] {
    const d = this.need().dataset
    return d.errors.filter((e) => e.severity === 'error').map((e) => ({ file: e.at.file, line: e.at.line ?? null, offset: e.at.offset ?? null, code: e.code, message: e.message }))
  }

  /** Writes every skipped line as JSONL ({file, line, row, offset, code, message, raw}) where the user picks. */
  async exportSkipped(q: { destination: 'dialog' | 'download' }): Promise<ExportResult> {
    const p = this.need()
    await p.ready
    const name = `${p.spec.name.replace(/[^\w.-]+/g, '_')}-skipped.jsonl`
    const dialog = q.destination === 'dialog' && this.host.mode === 'electron'
    const target = dialog ? await this.host.pickSavePath(name) : join(await tmpExportDir(), name)
    if (!target) return { rows: 0, skipped: 0, cancelled: true }
    const n = await p.dataset.exportSkipped(target)
    if (dialog) return { rows: n, skipped: 0, path: target }
    if (!this.host.offerDownload) throw new Error('this host cannot offer downloads')
    return { rows: n, skipped: 0, downloadUrl: this.host.offerDownload(target, name) }
  }

  /**
   * Checks every row's media against the disk once the project is ready, then says how many rows cannot show
   * theirs (the summary's dataset.media, a 'project.changed' event) and lets the warning filter find them.
   */
  private startMediaCheck(p: LoadedProject): void {
    void (async () => {
      await p.ready
      if (this.project !== p && this.opening) await this.opening.catch(() => null)
      if (this.project !== p) return
      // No file references anywhere (validation counted them): nothing to check, and no pass over every row.
      const by = p.dataset.media.byKind
      if (!(by.relative ?? 0) && !(by.absolute ?? 0) && !(by['file-url'] ?? 0) && !p.dataset.media.truncated) return
      const total = this.splitSize(p, p.testSplit)
      const task = total > MEDIA_CHECK_TASK_ROWS ? this.tasks.start('Checking media') : null
      const r = await checkSplitMedia({
        total,
        readRows: (start, count) => p.dataset.readRows(p.testSplit, start, count),
        datasetFile: p.dataset.path,
        mediaBase: p.mediaBase,
        roots: rootsOf(p),
        signal: task?.signal,
        onProgress: (d, t) => task?.progress(d, t)
      }).catch(() => null)
      task?.finish(total, total)
      if (!r?.complete || this.project !== p) return
      p.media = r
      p.search = null
      const media = { rows: r.rows.size, missing: r.counts['media-missing'], refused: r.counts['media-refused'], unreadable: r.counts['media-unreadable'] }
      p.summary = { ...p.summary, dataset: { ...p.summary.dataset, media } }
      // Only news is announced: a dataset whose media all load needs no new summary in the UI.
      if (r.rows.size) this.host.emit('project.changed', { summary: p.summary, rowsChanged: true })
    })()
  }


  /**
   * The open project; while one is opening (a large dataset indexing), waits for it, so the UI asks once. If that
   * open failed, its error is the answer, so the page can say what went wrong instead of showing something else.
   */
  async currentWhenReady(): Promise<ProjectSummary | null> {
    if (this.opening) await this.opening
    return this.current()
  }

  current(): ProjectSummary | null {
    return this.project?.summary ?? null
  }

  openDemo(): Promise<ProjectSummary> {
    return this.open(this.defaultPath ?? demoProjectDir())
  }

  async open(path: string, opts: { mediaFolder?: string } = {}): Promise<ProjectSummary> {
    // One open at a time; a second request for the same project waits for the first.
    const run = async () => {
      // The open project's background validation would compete with this open for workers and memory: stopped
      // now, and restarted if this open fails (the old project then stays, as it was).
      const prev = this.project
      const interrupted = !!prev?.validationTask
      prev?.validationTask?.cancel()
      this.release()
      let p: LoadedProject
      try {
        p = await this.load(path, true, opts.mediaFolder)
      } catch (e) {
        if (prev && interrupted && this.project === prev) this.startValidation(prev)
        throw e
      }
      const same = prev?.spec.root === p.spec.root && prev?.dataset.path === p.dataset.path
      if (p.dataset.validation === 'done') {
        if (this.persistent) await this.openStore(p)
        // In memory, curation belongs to one project: another project starts clean.
        else if (this.project && !same) this.store.reset()
      } else {
        // Row numbers change if validation skips rows: the project store, keyed by row number, opens after it.
        // Meanwhile the list shows every row unreviewed (rows are re-fetched when the store opens).
        if (this.persistent) {
          this.close()
          this.store = new CurationState()
        } else if (this.project && !same) this.store.reset()
        this.startValidation(p)
      }
      this.project = p
      this.startMediaCheck(p)
      return p.summary
    }
    this.opening = (this.opening ?? Promise.resolve(null as unknown as ProjectSummary)).catch(() => null).then(run)
    return this.opening
  }

  /**
   * Drops what the open project caches beyond its index (prepared pipelines over a whole split, the train split's
   * rows, search results) before another project loads, so two projects' caches are never held at once. The
   * project itself (its 20 MB index per million rows) stays, so a failed open keeps showing it; its caches are
   * rebuilt on demand if it does.
   */
  private release() {
    const p = this.project
    if (!p) return
    p.prepared.clear()
    p.trainRows = null
    p.search = null
  }

  /**
   * Validates a project opened with validation deferred, with progress ("Validating rows", counts) and cancel, then
   * opens its store and publishes the final summary. Cancelled or failed, the project keeps its interim numbering
   * (unreadable rows stay error rows) and says so in its problems; its store then opens on that numbering, which
   * is the final one whenever no row is unreadable.
   */
  private startValidation(p: LoadedProject): void {
    p.settled = false
    p.ready = this.validateInBackground(p).finally(() => (p.settled = true))
  }

  private async validateInBackground(p: LoadedProject): Promise<void> {
    const task = this.tasks.start('Validating rows')
    let cancelledBySwitch = false
    p.validationTask = {
      cancel: () => {
        cancelledBySwitch = true
        this.tasks.cancel(task.id)
      }
    }
    const total = p.dataset.rowCount
    const outcome = await p.dataset.validate({ signal: task.signal, onProgress: (d, t) => task.progress(d, t) })
    task.finish(outcome.state === 'done' ? total : 0, total)
    p.validationTask = null
    if (cancelledBySwitch || this.project !== p) return
    // Anything read or prepared over the interim numbering is stale.
    p.search = null
    p.trainRows = null
    p.prepared.clear()
    const problems = datasetProblems(p.dataset)
    if (outcome.state !== 'done') {
      const what = outcome.state === 'cancelled' ? 'Validation was cancelled' : `Validation failed: ${outcome.message ?? 'unknown error'}`
      problems.unshift({ code: 'validation-incomplete', message: `${what}: column types are from the first rows and unreadable rows show as error rows. Reopen the project to validate it.`, severity: 'warning', at: { file: p.dataset.path } })
    }
    p.summary = {
      ...p.summary,
      dataset: datasetSummary(p.dataset),
      problems: [...p.summary.problems.filter((x) => !p.datasetProblems.includes(x)), ...problems]
    }
    p.datasetProblems = problems
    let storeOpened = false
    if (this.persistent) {
      try {
        await this.openStore(p)
        storeOpened = true
      } catch (e) {
        p.summary.problems.push({ code: 'store', message: `Curation could not be loaded: ${e instanceof Error ? e.message : String(e)}`, severity: 'error', at: {} })
      }
    }
    if (this.project !== p) return
    this.host.emit('project.changed', { summary: p.summary, rowsChanged: outcome.renumbered || storeOpened })
  }

  /**
   * Row numbers as they are once the project is ready. A request made before validation ended speaks of the
   * numbering before it; rows that validation skipped are refused.
   */
  private async finalIndices(p: LoadedProject, indices: number[]): Promise<number[]> {
    const interim = p.dataset.validation !== 'done'
    await p.ready
    if (!interim) return indices
    return indices.map((i) => {
      const f = p.dataset.finalIndex(p.testSplit, i)
      if (f === null) throw new Error(`row ${i} cannot be read (it was skipped when the dataset was validated)`)
      return f
    })
  }

  private async openStore(p: LoadedProject) {
    this.close()
    const split = p.dataset.splits.find((s) => s.name === p.testSplit)
    const s = await openProjectStore({
      root: p.spec.root,
      dataset: p.dataset.path,
      split: p.testSplit,
      files: split?.files.length ? split.files : [p.dataset.path],
      rows: { total: this.splitSize(p, p.testSplit), readRows: (start, count) => p.dataset.readRows(p.testSplit, start, count) },
      idColumn: p.spec.idColumn,
      readRow: async (i) => (await p.dataset.readRow(p.testSplit, i))?.value
    })
    this.store = s.curation
    this.storeDb = s.db
    p.summary.problems.push(...s.problems)
  }

  /**
   * Opens a project described explicitly (the CLI builds one from its flags). A pipeline reads the reviewers'
   * saved curation when the project has a store, and never creates one.
   */
  async openSpec(spec: ProjectSpec): Promise<ProjectSummary> {
    this.release()
    const p = await this.loadSpec(spec)
    if (this.persistent && storeCandidates(p.spec.root, p.dataset.path).some((c) => existsSync(c.file))) await this.openStore(p)
    this.project = p
    return p.summary
  }

  private async load(path: string, deferValidation = false, mediaFolder?: string): Promise<LoadedProject> {
    const spec = await resolveProjectSpec(path)
    if (mediaFolder) spec.mediaFolder = resolve(mediaFolder)
    return this.loadSpec(spec, deferValidation)
  }

  /** `deferValidation`: return once rows can be read; the caller validates (validateInBackground). */
  private async loadSpec(spec: ProjectSpec, deferValidation = false): Promise<LoadedProject> {
    const problems: Problem[] = []
    let variants: Variant[] = []
    let cfgDatasets: DatasetConfig[] = []
    if (spec.configFile) {
      const text = await readFile(spec.configFile, 'utf8')
      const cfg = await loadConfig(spec.configFile)
      for (const d of cfg.diagnostics) {
        problems.push({ code: 'config', message: d.message, severity: d.severity, at: { file: d.file, line: d.line, column: d.column } })
      }
      problems.push(...configInputProblems(cfg.inputs))
      if (cfg.diagnostics.some((d) => d.severity === 'error') && cfg.datasets.length === 0) {
        const d = cfg.diagnostics.find((x) => x.severity === 'error')!
        throw new Error(`${d.file}:${d.line}:${d.column}: ${d.message}`)
      }
      variants = variantsFromConfig(cfg.datasets, text)
      cfgDatasets = cfg.datasets
      for (const v of variants) {
        const note = inferencerNote(v)
        if (note) problems.push({ code: 'inferencer', message: note.message, severity: note.severity, at: { variant: v.id } })
      }
      if (!spec.dataset) {
        const p = cfg.datasets.find((d) => typeof d.path === 'string')?.path
        if (!p) throw new Error(`${spec.configFile}: no dataset path in the config; open the dataset and the config together as a project`)
        spec.dataset = isAbsolute(p) ? p : resolve(dirname(spec.configFile), p)
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
    const task = this.tasks.start('Indexing dataset')
    let dataset: DatasetHandle
    try {
      dataset = await openDataset(datasetFile, {
        signal: task.signal,
        onProgress: (p) => task.progress(p.bytesDone, p.bytesTotal),
        ...(deferValidation ? { validate: 'deferred' as const, deferMinBytes: this.opts.deferValidationAbove } : {})
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

    const refs = [...spec.modelFiles, ...(spec.modelFiles.length === 0 ? spec.libraryModels : [])]
    const loaded = await loadModels(refs)
    problems.push(...loaded.problems)
    const fromDataset = datasetProblems(dataset)
    problems.push(...fromDataset)

    // A folder store from an older version becomes this dataset's own store (with its template edits) first.
    if (this.persistent) problems.push(...migrateLegacyStore({ root: spec.root, dataset: spec.dataset, files: dataset.splits.flatMap((s) => s.files) }))
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

  async inspect(path: string): Promise<DatasetSummary> {
    return datasetSummary(await openDataset(path, {}))
  }

  async models(): Promise<ModelSummary[]> {
    const lib = await libraryProfiles()
    return lib.map((p) => ({ id: p.id, name: p.name, format: p.format, contextLength: p.context_length, source: 'library' }))
  }

  private need(): LoadedProject {
    if (!this.project) throw new Error('no project is open')
    return this.project
  }

  private splitSize(p: LoadedProject, split: string): number {
    return p.dataset.splits.find((s) => s.name === split)?.rowCount ?? 0
  }

  async rowsPage(q: RowsQuery): Promise<RowPage> {
    const p = this.need()
    // Another PromptLoom on the same store may have written since: its changes show on the next read.
    this.curation.refresh()
    const inputs = this.inputColumns(p, q.variantId)
    const item = (index: number, value: Record<string, unknown>) => this.listItem(p, index, this.curation.edited(index, value), inputs, q.columns)
    if (!this.needsScan(q)) {
      const total = this.splitSize(p, p.testSplit)
      const recs = q.start < total ? await p.dataset.readRows(p.testSplit, q.start, Math.min(q.count, total - q.start)) : []
      return { total, start: q.start, items: recs.map((r) => item(r.index, r.value)) }
    }
    const matches = await this.matches(p, q)
    const slice = Array.from(matches.subarray(q.start, q.start + q.count))
    const items: RowListItem[] = []
    for (const i of slice) {
      const r = await p.dataset.readRow(p.testSplit, i)
      if (r) items.push(item(r.index, r.value))
    }
    return { total: matches.length, start: q.start, items }
  }

  private needsScan(q: { query?: string; filter?: RowFilter; sort?: RowSort }): boolean {
    return !!q.query?.trim() || !filterIsEmpty(q.filter) || !!(q.sort && (q.sort.by !== 'index' || q.sort.dir === 'desc'))
  }

  /** The columns the variant's template reads (for warnings and prompt length), or null when it names none. */
  private inputColumns(p: LoadedProject, variantId?: string): (row: Record<string, unknown>) => string[] | null {
    const v = p.variants.find((x) => x.id === variantId) ?? p.variants[0]
    const named = Array.isArray(v?.reader_cfg?.input_columns) && readsInputColumns(v)
    return (row) => (named ? inputColumnsOf(v.reader_cfg, row) : null)
  }

  /**
   * Row indices a query + filter + sort shows, in order. One scan of the split per distinct request (cached;
   * redone after a curation change only when the request reads curation), with progress and cancel.
   */
  private async matches(p: LoadedProject, q: { query?: string; filter?: RowFilter; sort?: RowSort; variantId?: string }): Promise<Uint32Array> {
    const query = q.query?.trim() ?? ''
    const key = JSON.stringify([query, q.filter ?? null, q.sort ?? null, q.variantId ?? null, filterReadsCuration(q.filter, q.sort, query) || q.filter?.lint ? this.curation.version : 0, q.filter?.lint ? this.lint.version : 0])
    if (p.search?.key === key) return p.search.matches
    const byQuery = query ? compileRowQuery(query, (i) => this.curation.record(i)) : null
    const inputs = this.inputColumns(p, q.variantId)
    const byFilter = compileRowFilter(q.filter, (i) => this.curation.record(i), inputs, (i) => p.media?.rows.get(i) ?? [])
    const byLint = q.filter?.lint ? await this.lint.rowSet(p, q.filter.lint) : null
    const total = this.splitSize(p, p.testSplit)
    const task = this.tasks.start(query ? `Searching “${query}”` : 'Filtering rows')
    let r: { matches: Uint32Array; aborted: boolean }
    try {
      r = await scanRows({
        total,
        readRows: (start, count) => p.dataset.readRows(p.testSplit, start, count),
        test: (i, row) => {
          const v = this.curation.edited(i, row)
          return (!byLint || byLint.has(i)) && (!byQuery || byQuery(i, v)) && (!byFilter || byFilter(i, v))
        },
        key: sortKeyOf(q.sort, (i) => this.curation.record(i), inputs),
        dir: q.sort?.dir ?? 'asc',
        signal: task.signal,
        onProgress: (d, t) => task.progress(d, t)
      })
    } finally {
      task.finish(total, total)
    }
    // A cancelled scan shows what it found so far but is not cached, so asking again finishes it.
    if (!r.aborted) p.search = { key, matches: r.matches }
    return r.matches
  }

  private listItem(p: LoadedProject, index: number, value: Record<string, unknown>, inputs: (row: Record<string, unknown>) => string[] | null, columns?: string[]): RowListItem {
    const media = findMediaRefs(value).map((r) => ({ field: r.field, kind: r.kind, raw: r.refKind === 'base64' || r.refKind === 'data-url' ? refLabel(r) : r.value.length > 80 ? r.value.slice(0, 60) + '…' : r.value }))
    const facts = rowFacts(value, inputs(value))
    const mediaWarnings = p.media?.rows.get(index)
    if (mediaWarnings) facts.warnings.push(...mediaWarnings)
    const c = this.curation.record(index)
    const item: RowListItem = {
      index,
      split: p.testSplit,
      preview: previewOf(value),
      status: c?.status ?? 'unreviewed',
      media,
      problems: facts.warnings.length,
      warnings: facts.warnings,
      chars: facts.chars,
      ...(c?.tags ? { tags: c.tags } : {}),
      ...(c?.edits ? { edited: true } : {}),
      ...(c?.note ? { hasNote: true } : {})
    }
    if (columns?.length) item.cells = Object.fromEntries(columns.map((k) => [k, cellText(value[k])]))
    return item
  }

  private trainRows(p: LoadedProject): Promise<Row[]> {
    if (!p.trainRows) {
      const n = this.splitSize(p, p.trainSplit)
      if (n > MAX_ROWS_IN_MEMORY) throw new Error(`the train split has ${n.toLocaleString()} rows; in-context examples are drawn from at most ${MAX_ROWS_IN_MEMORY.toLocaleString()}`)
      p.trainRows = p.dataset.readRows(p.trainSplit, 0, n).then((rs) => rs.map((r) => r.value))
    }
    return p.trainRows
  }

  /**
   * A prepared pipeline for `rows`. Zero/FixK retrievers do not look at other test rows, so a row is prepared on
   * its own; the others (Random, SlidingWindow, BM25, …) are prepared once over the whole split and cached.
   */
  private async prepare(p: LoadedProject, v: Variant, rows: Row[] | 'all'): Promise<Prepared | EngineError> {
    const base = {
      family: v.family,
      reader_cfg: v.reader_cfg as any,
      // Templates keyed by int/bool labels ({0: '…', 1: '…'}) arrive as {"__label_dict__": …}; the engine takes typed keys.
      infer_cfg: decodeLabelDicts(v.infer_cfg),
      // ZeroRetriever never reads the train split; skipping it lets a huge single-split dataset render at all.
      train: v.infer_cfg.retriever?.type === 'ZeroRetriever' ? [] : await this.trainRows(p),
      meta_template: null,
      parser: 'lm' as const,
      mode: variantMode(v)
    }
    if (rows !== 'all') return preparePipeline({ ...base, test: rows })
    // An unsaved template edit is not one of the project's variants: cached under its config, one at a time.
    const key = p.variants.includes(v) ? v.id : `\0draft:${v.id}:${JSON.stringify(v.infer_cfg)}`
    let cached = p.prepared.get(key)
    if (!cached) {
      if (key !== v.id) for (const k of p.prepared.keys()) if (k.startsWith('\0draft:')) p.prepared.delete(k)
      const n = this.splitSize(p, p.testSplit)
      if (n > MAX_ROWS_IN_MEMORY) throw new Error(`${v.infer_cfg.retriever?.type} compares every test row; ${n.toLocaleString()} rows is more than ${MAX_ROWS_IN_MEMORY.toLocaleString()}`)
      cached = p.dataset.readRows(p.testSplit, 0, n).then((rs) => preparePipeline({ ...base, test: rs.map((r) => this.curation.edited(r.index, r.value)) }))
      p.prepared.set(key, cached)
    }
    return cached
  }

  private variant(p: LoadedProject, id: string): Variant {
    const v = p.variants.find((x) => x.id === id)
    if (!v) throw new Error(`no template variant "${id}" in this project`)
    return v
  }

  /** `draft` substitutes an unsaved template edit for the variant or for some models (the template editor's preview). */
  async renderRow(q: { index: number; variantId: string; modelIds: string[] }, draft?: { variant?: Variant; models?: Map<string, ModelContext> }): Promise<RowRender> {
    const p = this.need()
    const v = draft?.variant ?? this.variant(p, q.variantId)
    const raw = await p.dataset.readRow(p.testSplit, q.index)
    if (!raw) throw new Error(`row ${q.index} is out of range`)
    // Before validation ends an unreadable row is still listed: it renders as an error, not as an empty prompt.
    if (raw.error) {
      const e = raw.error
      return { index: q.index, split: p.testSplit, variantId: v.id, fields: {}, media: [], status: this.curation.get(q.index), promptList: [], models: [], problems: [{ code: e.code, message: `${e.message} (line ${e.at.line ?? '?'}); validation will skip this row`, severity: 'error', at: { file: e.at.file, ...(e.at.line ? { line: e.at.line } : {}) } }] }
    }
    // Edited fields are what renders (and exports); the originals stay in the curation record.
    const rec = { ...raw, value: this.curation.edited(q.index, raw.value) }
    const models = p.models.filter((m) => q.modelIds.includes(m.profile.id)).map((m) => draft?.models?.get(m.profile.id) ?? m)
    const all = needsWholeSplit(v)
    const prepared = await this.prepare(p, v, all ? 'all' : [rec.value])
    const cur = this.curation.record(q.index)
    const urls = { file: (abs: string) => this.host.mediaUrl(abs), inline: this.host.inlineMediaUrl ? (id: string) => this.host.inlineMediaUrl!(id) : undefined }
    const mediaFile = p.mediaBase ? join(p.mediaBase, '_') : rec.at.file
    const refs = findMediaRefs(await this.withReferencedImage(p, rec.value))
    const media = await resolveRowMedia(refs, mediaFile, this.roots(), urls)
    const conv = conversationOf(v)
    const conversation = conv ? await conversationView(rec.value, conv, (refs) => resolveRowMedia(refs, mediaFile, this.roots(), urls)) : undefined
    const base = { index: q.index, split: p.testSplit, variantId: v.id, fields: toPlainJson(rec.value) as Record<string, unknown>, media, status: this.curation.get(q.index), ...(cur ? { curation: toPlainJson(cur) as RowCuration } : {}) }
    if (isEngineError(prepared)) {
      return { ...base, promptList: [], models: [], problems: [engineProblem(prepared, 'error')] }
    }
    // Model columns show their media parts with the row's own media, and count pictures at their real size.
    const sizeOf = refs.length && models.some((m) => m.profile.media?.image?.tokens) ? await rowImageSizes(refs, mediaFile, this.roots()) : undefined
    const r = renderPreparedRow(prepared, all ? q.index : 0, q.index, models, true, { sizeOf, urlOf: refUrlOf(refs, media) })
    const mediaProblems: Problem[] = media.filter((m) => m.error).map((m) => ({ code: 'media', message: `${m.field}: ${m.error}`, severity: 'warning', at: { field: m.field } }))
    mediaProblems.push(...staleDerived(rec.value, cur))
    return { ...base, promptList: r.promptList, models: r.models, problems: [...r.problems, ...mediaProblems], ...(r.items ? { items: apiItems(r.items), itemKind: r.itemKind } : {}), ...(conversation ? { conversation } : {}) }
  }

  /**
   * VLMEvalKit TSVs save space by writing another row's `index` (≤ 64 characters) in `image`: for the media
   * shown, the row's image is that row's. The row itself (what templates read) is unchanged.
   */
  private async withReferencedImage(p: LoadedProject, value: Record<string, unknown>): Promise<Record<string, unknown>> {
    const ref = value.image
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 64 || !('index' in value) || !/^(csv|tsv)$/.test(p.dataset.format)) return value
    p.indexRows ??= (async () => {
      const map = new Map<string, number>()
      const n = this.splitSize(p, p.testSplit)
      for (let start = 0; start < n; start += 500) {
        for (const r of await p.dataset.readRows(p.testSplit, start, 500)) {
          const k = r.value.index
          if ((typeof k === 'string' || typeof k === 'number') && !map.has(String(k))) map.set(String(k), r.index)
        }
      }
      return map
    })()
    const at = (await p.indexRows).get(ref)
    if (at === undefined) return value
    const target = (await p.dataset.readRow(p.testSplit, at))?.value.image
    return typeof target === 'string' && target.length > 64 ? { ...value, image: target } : value
  }

  templateGet(t: TemplateTarget) {
    return this.need().templates.doc(t)
  }

  /** Renders the row with unsaved template edits; nothing is committed. */
  async templatePreview(q: { index: number; variantId: string; modelIds: string[]; edits: TemplateEdit[] }): Promise<TemplatePreview> {
    const p = this.need()
    const d = p.templates.drafts(q.variantId, q.edits)
    if (d.unreadable) {
      // The row is still shown (with the saved templates) and says why the draft is not used: the pane never
      // stays on another row because the text in the editor cannot be read.
      const render = await this.renderRow(q)
      render.problems.unshift({ code: 'template-draft', message: 'The template in the editor has errors (marked in the editor), so it is not used for this row', severity: 'error' })
      return { render, diagnostics: d.diagnostics }
    }
    const render = await this.renderRow(q, { variant: d.variant, models: d.models })
    return { render, diagnostics: p.templates.renderDiagnostics(d, q.edits, render) }
  }

  templateApply(t: TemplateTarget, text: string) {
    return this.need().templates.apply(t, text)
  }

  templateRevert(t: TemplateTarget) {
    return this.need().templates.revert(t)
  }

  /** Writes a variant's infer_cfg (with its edits) as JSON where the user picks; never over the config file. */
  /** Dimensions, bytes and format of a row's media (a file under the opened roots, or an inline id). */
  mediaProbe(src: MediaSource): Promise<MediaResult<MediaInfo>> {
    return probeMediaSource(this.roots(), src)
  }

  /** Waveform peaks of an audio file under the opened roots. */
  mediaPeaks(q: { path: string; n: number }): Promise<MediaResult<MediaPeaks>> {
    return peaksOf(this.roots(), q.path, q.n)
  }

  /** The prompt builder: the recipe checked against this dataset (schema, unfilled placeholders, rows). */
  async builderCheck(recipe: Recipe): Promise<BuilderCheck> {
    const p = this.need()
    return checkRecipe(p.dataset, p.testSplit, p.summary.dataset.columns.map((c) => c.name), recipe)
  }

  /** The prompt builder's recipe saved as an OpenCompass config + JSON Schema beside the dataset. */
  async builderSave(recipe: Recipe): Promise<BuilderSaved> {
    const p = this.need()
    return saveRecipe(p.dataset.path, p.spec.configFile, recipe)
  }

  async templateExport(q: { variantId: string; destination: 'dialog' | 'download' }): Promise<ExportResult> {
    const p = this.need()
    const name = `${q.variantId.replace(/[^\w.-]+/g, '_')}.infer_cfg.json`
    const dialog = q.destination === 'dialog' && this.host.mode === 'electron'
    const target = dialog ? await this.host.pickSavePath(name) : join(await tmpExportDir(), name)
    if (!target) return { rows: 0, skipped: 0, cancelled: true }
    await p.templates.exportConfig(q.variantId, target, p.spec.configFile)
    if (dialog) return { rows: 1, skipped: 0, path: target }
    if (!this.host.offerDownload) throw new Error('this host cannot offer downloads')
    return { rows: 1, skipped: 0, downloadUrl: this.host.offerDownload(target, name) }
  }

  /** Synchronous once the project is ready (the usual case); while it is validating, waits for final row numbers. */
  setStatus(indices: number[], status: CurationStatus): CurationSetResult | Promise<CurationSetResult> {
    const p = this.need()
    const set = (final: number[]): CurationSetResult => {
      const n = this.splitSize(p, p.testSplit)
      const bad = final.find((i) => i >= n)
      if (bad !== undefined) throw new Error(`row ${bad} is out of range (the split has ${n} rows)`)
      return this.curation.set(final, status)
    }
    return p.settled ? set(indices) : this.finalIndices(p, indices).then(set)
  }

  /** One curation action on explicit rows or on every row a query + filter shows; undoable. */
  async applyCuration(target: { indices: number[] } | { query?: string; filter?: RowFilter; all: true }, op: CurationOp): Promise<CurationChange> {
    const p = this.need()
    if ('indices' in target) target = { indices: await this.finalIndices(p, target.indices) }
    else await p.ready
    const n = this.splitSize(p, p.testSplit)
    let indices: ArrayLike<number>
    if ('indices' in target) {
      const bad = target.indices.find((i) => i >= n)
      if (bad !== undefined) throw new Error(`row ${bad} is out of range (the split has ${n} rows)`)
      indices = target.indices
    } else {
      indices = this.needsScan(target) ? await this.matches(p, target) : Uint32Array.from({ length: n }, (_, i) => i)
    }
    if (indices.length === 0) throw new Error('no rows to change: the selection or filter is empty')
    if ((op.kind === 'edit' || op.kind === 'revert') && indices.length !== 1) throw new Error(`${op.kind}: a field is edited one row at a time`)
    const originals = new Map<number, Record<string, unknown>>()
    if (op.kind === 'edit') {
      const r = await p.dataset.readRow(p.testSplit, indices[0])
      if (r) originals.set(indices[0], r.value)
    }
    const change = this.curation.apply(indices, op, (i, field) => originals.get(i)?.[field])
    // Retrievers that read the whole split cached prepared rows; an edit changes them.
    if (op.kind === 'edit' || op.kind === 'revert') p.prepared.clear()
    return change
  }

  // Undo and redo need not wait for validation: writes do, so the history holds only final row numbers.
  undoCuration(): CurationChange | null {
    this.need().prepared.clear()
    return this.curation.undo()
  }

  redoCuration(): CurationChange | null {
    this.need().prepared.clear()
    return this.curation.redo()
  }

  /** Adds model columns from a library profile id, a model folder, a profile file or an OpenCompass model config. */
  async addModel(ref: string): Promise<{ models: ModelSummary[]; added: string[]; problems: Problem[] }> {
    const p = this.need()
    const loaded = await loadModels([ref])
    const have = new Set(p.models.map((m) => m.profile.id))
    const added = loaded.models.filter((m) => !have.has(m.profile.id))
    p.models.push(...added)
    const source = (await stat(ref).catch(() => null)) ? 'imported' : 'library'
    p.summary = { ...p.summary, models: [...p.summary.models, ...added.map((m) => modelSummary(m, source))] }
    return { models: p.summary.models, added: added.map((m) => m.profile.id), problems: loaded.problems }
  }

  removeModel(id: string): ModelSummary[] {
    const p = this.need()
    p.models = p.models.filter((m) => m.profile.id !== id)
    p.summary = { ...p.summary, models: p.summary.models.filter((m) => m.id !== id) }
    return p.summary.models
  }

  /**
   * The encoder an export uses for media: files are read from the opened roots, relative references from the
   * dataset's folder first; assets that must become files go to a folder beside `target`.
   */
  mediaEncoder(encoding: MediaEncoding, target: string | null, signal?: AbortSignal): MediaEncoder {
    const p = this.need()
    const problem = checkMediaEncoding(encoding)
    if (problem) throw new Error(`media: ${problem}`)
    const ds = p.dataset.path
    const datasetDir = ds.match(/\.\w+$/) ? dirname(ds) : ds
    return new MediaEncoder(encoding, { roots: [...new Set([datasetDir, ...this.roots()])], mediaDir: target ? new MediaDir(target) : undefined, signal })
  }

  /** Every row and chosen model, one JSON line each. Shared by Export and `promptloom render`. */
  lines(o: ExportOptions, signal?: AbortSignal, onProgress?: (done: number, total: number) => void) {
    return exportLines(this.exportSource(o, signal, onProgress))
  }

  /** The same lines in batches (one per block of rows): what the writers take, one await per batch. */
  lineBatches(o: ExportOptions, signal?: AbortSignal, onProgress?: (done: number, total: number) => void) {
    return exportBatches(this.exportSource(o, signal, onProgress))
  }

  /** The split's rows an export with these options covers (its shard, or all). */
  exportRange(o: ExportOptions): { start: number; end: number } {
    const p = this.need()
    return o.rows ?? shardRange(this.splitSize(p, p.testSplit), o.shard)
  }

  /** Whether the project's curation store is open (its statuses and edits are part of every line). */
  get hasStore(): boolean {
    return this.storeDb !== null && this.storeDb !== undefined
  }

  private exportSource(o: ExportOptions, signal?: AbortSignal, onProgress?: (done: number, total: number) => void): ExportSource {
    const p = this.need()
    const v = this.variant(p, o.variantId)
    const models = p.models.filter((m) => o.modelIds.includes(m.profile.id))
    if (models.length === 0) throw new Error(`none of the models ${o.modelIds.join(', ')} is in this project`)
    return {
      dataset: withEdits(p.dataset, this.curation),
      split: p.testSplit,
      total: this.splitSize(p, p.testSplit),
      variant: v,
      models,
      options: o,
      status: (i) => this.curation.get(i),
      prepare: (rows) => this.prepare(p, v, needsWholeSplit(v) ? 'all' : rows),
      wholeSplit: needsWholeSplit(v),
      signal,
      onProgress,
      ...(models.some((m) => m.profile.media?.image?.tokens)
        ? {
            mediaInfo: async (value: Record<string, unknown>, file: string) => {
              const refs = findMediaRefs(value)
              return refs.length ? { sizeOf: await rowImageSizes(refs, p.mediaBase ? join(p.mediaBase, '_') : file, this.roots()) } : undefined
            }
          }
        : {})
    }
  }

  /** What `promptloom lint` and the Lint panel read: the same rows, preparation and models as Export. */
  async lintSource(q: { variantId?: string; modelIds?: string[]; shard?: Shard }): Promise<LintSource> {
    const p = this.need()
    await p.ready
    const v = this.variant(p, q.variantId ?? p.variants[0].id)
    const models = q.modelIds ? p.models.filter((m) => q.modelIds!.includes(m.profile.id)) : p.models
    if (models.length === 0) throw new Error(q.modelIds ? `none of the models ${q.modelIds.join(', ')} is in this project` : 'the project has no model to lint against')
    const dataset = withEdits(p.dataset, this.curation)
    const named = v.reader_cfg.input_columns
    const out = v.reader_cfg.output_column
    const total = this.splitSize(p, p.testSplit)
    const range = q.shard ? shardRange(total, q.shard) : undefined
    return {
      project: {
        name: p.spec.name,
        ...(p.spec.configFile ? { config: p.spec.configFile } : {}),
        dataset: p.dataset.path,
        split: p.testSplit,
        variant: v.id,
        ...(q.shard && range ? { shard: { ...q.shard, ...range } } : {})
      },
      total,
      ...(range ? { range } : {}),
      readRows: (start, count) => dataset.readRows(p.testSplit, start, count),
      prepare: (rows) => this.prepare(p, v, needsWholeSplit(v) ? 'all' : rows),
      wholeSplit: needsWholeSplit(v),
      models,
      roots: this.roots(),
      mediaBase: p.mediaBase,
      inputColumns: !readsInputColumns(v) ? null : Array.isArray(named) && named.every((c) => typeof c === 'string') ? (named as string[]) : typeof named === 'string' ? [named] : null,
      outputColumn: typeof out === 'string' ? out : null,
      status: (i) => this.curation.get(i),
      editedRows: () => this.curation.editedRows(),
      editKey: (i) => {
        const e = this.curation.record(i)?.edits
        return e ? JSON.stringify(e) : ''
      },
      readRow: async (i) => {
        const r = await p.dataset.readRow(p.testSplit, i)
        return r ? { ...r, value: this.curation.edited(i, r.value) } : null
      }
    }
  }

  /** The Lint panel's run: every row × the chosen models, with progress and cancel; kept to filter rows by. */
  async lintRun(q: { variantId: string; modelIds: string[] }): Promise<LintReport> {
    const task = this.tasks.start('Linting')
    try {
      const run = new LintRun(await this.lintSource(q))
      await run.run(task.signal, (d, t) => task.progress(d, t))
      this.lint.set(this.need(), run)
      return run.report()
    } finally {
      task.finish(1, 1)
    }
  }

  /** The last lint's report as the rows are now: edited rows linted again, rejected rows left out. */
  async lintReport(): Promise<LintReport | null> {
    return this.lint.report(this.project)
  }

  /** The rows a scope keeps, read in batches with their field edits applied and their curation. */
  async *datasetRows(only: ExportScope, signal?: AbortSignal, onProgress?: (done: number, total: number) => void): AsyncGenerator<DatasetExportRow> {
    const p = this.need()
    const total = this.splitSize(p, p.testSplit)
    for (let start = 0; start < total; start += 500) {
      if (signal?.aborted) return
      const recs = await p.dataset.readRows(p.testSplit, start, Math.min(500, total - start))
      for (const r of recs) {
        if (r.error) continue
        const status = this.curation.get(r.index)
        if (only === 'accepted' ? status !== 'accepted' : only === 'not-rejected' ? status === 'rejected' : false) continue
        const cur = this.curation.record(r.index)
        yield { index: r.index, value: this.curation.edited(r.index, r.value), status, ...(cur ? { curation: cur } : {}) }
      }
      onProgress?.(Math.min(start + 500, total), total)
    }
  }

  /** The curated dataset written to `target` in `format` (default: the source's own form). */
  async exportDataset(
    q: { only: ExportScope; format?: DatasetExportFormat; media: MediaEncoding; curationColumns?: boolean },
    target: string,
    signal?: AbortSignal,
    onProgress?: (done: number, total: number) => void
  ): Promise<DatasetExportResult & { format: DatasetExportFormat }> {
    const p = this.need()
    await p.ready
    const format = q.format ?? sourceFormat(p.dataset.format, p.dataset.columns)
    const r = await writeDatasetExport({
      target,
      format,
      rows: this.datasetRows(q.only, signal, onProgress),
      columns: p.dataset.columns,
      encoder: this.mediaEncoder(q.media, target, signal),
      curationColumns: q.curationColumns === true,
      signal
    })
    return { ...r, format }
  }

  /** The app's Export: rendered prompts per model, or the curated dataset; progress with counts, cancellable. */
  async exportRun(q: ExportRequest): Promise<ExportResult> {
    const p = this.need()
    // Export writes validated rows only (unreadable ones skipped and counted), as it always has.
    await p.ready
    const base = p.spec.name.replace(/[^\w.-]+/g, '_')
    const dsFormat = q.what === 'dataset' ? (q.format ?? sourceFormat(p.dataset.format, p.dataset.columns)) : null
    const name = dsFormat ? `${base}-curated${DATASET_EXT[dsFormat]}` : `${base}-${(q.what !== 'dataset' ? q.variantId : '').replace(/[^\w.-]+/g, '_')}.jsonl`
    const dialog = q.destination === 'dialog' && this.host.mode === 'electron'
    const target = dialog ? await this.host.pickSavePath(name) : join(await tmpExportDir(), name)
    if (!target) return { rows: 0, skipped: 0, cancelled: true }
    const task = this.tasks.start(dsFormat ? 'Exporting dataset' : 'Exporting prompts')
    const media = q.media ?? { form: 'keep' as const }
    let rows: number
    let skipped = 0
    let problems: string[] = []
    try {
      if (q.what === 'dataset') {
        const r = await this.exportDataset({ only: q.only, format: dsFormat!, media, curationColumns: q.curationColumns }, target, task.signal, (d, t) => task.progress(d, t))
        if (r.cancelled) return await cancelled(target, dialog)
        rows = r.rows
        problems = r.problems
      } else {
        const lines = this.lineBatches({ variantId: q.variantId, modelIds: q.modelIds, only: q.only, format: q.format ?? 'auto' }, task.signal, (d, t) => task.progress(d, t))
        const r = await writeExport(target, lines, task.signal, this.mediaEncoder(media, target, task.signal))
        if (r.cancelled) return await cancelled(target, dialog)
        rows = r.lines
        skipped = r.skipped
      }
    } catch (e) {
      if (!dialog) await rm(dirname(target), { recursive: true, force: true })
      throw e
    } finally {
      task.finish(1, 1)
    }
    const extra = problems.length ? { problems } : {}
    if (!dialog) {
      if (!this.host.offerDownload) throw new Error('this host cannot offer downloads')
      return { rows, skipped, downloadUrl: this.host.offerDownload(target, name), fileName: name, ...extra }
    }
    return { rows, skipped, path: target, ...extra }
  }
}

const DATASET_EXT: Record<DatasetExportFormat, string> = { jsonl: '.jsonl', json: '.json', 'mm-custom': '.mm_custom.jsonl', 'vlmeval-tsv': '.tsv', 'hf-parquet': '.parquet' }

/** A cancelled export: nothing was written (atomic); a browser-mode export's own temp folder goes too. */
async function cancelled(target: string, dialog: boolean): Promise<ExportResult> {
  if (!dialog) await rm(dirname(target), { recursive: true, force: true })
  return { rows: 0, skipped: 0, cancelled: true }
}

async function tmpExportDir(): Promise<string> {
  const { mkdtemp } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  return mkdtemp(join(tmpdir(), 'promptloom-export-'))
}

/** The dataset as export sees it: rows read through the curation's edits. */
function withEdits(d: DatasetHandle, c: CurationState): DatasetHandle {
  return new Proxy(d, {
    get(target, prop, receiver) {
      if (prop === 'readRows') {
        return async (split: string, start: number, count: number) =>
          (await target.readRows(split, start, count)).map((r) => ({ ...r, value: c.edited(r.index, r.value) }))
      }
      const v = Reflect.get(target, prop, receiver)
      return typeof v === 'function' ? v.bind(target) : v
    }
  })
}

function cellText(v: unknown): string {
  const media = describeMediaValue(v)
  if (media) return media
  const s = typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v)
  if (/^data:|^[A-Za-z0-9+/]{200,}/.test(s)) return `(${s.length.toLocaleString()} chars of media)`
  return s.replace(/\s+/g, ' ').slice(0, 120)
}

function firstUserText(turns: unknown[]): string | null {
  for (const m of turns.slice(0, 8)) {
    if (!m || typeof m !== 'object') continue
    const o = m as Record<string, unknown>
    const role = o.role ?? o.from
    if (role !== 'user' && role !== 'human') continue
    const text = contentPlainText(o.content ?? o.value).replace(/<(image|audio|video)>/g, '').slice(0, 2000)
    if (text.trim()) return text
  }
  return null
}

function previewOf(value: Record<string, unknown>): string {
  const parts: string[] = []
  let len = 0
  for (const [k, v] of Object.entries(value)) {
    // A conversation row (OpenAI messages, LLaVA/ShareGPT conversations) previews as its first user turn's text.
    const chat = Array.isArray(v) && /^(messages|conversations?)$/.test(k) ? firstUserText(v) : null
    if (chat) {
      parts.push(chat.replace(/\s+/g, ' ').trim())
      len += chat.length
      if (len > PREVIEW_CHARS) break
      continue
    }
    if (typeof v !== 'string' || v.length > 2000 || /^data:|^[A-Za-z0-9+/]{200,}/.test(v)) continue
    if (/^(id|image|audio|video|path)$/i.test(k)) continue
    parts.push(v.replace(/\s+/g, ' '))
    len += v.length
    if (len > PREVIEW_CHARS) break
  }
  const id = typeof value.id === 'string' || typeof value.id === 'number' ? `${value.id} · ` : ''
  return (id + parts.join(' · ')).slice(0, PREVIEW_CHARS)
}

/** The dataset's problems as the project lists them (the first 50). */
function datasetProblems(d: DatasetHandle): Problem[] {
  return d.errors.slice(0, 50).map((e) => ({ code: e.code, message: e.message, severity: e.severity, at: { file: e.at.file, ...(e.at.line ? { line: e.at.line } : {}), ...(e.at.offset !== undefined ? { offset: e.at.offset } : {}) } }))
}

function datasetSummary(d: DatasetHandle): DatasetSummary {
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

function modelSummary(m: ModelContext, source: string): ModelSummary {
  return { id: m.profile.id, name: m.profile.name, format: m.profile.format, contextLength: m.profile.context_length, source }
}

/** The folders media may be served from: the project root and the dataset's folder. */
function rootsOf(p: LoadedProject): string[] {
  const { spec, dataset } = p
  const ds = dataset.path
  return [...new Set([spec.root, ds.match(/\.\w+$/) ? dirname(ds) : ds, ...p.extraRoots])]
}

/** Originals shorter than this are too common to say a field was derived from them. */
const MIN_DERIVED_CHARS = 8

/**
 * Fields derived from an edited one (an AIS `content` built from `question`) still hold the original text: each is
 * marked stale, naming the field it came from, so the reviewer edits it too or re-derives it (the row's panel
 * offers to replace the original text by the edited one).
 */
function staleDerived(row: Record<string, unknown>, cur: RowCuration | undefined): Problem[] {
  const out: Problem[] = []
  for (const [from, e] of Object.entries(cur?.edits ?? {})) {
    if (typeof e.original !== 'string' || typeof e.value !== 'string' || e.original.length < MIN_DERIVED_CHARS) continue
    for (const [field, v] of Object.entries(row)) {
      if (field === from || typeof v !== 'string' || !v.includes(e.original) || v.includes(e.value)) continue
      out.push({ code: 'derived-stale', severity: 'warning', message: `${field} still holds the original ${from} (it looks derived from it): edit ${field} too, or re-derive it`, at: { field, from } })
    }
  }
  return out
}
