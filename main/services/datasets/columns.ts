// Column type inference: per dotted path, how many rows hold each JSON type. Accumulators are plain arrays so
// workers can send them back and the main thread can sum them.
import type { ColumnInfo, ColumnType } from './types'
import { PyFloat } from '../../../shared/python/json'

/** [present, string, integer, number, boolean, null, object, array, image, audio, video] — the last three count
 * the media values found in the column (paths, base64, HF Image/Audio structs). */
export type ColumnAcc = number[]
export const MEDIA_SLOTS = ['image', 'audio', 'video'] as const
export const MEDIA_SLOT0 = 8
export const TYPE_SLOTS: Array<Exclude<ColumnType, 'mixed'>> = ['string', 'integer', 'number', 'boolean', 'null', 'object', 'array']

export const MAX_COLUMNS = 1000
export const MAX_DEPTH = 4

export function typeSlot(v: unknown): number {
  switch (typeof v) {
    case 'string':
      return 1
    case 'number':
      return Number.isInteger(v) ? 2 : 3
    case 'bigint':
      return 2
    case 'boolean':
      return 4
    case 'object':
      // A Python float read from a float column (1.0) is a number, not an object.
      return v === null ? 5 : Array.isArray(v) ? 7 : v instanceof PyFloat ? 3 : 6
    default:
      return 5
  }
}

export function mergeColumns(into: Map<string, ColumnAcc>, from: Array<[string, ColumnAcc]>): void {
  for (const [name, acc] of from) {
    const cur = into.get(name)
    if (!cur) {
      if (into.size < MAX_COLUMNS) into.set(name, acc.slice())
      continue
    }
    for (let k = 0; k < acc.length; k++) cur[k] = (cur[k] ?? 0) + acc[k]
  }
}

/** The type a person would name: nulls do not make a column mixed, integers inside numbers make it number. */
export function summarizeColumns(cols: Map<string, ColumnAcc>): ColumnInfo[] {
  const out: ColumnInfo[] = []
  for (const [name, acc] of cols) {
    const counts: ColumnInfo['counts'] = {}
    TYPE_SLOTS.forEach((t, k) => {
      if (acc[k + 1] > 0) counts[t] = acc[k + 1]
    })
    const kinds = TYPE_SLOTS.filter((t) => t !== 'null' && (counts[t] ?? 0) > 0)
    let type: ColumnType
    if (kinds.length === 0) type = 'null'
    else if (kinds.length === 1) type = kinds[0]
    else if (kinds.length === 2 && kinds.includes('integer') && kinds.includes('number')) type = 'number'
    else type = 'mixed'
    let media: ColumnInfo['media']
    let best = 0
    MEDIA_SLOTS.forEach((m, k) => {
      const n = acc[MEDIA_SLOT0 + k] ?? 0
      if (n > best) {
        best = n
        media = m
      }
    })
    // A media column: most of its values are media (a caption that names a file does not make one).
    if (best * 2 < acc[0] - (acc[5] ?? 0)) media = undefined
    out.push({ name, type, counts, present: acc[0], ...(media ? { media } : {}) })
  }
  return out
}

/** CSV cells are text; infer what they hold, as pandas would when loading. */
export function csvCellSlot(s: string): number {
  if (s === '') return 5
  if (/^-?\d+$/.test(s)) return 2
  if (/^-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?$/.test(s)) return 3
  if (/^(?:true|false|True|False|TRUE|FALSE)$/.test(s)) return 4
  return 1
}
