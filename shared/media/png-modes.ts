// The PNG pictures Pillow opens in a mode of their own rather than as 8-bit L/LA/RGB/RGBA (PngImagePlugin._MODES):
// palette pictures stay "P" (indices, the palette as PLTE holds it, tRNS as one transparent index or per-entry
// alpha), 1-bit grey is "1" (0 or 255), 16-bit grey is "I;16" (Pillow 11; "I" before, written back the same).
// Read here so a loader that writes them back as PNG (AISBench's GEdit: pil_to_base64) gives Pillow's bytes;
// every other PNG is left to the general decoder. Interlaced pictures and pictures with an eXIf chunk (which
// ImageOps.exif_transpose would turn) are left to it too.
import type { PillowImage } from './pillow-png'

export type Inflate = (data: Uint8Array) => Uint8Array

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10]

/** Pillow's `_simple_palette`: one fully transparent entry, every other opaque (^\xff*\x00\xff*$). */
function simplePalette(t: Uint8Array): number | null {
  let zero = -1
  for (let i = 0; i < t.length; i++) {
    if (t[i] === 0 && zero < 0) zero = i
    else if (t[i] !== 255) return null
  }
  return zero >= 0 ? zero : null
}

function unfilter(raw: Uint8Array, rowBytes: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array(rowBytes * height)
  for (let y = 0; y < height; y++) {
    const f = raw[y * (rowBytes + 1)]
    const src = y * (rowBytes + 1) + 1
    const at = y * rowBytes
    for (let x = 0; x < rowBytes; x++) {
      const a = x >= bpp ? out[at + x - bpp] : 0
      const b = y ? out[at - rowBytes + x] : 0
      const c = x >= bpp && y ? out[at - rowBytes + x - bpp] : 0
      let p = 0
      if (f === 1) p = a
      else if (f === 2) p = b
      else if (f === 3) p = (a + b) >> 1
      else if (f === 4) {
        const pa = Math.abs(b - c)
        const pb = Math.abs(a - c)
        const pc = Math.abs(a + b - 2 * c)
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      } else if (f !== 0) throw new Error(`PNG: unknown filter type ${f}`)
      out[at + x] = (raw[src + x] + p) & 255
    }
  }
  return out
}

/** A palette, 1-bit or 16-bit grey PNG as Pillow opens it; null for any other picture. */
export function pillowModePng(bytes: Uint8Array, inflate: Inflate): PillowImage | null {
  if (bytes.length < 33 || SIGNATURE.some((b, i) => bytes[i] !== b)) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const width = view.getUint32(16)
  const height = view.getUint32(20)
  const depth = bytes[24]
  const colorType = bytes[25]
  const interlace = bytes[28]
  const mode = colorType === 3 ? 'P' : colorType === 0 && depth === 1 ? '1' : colorType === 0 && depth === 16 ? 'I;16' : null
  if (!mode || interlace !== 0) return null
  const idat: Uint8Array[] = []
  let palette: Uint8Array | null = null
  let trns: Uint8Array | null = null
  let icc: Uint8Array | null = null
  for (let at = 8; at + 12 <= bytes.length; ) {
    const n = view.getUint32(at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    const data = bytes.subarray(at + 8, at + 8 + n)
    if (type === 'IDAT') idat.push(data)
    else if (type === 'PLTE') palette = data
    else if (type === 'tRNS') trns = data
    else if (type === 'iCCP') icc = inflate(data.subarray(data.indexOf(0) + 2))
    else if (type === 'eXIf') return null
    else if (type === 'IEND') break
    at += 12 + n
  }
  const joined = new Uint8Array(idat.reduce((a, d) => a + d.length, 0))
  idat.reduce((at, d) => (joined.set(d, at), at + d.length), 0)
  const rowBytes = (width * depth + 7) >> 3
  const rows = unfilter(inflate(joined), rowBytes, height, Math.max(1, depth >> 3))
  let pixels: Uint8Array
  if (depth >= 8) pixels = rows
  else {
    // Unpacked as Pillow's unpackers do: "1" as 0/255, P;1/P;2/P;4 as indices.
    pixels = new Uint8Array(width * height)
    const mask = (1 << depth) - 1
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const v = (rows[y * rowBytes + ((x * depth) >> 3)] >> (8 - depth - ((x * depth) & 7))) & mask
        pixels[y * width + x] = mode === '1' ? v * 255 : v
      }
  }
  let transparency: PillowImage['transparency'] = null
  if (trns && mode === 'P') transparency = simplePalette(trns) ?? Uint8Array.from(trns)
  else if (trns && trns.length >= 2) transparency = (trns[0] << 8) | trns[1]
  return { mode, width, height, pixels, palette: mode === 'P' ? Uint8Array.from(palette ?? []) : null, icc, transparency }
}
