// The file system, picture codec (sharp), video decoder (the system's ffmpeg) and Parquet reader behind shared/loaders. Pictures a loader would
// write beside the data go to the media cache folder instead (mediaDir), so source folders are never written.
import { createHash } from 'node:crypto'
import { access, mkdir, opendir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { inflateSync } from 'node:zlib'
import type { Metadata, Sharp, SharpOptions } from 'sharp'
import { sharp } from '../media/sharp'
import type { LoaderIO } from '../../../shared/loaders'
import { MissingTool, type DecodedPicture } from '../../../shared/loaders/io'
import { opencvFrameCount, opencvFramesRgb } from '../media/video-frames'
import { zlibDeflate } from '../../../shared/formats/zlib-deflate'
import { pillowModePng } from '../../../shared/media/png-modes'
import { jpegComment, withJpegComment } from '../../../shared/media/jpeg-comment'
import { PyError } from '../../../shared/loaders'
import { openParquet, parquetMediaFeatures, readParquetRows } from '../datasets/parquet-source'

const B64 = /[^A-Za-z0-9+/=]/g

/** base64.b64decode (non-strict): characters outside the alphabet are discarded; bad padding is an error. */
export function pyB64decode(s: string): Buffer {
  const clean = s.replace(B64, '')
  const body = clean.replace(/=+$/, '')
  if (body.includes('=')) throw new PyError('Error', 'Incorrect padding')
  const n = body.length
  if (n % 4 === 1)
    throw new PyError(
      'Error',
      `Invalid base64-encoded string: number of data characters (${n}) cannot be 1 more than a multiple of 4`
    )
  if (n % 4 !== 0 && clean.length - n < 4 - (n % 4)) throw new PyError('Error', 'Incorrect padding')
  return Buffer.from(body, 'base64')
}

/** Pillow's mode of a decoded picture, from what sharp reports. */
export function pillowMode(md: Metadata): string {
  if (md.isPalette) return 'P'
  switch (md.channels) {
    case 1:
      return 'L'
    case 2:
      return 'LA'
    case 4:
      return md.space === 'cmyk' ? 'CMYK' : 'RGBA'
    default:
      return 'RGB'
  }
}

const FORMAT_OF_EXT: Record<string, 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff'> = {
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.png': 'png',
  '.webp': 'webp',
  '.gif': 'gif',
  '.tif': 'tiff',
  '.tiff': 'tiff'
}

/**
 * Pillow's JPEG (Image.save(fp, "JPEG") with no options): libjpeg-turbo baseline, quality 75, 4:2:0, islow DCT,
 * standard Huffman tables. sharp's libjpeg (mozjpeg in libjpeg-turbo mode) gives the same entropy-coded data with
 * these settings; libvips leaves out the JFIF APP0 segment libjpeg writes for Pillow (version 1.01, no density
 * unit, 1×1), which is put back after SOI.
 */
const PILLOW_JPEG = {
  quality: 75,
  chromaSubsampling: '4:2:0',
  optimiseCoding: false,
  mozjpeg: false,
  trellisQuantisation: false,
  overshootDeringing: false,
  optimiseScans: false,
  quantisationTable: 0
} as const
const JFIF_APP0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex')

/** A decoded picture saved as JPEG by Pillow, with the comment the source JPEG carried (its info["comment"]). */
export async function pillowJpeg(img: Sharp, source: Uint8Array): Promise<Buffer> {
  let out = await img.jpeg(PILLOW_JPEG).toBuffer()
  // libjpeg writes JFIF for grey and YCbCr pictures only; a CMYK one starts with Adobe's APP14 instead.
  const first = out[3]
  if (out[2] === 0xff && first !== 0xe0 && first !== 0xee) out = Buffer.concat([out.subarray(0, 2), JFIF_APP0, out.subarray(2)])
  const withComment = withJpegComment(out, jpegComment(source))
  return withComment === out ? out : Buffer.from(withComment)
}

/** A picture decoded as PIL.Image.open does: its embedded ICC profile is kept in info, never applied to the pixels. */
const pil = (bytes: Uint8Array, o: SharpOptions = {}): Sharp =>
  sharp(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { ignoreIcc: true, ...o })

/**
 * A CMYK picture kept in CMYK, as Pillow holds it ("CMYK", Adobe's inverted JPEG samples turned back): libvips
 * would otherwise convert it to sRGB through a CMYK profile.
 */
const keepCmyk = (img: Sharp): Sharp => img.pipelineColourspace('cmyk').toColourspace('cmyk')

const cmykPng = (): PyError => new PyError('OSError', 'cannot write mode CMYK as PNG')

export interface NodeLoaderIOOptions {
  /** Working directory for relative paths (upstream resolves them against the process's). */
  cwd: string
  /** Root of the media cache: upstream's picture folder <dir>/<name> becomes <cacheDir>/<hash of dir>/<name>. */
  cacheDir: string
  /** Files this run wrote, for reports (conformance dumped_files). */
  written?: Set<string>
}

/** cv2.VideoCapture on a file it cannot open (video.py raises this); a missing ffmpeg is passed on as it is. */
const unopened =
  (p: string) =>
  (e: unknown): never => {
    if (e instanceof MissingTool) throw e
    throw new PyError('ValueError', `Could not open video file ${p}`)
  }

export function nodeLoaderIO(o: NodeLoaderIOOptions): LoaderIO {
  const abs = (p: string): string => path.resolve(o.cwd, p)
  const wrote = (p: string): void => void o.written?.add(p)
  const notFound = (p: string): PyError =>
    new PyError('FileNotFoundError', `[Errno 2] No such file or directory: '${p}'`)
  return {
    cwd: o.cwd,
    exists: (p) =>
      access(abs(p)).then(
        () => true,
        () => false
      ),
    isDir: (p) =>
      stat(abs(p)).then(
        (s) => s.isDirectory(),
        () => false
      ),
    listDir: async (p) => {
      // os.listdir / Path.glob give the file system's order; fs.readdir sorts (libuv scandir), fs.opendir does not.
      const out: string[] = []
      try {
        for await (const e of await opendir(abs(p))) out.push(e.name)
      } catch {
        throw notFound(p)
      }
      return out
    },
    readText: (p) => readFile(abs(p), 'utf8').catch(() => Promise.reject(notFound(p))),
    readBytes: (p) => readFile(abs(p)).catch(() => Promise.reject(notFound(p))),
    mediaDir: (upstreamDir) => {
      const dir = path.resolve(o.cwd, upstreamDir)
      const tag = createHash('sha256').update(path.dirname(dir)).digest('hex').slice(0, 12)
      return path.join(o.cacheDir, tag, path.basename(dir))
    },
    saveBase64Image: async (b64, p) => {
      const bytes = pyB64decode(b64)
      let img = pil(bytes, { failOn: 'none' })
      let md: Metadata
      try {
        md = await img.metadata()
      } catch {
        throw new PyError('UnidentifiedImageError', 'cannot identify image file <_io.BytesIO object>')
      }
      const mode = pillowMode(md)
      // decode_base64_to_image: RGBA, P and LA become RGB (alpha dropped, not composited); other modes stay.
      if (mode === 'RGBA' || mode === 'P' || mode === 'LA') img = img.removeAlpha().toColourspace('srgb')
      else if (mode === 'L') img = img.toColourspace('b-w')
      else if (mode === 'CMYK') img = keepCmyk(img)
      const ext = path.extname(p).toLowerCase()
      const fmt = FORMAT_OF_EXT[ext]
      if (!fmt) throw new PyError('ValueError', `unknown file extension: ${ext}`)
      if (mode === 'CMYK' && fmt === 'png') throw cmykPng()
      const out = fmt === 'jpeg' ? await pillowJpeg(img, bytes) : await img.toFormat(fmt).toBuffer()
      await mkdir(path.dirname(abs(p)), { recursive: true })
      await writeBytes(abs(p), out)
      wrote(abs(p))
    },
    reencodeImage: async (bytes, format, opts) => {
      let img = pil(bytes)
      if (opts?.rgb) img = img.removeAlpha().toColourspace('srgb')
      else if (pillowMode(await img.metadata()) === 'CMYK') {
        if (format === 'png') throw cmykPng()
        img = keepCmyk(img)
      }
      return (format === 'jpeg' ? await pillowJpeg(img, bytes) : await img.toFormat(format).toBuffer()).toString('base64')
    },
    saveRgbJpeg: async (bytes, p) => {
      const out = await pillowJpeg(pil(bytes).removeAlpha().toColourspace('srgb'), bytes)
      await mkdir(path.dirname(abs(p)), { recursive: true })
      await writeBytes(abs(p), out)
      wrote(abs(p))
    },
    imageSize: async (bytes) => {
      try {
        const md = await sharp(Buffer.from(bytes)).metadata()
        return { width: md.width ?? 0, height: md.height ?? 0 }
      } catch {
        throw new PyError('UnidentifiedImageError', 'cannot identify image file <_io.BytesIO object>')
      }
    },
    saveImage: async (bytes, p) => {
      const fmt = FORMAT_OF_EXT[path.extname(p).toLowerCase()]
      if (!fmt) throw new PyError('ValueError', `unknown file extension: ${path.extname(p)}`)
      const out = await sharp(Buffer.from(bytes)).toFormat(fmt).toBuffer()
      await mkdir(path.dirname(abs(p)), { recursive: true })
      await writeBytes(abs(p), out)
      wrote(abs(p))
    },
    parquetFeatures: async (p) => {
      const o2 = await openParquet(abs(p))
      return o2.ok ? parquetMediaFeatures(o2.pq) : new Map()
    },
    writeBytes: async (p, b) => {
      await mkdir(path.dirname(abs(p)), { recursive: true })
      await writeBytes(abs(p), Buffer.from(b))
      wrote(abs(p))
    },
    readParquet: async (p) => {
      const o2 = await openParquet(abs(p))
      if (!o2.ok) throw new PyError('ArrowInvalid', o2.error.message)
      return readParquetRows(o2.pq, 0, o2.pq.rowCount, { pythonNumbers: true, binary: 'bytes' })
    },
    base64: (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'),
    decodePicture: (bytes) => decodePicture(bytes),
    // Vanilla zlib's bytes (the system zlib Pillow's wheel calls), not Node's Chromium zlib: see zlib-deflate.ts.
    deflate: (data, d) => zlibDeflate(data, d),
    videoFrameCount: (p) => opencvFrameCount(abs(p)).catch(unopened(p)),
    videoFrames: async (p, positions) => {
      const v = await opencvFramesRgb(abs(p), positions).catch(unopened(p))
      return v.frames.map((pixels) => ({ mode: 'RGB' as const, width: v.width, height: v.height, pixels }))
    }
  }
}

/**
 * PIL.Image.open(bytes) as datasets' Image feature decodes it (EXIF orientation applied): Pillow's mode, size
 * and pixels, with the ICC profile and PNG transparency colour Pillow keeps in `info`. Palette, 1-bit and 16-bit
 * grey PNGs keep their mode (shared/media/png-modes.ts); other pictures go through sharp.
 */
export async function decodePicture(bytes: Uint8Array): Promise<DecodedPicture> {
  const kept = pillowModePng(bytes, (d) => inflateSync(d))
  if (kept) return kept
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let md: Metadata
  try {
    md = await sharp(buf).metadata()
  } catch {
    throw new PyError('UnidentifiedImageError', 'cannot identify image file <_io.BytesIO object>')
  }
  const mode = pillowMode(md)
  let img = sharp(buf, { ignoreIcc: true }).autoOrient()
  if (mode === 'CMYK') {
    const { data, info } = await keepCmyk(img).raw().toBuffer({ resolveWithObject: true })
    return { mode: 'CMYK', width: info.width, height: info.height, pixels: new Uint8Array(data) }
  }
  // Palette pictures come back expanded (RGB, or RGBA with a transparent entry); 16-bit ones as 8-bit.
  img = img.toColourspace(md.channels !== undefined && md.channels <= 2 && !md.isPalette ? 'b-w' : 'srgb')
  const { data, info } = await img.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true })
  const modes = { 1: 'L', 2: 'LA', 3: 'RGB', 4: 'RGBA' } as const
  const out = modes[info.channels as 1 | 2 | 3 | 4]
  if (!out) throw new PyError('OSError', `cannot write mode with ${info.channels} channels as PNG`)
  return {
    mode: out,
    width: info.width,
    height: info.height,
    pixels: new Uint8Array(data),
    icc: md.icc ? new Uint8Array(md.icc) : null,
    transparency: null
  }
}

/** Whole file or nothing: a temporary sibling renamed over the target. */
async function writeBytes(target: string, data: Buffer): Promise<void> {
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  await writeFile(tmp, data)
  await rename(tmp, target)
}
