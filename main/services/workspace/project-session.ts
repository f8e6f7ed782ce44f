// The open project and its lifecycle: one open at a time, background validation of a large dataset (row numbers
// are final only when it ends), the project store that keeps its curation, the media check after the open, and
// the model columns. Every other service asks the session for the project (`need()`) and its curation state.
import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { AppInfo, DatasetSummary, ModelSummary, Diagnostic, ProjectSummary, SkippedLine } from '../../../shared/api/types'
import type { Host } from '../../api/host'
import { appVersion, demoProjectDir } from '../app-paths'
import { openDataset } from '../datasets'
import type { CurationDb } from '../store/curation-db'
import { openProjectStore } from '../store/project-store'
import { storeCandidates } from '../store/store-location'
import { CurationState } from './curation'
import { libraryProfiles, loadModels } from './load-models'
import { checkSplitMedia } from './media-check'
import { datasetProblems, datasetSummary, loadProject, loadProjectPath, modelSummary, rootsOf, splitSize, type LoadedProject, type LoadOptions } from './project-load'
import type { ProjectSpec } from './project-spec'
import { previewItem } from './row-query'
import type { Tasks } from './tasks'

/** Datasets above this many rows check their media with a progress bar (smaller ones finish at once). */
const MEDIA_CHECK_TASK_ROWS = 20_000

export interface SessionOptions {
  curation?: 'persistent' | 'memory'
  deferValidationAbove?: number
}

export class ProjectSession {
  /** What `project.openDemo` opens: the path given on the command line, else the bundled demo. */
  defaultPath: string | undefined
  /** The open project's curation: saved in its project store (main/services/store), or in memory only. */
  private store = new CurationState()
  private storeDb: CurationDb | null = null
  private project: LoadedProject | null = null
  private opening: Promise<ProjectSummary> | null = null

  constructor(
    private host: Host,
    private tasks: Tasks,
    private opts: SessionOptions = {}
  ) {}

  /** The open project's curation state (statuses, tags, notes, field edits), replaced when its store opens. */
  get curation(): CurationState {
    return this.store
  }

  /** Curation is saved with the project unless the host asks for memory only (tests on the repo's demo do). */
  private get persistent(): boolean {
    return (this.opts.curation ?? 'persistent') === 'persistent'
  }

  /** Whether the project's curation store is open (its statuses and edits are part of every line). */
  get hasStore(): boolean {
    return this.storeDb !== null && this.storeDb !== undefined
  }

  /** Closes the project store (its data is already on disk: this only releases the file). */
  close() {
    this.storeDb?.close()
    this.storeDb = null
  }

  info(): AppInfo {
    return { name: 'PromptLoom', version: appVersion(), mode: this.host.mode, node: process.versions.node, platform: process.platform }
  }

  /** The open project, or an error saying none is. */
  need(): LoadedProject {
    if (!this.project) throw new Error('no project is open')
    return this.project
  }

  /** The open project or null (services that must not throw, such as the lint report). */
  get openProject(): LoadedProject | null {
    return this.project
  }

  /** Rows in the open project's test split: the rows every list, render and export speaks of. */
  testRows(p: LoadedProject = this.need()): number {
    return splitSize(p, p.testSplit)
  }

  roots(): string[] {
    return this.project ? rootsOf(this.project) : []
  }

  /** Every line the dataset skipped (could not read), with its place; the first 10,000. */
  skippedLines(): SkippedLine[] {
    const d = this.need().dataset
    return d.errors.filter((e) => e.severity === 'error').map((e) => ({ file: e.at.file, line: e.at.line ?? null, offset: e.at.offset ?? null, code: e.code, message: e.message }))
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

  private loadOptions(deferValidation: boolean): LoadOptions {
    return { tasks: this.tasks, deferValidation, deferMinBytes: this.opts.deferValidationAbove, persistent: this.persistent }
  }

  /** The app's open: its list shows the dataset's first rows while the rest is indexed and the project loads. */
  private appLoadOptions(): LoadOptions {
    return {
      ...this.loadOptions(true),
      onFirstRows: (file, split, rows) => this.host.emit('dataset.firstRows', { file, items: rows.map((r) => previewItem(split, r.index, r.value)) })
    }
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
        p = await loadProjectPath(path, this.appLoadOptions(), opts.mediaFolder)
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
   * Opens a project described explicitly (the CLI builds one from its flags). A pipeline reads the reviewers'
   * saved curation when the project has a store, and never creates one.
   */
  async openSpec(spec: ProjectSpec): Promise<ProjectSummary> {
    this.release()
    const p = await loadProject(spec, this.loadOptions(false))
    if (this.persistent && storeCandidates(p.spec.root, p.dataset.path).some((c) => existsSync(c.file))) await this.openStore(p)
    this.project = p
    return p.summary
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
      problems.unshift({ code: 'validation-incomplete', message: `${what}: column types are from the first rows and unreadable rows show as error rows. Reopen the project to validate it.`, severity: 'warning', source: p.dataset.path })
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
        p.summary.problems.push({ code: 'store', message: `Curation could not be loaded: ${e instanceof Error ? e.message : String(e)}`, severity: 'error' })
      }
    }
    if (this.project !== p) return
    this.host.emit('project.changed', { summary: p.summary, rowsChanged: outcome.renumbered || storeOpened })
  }

  /**
   * Row numbers as they are once the project is ready. A request made before validation ended speaks of the
   * numbering before it; rows that validation skipped are refused.
   */
  async finalIndices(p: LoadedProject, indices: number[]): Promise<number[]> {
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
      rows: { total: this.testRows(p), readRows: (start, count) => p.dataset.readRows(p.testSplit, start, count) },
      idColumn: p.spec.idColumn,
      readRow: async (i) => (await p.dataset.readRow(p.testSplit, i))?.value
    })
    this.store = s.curation
    this.storeDb = s.db
    p.summary.problems.push(...s.problems)
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
      const total = this.testRows(p)
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

  async inspect(path: string): Promise<DatasetSummary> {
    return datasetSummary(await openDataset(path, {}))
  }

  /** The built-in model profiles (the Add model list). */
  async libraryModels(): Promise<ModelSummary[]> {
    const lib = await libraryProfiles()
    return lib.map((p) => ({ id: p.id, name: p.name, format: p.format, contextLength: p.context_length, source: 'library' }))
  }

  /** Adds model columns from a library profile id, a model folder, a profile file or an OpenCompass model config. */
  async addModel(ref: string): Promise<{ models: ModelSummary[]; added: string[]; problems: Diagnostic[] }> {
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
}
