// Media encodings on the export path (issue #9 item 5): each form made from files the test writes, base64 that
// decodes byte-equal to the file (or to its re-encoded version), re-encoded sizes within the max side.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaEncoder } from '../../../main/services/export/media-encoder'
import { MediaDir } from '../../../main/services/export/media-dir'
import { exportImage } from '../../../main/services/media/thumbnails'
import { main } from '../../../main/cli/index'
import { makeImage, makeMmProject, makeWav, tempDir } from './fixtures'

const t = tempDir('enc')
let png: Buffer
let jpg: Buffer
let wav: Buffer
beforeAll(async () => {
  png = await makeImage(join(t.dir, 'big.png'), 1200, 800, 'png')
  jpg = await makeImage(join(t.dir, 'small.jpg'), 200, 100, 'jpeg')
  wav = makeWav(join(t.dir, 'clip.wav'))
})
afterAll(() => t.remove())

const text = (u: Uint8Array | string) => (typeof u === 'string' ? u : Buffer.from(u).toString('utf8'))

describe('MediaEncoder forms', () => {
  const enc = (form: 'url' | 'path' | 'data-url' | 'base64') => new MediaEncoder({ form }, { roots: [t.dir] })

  it('base64 decodes byte-equal to the file', async () => {
    const r = await enc('base64').encode('big.png')
    expect(r.ok && Buffer.from(text(r.payload), 'base64').equals(png)).toBe(true)
  })

  it('data: URL carries the sniffed MIME and the file bytes', async () => {
    const r = await enc('data-url').encode('small.jpg')
    if (!r.ok) throw new Error(r.message)
    const s = text(r.payload)
    expect(s.startsWith('data:image/jpeg;base64,')).toBe(true)
    expect(Buffer.from(s.slice(s.indexOf(',') + 1), 'base64').equals(jpg)).toBe(true)
  })

  it('path is the absolute path of the file under the roots', async () => {
    const r = await enc('path').encode('small.jpg')
    expect(r.ok && text(r.payload)).toBe(join(t.dir, 'small.jpg'))
  })

  it('url is the file:// URL of the file', async () => {
    const r = await enc('url').encode(join(t.dir, 'clip.wav'))
    expect(r.ok && text(r.payload)).toBe(pathToFileURL(join(t.dir, 'clip.wav')).href)
    expect(r.ok && r.media).toBe('audio')
  })

  it('re-encodes inline base64 input from its bytes', async () => {
    const r = await enc('data-url').encode(wav.toString('base64'))
    expect(r.ok && text(r.payload)).toBe(`data:audio/wav;base64,${wav.toString('base64')}`)
  })

  it('refuses a file outside the roots', async () => {
    const r = await enc('base64').encode('../../etc/passwd')
    expect(r).toMatchObject({ ok: false, code: 'refused' })
  })
})

describe('re-encoding through sharp', () => {
  it('bounds the longest side and the result decodes to exactly what sharp made', async () => {
    const e = new MediaEncoder({ form: 'base64', maxSide: 300, format: 'jpeg', quality: 70 }, { roots: [t.dir] })
    const r = await e.encode('big.png')
    if (!r.ok) throw new Error(r.message)
    const bytes = Buffer.from(text(r.payload), 'base64')
    const meta = await sharp(bytes).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 300, 200])
    const direct = await exportImage(readFileSync(join(t.dir, 'big.png')), { format: 'jpeg', maxSide: 300, quality: 70 })
    expect(direct.ok && direct.value.data.equals(bytes)).toBe(true)
  })

  it('keeps an image that already fits byte-equal when only the side is bounded', async () => {
    const e = new MediaEncoder({ form: 'base64', maxSide: 1000 }, { roots: [t.dir] })
    const r = await e.encode('small.jpg')
    expect(r.ok && Buffer.from(text(r.payload), 'base64').equals(jpg)).toBe(true)
  })

  it('webp at a max side of 100', async () => {
    const e = new MediaEncoder({ form: 'base64', maxSide: 100, format: 'webp' }, { roots: [t.dir] })
    const r = await e.encode('big.png')
    const meta = r.ok ? await sharp(Buffer.from(text(r.payload), 'base64')).metadata() : null
    expect([meta?.format, Math.max(meta?.width ?? 0, meta?.height ?? 0)]).toEqual(['webp', 100])
  })

  it('writes a re-encoded image given as a path into the media folder, named in its final place', async () => {
    const md = new MediaDir(join(t.dir, 'out.jsonl'))
    const e = new MediaEncoder({ form: 'path', maxSide: 64, format: 'png' }, { roots: [t.dir], mediaDir: md })
    const r = await e.encode('big.png')
    if (!r.ok) throw new Error(r.message)
    expect(text(r.payload).startsWith(join(t.dir, 'out_media') + '/')).toBe(true)
    await e.commit()
    const meta = await sharp(readFileSync(text(r.payload))).metadata()
    expect([meta.format, Math.max(meta.width, meta.height)]).toEqual(['png', 64])
    expect(existsSync(md.temp)).toBe(false)
  })
})

async function cli(args: string[]) {
  let out = ''
  let err = ''
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) })
  return { code, out, err }
}

describe('promptloom render --media', () => {
  const p = tempDir('render')
  let proj: Awaited<ReturnType<typeof makeMmProject>>
  beforeAll(async () => {
    proj = await makeMmProject(p.dir, 3)
  })
  afterAll(() => p.remove())

  it('gives each image_url part as base64 that decodes to the row image', async () => {
    const r = await cli(['render', '--config', proj.config, '--model', 'opencompass-api', '--format', 'prompt-list', '--media', 'base64'])
    expect(r.err).toBe('')
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines).toHaveLength(3)
    const urls = lines.map((l) => JSON.stringify(l.prompt).match(/"url":"([^"]+)"/)?.[1])
    expect(urls.map((u, i) => Buffer.from(u!, 'base64').equals(proj.images[lines[i].index]))).toEqual([true, true, true])
  })

  it('writes --out atomically with data: URLs, leaving no temp file', async () => {
    const out = join(p.dir, 'prompts.jsonl')
    const r = await cli(['render', '--config', proj.config, '--model', 'opencompass-api', '--format', 'prompt-list', '--media', 'data-url', '--out', out])
    expect(r.code).toBe(0)
    const first = JSON.parse(readFileSync(out, 'utf8').split('\n')[0])
    const url = JSON.stringify(first.prompt).match(/"url":"([^"]+)"/)![1]
    expect(url.startsWith('data:image/png;base64,')).toBe(true)
    expect(Buffer.from(url.slice(22), 'base64').equals(proj.images[0])).toBe(true)
    expect(readdirSync(p.dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('refuses re-encoding options without a media form (exit 2)', async () => {
    const r = await cli(['render', '--config', proj.config, '--model', 'opencompass-api', '--media-max-side', '100'])
    expect(r).toMatchObject({ code: 2, err: expect.stringContaining('needs a media form') })
  })

  it('prints its options with --help', async () => {
    const r = await cli(['render', '--help'])
    expect(r.code).toBe(0)
    expect(r.out).toContain('--media keep|url|path|data-url|base64')
  })
})

describe('base64Bytes', () => {
  it.each([0, 1, 2, 3, 49151, 49152, 49153, 200_001])('equals Buffer base64 for %i bytes, prefix kept', async (n) => {
    const { base64Bytes } = await import('../../../main/services/media/encode')
    const b = Buffer.alloc(n)
    for (let i = 0; i < n; i++) b[i] = (i * 7919) & 0xff
    expect(base64Bytes(b, 'data:x;base64,').toString('latin1')).toBe('data:x;base64,' + b.toString('base64'))
  })
})

describe('base64 sources given as base64', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  const b64 = () => new MediaEncoder({ form: 'base64' }, { roots: [t.dir] })

  it('passes canonical base64 through as the same text, equal to decoding and encoding it again', async () => {
    const s = jpg.toString('base64')
    const r = await b64().encode(s)
    if (!r.ok) throw new Error(r.message)
    expect(typeof r.payload).toBe('string')
    expect(r.payload).toBe(Buffer.from(s, 'base64').toString('base64'))
    expect([r.mime, r.media, r.bytes]).toEqual(['image/jpeg', 'image', jpg.length])
  })

  // Each is decodable base64 that encoding would not write: what is given is what decoding and encoding give.
  it.each([
    ['line breaks', (s: string) => s.replace(/(.{76})/g, '$1\n')],
    ['URL-safe alphabet after the first 4 KB', (s: string) => s.slice(0, 5000) + s.slice(5000).replace(/\//g, '_').replace(/\+/g, '-')],
    ['unused bits set before the padding', (s: string) => s.slice(0, -2) + ALPHABET[ALPHABET.indexOf(s[s.length - 2]) + 1] + '=']
  ])('re-encodes base64 with %s to what the bytes encode to', async (_what, change) => {
    // The JPEG padded to a length whose base64 ends in one "=" (so its last character has unused bits).
    const bytes = Buffer.concat([jpg, Buffer.alloc(jpg.length % 3 === 2 ? 0 : jpg.length % 3 === 1 ? 1 : 2)])
    const s = change(bytes.toString('base64'))
    expect(s).not.toBe(bytes.toString('base64'))
    const r = await b64().encode(s)
    expect(r.ok && text(r.payload)).toBe(Buffer.from(s, 'base64').toString('base64'))
  })

  it('re-encodes canonical base64 when a picture is to be resized', async () => {
    const r = await new MediaEncoder({ form: 'base64', maxSide: 50 }, { roots: [t.dir] }).encode(jpg.toString('base64'))
    if (!r.ok) throw new Error(r.message)
    const m = await sharp(Buffer.from(text(r.payload), 'base64')).metadata()
    expect(Math.max(m.width, m.height)).toBe(50)
  })
})
