// Lint: every row × the chosen models checked for what would make a prompt wrong (missing fields, over-long
// prompts, media the model drops), reading the same rows, preparation and models as export. The Lint panel's
// last run is kept (LintSession) so the row list can filter by a finding.
import type { LintReport } from '../../../shared/lint/report'
import { LintRun, type LintSource } from '../lint/lint-run'
import type { LintSession } from '../lint/lint-session'
import { withEdits } from './export-service'
import { shardRange, type Shard } from './export'
import { needsWholeSplit } from './infer-mode'
import type { ProjectSession } from './project-session'
import type { RenderService } from './render-service'
import type { Tasks } from './tasks'
import { readsInputColumns } from './variants'

export class LintService {
  constructor(
    private session: ProjectSession,
    private render: RenderService,
    private tasks: Tasks,
    private last: LintSession
  ) {}

  /** What `promptloom lint` and the Lint panel read: the same rows, preparation and models as Export. */
  async source(q: { variantId?: string; modelIds?: string[]; shard?: Shard }): Promise<LintSource> {
    const p = this.session.need()
    await p.ready
    const v = this.render.variant(p, q.variantId ?? p.variants[0].id)
    const models = q.modelIds ? p.models.filter((m) => q.modelIds!.includes(m.profile.id)) : p.models
    if (models.length === 0) throw new Error(q.modelIds ? `none of the models ${q.modelIds.join(', ')} is in this project` : 'the project has no model to lint against')
    const dataset = withEdits(p.dataset, this.session.curation)
    const named = v.reader_cfg.input_columns
    const out = v.reader_cfg.output_column
    const total = this.session.testRows(p)
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
      prepare: (rows) => this.render.prepare(p, v, needsWholeSplit(v) ? 'all' : rows),
      wholeSplit: needsWholeSplit(v),
      models,
      roots: this.session.roots(),
      mediaBase: p.mediaBase,
      inputColumns: !readsInputColumns(v) ? null : Array.isArray(named) && named.every((c) => typeof c === 'string') ? (named as string[]) : typeof named === 'string' ? [named] : null,
      outputColumn: typeof out === 'string' ? out : null,
      status: (i) => this.session.curation.get(i),
      editedRows: () => this.session.curation.editedRows(),
      editKey: (i) => {
        const e = this.session.curation.record(i)?.edits
        return e ? JSON.stringify(e) : ''
      },
      readRow: async (i) => {
        const r = await p.dataset.readRow(p.testSplit, i)
        return r ? { ...r, value: this.session.curation.edited(i, r.value) } : null
      },
      threads: { spec: p.spec, variantId: v.id, modelIds: models.map((m) => m.profile.id), total }
    }
  }

  /** The Lint panel's run: every row × the chosen models, with progress and cancel; kept to filter rows by. */
  async run(q: { variantId: string; modelIds: string[] }): Promise<LintReport> {
    const task = this.tasks.start('Linting')
    try {
      const run = new LintRun(await this.source(q))
      await run.run(task.signal, (d, t) => task.progress(d, t))
      this.last.set(this.session.need(), run)
      return run.report()
    } finally {
      task.finish(1, 1)
    }
  }

  /** The last lint's report as the rows are now: edited rows linted again, rejected rows left out. */
  async report(): Promise<LintReport | null> {
    return this.last.report(this.session.openProject)
  }
}
