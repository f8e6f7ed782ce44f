// Pillow's PNG writer, reproduced (shared/media/pillow-png.ts), against PNG files Pillow 11.3 wrote
// (test/fixtures/arrow/make.py): the scanline filters ZipEncode.c picks, row by row, the chunk layout, and with
// the vanilla zlib port (shared/formats/zlib-deflate.ts) the whole file byte for byte.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { PILLOW_IDAT, crc32, pillowFilteredRows, pillowPng, type PillowMode } from '../../../shared/media/pillow-png'
import { zlibDeflate } from '../../../shared/formats/zlib-deflate'

interface Fixture {
  mode: PillowMode
  width: number
  height: number
  pixels: string
  png: string
}
const fixtures = JSON.parse(
  readFileSync(path.join(__dirname, '../../fixtures/arrow/pillow-png.json'), 'utf8')
) as Fixture[]

function chunks(png: Uint8Array): Array<{ type: string; data: Buffer }> {
  const b = Buffer.from(png)
  const out: Array<{ type: string; data: Buffer }> = []
  for (let at = 8; at < b.length; ) {
    const n = b.readUInt32BE(at)
    out.push({ type: b.toString('latin1', at + 4, at + 8), data: b.subarray(at + 8, at + 8 + n) })
    at += 12 + n
  }
  return out
}

const idat = (png: Uint8Array): Buffer =>
  zlib.inflateSync(
    Buffer.concat(
      chunks(png)
        .filter((c) => c.type === 'IDAT')
        .map((c) => c.data)
    )
  )
const nodeDeflate = (d: Uint8Array, o: typeof PILLOW_IDAT): Uint8Array => zlib.deflateSync(d, o)

describe('Pillow PNG writer', () => {
  for (const f of fixtures) {
    it(`picks Pillow's scanline filter for every row (${f.mode})`, () => {
      const rows = pillowFilteredRows({
        mode: f.mode,
        width: f.width,
        height: f.height,
        pixels: Buffer.from(f.pixels, 'base64')
      })
      expect(Buffer.from(rows).equals(idat(Buffer.from(f.png, 'base64')))).toBe(true)
    })
  }

  for (const f of fixtures) {
    it(`writes Pillow's file byte for byte with vanilla zlib (${f.mode})`, () => {
      const png = pillowPng(
        { mode: f.mode, width: f.width, height: f.height, pixels: Buffer.from(f.pixels, 'base64') },
        zlibDeflate
      )
      expect(Buffer.from(png).toString('base64')).toBe(f.png)
    })
  }

  it('the fixtures exercise the None, Sub, Up and Paeth filters', () => {
    const used = new Set<number>()
    for (const f of fixtures) {
      const raw = idat(Buffer.from(f.png, 'base64'))
      const stride = f.width * f.mode.length + 1
      for (let y = 0; y < f.height; y++) used.add(raw[y * stride])
    }
    expect([...used].sort()).toEqual([0, 1, 2, 4])
  })

  it('writes the same chunks as Pillow: IHDR byte for byte, the same pixels in IDAT, IEND', () => {
    for (const f of fixtures) {
      const ours = chunks(
        pillowPng(
          { mode: f.mode, width: f.width, height: f.height, pixels: Buffer.from(f.pixels, 'base64') },
          nodeDeflate
        )
      )
      const theirs = chunks(Buffer.from(f.png, 'base64'))
      expect(ours.map((c) => c.type)).toEqual(theirs.map((c) => c.type))
      expect(ours[0].data.equals(theirs[0].data)).toBe(true)
    }
  })

  it('cuts the deflate stream into IDAT chunks of 65536 bytes, as ImageFile._save does', () => {
    const big = new Uint8Array(200 * 200 * 3)
    let x = 2463534242
    for (let i = 0; i < big.length; i++) {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      big[i] = x & 255
    }
    const png = pillowPng({ mode: 'RGB', width: 200, height: 200, pixels: big }, nodeDeflate)
    const sizes = chunks(png)
      .filter((c) => c.type === 'IDAT')
      .map((c) => c.data.length)
    expect(sizes.length).toBeGreaterThan(1)
    expect(sizes.slice(0, -1).every((n) => n === 65536)).toBe(true)
  })

  it('writes an ICC profile as iCCP, zlib-compressed after "ICC Profile\\0\\0"', () => {
    const icc = new TextEncoder().encode('profile bytes '.repeat(20))
    const png = pillowPng({ mode: 'L', width: 2, height: 2, pixels: new Uint8Array(4), icc }, nodeDeflate)
    const c = chunks(png)
    expect(c.map((x) => x.type)).toEqual(['IHDR', 'iCCP', 'IDAT', 'IEND'])
    expect(c[1].data.subarray(0, 13).toString('latin1')).toBe('ICC Profile\0\0')
    expect(Buffer.from(zlib.inflateSync(c[1].data.subarray(13))).equals(Buffer.from(icc))).toBe(true)
  })

  it('computes the PNG CRC-32 (IEND: ae426082)', () => {
    expect(crc32([new TextEncoder().encode('IEND')]).toString(16)).toBe('ae426082')
  })
})
