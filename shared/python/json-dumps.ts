// Python's json.dumps(obj, ensure_ascii, indent, separators, sort_keys), byte for byte: the one implementation for
// every family that prints JSON as Python does — loaders that store json.dumps(...) strings in rows, and the Jinja
// `tojson` filter of chat templates. Each caller's value model (its float box, its mapping and key types, its error
// class) comes in through JsonValueModel, so the escaping, separators and layout live here once.
import { floatRepr, numberRepr } from './repr'
import { PyFloat, jsonRuntime } from './json'
import type { PyRuntime } from './values'

export class JsonDumpsError extends Error {}

/** How a caller's own values read as JSON; every hook is optional. */
export interface JsonValueModel {
  /** JSON text of a value only this model knows (e.g. its float box), or undefined for the generic rules. */
  scalar?(x: unknown): string | undefined
  /** A mapping key as Python's json turns it into a str (a float or bool key), or throws. */
  key?(k: unknown): string
  /** The runtime whose `<` orders keys for sort_keys (default: the JSON values' runtime). */
  runtime?: PyRuntime
  /** The type name in "Object of type X is not JSON serializable". */
  typeName?(x: unknown): string | undefined
  /** The error to raise (default JsonDumpsError). */
  error?(message: string): Error
}

export interface JsonDumpsOptions {
  ensureAscii?: boolean
  /** Python's indent: null (one line), a number of spaces, or the indent string. */
  indent?: number | string | null
  /** [item separator, key separator]; default (', ', ': '), or (',', ': ') with an indent, as Python. */
  separators?: readonly [string, string]
  sortKeys?: boolean
  model?: JsonValueModel
}

function jsonStr(s: string, ascii: boolean): string {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (ch === '"') out += '\\"'
    else if (ch === '\\') out += '\\\\'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\b') out += '\\b'
    else if (ch === '\f') out += '\\f'
    else if (c < 0x20 || (ascii && c > 0x7e)) {
      if (c > 0xffff) {
        const v = c - 0x10000
        out += `\\u${(0xd800 + (v >> 10)).toString(16).padStart(4, '0')}\\u${(0xdc00 + (v & 0x3ff)).toString(16).padStart(4, '0')}`
      } else out += `\\u${c.toString(16).padStart(4, '0')}`
    } else out += ch
  }
  return out + '"'
}

/** float.__repr__ with json's names for the non-finite values. */
export function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'Infinity'
  if (x === -Infinity) return '-Infinity'
  return floatRepr(x)
}

/** A bare JS number: an int when integral (as numberRepr), NaN/Infinity spelled as json does. */
export function jsonNumber(x: number): string {
  return Number.isFinite(x) ? numberRepr(x) : jsonFloat(x)
}

function defaultKey(k: unknown): string {
  if (typeof k === 'string') return k
  if (k === null) return 'null'
  if (typeof k === 'boolean') return k ? 'true' : 'false'
  if (typeof k === 'number') return jsonNumber(k)
  if (k instanceof PyFloat) return jsonFloat(k.value)
  return String(k)
}

/** `typeName` names a value no JSON type covers, for the TypeError (e.g. numpy's int64). */
export function pyJsonDumps(v: unknown, opts: JsonDumpsOptions & { typeName?: (x: object) => string | undefined } = {}): string {
  const ascii = opts.ensureAscii ?? true
  const m = opts.model ?? {}
  const ind = opts.indent === null || opts.indent === undefined ? null : typeof opts.indent === 'string' ? opts.indent : ' '.repeat(opts.indent)
  const [itemSep, keySep] = opts.separators ?? [ind === null ? ', ' : ',', ': ']
  const keyOf = m.key ?? defaultKey
  const fail = (x: unknown): never => {
    const name = m.typeName?.(x) ?? (typeof x === 'object' && x !== null ? opts.typeName?.(x) : undefined) ?? typeof x
    const msg = `Object of type ${name} is not JSON serializable`
    throw m.error ? m.error(msg) : new JsonDumpsError(msg)
  }
  const go = (x: unknown, depth: number): string => {
    const own = m.scalar?.(x)
    if (own !== undefined) return own
    if (x === null || x === undefined) return 'null'
    if (x === true) return 'true'
    if (x === false) return 'false'
    if (typeof x === 'string') return jsonStr(x, ascii)
    if (typeof x === 'bigint') return x.toString()
    if (typeof x === 'number') return Number.isInteger(x) && !Object.is(x, -0) ? String(x) : jsonFloat(x)
    if (x instanceof PyFloat) return jsonFloat(x.value)
    const nl = ind === null ? '' : '\n' + ind.repeat(depth + 1)
    const close = ind === null ? '' : '\n' + ind.repeat(depth)
    if (Array.isArray(x)) return x.length === 0 ? '[]' : '[' + nl + x.map((y) => go(y, depth + 1)).join(itemSep + nl) + close + ']'
    let entries: [unknown, unknown][] | null = null
    if (x instanceof Map) entries = [...x.entries()]
    else if (typeof x === 'object' && x.constructor === Object) entries = Object.entries(x as Record<string, unknown>)
    if (!entries) return fail(x)
    if (entries.length === 0) return '{}'
    // json.dumps sorts the (key, value) items; a dict's keys are never equal, so the keys alone decide.
    if (opts.sortKeys) entries = (m.runtime ?? jsonRuntime).sorted(entries, (e) => e[0])
    return '{' + nl + entries.map(([k, y]) => jsonStr(keyOf(k), ascii) + keySep + go(y, depth + 1)).join(itemSep + nl) + close + '}'
  }
  return go(v, 0)
}
