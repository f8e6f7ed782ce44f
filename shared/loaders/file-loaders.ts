// AISBench loaders over plain files and folders: TEXTVQADataset (textvqa.py), VocalSoundDataset (vocalsound.py),
// VideoBenchDataset (videobench.py), OmniDocBenchDataset (omnidocbench/omnidocbench.py). Each keeps upstream's
// path handling: paths as written in the data, the answer of VocalSound from the full path.
import { pillowPng } from '../media/pillow-png'
import { parsePyJson } from '../python/json'
import { AIS_AUDIO_START, AIS_CONTENT_TAG, AIS_IMAGE_START, AIS_TEXT_START, AIS_VIDEO_START } from './ais-content'
import { fromList } from './from-list'
import { type LoaderIO, MissingTool, getDataPath, pabspath, pjoin, psplitext } from './io'
import { jsonLoadsLine, pyLines } from './mm-custom'
import { PyError, keyError } from './py'
import type { LoaderResult } from './types'

const plain = (rows: Record<string, unknown>[]): LoaderResult => ({
  ...fromList(rows),
  upstreamImageRoot: null,
  imageRoot: null
})

function jsonLoad(text: string): unknown {
  try {
    return parsePyJson(text)
  } catch (e) {
    throw new PyError('JSONDecodeError', e instanceof Error ? e.message : String(e))
  }
}

/** Python dict key lookup on a parsed JSON object (ints and strs are different keys there, one kind in JSON). */
const hasKey = (o: unknown, k: unknown): boolean =>
  !!o && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, String(k))

export async function loadTextVQA(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  const parts = path.split('/')
  const prefix = parts.slice(0, -1).join('/')
  const gtPath = pjoin(prefix, parts[parts.length - 1].split('.')[0] + '_annotations.json')
  const gt = new Map<string, unknown>()
  const key = (v: unknown): string => `${typeof v}:${String(v)}`
  // The shapes TextVQA's files have (upstream indexes them without checks, as the loops below do).
  const ann = jsonLoad(await io.readText(gtPath)) as { annotations: Array<{ question_id?: unknown; answers?: unknown }> }
  if (!hasKey(ann, 'annotations')) throw keyError('annotations')
  for (const item of ann.annotations) gt.set(key(item.question_id ?? null), item.answers ?? null)
  const out: Record<string, unknown>[] = []
  for (const l of pyLines(await io.readText(path))) {
    const line = jsonLoadsLine(l) as Record<string, unknown> & { image: string; question: string }
    const k = key(line.question_id)
    if (!('question_id' in line) || !gt.has(k)) throw new PyError('ValueError', 'Please check your dataset!')
    line.answer = gt.get(k)
    let imageUrl: string
    if (kwargs.image_type === 'image_path') imageUrl = line.image
    else if (kwargs.image_type === 'image_base64')
      imageUrl = io.base64(await io.readBytes(pabspath(String(line.image), io.cwd)))
    else
      throw new PyError(
        'UnboundLocalError',
        "cannot access local variable 'image_url' where it is not associated with a value"
      )
    line.image_url = imageUrl
    line.content = AIS_IMAGE_START + imageUrl + AIS_CONTENT_TAG + AIS_TEXT_START + line.question + AIS_CONTENT_TAG
    out.push(line)
  }
  return plain(out)
}

const VOCAL_QUESTION =
  'In this audio, what kind of sound can you hear? ' +
  'A: Laughter, B: Sigh, C: Cough, D: Throat clearing, E: Sneeze, F: Sniff, ' +
  'Please select the one closest to the correct answer. ASSISTANT:'

/** Path.glob('*<suffix>') in directory order. */
async function globSuffix(dir: string, suffix: string, io: LoaderIO): Promise<string[]> {
  if (!(await io.isDir(dir))) return []
  return (await io.listDir(dir)).filter((n) => n.endsWith(suffix) && !n.startsWith('.')).map((n) => pjoin(dir, n))
}

export async function loadVocalSound(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = (await getDataPath(String(kwargs.path), io)).replace(/\/+$/, '')
  const out: Record<string, unknown>[] = []
  for (const file of await globSuffix(path, '.wav', io)) {
    const pieces = psplitext(file)[0].split('_')
    const answer = pieces[pieces.length - 1]
    let audioUrl: string
    if (kwargs.audio_type === 'audio_path') audioUrl = file
    else if (kwargs.audio_type === 'audio_base64') audioUrl = io.base64(await io.readBytes(file))
    else throw new PyError('ValueError', 'Please check your datasets!')
    const content = AIS_AUDIO_START + audioUrl + AIS_CONTENT_TAG + AIS_TEXT_START + VOCAL_QUESTION + AIS_CONTENT_TAG
    out.push({ audio_url: audioUrl, content, answer })
  }
  return plain(out)
}

const TEXT_MAP: Record<number, string> = { 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six' }

/**
 * np.linspace(0, stop, num, dtype=int): arange(num) × (stop / (num - 1)) + start, the last set to stop, floored
 * (numpy 2). Adding the start (0) as numpy does turns 0 × a negative step's -0 into 0.
 */
export function linspaceInt(stop: number, num: number): number[] {
  if (num <= 0) return []
  if (num === 1) return [0]
  const step = stop / (num - 1)
  return Array.from({ length: num }, (_, i) => Math.floor(i === num - 1 ? stop : i * step + 0))
}

/**
 * VideoAsset(video_path, num_frames).pil_images, each image_to_base64'd (datasets/utils/video.py): num_frames
 * positions spread over CAP_PROP_FRAME_COUNT, the frames grabbed at them (a position listed twice gives one frame),
 * each saved by Pillow as PNG, joined with ",".
 */
async function videoBase64Frames(path: string, numFrames: number, io: LoaderIO): Promise<string> {
  const total = await io.videoFrameCount(path)
  const num = numFrames > 0 ? numFrames : total
  const wanted = new Set(linspaceInt(total - 1, num))
  const positions = Array.from({ length: Math.max(0, total) }, (_, i) => i).filter((i) => wanted.has(i))
  const frames = await io.videoFrames(path, positions)
  if (!frames.length) throw new PyError('ValueError', 'need at least one array to stack')
  if (frames.length < num)
    throw new PyError('ValueError', `Could not read enough frames from video file ${path} (expected ${num} frames, got ${frames.length})`)
  return frames.map((f) => io.base64(pillowPng(f, io.deflate))).join(',')
}

export async function loadVideoBench(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  const ansPath = path + '/answer/ANSWER.json'
  if (!(await io.exists(ansPath)))
    throw new PyError('FileNotFoundError', 'Cannot find answer file, Please check your datasets!')
  // The shapes Video-Bench's files have; a row that differs is the ValueError below, as upstream's except makes it.
  const answers = jsonLoad(await io.readText(ansPath)) as Record<string, Record<string, unknown>>
  const out: Record<string, unknown>[] = []
  for (const sub of await globSuffix(path.replace(/\/+$/, ''), 'new.json', io)) {
    const data = jsonLoad(await io.readText(sub)) as Record<string, { vid_path: string; choices: unknown; question: unknown; video_id: unknown }>
    for (const key of Object.keys(data)) {
      try {
        const d = data[key]
        const vp = String(d.vid_path).split('/')
        const datasetName = vp[vp.length - 2]
        if (datasetName === undefined || !hasKey(answers, datasetName) || !hasKey(answers[datasetName], key))
          throw new Error('missing answer')
        const answer = answers[datasetName][key]
        const choices = Object.entries(d.choices as Record<string, unknown>).filter(([, v]) => v !== null)
        let prompt = choices.length === 6 ? 'Choices: ' : ' '
        for (const [k, v] of choices) {
          if (typeof v !== 'string') throw new Error('choice not a str')
          prompt += k + '.' + v + ' '
        }
        prompt += `\n Among the ${TEXT_MAP[choices.length] ?? 'None'} options ${choices.map(([k]) => k).join(', ')} above, the one closest to the correct answer is:`
        if ([2, 3, 5].includes(choices.length)) prompt += ' '
        let videoUrl: string
        if (kwargs.video_type === 'video_path') videoUrl = d.vid_path
        else if (kwargs.video_type === 'video_base64')
          videoUrl = await videoBase64Frames(String(d.vid_path), Number(kwargs.num_frames ?? 5), io)
        else throw new Error('video_type must be video_path or video_base64')
        if (typeof d.question !== 'string') throw new Error('question not a str')
        const content =
          AIS_VIDEO_START + videoUrl + AIS_CONTENT_TAG + AIS_TEXT_START + d.question + prompt + AIS_CONTENT_TAG
        out.push({
          video_url: videoUrl,
          video_id: String(d.video_id),
          question: d.question,
          choices_prompt: prompt,
          content,
          answer
        })
      } catch (e) {
        if (e instanceof MissingTool) throw e
        throw new PyError('ValueError', 'Please check your datasets!')
      }
    }
  }
  return plain(out)
}

export async function loadOmniDocBench(kwargs: Record<string, unknown>, io: LoaderIO): Promise<LoaderResult> {
  const path = await getDataPath(String(kwargs.path), io)
  // OmniDocBench's file: a list of page dicts, each with page_info.image_path (upstream does not check either).
  const data = jsonLoad(await io.readText(path)) as Array<Record<string, unknown> & { page_info: { image_path: unknown } }>
  const out: Record<string, unknown>[] = []
  for (const item of data) {
    item.answer = { ...item }
    const url = pabspath(pjoin(String(kwargs.image_path), String(item.page_info.image_path)), io.cwd)
    item.content = AIS_IMAGE_START + url + AIS_CONTENT_TAG + AIS_TEXT_START + 'Parse the image' + AIS_CONTENT_TAG
    out.push(item)
  }
  return plain(out)
}
