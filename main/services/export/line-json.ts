// Export lines as JSON text, byte for byte what `JSON.stringify(line) + '\n'` gives, without its per-line costs:
// the same problem object (a string template's "meta template not applied" note on each of 100,000 lines) is
// serialized once and reused, keys are written from a table, and many lines are encoded straight into one buffer
// (one write per megabyte instead of a Buffer per line). Keys keep the line object's own order, so a field added to
// ExportLine is written where JSON.stringify would write it.

/** JSON of one {code, message, severity} problem, memoized by its three strings (each a key in its own level). */
const problemJson = new Map<string, Map<string, Map<string, string>>>()
const keyJson = new Map<string, string>()

function isBriefProblem(p: unknown): p is { code: string; message: string; severity: string } {
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return false
  let n = 0
  for (const k in p) {
    // JSON.stringify would write the keys in this order; anything else takes the general path.
    if (k !== (n === 0 ? 'code' : n === 1 ? 'message' : n === 2 ? 'severity' : '')) return false
    n++
  }
  const q = p as Record<string, unknown>
  return n === 3 && typeof q.code === 'string' && typeof q.message === 'string' && typeof q.severity === 'string'
}

function problemsJson(ps: unknown): string | undefined {
  if (!Array.isArray(ps)) return JSON.stringify(ps)
  let s = '['
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i]
    if (i > 0) s += ','
    if (!isBriefProblem(p)) {
      s += JSON.stringify(p) ?? 'null'
      continue
    }
    let byMessage = problemJson.get(p.code)
    if (byMessage === undefined) problemJson.set(p.code, (byMessage = new Map()))
    let bySeverity = byMessage.get(p.message)
    if (bySeverity === undefined) {
      // Bounded: messages that name a row or a count would otherwise collect without end.
      if (byMessage.size > 256) byMessage.clear()
      byMessage.set(p.message, (bySeverity = new Map()))
    }
    let j = bySeverity.get(p.severity)
    if (j === undefined) bySeverity.set(p.severity, (j = JSON.stringify(p)))
    s += j
  }
  return s + ']'
}

/** `JSON.stringify(line)` for a plain data object (no toJSON, no getters), with problems memoized. */
export function lineJson(line: object): string {
  let s = '{'
  let first = true
  const o = line as Record<string, unknown>
  for (const k in o) {
    const v = o[k]
    let j: string | undefined
    switch (typeof v) {
      case 'string':
        j = JSON.stringify(v)
        break
      case 'number':
        j = Number.isFinite(v) ? String(v) : 'null'
        break
      case 'boolean':
        j = v ? 'true' : 'false'
        break
      case 'undefined':
      case 'function':
      case 'symbol':
        continue
      default:
        j = k === 'problems' ? problemsJson(v) : JSON.stringify(v)
    }
    if (j === undefined) continue
    let kj = keyJson.get(k)
    if (kj === undefined) keyJson.set(k, (kj = JSON.stringify(k) + ':'))
    s += first ? kj + j : ',' + kj + j
    first = false
  }
  return s + '}'
}

/**
 * Lines encoded as UTF-8 into large buffers: `add` appends one line (its JSON and a newline), `take` hands over
 * what is filled so far. A line longer than the buffer gets a buffer of its own.
 */
export class LineBuffer {
  private buf: Buffer
  private at = 0

  constructor(private readonly size = 1 << 20) {
    this.buf = Buffer.allocUnsafe(size)
  }

  get length(): number {
    return this.at
  }

  /** Appends `text` + '\n'; returns a full buffer to write first when `text` did not fit, else null. */
  add(text: string): Buffer | null {
    let full: Buffer | null = null
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const worst = text.length * 3 + 1
    if (this.size - this.at < worst) {
      full = this.take()
      if (worst > this.size) {
        const own = Buffer.from(text + '\n', 'utf8')
        return full ? Buffer.concat([full, own]) : own
      }
    }
    this.at += this.buf.write(text, this.at, 'utf8')
    this.buf[this.at++] = 0x0a
    return full
  }

  /** The bytes written so far (null when none); the next lines go to a fresh buffer. */
  take(): Buffer | null {
    if (this.at === 0) return null
    const out = this.buf.subarray(0, this.at)
    this.buf = Buffer.allocUnsafe(this.size)
    this.at = 0
    return out
  }
}
