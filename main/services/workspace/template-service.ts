// Step 5: the templates a row renders through, edited. The template editor's documents (a variant's infer_cfg
// pieces, a model's format), a preview of the row with unsaved edits, applying and reverting them (saved beside
// the dataset, never over the config), exporting a variant's infer_cfg; and the prompt builder's recipes, which
// become a config of their own.
import type { BuilderCheck, BuilderSaved, ExportResult, TemplateEdit, TemplatePreview, TemplateTarget } from '../../../shared/api/types'
import type { Recipe } from '../../../shared/builder'
import type { Host } from '../../api/host'
import { tmpExportDir } from './export-service'
import type { ProjectSession } from './project-session'
import { checkRecipe, saveRecipe } from './prompt-builder'
import type { RenderService } from './render-service'
import { join } from 'node:path'

export class TemplateService {
  constructor(
    private session: ProjectSession,
    private render: RenderService,
    private host: Host
  ) {}

  get(t: TemplateTarget) {
    return this.session.need().templates.doc(t)
  }

  /** Renders the row with unsaved template edits; nothing is committed. */
  async preview(q: { index: number; variantId: string; modelIds: string[]; edits: TemplateEdit[] }): Promise<TemplatePreview> {
    const p = this.session.need()
    const d = p.templates.drafts(q.variantId, q.edits)
    if (d.unreadable) {
      // The row is still shown (with the saved templates) and says why the draft is not used: the pane never
      // stays on another row because the text in the editor cannot be read.
      const render = await this.render.row(q)
      render.problems.unshift({ code: 'template-draft', message: 'The template in the editor has errors (marked in the editor), so it is not used for this row', severity: 'error' })
      return { render, diagnostics: d.diagnostics }
    }
    const render = await this.render.row(q, { variant: d.variant, models: d.models })
    return { render, diagnostics: p.templates.renderDiagnostics(d, q.edits, render) }
  }

  apply(t: TemplateTarget, text: string) {
    return this.session.need().templates.apply(t, text)
  }

  revert(t: TemplateTarget) {
    return this.session.need().templates.revert(t)
  }

  /** Writes a variant's infer_cfg (with its edits) as JSON where the user picks; never over the config file. */
  async exportConfig(q: { variantId: string; destination: 'dialog' | 'download' }): Promise<ExportResult> {
    const p = this.session.need()
    const name = `${q.variantId.replace(/[^\w.-]+/g, '_')}.infer_cfg.json`
    const dialog = q.destination === 'dialog' && this.host.mode === 'electron'
    const target = dialog ? await this.host.pickSavePath(name) : join(await tmpExportDir(), name)
    if (!target) return { rows: 0, skipped: 0, cancelled: true }
    await p.templates.exportConfig(q.variantId, target, p.spec.configFile)
    if (dialog) return { rows: 1, skipped: 0, path: target }
    if (!this.host.offerDownload) throw new Error('this host cannot offer downloads')
    return { rows: 1, skipped: 0, downloadUrl: this.host.offerDownload(target, name) }
  }

  /** The prompt builder: the recipe checked against this dataset (schema, unfilled placeholders, rows). */
  async checkRecipe(recipe: Recipe): Promise<BuilderCheck> {
    const p = this.session.need()
    return checkRecipe(p.dataset, p.testSplit, p.summary.dataset.columns.map((c) => c.name), recipe)
  }

  /** The prompt builder's recipe saved as a config + JSON Schema (+ the composed data, multimodal) beside the dataset. */
  async saveRecipe(recipe: Recipe): Promise<BuilderSaved> {
    const p = this.session.need()
    const source = { dataset: p.dataset, testSplit: p.testSplit, trainSplit: p.trainSplit, edited: (i: number, value: Record<string, unknown>) => this.session.curation.edited(i, value), mediaBase: p.mediaBase }
    return saveRecipe(p.dataset.path, p.spec.configFile, recipe, source)
  }
}
