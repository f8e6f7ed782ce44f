// Row search: plain text (case-insensitive, any string field), /regex/flags, field:value (nested fields with
// dots; value matched as text), status:accepted|rejected|flagged|unreviewed, and tag:NAME (rows with that curation
// tag; also tag:"two words"). Terms separated by spaces must all match.
import type { CurationStatus, RowCuration } from '../../../shared/api/types'

type Test = (index: number, row: Record<string, unknown>) => boolean

function get(row: Record<string, unknown>, path: string): unknown {
  let v: unknown = row
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<string, unknown>)[k]
  }
  return v
}

function textOf(v: unknown): string {
  if (typeof v === 'string') return v
  if (v === undefined) return ''
  return JSON.stringify(v)
}

function anyString(row: unknown, pred: (s: string) => boolean, depth = 0): boolean {
  if (typeof row === 'string') return pred(row)
  if (typeof row === 'number' || typeof row === 'boolean') return pred(String(row))
  if (row && typeof row === 'object' && depth < 4) return Object.values(row).some((x) => anyString(x, pred, depth + 1))
  return false
}

/** Search terms, split on spaces outside double quotes (tag:"two words"). */
function terms(query: string): string[] {
  return (query.trim().match(/(?:[^\s"]+|"[^"]*")+/g) ?? []).filter(Boolean)
}

const unquote = (s: string) => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s)

export function compileRowQuery(query: string, curation: (index: number) => RowCuration | undefined): Test {
  const status = (i: number): CurationStatus => curation(i)?.status ?? 'unreviewed'
  const regex = /^\/(.+)\/([imsu]*)$/.exec(query.trim())
  if (regex) {
    let re: RegExp
    try {
      re = new RegExp(regex[1], regex[2])
    } catch (e) {
      throw new Error(`search: invalid regular expression: ${(e as Error).message}`)
    }
    return (_i, row) => anyString(row, (s) => re.test(s))
  }
  const tests: Test[] = terms(query).map((term) => {
    const m = /^([\w.-]+):(.*)$/.exec(term)
    if (m && m[1] === 'status') return (i) => status(i) === m[2]
    if (m && m[1] === 'tag') {
      const tag = unquote(m[2])
      return (i) => !!curation(i)?.tags?.includes(tag)
    }
    if (m) {
      const needle = m[2].toLowerCase()
      return (_i, row) => textOf(get(row, m[1])).toLowerCase().includes(needle)
    }
    const needle = term.toLowerCase()
    return (_i, row) => anyString(row, (s) => s.toLowerCase().includes(needle))
  })
  return (i, row) => tests.every((t) => t(i, row))
}
