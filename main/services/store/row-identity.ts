// Row identity: what a curation record is attached to, so a decision follows its row when the dataset file is
// edited, re-sorted or appended to. A row is known by its id column when the dataset has one (named like an id and
// unique over the split, or chosen in project.json as "idColumn"), else by its content hash and position. The hash
// is of the row as read (JSON of its fields), so the row's own content, not its place in the file, identifies it.
import { createHash } from 'node:crypto'
import type { RowCuration } from '../../../shared/api/types'
import type { RowRecord } from '../datasets/types'
import type { RowIdentity, StoredRecord } from './curation-db'

/** Column names taken for an id, in order of preference (case-insensitive). */
const ID_NAMES = [
  'id',
  'uid',
  'uuid',
  'qid',
  'question_id',
  'sample_id',
  'example_id',
  'row_id',
  'task_id',
  '_id',
  'idx',
  'index'
]
const CHUNK = 2000

export interface SplitIdentity {
  /** The id column rows are keyed by, or null (content hash and position). */
  keyColumn: string | null
  /** Row index → JSON of its id value (when keyed by a column). */
  keys: string[] | null
  /** Row index → content hash (16 hex digits). */
  hashes: string[]
  rows: number
}

export interface IdentifyInput {
  total: number
  readRows(start: number, count: number): Promise<RowRecord[]>
  /** A column chosen by the project; used when its values are unique, else the project's problems say why not. */
  idColumn?: string
  signal?: AbortSignal
  onProgress?(done: number, total: number): void
}

export function rowHash(value: Record<string, unknown>): string {
  const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
  return createHash('sha1').update(json).digest('hex').slice(0, 16)
}

function idText(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() ? JSON.stringify(v) : null
  if (typeof v === 'number' && Number.isFinite(v)) return JSON.stringify(v)
  if (typeof v === 'bigint') return v.toString()
  return null
}

/** Reads the split once: every row's hash, and its id value under each candidate column that stays unique. */
export async function identifySplit(input: IdentifyInput): Promise<SplitIdentity & { idProblem?: string }> {
  const hashes: string[] = new Array(input.total)
  const candidates = new Map<string, { keys: string[]; seen: Set<string> }>()
  let first = true
  let chosenGone: string | undefined
  for (let start = 0; start < input.total; start += CHUNK) {
    if (input.signal?.aborted) throw new Error('cancelled')
    const rows = await input.readRows(start, Math.min(CHUNK, input.total - start))
    for (const r of rows) {
      if (first) {
        first = false
        for (const k of Object.keys(r.value)) {
          if (k === input.idColumn || ID_NAMES.includes(k.toLowerCase()))
            candidates.set(k, { keys: new Array(input.total), seen: new Set() })
        }
        if (input.idColumn && !candidates.has(input.idColumn))
          chosenGone = `the dataset has no column "${input.idColumn}"`
      }
      hashes[r.index] = rowHash(r.value)
      for (const [name, c] of candidates) {
        const id = idText(r.value[name])
        if (id === null || c.seen.has(id)) {
          if (name === input.idColumn)
            chosenGone =
              id === null
                ? `row ${r.index} has no "${name}" value`
                : `"${name}" repeats the value ${id} (row ${r.index})`
          candidates.delete(name)
          continue
        }
        c.seen.add(id)
        c.keys[r.index] = id
      }
    }
    input.onProgress?.(Math.min(start + CHUNK, input.total), input.total)
  }
  const pick =
    input.idColumn && candidates.has(input.idColumn)
      ? input.idColumn
      : [...candidates.keys()].sort((a, b) => rank(a) - rank(b))[0]
  const keyColumn = pick ?? null
  return {
    keyColumn,
    keys: keyColumn ? candidates.get(keyColumn)!.keys : null,
    hashes,
    rows: input.total,
    ...(chosenGone
      ? {
          idProblem: `The id column chosen in project.json is not used: ${chosenGone}; rows are identified by ${keyColumn ? `"${keyColumn}"` : 'their content'}`
        }
      : {})
  }
}

function rank(name: string): number {
  const i = ID_NAMES.indexOf(name.toLowerCase())
  return i < 0 ? -1 : i
}

export function identityAt(s: SplitIdentity, idx: number): RowIdentity | undefined {
  const hash = s.hashes[idx]
  if (hash === undefined) return undefined
  return { key: s.keys?.[idx] ?? null, hash }
}

export interface Reconciled {
  /** old idx → new idx (negative: the row is no longer in the dataset; the record is kept, not applied). */
  moves: Map<number, number>
  /** new idx → identity to store (records without one, and records whose row changed). */
  identities: Map<number, RowIdentity>
  /** new idx → the record flagged for review (its row's content changed under the decision). */
  flagged: Map<number, RowCuration>
  moved: number
  orphaned: number
  /** Records saved before identities existed, kept at their index. */
  byIndex: number
}

/**
 * Where each saved record belongs in the dataset as it is now. In order: a record whose row is where it was
 * (same id, or same content at the same index) stays; a record keyed by id follows its id (content changed:
 * flagged for review); a record keyed by content follows the nearest unclaimed row with that content; a record
 * whose position holds a row no other record claims, with content no record was written for, is that row edited
 * in place (flagged for review); anything else is orphaned. Records without identity keep their index.
 */
export function reconcile(stored: StoredRecord[], now: SplitIdentity): Reconciled {
  const out: Reconciled = {
    moves: new Map(),
    identities: new Map(),
    flagged: new Map(),
    moved: 0,
    orphaned: 0,
    byIndex: 0
  }
  const claimed = new Set<number>()
  const place = new Map<StoredRecord, number>()
  const inRange = (i: number) => i >= 0 && i < now.rows
  const keyed = (r: StoredRecord) => !!(now.keys && r.identity?.key)
  const byKey = new Map<string, number>()
  if (now.keys) now.keys.forEach((k, i) => k !== undefined && byKey.set(k, i))
  let byHash: Map<string, number[]> | null = null
  const hashIndex = () => {
    if (!byHash) {
      byHash = new Map()
      now.hashes.forEach((h, i) => {
        const l = byHash!.get(h)
        if (l) l.push(i)
        else byHash!.set(h, [i])
      })
    }
    return byHash
  }
  const claim = (r: StoredRecord, i: number) => {
    claimed.add(i)
    place.set(r, i)
  }
  // 1. Records whose row is where it was, and records without identity (kept by index).
  for (const r of stored) {
    if (!r.identity) {
      if (inRange(r.idx) && !claimed.has(r.idx)) {
        claim(r, r.idx)
        out.byIndex++
        const id = identityAt(now, r.idx)
        if (id) out.identities.set(r.idx, id)
      }
      continue
    }
    if (keyed(r)) {
      const i = byKey.get(r.identity.key!)
      if (i !== undefined && !claimed.has(i) && now.hashes[i] === r.identity.hash) claim(r, i)
    } else if (inRange(r.idx) && !claimed.has(r.idx) && now.hashes[r.idx] === r.identity.hash) claim(r, r.idx)
  }
  // 2. Records that moved: by id (content may have changed), or to the nearest unclaimed row with the same content.
  for (const r of stored) {
    if (place.has(r) || !r.identity) continue
    if (keyed(r)) {
      const i = byKey.get(r.identity.key!)
      if (i !== undefined && !claimed.has(i)) claim(r, i)
      continue
    }
    const cands = hashIndex()
      .get(r.identity.hash)
      ?.filter((i) => !claimed.has(i))
    if (cands?.length)
      claim(
        r,
        cands.reduce((a, b) => (Math.abs(b - r.idx) < Math.abs(a - r.idx) ? b : a))
      )
  }
  // 3. A row edited in place: its position is free and its new content is no record's.
  const written = new Set(stored.map((r) => r.identity?.hash))
  for (const r of stored) {
    if (place.has(r) || !r.identity || keyed(r)) continue
    if (inRange(r.idx) && !claimed.has(r.idx) && !written.has(now.hashes[r.idx])) claim(r, r.idx)
  }
  let orphan = -1
  for (const r of stored) {
    const to = place.get(r)
    if (to === undefined) {
      if (r.idx >= 0 || r.idx !== orphan) out.moves.set(r.idx, orphan)
      if (r.idx >= 0) out.orphaned++
      orphan--
      continue
    }
    if (to !== r.idx) {
      out.moves.set(r.idx, to)
      out.moved++
    }
    if (r.identity && now.hashes[to] !== r.identity.hash) {
      out.flagged.set(to, flagForReview(r.record))
      out.identities.set(to, identityAt(now, to)!)
    }
  }
  return out
}

function flagForReview(r: RowCuration): RowCuration {
  const was = r.status === 'unreviewed' ? 'curated' : r.status
  const note = `The row's content changed in the dataset after it was ${was}; review it.`
  return { ...r, status: 'flagged', note: r.note ? `${note}\n${r.note}` : note }
}
