// Python's string formatting, once for every family: format(value, spec) with the whole format-spec mini-language
// ([[fill]align][sign][z][#][0][width][grouping][.precision][type]) for str, int, bool and float, `str.format`
// (C's str.format, or string.Formatter as jinja2's sandbox runs it) and printf-style `str % args`, with
// CPython 3.11's results and error texts. A family passes its value model (FormatModel): how its values print,
// which of them are numbers, and how `{a[k]}` / `{a.b}` look into them. Floats are rounded from their exact binary
// value, half to even, as CPython's dtoa does (JS toFixed rounds ties away from zero and switches to exponent
// notation at 1e21).
import { PyError } from './errors'
import { floatRepr } from './repr'

/** A value as format() sees it: a str, an int (bool included: format(True, 'd') is '1'), a float, or other. */
export type Operand = { kind: 'str'; s: string } | { kind: 'int'; n: bigint } | { kind: 'float'; x: number } | { kind: 'other' }

export interface FormatModel {
  str(v: unknown): string
  repr(v: unknown): string
  /** type(v).__name__, for error messages. */
  typeName(v: unknown): string
  operand(v: unknown): Operand
  /** `v[key]` as a format field reads it (`{a[0]}` gives the int 0, `{a[x]}` the str 'x'); raises as Python. */
  getItem(v: unknown, key: string | number): unknown
  /** `v.name` as a format field reads it. */
  getAttr(v: unknown, name: string): unknown
  /** The items of a tuple (printf-style arguments), or undefined when `v` is not a tuple. */
  tupleItems(v: unknown): readonly unknown[] | undefined
  /** PyMapping_Check (dict, list, …) and not a tuple or str: `%` looks names up in it and does not count it. */
  isMapping(v: unknown): boolean
  /** Called with a length about to be built (a width, a padding), so a render budget can refuse it first. */
  checkLength?(n: number): void
}

const fail = (cls: string, msg: string): never => {
  throw new PyError(cls, msg)
}

/** Python's ascii(): repr() with every non-ASCII character escaped. */
export function asciiOf(repr: string): string {
  let out = ''
  for (const ch of repr) {
    const c = ch.codePointAt(0)!
    if (c < 0x80) out += ch
    else if (c < 0x100) out += `\\x${c.toString(16).padStart(2, '0')}`
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`
    else out += `\\U${c.toString(16).padStart(8, '0')}`
  }
  return out
}

const cpLen = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0xdc00 || c > 0xdfff || i === 0 || s.charCodeAt(i - 1) < 0xd800 || s.charCodeAt(i - 1) > 0xdbff) n++
  }
  return n
}

// ---- exact float digits --------------------------------------------------------------------------------------

/** |x| = D * 10**k exactly (x finite). */
function exactDecimal(x: number): { d: bigint; k: number } {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, Math.abs(x))
  const hi = view.getUint32(0)
  const lo = view.getUint32(4)
  const bexp = (hi >>> 20) & 0x7ff
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  let e: number
  if (bexp === 0) e = -1074
  else {
    m |= 1n << 52n
    e = bexp - 1075
  }
  if (m === 0n) return { d: 0n, k: 0 }
  if (e >= 0) return { d: m << BigInt(e), k: 0 }
  return { d: m * 5n ** BigInt(-e), k: e }
}

/** n / 10**s rounded half to even (s > 0). */
function roundDiv(n: bigint, s: number): bigint {
  const p = 10n ** BigInt(s)
  const q = n / p
  const r2 = (n % p) * 2n
  if (r2 > p || (r2 === p && q % 2n === 1n)) return q + 1n
  return q
}

/** |x| rounded to `prec` decimals: the digits with the point `prec` from the right. */
function fixedDigits(x: number, prec: number): string {
  const { d, k } = exactDecimal(x)
  const shift = k + prec
  const n = shift >= 0 ? d * 10n ** BigInt(shift) : roundDiv(d, -shift)
  const s = n.toString().padStart(prec + 1, '0')
  return prec === 0 ? s : `${s.slice(0, s.length - prec)}.${s.slice(s.length - prec)}`
}

/** |x| rounded to `sig` significant digits: the digit string and the decimal exponent of its first digit. */
function sciDigits(x: number, sig: number): { digits: string; exp: number } {
  const { d, k } = exactDecimal(x)
  if (d === 0n) return { digits: '0'.repeat(sig), exp: 0 }
  const len = d.toString().length
  let exp = len - 1 + k
  const s = len - sig
  let n = s > 0 ? roundDiv(d, s) : d * 10n ** BigInt(-s)
  let digits = n.toString()
  if (digits.length > sig) {
    n /= 10n
    digits = n.toString()
    exp++
  }
  return { digits, exp }
}

const expStr = (exp: number): string => `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`

/** The body of a finite float (no sign) in printf's e, f or g style, or repr ('r'). */
function floatBody(x: number, type: string, prec: number, alt: boolean, addDot0: boolean): string {
  const ax = Math.abs(x)
  if (type === 'f') {
    const s = fixedDigits(ax, prec)
    return alt && prec === 0 ? `${s}.` : s
  }
  if (type === 'e') {
    const { digits, exp } = sciDigits(ax, prec + 1)
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : alt ? `${digits}.` : digits
    return `${mant}e${expStr(exp)}`
  }
  if (type === 'r') {
    const r = floatRepr(ax)
    if (alt && !r.includes('.')) return r.includes('e') ? r.replace('e', '.e') : `${r}.`
    return r
  }
  // 'g'
  const p = prec === 0 ? 1 : prec
  const { digits, exp } = sciDigits(ax, p)
  let body: string
  // CPython's format_float_short: with add_dot_0 (no type, a precision) it goes to exponent one place earlier.
  if (exp >= -4 && exp < (addDot0 ? p - 1 : p)) {
    body = fixedDigits(ax, Math.max(0, p - 1 - exp))
    if (!alt && body.includes('.')) body = body.replace(/0+$/, '').replace(/\.$/, '')
    if (alt && !body.includes('.')) body += '.'
    if (addDot0 && !body.includes('.')) body += '.0'
  } else {
    let mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    if (!alt && mant.includes('.')) mant = mant.replace(/0+$/, '').replace(/\.$/, '')
    if (alt && !mant.includes('.')) mant += '.'
    body = `${mant}e${expStr(exp)}`
  }
  return body
}

// ---- the format-spec mini-language ---------------------------------------------------------------------------

interface Spec {
  fill: string
  align: string | undefined
  sign: string | undefined
  noNeg0: boolean
  alt: boolean
  width: number
  grouping: '' | ',' | '_'
  precision: number | undefined
  type: string
}

/** CPython reads widths, precisions and field numbers into a Py_ssize_t. */
function tooManyDigits(digits: string): void {
  if (digits.length > 18 && BigInt(digits) > 0x7fffffffffffffffn) fail('ValueError', 'Too many decimal digits in format string')
}

function getInteger(s: string, pos: number): { value: number; end: number } {
  let end = pos
  while (end < s.length && s[end] >= '0' && s[end] <= '9') end++
  if (end === pos) return { value: -1, end }
  const digits = s.slice(pos, end)
  tooManyDigits(digits)
  return { value: Number(digits), end }
}

function parseSpec(spec: string, defaultAlign: '<' | '>', defaultType: string, typeName: string): Spec {
  const cps = Array.from(spec)
  // Fill can be any character: work on code points for the first two, then on the (ASCII) rest.
  let fill = ' '
  let align: string | undefined
  let pos = 0
  let fillGiven = false
  let alignGiven = false
  const isAlign = (c: string | undefined): boolean => c === '<' || c === '>' || c === '=' || c === '^'
  if (cps.length >= 2 && isAlign(cps[1])) {
    fill = cps[0]
    align = cps[1]
    fillGiven = alignGiven = true
    pos = cps[0].length + 1
  } else if (cps.length >= 1 && isAlign(cps[0])) {
    align = cps[0]
    alignGiven = true
    pos = 1
  }
  const at = (): string | undefined => (pos < spec.length ? spec[pos] : undefined)
  let sign: string | undefined
  if (at() === '+' || at() === '-' || at() === ' ') sign = spec[pos++]
  let noNeg0 = false
  if (at() === 'z') {
    noNeg0 = true
    pos++
  }
  let alt = false
  if (at() === '#') {
    alt = true
    pos++
  }
  if (!fillGiven && at() === '0') {
    fill = '0'
    if (!alignGiven && defaultAlign === '>') align = '='
    pos++
  }
  const w = getInteger(spec, pos)
  pos = w.end
  let grouping: '' | ',' | '_' = ''
  if (at() === ',') {
    grouping = ','
    pos++
  }
  if (at() === '_') {
    if (grouping) fail('ValueError', "Cannot specify both ',' and '_'.")
    grouping = '_'
    pos++
  }
  if (at() === ',' && grouping === '_') fail('ValueError', "Cannot specify both ',' and '_'.")
  let precision: number | undefined
  if (at() === '.') {
    pos++
    const p = getInteger(spec, pos)
    if (p.value < 0) fail('ValueError', 'Format specifier missing precision')
    precision = p.value
    pos = p.end
  }
  const rest = spec.slice(pos)
  if (cpLen(rest) > 1) fail('ValueError', `Invalid format specifier '${spec}' for object of type '${typeName}'`)
  // An explicit NUL is C's "no type" only where the default is no type (float); elsewhere it is an unknown code.
  const type = rest === '' ? defaultType : rest === '\0' && defaultType === '' ? '' : rest
  if (grouping) {
    const ok = ['d', 'e', 'f', 'g', 'E', 'G', '%', 'F', ''].includes(type) || (grouping === '_' && ['b', 'o', 'x', 'X'].includes(type))
    if (!ok) fail('ValueError', `Cannot specify '${grouping}' with '${shownCode(type)}'.`)
  }
  return { fill, align, sign, noNeg0, alt, width: w.value, grouping, precision, type }
}

/** A presentation type as CPython's messages show it: the character when printable ASCII, else \\x and its code. */
function shownCode(type: string): string {
  const c = type.codePointAt(0)!
  return c > 32 && c < 128 ? type : `\\x${c.toString(16)}`
}

const unknownCode = (type: string, typeName: string): never => fail('ValueError', `Unknown format code '${shownCode(type)}' for object of type '${typeName}'`)

function pad(body: string, spec: Spec, defaultAlign: string, model: FormatModel): string {
  const n = cpLen(body)
  if (spec.width <= n) return body
  model.checkLength?.(spec.width)
  const total = spec.width - n
  const align = spec.align ?? defaultAlign
  if (align === '<') return body + spec.fill.repeat(total)
  if (align === '^') {
    const left = Math.floor(total / 2)
    return spec.fill.repeat(left) + body + spec.fill.repeat(total - left)
  }
  return spec.fill.repeat(total) + body
}

function group(digits: string, sep: string, every: number): string {
  let out = ''
  for (let i = digits.length; i > 0; i -= every) out = digits.slice(Math.max(0, i - every), i) + (out ? sep + out : '')
  return out
}

/**
 * Lays a number out: sign, prefix (0x…), integer digits (grouped; with '0' fill and '=' alignment the zeros of the
 * padding are grouped too, as CPython does), then the rest (fraction, exponent, '%').
 */
function layoutNumber(sign: string, prefix: string, intDigits: string, rest: string, spec: Spec, model: FormatModel): string {
  const sep = spec.grouping
  const every = sep === '_' && /[boxX]/.test(spec.type) ? 4 : 3
  const lead = sign + prefix
  let digits = sep ? group(intDigits, sep, every) : intDigits
  const align = spec.align ?? '>'
  if (spec.fill === '0' && align === '=' && intDigits !== '') {
    const min = spec.width - lead.length - rest.length
    if (min > digits.length) model.checkLength?.(spec.width)
    let raw = intDigits
    while (digits.length < min) {
      raw = '0' + raw
      digits = sep ? group(raw, sep, every) : raw
    }
  }
  const body = lead + digits + rest
  if (align === '=') {
    const n = cpLen(body)
    if (spec.width <= n) return body
    model.checkLength?.(spec.width)
    return lead + spec.fill.repeat(spec.width - n) + digits + rest
  }
  return pad(body, spec, '>', model)
}

function signOf(neg: boolean, sign: string | undefined): string {
  if (neg) return '-'
  return sign === '+' ? '+' : sign === ' ' ? ' ' : ''
}

function formatStr(s: string, spec: Spec, typeName: string, model: FormatModel): string {
  if (spec.type !== 's') unknownCode(spec.type, typeName)
  if (spec.sign) fail('ValueError', spec.sign === ' ' ? 'Space not allowed in string format specifier' : 'Sign not allowed in string format specifier')
  if (spec.noNeg0) fail('ValueError', 'Negative zero coercion (z) not allowed in string format specifier')
  if (spec.alt) fail('ValueError', 'Alternate form (#) not allowed in string format specifier')
  if (spec.align === '=') fail('ValueError', "'=' alignment not allowed in string format specifier")
  if (spec.grouping) fail('ValueError', `Cannot specify '${spec.grouping}' with 's'.`)
  let body = s
  if (spec.precision !== undefined && cpLen(s) > spec.precision) body = Array.from(s).slice(0, spec.precision).join('')
  return pad(body, spec, '<', model)
}

function formatFloat(x: number, spec: Spec, typeName: string, model: FormatModel): string {
  let type = spec.type
  let prec = spec.precision
  let addDot0 = false
  let pct = ''
  if (type === '') {
    if (prec === undefined) type = 'r'
    else {
      type = 'g'
      addDot0 = true
    }
  } else if (type === 'n') type = 'g'
  else if (type === '%') {
    type = 'f'
    x *= 100
    pct = '%'
  }
  const upper = type === 'E' || type === 'F' || type === 'G'
  type = type.toLowerCase()
  if (!['e', 'f', 'g', 'r'].includes(type)) unknownCode(spec.type, typeName)
  if (prec === undefined) prec = 6
  model.checkLength?.(prec)
  let neg = x < 0 || Object.is(x, -0)
  let body: string
  if (Number.isNaN(x)) {
    body = 'nan'
    neg = false
  } else if (!Number.isFinite(x)) body = 'inf'
  else body = floatBody(x, type, prec, spec.alt, addDot0)
  if (upper) body = body.toUpperCase()
  if (neg && spec.noNeg0 && Number.isFinite(x) && !/[1-9]/.test(body.replace(/e.*$/i, ''))) neg = false
  const m = /^(\d*)(.*)$/s.exec(body)!
  return layoutNumber(signOf(neg, spec.sign), '', m[1], m[2] + pct, spec, model)
}

function formatInt(n: bigint, spec: Spec, typeName: string, model: FormatModel): string {
  const type = spec.type
  if ('eEfFgG%'.includes(type) && type !== '') return formatFloat(Number(n), spec, typeName, model)
  if (!['b', 'c', 'd', 'o', 'x', 'X', 'n'].includes(type)) unknownCode(type, typeName)
  if (spec.precision !== undefined) fail('ValueError', 'Precision not allowed in integer format specifier')
  if (spec.noNeg0) fail('ValueError', 'Negative zero coercion (z) not allowed in integer format specifier')
  if (type === 'c') {
    if (spec.sign) fail('ValueError', "Sign not allowed with integer format specifier 'c'")
    if (spec.alt) fail('ValueError', "Alternate form (#) not allowed with integer format specifier 'c'")
    if (n < -(2n ** 63n) || n >= 2n ** 63n) fail('OverflowError', 'Python int too large to convert to C long')
    if (n < 0n || n > 0x10ffffn) fail('OverflowError', '%c arg not in range(0x110000)')
    return pad(String.fromCodePoint(Number(n)), spec, '>', model)
  }
  const neg = n < 0n
  const a = neg ? -n : n
  const radix = type === 'b' ? 2 : type === 'o' ? 8 : type === 'x' || type === 'X' ? 16 : 10
  let digits = a.toString(radix)
  if (type === 'X') digits = digits.toUpperCase()
  const prefix = spec.alt && radix !== 10 ? `0${type === 'X' ? 'X' : type}` : ''
  return layoutNumber(signOf(neg, spec.sign), prefix, digits, '', spec, model)
}

/** Python `format(v, spec)`. */
export function formatValue(model: FormatModel, v: unknown, spec: string): string {
  if (spec === '') return model.str(v)
  const op = model.operand(v)
  const typeName = model.typeName(v)
  switch (op.kind) {
    case 'str':
      return formatStr(op.s, parseSpec(spec, '<', 's', typeName), typeName, model)
    case 'int':
      return formatInt(op.n, parseSpec(spec, '>', 'd', typeName), typeName, model)
    case 'float':
      return formatFloat(op.x, parseSpec(spec, '>', '', typeName), typeName, model)
    default:
      return fail('TypeError', `unsupported format string passed to ${typeName}.__format__`)
  }
}

// ---- str.format ----------------------------------------------------------------------------------------------

export interface StrFormatOptions {
  /**
   * string.Formatter's rules instead of C str.format's (jinja2's sandbox formats through a Formatter subclass):
   * a missing positional is `IndexError: tuple index out of range`, and its auto-numbering check differs.
   */
  formatter?: boolean
}

interface Field {
  name: string
  conversion: string | undefined
  spec: string
  expand: boolean
}

/** One step of CPython's MarkupIterator: literal text, then a field when one follows. */
function* markup(t: string): Generator<{ literal: string; field?: Field }> {
  let i = 0
  const n = t.length
  while (i < n) {
    let lit = ''
    let c = ''
    let start = i
    for (; i < n; i++) {
      c = t[i]
      if (c === '{' || c === '}') break
    }
    lit = t.slice(start, i)
    if (i >= n) {
      yield { literal: lit }
      return
    }
    i++
    const atEnd = i >= n
    if (c === '}' && (atEnd || t[i] !== '}')) fail('ValueError', "Single '}' encountered in format string")
    if (atEnd && c === '{') fail('ValueError', "Single '{' encountered in format string")
    if (t[i] === c) {
      i++
      yield { literal: lit + c }
      continue
    }
    // parse_field: the field name ends at '}', ':' or '!' (a '[' skips to its ']').
    start = i
    let ch = ''
    for (; i < n; ) {
      ch = t[i++]
      if (ch === '{') fail('ValueError', "unexpected '{' in field name")
      if (ch === '[') {
        while (i < n && t[i] !== ']') i++
        continue
      }
      if (ch === '}' || ch === ':' || ch === '!') break
    }
    const nameEnd = i - 1
    let conversion: string | undefined
    let spec = ''
    let expand = false
    if (ch === '!' || ch === ':') {
      const name = t.slice(start, nameEnd)
      let done = false
      if (ch === '!') {
        if (i >= n) fail('ValueError', 'end of string while looking for conversion specifier')
        conversion = String.fromCodePoint(t.codePointAt(i)!)
        i += conversion.length
        if (i < n) {
          const c2 = t[i++]
          if (c2 === '}') done = true
          else if (c2 !== ':') fail('ValueError', "expected ':' after conversion specifier")
        }
      }
      if (!done) {
        const specStart = i
        let count = 1
        for (; i < n; ) {
          const c3 = t[i++]
          if (c3 === '{') {
            expand = true
            count++
          } else if (c3 === '}' && --count === 0) break
        }
        if (count !== 0) fail('ValueError', "unmatched '{' in format spec")
        spec = t.slice(specStart, i - 1)
      }
      yield { literal: lit, field: { name, conversion, spec, expand } }
    } else if (ch !== '}') fail('ValueError', "expected '}' before end of string")
    else yield { literal: lit, field: { name: t.slice(start, nameEnd), conversion, spec, expand } }
  }
}

/** C's get_integer on a field name part: its value when all ASCII digits, else -1. */
function fieldInteger(s: string): number {
  if (s === '' || !/^[0-9]+$/.test(s)) return -1
  tooManyDigits(s)
  return Number(s)
}

type AutoState = { state: 'init' | 'auto' | 'manual'; next: number }

function getField(model: FormatModel, name: string, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>, auto: AutoState, opts: StrFormatOptions): unknown {
  let i = 0
  while (i < name.length && name[i] !== '.' && name[i] !== '[') i++
  const first = name.slice(0, i)
  let index: number
  if (opts.formatter) {
    // string.Formatter: '' takes the next auto number, an all-digits name (the whole field) turns auto off.
    // string.Formatter: only a whole empty field takes the next number; an all-digits field turns numbering off.
    if (name === '') {
      if (auto.state === 'manual') fail('ValueError', 'cannot switch from manual field specification to automatic field numbering')
      auto.state = 'auto'
      index = auto.next++
    } else {
      if (/^[0-9]+$/.test(name)) {
        if (auto.state === 'auto') fail('ValueError', 'cannot switch from manual field specification to automatic field numbering')
        auto.state = 'manual'
      }
      index = fieldInteger(first)
    }
  } else {
    index = fieldInteger(first)
    const empty = first === ''
    if (empty || index !== -1) {
      if (auto.state === 'init') auto.state = empty ? 'auto' : 'manual'
      if (auto.state === 'manual' && empty) fail('ValueError', 'cannot switch from manual field specification to automatic field numbering')
      if (auto.state === 'auto' && !empty) fail('ValueError', 'cannot switch from automatic field numbering to manual field specification')
      if (empty) index = auto.next++
    }
  }
  let obj: unknown
  if (index === -1) {
    if (!kwargs.has(first)) fail('KeyError', model.repr(first))
    obj = kwargs.get(first)
  } else {
    if (index >= args.length) fail('IndexError', opts.formatter ? 'tuple index out of range' : `Replacement index ${index} out of range for positional args tuple`)
    obj = args[index]
  }
  while (i < name.length) {
    const c = name[i++]
    let part: string
    if (c === '.') {
      const s = i
      while (i < name.length && name[i] !== '.' && name[i] !== '[') i++
      part = name.slice(s, i)
      if (part === '') fail('ValueError', 'Empty attribute in format string')
      obj = model.getAttr(obj, part)
    } else if (c === '[') {
      const s = i
      while (i < name.length && name[i] !== ']') i++
      if (i >= name.length) fail('ValueError', "Missing ']' in format string")
      part = name.slice(s, i++)
      if (part === '') fail('ValueError', 'Empty attribute in format string')
      const k = fieldInteger(part)
      obj = model.getItem(obj, k === -1 ? part : k)
    } else fail('ValueError', "Only '.' or '[' may follow ']' in format field specifier")
  }
  return obj
}

function convert(model: FormatModel, v: unknown, conversion: string | undefined, opts: StrFormatOptions): unknown {
  if (conversion === undefined) return v
  if (conversion === 'r') return model.repr(v)
  if (conversion === 's') return model.str(v)
  if (conversion === 'a') return asciiOf(model.repr(v))
  if (opts.formatter) return fail('ValueError', `Unknown conversion specifier ${conversion}`)
  const c = conversion.codePointAt(0)!
  return fail('ValueError', c > 32 && c < 127 ? `Unknown conversion specifier ${conversion}` : `Unknown conversion specifier \\x${c.toString(16)}`)
}

function buildString(model: FormatModel, t: string, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>, depth: number, auto: AutoState, opts: StrFormatOptions): string {
  if (depth <= 0) fail('ValueError', 'Max string recursion exceeded')
  let out = ''
  for (const { literal, field } of markup(t)) {
    out += literal
    if (!field) continue
    const obj = convert(model, getField(model, field.name, args, kwargs, auto, opts), field.conversion, opts)
    const spec = field.expand ? buildString(model, field.spec, args, kwargs, depth - 1, auto, opts) : field.spec
    out += formatValue(model, obj, spec)
  }
  return out
}

/** `template.format(*args, **kwargs)`. */
export function strFormat(model: FormatModel, template: string, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown> = new Map(), opts: StrFormatOptions = {}): string {
  return buildString(model, template, args, kwargs, 2, { state: 'init', next: 0 }, opts)
}

// ---- printf-style % ------------------------------------------------------------------------------------------

function intOperand(model: FormatModel, v: unknown, conv: string): bigint {
  const op = model.operand(v)
  if (op.kind === 'int') return op.n
  if (op.kind === 'float' && 'diu'.includes(conv)) {
    if (Number.isNaN(op.x)) fail('ValueError', 'cannot convert float NaN to integer')
    if (!Number.isFinite(op.x)) fail('OverflowError', 'cannot convert float infinity to integer')
    return BigInt(Math.trunc(op.x))
  }
  if ('diu'.includes(conv)) return fail('TypeError', `%${conv} format: a real number is required, not ${model.typeName(v)}`)
  return fail('TypeError', `%${conv} format: an integer is required, not ${model.typeName(v)}`)
}

/** printf-style `template % values`. */
export function percentFormat(model: FormatModel, template: string, values: unknown): string {
  // CPython's bookkeeping: a tuple's items one by one; any other value is the one argument (argidx -2 → -1), and
  // after a %(key) look-up the looked-up value becomes that one argument.
  const tuple = model.tupleItems(values)
  const mapping = tuple === undefined && model.isMapping(values) ? values : undefined
  let single: unknown = values
  let argLen = tuple ? tuple.length : -1
  let argIndex = tuple ? 0 : -2
  const nextArg = (): unknown => {
    if (argIndex >= argLen) fail('TypeError', 'not enough arguments for format string')
    const k = argIndex++
    return argLen < 0 ? single : tuple![k]
  }
  let out = ''
  let i = 0
  const n = template.length
  while (i < n) {
    const pct = template.indexOf('%', i)
    if (pct < 0) {
      out += template.slice(i)
      break
    }
    out += template.slice(i, pct)
    i = pct + 1
    if (i >= n) fail('ValueError', 'incomplete format')
    if (template[i] === '%') {
      out += '%'
      i++
      continue
    }
    if (template[i] === '(') {
      if (mapping === undefined) fail('TypeError', 'format requires a mapping')
      let depth = 1
      const ks = ++i
      while (i < n && depth > 0) {
        if (template[i] === '(') depth++
        else if (template[i] === ')') depth--
        i++
      }
      if (depth > 0) fail('ValueError', 'incomplete format key')
      single = model.getItem(mapping, template.slice(ks, i - 1))
      argLen = -1
      argIndex = -2
    }
    let flags = ''
    while (i < n && '-+ #0'.includes(template[i])) flags += template[i++]
    let width = -1
    if (template[i] === '*') {
      i++
      const w = model.operand(nextArg())
      if (w.kind !== 'int') fail('TypeError', '* wants int')
      width = Number((w as { n: bigint }).n)
      if (width < 0) {
        flags += '-'
        width = -width
      }
    } else {
      const s = i
      while (i < n && template[i] >= '0' && template[i] <= '9') i++
      if (i > s) width = Number(template.slice(s, i))
    }
    let prec = -1
    if (template[i] === '.') {
      i++
      if (template[i] === '*') {
        i++
        const p = model.operand(nextArg())
        if (p.kind !== 'int') fail('TypeError', '* wants int')
        prec = Math.max(0, Number((p as { n: bigint }).n))
      } else {
        const s = i
        while (i < n && template[i] >= '0' && template[i] <= '9') i++
        prec = i > s ? Number(template.slice(s, i)) : 0
      }
    }
    while (i < n && 'hlL'.includes(template[i])) i++
    if (i >= n) fail('ValueError', 'incomplete format')
    const conv = String.fromCodePoint(template.codePointAt(i)!)
    const convAt = i
    i += conv.length
    const arg = nextArg()
    if (width > 0) model.checkLength?.(width)
    const left = flags.includes('-')
    const padTo = (body: string, zeroOk: boolean, signLen: number): string => {
      const len = cpLen(body)
      if (width <= len) return body
      if (left) return body + ' '.repeat(width - len)
      if (zeroOk && flags.includes('0')) return body.slice(0, signLen) + '0'.repeat(width - len) + body.slice(signLen)
      return ' '.repeat(width - len) + body
    }
    const signStr = (neg: boolean): string => (neg ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '')
    switch (conv) {
      case 's':
      case 'r':
      case 'a': {
        let s = conv === 's' ? model.str(arg) : conv === 'r' ? model.repr(arg) : asciiOf(model.repr(arg))
        if (prec >= 0 && cpLen(s) > prec) s = Array.from(s).slice(0, prec).join('')
        out += padTo(s, false, 0)
        break
      }
      case 'd':
      case 'i':
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        const v = intOperand(model, arg, conv)
        const neg = v < 0n
        let digits = (neg ? -v : v).toString(conv === 'o' ? 8 : conv === 'x' || conv === 'X' ? 16 : 10)
        if (conv === 'X') digits = digits.toUpperCase()
        if (prec > digits.length) digits = digits.padStart(prec, '0')
        const prefix = flags.includes('#') && 'oxX'.includes(conv) ? `0${conv}` : ''
        const sign = signStr(neg)
        out += padTo(sign + prefix + digits, true, sign.length + prefix.length)
        break
      }
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': {
        const op = model.operand(arg)
        if (op.kind !== 'int' && op.kind !== 'float') fail('TypeError', `must be real number, not ${model.typeName(arg)}`)
        const x = op.kind === 'int' ? Number(op.n) : (op as { x: number }).x
        const p = prec < 0 ? 6 : prec
        model.checkLength?.(p)
        let body = Number.isNaN(x) ? 'nan' : !Number.isFinite(x) ? 'inf' : floatBody(x, conv.toLowerCase(), p, flags.includes('#'), false)
        if (conv === 'E' || conv === 'F' || conv === 'G') body = body.toUpperCase()
        const sign = signStr(!Number.isNaN(x) && (x < 0 || Object.is(x, -0)))
        out += padTo(sign + body, true, sign.length)
        break
      }
      case 'c': {
        const op = model.operand(arg)
        let ch: string
        if (op.kind === 'int') {
          if (op.n < 0n || op.n > 0x10ffffn) fail('OverflowError', '%c arg not in range(0x110000)')
          ch = String.fromCodePoint(Number(op.n))
        } else if (op.kind === 'str' && cpLen(op.s) === 1) ch = op.s
        else ch = fail('TypeError', '%c requires int or char')
        out += padTo(ch, false, 0)
        break
      }
      default: {
        const c = conv.codePointAt(0)!
        const shown = c >= 31 && c <= 126 ? conv : '?'
        fail('ValueError', `unsupported format character '${shown}' (0x${c.toString(16)}) at index ${cpLen(template.slice(0, convAt))}`)
      }
    }
  }
  if (argIndex < argLen && mapping === undefined) fail('TypeError', 'not all arguments converted during string formatting')
  return out
}
