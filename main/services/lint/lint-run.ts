// Lint of a whole split × models on the export path: rows are read in batches, prepared and rendered by the same
// renderPreparedRow the app's Export and `promptloom render` use (spans off: no display work), and what each
// model's render says (its problems, token count) is kept per row beside the row's own facts (empty fields, gold
// in the input, duplicate keys, media). Groups, counts and histograms are computed from those per-row records
// when asked, leaving rejected rows out, so a curation change or an edited row (relint) updates them at once.
import type { CurationStatus, Diagnostic } from '../../../shared/api/types'
import { isEngineError, type EngineError, type Prepared, type Row } from '../../../shared/engine'
import { checkedColumns, duplicates, emptyFields, goldLeak, hash53, inputText, isImbalanced, labelBalance, MINHASH_SIZE, OPTION_COLUMN, rowFeatures, signatures, type RowFeatures } from '../../../shared/lint/dataset-checks'
import { histogram } from '../../../shared/lint/histogram'
import { kindInfo, lintKindOf } from '../../../shared/lint/kinds'
import { groupKey, LINT_REPORT_VERSION, parseLintKey, type LintExample, type LintGroup, type LintReport, type LintSeverity } from '../../../shared/lint/report'
import type { RowRecord } from '../datasets/types'
import { runTask } from '../workers/pool'
import { renderPreparedRow } from '../workspace/render-row'
import type { ModelContext } from '../workspace/model-render'
import { findMediaRefs } from '../workspace/row-media'
import { blocksOf, lintBlocks, lintWorkers, type LintThreadJob } from './lint-threads'
import { MediaChecker } from './media-check'

/** What lint needs from the open project (the workspace builds it; tests build it from files). */
export interface LintSource {
  project: LintReport['project']
  total: number
  /**
   * Only rows [start, end) (`lint --shard I/N`): the other rows are not read, and the whole-set checks (duplicates,
   * label balance, examples in the test set) see this slice only.
   */
  range?: { start: number; end: number }
  /** Rows as they render: curation edits applied. */
  readRows(start: number, count: number): Promise<RowRecord[]>
  prepare(rows: Row[]): Promise<Prepared | EngineError>
  /** The variant's retriever compares every test row: rows are prepared once over the split, indexed by row number. */
  wholeSplit: boolean
  models: ModelContext[]
  roots: string[]
  /** The project's media folder (relative media paths resolve against it), when one is set. */
  mediaBase?: string | null
  inputColumns: string[] | null
  outputColumn: string | null
  status(index: number): CurationStatus
  /** Rows with curation edits now, and a row's edits as a comparable string ('' when none). */
  editedRows?(): number[]
  editKey?(index: number): string
  readRow?(index: number): Promise<RowRecord | null>
  /** How a worker thread opens this same source (lint-threads.ts); without it every row is linted on this thread. */
  threads?: LintThreadJob
}

/**
 * The per-row records of rows [start, end) linted on a worker thread, as LintRun.absorb takes them: the rows'
 * distinct finding lists and each row's list (-1: none), the per-model figures, the row facts (a signature where
 * `judged`), and the in-context examples first met in these rows.
 */
export interface LintBlock {
  start: number
  lists: Finding[][]
  listOf: Int32Array
  tokens: Int32Array[]
  retrieved: Int16Array[]
  kept: Int16Array[]
  exact: Float64Array
  media: Float64Array
  golds: (string | null)[]
  sigs: Uint32Array
  judged: Uint8Array
  ice: { key: number; train: number; row: number }[]
  options: string[]
}

/** The buffers of a block's typed arrays: moved to the main thread, not copied. */
export function transferablesOfBlock(b: LintBlock): ArrayBuffer[] {
  const arrays = [b.listOf, b.exact, b.media, b.sigs, b.judged, ...b.tokens, ...b.retrieved, ...b.kept]
  return arrays.map((a) => a.buffer as ArrayBuffer)
}

/** Rows linted whose signatures are still to be computed, and their input texts. */
interface Unsigned {
  rows: number[]
  inputs: string[]
}

export interface Finding {
  kind: string
  model: string | null
  severity: LintSeverity
  message: string
  at?: Record<string, string | number>
  detail?: Record<string, unknown>
}

const BATCH = 500
const EXAMPLES = 5
/** Batches whose signatures may be computing at once: bounds the texts held for them. */
const SIGNING_AHEAD = 4
const RANK: Record<LintSeverity, number> = { error: 2, warning: 1, info: 0 }

export class LintRun {
  readonly findings: (Finding[] | undefined)[]
  readonly features: (RowFeatures | undefined)[]
  /** Per model: the row's longest request in tokens, -1 where the model got no input. */
  readonly tokens: Int32Array[]
  readonly exact: boolean[]
  /** Per model with max_seq_len: in-context examples retrieved and kept per row (-1: no such limit / no row). */
  readonly retrieved: Int16Array[]
  readonly kept: Int16Array[]
  /** Exact keys of the train rows used as in-context examples (→ train row index). */
  readonly iceKeys = new Map<number, number>()
  /** The test row each of iceKeys was first met at: of train rows with one key, the one met first is named. */
  private iceRow = new Map<number, number>()
  private golds: (string | null)[]
  /** Rows linted with curation edits: their edits then (see refreshEdits). */
  private editKeys = new Map<number, string>()
  /** Columns named like an option letter (A–J): multiple-choice sets' options, for the label balance. */
  private options = new Set<string>()
  private media: MediaChecker
  /** The first row linted (a shard's start; 0 otherwise). */
  readonly first: number
  /** Rows below `done` (from `first`) have been linted. */
  done = 0
  /** Blocks of rows linted on worker threads (lint-threads.ts), 0 when every row was linted on this thread. */
  workerBlocks = 0
  /** Per block of the run (lint-threads.ts): its rows linted so far, from its start. */
  private blockDone = new Int32Array(0)
  cancelled = false
  /**
   * Near-duplicate signatures computed on this thread instead of the dataset pool: set where lint already runs on
   * a thread per core (a lint worker, or the main thread beside them), where pool workers would only add isolates
   * (~60 MB of peak memory on 100,000 rows × 3 models) for no spare core.
   */
  signHere = false
  elapsedMs = 0

  constructor(readonly src: LintSource) {
    this.findings = new Array(src.total)
    this.features = new Array(src.total)
    this.golds = new Array(src.total).fill(null)
    this.tokens = src.models.map(() => new Int32Array(src.total).fill(-1))
    this.exact = src.models.map((m) => m.counter.exact)
    this.retrieved = src.models.map(() => new Int16Array(src.total).fill(-1))
    this.kept = src.models.map(() => new Int16Array(src.total).fill(-1))
    this.media = new MediaChecker(src.roots, src.mediaBase ?? null)
    this.first = src.range?.start ?? 0
    this.done = this.first
  }

  /** Whether row i is in this run's rows (a shard's slice, or all). */
  private inRange(i: number): boolean {
    return i >= this.first && i < this.done
  }

  /**
   * Renders every row, on worker threads too when the source says how they open it and the work is large enough
   * (lint-threads.ts); stops early (cancelled) when the signal fires. A set with edited rows is linted on this
   * thread only: workers read the rows without their edits.
   */
  async run(signal?: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<this> {
    const t0 = performance.now()
    const end = this.src.range?.end ?? this.src.total
    const blocks = blocksOf(this.first, end)
    this.blockDone = new Int32Array(blocks.length)
    const progress = () => {
      let d = this.first
      for (let b = 0; b < blocks.length && d === blocks[b].start; b++) d += this.blockDone[b]
      this.done = d
      onProgress?.(
        this.blockDone.reduce((a, n) => a + n, 0),
        end - this.first
      )
    }
    const job = this.src.threads && !this.src.editedRows?.().length ? this.src.threads : null
    if (job && lintWorkers(end - this.first) > 0) this.signHere = true
    await lintBlocks(
      blocks,
      job,
      (b) =>
        this.lintRange(b.start, b.end, signal, (rows) => {
          this.blockDone[b.id] = rows
          progress()
        }),
      (b, result) => {
        this.absorb(result)
        this.blockDone[b.id] = b.end - b.start
        progress()
      },
      signal
    )
    this.cancelled = this.done < end
    this.elapsedMs = performance.now() - t0
    return this
  }

  /**
   * Lints rows [start, end) in batches, yielding between them; stops early when the signal fires. `onBatch` gets the
   * rows linted so far, from `start`.
   */
  async lintRange(start: number, end: number, signal?: AbortSignal, onBatch?: (rows: number) => void): Promise<void> {
    // Each batch's near-duplicate signatures are computed on a worker thread (the dataset pool) while this thread
    // renders the next batches; they are all in before this returns. A failed batch fails the run.
    const signing: Promise<void>[] = []
    try {
      for (let at = start; at < end && !signal?.aborted; at += BATCH) {
        const recs = await this.src.readRows(at, Math.min(BATCH, end - at))
        const prepared = await this.src.prepare(recs.map((r) => r.value))
        const unsigned: Unsigned = { rows: [], inputs: [] }
        for (let k = 0; k < recs.length; k++) {
          await this.lintRow(recs[k], prepared, this.src.wholeSplit ? recs[k].index : k, unsigned)
          const key = this.src.editKey?.(recs[k].index)
          if (key) this.editKeys.set(recs[k].index, key)
        }
        const signed = this.sign(unsigned)
        // Awaited below; the empty handler only keeps a failure from counting as unhandled until then.
        signed.catch(() => {})
        signing.push(signed)
        if (signing.length >= SIGNING_AHEAD) await signing.shift()
        onBatch?.(Math.min(at + BATCH, end) - start)
        // Let other calls (the row list, the matrix, a worker's block) through between batches.
        await new Promise((r) => setImmediate(r))
      }
    } finally {
      await Promise.all(signing)
    }
  }

  /** Rows [start, end)'s records, moved out of this run (a worker thread's, which sends them on). */
  takeBlock(start: number, end: number): LintBlock {
    const n = end - start
    const lists: Finding[][] = []
    const listIds = new Map<Finding[], number>()
    const block: LintBlock = {
      start,
      lists,
      listOf: new Int32Array(n),
      tokens: this.tokens.map((t) => t.slice(start, end)),
      retrieved: this.retrieved.map((t) => t.slice(start, end)),
      kept: this.kept.map((t) => t.slice(start, end)),
      exact: new Float64Array(n),
      media: new Float64Array(n),
      golds: this.golds.slice(start, end),
      sigs: new Uint32Array(n * MINHASH_SIZE),
      judged: new Uint8Array(n),
      ice: [],
      options: [...this.options]
    }
    for (let k = 0; k < n; k++) {
      const i = start + k
      const fs = this.findings[i]
      let id = fs ? listIds.get(fs) : -1
      if (id === undefined) {
        id = lists.push(fs!) - 1
        listIds.set(fs!, id)
      }
      block.listOf[k] = id
      const f = this.features[i]!
      block.exact[k] = f.exact
      block.media[k] = f.media
      if (f.sig) {
        block.sigs.set(f.sig, k * MINHASH_SIZE)
        block.judged[k] = 1
      }
      this.findings[i] = undefined
      this.features[i] = undefined
    }
    for (const [key, row] of this.iceRow) if (row >= start && row < end) block.ice.push({ key, train: this.iceKeys.get(key)!, row })
    return block
  }

  /** A block linted on a worker thread: its records put at their rows, as if linted here. */
  absorb(b: LintBlock): void {
    const lists = b.lists.map((l) => this.internList(l.map((f) => this.intern(f))))
    for (let k = 0; k < b.listOf.length; k++) {
      const i = b.start + k
      this.findings[i] = b.listOf[k] < 0 ? undefined : lists[b.listOf[k]]
      const sig = b.judged[k] ? b.sigs.subarray(k * MINHASH_SIZE, (k + 1) * MINHASH_SIZE) : null
      this.features[i] = { exact: b.exact[k], media: b.media[k], sig, gold: b.golds[k] }
      this.golds[i] = b.golds[k]
    }
    this.src.models.forEach((_, j) => {
      this.tokens[j].set(b.tokens[j], b.start)
      this.retrieved[j].set(b.retrieved[j], b.start)
      this.kept[j].set(b.kept[j], b.start)
    })
    for (const e of b.ice) this.meetIce(e.key, e.train, e.row)
    for (const c of b.options) this.options.add(c)
    this.workerBlocks++
  }

  /** An in-context example's key met at test row `row`; the earliest row's train row is the one named. */
  private meetIce(key: number, train: number, row: number): void {
    const at = this.iceRow.get(key)
    if (at !== undefined && at <= row) return
    this.iceKeys.set(key, train)
    this.iceRow.set(key, row)
  }

  /** Lints one row again after it was edited. */
  async relint(rec: RowRecord): Promise<void> {
    const prepared = await this.src.prepare(this.src.wholeSplit ? [] : [rec.value])
    const unsigned: Unsigned = { rows: [], inputs: [] }
    await this.lintRow(rec, prepared, this.src.wholeSplit ? rec.index : 0, unsigned)
    await this.sign(unsigned)
  }

  /**
   * Re-lints the rows whose edits changed since they were linted (an edit, a revert, undo or redo of either), so
   * the report reflects what the rows are now. Returns how many rows were linted again.
   */
  async refreshEdits(): Promise<number> {
    const { editedRows, editKey, readRow } = this.src
    if (!editedRows || !editKey || !readRow) return 0
    const rows = new Set([...editedRows(), ...this.editKeys.keys()])
    let n = 0
    for (const i of rows) {
      if (!this.inRange(i)) continue
      const key = editKey(i)
      if ((this.editKeys.get(i) ?? '') === key) continue
      const rec = await readRow(i)
      if (!rec) continue
      await this.relint(rec)
      if (key) this.editKeys.set(i, key)
      else this.editKeys.delete(i)
      n++
    }
    return n
  }

  /**
   * One shared object per distinct finding: most rows of a model get the same few messages ("The template
   * appended a generation prompt."), so 100,000 rows hold pointers, not copies.
   */
  private interned = new Map<string, Finding>()
  private findingId = new Map<Finding, number>()
  private intern(f: Finding): Finding {
    const key = `${f.kind}\u0000${f.model ?? ''}\u0000${f.severity}\u0000${f.message}\u0000${f.at ? JSON.stringify(f.at) : ''}\u0000${f.detail ? JSON.stringify(f.detail) : ''}`
    const hit = this.interned.get(key)
    if (hit) return hit
    if (this.interned.size < 200_000) {
      this.interned.set(key, f)
      this.findingId.set(f, this.findingId.size)
    }
    return f
  }
  /**
   * And one shared list per distinct set of findings: the rows of a clean set all carry the same few facts per
   * model (what each template added), so a row holds one pointer, and the report counts each list once.
   */
  private lists = new Map<string, Finding[]>()
  private internList(fs: Finding[]): Finding[] {
    let key = ''
    for (const f of fs) {
      const id = this.findingId.get(f)
      if (id === undefined) return fs
      key += `${id},`
    }
    const hit = this.lists.get(key)
    if (hit) return hit
    if (this.lists.size < 100_000) this.lists.set(key, fs)
    return fs
  }
  /**
   * Fills in the signatures of rows linted without one. Each row's signature is a view on its batch's buffer (one
   * buffer per batch, not one per row); a row linted again meanwhile keeps its newer features.
   */
  private async sign(u: Unsigned): Promise<void> {
    if (!u.rows.length) return
    const feats = u.rows.map((i) => this.features[i])
    const { sigs, judged } = this.signHere ? signatures(u.inputs) : await runTask('minhash', { inputs: u.inputs })
    u.rows.forEach((i, k) => {
      const f = feats[k]
      if (judged[k] && f && this.features[i] === f) f.sig = sigs.subarray(k * MINHASH_SIZE, (k + 1) * MINHASH_SIZE)
    })
  }
  /** Train rows already keyed for the in-context-example check. */
  private iceSeen = new Set<number>()

  /** Lints row `rec`; its input text goes to `unsigned`, whose signatures the caller has computed (sign). */
  private async lintRow(rec: RowRecord, prepared: Prepared | EngineError, testIndex: number, unsigned: Unsigned): Promise<void> {
    const i = rec.index
    const out: Finding[] = []
    const seen = new Set<string>()
    const add = (f: Finding) => {
      const key = `${f.kind}|${f.model ?? ''}`
      if (seen.has(key)) return
      seen.add(key)
      out.push(this.intern(f))
    }
    for (const t of this.tokens) t[i] = -1
    for (const t of this.kept) t[i] = -1
    for (const t of this.retrieved) t[i] = -1
    const value = rec.value
    if (rec.error) {
      add({ kind: 'template-error', model: null, severity: 'error', message: rec.error.message, at: { ...(rec.error.at.line ? { line: rec.error.at.line } : {}) }, detail: { code: rec.error.code } })
    } else if (isEngineError(prepared)) {
      add({ kind: 'template-error', model: null, severity: 'error', message: `${prepared.stage}: ${prepared.message}`, at: plainAt(prepared.at as Record<string, unknown>), detail: { code: prepared.code } })
    } else {
      const r = renderPreparedRow(prepared, testIndex, i, this.src.models, false)
      for (const p of r.problems) add(finding(p, null))
      const requests = r.items ? r.items.map((it) => it.models) : [r.models]
      for (const models of requests) {
        models.forEach((m, j) => {
          for (const p of m.problems) add(finding(p, m.modelId))
          if (m.tokens && m.tokens.count > this.tokens[j][i]) this.tokens[j][i] = m.tokens.count
          // A PPL row makes one request per label: the fewest examples any of them keeps.
          if (m.examples) {
            this.retrieved[j][i] = m.examples.retrieved
            this.kept[j][i] = this.kept[j][i] < 0 ? m.examples.kept : Math.min(this.kept[j][i], m.examples.kept)
          }
        })
      }
      for (const idx of prepared.iceIdx[testIndex] ?? []) {
        const train = prepared.train[idx]
        if (!train || this.iceSeen.has(idx)) continue
        this.iceSeen.add(idx)
        const cols = checkedColumns(train, this.src.inputColumns, this.src.outputColumn)
        this.meetIce(hash53(inputText(train, cols)), idx, i)
      }
    }
    // The row's own facts.
    const cols = checkedColumns(value, this.src.inputColumns, this.src.outputColumn)
    for (const c of Object.keys(value)) if (OPTION_COLUMN.test(c)) this.options.add(c)
    const refs = findMediaRefs(value)
    const input = inputText(value, cols)
    const feats = rowFeatures(input, value, refs.map((x) => x.value), this.src.outputColumn)
    this.features[i] = feats
    unsigned.rows.push(i)
    unsigned.inputs.push(input)
    this.golds[i] = feats.gold
    const empty = emptyFields(value, cols, this.src.outputColumn)
    if (empty.length)
      add({ kind: 'empty-field', model: null, severity: 'warning', message: empty.map((e) => `${e.field} ${e.missing ? 'missing' : 'empty'}`).join(', '), at: { field: empty[0].field }, detail: { fields: empty.map((e) => e.field) } })
    const leak = goldLeak(value, cols, feats.gold, this.src.outputColumn)
    if (leak) add({ kind: 'gold-leak', model: null, severity: 'error', message: `${leak.field} ${leak.how} (${JSON.stringify(feats.gold)})`, at: { field: leak.field } })
    if (refs.length && !rec.error) for (const m of await this.media.check(refs, rec.at.file)) add({ kind: m.kind, model: null, severity: kindInfo(m.kind).severity, message: m.message, at: { field: m.field } })
    this.findings[i] = out.length ? this.internList(out) : undefined
  }

  /** The report, rejected rows left out of every count. */
  report(): LintReport {
    const live = (i: number) => this.inRange(i) && this.src.status(i) !== 'rejected'
    const groups = new Map<string, { g: LintGroup; rank: number }>()
    type Entry = { g: LintGroup; rank: number }
    const put = (kind: string, model: string | null, severity: LintSeverity, count: number, ex?: () => LintExample, detail?: Record<string, unknown>) => {
      const key = groupKey(kind, model)
      let e = groups.get(key)
      if (!e) {
        const info = kindInfo(kind, severity)
        e = { g: { key, kind, model, severity, title: info.title, advice: info.advice, count: 0, examples: [] }, rank: -1 }
        if (detail) e.g.detail = detail
        groups.set(key, e)
      }
      e.g.count += count
      if (RANK[severity] > e.rank) {
        e.rank = RANK[severity]
        e.g.severity = severity
      }
      if (ex && e.g.examples.length < EXAMPLES) e.g.examples.push(ex())
      return e
    }
    // Rows' finding lists are interned: the rows are counted per distinct list (with its first rows as
    // examples), then each list's findings go to their groups once. A row has at most one finding per group.
    const byList = new Map<Finding[], { count: number; rows: number[] }>()
    let rejected = 0
    for (let i = this.first; i < this.done; i++) {
      if (!live(i)) {
        rejected++
        continue
      }
      const fs = this.findings[i]
      if (!fs) continue
      let l = byList.get(fs)
      if (!l) byList.set(fs, (l = { count: 0, rows: [] }))
      l.count++
      if (l.rows.length < EXAMPLES) l.rows.push(i)
    }
    const candidates = new Map<Entry, { row: number; f: Finding }[]>()
    for (const [fs, l] of byList) {
      for (const f of fs) {
        const e = put(f.kind, f.model, f.severity, l.count)
        let c = candidates.get(e)
        if (!c) candidates.set(e, (c = []))
        for (const row of l.rows) c.push({ row, f })
      }
    }
    // A group's examples: its first rows in row order, whichever lists they came from.
    for (const [e, c] of candidates) {
      c.sort((a, b) => a.row - b.row)
      e.g.examples = c.slice(0, EXAMPLES).map(({ row, f }) => ({ row, message: f.message, ...(f.at && Object.keys(f.at).length ? { at: f.at } : {}) }))
    }
    for (const d of this.wholeSetFindings(live)) put(d.kind, null, d.severity, 1, () => ({ row: d.row, message: d.message }), d.detail)
    const list = [...groups.values()].map((e) => e.g)
    list.sort((a, b) => RANK[b.severity] - RANK[a.severity] || b.count - a.count || a.key.localeCompare(b.key))
    const summary = { errors: 0, warnings: 0, infos: 0 }
    for (const g of list) summary[g.severity === 'error' ? 'errors' : g.severity === 'warning' ? 'warnings' : 'infos'] += g.count
    return {
      version: LINT_REPORT_VERSION,
      project: this.src.project,
      models: this.src.models.map((m) => ({
        id: m.profile.id,
        name: m.profile.name,
        contextLength: m.profile.context_length,
        ...(maxSeqLenOf(m) ? { maxSeqLen: maxSeqLenOf(m) } : {}),
        tokens: m.counter.exact ? 'exact' : 'estimate',
        tokenizer: m.counter.source
      })),
      rows: this.done - this.first,
      rejected,
      cancelled: this.cancelled,
      summary,
      groups: list,
      histograms: this.src.models.map((m, j) => histogram(m.profile.id, this.tokens[j].subarray(0, this.done), live, m.profile.context_length, this.exact[j])),
      truncation: this.truncation(live),
      elapsedMs: Math.round(this.elapsedMs)
    }
  }

  private truncation(live: (i: number) => boolean): LintReport['truncation'] {
    const out: LintReport['truncation'] = []
    this.src.models.forEach((m, j) => {
      const max = maxSeqLenOf(m)
      if (!max) return
      let rows = 0
      let truncated = 0
      let noneFit = 0
      let retrieved = 0
      let minKept: number | null = null
      for (let i = 0; i < this.done; i++) {
        const r = this.retrieved[j][i]
        if (r < 0 || !live(i)) continue
        const k = this.kept[j][i]
        rows++
        retrieved = Math.max(retrieved, r)
        if (k < r) truncated++
        if (k === 0 && this.findings[i]?.some((f) => f.kind === 'examples-none-fit' && f.model === m.profile.id)) noneFit++
        minKept = minKept === null ? k : Math.min(minKept, k)
      }
      out.push({ model: m.profile.id, maxSeqLen: max, rows, truncated, noneFit, retrieved, minKept })
    })
    return out
  }

  /** Findings that need every row: duplicates, label balance, in-context examples that are test rows. */
  private wholeSetFindings(live: (i: number) => boolean): (Omit<Finding, 'model'> & { row: number })[] {
    const out: (Omit<Finding, 'model'> & { row: number })[] = []
    const feats = this.features.slice(0, this.done)
    const { exact, near } = duplicates(feats, live)
    for (const [row, other] of [...exact].sort((a, b) => a[0] - b[0])) out.push({ kind: 'duplicate-prompt', severity: 'warning', message: `same input as row ${other}`, row })
    for (const [row, other] of [...near].sort((a, b) => a[0] - b[0])) out.push({ kind: 'near-duplicate-prompt', severity: 'info', message: `nearly the same input as row ${other}`, row })
    if (this.iceKeys.size) {
      feats.forEach((f, row) => {
        if (!f || !live(row)) return
        const t = this.iceKeys.get(f.exact)
        if (t !== undefined) out.push({ kind: 'example-in-test', severity: 'error', message: `same input as train row ${t}, used as an in-context example`, row })
      })
    }
    const golds = this.golds.slice(0, this.done).map((g, i) => (live(i) ? g : null))
    const b = labelBalance(golds, [...this.options])
    if (b && isImbalanced(b)) {
      const dist = Object.entries(b.labels).map(([k, v]) => `${k} ${v}`).join(', ')
      const top = b.top.join(' or ')
      golds.forEach((g, row) => {
        if (g !== null && b.top.includes(g))
          out.push({ kind: 'label-imbalance', severity: 'warning', message: `answer ${top}: ${b.labels[g]} of ${b.rows} rows${b.top.length > 1 ? ' each' : ''} (${dist})`, row, detail: { labels: b.labels, top: b.top, ratio: Math.round(b.ratio * 100) / 100 } })
      })
    }
    return out
  }

  /** Rows of a group or token bin, in row order, rejected rows left out. Unknown keys give no rows. */
  rowsOf(key: string): number[] {
    const k = parseLintKey(key)
    if (!k) return []
    const live = (i: number) => this.inRange(i) && this.src.status(i) !== 'rejected'
    const rows: number[] = []
    if (k.type === 'bin') {
      const j = this.src.models.findIndex((m) => m.profile.id === k.model)
      if (j < 0) return []
      const t = this.tokens[j]
      for (let i = 0; i < this.done; i++) if (t[i] >= k.from && t[i] < k.to && live(i)) rows.push(i)
      return rows
    }
    if (kindInfo(k.kind).scope === 'dataset' && ['duplicate-prompt', 'near-duplicate-prompt', 'example-in-test', 'label-imbalance'].includes(k.kind)) {
      return [...new Set(this.wholeSetFindings(live).filter((f) => f.kind === k.kind).map((f) => f.row))].sort((a, b) => a - b)
    }
    for (let i = 0; i < this.done; i++) {
      if (!live(i)) continue
      if (this.findings[i]?.some((f) => f.kind === k.kind && f.model === k.model)) rows.push(i)
    }
    return rows
  }
}

/** The max_seq_len OpenCompass's inferencer gets for this model, if its config sets one. */
function maxSeqLenOf(m: ModelContext): number | undefined {
  const h = m.profile.harness?.model_kwargs?.max_seq_len
  return m.profile.max_seq_len ?? (typeof h === 'number' && h > 0 ? h : undefined)
}

function plainAt(at: Record<string, unknown> | undefined): Record<string, string | number> {
  const out: Record<string, string | number> = {}
  for (const [k, v] of Object.entries(at ?? {})) if (typeof v === 'string' || typeof v === 'number') out[k] = v
  return out
}

/** The report's `at` (version 1): a problem's data (row, field, template path, …) and the line and column of its range. */
function reportAt(p: Diagnostic): Record<string, string | number> {
  const at = plainAt(p.data)
  if (p.range) Object.assign(at, { line: p.range.start.line, column: p.range.start.column })
  return at
}

function finding(p: Diagnostic, model: string | null): Finding {
  const kind = lintKindOf(p.code, p.severity)
  const at = reportAt(p)
  return { kind, model, severity: p.severity, message: p.message, ...(Object.keys(at).length ? { at } : {}), ...(kind !== p.code ? { detail: { code: p.code } } : {}) }
}
