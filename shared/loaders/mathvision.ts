// MathVisionDataset (datasets/mathvision.py) over a local folder: `datasets.load_dataset` of its Parquet shards
// (Image features decoded to pictures) or JSON(L) files, a level filter, the picture from an existing path, a
// base64 string, a decoded Image (saved <id>.png) or raw bytes, the question before the picture. Records
// without a usable picture are skipped, as upstream does.
import { parsePyJson } from '../python/json'
import { type Msg, getContentStr } from './ais-content'
import { fromList } from './from-list'
import { type LoaderIO, getDataPath, pabspath, pjoin, psplitext } from './io'
import { jsonLoadsLine, pyLines } from './mm-custom'
import { PyError, cellStr, formatKw, jsonDumps } from './py'
import type { LoaderResult } from './types'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const s = (v: unknown): string => (v === null || v === undefined ? 'None' : cellStr(v))

/** fnmatch of a file name against `a*b` patterns. */
const matches = (name: string, pattern: string): boolean =>
  new RegExp(
    '^' +
      pattern
        .split('*')
        .map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '$'
  ).test(name)

async function pickFiles(dir: string, patterns: string[], io: LoaderIO): Promise<string[]> {
  if (!(await io.isDir(dir))) return []
  const names = (await io.listDir(dir)).filter((n) => !n.startsWith('.'))
  for (const p of patterns) {
    const hit = names
      .filter((n) => matches(n, p))
      .map((n) => pjoin(dir, n))
      .sort()
    if (hit.length) return hit
  }
  return []
}

/** Records as `list(load_dataset(...))` gives them; `imageColumns` are the HF Image features (decoded pictures). */
async function loadRecords(
  root: string,
  split: string,
  io: LoaderIO
): Promise<{ records: Record<string, unknown>[]; images: Set<string> }> {
  const roots = [pjoin(root, 'data'), root]
  for (const r of roots) {
    const files = await pickFiles(r, [`${split}-*.parquet`, `${split}.parquet`, '*.parquet'], io)
    if (files.length) {
      const records: Record<string, unknown>[] = []
      const images = new Set<string>()
      for (const f of files) {
        for (const [k, kind] of await io.parquetFeatures(f)) if (kind === 'image') images.add(k)
        records.push(...(await io.readParquet(f)))
      }
      return { records, images }
    }
  }
  for (const r of roots) {
    const files = await pickFiles(
      r,
      [`${split}.jsonl`, `${split}.json`, `${split}*.jsonl`, `${split}*.json`, '*.jsonl', '*.json'],
      io
    )
    if (files.length) {
      const rows: Record<string, unknown>[] = []
      for (const f of files) {
        const text = await io.readText(f)
        const t = text.trimStart()
        if (t.startsWith('[')) rows.push(...(parsePyJson(t) as Record<string, unknown>[]))
        else for (const l of pyLines(text)) if (l.trim()) rows.push(jsonLoadsLine(l) as Record<string, unknown>)
      }
      // Arrow gives every record every column (missing → None).
      const keys: string[] = []
      for (const r2 of rows) for (const k of Object.keys(r2)) if (!keys.includes(k)) keys.push(k)
      return {
        records: rows.map((r2) => Object.fromEntries(keys.map((k) => [k, k in r2 ? r2[k] : null]))),
        images: new Set()
      }
    }
  }
  throw new PyError(
    'FileNotFoundError',
    `Unable to locate local MathVision files under ${root}. Expected JSON/JSONL/Parquet data, optionally split-sharded.`
  )
}

function outputPath(record: Record<string, unknown>, index: number, root: string, suffix = '.png'): string {
  const stem = s('id' in record ? record.id : 'index' in record ? record.index : index).replace(
    /[^0-9A-Za-z_.-]+/g,
    '_'
  )
  return pjoin(root, `${stem}${suffix}`)
}

async function existing(p: unknown, dataRoot: string, imageRoot: string, io: LoaderIO): Promise<string | null> {
  if (!p) return null
  if (Array.isArray(p)) {
    for (const x of p) {
      const r = await existing(x, dataRoot, imageRoot, io)
      if (r) return r
    }
    return null
  }
  const str = s(p)
  const cands = [str]
  if (!str.startsWith('/')) cands.push(pjoin(dataRoot, str), pjoin(imageRoot, str))
  for (const c of cands) if (await io.exists(c)) return pabspath(c, io.cwd)
  return null
}

async function dumpImage(
  record: Record<string, unknown>,
  index: number,
  imageRoot: string,
  dataRoot: string,
  images: Set<string>,
  io: LoaderIO
): Promise<string | null> {
  const found = await existing(record.image_path, dataRoot, imageRoot, io)
  if (found) return found
  for (const key of ['image', 'decoded_image']) {
    const c = record[key]
    if (c === null || c === undefined) continue
    const bytes = typeof c === 'object' && !Array.isArray(c) ? (c as { bytes?: unknown }).bytes : undefined
    if (images.has(key) && bytes instanceof Uint8Array) {
      // A decoded Image feature: Image.save(<id>.png).
      const out = outputPath(record, index, imageRoot)
      await io.saveImage(bytes, out)
      return out
    }
    if (c instanceof Uint8Array) {
      const out = outputPath(record, index, imageRoot)
      await io.writeBytes(out, c)
      return out
    }
    if (typeof c === 'object' && !Array.isArray(c)) {
      const o = c as Record<string, unknown>
      const p = await existing(o.path, dataRoot, imageRoot, io)
      if (p) return p
      if (o.bytes instanceof Uint8Array && o.bytes.length) {
        const suffix =
          psplitext(typeof o.path === 'string' ? o.path.slice(o.path.lastIndexOf('/') + 1) : '')[1] || '.png'
        const out = outputPath(record, index, imageRoot, suffix)
        await io.writeBytes(out, o.bytes)
        return out
      }
      continue
    }
    if (typeof c === 'string') {
      const p = await existing(c, dataRoot, imageRoot, io)
      if (p) return p
      const out = outputPath(record, index, imageRoot)
      try {
        await io.saveBase64Image(c, out)
        return out
      } catch {
        continue
      }
    }
    if (Array.isArray(c)) {
      for (const item of c) {
        const p = await dumpImage(
          { id: 'id' in record ? record.id : index, image: item },
          index,
          imageRoot,
          dataRoot,
          images,
          io
        )
        if (p) return p
      }
    }
  }
  return null
}

function safeLiteral(v: unknown): unknown {
  if (typeof v !== 'string') return v
  const t = v.trim()
  if (!t) return []
  if ('[{'.includes(t[0]) && ']}'.includes(t[t.length - 1])) {
    try {
      return JSON.parse(t)
    } catch {
      return v
    }
  }
  return v
}

function normalizeOptions(raw: unknown): string[] {
  const o = safeLiteral(raw)
  if (o === null || o === undefined) return []
  if (Array.isArray(o)) return o.filter((x) => x !== null && s(x).trim()).map(s)
  if (typeof o === 'object') {
    const d = o as Record<string, unknown>
    const ordered = [...LETTERS]
      .filter((k) => d[k] !== null && d[k] !== undefined && s(d[k]).trim())
      .map((k) => s(d[k]))
    return ordered.length
      ? ordered
      : Object.values(d)
          .filter((x) => x !== null && s(x).trim())
          .map(s)
  }
  if (typeof o === 'string' && o.trim()) return [o.trim()]
  return []
}

function normalizeChoiceAnswer(raw: unknown, options: string[]): string {
  const answer = s(raw).trim()
  if (!answer) return answer
  const allowed = LETTERS.slice(0, options.length)
  const upper = answer.toUpperCase()
  if (/^\d+$/.test(upper)) {
    const i = Number(upper)
    if (i >= 0 && i < options.length) return allowed[i]
    if (i >= 1 && i <= options.length) return allowed[i - 1]
  }
  const m = /^([A-Z])(?:[).:\s].*)?$/s.exec(upper)
  if (m && allowed.includes(m[1])) return m[1]
  const at = options.findIndex((o) => answer === o.trim())
  return at >= 0 ? allowed[at] : upper
}

export async function loadMathVision(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const split = kwargs.split === undefined ? 'test' : s(kwargs.split)
  const resolved = await getDataPath(String(kwargs.path), io)
  if (!(await io.isDir(resolved)))
    throw new PyError(
      'NotImplementedError',
      'MathVisionDataset over a single file or a Hub name is not reproduced; give the dataset folder'
    )
  const { records, images } = await loadRecords(resolved, split, io)
  const subsets =
    Array.isArray(kwargs.subset_list) && kwargs.subset_list.length
      ? kwargs.subset_list.map((x) => (typeof x === 'string' ? x.toLowerCase() : x))
      : ['level 1', 'level 2', 'level 3', 'level 4', 'level 5']
  const upstreamImageRoot = pjoin(resolved, 'MathVision_images')
  const imageRoot = io.mediaDir(upstreamImageRoot)
  const out: Record<string, unknown>[] = []
  for (let index = 0; index < records.length; index++) {
    const record = records[index]
    const question = s('question' in record ? record.question : '').trim()
    if (!question) continue
    const level = record.level ?? null
    if (level !== null && !subsets.includes(`level ${s(level)}`.toLowerCase())) continue
    const image = await dumpImage(record, index, imageRoot, resolved, images, io)
    if (!image) continue
    const options = normalizeOptions(record.options ?? [])
    const mcq = options.length > 0
    const choicesText = options.map((o, i) => `${LETTERS[i]}) ${o}`).join('\n')
    const cot = kwargs.single_answer_cot_template
    const prompt = mcq
      ? cot
        ? formatKw(String(cot), {
            question,
            choices: choicesText,
            letters: LETTERS.slice(0, options.length).split('').join(',')
          })
        : `${question}\n\n${choicesText}`
      : kwargs.open_prompt_template
        ? formatKw(String(kwargs.open_prompt_template), { question })
        : question
    const subject = record.subject ?? null
    const answer = mcq
      ? {
          type: 'mcq',
          answer: normalizeChoiceAnswer(record.answer ?? '', options),
          choices: jsonDumps(Object.fromEntries(options.map((o, i) => [LETTERS[i], o])), false),
          level,
          subject
        }
      : { type: 'open', answer: s(record.answer ?? ''), level, subject }
    const msgs: Msg[] = [
      { type: 'text', text: prompt },
      { type: 'image_url', image_url: image }
    ]
    out.push({
      question,
      prompt,
      content: getContentStr(msgs),
      image,
      choices_text: mcq ? choicesText : '',
      question_type: mcq ? 'mcq' : 'open',
      answer,
      level,
      subject,
      solution: record.solution ?? null
    })
  }
  return { ...fromList(out), upstreamImageRoot, imageRoot }
}
