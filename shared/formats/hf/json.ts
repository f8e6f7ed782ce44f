// transformers' `tojson` filter: Python's json.dumps(x, ensure_ascii=False, indent, separators, sort_keys),
// with no HTML escaping. Output must match Python byte for byte (separators, float repr, escapes).
import { checkString } from './budget'
import { JinjaError, PyFloat, Undef, cmp, floatRepr, numStr, str, typeName } from './values'

function jsonString(s: string, ensureAscii: boolean): string {
  let out = '"'
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]
    const c = s.charCodeAt(i)
    if (ch === '"') out += '\\"'
    else if (ch === '\\') out += '\\\\'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\b') out += '\\b'
    else if (ch === '\f') out += '\\f'
    else if (c < 0x20 || (ensureAscii && c > 0x7e)) out += '\\u' + c.toString(16).padStart(4, '0')
    else out += ch
  }
  return out + '"'
}

function jsonNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  if (n === Infinity) return 'Infinity'
  if (n === -Infinity) return '-Infinity'
  return numStr(n)
}

function keyString(k: unknown): string {
  if (typeof k === 'string') return k
  if (k === null) return 'null'
  if (typeof k === 'boolean') return k ? 'true' : 'false'
  if (typeof k === 'number') return jsonNumber(k)
  if (k instanceof PyFloat) return floatRepr(k.v)
  throw new JinjaError('TypeError', `keys must be str, int, float, bool or None, not ${typeName(k)}`)
}

export function toJson(value: unknown, indent: unknown, separators: unknown, sortKeys: boolean, ensureAscii: boolean): string {
  if (typeof indent === 'number') checkString(indent)
  const ind = indent === null || indent === undefined ? null : typeof indent === 'string' ? indent : ' '.repeat(Number(indent))
  let itemSep = ind === null ? ', ' : ','
  let keySep = ': '
  if (Array.isArray(separators) && separators.length === 2) {
    itemSep = str(separators[0])
    keySep = str(separators[1])
  }
  const enc = (v: unknown, depth: number): string => {
    if (v === null) return 'null'
    if (v === true) return 'true'
    if (v === false) return 'false'
    if (typeof v === 'string') return jsonString(v, ensureAscii)
    if (typeof v === 'number') return jsonNumber(v)
    if (v instanceof PyFloat) return floatRepr(v.v)
    const nl = ind === null ? '' : '\n' + ind.repeat(depth + 1)
    const close = ind === null ? '' : '\n' + ind.repeat(depth)
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]'
      return '[' + nl + v.map((x) => enc(x, depth + 1)).join(itemSep + nl) + close + ']'
    }
    if (v instanceof Map) {
      if (v.size === 0) return '{}'
      let entries = [...v.entries()]
      if (sortKeys) entries = entries.slice().sort((a, b) => cmp(a[0], b[0]))
      return '{' + nl + entries.map(([k, x]) => jsonString(keyString(k), ensureAscii) + keySep + enc(x, depth + 1)).join(itemSep + nl) + close + '}'
    }
    const tn = v instanceof Undef ? 'Undefined' : typeName(v)
    throw new JinjaError('TypeError', `Object of type ${tn} is not JSON serializable`)
  }
  return enc(value, 0)
}
