// A picture written as PNG the way Pillow 11.3's `Image.save(fp, "PNG")` writes it (PngImagePlugin._save with
// default options, libImaging/ZipEncode.c), so loaders that hand pictures on as PNG base64 (AISBench's GEdit:
// utils/image_process.py:pil_to_base64) give upstream's bytes:
//  - chunks: signature, IHDR (no interlace), iCCP when the decoded picture carried an ICC profile
//    ("ICC Profile\0\0" + zlib.compress(profile)), PLTE for a palette picture, tRNS for its transparency, the IDAT
//    chunks, IEND. No pHYs, eXIf, gAMA or text chunks: Pillow writes those only when save() is given them.
//  - a palette ("P") picture is written with the fewest bits its palette needs (PngImagePlugin._save: colours =
//    max(min(palette entries, 256), 1); ≤ 2 → 1 bit, ≤ 4 → 2, ≤ 16 → 4, else 8), PLTE cut or zero-padded to that
//    many colours, tRNS cut to them (an index becomes 255 × index + one 0); "1" is written as 1-bit grey and
//    "I;16" as 16-bit grey (big-endian), their tRNS a 16-bit grey level.
//  - scanline filters chosen per row as ZipEncode.c does: None, then Up, then Sub ("prior"), then Paeth, each
//    taken only when its sum of |byte| (bytes as signed) is strictly smaller, over the packed row with
//    (bits per pixel + 7) / 8 bytes per pixel; Average only with optimize=True (never here); a row whose sum
//    reaches 0 stops the search. Palette rows are never filtered (encode.c: a rawmode starting with "P").
//  - deflate at level 6 (compress_level -1), windowBits 15, memLevel 9, strategy Z_FILTERED (Z_DEFAULT_STRATEGY
//    for palette rows); the stream is cut into IDAT chunks of max(65536, 4 × width) bytes (ImageFile._save's
//    bufsize: one chunk per encoder call).
// The deflate comes from the caller. Pillow 11.3's manylinux wheel calls the system's libz.so.1 (its _imaging
// module imports deflate dynamically; the zlib-ng copy it carries is not what runs), so upstream's bytes are vanilla
// zlib's: shared/formats/zlib-deflate.ts reproduces them. Node's zlib is Chromium's fork, whose bytes differ on
// some pictures (3 of the 4 test/fixtures/zlib pictures) while decoding to the same pixels.

export type PillowMode = 'L' | 'LA' | 'RGB' | 'RGBA' | 'P' | '1' | 'I;16'

export interface PillowImage {
  mode: PillowMode
  width: number
  height: number
  /**
   * Rows top to bottom, one entry per pixel and channel: 8-bit samples (L, LA, RGB, RGBA), palette indices (P),
   * 0 or 255 ("1", as Pillow holds it), or 16-bit grey as two bytes, big-endian ("I;16").
   */
  pixels: Uint8Array
  /** A "P" picture's palette: RGB triplets, as many as the picture's palette holds. */
  palette?: Uint8Array | null
  /** im.info['icc_profile'] of the decoded picture. */
  icc?: Uint8Array | null
  /**
   * im.info['transparency']: a grey level (L, 1, I;16), [r, g, b] (RGB), a palette index or one alpha per
   * palette entry (P).
   */
  transparency?: number | [number, number, number] | Uint8Array | null
}

export interface DeflateOptions {
  level: number
  windowBits: number
  memLevel: number
  /** 0 default, 1 Z_FILTERED. */
  strategy: number
}

export type Deflate = (data: Uint8Array, o: DeflateOptions) => Uint8Array

/** Pillow's PNG: IDAT compression options (ZipEncode.c: deflateInit2(level, Z_DEFLATED, 15, 9, Z_FILTERED)). */
export const PILLOW_IDAT: DeflateOptions = { level: 6, windowBits: 15, memLevel: 9, strategy: 1 }
/** Python's zlib.compress(data): level -1 (6), windowBits 15, memLevel 8 (DEF_MEM_LEVEL), default strategy. */
export const PY_ZLIB_COMPRESS: DeflateOptions = { level: 6, windowBits: 15, memLevel: 8, strategy: 0 }

const CHANNELS: Record<PillowMode, number> = { L: 1, LA: 2, RGB: 3, RGBA: 4, P: 1, '1': 1, 'I;16': 1 }
const COLOR_TYPE: Record<PillowMode, number> = { L: 0, LA: 4, RGB: 2, RGBA: 6, P: 3, '1': 0, 'I;16': 0 }

/** Colours a palette picture is written with (PngImagePlugin._save). */
function paletteColours(img: PillowImage): number {
  return img.palette ? Math.max(Math.min(Math.floor(img.palette.length / 3), 256), 1) : 256
}

/** Bits per sample the picture is written with. */
function bitDepth(img: PillowImage): number {
  if (img.mode === '1') return 1
  if (img.mode === 'I;16') return 16
  if (img.mode !== 'P') return 8
  const c = paletteColours(img)
  return c <= 2 ? 1 : c <= 4 ? 2 : c <= 16 ? 4 : 8
}

/**
 * One row as the PNG holds it (Pack.c): 8 and 16-bit samples as they are; fewer bits packed from the high bit
 * down, the last byte zero-padded ("1" and P;1 set a bit for any value other than 0, P;2 and P;4 keep the low
 * bits of the index).
 */
function packRow(img: PillowImage, y: number, bits: number, out: Uint8Array): void {
  const n = img.width * CHANNELS[img.mode] * (bits === 16 ? 2 : 1)
  if (bits >= 8) {
    out.set(img.pixels.subarray(y * n, (y + 1) * n))
    return
  }
  out.fill(0)
  const row = img.pixels.subarray(y * img.width, (y + 1) * img.width)
  const mask = (1 << bits) - 1
  for (let x = 0; x < img.width; x++) {
    const v = bits === 1 ? (row[x] !== 0 ? 1 : 0) : row[x] & mask
    out[(x * bits) >> 3] |= v << (8 - bits - ((x * bits) & 7))
  }
}

let crcTable: Uint32Array | null = null
export function crc32(parts: Uint8Array[]): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c >>> 0
    }
  }
  let c = 0xffffffff
  for (const p of parts) for (let i = 0; i < p.length; i++) c = crcTable[(c ^ p[i]) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0))

function u32be(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255)
}

function u16be(n: number): Uint8Array {
  return Uint8Array.of((n >>> 8) & 255, n & 255)
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

function chunk(type: string, data: Uint8Array): Uint8Array[] {
  const t = ascii(type)
  return [u32be(data.length), t, data, u32be(crc32([t, data]))]
}

/** Image.tobytes(): "1" packed eight pixels a byte, each row padded; "I;16" little-endian; other modes as held. */
export function pillowToBytes(img: PillowImage): Uint8Array {
  if (img.mode === 'I;16') {
    const out = new Uint8Array(img.width * img.height * 2)
    for (let i = 0; i < out.length; i += 2) {
      out[i] = img.pixels[i + 1]
      out[i + 1] = img.pixels[i]
    }
    return out
  }
  if (img.mode !== '1') return img.pixels
  const row = (img.width + 7) >> 3
  const out = new Uint8Array(row * img.height)
  for (let y = 0; y < img.height; y++) packRow(img, y, 1, out.subarray(y * row, (y + 1) * row))
  return out
}

/** The filtered scanlines (filter byte + packed row) ZipEncode.c hands to deflate. */
export function pillowFilteredRows(img: PillowImage): Uint8Array {
  const bits = bitDepth(img)
  const bitsPerPixel = bits * CHANNELS[img.mode]
  const bpp = (bitsPerPixel + 7) >> 3
  const bytes = (img.width * bitsPerPixel + 7) >> 3
  const sampleBytes = img.width * CHANNELS[img.mode] * (bits === 16 ? 2 : 1)
  if (img.pixels.length < sampleBytes * img.height)
    throw new Error(`pixels: ${img.pixels.length} bytes for ${img.width}×${img.height} ${img.mode}`)
  const out = new Uint8Array((bytes + 1) * img.height)
  let previous = new Uint8Array(bytes + 1)
  let current = new Uint8Array(bytes + 1)
  const up = new Uint8Array(bytes + 1)
  const prior = new Uint8Array(bytes + 1)
  const paeth = new Uint8Array(bytes + 1)
  prior[0] = 1
  up[0] = 2
  paeth[0] = 4
  const filtered = img.mode !== 'P'
  const cost = (v: number): number => (v < 128 ? v : 256 - v)
  for (let y = 0; y < img.height; y++) {
    current[0] = 0
    packRow(img, y, bits, current.subarray(1))
    let output = current
    let sum = 0
    if (filtered) for (let i = 1; i <= bytes; i++) sum += cost(current[i])
    if (sum > 0) {
      let s = 0
      for (let i = 1; i <= bytes; i++) {
        const v = (current[i] - previous[i]) & 255
        up[i] = v
        s += cost(v)
      }
      if (s < sum) {
        output = up
        sum = s
      }
    }
    if (sum > 0) {
      let s = 0
      let i = 1
      for (; i <= bpp && i <= bytes; i++) {
        prior[i] = current[i]
        s += cost(current[i])
      }
      for (; i <= bytes; i++) {
        const v = (current[i] - current[i - bpp]) & 255
        prior[i] = v
        s += cost(v)
      }
      if (s < sum) {
        output = prior
        sum = s
      }
    }
    if (sum > 0) {
      let s = 0
      let i = 1
      for (; i <= bpp && i <= bytes; i++) {
        const v = (current[i] - previous[i]) & 255
        paeth[i] = v
        s += cost(v)
      }
      for (; i <= bytes; i++) {
        const a = current[i - bpp]
        const b = previous[i]
        const c = previous[i - bpp]
        const pa = Math.abs(b - c)
        const pb = Math.abs(a - c)
        const pc = Math.abs(a + b - 2 * c)
        const v = (current[i] - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255
        paeth[i] = v
        s += cost(v)
      }
      if (s < sum) {
        output = paeth
        sum = s
      }
    }
    out.set(output, y * (bytes + 1))
    const t = previous
    previous = current
    current = t
  }
  return out
}

/** Image.save(buf, "PNG") with default options. */
export function pillowPng(img: PillowImage, deflate: Deflate): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10)]
  const ihdr = concat([u32be(img.width), u32be(img.height), Uint8Array.of(bitDepth(img), COLOR_TYPE[img.mode], 0, 0, 0)])
  parts.push(...chunk('IHDR', ihdr))
  if (img.icc && img.icc.length)
    parts.push(
      ...chunk('iCCP', concat([ascii('ICC Profile'), Uint8Array.of(0, 0), deflate(img.icc, PY_ZLIB_COMPRESS)]))
    )
  const colours = paletteColours(img)
  if (img.mode === 'P') {
    const plte = new Uint8Array(colours * 3)
    plte.set((img.palette ?? new Uint8Array(0)).subarray(0, colours * 3))
    parts.push(...chunk('PLTE', plte))
  }
  const t = img.transparency
  if (t !== null && t !== undefined) {
    // An empty per-entry alpha is falsy in Python: no tRNS.
    if (img.mode === 'P' && t instanceof Uint8Array) {
      if (t.length) parts.push(...chunk('tRNS', t.subarray(0, colours)))
    }
    else if (img.mode === 'P' && typeof t === 'number') {
      const index = Math.max(0, Math.min(255, t))
      const alpha = new Uint8Array(index + 1).fill(255)
      alpha[index] = 0
      parts.push(...chunk('tRNS', alpha.subarray(0, colours)))
    } else if ((img.mode === 'L' || img.mode === '1' || img.mode === 'I;16') && typeof t === 'number')
      parts.push(...chunk('tRNS', u16be(Math.max(0, Math.min(65535, t)))))
    else if (img.mode === 'RGB' && Array.isArray(t)) parts.push(...chunk('tRNS', concat(t.map(u16be))))
  }
  const z = deflate(pillowFilteredRows(img), img.mode === 'P' ? { ...PILLOW_IDAT, strategy: 0 } : PILLOW_IDAT)
  const block = Math.max(65536, img.width * 4)
  for (let at = 0; at < z.length; at += block) parts.push(...chunk('IDAT', z.subarray(at, at + block)))
  parts.push(...chunk('IEND', new Uint8Array(0)))
  return concat(parts)
}
