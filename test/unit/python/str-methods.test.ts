// shared/python/str-methods.ts against CPython 3.11 (str-method-tables.json, written by gen-str-method-tables.py),
// and the whitespace set and strip/rstrip of cpython-tables.json.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PyError } from '../../../shared/python/errors'
import * as pystr from '../../../shared/python/str-methods'
import { tables } from './cpython-tables'

type Row = { method: string; s: string; args: unknown[] } & ({ ok: unknown } | { err: string })
const rows: Row[] = JSON.parse(readFileSync(new URL('./str-method-tables.json', import.meta.url), 'utf8')).rows

const opt = <T>(x: unknown, d: T): T => (x === undefined || x === null ? d : (x as T))
const METHODS: Record<string, (s: string, a: unknown[]) => unknown> = {
  strip: (s, a) => pystr.pyStripChars(s, a[0] as string | undefined, true, true),
  lstrip: (s, a) => pystr.pyStripChars(s, a[0] as string | undefined, true, false),
  rstrip: (s, a) => pystr.pyStripChars(s, a[0] as string | undefined, false, true),
  split: (s, a) => pystr.pySplit(s, opt(a[0], null), opt(a[1], -1)),
  rsplit: (s, a) => pystr.pySplit(s, opt(a[0], null), opt(a[1], -1), true),
  splitlines: (s, a) => pystr.pySplitlines(s, opt(a[0], false)),
  replace: (s, a) => pystr.pyReplace(s, a[0] as string, a[1] as string, opt(a[2], -1)),
  find: (s, a) => pystr.pyFind(s, a[0] as string),
  rfind: (s, a) => pystr.pyFind(s, a[0] as string, true),
  index: (s, a) => pystr.pyIndexOf(s, a[0] as string),
  rindex: (s, a) => pystr.pyIndexOf(s, a[0] as string, true),
  count: (s, a) => pystr.pyCount(s, a[0] as string),
  partition: (s, a) => pystr.pyPartition(s, a[0] as string),
  rpartition: (s, a) => pystr.pyPartition(s, a[0] as string, true),
  title: pystr.pyTitle,
  capitalize: pystr.pyCapitalize,
  swapcase: pystr.pySwapcase,
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  zfill: (s, a) => pystr.pyZfill(s, a[0] as number),
  ljust: (s, a) => pystr.pyJustify(s, 'ljust', a[0] as number, opt(a[1], ' ')),
  rjust: (s, a) => pystr.pyJustify(s, 'rjust', a[0] as number, opt(a[1], ' ')),
  center: (s, a) => pystr.pyJustify(s, 'center', a[0] as number, opt(a[1], ' ')),
  removeprefix: (s, a) => pystr.pyRemovePrefix(s, a[0] as string),
  removesuffix: (s, a) => pystr.pyRemoveSuffix(s, a[0] as string),
  startswith: (s, a) => s.startsWith(a[0] as string),
  endswith: (s, a) => s.endsWith(a[0] as string),
  ...Object.fromEntries(Object.entries(pystr.PY_STR_PREDICATES).map(([k, f]) => [k, (s: string) => f(s)]))
}

function outcome(f: () => unknown): { ok: unknown } | { err: string } {
  try {
    return { ok: f() }
  } catch (e) {
    if (e instanceof PyError) return { err: e.pyMessage }
    throw e
  }
}

describe('str methods are CPython’s', () => {
  it.each(rows.map((r) => [`${JSON.stringify(r.s).slice(0, 24)}.${r.method}(${JSON.stringify(r.args).slice(1, -1)})`, r] as const))('%s', (_n, r) => {
    const { method, s, args, ...expected } = r
    expect(outcome(() => METHODS[method](s, args))).toEqual(expected)
  })
})

describe('str.isspace(), strip() and rstrip(chars) match CPython', () => {
  it('classifies every BMP code point as str.isspace() does', () => {
    const spaces: number[] = []
    for (let c = 0; c < 0x10000; c++) if (pystr.isPySpace(String.fromCharCode(c))) spaces.push(c)
    expect(spaces).toEqual(tables.spaceCodePoints)
  })
  it.each(tables.strip.map((r) => [JSON.stringify(r.s), r] as const))('strip %s', (_n, r) => expect(pystr.pyStrip(r.s)).toBe(r.strip))
  it.each(tables.rstrip.map((r) => [`${JSON.stringify(r.s)} ${JSON.stringify(r.chars)}`, r] as const))('rstrip %s', (_n, r) =>
    expect(pystr.pyRstripChars(r.s, r.chars)).toBe(r.rstrip)
  )
})
