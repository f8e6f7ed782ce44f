// Python values as AISBench's loaders see them, in the engine's JSON-like shape: str, int (number / bigint),
// float (PyFloat when integral or NaN), bool, None (null), list, dict (plain object, insertion order), bytes
// (Uint8Array). Two additions: NpInt, a numpy int64 cell of a typed pandas column (json.dumps refuses it, as
// upstream's does), and PyError, an exception carrying its Python class name so a case's error matches.
import { PyFloat } from '../python/json'
import { floatRepr } from '../python/repr'
import { JsonDumpsError, pyJsonDumps } from '../python/json-dumps'
import { strFormat } from '../config/python-format'

export { PyFloat }

/** A numpy int64 from a pandas integer column: prints like an int, but json.dumps raises TypeError on it. */
export class NpInt {
  constructor(public readonly value: number) {}
  toJSON(): number {
    return this.value
  }
}

/** A Python exception: `type` is the class name (`KeyError`, `ArrowInvalid`, …), message as str(e) gives it. */
export class PyError extends Error {
  constructor(
    public readonly type: string,
    message: string,
    /** AISBench error code (UTILS-CFG-008) where upstream raises an AISBenchConfigError. */
    public readonly code?: string
  ) {
    super(message)
    this.name = type
  }
}

export const NaN_ = (): PyFloat => new PyFloat(Number.NaN)

/** pandas.isna for one cell. */
export function isNa(v: unknown): boolean {
  if (v === null || v === undefined) return true
  if (v instanceof PyFloat) return Number.isNaN(v.value)
  return typeof v === 'number' && Number.isNaN(v)
}

/** str() of a cell (pandas values: NpInt, PyFloat, str, bool). */
export function cellStr(v: unknown): string {
  if (typeof v === 'string') return v
  if (v instanceof NpInt) return String(v.value)
  if (v instanceof PyFloat) return floatRepr(v.value)
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : floatRepr(v)
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (v === null || v === undefined) return 'None'
  return String(v)
}

/** Python `str.isdigit()` for one character (ASCII and the other Unicode decimal digits). */
export function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && /^\p{Nd}$/u.test(ch)
}

/** KeyError's message: repr of the key. */
export function keyError(key: unknown): PyError {
  const r = typeof key === 'string' ? `'${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : cellStr(key)
  return new PyError('KeyError', r)
}

/** json.dumps as the loaders call it; numpy int64 cells raise upstream's TypeError. */
export function jsonDumps(v: unknown, ensureAscii = true): string {
  try {
    return pyJsonDumps(v, { ensureAscii, typeName: (x) => (x instanceof NpInt ? 'int64' : undefined) })
  } catch (e) {
    if (e instanceof JsonDumpsError) throw new PyError('TypeError', e.message)
    throw e
  }
}

/** str.format(**kw) as the loaders call it on the config's prompt templates; a missing name is a KeyError. */
export function formatKw(template: string, kw: Record<string, string>): string {
  try {
    return strFormat(template, [], new Map(Object.entries(kw)))
  } catch (e) {
    throw new PyError('KeyError', e instanceof Error ? e.message : String(e))
  }
}
