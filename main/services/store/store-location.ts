// Where a project's store lives. Each curated dataset has its own folder, `<project root>/.promptloom/<name>-<key>/`,
// holding its curation (project.sqlite) and template edits (overrides.json), so two files in one folder never
// share decisions; the key is the dataset's path relative to the root, so the folder travels with the project.
// When the root is not writable (a read-only share, an installed demo) the store goes under the user's config
// folder keyed by the dataset's absolute path; PROMPTLOOM_STATE_DIR puts every store under one folder instead
// (tests; portable installs). Versions before this one kept one store per folder (`.promptloom/project.sqlite`,
// `.promptloom/overrides.json`): see LEGACY_STORE_FILE and project-store.ts for how it is migrated.
import { createHash } from 'node:crypto'
import { basename, join, relative, resolve } from 'node:path'
import { userConfigDir } from '../workspace/recent'

export const STORE_FILE = 'project.sqlite'
export const OVERRIDES_FILE = 'overrides.json'
/** The one store per folder that versions before per-dataset stores wrote. */
export const LEGACY_STORE_FILE = 'project.sqlite'

export interface StoreCandidate {
  file: string
  /** Why this is not the project folder, for the project's problems; absent for the project folder itself. */
  fallback?: 'state-dir' | 'config-dir'
}

export function storeKey(datasetPath: string): string {
  return createHash('sha256').update(resolve(datasetPath)).digest('hex').slice(0, 24)
}

/** The dataset's own folder under `<root>/.promptloom/`: readable name plus a key of its path within the root. */
export function datasetStoreDir(root: string, datasetPath: string): string {
  const rel = relative(resolve(root), resolve(datasetPath)).split('\\').join('/') || '.'
  const name = (basename(resolve(datasetPath)) || 'dataset').replace(/[^\w.-]+/g, '_').slice(0, 60)
  return join(root, '.promptloom', `${name}-${createHash('sha256').update(rel).digest('hex').slice(0, 10)}`)
}

/** The store of a folder written by versions before per-dataset stores (shared by every file in the folder). */
export function legacyStoreFile(root: string): string {
  return join(root, '.promptloom', LEGACY_STORE_FILE)
}

/** The places to try, in order. */
export function storeCandidates(
  root: string,
  datasetPath: string,
  env: NodeJS.ProcessEnv = process.env
): StoreCandidate[] {
  const key = storeKey(datasetPath)
  if (env.PROMPTLOOM_STATE_DIR)
    return [{ file: join(env.PROMPTLOOM_STATE_DIR, key, STORE_FILE), fallback: 'state-dir' }]
  return [
    { file: join(datasetStoreDir(root, datasetPath), STORE_FILE) },
    { file: join(userConfigDir(), 'projects', key, STORE_FILE), fallback: 'config-dir' }
  ]
}
