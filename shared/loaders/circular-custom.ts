// OpenCompass's CircularCustomDataset (opencompass/datasets/custom.py with CircularDatasetMeta from
// datasets/circular.py): CustomDataset.load's rows (a JSONL read as utf-8-sig, or a CSV as dicts of str), each
// repeated once per circular pattern with the options rotated — pattern (B, C, D, A) puts the original A option
// under B, and so on — the answer moved with its option, and `qid` (the original row number) and
// `circular_pattern` added. make_custom_dataset_config gives this class for data_type='circular-mcq', with
// option_keys and answer_key from the first row's columns.
import { parsePyJson, pyKeyEq } from '../python/json'
import { fromList } from './from-list'
import { type LoaderIO, getDataPath } from './io'
import { pyLines } from './mm-custom'
import { splitRecords } from './pandas-tsv'
import { PyError, keyError } from './py'
import type { LoaderResult } from './types'

/** CustomDataset.load (OpenCompass): the rows as the file holds them. */
async function customRows(path: string, io: LoaderIO): Promise<Record<string, unknown>[]> {
  const text = (await io.readText(path)).replace(/^\uFEFF/, '')
  if (path.endsWith('.jsonl')) {
    return pyLines(text).map((line) => {
      try {
        // A JSONL line of CustomDataset is a dict (upstream indexes each row by column).
        return parsePyJson(line) as Record<string, unknown>
      } catch {
        throw new PyError('JSONDecodeError', line.trim() === '' ? 'Expecting value: line 1 column 1 (char 0)' : 'Expecting value')
      }
    })
  }
  if (path.endsWith('.csv')) {
    const [header, ...records] = splitRecords(text, ',')
    if (!header) throw new PyError('StopIteration', '')
    return records.map((r) => {
      const row: Record<string, unknown> = {}
      header.forEach((h, i) => {
        if (i < r.length) row[h.v] = r[i].v
      })
      return row
    })
  }
  throw new PyError('ValueError', `Unsupported file format: ${path}`)
}

function permutations(keys: string[]): string[][] {
  if (keys.length <= 1) return [keys.slice()]
  return keys.flatMap((k, i) => permutations([...keys.slice(0, i), ...keys.slice(i + 1)]).map((rest) => [k, ...rest]))
}

/** get_circular_patterns / get_all_possible_patterns. */
export function circularPatterns(kind: unknown, keys: string[]): string[][] {
  if (kind === 'circular') return keys.map((_, i) => [...keys, ...keys].slice(i, i + keys.length))
  if (kind === 'all_possible') return permutations(keys)
  if (typeof kind === 'string') throw new PyError('ValueError', `Unknown circular_patterns: ${kind}`)
  throw new PyError('NotImplementedError', 'circular_patterns int list of list has not been tested yet')
}

/** make_circular_items for one row. */
export function circularItems(origin: Record<string, unknown>, patterns: string[][], keys: string[], answerKey: string, qid: number): Record<string, unknown>[] {
  return patterns.map((pattern) => {
    // A copy per pattern (upstream deep-copies; only top-level keys are assigned, so a shallow copy is the same).
    const item: Record<string, unknown> = { ...origin }
    keys.forEach((k, i) => {
      if (!(k in origin)) throw keyError(k)
      item[pattern[i]] = origin[k]
    })
    if (!(answerKey in origin)) throw keyError(answerKey)
    const at = keys.findIndex((k) => pyKeyEq(k, origin[answerKey]))
    if (at >= 0) item[answerKey] = pattern[at]
    item.qid = qid
    item.circular_pattern = pattern
    return item
  })
}

export async function loadCircularCustom(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const keys = kwargs.option_keys
  if (keys === null || keys === undefined) throw new PyError('AssertionError', 'option_keys cannot be None')
  const optionKeys = (Array.isArray(keys) ? keys : [...String(keys)]).map(String)
  const answerKey = kwargs.answer_key
  const patterns = circularPatterns(kwargs.circular_patterns ?? 'circular', optionKeys)
  if (answerKey === null || answerKey === undefined) throw new PyError('ValueError', 'answer_key and answer_key_switch_method cannot be both None')
  const path = await getDataPath(String(kwargs.path), io)
  const rows = (await customRows(path, io)).flatMap((row, i) => circularItems(row, patterns, optionKeys, String(answerKey), i))
  const t = fromList(rows)
  return { columns: t.columns, rows: t.rows, upstreamImageRoot: null, imageRoot: null }
}
