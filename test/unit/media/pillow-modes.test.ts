// Palette, 1-bit and 16-bit grey PNGs keep their Pillow mode when a loader decodes them (node-io decodePicture,
// shared/media/png-modes.ts) and are written back as Pillow writes them (shared/media/pillow-png.ts): fewest palette
// bits, PLTE and tRNS cut to the palette, unfiltered palette rows with the default deflate strategy. JPEGs keep
// their comment and CMYK when re-encoded. Expected bytes from Pillow (test/fixtures/pillow-modes/make.py).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpdir } from 'node:os'
import { decodePicture, nodeLoaderIO } from '../../../main/services/loaders/node-io'
import { zlibDeflate } from '../../../shared/formats/zlib-deflate'
import { pillowPng, pillowToBytes, type PillowImage } from '../../../shared/media/pillow-png'

interface Case {
  name: string
  mode: string
  source: string
  pillow: string
  tobytes: string
}
const fixture = (name: string): Case[] => JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/pillow-modes', name), 'utf8')) as Case[]
const cases = fixture('pillow-modes.json')
const [commented, cmyk] = fixture('pillow-jpeg.json')

async function decoded(c: Case): Promise<PillowImage> {
  const pic = await decodePicture(Buffer.from(c.source, 'base64'))
  if (pic.mode === 'CMYK') throw new Error('CMYK')
  return pic
}

describe('PNG modes Pillow keeps', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: written back byte for byte as Pillow writes it', async (_name, c) => {
    const png = pillowPng(await decoded(c), (d, o) => zlibDeflate(d, o))
    expect(Buffer.from(png).toString('base64')).toBe(c.pillow)
  })

  it.each(cases.map((c) => [c.name, c] as const))("%s: opened in Pillow's mode", async (_name, c) => {
    // Pillow 9.4 (the fixtures' writer) opens 16-bit grey as "I"; Pillow 11 as "I;16".
    expect((await decoded(c)).mode).toBe(c.mode === 'I' ? 'I;16' : c.mode)
  })

  it.each(cases.filter((c) => c.mode !== 'I').map((c) => [c.name, c] as const))('%s: tobytes() as Pillow gives it', async (_name, c) => {
    expect(Buffer.from(pillowToBytes(await decoded(c))).toString('base64')).toBe(c.tobytes)
  })

  it('16-bit grey: tobytes() holds the same values as Pillow\'s (I;16 little-endian, Pillow 9.4\'s "I" as int32)', async () => {
    const c = cases.find((x) => x.mode === 'I')!
    const mine = Buffer.from(pillowToBytes(await decoded(c)))
    const theirs = Buffer.from(c.tobytes, 'base64')
    const values = (b: Buffer, size: number) => Array.from({ length: b.length / size }, (_, i) => (size === 2 ? b.readUInt16LE(i * 2) : b.readInt32LE(i * 4)))
    expect(values(mine, 2)).toEqual(values(theirs, 4))
  })
})

describe('JPEGs re-encoded as Pillow saves them', () => {
  const io = nodeLoaderIO({ cwd: tmpdir(), cacheDir: tmpdir() })
  const source = (c: Case) => Buffer.from(c.source, 'base64')

  it("a JPEG's comment is written again, right after the JFIF header", async () => {
    expect(await io.reencodeImage(source(commented), 'jpeg')).toBe(commented.pillow)
  })

  it("a CMYK JPEG opens as CMYK with Pillow's samples (Adobe's inverted ones turned back)", async () => {
    const pic = await decodePicture(source(cmyk))
    expect(pic.mode).toBe('CMYK')
    expect(Buffer.from(pic.pixels).toString('base64')).toBe(cmyk.tobytes)
  })

  it('a CMYK JPEG saved as JPEG stays CMYK', async () => {
    expect(await io.reencodeImage(source(cmyk), 'jpeg')).toBe(cmyk.pillow)
  })

  it('a CMYK picture cannot be written as PNG', async () => {
    await expect(io.reencodeImage(source(cmyk), 'png')).rejects.toMatchObject({ pyClass: 'OSError', message: expect.stringContaining('cannot write mode CMYK as PNG') })
  })
})
