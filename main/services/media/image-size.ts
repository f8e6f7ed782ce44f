// A picture's width and height from its first bytes, for PNG and JPEG (most inline pictures of VLMEvalKit TSVs
// and data: URLs): the numbers sharp's metadata() reports (PNG IHDR; JPEG's frame header, as stored, before any
// EXIF orientation), without decoding the whole base64 cell or starting libvips. Anything else, or a header this
// reader cannot walk to its end, is left to sharp.

export type HeaderSize = { width: number; height: number }

/**
 * The size from a header, null when the bytes are not a PNG or JPEG header this reader takes, or 'more' when a
 * JPEG's header goes on past the bytes given.
 */
export function imageSizeFromHeader(b: Uint8Array): HeaderSize | null | 'more' {
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[12] === 0x49 && b[13] === 0x48 && b[14] === 0x44 && b[15] === 0x52) {
    const width = be32(b, 16)
    const height = be32(b, 20)
    return width > 0 && height > 0 ? { width, height } : null
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpegSize(b)
  return null
}

const be32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0
const be16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1]

/**
 * JPEG markers from SOI to the start of scan, as a decoder reads its header: the frame header (SOF0–SOF15 but
 * DHT, JPG and DAC) gives the size; it counts only once the scan starts (a header that stops before it is left to
 * sharp, which would fail on it).
 */
function jpegSize(b: Uint8Array): HeaderSize | null | 'more' {
  let i = 2
  let size: HeaderSize | null = null
  for (;;) {
    if (i + 2 > b.length) return 'more'
    if (b[i] !== 0xff) return null
    let m = b[i + 1]
    // Fill bytes before a marker.
    while (m === 0xff) {
      i++
      if (i + 2 > b.length) return 'more'
      m = b[i + 1]
    }
    if (m === 0xd8 || m === 0x01 || (m >= 0xd0 && m <= 0xd7)) {
      i += 2
      continue
    }
    if (m === 0xd9) return null
    if (i + 4 > b.length) return 'more'
    const len = be16(b, i + 2)
    if (len < 2) return null
    if (m === 0xda) return size
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
      if (i + 9 > b.length) return 'more'
      const height = be16(b, i + 5)
      const width = be16(b, i + 7)
      if (width === 0 || height === 0) return null
      size = { width, height }
    }
    i += 2 + len
  }
}
