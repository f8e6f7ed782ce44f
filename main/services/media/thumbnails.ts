// Thumbnails (cached on disk, keyed by content hash and size) and export re-encodes, both through sharp.
// The content hash, not the path, keys the cache: the same image under two names is made once, and an
// edited file gets a fresh thumbnail.
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { access, mkdir, readFile, rename, stat } from 'node:fs/promises'
import path from 'node:path'
import { sharp } from './sharp'
import { defaultCacheDir } from '../datasets/index-cache'

export type ImageResult<T> = { ok: true; value: T } | { ok: false; code: 'unsupported' | 'corrupt' | 'missing'; message: string }

export interface Thumbnail {
  path: string
  width: number
  height: number
  cached: boolean
}

// Hashes are memoised by (path, size, mtime) so a grid of thumbnails re-reads nothing on a second visit.
const hashMemo = new Map<string, string>()

export async function contentHash(file: string): Promise<string> {
  const st = await stat(file)
  const key = `${file}\0${st.size}\0${st.mtimeMs}`
  const hit = hashMemo.get(key)
  if (hit) return hit
  const h = createHash('sha256')
  await new Promise<void>((res, rej) => {
    createReadStream(file, { highWaterMark: 1 << 20 })
      .on('data', (c) => h.update(c))
      .on('end', () => res())
      .on('error', rej)
  })
  const digest = h.digest('hex').slice(0, 32)
  if (hashMemo.size > 50000) hashMemo.clear()
  hashMemo.set(key, digest)
  return digest
}

const madeDirs = new Set<string>()

export async function makeThumbnail(file: string, size: number, opts: { cacheDir?: string } = {}): Promise<ImageResult<Thumbnail>> {
  const side = Math.max(16, Math.min(2048, Math.round(size)))
  let hash: string
  let bytes: Buffer | null = null
  try {
    const st = await stat(file)
    const memo = hashMemo.get(`${file}\0${st.size}\0${st.mtimeMs}`)
    if (memo) hash = memo
    else if (st.size <= 32 << 20) {
      // One read serves both the hash and sharp, instead of reading the image twice.
      bytes = await readFile(file)
      hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32)
      hashMemo.set(`${file}\0${st.size}\0${st.mtimeMs}`, hash)
    } else hash = await contentHash(file)
  } catch {
    return { ok: false, code: 'missing', message: 'File not found' }
  }
  const dir = path.join(opts.cacheDir ?? defaultCacheDir(), 'thumbs', hash.slice(0, 2))
  const dest = path.join(dir, `${hash}-${side}.webp`)
  try {
    await access(dest)
    const m = await sharp(dest).metadata()
    return { ok: true, value: { path: dest, width: m.width ?? 0, height: m.height ?? 0, cached: true } }
  } catch {}
  try {
    if (!madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true })
      madeDirs.add(dir)
    }
    const tmp = `${dest}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    const info = await sharp(bytes ?? file, { failOn: 'error', limitInputPixels: 268402689 })
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toFile(tmp)
    await rename(tmp, dest)
    return { ok: true, value: { path: dest, width: info.width, height: info.height, cached: false } }
  } catch (err) {
    return { ok: false, code: 'corrupt', message: `Cannot make a thumbnail: ${(err as Error).message}` }
  }
}

export interface ExportImageOptions {
  /** Longest side after resizing; the image is never enlarged. */
  maxSide?: number
  format: 'jpeg' | 'png' | 'webp'
  /** 1..100, for jpeg and webp. */
  quality?: number
  /**
   * The input is already in `format`: when it also fits within maxSide it is returned as it is (the same Buffer),
   * so an export that only bounds the size keeps small images byte-equal to their files.
   */
  keepIfFits?: boolean
}

export async function exportImage(input: string | Buffer, o: ExportImageOptions): Promise<ImageResult<{ data: Buffer; width: number; height: number; mime: string }>> {
  try {
    if (o.keepIfFits && Buffer.isBuffer(input)) {
      const m = await sharp(input).metadata()
      const w = m.autoOrient?.width ?? m.width ?? 0
      const h = m.autoOrient?.height ?? m.height ?? 0
      if (!o.maxSide || Math.max(w, h) <= o.maxSide) return { ok: true, value: { data: input, width: w, height: h, mime: `image/${o.format}` } }
    }
    let img = sharp(input, { failOn: 'error' }).rotate()
    if (o.maxSide) img = img.resize(o.maxSide, o.maxSide, { fit: 'inside', withoutEnlargement: true })
    const q = Math.max(1, Math.min(100, Math.round(o.quality ?? 85)))
    img = o.format === 'jpeg' ? img.jpeg({ quality: q, mozjpeg: true }) : o.format === 'webp' ? img.webp({ quality: q }) : img.png()
    const { data, info } = await img.toBuffer({ resolveWithObject: true })
    return { ok: true, value: { data, width: info.width, height: info.height, mime: `image/${o.format}` } }
  } catch (err) {
    return { ok: false, code: 'corrupt', message: `Cannot re-encode the image: ${(err as Error).message}` }
  }
}
