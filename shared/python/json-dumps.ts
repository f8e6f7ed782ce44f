// Python's json.dumps(obj, ensure_ascii=True|False) with the default separators (', ', ': '), for loaders that
// store json.dumps(...) strings in rows. A numpy int64 (NpInt) is refused with upstream's TypeError.
import { floatRepr } from './repr'
import { PyFloat } from './json'

export class JsonDumpsError extends Error {}

function str(s: string, ascii: boolean): string {
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

function num(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'Infinity'
  if (x === -Infinity) return '-Infinity'
  return floatRepr(x)
}

/** `typeName` names a value no JSON type covers, for the TypeError (e.g. numpy's int64). */
export function pyJsonDumps(
  v: unknown,
  opts: { ensureAscii?: boolean; typeName?: (x: object) => string | undefined } = {}
): string {
  const ascii = opts.ensureAscii ?? true
  const go = (x: unknown): string => {
    if (x === null || x === undefined) return 'null'
    if (x === true) return 'true'
    if (x === false) return 'false'
    if (typeof x === 'string') return str(x, ascii)
    if (typeof x === 'bigint') return x.toString()
    if (typeof x === 'number') return Number.isInteger(x) && !Object.is(x, -0) ? String(x) : num(x)
    if (x instanceof PyFloat) return num(x.value)
    if (Array.isArray(x)) return `[${x.map(go).join(', ')}]`
    if (x instanceof Map) return `{${[...x].map(([k, y]) => `${str(String(k), ascii)}: ${go(y)}`).join(', ')}}`
    if (typeof x === 'object' && x.constructor === Object) {
      return `{${Object.entries(x as Record<string, unknown>)
        .map(([k, y]) => `${str(k, ascii)}: ${go(y)}`)
        .join(', ')}}`
    }
    const name = (typeof x === 'object' ? opts.typeName?.(x as object) : undefined) ?? typeof x
    throw new JsonDumpsError(`Object of type ${name} is not JSON serializable`)
  }
  return go(v)
}
