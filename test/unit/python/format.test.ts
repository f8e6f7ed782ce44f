// shared/python/format.ts against CPython 3.11 (format-tables.json, written by gen-format-tables.py): format()
// with the whole format-spec mini-language, str.format and printf-style %, results and error texts.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PyError } from '../../../shared/python/errors'
import { formatValue, percentFormat, strFormat } from '../../../shared/python/format'
import { PyFloat, jsonRuntime, tuple } from '../../../shared/python/json'
import { fromBits, type Tagged } from './cpython-tables'

type Outcome = { ok: string } | { err: string }
interface FormatTables {
  format: ({ value: Tagged; spec: string } & Outcome)[]
  strFormat: { args: Tagged; kwargs: Tagged; rows: ({ template: string } & Outcome)[] }
  percent: ({ template: string; values: Tagged } & Outcome)[]
}
const tables: FormatTables = JSON.parse(readFileSync(new URL('./format-tables.json', import.meta.url), 'utf8'))

function value(v: Tagged): unknown {
  if (v === null || typeof v === 'boolean') return v
  if ('int' in v) return Number.isSafeInteger(Number(v.int)) ? Number(v.int) : BigInt(v.int)
  if ('float' in v) {
    const x = fromBits(v.float)
    return Number.isInteger(x) ? new PyFloat(x) : x
  }
  if ('str' in v) return v.str
  if ('list' in v) return v.list.map(value)
  if ('tuple' in v) return tuple(v.tuple.map(value))
  if ('set' in v) throw new Error('no sets in these tables')
  return Object.fromEntries(v.dict.map(([k, x]) => [value(k) as string, value(x)]))
}

function outcome(f: () => string): Outcome {
  try {
    return { ok: f() }
  } catch (e) {
    if (e instanceof PyError) return { err: e.pyMessage }
    throw e
  }
}

const expected = (r: Outcome): Outcome => ('ok' in r ? { ok: r.ok } : { err: r.err })

describe('format(value, spec) is CPython’s', () => {
  it.each(tables.format.map((r) => [`${JSON.stringify(r.value)} ${JSON.stringify(r.spec)}`, r] as const))('%s', (_n, r) => {
    expect(outcome(() => formatValue(jsonRuntime.formatModel, value(r.value), r.spec))).toEqual(expected(r))
  })
})

describe('str.format is CPython’s', () => {
  const args = value(tables.strFormat.args) as unknown[]
  const kwargs = new Map(Object.entries(value(tables.strFormat.kwargs) as Record<string, unknown>))
  it.each(tables.strFormat.rows.map((r) => [JSON.stringify(r.template), r] as const))('%s', (_n, r) => {
    expect(outcome(() => strFormat(jsonRuntime.formatModel, r.template, args, kwargs))).toEqual(expected(r))
  })
})

describe('printf-style % is CPython’s', () => {
  it.each(tables.percent.map((r) => [`${JSON.stringify(r.template)} % ${JSON.stringify(r.values)}`, r] as const))('%s', (_n, r) => {
    expect(outcome(() => percentFormat(jsonRuntime.formatModel, r.template, value(r.values)))).toEqual(expected(r))
  })
})
