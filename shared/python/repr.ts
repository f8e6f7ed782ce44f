// CPython's str()/repr() building blocks, the one place PromptLoom writes Python values as text: float repr
// (shortest round-trip, exponent outside 1e-4 <= |x| < 1e16), int digits, str repr (quote choice, escapes,
// str.isprintable), None/True/False and the bracket rules of list, tuple, set and dict. Every family (engine,
// retrievers, configs, FastChat, LazyLLM, Jinja) builds its own value model's repr out of these.
// Expected outputs in test/unit/python/ were generated with CPython 3.11.

export const NONE_REPR = 'None'

export function boolRepr(b: boolean): string {
  return b ? 'True' : 'False'
}

/** CPython `repr(float)`: shortest round-trip digits; `1e-05`, `1e+16`, `inf`, `nan`, `-0.0`. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan'
  if (x === Infinity) return 'inf'
  if (x === -Infinity) return '-inf'
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  // toExponential() with no argument gives the shortest round-trip digits, the same digits Python's repr uses;
  // only the layout differs (Python goes scientific below 1e-4 and from 1e16, with at least two exponent digits).
  const [mant, expPart] = x.toExponential().split('e')
  const exp = Number(expPart)
  const neg = mant.startsWith('-')
  const digits = mant.replace('-', '').replace('.', '')
  let body: string
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    body = `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  } else if (exp < 0) {
    body = `0.${'0'.repeat(-exp - 1)}${digits}`
  } else if (digits.length <= exp + 1) {
    body = `${digits}${'0'.repeat(exp + 1 - digits.length)}.0`
  } else {
    body = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
  }
  return neg ? `-${body}` : body
}

/** CPython `repr(int)` of an integral number or bigint: every digit exactly (2**60 is not 1152921504606847000). */
export function intRepr(x: number | bigint): string {
  // BigInt() is exact for any integral double and writes -0 as "0", as Python's int(-0.0) does.
  return typeof x === 'bigint' ? x.toString() : BigInt(x).toString()
}

/**
 * repr() of a JS number that carries no float marker: integral values are Python ints, the rest floats. This is
 * the rule for value models where an integral float is boxed (PyFloat) and a bare integral number is an int.
 */
export function numberRepr(x: number): string {
  return Number.isInteger(x) ? intRepr(x) : floatRepr(x)
}

// str.isprintable() is false for general categories Cc, Cf, Cs, Co, Cn (\p{C}) and Zs, Zl, Zp (\p{Z}), except
// the ASCII space. JS uses its own (newer) Unicode tables, so code points assigned after Python's Unicode
// version count as printable here while Python still escapes them.
const NOT_PRINTABLE = /[\p{C}\p{Z}]/u

/** Python `ch.isprintable()` for one code point (a one- or two-unit JS string). */
export function isPrintable(ch: string): boolean {
  return ch === ' ' || !NOT_PRINTABLE.test(ch)
}

function hexEscape(cp: number): string {
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`
  return `\\U${cp.toString(16).padStart(8, '0')}`
}

/** CPython `repr(str)`: single quotes unless the text has a ' and no ", then \\ \n \r \t and \x/\u/\U escapes. */
export function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'"
  let out = quote
  // for…of walks code points, so an astral character is one unit and a lone surrogate stays alone (→ \udxxx).
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (!isPrintable(ch)) out += hexEscape(ch.codePointAt(0) as number)
    else out += ch
  }
  return out + quote
}

/** CPython `repr(bytes)`: b'…' with the str quote rule, \\t \\n \\r, and \\x escapes outside printable ASCII. */
export function bytesRepr(b: Uint8Array): string {
  let hasSingle = false
  let hasDouble = false
  for (const c of b) {
    if (c === 0x27) hasSingle = true
    else if (c === 0x22) hasDouble = true
  }
  const quote = hasSingle && !hasDouble ? '"' : "'"
  let out = `b${quote}`
  for (const c of b) {
    const ch = String.fromCharCode(c)
    if (ch === quote || ch === '\\') out += `\\${ch}`
    else if (c === 0x09) out += '\\t'
    else if (c === 0x0a) out += '\\n'
    else if (c === 0x0d) out += '\\r'
    else if (c < 0x20 || c >= 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`
    else out += ch
  }
  return out + quote
}

/** `[a, b]` from the items' reprs. */
export function listRepr(items: readonly string[]): string {
  return `[${items.join(', ')}]`
}

/** `(a, b)`, `(a,)` for one item, `()` for none. */
export function tupleRepr(items: readonly string[]): string {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`
}

/** `{a, b}`, and `set()` when empty (`{}` is a dict). */
export function setRepr(items: readonly string[]): string {
  return items.length === 0 ? 'set()' : `{${items.join(', ')}}`
}

/** `{k: v, …}` from the keys' and values' reprs, in insertion order. */
export function dictRepr(entries: Iterable<readonly [string, string]>): string {
  const parts: string[] = []
  for (const [k, v] of entries) parts.push(`${k}: ${v}`)
  return `{${parts.join(', ')}}`
}
