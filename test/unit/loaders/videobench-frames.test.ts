// VideoBenchDataset with video_type="video_base64" as the app opens it (#9): frames decoded by the system's ffmpeg
// as OpenCV's FFmpeg backend decodes them (main/services/media/video-frames.ts), picked as
// datasets/utils/video.py picks them (np.linspace over CAP_PROP_FRAME_COUNT), each written as Pillow writes a PNG;
// without ffmpeg, one problem that names it. The byte equality with upstream's frames is the conformance golden
// ais-load-videobench-002; these tests make their own MPEG-4 clip with ffmpeg.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import { Workspace } from '../../../main/services/workspace/workspace'
import { linspaceInt } from '../../../shared/loaders/file-loaders'

const host: Host = {
  mode: 'browser',
  mediaUrl: (p) => `/media?path=${encodeURIComponent(p)}`,
  pickSavePath: async () => null,
  offerDownload: (p) => `/download/${encodeURIComponent(p)}`,
  emit: () => undefined
}

const CONFIG = (numFrames: number) => `from ais_bench.benchmark.openicl.icl_prompt_template.icl_prompt_template_mm import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.datasets import VideoBenchDataset
reader_cfg = dict(input_columns=['question', 'video'], output_column='answer')
infer_cfg = dict(
    prompt_template=dict(type=MMPromptTemplate, template=dict(round=[dict(role="HUMAN", prompt_mm={
        "text": {"type": "text", "text": "{question}"},
        "video": {"type": "video_url", "video_url": {"url": "data:video/jpeg;base64,{video}"}},
    })])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer))
videobench_datasets = [dict(abbr='videobench', type=VideoBenchDataset, path='../data/videobench', video_type="video_base64",
    num_frames=${numFrames}, reader_cfg=reader_cfg, infer_cfg=infer_cfg)]
`

const dirs: string[] = []
const spaces: Workspace[] = []
afterEach(() => {
  for (const w of spaces.splice(0)) w.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A project over a 7-frame 32×24 MPEG-4 Part 2 clip (ffmpeg's test pattern) asking for `numFrames` frames. */
function project(numFrames: number): { dir: string; clip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pl-videobench-'))
  dirs.push(dir)
  const vb = join(dir, 'data', 'videobench')
  mkdirSync(join(vb, 'answer'), { recursive: true })
  mkdirSync(join(vb, 'videos', 'MSVD'), { recursive: true })
  const clip = join(vb, 'videos', 'MSVD', '0001.mp4')
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=32x24:rate=5', '-frames:v', '7', '-c:v', 'mpeg4', '-pix_fmt', 'yuv420p', clip])
  writeFileSync(join(vb, 'answer', 'ANSWER.json'), JSON.stringify({ MSVD: { v_1: 'A' } }))
  const item = { vid_path: clip, video_id: '0001', question: 'What is shown?', choices: { A: 'bars', B: 'faces' } }
  writeFileSync(join(vb, 'MSVD_QA_new.json'), JSON.stringify({ v_1: item }))
  mkdirSync(join(dir, 'configs'))
  writeFileSync(join(dir, 'configs', 'vb.py'), CONFIG(numFrames))
  writeFileSync(join(dir, 'project.json'), JSON.stringify({ name: 'vb', dataset: 'data/videobench', config: 'configs/vb.py', models: [] }))
  return { dir, clip }
}

/** The RGB pixels of a PNG Pillow wrote (8-bit RGB, filters None/Sub/Up/Average/Paeth). */
function pngPixels(png: Buffer): { width: number; height: number; rgb: Buffer } {
  const width = png.readUInt32BE(16)
  const height = png.readUInt32BE(20)
  const idat: Buffer[] = []
  for (let p = 8; p < png.length; ) {
    const n = png.readUInt32BE(p)
    if (png.toString('latin1', p + 4, p + 8) === 'IDAT') idat.push(png.subarray(p + 8, p + 8 + n))
    p += 12 + n
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * 3
  const rgb = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]
    for (let x = 0; x < stride; x++) {
      const a = x >= 3 ? rgb[y * stride + x - 3] : 0
      const b = y ? rgb[(y - 1) * stride + x] : 0
      const c = x >= 3 && y ? rgb[(y - 1) * stride + x - 3] : 0
      const pa = Math.abs(b - c)
      const pb = Math.abs(a - c)
      const pc = Math.abs(a + b - 2 * c)
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      const pred = [0, a, b, (a + b) >> 1, paeth][f]
      rgb[y * stride + x] = (raw[y * (stride + 1) + 1 + x] + pred) & 255
    }
  }
  return { width, height, rgb }
}

async function open(dir: string) {
  const ws = new Workspace(host, { curation: 'memory' })
  spaces.push(ws)
  const summary = await ws.session.open(dir)
  return { ws, summary }
}

describe('VideoBenchDataset video_base64', () => {
  it('frame positions are numpy 2.2\'s np.linspace(0, total - 1, num, dtype=int), floored: 7 frames, 3 asked → 0, 3, 6; 6 frames, 8 asked → 0, 0, 1, 2, 2, 3, 4, 5; none, 3 asked → 0, -1, -1', () => {
    expect(linspaceInt(6, 3)).toEqual([0, 3, 6])
    expect(linspaceInt(5, 8)).toEqual([0, 0, 1, 2, 2, 3, 4, 5])
    expect(linspaceInt(-1, 3)).toEqual([0, -1, -1])
  })

  it('the row holds the frames at 0, 3 and 6 as PNG base64 joined with ",", each the BGR frame turned to RGB', async () => {
    const { dir, clip } = project(3)
    const { ws } = await open(dir)
    const r = await ws.render.row({ index: 0, variantId: 'videobench', modelIds: [] })
    const frames = String(r.fields.video_url).split(',')
    expect(frames).toHaveLength(3)
    // What ffmpeg itself gives for those frames as RGB with OpenCV's conversion (bicubic swscale, BT.601).
    const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', clip, '-sws_flags', 'bicubic', '-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1'])
    const size = 32 * 24 * 3
    ;[0, 3, 6].forEach((n, i) => {
      const png = pngPixels(Buffer.from(frames[i], 'base64'))
      expect([png.width, png.height]).toEqual([32, 24])
      expect(png.rgb.equals(raw.subarray(n * size, (n + 1) * size))).toBe(true)
    })
    expect(r.fields.content).toBe(`<AIS_VIDEO_START>${r.fields.video_url}<AIS_CONTENT_TAG><AIS_TEXT_START>What is shown? A.bars B.faces \n Among the two options A, B above, the one closest to the correct answer is: <AIS_CONTENT_TAG>`)
  })

  it('asking for more frames than the clip holds fails as upstream does: the rows are the file as it is, with the error', async () => {
    const { dir } = project(9)
    const { summary } = await open(dir)
    expect(summary.problems).toContainEqual(expect.objectContaining({ code: 'loader-failed', message: expect.stringContaining('Please check your datasets!') }))
  })

  it('without ffmpeg on PATH, one problem names what is missing', async () => {
    const { dir } = project(3)
    const path = process.env.PATH
    process.env.PATH = join(dir, 'no-tools')
    try {
      const { summary } = await open(dir)
      const p = summary.problems.find((x) => x.code === 'loader-needs-tool')
      expect(p?.message).toMatch(/VideoBenchDataset\.load\(\) with these options needs ffmpeg/)
      expect(summary.problems.some((x) => x.code === 'loader-failed')).toBe(false)
    } finally {
      process.env.PATH = path
    }
  })
})
