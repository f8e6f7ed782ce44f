// What a loader needs from the outside world. shared/loaders holds the rules (pure); main/services/loaders gives
// the file system, the picture codec and Parquet. Paths are POSIX strings as upstream builds them with
// os.path; relative ones resolve against `cwd` (upstream: the process's working directory).
import { PyError } from './py'
import type { Deflate, PillowImage } from '../media/pillow-png'

/** A picture as Pillow decodes it (Image.open + datasets' exif_transpose): mode, size, tobytes() pixels, info. */
export type DecodedPicture =
  | PillowImage
  | { mode: 'CMYK'; width: number; height: number; pixels: Uint8Array; icc?: Uint8Array | null; transparency?: null }

export interface LoaderIO {
  cwd: string
  exists(p: string): Promise<boolean>
  isDir(p: string): Promise<boolean>
  /** Entries of a folder in the order the OS lists them (os.listdir / Path.glob: unsorted). */
  listDir(p: string): Promise<string[]>
  readText(p: string): Promise<string>
  readBytes(p: string): Promise<Uint8Array>
  /**
   * Where a folder the loader would create beside the data (e.g. `<data>/MMStar_images`) really is: the project's
   * media cache, so nothing is ever written beside the source files.
   */
  mediaDir(upstreamDir: string): string
  /** decode_base64_to_image_file: base64 → picture (RGBA/P/LA → RGB), saved in the format its extension names. */
  saveBase64Image(b64: string, path: string): Promise<void>
  /** A decoded picture re-encoded by the codec (PNG/JPEG) as base64, for loaders that hand pictures inline. */
  reencodeImage(bytes: Uint8Array, format: 'png' | 'jpeg', opts?: { rgb?: boolean }): Promise<string>
  /** Image.open(bytes).convert('RGB') saved as JPEG at `path` (RefCOCO's cache); returns the picture's size. */
  saveRgbJpeg(bytes: Uint8Array, path: string): Promise<void>
  /** Width and height of an encoded picture. */
  imageSize(bytes: Uint8Array): Promise<{ width: number; height: number }>
  /** A decoded picture saved as Image.save(path) does: re-encoded in the extension's format, its mode kept. */
  saveImage(bytes: Uint8Array, path: string): Promise<void>
  /** The HF `datasets` feature kinds of a Parquet file's columns (its `huggingface` schema metadata). */
  parquetFeatures(p: string): Promise<Map<string, 'image' | 'audio' | 'video'>>
  writeBytes(p: string, b: Uint8Array): Promise<void>
  /** pandas.read_parquet(...) rows: struct columns as objects, binary as Uint8Array, floats as PyFloat. */
  readParquet(p: string): Promise<Record<string, unknown>[]>
  base64(b: Uint8Array): string
  /**
   * A picture decoded as datasets' Image feature gives it to a loader (PIL.Image.open, exif_transpose). Palette,
   * 1-bit and 16-bit pictures come back expanded to L/LA/RGB/RGBA 8-bit (Pillow would keep P / 1 / I;16).
   */
  decodePicture(bytes: Uint8Array): Promise<DecodedPicture>
  /** zlib deflate with the given parameters (the zlib Pillow and Python's zlib module call). */
  deflate: Deflate
  /** cv2.VideoCapture(p).get(cv2.CAP_PROP_FRAME_COUNT) as an int; throws MissingTool without a video decoder. */
  videoFrameCount(p: string): Promise<number>
  /**
   * The frames at these decoding positions (ascending) as OpenCV's grab()/retrieve() give them, converted to RGB
   * pictures; positions past the last decodable frame are left out. Throws MissingTool without a video decoder.
   */
  videoFrames(p: string, positions: number[]): Promise<PillowImage[]>
}

/**
 * A program this machine lacks and upstream's run would have (ffmpeg for OpenCV's video decoding): not the data's
 * fault, so loaders let it through instead of turning it into upstream's own error.
 */
export class MissingTool extends Error {}

/** os.path.join (POSIX). */
export function pjoin(...parts: string[]): string {
  let out = ''
  for (const p of parts) {
    if (p.startsWith('/')) out = p
    else if (out === '' || out.endsWith('/')) out += p
    else out += '/' + p
  }
  return out
}

/** os.path.dirname (POSIX). */
export function pdirname(p: string): string {
  const i = p.lastIndexOf('/')
  if (i < 0) return ''
  const head = p.slice(0, i + 1)
  return /^\/+$/.test(head) ? head : head.replace(/\/+$/, '')
}

export function pbasename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1)
}

/** os.path.splitext (POSIX): the extension starts at the last dot of the base name, leading dots excluded. */
export function psplitext(p: string): [string, string] {
  const base = pbasename(p)
  const dot = base.lastIndexOf('.')
  if (dot <= 0 || /^\.+$/.test(base.slice(0, dot + 1))) return [p, '']
  const cut = p.length - (base.length - dot)
  return [p.slice(0, cut), p.slice(cut)]
}

/** os.path.normpath + abspath (POSIX). */
export function pabspath(p: string, cwd: string): string {
  const full = p.startsWith('/') ? p : pjoin(cwd, p)
  const out: string[] = []
  for (const seg of full.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') out.pop()
    else out.push(seg)
  }
  return '/' + out.join('/')
}

/** get_data_path: absolute paths pass; relative ones are under the datasets cache (here: cwd) and must exist. */
export async function getDataPath(p: string, io: LoaderIO): Promise<string> {
  if (p.startsWith('/')) return p
  const local = pjoin(io.cwd, p)
  if (!(await io.exists(local))) {
    throw new PyError('FileExistsError', `Dataset path: ${local} is not exist!`)
  }
  return local
}
