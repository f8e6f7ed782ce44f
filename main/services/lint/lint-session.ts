// The open project's last lint, for the app: its report as the rows are now (edited rows linted again, rejected
// rows left out), and the rows of a group or token bin for the row list's filter. One lint per project: opening
// another project forgets it.
import type { LintReport } from '../../../shared/lint/report'
import type { LintRun } from './lint-run'

export class LintSession {
  private owner: object | null = null
  private run: LintRun | null = null
  /** Bumped whenever the rows of a group may have changed (a new run, rows linted again). */
  version = 0

  set(project: object, run: LintRun): void {
    this.owner = project
    this.run = run
    this.version++
  }

  private current(project: object | null): LintRun | null {
    return project && project === this.owner ? this.run : null
  }

  async report(project: object | null): Promise<LintReport | null> {
    const run = this.current(project)
    if (!run) return null
    if (await run.refreshEdits()) this.version++
    return run.report()
  }

  /** Rows of a group key; with no lint of this project, no rows (the filter then shows nothing, not everything). */
  async rowSet(project: object, key: string): Promise<Set<number>> {
    const run = this.current(project)
    if (!run) return new Set()
    if (await run.refreshEdits()) this.version++
    return new Set(run.rowsOf(key))
  }
}
