// Video frames as AISBench reads them (datasets/utils/video.py video_to_ndarrays: cv2.VideoCapture with OpenCV's
// FFmpeg backend), decoded by the system's ffmpeg, which the offline app does not ship: without it the caller gets
// MissingTool and says so. OpenCV's cap_ffmpeg_impl.hpp, reproduced here:
//  - CAP_PROP_FRAME_COUNT is get_total_frames(): the first video stream's nb_frames, or when the container has none
//    floor(duration × fps + 0.5) (format duration, else the stream's; avg_frame_rate, else 1 / time_base).
//  - each frame is converted by swscale to BGR24 with SWS_BICUBIC and no colorspace details set, so BT.601
//    coefficients and the range the pixel format implies (full only for yuvj*), whatever the stream is tagged.
//    ffmpeg's scale filter would follow the tags: the matrix and range are passed explicitly.
//  - frames are counted in decoding output order from 0 (grab()), as ffmpeg's select filter counts `n`.
// Checked byte for byte against upstream's frames on the AISBench golden (an MPEG-4 Part 2 clip; MPEG-4 decoding is
// bit-exact); other codecs whose decoders are not bit-exact across FFmpeg builds may differ from OpenCV's bundled one.
import { execFile } from 'node:child_process'
import { MissingTool } from '../../../shared/loaders/io'

function run(tool: string, args: string[], maxBuffer: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { encoding: 'buffer', maxBuffer }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') reject(new MissingTool(`ffmpeg (${tool} was not found on PATH; install the system's ffmpeg, e.g. apt-get install ffmpeg, to decode video frames as OpenCV does)`))
      else if (err) reject(new Error(`${tool} failed: ${stderr.toString().trim() || err.message}`))
      else resolve(stdout)
    })
  })
}

interface Probe {
  width: number
  height: number
  pixFmt: string
  /** Degrees of the display matrix (ffmpeg and OpenCV both turn the picture upright). */
  rotation: number
  total: number
}

const ratio = (s: string | undefined): number => {
  const [n, d] = String(s ?? '0/1').split('/').map(Number)
  return d ? n / d : 0
}

async function probe(file: string): Promise<Probe> {
  const out = await run(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,pix_fmt,nb_frames,avg_frame_rate,time_base,duration:stream_side_data=rotation:format=duration', '-of', 'json', file],
    1 << 20
  )
  const j = JSON.parse(out.toString('utf8')) as { streams?: Array<Record<string, unknown>>; format?: { duration?: string } }
  const s = j.streams?.[0]
  if (!s) return { width: 0, height: 0, pixFmt: '', rotation: 0, total: 0 }
  let total = Number(s.nb_frames ?? 0) || 0
  if (total === 0) {
    const eps = 0.000025
    let sec = Number(j.format?.duration ?? 0) || 0
    if (sec < eps) sec = (Number(s.duration ?? 0) || 0)
    let fps = ratio(s.avg_frame_rate as string)
    if (fps < eps) fps = 1 / (ratio(s.time_base as string) || 1)
    total = Math.floor(sec * fps + 0.5)
  }
  const side = (s.side_data_list as Array<{ rotation?: number }> | undefined)?.find((x) => typeof x.rotation === 'number')
  return { width: Number(s.width), height: Number(s.height), pixFmt: String(s.pix_fmt ?? ''), rotation: side?.rotation ?? 0, total }
}

/** cv2.VideoCapture(path).get(cv2.CAP_PROP_FRAME_COUNT) as an int. */
export async function opencvFrameCount(file: string): Promise<number> {
  return (await probe(file)).total
}

/**
 * The frames at these decoding positions, as RGB bytes (cv2.cvtColor(frame, COLOR_BGR2RGB)), in order; positions past
 * the last decodable frame are missing, as OpenCV's grab() loop stops there.
 */
export async function opencvFramesRgb(file: string, positions: number[]): Promise<{ width: number; height: number; frames: Uint8Array[] }> {
  const p = await probe(file)
  const upright = Math.abs(p.rotation) % 180 === 90
  const width = upright ? p.height : p.width
  const height = upright ? p.width : p.height
  if (!positions.length || !(width > 0 && height > 0)) return { width, height, frames: [] }
  const select = `select='${positions.map((n) => `eq(n\\,${n})`).join('+')}'`
  const scale = `scale=flags=bicubic:in_color_matrix=bt601:in_range=${p.pixFmt.startsWith('yuvj') ? 'pc' : 'tv'}`
  const size = width * height * 3
  const raw = await run(
    'ffmpeg',
    ['-v', 'error', '-nostdin', '-i', file, '-map', '0:v:0', '-vf', `${select},${scale}`, '-fps_mode', 'passthrough', '-pix_fmt', 'bgr24', '-f', 'rawvideo', 'pipe:1'],
    size * positions.length + (1 << 20)
  )
  const frames: Uint8Array[] = []
  for (let at = 0; at + size <= raw.length; at += size) {
    const rgb = new Uint8Array(size)
    for (let i = 0; i < size; i += 3) {
      rgb[i] = raw[at + i + 2]
      rgb[i + 1] = raw[at + i + 1]
      rgb[i + 2] = raw[at + i]
    }
    frames.push(rgb)
  }
  return { width, height, frames }
}
