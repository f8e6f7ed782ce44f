// The prompt builder's back end: checks a recipe against the open dataset (placeholders no column fills, rows that
// do not satisfy the template's field schema) and saves it as an ordinary OpenCompass config plus its JSON Schema
// beside the dataset — never over the project's own config, written atomically.
import { existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { BuilderCheck, BuilderSaved } from '../../../shared/api/types'
import { buildVariant, checkRow, deriveSchema, toJsonSchema, toOpenCompassConfig, unfilledPlaceholders, type Recipe } from '../../../shared/builder'
import type { DatasetHandle } from '../datasets'
import { writeFileAtomic } from '../fs/atomic-write'

/** Rows checked against the schema: all of them up to this many (the count says when fewer were checked). */
const MAX_ROWS_CHECKED = 100_000
const EXAMPLES_PER_ISSUE = 5

export async function checkRecipe(dataset: DatasetHandle, split: string, columns: string[], recipe: Recipe): Promise<BuilderCheck> {
  const built = buildVariant(recipe)
  const schema = deriveSchema(built.infer_cfg, built.reader_cfg.output_column)
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

/** Writes the config and its schema beside the dataset (file or folder). */
export async function saveRecipe(datasetPath: string, configFile: string | undefined, recipe: Recipe): Promise<BuilderSaved> {
  const built = buildVariant(recipe)
  // Beside the dataset file, or beside a dataset folder (inside it, the schema's .json would read as a split).
  const dir = dirname(datasetPath)
  const config = freeName(dir, recipe.abbr, configFile)
  const rel = relative(dirname(config), datasetPath).split('\\').join('/')
  const datasetRef = rel.startsWith('..') ? datasetPath : `./${rel}`
  await writeFileAtomic(config, toOpenCompassConfig(built, datasetRef))
  const schemaFile = config.replace(/\.py$/, '.schema.json')
  const schema = toJsonSchema(deriveSchema(built.infer_cfg, built.reader_cfg.output_column), recipe.abbr)
  await writeFileAtomic(schemaFile, JSON.stringify(schema, null, 2) + '\n')
  return { config, schema: schemaFile }
}
