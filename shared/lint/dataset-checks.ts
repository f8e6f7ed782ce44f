// Checks that look at the rows themselves rather than at what a model receives: empty fields, the gold answer in
// the input, duplicates (exact, and near by MinHash over character 4-grams), answer-label balance of
// multiple-choice sets, and in-context examples that are also test rows. Per-row facts are computed once per row
// (rowFeatures, and signatures for the MinHash, which lint computes on a worker thread in batches of rows) so a
// whole-set check over 100,000 rows is a pass over small arrays, and an edited row only recomputes its own facts.

export type Row = Record<string, unknown>

/** A 53-bit hash of a string (two 32-bit FNV-1a-style lanes): a compact key for exact-duplicate detection. */
export function hash53(s: string): number {
  let h1 = 0x811c9dc5 ^ s.length
  let h2 = 0x01000193
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 0x01000193)
    h2 = Math.imul(h2 ^ c, 0x5bd1e995)
    h2 ^= h2 >>> 15
  }
  return (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff)
}

function text(v: unknown): string {
  if (typeof v === 'string') return v
  if (v === undefined || v === null) return ''
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}

/** The columns a check reads: reader_cfg.input_columns when the config names them, else every column but the answer. */
export function checkedColumns(row: Row, inputColumns: string[] | null, outputColumn: string | null): string[] {
  if (inputColumns) return inputColumns
  return Object.keys(row).filter((k) => k !== outputColumn)
}

/** The row's input as one string (the columns a template reads, in order): what duplicates are judged on. */
export function inputText(row: Row, columns: string[]): string {
  let s = ''
  for (const c of columns) s += text(row[c]) + '\u0001'
  return s
}

/** Lowercase, punctuation and symbols dropped, whitespace collapsed: differences near-duplicates ignore. */
export function normalizeText(s: string): string {
  return s
    .toLowerCase()
    .replace(/[\p{P}\p{S}\u0001]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

export const MINHASH_SIZE = 32
const BANDS = 8
const BAND_ROWS = MINHASH_SIZE / BANDS
/** Signatures agreeing on this many of MINHASH_SIZE positions are near-duplicates (estimated Jaccard ≥ 0.8). */
export const NEAR_AGREE = Math.ceil(0.8 * MINHASH_SIZE)

// Fixed odd multipliers and offsets: one hash family per signature position, the same in every run.
const MUL = Int32Array.from({ length: MINHASH_SIZE }, (_, i) => Math.imul(0x9e3779b1, i + 1) | 1)
const ADD = Int32Array.from({ length: MINHASH_SIZE }, (_, i) => Math.imul(0x85ebca6b, i + 7))
/** The row's 4-gram hashes, reused from row to row. */
let grams = new Int32Array(1024)

/**
 * MinHash signature of the character 4-gram set of normalized text (works for CJK, which has no spaces). Each gram
 * is hashed once, then the signature positions take their minimums over the grams four at a time (MINHASH_SIZE is a
 * multiple of 4), multipliers, offsets and running minimums in registers. Minimums are kept as signed 32-bit
 * integers with the top bit flipped (the same order as the unsigned values, in the integer arithmetic the JIT does
 * fastest) and written out unsigned.
 */
export function minhash(norm: string, out: Uint32Array = new Uint32Array(MINHASH_SIZE)): Uint32Array {
  const n = norm.length
  const count = n < 4 ? (n ? 1 : 0) : n - 3
  if (grams.length < count) grams = new Int32Array(count * 2)
  const gs = grams
  for (let i = 0; i < count; i++) {
    let g = 0x811c9dc5 | 0
    const end = Math.min(n, i + 4)
    for (let j = i; j < end; j++) g = Math.imul(g ^ norm.charCodeAt(j), 0x01000193)
    gs[i] = g
  }
  for (let k = 0; k < MINHASH_SIZE; k += 4) {
    const m0 = MUL[k]
    const m1 = MUL[k + 1]
    const m2 = MUL[k + 2]
    const m3 = MUL[k + 3]
    const a0 = ADD[k]
    const a1 = ADD[k + 1]
    const a2 = ADD[k + 2]
    const a3 = ADD[k + 3]
    let n0 = 0x7fffffff
    let n1 = 0x7fffffff
    let n2 = 0x7fffffff
    let n3 = 0x7fffffff
    for (let i = 0; i < count; i++) {
      const g = gs[i]
      let h0 = (Math.imul(g, m0) + a0) | 0
      let h1 = (Math.imul(g, m1) + a1) | 0
      let h2 = (Math.imul(g, m2) + a2) | 0
      let h3 = (Math.imul(g, m3) + a3) | 0
      h0 = Math.imul(h0 ^ (h0 >>> 16), 0x45d9f3b) ^ -0x80000000
      h1 = Math.imul(h1 ^ (h1 >>> 16), 0x45d9f3b) ^ -0x80000000
      h2 = Math.imul(h2 ^ (h2 >>> 16), 0x45d9f3b) ^ -0x80000000
      h3 = Math.imul(h3 ^ (h3 >>> 16), 0x45d9f3b) ^ -0x80000000
      if (h0 < n0) n0 = h0
      if (h1 < n1) n1 = h1
      if (h2 < n2) n2 = h2
      if (h3 < n3) n3 = h3
    }
    out[k] = (n0 ^ -0x80000000) >>> 0
    out[k + 1] = (n1 ^ -0x80000000) >>> 0
    out[k + 2] = (n2 ^ -0x80000000) >>> 0
    out[k + 3] = (n3 ^ -0x80000000) >>> 0
  }
  return out
}

export interface RowFeatures {
  /** Exact-duplicate key of the input (media references included: same text, other picture is another item). */
  exact: number
  /** Key of the media references alone: near-duplicates must show the same media. */
  media: number
  /** MinHash of the normalized input text; null when the text is too short to judge, or not computed yet. */
  sig: Uint32Array | null
  /** The gold answer as text, when the row has one. */
  gold: string | null
}

/** A row's facts from its input text (inputText); `sig` stays null until its signature is known (signatures). */
export function rowFeatures(input: string, row: Row, mediaValues: string[], outputColumn: string | null): RowFeatures {
  const g = outputColumn !== null ? row[outputColumn] : undefined
  return {
    exact: hash53(input),
    media: hash53(mediaValues.join('\u0001')),
    sig: null,
    gold: g === undefined || g === null ? null : text(g).trim()
  }
}

/** Normalized text shorter than this is too short to judge as a near-duplicate: it gets no signature. */
const SIG_MIN_CHARS = 12

/**
 * MinHash signatures of rows' input texts (inputText): text k's signature is sigs[k * MINHASH_SIZE …], where
 * judged[k] is 1; judged[k] is 0 where the normalized text is too short to judge.
 */
export function signatures(inputs: string[]): { sigs: Uint32Array; judged: Uint8Array } {
  const sigs = new Uint32Array(inputs.length * MINHASH_SIZE)
  const judged = new Uint8Array(inputs.length)
  for (let k = 0; k < inputs.length; k++) {
    const norm = normalizeText(inputs[k])
    if (norm.length < SIG_MIN_CHARS) continue
    minhash(norm, sigs.subarray(k * MINHASH_SIZE, (k + 1) * MINHASH_SIZE))
    judged[k] = 1
  }
  return { sigs, judged }
}

/** Input and answer fields that are missing, empty or whitespace only. */
export function emptyFields(row: Row, columns: string[], outputColumn: string | null): { field: string; missing: boolean }[] {
  const out: { field: string; missing: boolean }[] = []
  const all = outputColumn !== null && !columns.includes(outputColumn) ? [...columns, outputColumn] : columns
  for (const c of all) {
    const v = row[c]
    if (v === undefined || v === null) out.push({ field: c, missing: true })
    else if (typeof v === 'string' && v.trim() === '') out.push({ field: c, missing: false })
    else if (Array.isArray(v) && v.length === 0) out.push({ field: c, missing: false })
  }
  return out
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Whether the gold answer is readable in the input fields. A field equal to the answer leaks it at any length; a
 * longer answer (4+ characters) leaks when a field contains it as a whole word; a short one (an option letter,
 * a number) only when written as an answer ("Answer: C", "the answer is 42"), since "C." is every option list.
 */
export function goldLeak(row: Row, columns: string[], gold: string | null, outputColumn: string | null): { field: string; how: string } | null {
  if (!gold) return null
  const goldLower = gold.toLowerCase()
  let answerRe: RegExp | undefined
  let wordRe: RegExp | undefined
  for (const c of columns) {
    if (c === outputColumn) continue
    const v = row[c]
    if (typeof v !== 'string' && typeof v !== 'number') continue
    const lower = String(v).trim().toLowerCase()
    // Most fields do not contain the answer at all: the regular expressions are built only for those that do.
    if (!lower.includes(goldLower)) continue
    // An option column holding the answer's text is how multiple choice works; a column named like the gold
    // label ("C") is one of those options.
    const option = c === gold || OPTION_COLUMN.test(c)
    if (c === gold) continue
    if (lower === goldLower && !option) return { field: c, how: 'equals the answer' }
    if (gold.length >= 4 && !option) {
      wordRe ??= new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(goldLower)}(?![\\p{L}\\p{N}])`, 'iu')
      if (wordRe.test(lower)) return { field: c, how: 'contains the answer' }
    }
    answerRe ??= new RegExp(`answer(?:\\s+is)?\\s*[:：=]?\\s*\\(?${escapeRe(goldLower)}\\)?(?![\\p{L}\\p{N}])`, 'iu')
    if (answerRe.test(lower)) return { field: c, how: 'states the answer' }
  }
  return null
}

export interface LabelBalance {
  labels: Record<string, number>
  rows: number
  /** The most frequent label(s): several when tied. */
  top: string[]
  /** The top label's share over the share it would have if answers were uniform over the options. */
  ratio: number
}

/** A column named like an option letter: one of a multiple-choice row's options. */
export const OPTION_COLUMN = /^[A-J]$/

export const BALANCE_MIN_ROWS = 10
export const BALANCE_RATIO = 1.5

/**
 * Answer-label distribution of a multiple-choice set: the gold is an option letter that is also a column. Returns
 * null when the set is not multiple choice (fewer than 90% of golds are such letters).
 */
export function labelBalance(golds: (string | null)[], columns: string[]): LabelBalance | null {
  const options = columns.filter((c) => OPTION_COLUMN.test(c)).sort()
  if (options.length < 2) return null
  const counts: Record<string, number> = Object.fromEntries(options.map((o) => [o, 0]))
  let n = 0
  let letters = 0
  for (const g of golds) {
    if (g === null) continue
    n++
    if (g in counts) {
      counts[g]++
      letters++
    }
  }
  if (n === 0 || letters < 0.9 * n) return null
  const max = Math.max(...options.map((o) => counts[o]))
  const top = options.filter((o) => counts[o] === max)
  return { labels: counts, rows: letters, top, ratio: max / (letters / options.length) }
}

export function isImbalanced(b: LabelBalance): boolean {
  return b.rows >= BALANCE_MIN_ROWS && b.ratio >= BALANCE_RATIO
}

/**
 * Rows that share their exact input with another live row, and rows with a near-duplicate partner (same media,
 * MinHash agreement ≥ NEAR_AGREE) that is not an exact duplicate of them. `live(i)` leaves rejected rows out.
 */
export function duplicates(features: (RowFeatures | undefined)[], live: (i: number) => boolean): { exact: Map<number, number>; near: Map<number, number> } {
  const byKey = new Map<number, number[]>()
  features.forEach((f, i) => {
    if (!f || !live(i)) return
    const l = byKey.get(f.exact)
    if (l) l.push(i)
    else byKey.set(f.exact, [i])
  })
  // row → the first other row it duplicates (an example partner)
  const exact = new Map<number, number>()
  for (const l of byKey.values()) if (l.length > 1) for (const i of l) exact.set(i, l[0] === i ? l[1] : l[0])
  // row → its near partner, -1 for none (an array: most rows of a templated set have one)
  const partner = new Int32Array(features.length).fill(-1)
  // Band keys are bucketed in a hash table of typed arrays, not a Map of arrays (100,000 rows make 800,000 band keys
  // and as many small arrays): buckets are numbered as first met and visited in that order, each a chain of its
  // rows in the order they were added, so the pairs found are the ones a Map of arrays gives.
  let rows = 0
  features.forEach((f, i) => {
    if (f?.sig && live(i)) rows++
  })
  const entries = rows * BANDS
  const bits = Math.max(4, Math.ceil(Math.log2(entries * 1.5 + 1)))
  const mask = (1 << bits) - 1
  const slotKey = new Float64Array(mask + 1)
  const slotBucket = new Int32Array(mask + 1).fill(-1)
  const head = new Int32Array(entries)
  const tail = new Int32Array(entries)
  const size = new Int32Array(entries)
  const entryRow = new Int32Array(entries)
  const next = new Int32Array(entries)
  let buckets = 0
  let e = 0
  features.forEach((f, i) => {
    if (!f?.sig || !live(i)) return
    for (let b = 0; b < BANDS; b++) {
      // A 53-bit key of (band, media, the band's signature values); a collision only adds a candidate to verify.
      let h1 = Math.imul(b + 1, 0x9e3779b1) ^ (f.media | 0)
      let h2 = (f.media / 0x100000000) | 0
      for (let r = 0; r < BAND_ROWS; r++) {
        const v = f.sig[b * BAND_ROWS + r]
        h1 = Math.imul(h1 ^ v, 0x01000193)
        h2 = Math.imul(h2 ^ v, 0x5bd1e995) ^ (h2 >>> 13)
      }
      const key = (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff)
      let s = Math.imul(h1 ^ h2, 0x9e3779b1) >>> (32 - bits)
      while (slotBucket[s] >= 0 && slotKey[s] !== key) s = (s + 1) & mask
      let k = slotBucket[s]
      if (k < 0) {
        k = buckets++
        slotBucket[s] = k
        slotKey[s] = key
        head[k] = e
      } else next[tail[k]] = e
      tail[k] = e
      size[k]++
      entryRow[e] = i
      next[e] = -1
      e++
    }
  })
  // Each row is compared with the first few rows of its buckets only: linear in the rows, and a row with any
  // near partner is found through one of them (a bucket of similar rows shares its first members).
  const REPS = 4
  const firsts = new Int32Array(REPS)
  for (let k = 0; k < buckets; k++) {
    if (size[k] < 2) continue
    let y = 0
    for (let at = head[k]; at >= 0; at = next[at], y++) {
      const j = entryRow[at]
      const fj = features[j]!
      for (let x = 0; x < Math.min(REPS, y); x++) {
        const i = firsts[x]
        const fi = features[i]!
        if (fi.exact === fj.exact) continue
        if (partner[j] >= 0 && partner[i] >= 0) break
        let agree = 0
        for (let q = 0; q < MINHASH_SIZE; q++) if (fi.sig![q] === fj.sig![q]) agree++
        if (agree < NEAR_AGREE) continue
        if (partner[i] < 0) partner[i] = j
        if (partner[j] < 0) partner[j] = i
        break
      }
      if (y < REPS) firsts[y] = j
    }
  }
  const near = new Map<number, number>()
  partner.forEach((p, i) => {
    if (p >= 0) near.set(i, p)
  })
  return { exact, near }
}
