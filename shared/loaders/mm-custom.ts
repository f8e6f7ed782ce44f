// MMCustomDataset (datasets/mm_custom.py): AISBench's own multimodal JSONL, {"type", "path": [...], "question",
// …}. load() builds `content` from the paths (as written, or base64 of the file bytes) and ends with the text
// segment, without a closing tag. check_mm_custom refuses a line without type/path or of another type.
import { parsePyJson } from '../python/json'
import { AIS_AUDIO_START, AIS_CONTENT_TAG, AIS_IMAGE_START, AIS_TEXT_START, AIS_VIDEO_START } from './ais-content'
import { fromList } from './from-list'
import { type LoaderIO, getDataPath, pabspath } from './io'
import { PyError, keyError } from './py'
import type { LoaderResult } from './types'

const TAG: Record<string, string> = { image: AIS_IMAGE_START, video: AIS_VIDEO_START, audio: AIS_AUDIO_START }
const CFG_008 = 'UTILS-CFG-008'

/** Python's `for line in f` over text: lines keep their newline; a final line without one still counts. */
export function pyLines(text: string): string[] {
  const out: string[] = []
  let i = 0
  while (i < text.length) {
    const nl = text.indexOf('\n', i)
    const end = nl < 0 ? text.length : nl + 1
    out.push(text.slice(i, end))
    i = end
  }
  return out
}

/** json.loads(line.strip()) with Python's message for an empty or broken line. */
export function jsonLoadsLine(line: string): unknown {
  const s = line.trim()
  try {
    return parsePyJson(s)
  } catch {
    if (s === '') throw new PyError('JSONDecodeError', 'Expecting value: line 1 column 1 (char 0)')
    throw new PyError('JSONDecodeError', 'Expecting value')
  }
}

function invalid(path: string): PyError {
  return new PyError(
    'AISBenchConfigError',
    `[${CFG_008}]invalid mm custom dataset. Invalid dataset: ${path} , please check whether the dataset is a MM-style dataset!`,
    { code: CFG_008 }
  )
}

export async function loadMMCustom(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  const mmType = kwargs.mm_type
  const text = await io.readText(path)
  const lines = pyLines(text)
  for (const l of lines) {
    const o = jsonLoadsLine(l)
    if (
      !o ||
      typeof o !== 'object' ||
      !('type' in o) ||
      !('path' in o) ||
      !['image', 'video', 'audio'].includes(o.type as string)
    )
      throw invalid(path)
  }
  const out: Record<string, unknown>[] = []
  for (const l of lines) {
    // Checked above: a dict with a media `type` and a `path` (a list of files, by the format).
    const line = jsonLoadsLine(l) as Record<string, unknown> & { type: string; path: unknown[] }
    let content = ''
    const kind = line.type
    if (mmType === 'path') {
      for (const p of line.path) content += TAG[kind] + p + AIS_CONTENT_TAG
    } else if (mmType === 'base64') {
      for (const p of line.path) {
        if (kind === 'video') {
          throw new PyError(
            'NotImplementedError',
            'MMCustomDataset mm_type="base64" for video decodes frames with OpenCV, which PromptLoom does not reproduce'
          )
        }
        content += TAG[kind] + io.base64(await io.readBytes(pabspath(String(p), io.cwd))) + AIS_CONTENT_TAG
      }
    } else {
      throw new PyError(
        'AISBenchConfigError',
        `[${CFG_008}]invalid mm custom dataset. Param 'mm_type' does not match the data type of dataset: ${path} , please check it!`,
        { code: CFG_008 }
      )
    }
    if (!('question' in line)) throw keyError('question')
    content += AIS_TEXT_START + line.question
    line.content = content
    out.push(line)
  }
  return { ...fromList(out), upstreamImageRoot: null, imageRoot: null }
}
