// The project store: one SQLite file per curated dataset holding row curation and the undo/redo log, through
// node:sqlite (built into Node 24 and Electron 40, so no native module). WAL with synchronous=FULL, and every change
// commits its transaction before returning: an acknowledged action survives a crash or a power cut.
//
// Changes are written as changes: an action sets one part of each record (its status, its note, one tag, one edited
// field) with SQL that starts from what the file holds, never by rewriting whole records from this process's memory.
// So a second app instance on the same project merges with this one instead of overwriting it: each write checks
// whether another connection committed since (PRAGMA data_version), and the state then reloads the merged records.
// Each instance registers a session; undo and redo walk that session's own steps.
//
// The dataset itself is never written. Records are keyed by split and row index, and carry the row's identity when
// it was last written (its id value or content hash, see row-identity.ts), so they can follow the row when the file
// changes; a record whose row left the file is kept with a negative idx.
import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname } from 'node:path'
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { CurationStatus, RowCuration } from '../../../shared/api/types'
import type { FileStamp } from '../datasets/index-cache'
import { MAX_HISTORY, type CurationAspect, type CurationLog, type CurationStep } from '../workspace/curation'
import { decodeStep, encodeStep, fromColumns, toColumns } from './record-codec'
import { migrate, SCHEMA_VERSION } from './schema'

/** Runs of at least this many consecutive rows are written as one range statement instead of a list. */
const MIN_RUN = 16

/** A row's identity when a record is written: its id value (JSON) or null, and its content hash. */
export interface RowIdentity {
  key: string | null
  hash: string
}

/** A saved record with the identity of the row it was written for (null: saved before identities existed). */
export interface StoredRecord {
  idx: number
  record: RowCuration
  identity: RowIdentity | null
}

/** Another instance with the project open. */
export interface OtherSession {
  pid: number
  host: string
  openedAt: string
}

export class CurationDb {
  /** The schema version the file had before this open migrated it (0 = new file). */
  readonly migratedFrom: number
  /** This instance's session (history steps are tagged with it). */
  readonly session = randomUUID()
  private pendingStamps = new Map<string, Map<string, FileStamp>>()
  private readonly st: ReturnType<typeof statements>
  /** PRAGMA data_version as of this connection's last look: it changes when another connection commits. */
  private seen = 0
  private external = false
  /** Row identities for writes, per split (set by the workspace once it knows them). */
  private identify = new Map<string, (idx: number) => RowIdentity | undefined>()

  private constructor(
    readonly file: string,
    private readonly db: DatabaseSync
  ) {
    db.exec('PRAGMA busy_timeout = 10000')
    // journal_mode answers the mode it got: a filesystem without shared memory may refuse WAL; FULL sync still holds.
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = FULL')
    this.migratedFrom = migrate(db)
    this.st = statements(db)
    this.tx(() => {
      // Sessions of instances that are gone (closed or killed) are dropped; their undo history becomes ours.
      const others = new Set(this.otherSessionRows().map((s) => s.id))
      for (const s of this.st.sessions.all() as unknown as { id: string }[])
        if (!others.has(s.id)) this.st.dropSession.run(s.id)
      this.st.addSession.run(this.session, process.pid, hostname(), new Date().toISOString())
      this.st.adoptHistory.run(this.session, JSON.stringify([...others]))
    })
    this.seen = this.dataVersion()
    this.external = false
  }

  /** Opens (creating folder and file as needed) and migrates. Throws when the file cannot be opened or written. */
  static open(file: string): CurationDb {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
    const db = new (sqlite().DatabaseSync)(file)
    try {
      return new CurationDb(file, db)
    } catch (e) {
      db.close()
      throw e
    }
  }

  get schemaVersion(): number {
    return SCHEMA_VERSION
  }

  close() {
    if (!this.db.isOpen) return
    try {
      this.st.dropSession.run(this.session)
    } catch {
      // A store that cannot be written any more still closes; a stale session is dropped by the next open.
    }
    this.db.close()
  }

  /** Other live instances with this store open (same machine: their process is alive; other machines: listed). */
  otherSessions(): OtherSession[] {
    return this.otherSessionRows().map((s) => ({ pid: s.pid, host: s.host, openedAt: s.opened_at }))
  }

  private otherSessionRows(): { id: string; pid: number; host: string; opened_at: string }[] {
    const me = hostname()
    const rows = this.st.sessions.all() as unknown as { id: string; pid: number; host: string; opened_at: string }[]
    return rows.filter((s) => s.id !== this.session && (s.host !== me || alive(s.pid)))
  }

  /** A key/value the store keeps about itself (which dataset it curates, its id column). */
  meta(key: string): string | null {
    return (this.st.getMeta.get(key) as { value: string } | undefined)?.value ?? null
  }

  setMeta(key: string, value: string) {
    this.tx(() => this.st.putMeta.run(key, value))
  }

  /** Sets how rows of a split are identified when records are written. */
  setIdentify(split: string, fn: (idx: number) => RowIdentity | undefined) {
    this.identify.set(split, fn)
  }

  /** Every saved record of a split that applies to a row (idx >= 0). Bare statuses share one object each. */
  loadRecords(split: string): Map<number, RowCuration> {
    const out = new Map<number, RowCuration>()
    for (const row of this.st.load.iterate(split) as unknown as Iterable<
      [number, CurationStatus, string | null, string | null, string | null]
    >) {
      out.set(row[0], fromColumns(row[1], row[2], row[3], row[4]))
    }
    this.seen = this.dataVersion()
    return out
  }

  /** Every saved record of a split with its row identity, orphans (idx < 0) included. */
  storedRecords(split: string): StoredRecord[] {
    const rows = this.st.loadAll.all(split) as unknown as {
      idx: number
      status: CurationStatus
      note: string | null
      tags: string | null
      edits: string | null
      rowkey: string | null
      hash: string | null
    }[]
    return rows.map((r) => ({
      idx: r.idx,
      record: fromColumns(r.status, r.note, r.tags, r.edits),
      identity: r.hash === null ? null : { key: r.rowkey, hash: r.hash }
    }))
  }

  /**
   * Moves records to the rows they now belong to (after the dataset changed): `moves` maps old idx to new idx (a
   * negative new idx keeps the record as an orphan). `identities` sets the identity columns. One transaction.
   */
  relocate(
    split: string,
    moves: Map<number, number>,
    identities: Map<number, RowIdentity>,
    flag: Map<number, RowCuration>
  ) {
    this.tx(() => {
      if (moves.size) {
        // Two passes through a free range, so a move never collides with a row not yet moved.
        const park = -1_000_000_000
        for (const [from] of moves) this.st.moveIdx.run(park - Math.abs(from) - 1, split, from)
        for (const [from, to] of moves) this.st.moveIdx.run(to, split, park - Math.abs(from) - 1)
      }
      for (const [idx, id] of identities) this.st.setIdentity.run(id.key, id.hash, split, idx)
      for (const [idx, rec] of flag) {
        const c = toColumns(rec)
        this.st.putWhole.run(split, idx, c.status, c.note, c.tags, c.edits)
      }
    })
  }

  /** Whether the split has any saved records or history (what a changed dataset file would put in doubt). */
  hasCuration(split: string): boolean {
    return !!(this.st.anyRecord.get(split) as { v: number }).v || !!(this.st.anyHistory.get(split) as { v: number }).v
  }

  savedStamps(split: string): Map<string, FileStamp> {
    const rows = this.st.stamps.all(split) as unknown as {
      file: string
      size: number
      mtime_ms: number
      hash: string
    }[]
    return new Map(rows.map((r) => [r.file, { size: r.size, mtimeMs: r.mtime_ms, hash: r.hash }]))
  }

  /** Every split with stamps, and their files (which dataset this store curates). */
  stampedFiles(): string[] {
    return (this.st.allStampFiles.all() as unknown as { file: string }[]).map((r) => r.file)
  }

  /** Records which file versions the split's curation refers to, now. */
  saveStamps(split: string, stamps: Map<string, FileStamp>) {
    this.tx(() => this.writeStamps(split, stamps))
  }

  /**
   * Records the stamps with the next change instead: saved curation made against an older file keeps warning on
   * every open until the reviewer has worked on the new version.
   */
  stampOnNextWrite(split: string, stamps: Map<string, FileStamp>) {
    this.pendingStamps.set(split, stamps)
  }

  /** True when another connection committed since this one last read or wrote. */
  changedByOthers(): boolean {
    return this.db.isOpen && this.dataVersion() !== this.seen
  }

  /** The undo/redo log of a split, for a CurationState. */
  log(split: string): CurationLog {
    const st = this.st
    const me = this.session
    const flag = (s: StatementSync) => !!(s.get(split, me) as { v: number }).v
    const label = (s: StatementSync) => (s.get(split, me) as { label: string } | undefined)?.label ?? null
    return {
      push: (step) =>
        this.tx(() => {
          st.dropRedo.run(split, me)
          const e = encodeStep(step)
          st.pushStep.run(
            split,
            step.label,
            step.indices.length,
            e.indices,
            e.palette,
            e.before,
            e.after,
            new Date().toISOString(),
            step.aspect ? JSON.stringify(step.aspect) : null,
            me
          )
          st.trim.run(split, me, split, me, MAX_HISTORY - 1)
          this.writeSide(split, step.aspect, step.indices, step.after)
          this.flushStamps(split)
        }),
      undo: () => this.move(split, st.newestDone, 1, 'before'),
      redo: () => this.move(split, st.oldestUndone, 0, 'after'),
      canUndo: () => flag(st.anyDone),
      canRedo: () => flag(st.anyUndone),
      peekUndo: () => label(st.newestDoneLabel),
      peekRedo: () => label(st.oldestUndoneLabel),
      clear: () => this.tx(() => st.clearHistory.run(split, me)),
      takeExternal: () => {
        const x = this.external
        this.external = false
        return x
      },
      changedByOthers: () => this.changedByOthers(),
      load: () => this.loadRecords(split)
    }
  }

  private move(split: string, pick: StatementSync, undone: 0 | 1, side: 'before' | 'after'): CurationStep | null {
    return this.tx(() => {
      const row = pick.get(split, this.session) as
        | {
            id: number
            label: string
            indices: Uint8Array
            palette: string
            before: Uint8Array
            after: Uint8Array
            aspect: string | null
          }
        | undefined
      if (!row) return null
      const step = decodeStep(row.label, row)
      if (row.aspect) step.aspect = JSON.parse(row.aspect) as CurationAspect
      this.writeSide(split, step.aspect, step.indices, step[side])
      this.st.markUndone.run(undone, row.id)
      this.flushStamps(split)
      return step
    })
  }

  /**
   * Writes one side of a step: for each row, the aspect's value in `recs` (a step saved without an aspect writes
   * whole records, as versions before 3 did). Rows are grouped by value, so a bulk action is a few statements.
   */
  private writeSide(
    split: string,
    aspect: CurationAspect | undefined,
    indices: Uint32Array,
    recs: (RowCuration | undefined)[]
  ) {
    const valueOf = aspectValue(aspect)
    const groups = new Map<unknown, number[]>()
    for (let k = 0; k < indices.length; k++) {
      const v = valueOf(recs[k])
      const g = groups.get(v)
      if (g) g.push(indices[k])
      else groups.set(v, [indices[k]])
    }
    for (const [value, rows] of groups) {
      if (!isAscending(rows)) rows.sort((a, b) => a - b)
      for (const target of targets(rows)) this.writeAspect(split, aspect, value, target)
    }
    this.writeIdentities(split, indices)
  }

  private writeAspect(split: string, aspect: CurationAspect | undefined, value: unknown, target: Target) {
    const run = (pair: { list: StatementSync; range: StatementSync }, params: Record<string, unknown>) => {
      if (target.list) pair.list.run({ ...params, $split: split, $list: JSON.stringify(target.list) } as never)
      else pair.range.run({ ...params, $split: split, $lo: target.lo, $hi: target.hi } as never)
    }
    const w = this.st.aspect
    // Only a change that clears something can leave a record empty (and a record with nothing in it is no record).
    let cleared = true
    switch (aspect?.kind) {
      case 'status':
        if (value === 'unreviewed') {
          // Records that hold only a status go; the rest keep their note, tags and edits.
          run(w.dropBare, {})
          run(w.statusClear, {})
          cleared = false
        } else {
          run(w.status, { $status: value })
          cleared = false
        }
        break
      case 'note':
        if (value === null) run(w.noteClear, {})
        else {
          run(w.note, { $note: value })
          cleared = false
        }
        break
      case 'tag':
        if (value) run(w.tagAdd, { $tag: aspect.tag })
        else run(w.tagRemove, { $tag: aspect.tag })
        cleared = !value
        break
      case 'edit':
        if (value === null) run(w.editRemove, { $field: aspect.field })
        else {
          run(w.editSet, { $field: aspect.field, $v: value })
          cleared = false
        }
        break
      case undefined: {
        if (value === null) run(w.deleteWhole, {})
        else {
          const c = value as ReturnType<typeof toColumns>
          run(w.whole, { $status: c.status, $note: c.note, $tags: c.tags, $edits: c.edits })
        }
        return
      }
    }
    if (cleared) run(w.dropEmpty, {})
  }

  /** Stamps written records with the identity of their rows, when the workspace knows it. */
  private writeIdentities(split: string, indices: Uint32Array) {
    const identify = this.identify.get(split)
    if (!identify) return
    const triples: [number, string | null, string][] = []
    for (const i of indices) {
      const id = identify(i)
      if (id) triples.push([i, id.key, id.hash])
    }
    if (triples.length) this.st.setIdentities.run({ $split: split, $triples: JSON.stringify(triples) })
  }

  private writeStamps(split: string, stamps: Map<string, FileStamp>) {
    this.st.clearStamps.run(split)
    for (const [file, s] of stamps) this.st.putStamp.run(split, file, s.size, s.mtimeMs, s.hash)
  }

  private flushStamps(split: string) {
    const s = this.pendingStamps.get(split)
    if (!s) return
    this.writeStamps(split, s)
    this.pendingStamps.delete(split)
  }

  private dataVersion(): number {
    return (this.st.dataVersion.get() as { data_version: number }).data_version
  }

  /**
   * One transaction: committed (and synced) before returning, or rolled back and rethrown. Notes whether another
   * connection committed since this one last looked, so the caller reloads instead of trusting its memory.
   */
  private tx<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE')
    try {
      if (this.st && this.dataVersion() !== this.seen) this.external = true
      const out = fn()
      this.db.exec('COMMIT')
      if (this.st) this.seen = this.dataVersion()
      return out
    } catch (e) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK')
      throw e
    }
  }
}

type Target = { list: number[]; lo?: undefined; hi?: undefined } | { list?: undefined; lo: number; hi: number }

/** Ascending rows as consecutive runs (one range statement each) and one list of the rest. */
function targets(rows: number[]): Target[] {
  const out: Target[] = []
  const single: number[] = []
  for (let a = 0; a < rows.length; ) {
    let b = a + 1
    while (b < rows.length && rows[b] === rows[b - 1] + 1) b++
    if (b - a >= MIN_RUN) out.push({ lo: rows[a], hi: rows[b - 1] })
    else for (let k = a; k < b; k++) single.push(rows[k])
    a = b
  }
  if (single.length) out.push({ list: single })
  return out
}

/** The value a side of a step gives the aspect, as written: equal values share one statement. */
function aspectValue(aspect: CurationAspect | undefined): (r: RowCuration | undefined) => unknown {
  switch (aspect?.kind) {
    case 'status':
      return (r) => r?.status ?? 'unreviewed'
    case 'note':
      return (r) => r?.note ?? null
    case 'tag':
      return (r) => !!r?.tags?.includes(aspect.tag)
    case 'edit':
      return (r) => {
        const e = r?.edits && Object.hasOwn(r.edits, aspect.field) ? r.edits[aspect.field] : undefined
        return e ? JSON.stringify(e) : null
      }
    case undefined: {
      // Whole records, grouped by identity (a bulk action shares one record object across its rows).
      const cols = new Map<RowCuration, ReturnType<typeof toColumns>>()
      return (r) => {
        if (!r) return null
        let c = cols.get(r)
        if (!c) cols.set(r, (c = toColumns(r)))
        return c
      }
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function isAscending(a: number[]): boolean {
  for (let k = 1; k < a.length; k++) if (a[k] <= a[k - 1]) return false
  return true
}

// Loaded on first use, so a runtime without node:sqlite still starts: curation then stays in memory, and says so.
function sqlite(): typeof import('node:sqlite') {
  const m = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite') | undefined
  if (!m) throw new Error(`this runtime (Node ${process.versions.node}) has no node:sqlite`)
  return m
}

/** The rows a statement acts on: a JSON list ($list) or a consecutive range ($lo..$hi). */
const LIST = 'WITH r(i) AS (SELECT value FROM json_each($list))'
const RANGE = 'WITH RECURSIVE r(i) AS (SELECT $lo UNION ALL SELECT i + 1 FROM r WHERE i < $hi)'

function statements(db: DatabaseSync) {
  // Inserts read the rows from a CTE; updates and deletes select them by key (a range is an index range scan).
  const both = (body: (rows: string) => string) => ({
    list: db.prepare(body('split = $split AND idx IN (SELECT value FROM json_each($list))')),
    range: db.prepare(body('split = $split AND idx BETWEEN $lo AND $hi'))
  })
  const upsert = (cols: string, values: string, set: string) => ({
    list: db.prepare(
      `${LIST} INSERT INTO curation (split, idx, status${cols}) SELECT $split, i, ${values} FROM r WHERE true ON CONFLICT (split, idx) DO UPDATE SET ${set}`
    ),
    range: db.prepare(
      `${RANGE} INSERT INTO curation (split, idx, status${cols}) SELECT $split, i, ${values} FROM r WHERE true ON CONFLICT (split, idx) DO UPDATE SET ${set}`
    )
  })
  const load = db.prepare('SELECT idx, status, note, tags, edits FROM curation WHERE split = ? AND idx >= 0')
  load.setReturnArrays(true)
  return {
    load,
    loadAll: db.prepare(
      'SELECT idx, status, note, tags, edits, rowkey, hash FROM curation WHERE split = ? ORDER BY idx'
    ),
    dataVersion: db.prepare('PRAGMA data_version'),
    getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
    putMeta: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    sessions: db.prepare('SELECT id, pid, host, opened_at FROM sessions'),
    addSession: db.prepare('INSERT INTO sessions (id, pid, host, opened_at) VALUES (?, ?, ?, ?)'),
    dropSession: db.prepare('DELETE FROM sessions WHERE id = ?'),
    adoptHistory: db.prepare(
      'UPDATE history SET session = ?1 WHERE session IS NULL OR session NOT IN (SELECT value FROM json_each(?2))'
    ),
    anyRecord: db.prepare('SELECT EXISTS (SELECT 1 FROM curation WHERE split = ?) AS v'),
    anyHistory: db.prepare('SELECT EXISTS (SELECT 1 FROM history WHERE split = ?) AS v'),
    anyDone: db.prepare('SELECT EXISTS (SELECT 1 FROM history WHERE split = ? AND session = ? AND undone = 0) AS v'),
    anyUndone: db.prepare('SELECT EXISTS (SELECT 1 FROM history WHERE split = ? AND session = ? AND undone = 1) AS v'),
    // Undone steps are always the newest ids: undo takes the newest done step, redo the oldest undone one.
    newestDone: db.prepare(
      'SELECT * FROM history WHERE split = ? AND session = ? AND undone = 0 ORDER BY id DESC LIMIT 1'
    ),
    oldestUndone: db.prepare(
      'SELECT * FROM history WHERE split = ? AND session = ? AND undone = 1 ORDER BY id ASC LIMIT 1'
    ),
    newestDoneLabel: db.prepare(
      'SELECT label FROM history WHERE split = ? AND session = ? AND undone = 0 ORDER BY id DESC LIMIT 1'
    ),
    oldestUndoneLabel: db.prepare(
      'SELECT label FROM history WHERE split = ? AND session = ? AND undone = 1 ORDER BY id ASC LIMIT 1'
    ),
    markUndone: db.prepare('UPDATE history SET undone = ? WHERE id = ?'),
    dropRedo: db.prepare('DELETE FROM history WHERE split = ? AND session = ? AND undone = 1'),
    clearHistory: db.prepare('DELETE FROM history WHERE split = ? AND session = ?'),
    pushStep: db.prepare(
      'INSERT INTO history (split, label, count, indices, palette, before, after, at, aspect, session) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
    ),
    trim: db.prepare(
      `DELETE FROM history WHERE split = ? AND session = ? AND undone = 0 AND id < (
         SELECT id FROM history WHERE split = ? AND session = ? AND undone = 0 ORDER BY id DESC LIMIT 1 OFFSET ?)`
    ),
    aspect: {
      status: upsert('', '$status', 'status = excluded.status'),
      statusClear: both((rows) => `UPDATE curation SET status = 'unreviewed' WHERE ${rows} AND status <> 'unreviewed'`),
      dropBare: both(
        (rows) => `DELETE FROM curation WHERE ${rows} AND note IS NULL AND tags IS NULL AND edits IS NULL`
      ),
      note: upsert(', note', "'unreviewed', $note", 'note = excluded.note'),
      noteClear: both((rows) => `UPDATE curation SET note = NULL WHERE ${rows}`),
      tagAdd: upsert(
        ', tags',
        "'unreviewed', json_array($tag)",
        "tags = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(coalesce(curation.tags, '[]')) UNION SELECT $tag ORDER BY 1))"
      ),
      tagRemove: both(
        (
          rows
        ) => `UPDATE curation SET tags = (SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_group_array(value) END FROM json_each(curation.tags) WHERE value <> $tag)
         WHERE tags IS NOT NULL AND ${rows}`
      ),
      // Edited values are objects ({original, value}), so json_each hands them back as JSON text.
      editSet: upsert(
        ', edits',
        "'unreviewed', json_object($field, json($v))",
        "edits = (SELECT json_group_object(k, json(v)) FROM (SELECT key AS k, value AS v FROM json_each(coalesce(curation.edits, '{}')) WHERE key <> $field UNION ALL SELECT $field, $v))"
      ),
      editRemove: both(
        (
          rows
        ) => `UPDATE curation SET edits = (SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_group_object(key, json(value)) END FROM json_each(curation.edits) WHERE key <> $field)
         WHERE edits IS NOT NULL AND ${rows}`
      ),
      whole: upsert(
        ', note, tags, edits',
        '$status, $note, $tags, $edits',
        'status = excluded.status, note = excluded.note, tags = excluded.tags, edits = excluded.edits'
      ),
      deleteWhole: both((rows) => `DELETE FROM curation WHERE ${rows}`),
      dropEmpty: both(
        (rows) =>
          `DELETE FROM curation WHERE ${rows} AND status = 'unreviewed' AND note IS NULL AND tags IS NULL AND edits IS NULL`
      )
    },
    setIdentities: db.prepare(
      `UPDATE curation SET rowkey = j.value ->> 1, hash = j.value ->> 2 FROM json_each($triples) AS j
       WHERE curation.split = $split AND curation.idx = j.value ->> 0`
    ),
    setIdentity: db.prepare('UPDATE curation SET rowkey = ?, hash = ? WHERE split = ? AND idx = ?'),
    moveIdx: db.prepare('UPDATE curation SET idx = ? WHERE split = ? AND idx = ?'),
    putWhole: db.prepare(
      `INSERT INTO curation (split, idx, status, note, tags, edits) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (split, idx) DO UPDATE SET status = excluded.status, note = excluded.note, tags = excluded.tags, edits = excluded.edits`
    ),
    stamps: db.prepare('SELECT file, size, mtime_ms, hash FROM dataset_files WHERE split = ?'),
    allStampFiles: db.prepare('SELECT DISTINCT file FROM dataset_files'),
    clearStamps: db.prepare('DELETE FROM dataset_files WHERE split = ?'),
    putStamp: db.prepare('INSERT INTO dataset_files (split, file, size, mtime_ms, hash) VALUES (?, ?, ?, ?, ?)')
  }
}
