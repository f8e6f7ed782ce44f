// OpenCompass's ChatMLDataset (opencompass/datasets/chatml/chatml.py), the class of every dataset a run config's
// `chatml_datasets` becomes: each JSONL line (read as utf-8-sig) keeps only `question` (ChatML messages) and
// `answer` (a list of str), is checked as VerifyDataset (datasets/chatml/verification.py, pydantic) checks it,
// and the rows are those columns renamed chatml_question / chatml_answer, plus `question` — the content of the
// first user message, a str or a list of text/image parts — and `answer`, the first answer ('' when the list is
// empty).
import { parsePyJson } from '../python/json'
import { fromList } from './from-list'
import { type LoaderIO, getDataPath } from './io'
import { pyLines } from './mm-custom'
import { PyError } from './py'
import type { LoaderResult } from './types'

const invalid = (row: number, what: string): PyError => new PyError('ValidationError', `1 validation error for VerifyDataset (line ${row + 1}): ${what}`)

const isStr = (v: unknown): v is string => typeof v === 'string'

/** VerifyDataset(**row): message roles and content types, answers as str, one answer or one per user message. */
function verify(row: Record<string, unknown>, i: number): void {
  const { question, answer } = row
  if (!Array.isArray(question)) throw invalid(i, 'question: Input should be a valid list')
  if (!Array.isArray(answer)) throw invalid(i, 'answer: Input should be a valid list')
  question.forEach((m, k) => {
    const msg = m as Record<string, unknown>
    if (!msg || typeof msg !== 'object' || Array.isArray(msg)) throw invalid(i, `question.${k}: Input should be a valid dictionary`)
    if (msg.role === 'user') {
      const ok = isStr(msg.content) || (Array.isArray(msg.content) && msg.content.every((p) => p && typeof p === 'object' && ((p.type === 'text' && isStr(p.text)) || (p.type === 'image' && isStr(p.image_url)))))
      if (!ok) throw invalid(i, `question.${k}.user.content: Input should be a valid string or a list of text / image items`)
    } else if (msg.role === 'system' || msg.role === 'assistant') {
      if (!isStr(msg.content)) throw invalid(i, `question.${k}.${msg.role}.content: Input should be a valid string`)
    } else throw invalid(i, `question.${k}: role should be 'system', 'user' or 'assistant'`)
  })
  answer.forEach((a, k) => {
    if (!isStr(a)) throw invalid(i, `answer.${k}: Input should be a valid string`)
  })
  const users = question.filter((m) => (m as Record<string, unknown>).role === 'user').length
  if (answer.length !== 1 && answer.length !== users) {
    throw invalid(i, `Value error, Answer must have length 1 or ${users} (number of user messages),but got ${answer.length}`)
  }
}

/** Python truthiness of a message content (an empty str or list is skipped). */
const truthy = (v: unknown): boolean => (isStr(v) || Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined)

export async function loadChatML(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  const text = (await io.readText(path)).replace(/^\uFEFF/, '')
  const data = pyLines(text).map((line) => {
    try {
      return parsePyJson(line) as Record<string, unknown>
    } catch {
      throw new PyError('JSONDecodeError', line.trim() === '' ? 'Expecting value: line 1 column 1 (char 0)' : 'Expecting value')
    }
  })
  const kept = data.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => k === 'question' || k === 'answer')))
  kept.forEach(verify)
  const extracted: { question: unknown; answer: unknown }[] = []
  for (const item of kept) {
    const user = (item.question as Record<string, unknown>[]).find((q) => q.role === 'user')
    const answers = item.answer as string[]
    if (user && truthy(user.content)) extracted.push({ question: user.content, answer: answers.length ? answers[0] : '' })
  }
  if (extracted.length !== kept.length) {
    throw new PyError('ValueError', `Failed to concatenate on axis=1 because tables don't have the same number of rows: ${kept.length} rows, but ${extracted.length} have a user message with content`)
  }
  const renamed = kept.map((row, i) => {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(row)) out[`chatml_${k}`] = v
    return { ...out, question: extracted[i].question, answer: extracted[i].answer }
  })
  const t = fromList(renamed)
  return { columns: t.columns, rows: t.rows, upstreamImageRoot: null, imageRoot: null }
}
