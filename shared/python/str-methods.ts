// Python's str methods, once for every family (the config evaluator, the Jinja runtime, FastChat, LazyLLM), on JS
// strings: results are strings, numbers, booleans and plain arrays that each family wraps in its own list or tuple.
// Where JS look-alikes differ they follow Python: whitespace is str.isspace()'s set (it includes \x1c-\x1f and \x85
// and excludes U+FEFF), strip/lstrip/rstrip(chars) take a set of characters, indexes count code points, and
// split()/splitlines() break where Python does. Lengths a method is about to build go through `check` first, so
// a family's budget can refuse them.
import { PyError } from './errors'

/** Code points Python's `str.isspace()` accepts (what `strip()` removes with no argument); all are in the BMP. */
const PY_WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
  0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000
])

/** Python `ch.isspace()` for one character. */
export function isPySpace(ch: string): boolean {
  return PY_WHITESPACE.has(ch.codePointAt(0) ?? -1)
}

type Check = ((n: number) => void) | undefined

const hasSurrogate = (s: string): boolean => /[\uD800-\uDFFF]/.test(s)
/** The code points of `s` (one array entry per Python character). */
const cps = (s: string): string[] => (hasSurrogate(s) ? Array.from(s) : s.split(''))
/** Python's len(s). */
export const pyLen = (s: string): number => (hasSurrogate(s) ? Array.from(s).length : s.length)
/** A UTF-16 offset of `s` as a Python index. */
const pyIndex = (s: string, i: number): number => (i < 0 || !hasSurrogate(s) ? i : Array.from(s.slice(0, i)).length)

/** `s.strip(chars)`, `s.lstrip(chars)`, `s.rstrip(chars)`: `chars` null/undefined means whitespace. */
export function pyStripChars(s: string, chars: string | null | undefined, left: boolean, right: boolean): string {
  const set = chars === null || chars === undefined ? null : new Set(Array.from(chars))
  const drop = (c: string): boolean => (set ? set.has(c) : isPySpace(c))
  const cs = cps(s)
  let a = 0
  let b = cs.length
  if (left) while (a < b && drop(cs[a])) a++
  if (right) while (b > a && drop(cs[b - 1])) b--
  return a === 0 && b === cs.length ? s : cs.slice(a, b).join('')
}

/** Python `s.strip()`. */
export const pyStrip = (s: string): string => pyStripChars(s, null, true, true)

/** Python `s.rstrip(chars)`: removes trailing characters that are in `chars`, whatever their order. */
export const pyRstripChars = (s: string, chars: string): string => pyStripChars(s, chars, false, true)

// split() with no separator: runs of whitespace separate, the remainder after maxsplit keeps its spaces.
function wsSplit(s: string, max: number, fromRight: boolean): string[] {
  const cs = cps(s)
  const out: string[] = []
  if (!fromRight) {
    let i = 0
    for (;;) {
      while (i < cs.length && isPySpace(cs[i])) i++
      if (i >= cs.length) break
      if (max >= 0 && out.length === max) {
        out.push(cs.slice(i).join(''))
        break
      }
      let j = i
      while (j < cs.length && !isPySpace(cs[j])) j++
      out.push(cs.slice(i, j).join(''))
      i = j
    }
    return out
  }
  let i = cs.length
  for (;;) {
    while (i > 0 && isPySpace(cs[i - 1])) i--
    if (i <= 0) break
    if (max >= 0 && out.length === max) {
      out.unshift(cs.slice(0, i).join(''))
      break
    }
    let j = i
    while (j > 0 && !isPySpace(cs[j - 1])) j--
    out.unshift(cs.slice(j, i).join(''))
    i = j
  }
  return out
}

/** `s.split(sep, maxsplit)` / `s.rsplit(sep, maxsplit)`; `sep` null means runs of whitespace, `maxsplit` < 0 all. */
export function pySplit(s: string, sep: string | null, maxsplit: number, fromRight = false): string[] {
  if (sep === null) return wsSplit(s, maxsplit, fromRight)
  if (sep === '') throw new PyError('ValueError', 'empty separator')
  const parts = s.split(sep)
  if (maxsplit < 0 || parts.length <= maxsplit + 1) return parts
  if (!fromRight) return [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(sep)]
  return [parts.slice(0, parts.length - maxsplit).join(sep), ...parts.slice(parts.length - maxsplit)]
}

const LINE_BREAK = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/g

/** `s.splitlines(keepends)`. */
export function pySplitlines(s: string, keepends = false): string[] {
  const out: string[] = []
  let start = 0
  for (const m of s.matchAll(LINE_BREAK)) {
    out.push(s.slice(start, keepends ? m.index + m[0].length : m.index))
    start = m.index + m[0].length
  }
  if (start < s.length) out.push(s.slice(start))
  return out
}

/** `s.replace(old, new, count)`; count < 0 replaces all. An empty `old` goes before every character and at the end. */
export function pyReplace(s: string, old: string, neu: string, count = -1, check?: Check): string {
  if (old === '') {
    const cs = cps(s)
    const times = count < 0 ? cs.length + 1 : Math.min(count, cs.length + 1)
    check?.(s.length + times * neu.length)
    let out = ''
    for (let i = 0; i < cs.length; i++) out += (i < times ? neu : '') + cs[i]
    return times > cs.length ? out + neu : out
  }
  const parts = s.split(old)
  check?.(s.length + (parts.length - 1) * Math.max(0, neu.length - old.length))
  if (count < 0 || parts.length <= count + 1) return parts.join(neu)
  return parts.slice(0, count + 1).join(neu) + old + parts.slice(count + 1).join(old)
}

/** `s.find(sub)` / `s.rfind(sub)` as a Python (code point) index, -1 when absent. */
export function pyFind(s: string, sub: string, fromRight = false): number {
  return pyIndex(s, fromRight ? s.lastIndexOf(sub) : s.indexOf(sub))
}

/** `s.index(sub)` / `s.rindex(sub)`. */
export function pyIndexOf(s: string, sub: string, fromRight = false): number {
  const i = pyFind(s, sub, fromRight)
  if (i < 0) throw new PyError('ValueError', 'substring not found')
  return i
}

/** `s.count(sub)`: non-overlapping; an empty `sub` is counted between every character and at both ends. */
export function pyCount(s: string, sub: string): number {
  return sub === '' ? pyLen(s) + 1 : s.split(sub).length - 1
}

/** `s.partition(sep)` / `s.rpartition(sep)`. */
export function pyPartition(s: string, sep: string, fromRight = false): [string, string, string] {
  if (sep === '') throw new PyError('ValueError', 'empty separator')
  const i = fromRight ? s.lastIndexOf(sep) : s.indexOf(sep)
  if (i < 0) return fromRight ? ['', '', s] : [s, '', '']
  return [s.slice(0, i), sep, s.slice(i + sep.length)]
}

const CASED = /[\p{Lu}\p{Ll}\p{Lt}]/u

// Titlecase differs from uppercase for the Latin digraphs and the Greek letters with ypogegrammeni (JS has no
// toTitleCase); every other character titlecases from its uppercase.
const DIGRAPH_TITLE: Record<string, string> = { Ǆ: 'ǅ', ǅ: 'ǅ', ǆ: 'ǅ', Ǉ: 'ǈ', ǈ: 'ǈ', ǉ: 'ǈ', Ǌ: 'ǋ', ǋ: 'ǋ', ǌ: 'ǋ', Ǳ: 'ǲ', ǲ: 'ǲ', ǳ: 'ǲ' }
function titleChar(c: string): string {
  const t = DIGRAPH_TITLE[c]
  if (t) return t
  const cp = c.codePointAt(0)!
  if ((cp >= 0x1f80 && cp <= 0x1faf) || cp === 0x1fb3 || cp === 0x1fc3 || cp === 0x1ff3) return String.fromCodePoint(cp >= 0x1fb3 ? cp + 9 : cp | 0x8)
  // A character that uppercases to several (ß → SS, ﬁ → FI) titlecases to the first of them upper and the rest lower.
  const u = c.toUpperCase()
  const us = Array.from(u)
  return us.length > 1 ? us[0] + us.slice(1).join('').toLowerCase() : u
}

/** `s.title()`: a cased character after an uncased one starts a word. */
export function pyTitle(s: string): string {
  let out = ''
  let prevCased = false
  for (const c of s) {
    out += prevCased ? c.toLowerCase() : titleChar(c)
    prevCased = CASED.test(c)
  }
  return out
}

/** `s.capitalize()`: the first character upper (title) case, the rest lower. */
export function pyCapitalize(s: string): string {
  const cs = Array.from(s)
  return cs.length ? titleChar(cs[0]) + cs.slice(1).join('').toLowerCase() : s
}

/** `s.swapcase()`: upper case to lower, lower to upper, titlecase and uncased characters as they are. */
export function pySwapcase(s: string): string {
  return Array.from(s, (c) => (/\p{Lu}/u.test(c) ? c.toLowerCase() : /\p{Ll}/u.test(c) ? c.toUpperCase() : c)).join('')
}

/** `s.zfill(width)`. */
export function pyZfill(s: string, width: number, check?: Check): string {
  check?.(width)
  const n = pyLen(s)
  if (width <= n) return s
  const sign = s[0] === '-' || s[0] === '+' ? s[0] : ''
  return sign + '0'.repeat(width - n) + s.slice(sign.length)
}

/** `s.ljust(width, fill)`, `s.rjust(width, fill)` and `s.center(width, fill)` (CPython's center puts the odd pad left when the width is odd). */
export function pyJustify(s: string, how: 'ljust' | 'rjust' | 'center', width: number, fill = ' ', check?: Check): string {
  if (pyLen(fill) !== 1) throw new PyError('TypeError', 'The fill character must be exactly one character long')
  check?.(width)
  const n = pyLen(s)
  if (width <= n) return s
  const pad = width - n
  if (how === 'ljust') return s + fill.repeat(pad)
  if (how === 'rjust') return fill.repeat(pad) + s
  const left = Math.floor(pad / 2) + (pad & width & 1)
  return fill.repeat(left) + s + fill.repeat(pad - left)
}

/** `s.removeprefix(p)` / `s.removesuffix(p)`. */
export const pyRemovePrefix = (s: string, p: string): string => (p && s.startsWith(p) ? s.slice(p.length) : s)
export const pyRemoveSuffix = (s: string, p: string): string => (p && s.endsWith(p) ? s.slice(0, s.length - p.length) : s)

/** The is…() predicates. */
export const PY_STR_PREDICATES: Readonly<Record<string, (s: string) => boolean>> = {
  isdigit: (s) => s.length > 0 && /^\p{Nd}+$/u.test(s),
  isdecimal: (s) => s.length > 0 && /^\p{Nd}+$/u.test(s),
  isnumeric: (s) => s.length > 0 && /^\p{N}+$/u.test(s),
  isalpha: (s) => s.length > 0 && /^\p{L}+$/u.test(s),
  isalnum: (s) => s.length > 0 && /^[\p{L}\p{N}]+$/u.test(s),
  isspace: (s) => s.length > 0 && Array.from(s).every(isPySpace),
  isupper: (s) => /\p{Lu}/u.test(s) && !/[\p{Ll}\p{Lt}]/u.test(s),
  islower: (s) => /\p{Ll}/u.test(s) && !/[\p{Lu}\p{Lt}]/u.test(s),
  istitle: (s) => pyTitle(s) === s && CASED.test(s)
}
