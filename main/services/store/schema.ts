// The project store's schema as an ordered list of migrations. The file records the version it is at; opening it
// applies the missing steps in one transaction each, so a crash mid-migration leaves the previous version intact.
import type { DatabaseSync } from 'node:sqlite'

/** Each entry takes the schema from version `index` to `index + 1`. Append only: never edit a shipped step. */
export const MIGRATIONS: readonly string[] = [
  // 1: row curation and the undo/redo log.
  `CREATE TABLE curation (
     split TEXT NOT NULL,
     idx INTEGER NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('unreviewed', 'accepted', 'rejected', 'flagged')),
     note TEXT,
     tags TEXT,   -- JSON array of strings
     edits TEXT,  -- JSON object: field -> { original, value }
     PRIMARY KEY (split, idx)
   ) WITHOUT ROWID;
   CREATE TABLE history (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     split TEXT NOT NULL,
     label TEXT NOT NULL,
     count INTEGER NOT NULL,
     undone INTEGER NOT NULL DEFAULT 0,
     indices BLOB NOT NULL, -- Uint32 row indices
     palette TEXT NOT NULL, -- JSON array of the distinct records (null = no record)
     before BLOB NOT NULL,  -- Uint32 palette positions, one per index
     after BLOB NOT NULL,
     at TEXT NOT NULL
   );
   CREATE INDEX history_split ON history (split, undone, id);`,
  // 2: which version of each dataset file the curation was made against.
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE dataset_files (
     split TEXT NOT NULL,
     file TEXT NOT NULL,
     size INTEGER NOT NULL,
     mtime_ms REAL NOT NULL,
     hash TEXT NOT NULL,
     PRIMARY KEY (split, file)
   ) WITHOUT ROWID;`,
  // 3: rows identified by a stable key (row identity), changes written per field and undone per session, so two
  // instances on one project merge instead of overwriting each other. A record whose row is no longer in the
  // dataset is kept with a negative idx (never applied, never lost).
  `ALTER TABLE curation ADD COLUMN rowkey TEXT; -- JSON of the row's id value, when the dataset has an id column
   ALTER TABLE curation ADD COLUMN hash TEXT;   -- the row's content hash when the record was last written
   ALTER TABLE history ADD COLUMN aspect TEXT;  -- JSON: the part of each record the step changed (null: whole records)
   ALTER TABLE history ADD COLUMN session TEXT; -- the instance that made the step (each undoes its own)
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     pid INTEGER NOT NULL,
     host TEXT NOT NULL,
     opened_at TEXT NOT NULL
   ) WITHOUT ROWID;`
]

export const SCHEMA_VERSION = MIGRATIONS.length

export function schemaVersion(db: DatabaseSync): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined
  return row?.version ?? 0
}

/**
 * Brings the file up to `target` (default: the newest). Returns the version found. Throws when the file is newer
 * than this build knows: writing to it could lose what a newer PromptLoom saved.
 */
export function migrate(db: DatabaseSync, target = SCHEMA_VERSION): number {
  const found = schemaVersion(db)
  if (found > SCHEMA_VERSION) throw new Error(`the project store is schema version ${found}; this PromptLoom reads up to ${SCHEMA_VERSION}`)
  for (let v = found; v < target; v++) {
    db.exec('BEGIN IMMEDIATE')
    try {
      // Another process may have migrated while we waited for the write lock.
      if (schemaVersion(db) > v) {
        db.exec('COMMIT')
        continue
      }
      db.exec(MIGRATIONS[v])
      db.exec('DELETE FROM schema_version')
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(v + 1)
      db.exec('COMMIT')
    } catch (e) {
      db.exec('ROLLBACK')
      throw e
    }
  }
  return found
}
