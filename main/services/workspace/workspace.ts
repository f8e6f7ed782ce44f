// The workspace behind the API, the CLI and the tests: one instance per host, made of small services named for
// their job. Read them in this order to follow one row from its file to an exported line:
//   project-session (project-load)  the open project: config, dataset, models, validation, store
//   row-query                       the row list: pages, search, filter, sort
//   render-service                  what each model receives for a row
//   curation-service                statuses, tags, notes, field edits; undo
//   template-service                template edits and their preview, the prompt builder
//   export-service                  rendered prompts or the curated dataset, written out
// beside them: lint-service (checks every row × model), MediaService (media-calls.ts) and tasks (progress, cancel).
// The API layer (main/api/create-api.ts) maps each channel to one of these services.
import type { Host } from '../../api/host'
import { LintSession } from '../lint/lint-session'
import { CurationService } from './curation-service'
import { ExportService } from './export-service'
import { LintService } from './lint-service'
import { MediaService } from './media-calls'
import { ProjectSession, type SessionOptions } from './project-session'
import { RenderService } from './render-service'
import { RowQuery } from './row-query'
import { Tasks } from './tasks'
import { TemplateService } from './template-service'

export type { RowsQuery } from './row-query'
export type { LoadedProject } from './project-load'

export class Workspace {
  readonly tasks: Tasks
  readonly session: ProjectSession
  readonly rows: RowQuery
  readonly render: RenderService
  readonly curation: CurationService
  readonly templates: TemplateService
  readonly exports: ExportService
  readonly lint: LintService
  readonly media: MediaService

  constructor(host: Host, opts: SessionOptions = {}) {
    this.tasks = new Tasks(host)
    this.session = new ProjectSession(host, this.tasks, opts)
    /** The last lint of the open project (the Lint panel's groups, and the row filter by group). */
    const lastLint = new LintSession()
    this.rows = new RowQuery(this.session, this.tasks, lastLint)
    this.render = new RenderService(this.session, host)
    this.curation = new CurationService(this.session, this.rows)
    this.templates = new TemplateService(this.session, this.render, host)
    this.exports = new ExportService(this.session, this.render, this.tasks, host)
    this.lint = new LintService(this.session, this.render, this.tasks, lastLint)
    this.media = new MediaService(() => this.session.roots())
  }

  /** Closes the project store (its data is already on disk: this only releases the file). */
  close() {
    this.session.close()
  }
}
