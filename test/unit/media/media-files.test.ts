import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { sniffBytes } from '../../../main/services/media/sniff'
import { probeMedia } from '../../../main/services/media/probe'
import { exportImage, makeThumbnail } from '../../../main/services/media/thumbnails'
import { audioPeaks } from '../../../main/services/media/audio'
import { pcmWav } from '../../support/wav'

let dir: string
let jpg: string

/** A stereo WAV: amp(frame) in channel 0, silence in channel 1. */
const wav = (frames: number, rate: number, amp: (f: number) => number) => pcmWav(frames, { rate, channels: 2, amp })

/** Silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, mono): header, then zero side info and data. */
function mp3(frames: number): Buffer {
  const frame = Buffer.alloc(417)
  Buffer.from([0xff, 0xfb, 0x90, 0xc4]).copy(frame)
  return Buffer.concat(Array.from({ length: frames }, () => frame))
}

function box(type: string, ...body: Buffer[]): Buffer {
  const b = Buffer.concat(body)
  const h = Buffer.alloc(8)
  h.writeUInt32BE(8 + b.length)
  h.write(type, 4, 'latin1')
  return Buffer.concat([h, b])
}

/** A minimal MP4: ftyp, moov with mvhd (10 s at timescale 1000) and a 640×360 track; no media data. */
function mp4(): Buffer {
  const mvhd = Buffer.alloc(100)
  mvhd.writeUInt32BE(1000, 12)
  mvhd.writeUInt32BE(10000, 16)
  const tkhd = Buffer.alloc(84)
  tkhd.writeUInt32BE(640 * 65536, 76)
  tkhd.writeUInt32BE(360 * 65536, 80)
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0isom')), box('moov', box('mvhd', mvhd), box('trak', box('tkhd', tkhd)))])
}

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pl-media-')))
  jpg = path.join(dir, 'a.jpg')
  await sharp({ create: { width: 400, height: 200, channels: 3, background: '#c33' } }).jpeg().toFile(jpg)
})

describe('sniffBytes', () => {
  it.each([
    ['89504e470d0a1a0a', 'image/png'],
    ['ffd8ffe0', 'image/jpeg'],
    [Buffer.from('GIF89a').toString('hex'), 'image/gif'],
    [Buffer.from('RIFF\0\0\0\0WEBPVP8 ').toString('hex'), 'image/webp'],
    [Buffer.from('RIFF\0\0\0\0WAVEfmt ').toString('hex'), 'audio/wav'],
    [Buffer.from('ID3\x04').toString('hex'), 'audio/mpeg'],
    ['fffb90c4', 'audio/mpeg'],
    [Buffer.from('fLaC').toString('hex'), 'audio/flac'],
    [Buffer.from('OggS').toString('hex'), 'audio/ogg'],
    [Buffer.from('\0\0\0\x18ftypisom').toString('hex'), 'video/mp4'],
    [Buffer.from('\0\0\0\x18ftypqt  ').toString('hex'), 'video/quicktime'],
    ['1a45dfa3a34286810142f7810142f2810442f381084282847765626d', 'video/webm'],
    [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">').toString('hex'), 'image/svg+xml']
  ])('%s is %s', (hex, mime) => {
    expect(sniffBytes(Buffer.from(hex, 'hex'))?.mime).toBe(mime)
  })

  it('does not trust a file name: a JPEG called .png is a JPEG', async () => {
    const f = path.join(dir, 'lying.png')
    writeFileSync(f, await sharp(jpg).jpeg().toBuffer())
    const p = await probeMedia(f)
    expect(p).toMatchObject({ ok: true, value: { mime: 'image/jpeg', width: 400, height: 200 } })
  })
})

describe('images', () => {
  it('makes a thumbnail once and serves it from the cache after', async () => {
    const cacheDir = path.join(dir, 'cache')
    const a = await makeThumbnail(jpg, 64, { cacheDir })
    const b = await makeThumbnail(jpg, 64, { cacheDir })
    expect(a).toMatchObject({ ok: true, value: { width: 64, height: 32, cached: false } })
    expect(b).toMatchObject({ ok: true, value: { cached: true } })
    if (a.ok && b.ok) expect(b.value.path).toBe(a.value.path)
  })

  it('keys thumbnails by size', async () => {
    const cacheDir = path.join(dir, 'cache2')
    const a = await makeThumbnail(jpg, 64, { cacheDir })
    const b = await makeThumbnail(jpg, 128, { cacheDir })
    expect(a.ok && b.ok && a.value.path !== b.value.path).toBe(true)
  })

  it('reports a corrupt image as data', async () => {
    const f = path.join(dir, 'bad.jpg')
    writeFileSync(f, Buffer.from('ffd8ffe000104a46494600', 'hex'))
    expect(await makeThumbnail(f, 64, { cacheDir: path.join(dir, 'c3') })).toMatchObject({ ok: false, code: 'corrupt' })
  })

  it.each([
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
    ['webp', 'image/webp']
  ] as const)('re-encodes for export as %s within the max side', async (format, mime) => {
    const r = await exportImage(jpg, { format, maxSide: 100, quality: 70 })
    expect(r).toMatchObject({ ok: true, value: { width: 100, height: 50, mime } })
    if (r.ok) expect(sniffBytes(r.value.data)?.mime).toBe(mime)
  })
})

describe('audio', () => {
  it('reads WAV facts and peaks decoded by hand', async () => {
    const f = path.join(dir, 'a.wav')
    // First half silent, second half at 0.5.
    writeFileSync(f, wav(8000, 8000, (i) => (i < 4000 ? 0 : 0.5)))
    const p = await probeMedia(f)
    expect(p).toMatchObject({ ok: true, value: { mime: 'audio/wav', sampleRate: 8000, channels: 2, durationSec: 1 } })
    const k = await audioPeaks(f, 4)
    expect(k.ok).toBe(true)
    if (k.ok) {
      expect([...k.value.peaks].map((v) => Math.round(v * 100) / 100)).toEqual([0, 0, 0.5, 0.5])
      expect(k.value).toMatchObject({ sampleRate: 8000, channels: 2, durationSec: 1 })
    }
  })

  it('decodes MP3 for peaks and reads its metadata', async () => {
    const f = path.join(dir, 'a.mp3')
    writeFileSync(f, mp3(40))
    const p = await probeMedia(f)
    expect(p).toMatchObject({ ok: true, value: { mime: 'audio/mpeg', sampleRate: 44100, channels: 1 } })
    const k = await audioPeaks(f, 8)
    expect(k).toMatchObject({ ok: true, value: { sampleRate: 44100 } })
    if (k.ok) expect(k.value.peaks.length).toBe(8)
  })

  it('says when a file cannot be decoded', async () => {
    const f = path.join(dir, 'x.bin')
    writeFileSync(f, 'hello')
    expect(await audioPeaks(f, 8)).toMatchObject({ ok: false, code: 'unsupported' })
  })
})

describe('video', () => {
  it('reads MP4 duration and dimensions from its boxes', async () => {
    const f = path.join(dir, 'a.mp4')
    writeFileSync(f, mp4())
    expect(await probeMedia(f)).toMatchObject({ ok: true, value: { mime: 'video/mp4', durationSec: 10, width: 640, height: 360, poster: null } })
  })
})
