// AISBench loaders over Parquet (pandas.read_parquet rows): HLEDataset (hle.py), VideoMMEDataset (videomme.py),
// RealworldQADataset (realworldqa.py), the RefCOCO family (refcoco/), MMMUDataset (mmmu.py). Hugging Face image
// structs arrive as {bytes: Uint8Array, path}; bytes are written unchanged where upstream writes them unchanged.
import {
  AIS_CONTENT_TAG,
  AIS_IMAGE_START,
  AIS_TEXT_START,
  AIS_VIDEO_START,
  type Msg,
  getContentStr
} from './ais-content'
import { fromList } from './from-list'
import { type LoaderIO, getDataPath, pabspath, pdirname, pjoin, psplitext } from './io'
import { PyError, PyFloat, cellStr, formatKw, isNa, jsonDumps } from './py'
import type { LoaderResult } from './types'

const plain = (rows: Record<string, unknown>[]): LoaderResult => ({
  ...fromList(rows),
  upstreamImageRoot: null,
  imageRoot: null
})
const get = (o: Record<string, unknown>, k: string, d: unknown = null): unknown => (k in o ? o[k] : d)

/** Python str(x) of a parquet value (str / number / PyFloat / None). */
const s = (v: unknown): string => (v === null || v === undefined ? 'None' : cellStr(v))

export async function loadHLE(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  if (!(await io.exists(path))) throw new PyError('FileNotFoundError', `HLE parquet file not found: ${path}`)
  const out: Record<string, unknown>[] = []
  for (const item of await io.readParquet(path)) {
    const msgs: Msg[] = [{ type: 'text', text: s(get(item, 'question', '')) }]
    const image = get(item, 'image', '')
    if (typeof image === 'string' && image) msgs.push({ type: 'image_url', image_url: image })
    out.push({ content: getContentStr(msgs), answer: get(item, 'answer', '') })
  }
  return plain(out)
}

const FRAMES_TMPL_NOSUB =
  '\nThese are the frames of a video. Select the best answer to the following multiple-choice question based on the video. Respond with only the letter (A, B, C, or D) of the correct option.\n'

export async function loadVideoMME(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  const out: Record<string, unknown>[] = []
  for (const line of await io.readParquet(path)) {
    const url = pabspath(pjoin(String(kwargs.video_path), s(line.videoID) + '.mp4'), io.cwd)
    const options = Array.isArray(line.options) ? line.options.map(s) : []
    const question = s(line.question) + '\n' + options.join('\n')
    const prompt = `Question: ${question}\nAnswer: `
    const content =
      AIS_VIDEO_START +
      url +
      AIS_CONTENT_TAG +
      AIS_TEXT_START +
      FRAMES_TMPL_NOSUB +
      AIS_CONTENT_TAG +
      AIS_TEXT_START +
      prompt +
      AIS_CONTENT_TAG
    out.push({
      content,
      answer: {
        duration: line.duration,
        domain: line.domain,
        sub_category: line.sub_category,
        task_type: line.task_type,
        answer: line.answer
      }
    })
  }
  return plain(out)
}

const OPEN_PROMPT =
  'Read the picture and solve the following problem step by step.' +
  'The last line of your response should be of the form' +
  ' "ANSWER: [ANSWER]" (without quotes) where [ANSWER] is the answer to the problem.\n\n' +
  '{question}\n\n' +
  'Remember to put your answer on its own line at the end in the form' +
  ' "ANSWER: [ANSWER]" (without quotes) where [ANSWER] is the answer to the problem,' +
  ' and you do not need to use a \\boxed command.'

export async function loadRealworldQA(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  const dataDir = pdirname(path)
  const upstreamImageRoot = pjoin(dataDir, 'RealworldQA_images')
  const imageRoot = io.mediaDir(upstreamImageRoot)
  const files = (await io.listDir(dataDir)).filter((f) => f.endsWith('.parquet')).sort()
  if (files.length === 0) throw new PyError('ValueError', `No parquet files found in ${dataDir}`)
  const data: Record<string, unknown>[] = []
  for (const f of files) data.push(...(await io.readParquet(pjoin(dataDir, f))))
  const out: Record<string, unknown>[] = []
  for (let idx = 0; idx < data.length; idx++) {
    const row = data[idx]
    const image = row.image as Record<string, unknown> | null
    if (!image || typeof image !== 'object' || !('bytes' in image)) continue
    const bytes = image.bytes as Uint8Array
    let url: string
    if (kwargs.image_type === undefined || kwargs.image_type === 'image_path') {
      url = pjoin(imageRoot, `image_${idx}.webp`)
      if (!(await io.exists(url))) await io.writeBytes(url, bytes)
    } else if (kwargs.image_type === 'image_base64') url = io.base64(bytes)
    else throw new PyError('ValueError', `Unsupported image_type: ${s(kwargs.image_type)}`)
    const question = formatKw(OPEN_PROMPT, { question: s(row.question) })
    out.push({
      content: AIS_TEXT_START + question + AIS_CONTENT_TAG + AIS_IMAGE_START + url + AIS_CONTENT_TAG,
      answer: row.answer
    })
  }
  return { ...fromList(out), upstreamImageRoot, imageRoot }
}

/** RefCOCODataset / RefCOCOgDataset / RefCOCOPlusDataset: one row per referring expression. */
export async function loadRefCOCO(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const resolved = await getDataPath(String(kwargs.path), io)
  const split = s(kwargs.split)
  const imageType = kwargs.image_type ?? 'path'
  if (imageType !== 'path' && imageType !== 'base64')
    throw new PyError('ValueError', `Unsupported image_type: ${s(imageType)}. Expected one of ['base64', 'path']`)
  const shards = ((await io.isDir(resolved)) ? await io.listDir(resolved) : [])
    .filter((f) => f.startsWith(`${split}-`) && f.endsWith('.parquet') && !f.startsWith('.'))
    .map((f) => pjoin(resolved, f))
    .sort()
  if (shards.length === 0)
    throw new PyError('FileNotFoundError', `No RefCOCO parquet shards found for split ${split} in ${resolved}`)
  const data: Record<string, unknown>[] = []
  for (const f of shards) data.push(...(await io.readParquet(f)))
  const upstreamImageRoot = imageType === 'path' ? pjoin(resolved, 'temp_save_images', split) : null
  const imageRoot = upstreamImageRoot ? io.mediaDir(upstreamImageRoot) : null
  const out: Record<string, unknown>[] = []
  for (let i = 0; i < data.length; i++) {
    const sample = data[i]
    const payload = sample.image as Record<string, unknown> | null
    if (!payload || typeof payload !== 'object' || !('bytes' in payload))
      throw new PyError(
        'ValueError',
        `RefCOCO row ${i} has invalid image payload: <class '${payload === null ? 'NoneType' : typeof payload}'>`
      )
    const bytes = payload.bytes as Uint8Array
    const { width, height } = await io.imageSize(bytes)
    let value: string
    if (imageRoot) {
      value = pjoin(imageRoot, s(sample.file_name))
      if (!(await io.exists(value))) await io.saveRgbJpeg(bytes, value)
    } else value = await io.reencodeImage(bytes, 'jpeg', { rgb: true })
    const raw = (sample.bbox as unknown[]).map((v) => (v instanceof PyFloat ? v.value : Number(v)))
    const [x, y, w, h] = raw
    const answer = jsonDumps({
      question_id: Math.trunc(Number(s(sample.question_id))),
      bbox: [x, y, x + w, y + h].map((n) => new PyFloat(n)),
      image_width: width,
      image_height: height
    })
    for (const text of sample.answer as unknown[]) {
      out.push({
        content: getContentStr([
          { type: 'image_url', image_url: value },
          { type: 'text', text: s(text) }
        ]),
        answer
      })
    }
  }
  return { ...fromList(out), upstreamImageRoot, imageRoot }
}

const MMMU_SUBSET_LIST = [
  'Accounting',
  'Agriculture',
  'Architecture_and_Engineering',
  'Art',
  'Art_Theory',
  'Basic_Medical_Science',
  'Biology',
  'Chemistry',
  'Clinical_Medicine',
  'Computer_Science',
  'Design',
  'Diagnostics_and_Laboratory_Medicine',
  'Economics',
  'Electronics',
  'Energy_and_Power',
  'Finance',
  'Geography',
  'History',
  'Literature',
  'Manage',
  'Marketing',
  'Materials',
  'Math',
  'Mechanical_Engineering',
  'Music',
  'Pharmacy',
  'Physics',
  'Psychology',
  'Public_Health',
  'Sociology'
]

function subsetOf(p: string): number {
  const i = MMMU_SUBSET_LIST.findIndex(
    (sub) => p.includes(`/${sub}/`) || p.includes(`/${sub}-`) || p.includes(`_${sub}_`)
  )
  return i < 0 ? MMMU_SUBSET_LIST.length : i
}

/** fnmatch of one glob segment (`*` and literal text only, as the MMMU patterns use). */
const globRe = (pattern: string): RegExp =>
  new RegExp(
    '^' +
      pattern
        .split('*')
        .map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*') +
      '$'
  )

async function walkFiles(root: string, io: LoaderIO): Promise<string[]> {
  const out: string[] = []
  const walk = async (d: string): Promise<void> => {
    for (const n of await io.listDir(d)) {
      if (n.startsWith('.')) continue
      const p = pjoin(d, n)
      if (await io.isDir(p)) await walk(p)
      else out.push(p)
    }
  }
  await walk(root)
  return out
}

async function findMmmuParquet(root: string, split: string, subsetList: unknown, io: LoaderIO): Promise<string[]> {
  if (!(await io.isDir(root))) {
    if (await io.exists(root)) {
      if (!root.toLowerCase().endsWith('.parquet'))
        throw new PyError('ValueError', `MMMU only supports local parquet files now, got: ${root}`)
      return [root]
    }
    throw new PyError('FileNotFoundError', `MMMU dataset path does not exist: ${root}`)
  }
  const subsets = Array.isArray(subsetList) && subsetList.length ? subsetList.map(String) : MMMU_SUBSET_LIST
  const splitPats = [`${split}-*.parquet`, `${split}.parquet`, `*${split}*.parquet`].map(globRe)
  const all = await walkFiles(root, io)
  const rel = (p: string): string => p.slice(root.replace(/\/+$/, '').length + 1)
  const found = new Set<string>()
  for (const sub of subsets) {
    for (const dir of [sub, `data/${sub}`, `${sub}/data`]) {
      for (const p of all) {
        const r = rel(p)
        if (pdirname(r) === dir && splitPats.some((re) => re.test(r.slice(dir.length + 1)))) found.add(p)
      }
    }
    const subPats = [
      `${split}-${sub}-*.parquet`,
      `${split}_${sub}_*.parquet`,
      `${sub}-${split}-*.parquet`,
      `${sub}_${split}_*.parquet`
    ].map(globRe)
    for (const p of all) {
      const r = rel(p)
      const parts = r.split('/')
      const base = parts[parts.length - 1]
      if (parts.length >= 2 && parts[parts.length - 2] === sub && splitPats.some((re) => re.test(base))) found.add(p)
      if (subPats.some((re) => re.test(base))) found.add(p)
    }
  }
  if (found.size === 0)
    for (const p of all) if (splitPats.some((re) => re.test(p.slice(p.lastIndexOf('/') + 1)))) found.add(p)
  return [...found].sort((a, b) => subsetOf(a) - subsetOf(b) || (a < b ? -1 : a > b ? 1 : 0))
}

function safeList(v: unknown): unknown[] {
  if (v === null || v === undefined || isNa(v)) return []
  if (Array.isArray(v)) return v
  if (typeof v === 'string') {
    const t = v.trim()
    if (!t) return []
    const parsed = pyLiteralList(t)
    return parsed ?? [t]
  }
  return [v]
}

/** ast.literal_eval of a list/tuple literal of strings and numbers; null when it is not one. */
function pyLiteralList(t: string): unknown[] | null {
  if (!/^[[(]/.test(t)) return null
  try {
    // Python string literals → JSON: only the common forms ('…', "…") are handled; anything else is "not a list".
    const json = t
      .replace(/^\(/, '[')
      .replace(/\)$/, ']')
      .replace(/'((?:[^'\\]|\\.)*)'/g, (_m, body: string) =>
        JSON.stringify(body.replace(/\\'/g, "'").replace(/\\\\/g, '\\'))
      )
    const v = JSON.parse(json)
    return Array.isArray(v) ? v : null
  } catch {
    return null
  }
}

const answerChar = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : String(i - 25))

export async function loadMMMU(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const split = kwargs.split === undefined ? 'validation' : s(kwargs.split)
  const resolved = await getDataPath(String(kwargs.path ?? 'ais_bench/datasets/mmmu'), io)
  const files = await findMmmuParquet(resolved, split, kwargs.subset_list, io)
  if (files.length === 0) {
    throw new PyError(
      'FileNotFoundError',
      `No MMMU parquet files found under ${resolved}. Expected files such as ${split}-*.parquet in subject subdirectories.`
    )
  }
  const records: Record<string, unknown>[] = []
  for (const f of files) {
    const sub = MMMU_SUBSET_LIST[subsetOf(f)]
    for (const r of await io.readParquet(f)) {
      if (sub && !('subject' in r)) r.subject = sub
      records.push(r)
    }
  }
  const baseDir = (await io.isDir(resolved)) ? resolved : pdirname(resolved)
  const upstreamImageRoot = pjoin(baseDir, 'MMMU_images')
  const imageRoot = io.mediaDir(upstreamImageRoot)
  const dataRoot = (await io.isDir(resolved)) ? resolved : pdirname(resolved)
  const out: Record<string, unknown>[] = []
  for (const record of records) {
    const question = s(get(record, 'question', '')).trim()
    if (!question) continue
    let options = safeList(record.options)
    const qtype = (record.question_type as string) || (options.length ? 'multiple-choice' : 'open')
    if (!options.length)
      options = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter((c) => c in record && !isNa(record[c])).map((c) => record[c])
    let prompt: string
    let answer: Record<string, unknown>
    const common = {
      split,
      subject: get(record, 'subject'),
      subfield: get(record, 'subfield'),
      category: get(record, 'category', get(record, 'subject')),
      'l2-category': get(record, 'l2-category', get(record, 'subfield'))
    }
    if (qtype === 'multiple-choice') {
      if (!kwargs.mult_choice_prompt)
        throw new PyError('ValueError', 'MMMU multiple-choice prompt template must be provided by dataset config.')
      prompt = formatKw(String(kwargs.mult_choice_prompt), {
        question,
        choices: options.map((c, i) => `${answerChar(i)}) ${s(c)}`).join('\n'),
        letters: options.map((_, i) => answerChar(i)).join(',')
      })
      const choices = Object.fromEntries(options.map((c, i) => [answerChar(i), s(c)]))
      answer = {
        type: 'multiple-choice',
        choices: jsonDumpsNoAscii(choices),
        answer: s(get(record, 'answer', '')).trim(),
        ...common
      }
    } else {
      if (!kwargs.open_prompt)
        throw new PyError('ValueError', 'MMMU open-question prompt template must be provided by dataset config.')
      prompt = formatKw(String(kwargs.open_prompt), { question })
      answer = { type: 'open', answer: s(get(record, 'answer', '')).trim(), ...common }
    }
    const imageMap = await collectMmmuImages(record, imageRoot, dataRoot, io)
    const msgs = parseMmmuText(prompt, imageMap)
    const keys = [...imageMap.keys()].sort((a, b) => a - b)
    out.push({
      content: getContentStr(msgs),
      question: prompt,
      image: keys.length ? imageMap.get(keys[0]) : '',
      answer
    })
  }
  return { ...fromList(out), upstreamImageRoot, imageRoot }
}

const jsonDumpsNoAscii = (v: unknown): string => jsonDumps(v, false)

function mmmuImagePath(record: Record<string, unknown>, n: number, root: string, suffix = '.png'): string {
  const stem = s(get(record, 'id', get(record, 'index', 'sample'))).replace(/[^0-9A-Za-z_.-]+/g, '_')
  return pjoin(root, `${stem}_${n}${suffix}`)
}

async function existingPath(p: unknown, dataRoot: string, imageRoot: string, io: LoaderIO): Promise<string | null> {
  if (!p) return null
  const str = s(p)
  const cands = [str]
  if (!str.startsWith('/')) cands.push(pjoin(dataRoot, str), pjoin(imageRoot, str))
  for (const c of cands) if (await io.exists(c)) return pabspath(c, io.cwd)
  return null
}

async function dumpMmmuImage(
  c: unknown,
  record: Record<string, unknown>,
  n: number,
  imageRoot: string,
  dataRoot: string,
  io: LoaderIO
): Promise<string | null> {
  if (c === null || c === undefined || isNa(c)) return null
  if (c instanceof Uint8Array) {
    const p = mmmuImagePath(record, n, imageRoot)
    await io.writeBytes(p, c)
    return p
  }
  if (typeof c === 'object' && !Array.isArray(c)) {
    const o = c as Record<string, unknown>
    const found = await existingPath(o.path, dataRoot, imageRoot, io)
    if (found) return found
    const bytes = o.bytes as Uint8Array | null
    if (bytes && bytes.length) {
      const suffix = psplitext(typeof o.path === 'string' ? o.path.slice(o.path.lastIndexOf('/') + 1) : '')[1] || '.png'
      const p = mmmuImagePath(record, n, imageRoot, suffix)
      await io.writeBytes(p, bytes)
      return p
    }
    return null
  }
  if (typeof c === 'string') {
    const found = await existingPath(c, dataRoot, imageRoot, io)
    if (found) return found
    const p = mmmuImagePath(record, n, imageRoot)
    try {
      await io.saveBase64Image(c, p)
      return p
    } catch {
      return null
    }
  }
  return null
}

async function collectMmmuImages(
  record: Record<string, unknown>,
  imageRoot: string,
  dataRoot: string,
  io: LoaderIO
): Promise<Map<number, string>> {
  const map = new Map<number, string>()
  for (let n = 1; n < 8; n++) {
    const p = await dumpMmmuImage(record[`image_${n}`], record, n, imageRoot, dataRoot, io)
    if (p) map.set(n, p)
  }
  for (const key of ['image', 'image_path']) {
    if (map.size) break
    const cands = safeList(record[key])
    for (let i = 0; i < cands.length; i++) {
      const p = await dumpMmmuImage(cands[i], record, i + 1, imageRoot, dataRoot, io)
      if (p) map.set(i + 1, p)
    }
  }
  return map
}

/** _parse_mmmu_text_with_images: `<image N>` / `<image_N>` tags become pictures; blank text between tags dropped. */
function parseMmmuText(text: string, imageMap: Map<number, string>): Msg[] {
  const msgs: Msg[] = []
  const re = /<image[_ ](\d+)>/g
  let last = 0
  let found = false
  for (let m = re.exec(text); m; m = re.exec(text)) {
    found = true
    if (m.index > last) {
      const seg = text.slice(last, m.index)
      if (seg.trim()) msgs.push({ type: 'text', text: seg })
    }
    const n = Number.parseInt(m[1], 10)
    const p = imageMap.get(n)
    if (p !== undefined) msgs.push({ type: 'image_url', image_url: p })
    last = m.index + m[0].length
  }
  if (last < text.length) {
    const seg = text.slice(last)
    if (seg.trim()) msgs.push({ type: 'text', text: seg })
  }
  if (!found && imageMap.size) {
    const keys = [...imageMap.keys()].sort((a, b) => a - b)
    return [...keys.map((k) => ({ type: 'image_url' as const, image_url: imageMap.get(k)! })), ...msgs]
  }
  return msgs
}
