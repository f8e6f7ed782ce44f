// The prompt builder's back end: checks a recipe against the open dataset (placeholders no column fills, rows that
// do not satisfy the template's field schema) and saves it as an ordinary OpenCompass config plus its JSON Schema
// beside the dataset — never over the project's own config, written atomically. The multimodal shape saves an
// AISBench config and the data it reads: each row with its composed `content` (shared/builder/mm-content.ts).
import { existsSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { BuilderCheck, BuilderSaved } from '../../../shared/api/types'
import { CONTENT_SPEC_KEY, applyFieldEdits, buildVariant, checkRow, composeContent, deriveSchema, mediaRefs, toConfigText, toJsonSchema, unfilledPlaceholders, type ComposedContent, type ContentSpec, type Recipe } from '../../../shared/builder'
import { toPlainJson } from '../../../shared/engine'
import type { DatasetHandle } from '../datasets'
import { openAtomic, writeFileAtomic } from '../fs/atomic-write'

/** Rows checked against the schema: all of them up to this many (the count says when fewer were checked). */
const MAX_ROWS_CHECKED = 100_000
const EXAMPLES_PER_ISSUE = 5

export async function checkRecipe(dataset: DatasetHandle, split: string, columns: string[], recipe: Recipe): Promise<BuilderCheck> {
  const built = buildVariant(recipe)
  const schema = applyFieldEdits(deriveSchema(built.infer_cfg, built.reader_cfg.output_column), recipe.fields)
  const total = dataset.splits.find((s) => s.name === split)?.rowCount ?? 0
  const n = Math.min(total, MAX_ROWS_CHECKED)
  const byKey = new Map<string, BuilderCheck['rowIssues'][number]>()
  for (let start = 0; start < n; start += 1000) {
    for (const rec of await dataset.readRows(split, start, Math.min(1000, n - start))) {
      for (const issue of checkRow(schema, rec.value)) {
        const key = `${issue.code}:${issue.field}`
        let g = byKey.get(key)
        if (!g) byKey.set(key, (g = { code: issue.code, field: issue.field, severity: issue.severity, message: issue.message, count: 0, rows: [] }))
        g.count++
        if (g.rows.length < EXAMPLES_PER_ISSUE) g.rows.push(rec.index)
      }
    }
  }
  return {
    // The variant editor's text (infer_cfg pieces): the renderer previews it as a template draft.
    variantText: JSON.stringify(built.infer_cfg, null, 2) + '\n',
    schema,
    issues: unfilledPlaceholders(schema, columns),
    rowIssues: [...byKey.values()],
    rowsChecked: n,
    totalRows: total
  }
}

/** `<dir>/<abbr>_gen.py`, or `_gen-2.py`… when that name is taken by another file. */
function freeName(dir: string, abbr: string, configFile: string | undefined): string {
  const stem = abbr.replace(/[^\w.-]+/g, '_')
  for (let k = 1; ; k++) {
    const file = join(dir, `${stem}_gen${k === 1 ? '' : `-${k}`}.py`)
    if (configFile && resolve(file) === resolve(configFile)) continue
    if (!existsSync(file)) return file
  }
}

/** Where the rows a save composes come from (the open project: its splits, field edits applied). */
export interface SaveSource {
  dataset: DatasetHandle
  testSplit: string
  trainSplit: string
  /** The row as it renders (field edits applied). */
  edited(index: number, value: Record<string, unknown>): Record<string, unknown>
  /** The project's media folder: relative media paths are read from it, else from the row's file's folder. */
  mediaBase: string | null
}

/**
 * Each row's content for the multimodal shape, the same in the app's preview and in the saved data: relative media
 * paths become absolute (read from the project's media folder, else from the row's own file's folder), so the saved
 * config finds every picture from wherever AISBench runs and the preview shows the very bytes the data will hold.
 * Examples are train rows as they are (field edits belong to test rows).
 */
export class ContentComposer {
  private readonly examples = new Map<number, { value: Record<string, unknown>; folder: string } | null>()
  private readonly folderOf = new WeakMap<Record<string, unknown>, string>()

  constructor(
    private readonly spec: ContentSpec,
    private readonly src: Pick<SaveSource, 'dataset' | 'trainSplit' | 'mediaBase'>
  ) {}

  private folder(file: string): string {
    return this.src.mediaBase ?? dirname(file)
  }

  private async example(id: number): Promise<Record<string, unknown> | undefined> {
    if (!this.examples.has(id)) {
      const size = this.src.dataset.splits.find((s) => s.name === this.src.trainSplit)?.rowCount ?? 0
      const [r] = id < size ? await this.src.dataset.readRows(this.src.trainSplit, id, 1) : []
      this.examples.set(id, r && !r.error ? { value: r.value, folder: this.folder(r.at.file) } : null)
    }
    const e = this.examples.get(id)
    if (!e) return undefined
    this.folderOf.set(e.value, e.folder)
    return e.value
  }

  /** The absolute form of a media path of `from` (a row or an example). */
  readonly pathOf = (p: string, from: Record<string, unknown>): string => (isAbsolute(p) ? p : resolve(this.folderOf.get(from) ?? '.', p))

  async compose(value: Record<string, unknown>, rowFile: string): Promise<ComposedContent> {
    this.folderOf.set(value, this.folder(rowFile))
    const train: Record<string, unknown>[] = []
    for (const id of this.spec.examples) {
      const ex = await this.example(id)
      if (ex) train[id] = ex
    }
    return composeContent(this.spec, value, train, this.pathOf)
  }
}

/** A path as a config beside `from` names it: `./rel` inside that folder, absolute otherwise. */
function refTo(from: string, target: string): string {
  const rel = relative(from, target).split('\\').join('/')
  return rel.startsWith('..') ? target : `./${rel}`
}

/** Writes the config and its schema (and, for the multimodal shape, its data) beside the dataset (file or folder). */
export async function saveRecipe(datasetPath: string, configFile: string | undefined, recipe: Recipe, source: SaveSource): Promise<BuilderSaved> {
  const built = buildVariant(recipe)
  // Beside the dataset file, or beside a dataset folder (inside it, the schema's .json would read as a split).
  const dir = dirname(datasetPath)
  const config = freeName(dir, recipe.abbr, configFile)
  const spec = built.infer_cfg[CONTENT_SPEC_KEY] as ContentSpec | undefined
  const data = spec ? config.replace(/\.py$/, '.content.jsonl') : undefined
  if (spec && data) await writeComposed(data, spec, source)
  await writeFileAtomic(config, toConfigText(built, refTo(dirname(config), data ?? datasetPath)))
  const schemaFile = config.replace(/\.py$/, '.schema.json')
  const schema = toJsonSchema(applyFieldEdits(deriveSchema(built.infer_cfg, built.reader_cfg.output_column), recipe.fields), recipe.abbr)
  await writeFileAtomic(schemaFile, JSON.stringify(schema, null, 2) + '\n')
  return { config, schema: schemaFile, ...(data ? { data } : {}) }
}

const READ_BATCH = 1000

/**
 * The multimodal shape's data: every test row (field edits applied) with its media cells as absolute references
 * and its composed `content`, one JSON line each.
 */
async function writeComposed(target: string, spec: ContentSpec, src: SaveSource): Promise<void> {
  const composer = new ContentComposer(spec, src)
  const mediaColumns = new Set(spec.media.map((m) => m.column))
  const total = src.dataset.splits.find((s) => s.name === src.testSplit)?.rowCount ?? 0
  const w = await openAtomic(target)
  try {
    for (let start = 0; start < total; start += READ_BATCH) {
      for (const r of await src.dataset.readRows(src.testSplit, start, Math.min(READ_BATCH, total - start))) {
        // A row that cannot be read now (its file changed) is not silently left out of the saved data.
        if (r.error) throw new Error(`row ${r.index} of ${r.at.file} could not be read (${r.error.message}); nothing was saved`)
        const value = src.edited(r.index, r.value)
        const { content } = await composer.compose(value, r.at.file)
        const line: Record<string, unknown> = {}
        for (const [k, v] of Object.entries(value)) {
          if (mediaColumns.has(k)) {
            const refs = mediaRefs(v, (p) => composer.pathOf(p, value))
            line[k] = Array.isArray(v) ? refs : (refs[0] ?? null)
          } else line[k] = toPlainJson(v)
        }
        line.content = content
        await w.write(JSON.stringify(line) + '\n')
      }
    }
    await w.commit()
  } catch (e) {
    await w.abort()
    throw e
  }
}
