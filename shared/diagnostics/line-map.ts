// Offsets ⇄ lines and columns of one text. A line ends at \r\n, \r or \n — as jinja2, Python's tokenizer and
// CodeMirror all count them — so a position computed here is the one the editor shows.
import type { Position, Range } from './diagnostic'

export class LineMap {
  /** Offset at which each line starts; starts[0] = 0. */
  private readonly starts: number[] = [0]

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) this.starts.push(i + 1)
    }
  }

  get lineCount(): number {
    return this.starts.length
  }

  /** The position of an offset (clamped into the text). */
  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length))
    let lo = 0
    let hi = this.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid] <= o) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: o - this.starts[lo] + 1, offset: o }
  }

  /** The offset of a 1-based line and column, clamped to the text and to the end of that line. */
  offset(line: number, column: number): number {
    if (line > this.starts.length) return this.text.length
    const l = Math.max(1, line)
    const start = this.starts[l - 1]
    const next = l < this.starts.length ? this.starts[l] : this.text.length
    let lineEnd = next
    if (l < this.starts.length) lineEnd -= this.text.charCodeAt(next - 2) === 13 && this.text.charCodeAt(next - 1) === 10 ? 2 : 1
    return Math.min(start + Math.max(0, column - 1), lineEnd)
  }

  /** The range of offsets [from, to) (`to` below `from` counts as `from`). */
  range(from: number, to: number): Range {
    return { start: this.position(from), end: this.position(Math.max(from, to)) }
  }

  /** A range with its offsets filled in from its lines and columns. */
  located(r: Range): Range {
    const a = r.start.offset ?? this.offset(r.start.line, r.start.column)
    const b = r.end.offset ?? this.offset(r.end.line, r.end.column)
    return this.range(a, b)
  }
}

/** The range of offsets [from, to) of `text`; for many ranges in one text, make one LineMap. */
export function rangeFromOffsets(text: string, from: number, to: number): Range {
  return new LineMap(text).range(from, to)
}
