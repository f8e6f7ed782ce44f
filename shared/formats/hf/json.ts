// transformers' `tojson` filter: Python's json.dumps(x, ensure_ascii=False, indent, separators, sort_keys), with no
// HTML escaping — shared/python's json.dumps over the Jinja runtime's values (its float box, Undefined, its errors).
import { jsonFloat, jsonNumber, pyJsonDumps } from '../../python/json-dumps'
import { checkString } from './budget'
import { PyError, PyFloat, PyMarkup, Undef, isTuple, runtime, str, tuple, typeName } from './values'

const model = {
  scalar: (x: unknown) => (typeof x === 'number' ? jsonNumber(x) : undefined),
  key(k: unknown): string {
    if (typeof k === 'string') return k
    if (k === null) return 'null'
    if (typeof k === 'boolean') return k ? 'true' : 'false'
    if (typeof k === 'number') return jsonNumber(k)
    if (k instanceof PyFloat) return jsonFloat(k.value)
    throw new PyError('TypeError', `keys must be str, int, float, bool or None, not ${typeName(k)}`)
  },
  runtime,
  typeName: (x: unknown) => (x instanceof Undef ? 'Undefined' : typeName(x)),
  error: (message: string) => new PyError('TypeError', message)
}

export function toJson(value: unknown, indent: unknown, separators: unknown, sortKeys: boolean, ensureAscii: boolean): string {
  if (typeof indent === 'number') checkString(indent)
  const seps = Array.isArray(separators) && separators.length === 2 ? ([str(separators[0]), str(separators[1])] as const) : undefined
  const ind = indent === null || indent === undefined ? null : typeof indent === 'string' ? indent : Number(indent)
  return pyJsonDumps(withoutMarkup(value), { ensureAscii, indent: ind, separators: seps, sortKeys, model })
}

/** json.dumps sees Markup as the str it subclasses: a copy with Markup as plain strings (the value itself when none). */
function withoutMarkup(v: unknown): unknown {
  if (v instanceof PyMarkup) return v.s
  if (Array.isArray(v)) {
    const out = v.map(withoutMarkup)
    if (!out.some((x, i) => x !== v[i])) return v
    return isTuple(v) ? tuple(out) : out
  }
  if (v instanceof Map) {
    let changed = false
    const out = new Map<unknown, unknown>()
    for (const [k, x] of v) {
      const kk = withoutMarkup(k)
      const xx = withoutMarkup(x)
      changed ||= kk !== k || xx !== x
      out.set(kk, xx)
    }
    return changed ? out : v
  }
  return v
}
