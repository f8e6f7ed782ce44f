// AISBench's loaders over VLMEvalKit TSVs: MMStarDataset (mmstar.py), MMMUProVisionDataset and
// MMMUProOptions10Dataset (mmmu_pro.py), DocVQADataset and InfoVQADataset (docvqa.py, infovqa.py). Each reads the
// TSV (readVlmTsv), dumps the pictures (dumpImage) and builds `content` and `answer` exactly as its load() does.
import { AIS_CONTENT_TAG, AIS_IMAGE_START, AIS_TEXT_START, type Msg, getContentStr, splitMMMU } from './ais-content'
import { fromList } from './from-list'
import { type LoaderIO, getDataPath, pdirname, pjoin } from './io'
import { PyError, cellStr, isNa, jsonDumps } from './py'
import type { LoaderResult } from './types'
import { type TsvRow, buildChoices, dumpImage, readVlmTsv, type VlmTsvOptions } from './vlmeval-tsv'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** `prompt += line[k]`: str + non-str raises upstream's TypeError. */
function strCell(v: unknown): string {
  if (typeof v === 'string') return v
  throw new PyError(
    'TypeError',
    `can only concatenate str (not "${isNa(v) ? 'float' : typeof v === 'number' ? 'int' : typeof v}") to str`
  )
}

function optionsOf(line: TsvRow): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = []
  for (const c of LETTERS) if (line.has(c) && !isNa(line.get(c))) out.push([c, line.get(c)])
  return out
}

function hintOf(line: TsvRow): string | null {
  return line.has('hint') && !isNa(line.get('hint')) ? cellStr(line.get('hint')) : null
}

const choicesObj = (line: TsvRow): Record<string, unknown> => Object.fromEntries(buildChoices(line))

async function vlmRows(
  kwargs: Record<string, unknown>,
  io: LoaderIO,
  folder: string,
  opts: VlmTsvOptions,
  build: (line: TsvRow, tgt: string | string[]) => Record<string, unknown>
): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  const upstreamImageRoot = pjoin(pdirname(path), folder)
  const imageRoot = io.mediaDir(upstreamImageRoot)
  const { rows } = await readVlmTsv(path, io, opts)
  const out: Record<string, unknown>[] = []
  for (const line of rows) out.push(build(line, await dumpImage(line, imageRoot, io)))
  return { ...fromList(out), upstreamImageRoot, imageRoot }
}

export const loadMMStar = (kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> =>
  vlmRows(kwargs, io, 'MMStar_images', {}, (line, tgt) => {
    const options = optionsOf(line)
    let optionsPrompt = 'Options:\n'
    for (const [k, v] of options) optionsPrompt += `${k}. ${cellStr(v)}\n`
    const hint = hintOf(line)
    let prompt = ''
    if (hint !== null) prompt += `Hint: ${hint}\n`
    prompt += strCell(line.get('question'))
    if (options.length) {
      prompt += optionsPrompt
      prompt += 'Please select the correct answer from the options above. \n'
    }
    const first = Array.isArray(tgt) ? tgt[0] : tgt
    const content = AIS_IMAGE_START + first + AIS_CONTENT_TAG + AIS_TEXT_START + prompt + AIS_CONTENT_TAG
    const get = (k: string) => (line.has(k) ? line.get(k) : null)
    return {
      content,
      answer: {
        choices: jsonDumps(choicesObj(line)),
        answer: line.get('answer'),
        split: get('split'),
        'l2-category': get('l2-category'),
        category: get('category')
      }
    }
  })

const COT_10 =
  "Answer the following multiple-choice question. The last line of your response should be of the following format: 'Answer: $LETTER' (without quotes) where LETTER is one of the options. Think step by step before answering. "
const COT_V =
  "The last line of your response should be of the following format: 'Answer: $LETTER' (without quotes) where LETTER is one of the options. Think step by step before answering. "

const proAnswer = (line: TsvRow): string => jsonDumps([choicesObj(line), line.get('answer'), line.get('category')])

export const loadMMMUProOptions10 = (kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> =>
  vlmRows(kwargs, io, 'MMMU_Pro_options10_images', { skipMissingRef: true }, (line, tgt) => {
    const options = optionsOf(line)
    let optionsPrompt = 'Options:\n'
    for (const [k, v] of options) optionsPrompt += `${k}. ${cellStr(v)}\n`
    const hint = hintOf(line)
    let prompt = ''
    if (hint !== null) prompt += `Hint: ${hint}\n`
    prompt += `Question: ${cellStr(line.get('question'))}\n`
    if (options.length) {
      prompt += optionsPrompt
      prompt += kwargs.is_cot ? COT_10 : 'Answer directly with the option letter from the given choices. '
    }
    const msgs: Msg[] = (Array.isArray(tgt) ? tgt : [tgt]).map((p) => ({ type: 'image_url', image_url: p }))
    msgs.push({ type: 'text', text: prompt })
    return { content: getContentStr(splitMMMU(msgs)), answer: proAnswer(line) }
  })

export const loadMMMUProVision = (kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> =>
  vlmRows(kwargs, io, 'MMMU_Pro_vision_images', {}, (line, tgt) => {
    let question = 'Answer the following multiple-choice question in the image. '
    question += kwargs.is_cot ? COT_V : 'Answer directly with the option letter from the given choices. '
    const msgs: Msg[] = [
      { type: 'image_url', image_url: Array.isArray(tgt) ? tgt[0] : tgt },
      { type: 'text', text: question }
    ]
    return { content: getContentStr(splitMMMU(msgs)), answer: proAnswer(line) }
  })

const vqa =
  (folder: string) =>
  (kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> =>
    vlmRows(kwargs, io, folder, { indexAsStr: true }, (line, tgt) => {
      const prompt = strCell(line.get('question')) + '\nAnswer the question using a single word or phrase.'
      const msgs: Msg[] = (Array.isArray(tgt) ? tgt : [tgt]).map((p) => ({ type: 'image_url', image_url: p }))
      msgs.push({ type: 'text', text: prompt })
      return { content: getContentStr(msgs), answer: line.get('answer') }
    })

export const loadDocVQA = vqa('DocVQA_images')
export const loadInfoVQA = vqa('InfoVQA_images')
