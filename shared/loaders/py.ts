// Python values as AISBench's loaders see them, in the engine's JSON-like shape: str, int (number / bigint),
// float (PyFloat when integral or NaN), bool, None (null), list, dict (plain object, insertion order), bytes
// (Uint8Array). Two additions: NpInt, a numpy int64 cell of a typed pandas column (json.dumps refuses it, as
// upstream's does); errors are shared/python's PyError, whose class name a case's error matches.
import { PyFloat, jsonView } from '../python/json'
import { JsonDumpsError, pyJsonDumps } from '../python/json-dumps'
import { PyError } from '../python/errors'
import { strFormat } from '../python/format'
import { jsonRuntime } from '../python/json'
import { PyRuntime } from '../python/values'

export { PyError, PyFloat }

/** A numpy int64 from a pandas integer column: prints like an int, but json.dumps raises TypeError on it. */
export class NpInt {
  constructor(public readonly value: number) {}
  toJSON(): number {
    return this.value
  }
}

export const NaN_ = (): PyFloat => new PyFloat(Number.NaN)

/** pandas.isna for one cell. */
export function isNa(v: unknown): boolean {
  if (v === null || v === undefined) return true
  if (v instanceof PyFloat) return Number.isNaN(v.value)
  return typeof v === 'number' && Number.isNaN(v)
}

/** The loaders' values: JSON data, and NpInt as the int it holds. */
const runtime = new PyRuntime((v) => (v instanceof NpInt ? { t: 'int', v: v.value } : jsonView(v)))

/** str() of a cell (pandas values: NpInt, PyFloat, str, bool). */
export const cellStr = (v: unknown): string => runtime.str(v)

/** Python `str.isdigit()` for one character (ASCII and the other Unicode decimal digits). */
export function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && /^\p{Nd}$/u.test(ch)
}

/** KeyError's message: repr of the key. */
export function keyError(key: unknown): PyError {
  return new PyError('KeyError', runtime.repr(key))
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

/** str.format(**kw) as the loaders call it on the config's prompt templates. */
export function formatKw(template: string, kw: Record<string, string>): string {
  return strFormat(jsonRuntime.formatModel, template, [], new Map(Object.entries(kw)))
}
