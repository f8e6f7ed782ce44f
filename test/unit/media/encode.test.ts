import { mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { encodeAsset, encodePayload } from '../../../main/services/media/encode'

// Smallest valid PNG signature + IHDR start is enough for sniffing.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex')
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(20)])
let root: string
let png: string
let wav: string

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pl-enc-')))
  png = path.join(root, 'a.png')
  wav = path.join(root, 'a.wav')
  writeFileSync(png, PNG)
  writeFileSync(wav, WAV)
})

const b64 = PNG.toString('base64')

describe('encodeAsset', () => {
  it.each([
    ['file-url', 'none', () => pathToFileURL(png).href],
    ['path', 'none', () => png],
    ['data-url', 'none', () => `data:image/png;base64,${b64}`],
    ['base64', 'none', () => b64],
    ['path', 'ais', () => `<AIS_IMAGE_START>${png}<AIS_CONTENT_TAG>`],
    ['data-url', 'ais', () => `<AIS_IMAGE_START>data:image/png;base64,${b64}<AIS_CONTENT_TAG>`],
    ['data-url', 'openai', () => ({ type: 'image_url', image_url: { url: `data:image/png;base64,${b64}` } })],
    ['file-url', 'openai', () => ({ type: 'image_url', image_url: { url: pathToFileURL(png).href } })]
  ] as const)('image as %s wrapped %s', async (form, wrap, expected) => {
    const r = await encodeAsset({ source: 'a.png', form, wrap, roots: [root] })
    expect(r).toMatchObject({ ok: true, value: expected(), mime: 'image/png', media: 'image' })
  })

  it('wraps audio in AIS audio tags', async () => {
    const r = await encodeAsset({ source: wav, form: 'path', wrap: 'ais', roots: [root] })
    expect(r).toMatchObject({ ok: true, value: `<AIS_AUDIO_START>${wav}<AIS_CONTENT_TAG>` })
  })

  it('makes OpenAI input_audio with bare base64 and a format', async () => {
    const r = await encodeAsset({ source: wav, form: 'data-url', wrap: 'openai', roots: [root] })
    expect(r).toMatchObject({ ok: true, value: { type: 'input_audio', input_audio: { data: WAV.toString('base64'), format: 'wav' } } })
  })

  it('wraps video in AIS video tags by the given media type', async () => {
    const r = await encodeAsset({ source: 'a.png', form: 'path', wrap: 'ais', media: 'video', roots: [root] })
    expect(r).toMatchObject({ ok: true, value: `<AIS_VIDEO_START>${png}<AIS_CONTENT_TAG>` })
  })

  it('re-encodes an inline data: URL as raw base64', async () => {
    const r = await encodeAsset({ source: `data:image/png;base64,${b64}`, form: 'base64', roots: [] })
    expect(r).toMatchObject({ ok: true, value: b64, bytes: PNG.length })
  })

  it('refuses a path outside the roots', async () => {
    const r = await encodeAsset({ source: '../etc/passwd.png', form: 'data-url', roots: [root] })
    expect(r).toMatchObject({ ok: false, code: 'refused' })
  })

  it('cannot make a file URL for inline data', async () => {
    const r = await encodeAsset({ source: b64, form: 'file-url', roots: [root] })
    expect(r).toMatchObject({ ok: false, code: 'invalid' })
  })
})

describe('inline assets written as files', () => {
  it('are written once per content: a second row with the same picture points to the file already there', async () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pl-enc-once-')))
    try {
      const media = path.join(dir, 'media')
      const first = await encodePayload({ source: b64, form: 'path', roots: [], mediaDir: media })
      const file = first.ok ? Buffer.from(first.payload).toString('utf8') : ''
      const inode = statSync(file).ino
      const second = await encodePayload({ source: `data:image/png;base64,${b64}`, form: 'path', roots: [], mediaDir: media })
      expect(second.ok && Buffer.from(second.payload).toString('utf8')).toBe(file)
      expect(statSync(file).ino).toBe(inode)
      expect(readdirSync(media)).toEqual([path.basename(file)])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
