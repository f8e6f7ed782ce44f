// Opens the curation store of one dataset: the SQLite file (first place that works, after migrating the shared
// per-folder store older versions wrote), its saved records matched to the rows they belong to (row identity), and
// the problems the reviewer should know about — curation kept outside the project folder or not kept at all,
// decisions that followed their rows or lost them, rows whose content changed under a decision (flagged for
// review), and another PromptLoom writing the same store.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import type { Diagnostic } from '../../../shared/api/types'
import { stampOf, type FileStamp } from '../datasets/index-cache'
import type { RowRecord } from '../datasets/types'
import { CurationState, rowsText } from '../workspace/curation'
import { CurationDb } from './curation-db'
import { identifySplit, identityAt, reconcile, type SplitIdentity } from './row-identity'
import { OVERRIDES_FILE, legacyStoreFile, storeCandidates } from './store-location'

export interface ProjectStoreSpec {
  root: string
  /** The dataset path the project names (file or folder); the store is this dataset's and no other's. */
  dataset: string
  /** The split curation applies to, and the files that make it up (their stamps detect a changed dataset). */
  split: string
  files: string[]
  /** The split's rows, read once to identify them (id column or content hash). */
  rows?: { total: number; readRows(start: number, count: number): Promise<RowRecord[]> }
  /** The id column project.json chose, if any. */
  idColumn?: string
  /** Reads a row of the split, to check that edited fields still start from the value they were edited from. */
  readRow?: (index: number) => Promise<Record<string, unknown> | undefined>
}

/** Edited rows checked against the dataset at open: each costs one row read. */
const MAX_EDITED_CHECKED = 500
const MAX_STALE_REPORTED = 20

export interface ProjectStore {
  curation: CurationState
  /** null when nothing could be opened: curation then lives in memory only (and a problem says so). */
  db: CurationDb | null
  problems: Diagnostic[]
  identity: SplitIdentity | null
}

export async function openProjectStore(
  spec: ProjectStoreSpec,
  env: NodeJS.ProcessEnv = process.env
): Promise<ProjectStore> {
  const problems: Diagnostic[] = []
  const failures: string[] = []
  let db: CurationDb | null = null
  for (const c of storeCandidates(spec.root, spec.dataset, env)) {
    try {
      db = CurationDb.open(c.file)
    } catch (e) {
      failures.push(`${c.file}: ${e instanceof Error ? e.message : String(e)}`)
      continue
    }
    const owner = db.meta('dataset')
    const me = datasetName(spec, c.fallback)
    if (owner !== null && owner !== me) {
      // A store copied or left under another dataset's name: never show one dataset's decisions on another.
      failures.push(`${c.file} holds the curation of ${owner}, not of this dataset`)
      db.close()
      db = null
      continue
    }
    if (owner === null) db.setMeta('dataset', me)
    if (c.fallback === 'config-dir') {
      problems.push({
        code: 'curation-store',
        severity: 'warning',
        message: `The project folder is not writable (${failures.join('; ')}); curation is saved in ${c.file} instead`,
        source: c.file
      })
    }
    break
  }
  if (!db) {
    problems.push({
      code: 'curation-store',
      severity: 'error',
      message: `Curation cannot be saved and will be lost on exit: ${failures.join('; ')}`
    })
    return { curation: new CurationState(), db: null, problems, identity: null }
  }
  const changed = await checkStamps(db, spec)
  let identity: SplitIdentity | null = null
  if (spec.rows) {
    const id = await identifySplit({ ...spec.rows, idColumn: spec.idColumn })
    identity = id
    if (id.idProblem)
      problems.push({
        code: 'curation-identity',
        severity: 'warning',
        message: id.idProblem,
        data: { split: spec.split }
      })
    if (id.keyColumn !== db.meta('key_column')) db.setMeta('key_column', id.keyColumn ?? '')
    const r = reconcile(db.storedRecords(spec.split), id)
    if (r.moves.size || r.identities.size || r.flagged.size) db.relocate(spec.split, r.moves, r.identities, r.flagged)
    const by = id.keyColumn ? `their "${id.keyColumn}" value` : 'their content'
    if (r.moved)
      problems.push({
        code: 'curation-moved',
        severity: 'info',
        message: `${r.moved} saved decision${r.moved === 1 ? '' : 's'} followed ${r.moved === 1 ? 'its row' : 'their rows'} to a new position (matched by ${by})`,
        data: { split: spec.split }
      })
    if (r.flagged.size) {
      const rows = [...r.flagged.keys()].sort((a, b) => a - b)
      problems.push({
        code: 'curation-review',
        severity: 'warning',
        message: `The content of ${rowsText(rows)} changed in the dataset under a saved decision: flagged for review (the note says what it was)`,
        data: { split: spec.split, row: rows[0] }
      })
    }
    if (r.orphaned)
      problems.push({
        code: 'curation-orphaned',
        severity: 'warning',
        message: `${r.orphaned} saved decision${r.orphaned === 1 ? ' is' : 's are'} for rows no longer in the dataset (matched by ${by}); kept in the store, not applied`,
        data: { split: spec.split }
      })
    if (changed.length && r.byIndex)
      changed.forEach(
        (p) =>
          (p.message += `; ${r.byIndex} decision${r.byIndex === 1 ? ' was' : 's were'} saved by an older PromptLoom without row identity and stay${r.byIndex === 1 ? 's' : ''} on ${r.byIndex === 1 ? 'its row number' : 'their row numbers'}`)
      )
    db.setIdentify(spec.split, (i) => identityAt(id, i))
  }
  problems.push(...changed)
  for (const o of db.otherSessions()) {
    problems.push({
      code: 'curation-shared',
      severity: 'warning',
      message: `This dataset's curation is also open in another PromptLoom (process ${o.pid} on ${o.host}, since ${o.openedAt}). Both save every change as it is made and merge field by field; each window shows the other's changes when it next reads or writes.`,
      source: db.file
    })
  }
  const curation = new CurationState(db.log(spec.split), db.loadRecords(spec.split))
  if (spec.readRow) problems.push(...(await staleEdits(curation, spec.split, spec.readRow)))
  return { curation, db, problems, identity }
}

/** How a store names its dataset: relative to the project root in the project folder, absolute elsewhere. */
function datasetName(spec: ProjectStoreSpec, fallback: string | undefined): string {
  return fallback
    ? resolve(spec.dataset)
    : relative(resolve(spec.root), resolve(spec.dataset)).split('\\').join('/') || '.'
}

/**
 * Versions before per-dataset stores kept one `.promptloom/project.sqlite` (and `overrides.json`) per folder,
 * shared by every dataset in it. The dataset whose files that store was saved against takes a copy of it (and of
 * the template edits) as its own store; the old file is left in place, marked, and never read again. A store that
 * names other files, or none, is not taken, and the problems say so when it holds curation. Runs before the
 * project's template edits are read, so they are there on the first open.
 */
export function migrateLegacyStore(
  spec: Pick<ProjectStoreSpec, 'root' | 'dataset' | 'files'>,
  env: NodeJS.ProcessEnv = process.env
): Diagnostic[] {
  const legacy = legacyStoreFile(spec.root)
  const target = storeCandidates(spec.root, spec.dataset, env)[0].file
  if (env.PROMPTLOOM_STATE_DIR || existsSync(target) || !existsSync(legacy)) return []
  const m = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite') | undefined
  if (!m) return []
  let db: DatabaseSync | null = null
  try {
    db = new m.DatabaseSync(legacy)
    const has = (t: string) => !!db!.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t)
    if (has('meta') && db.prepare("SELECT value FROM meta WHERE key = 'migrated_to'").get()) return []
    const files = has('dataset_files')
      ? (db.prepare('SELECT DISTINCT file FROM dataset_files').all() as { file: string }[]).map((r) => resolve(r.file))
      : []
    const mine = new Set(spec.files.map((f) => resolve(f)))
    const curated = has('curation') && !!db.prepare('SELECT 1 FROM curation LIMIT 1').get()
    if (!files.length || !files.every((f) => mine.has(f))) {
      if (!curated) return []
      const whose = files.length
        ? `it was saved for ${files.join(', ')}`
        : 'it does not say which dataset it was saved for'
      return [
        {
          code: 'curation-legacy',
          severity: 'info',
          message: `${legacy} (a curation store shared by the folder, from an older PromptLoom) is not applied to this dataset: ${whose}`,
          source: legacy
        }
      ]
    }
    mkdirSync(dirname(target), { recursive: true })
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    db.prepare('VACUUM INTO ?').run(target)
    if (has('meta')) db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('migrated_to', ?)").run(target)
    const overrides = join(dirname(legacy), OVERRIDES_FILE)
    const newOverrides = join(dirname(target), OVERRIDES_FILE)
    if (existsSync(overrides) && !existsSync(newOverrides)) copyFileSync(overrides, newOverrides)
    return [
      {
        code: 'curation-legacy',
        severity: 'info',
        message: `Curation saved by an older PromptLoom in ${legacy} was moved to this dataset's own store, ${target}`,
        source: target
      }
    ]
  } catch (e) {
    return [
      {
        code: 'curation-legacy',
        severity: 'warning',
        message: `${legacy} (an older shared curation store) could not be migrated: ${(e as Error).message}`,
        source: legacy
      }
    ]
  } finally {
    db?.close()
  }
}

/** The row-level check: an edit keeps its original, so a row whose value moved under it is found exactly. */
async function staleEdits(
  c: CurationState,
  split: string,
  readRow: NonNullable<ProjectStoreSpec['readRow']>
): Promise<Diagnostic[]> {
  const problems: Diagnostic[] = []
  for (const i of c.editedRows().slice(0, MAX_EDITED_CHECKED)) {
    const row = await readRow(i).catch(() => undefined)
    if (!row) {
      problems.push({
        code: 'curation-stale',
        severity: 'warning',
        message: `Row ${i} has edits but is no longer in the ${split} split`,
        data: { split, row: i }
      })
      if (problems.length >= MAX_STALE_REPORTED) return problems
      continue
    }
    for (const [field, e] of Object.entries(c.record(i)?.edits ?? {})) {
      if (JSON.stringify(row[field]) === JSON.stringify(e.original)) continue
      problems.push({
        code: 'curation-stale',
        severity: 'warning',
        message: `Row ${i}: ${field} is no longer the value it was edited from`,
        data: { split, row: i, field }
      })
      if (problems.length >= MAX_STALE_REPORTED) return problems
    }
  }
  return problems
}

/** Compares the dataset files with the versions the saved curation was made against. */
async function checkStamps(db: CurationDb, spec: ProjectStoreSpec): Promise<Diagnostic[]> {
  const now = new Map<string, FileStamp>()
  for (const f of spec.files) {
    const s = await stampOf(f).catch(() => null)
    if (s) now.set(f, s)
  }
  const saved = db.savedStamps(spec.split)
  if (!db.hasCuration(spec.split)) {
    db.saveStamps(spec.split, now)
    return []
  }
  const problems: Diagnostic[] = []
  for (const [file, s] of now) {
    const old = saved.get(file)
    if (!old) continue
    const what = old.size !== s.size ? 'size' : old.hash !== s.hash ? 'content' : null
    if (!what) continue
    problems.push({
      code: 'curation-stale',
      severity: 'warning',
      message: `${file} changed (${what}) since curation was saved: saved decisions were matched to their rows again`,
      source: file,
      data: { split: spec.split }
    })
  }
  const gone = [...saved.keys()].filter((f) => !now.has(f))
  if (gone.length) {
    problems.push({
      code: 'curation-stale',
      severity: 'warning',
      message: `Curation was saved against ${gone.join(', ')}, which the ${spec.split} split no longer reads`,
      data: { split: spec.split }
    })
  }
  // Only a change the reviewer makes on this version moves the reference to it (until then the warning stays).
  if (problems.length) db.stampOnNextWrite(spec.split, now)
  else if (saved.size !== now.size || [...now].some(([f, s]) => saved.get(f)?.mtimeMs !== s.mtimeMs))
    db.saveStamps(spec.split, now)
  return problems
}
