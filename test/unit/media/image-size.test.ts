// Picture sizes from the header (main/services/media/image-size.ts) are the sizes sharp reports, and the inline
// sizes the media token rules get (rowImageSizes) are sharp's for every kind of picture, header-read or not.
import { describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { imageSizeFromHeader } from '../../../main/services/media/image-size'
import { rowImageSizes } from '../../../main/services/workspace/media-sizes'

function noise(w: number, h: number): Buffer {
  const raw = Buffer.alloc(w * h * 3)
  let x = 7
  for (let i = 0; i < raw.length; i++) raw[i] = (x = (x * 1103515245 + 12345) & 0x7fffffff) >> 16
  return raw
}
const img = (w: number, h: number) => sharp(noise(w, h), { raw: { width: w, height: h, channels: 3 } })

const cases: [string, () => Promise<Buffer>][] = [
  ['baseline JPEG', () => img(37, 21).jpeg().toBuffer()],
  ['progressive JPEG', () => img(300, 17).jpeg({ progressive: true }).toBuffer()],
  ['JPEG with EXIF orientation 6 (size as stored)', () => img(40, 10).jpeg().withMetadata({ orientation: 6 }).toBuffer()],
  ['JPEG with a 60 KB ICC-sized segment before its frame header', async () => withSegment(await img(33, 44).jpeg().toBuffer(), 60_000)],
  ['JPEG with a 200 KB segment (past what the header reader decodes)', async () => withSegment(await img(12, 9).jpeg().toBuffer(), 200_000)],
  ['PNG', () => img(51, 3).png().toBuffer()],
  ['PNG with alpha', () => sharp(noise(8, 16), { raw: { width: 8, height: 16, channels: 3 } }).ensureAlpha().png().toBuffer()],
  ['palette PNG', () => img(64, 64).png({ palette: true }).toBuffer()],
  ['WebP (left to sharp)', () => img(30, 20).webp().toBuffer()],
  ['GIF (left to sharp)', () => img(25, 15).gif().toBuffer()]
]

/** APP15 segments of `n` bytes in all right after SOI (what a large ICC profile or EXIF block looks like). */
function withSegment(jpeg: Buffer, n: number): Buffer {
  const parts: Buffer[] = [jpeg.subarray(0, 2)]
  for (let left = n; left > 0; ) {
    const len = Math.min(65533, left)
    const seg = Buffer.alloc(len + 4, 0x41)
    seg[0] = 0xff
    seg[1] = 0xef
    seg.writeUInt16BE(len + 2, 2)
    parts.push(seg)
    left -= len
  }
  parts.push(jpeg.subarray(2))
  return Buffer.concat(parts)
}

describe('picture sizes from inline data', () => {
  it.each(cases)('%s: the size sharp reports, as base64 and as a data: URL', async (_name, make) => {
    const bytes = await make()
    const m = await sharp(bytes).metadata()
    const b64 = bytes.toString('base64')
    const url = `data:image/x;base64,${b64}`
    const sizes = await rowImageSizes(
      [
        { field: 'image', kind: 'image', refKind: 'base64', value: b64 },
        { field: 'url', kind: 'image', refKind: 'data-url', value: url }
      ],
      '/nowhere/data.tsv',
      []
    )
    expect(sizes(b64)).toEqual({ width: m.width, height: m.height })
    expect(sizes(url)).toEqual({ width: m.width, height: m.height })
  })

  it('reads PNG and JPEG sizes from the first bytes, and asks for more when a JPEG header goes on', async () => {
    const jpeg = await img(37, 21).jpeg().toBuffer()
    expect(imageSizeFromHeader(jpeg.subarray(0, 2000))).toEqual({ width: 37, height: 21 })
    expect(imageSizeFromHeader(withSegment(jpeg, 10_000).subarray(0, 3000))).toBe('more')
    expect(imageSizeFromHeader((await img(5, 6).png().toBuffer()).subarray(0, 24))).toEqual({ width: 5, height: 6 })
    expect(imageSizeFromHeader(Buffer.from('GIF89a....'))).toBeNull()
  })

  it('leaves a JPEG whose header ends before its scan to sharp (which cannot read it either)', async () => {
    const jpeg = await img(37, 21).jpeg().toBuffer()
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]))
    const cut = Buffer.concat([jpeg.subarray(0, sos), Buffer.from([0xff, 0xd9])])
    expect(imageSizeFromHeader(cut)).toBeNull()
    const b64 = cut.toString('base64')
    const sizes = await rowImageSizes([{ field: 'image', kind: 'image', refKind: 'base64', value: b64 }], '/nowhere/data.tsv', [])
    const viaSharp = await sharp(cut)
      .metadata()
      .then((m) => (m.width && m.height ? { width: m.width, height: m.height } : null))
      .catch(() => null)
    expect(sizes(b64)).toEqual(viaSharp)
  })
})
