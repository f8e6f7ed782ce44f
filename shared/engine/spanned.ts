// Strings that remember where each piece came from. A rendered prompt is built from these, so that its
// segments ({ text, source }) concatenate to the exact output and the UI can colour every character by origin.

export type SourceKind =
  | 'template' // text written in a prompt/ice template (path says where)
  | 'field' // a value of the row being rendered (field says which column)
  | 'ice' // text of in-context example `ice` (path or field says where inside the example)
  | 'meta' // a model meta-template part (role says which role, path which key)
  | 'separator' // ice_separator, the parser's '\n' joiner, the API merge '\n'
  | 'eos' // ice_eos_token
  | 'model' // a model output fed back (multi-turn `every` mode)
  | 'content' // an AISBench multimodal content segment

export interface Source {
  kind: SourceKind
  path?: string
  field?: string
  ice?: number
  role?: string
  /** The output column, masked with gen_field_replace_token. */
  masked?: boolean
  turn?: number
}

export interface Segment {
  text: string
  source: Source
}

export interface Run {
  at: number
  src: Source
}

/** A string plus the sources of its pieces (runs are sorted by start offset and cover the whole text). */
export interface SStr {
  readonly text: string
  readonly runs: readonly Run[]
}

export const EMPTY: SStr = { text: '', runs: [] }

export function sLit(text: string, src: Source): SStr {
  return text ? { text, runs: [{ at: 0, src }] } : EMPTY
}

export function pushRun(runs: Run[], at: number, src: Source): void {
  const last = runs[runs.length - 1]
  if (last && last.src === src) return
  if (last && last.at === at) {
    runs[runs.length - 1] = { at, src }
    if (runs.length > 1 && runs[runs.length - 2].src === src) runs.pop()
    return
  }
  runs.push({ at, src })
}

/** Appends s[a:b]'s runs, shifted to start at `offset`. */
export function appendRuns(out: Run[], s: SStr, a: number, b: number, offset: number): void {
  if (a >= b) return
  const runs = s.runs
  // Runs are few; a linear scan from the end of the preceding run is enough.
  let i = 0
  while (i + 1 < runs.length && runs[i + 1].at <= a) i++
  for (; i < runs.length && runs[i].at < b; i++) {
    const start = Math.max(runs[i].at, a)
    pushRun(out, offset + start - a, runs[i].src)
  }
}

/**
 * A concatenation whose runs are worked out only when someone asks for them (spans are opt-in per render,
 * and bulk rendering never reads them). `parts` must not be changed afterwards.
 */
/** Texts whose runs are made on demand, per row (their segments are not worth remembering). */
export abstract class LazyRunsBase implements SStr {
  abstract readonly text: string
  abstract readonly runs: readonly Run[]
}

class ConcatStr implements SStr {
  private r: Run[] | null = null
  private segs: Segment[] | null = null
  constructor(
    readonly text: string,
    private readonly parts: readonly SStr[]
  ) {}
  get runs(): readonly Run[] {
    if (this.r === null) {
      const runs: Run[] = []
      let at = 0
      for (const p of this.parts) {
        const n = p.text.length
        if (n === 0) continue
        appendRuns(runs, p, 0, n, at)
        at += n
      }
      this.r = runs
    }
    return this.r
  }
  /** The parts' segments joined; a source running across a boundary stays one segment, as with the runs. */
  segments(): Segment[] {
    if (this.segs === null) {
      const out: Segment[] = []
      for (const p of this.parts) {
        if (!p.text) continue
        const ps = toSegments(p)
        let k = 0
        const last = out[out.length - 1]
        if (last !== undefined && ps.length > 0 && last.source === ps[0].source) {
          out[out.length - 1] = { text: last.text + ps[0].text, source: last.source }
          k = 1
        }
        for (; k < ps.length; k++) out.push(ps[k])
      }
      this.segs = out
    }
    return this.segs
  }
}

export function sConcat(parts: readonly SStr[]): SStr {
  let nonEmpty = 0
  let only: SStr = EMPTY
  let text = ''
  for (let i = 0; i < parts.length; i++) {
    const t = parts[i].text
    if (t) {
      nonEmpty++
      only = parts[i]
      text += t
    }
  }
  if (nonEmpty <= 1) return only
  return new ConcatStr(text, parts)
}

export function sSlice(s: SStr, a: number, b: number = s.text.length): SStr {
  if (a <= 0 && b >= s.text.length) return s
  if (a >= b) return EMPTY
  const runs: Run[] = []
  appendRuns(runs, s, a, b, 0)
  return { text: s.text.slice(a, b), runs }
}

/** Offsets of Python `s.replace(needle, …)` matches: non-overlapping, left to right; an empty needle matches between every char. */
export function findAll(text: string, needle: string): number[] {
  const out: number[] = []
  if (needle === '') {
    for (let i = 0; i <= text.length; i++) out.push(i)
    return out
  }
  let i = text.indexOf(needle)
  while (i !== -1) {
    out.push(i)
    i = text.indexOf(needle, i + needle.length)
  }
  return out
}

/** Python str.replace(needle, rep) keeping sources; returns `s` itself when nothing matches. */
export function sReplace(s: SStr, needle: string, rep: SStr, matches?: number[]): SStr {
  const hits = matches ?? findAll(s.text, needle)
  if (hits.length === 0) return s
  let text = ''
  const runs: Run[] = []
  let pos = 0
  for (const h of hits) {
    appendRuns(runs, s, pos, h, text.length)
    text += s.text.slice(pos, h)
    if (rep.text) {
      appendRuns(runs, rep, 0, rep.text.length, text.length)
      text += rep.text
    }
    pos = h + needle.length
  }
  appendRuns(runs, s, pos, s.text.length, text.length)
  text += s.text.slice(pos)
  return { text, runs }
}

/** Python str.split(sep) keeping sources. */
export function sSplit(s: SStr, sep: string): SStr[] {
  const hits = findAll(s.text, sep)
  const out: SStr[] = []
  let pos = 0
  for (const h of hits) {
    out.push(sSlice(s, pos, h))
    pos = h + sep.length
  }
  out.push(sSlice(s, pos))
  return out
}

/** The sources covering s[a:b]. */
export function sourcesAt(s: SStr, a: number, b: number): Source[] {
  const out: Source[] = []
  const runs = s.runs
  for (let i = 0; i < runs.length; i++) {
    const end = i + 1 < runs.length ? runs[i + 1].at : s.text.length
    if (end > a && runs[i].at < b) out.push(runs[i].src)
  }
  return out
}

/**
 * Segments of a text, each { text, source }, concatenating to the text. Results are remembered per string
 * (example blocks and template pieces are the same strings row after row), so segments may be shared between
 * rows: treat them as read-only.
 */
export function toSegments(s: SStr): Segment[] {
  if (s instanceof ConcatStr) return s.segments()
  let segs = SEGMENTS.get(s)
  if (segs === undefined) {
    segs = runsToSegments(s)
    // Filled texts are made per row; remembering them would only cost.
    if (!(s instanceof LazyRunsBase)) SEGMENTS.set(s, segs)
  }
  return segs
}

const SEGMENTS = new WeakMap<SStr, Segment[]>()

/** Segments straight from the runs (what toSegments gives, without any remembering). */
export function runsToSegments(s: SStr): Segment[] {
  const out: Segment[] = []
  const runs = s.runs
  for (let i = 0; i < runs.length; i++) {
    const end = i + 1 < runs.length ? runs[i + 1].at : s.text.length
    if (end > runs[i].at) out.push({ text: s.text.slice(runs[i].at, end), source: runs[i].src })
  }
  return out
}

/** Re-tags every run of `s` (used when a whole piece of text becomes part of an in-context example). */
export function sRetag(s: SStr, map: (src: Source) => Source): SStr {
  if (!s.runs.length) return s
  return { text: s.text, runs: s.runs.map((r) => ({ at: r.at, src: map(r.src) })) }
}
