// The curated-dataset export of conversation rows (#9): OpenAI messages JSONL and LLaVA conversations JSON re-export
// in their own shape — the whole conversation, final assistant turn included — with field edits applied and media
// encoded as chosen; base64 decoded is byte-equal to the file (or to the data: URL's bytes).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import { Workspace } from '../../../main/services/workspace/workspace'
import { main } from '../../../main/cli/index'
import { makeImage, makeWav, tempDir } from './fixtures'

const host: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }
const t = tempDir('conv')
let red: Buffer
let blue: Buffer
let wav: Buffer
let oaiRows: Record<string, unknown>[]
let llavaRows: Record<string, unknown>[]

beforeAll(async () => {
  mkdirSync(join(t.dir, 'oai', 'media'), { recursive: true })
  mkdirSync(join(t.dir, 'llava', 'images'), { recursive: true })
  red = await makeImage(join(t.dir, 'llava', 'images', 'red.png'), 40, 30)
  blue = await makeImage(join(t.dir, 'oai', 'media', 'blue.png'), 30, 20)
  writeFileSync(join(t.dir, 'llava', 'images', 'blue.png'), blue)
  wav = makeWav(join(t.dir, 'oai', 'media', 'a.wav'))
  oaiRows = [
    {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Colour?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${red.toString('base64')}` } }] },
        { role: 'assistant', content: 'Red.' }
      ]
    },
    {
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: `file://${join(t.dir, 'oai', 'media', 'blue.png')}` } }, { type: 'input_audio', input_audio: { data: wav.toString('base64'), format: 'wav' } }] },
        { role: 'assistant', content: 'Blue, and a tone.' }
      ]
    }
  ]
  writeFileSync(join(t.dir, 'oai', 'chat.jsonl'), oaiRows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  llavaRows = [
    { id: 'a', image: 'red.png', conversations: [{ from: 'human', value: '<image>\nColour?' }, { from: 'gpt', value: 'Red.' }] },
    { id: 'b', images: ['red.png', 'blue.png'], conversations: [{ from: 'human', value: '<image> or <image>?' }, { from: 'gpt', value: 'The first.' }] },
    { id: 'c', conversations: [{ from: 'human', value: 'Hi' }, { from: 'gpt', value: 'Hello' }] }
  ]
  writeFileSync(join(t.dir, 'llava', 'llava.json'), JSON.stringify(llavaRows, null, 1))
  writeFileSync(join(t.dir, 'llava', 'project.json'), JSON.stringify({ name: 'llava', dataset: 'llava.json', mediaFolder: 'images' }))
})
afterAll(() => t.remove())

async function opened(path: string): Promise<Workspace> {
  const ws = new Workspace(host, { curation: 'memory' })
  await ws.session.open(path)
  return ws
}
const out = (name: string) => join(t.dir, name)
const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l))

describe('OpenAI messages rows', () => {
  it('re-export unchanged as JSONL when media are kept', async () => {
    const ws = await opened(join(t.dir, 'oai', 'chat.jsonl'))
    const r = await ws.exports.dataset({ only: 'all', media: { form: 'keep' } }, out('oai-keep.jsonl'))
    ws.close()
    expect(r.format).toBe('jsonl')
    expect(lines(out('oai-keep.jsonl'))).toEqual(oaiRows)
  })

  it('inline every image part as base64 byte-equal to its source; input_audio stays base64 as OpenAI requires', async () => {
    const ws = await opened(join(t.dir, 'oai', 'chat.jsonl'))
    const r = await ws.exports.dataset({ only: 'all', media: { form: 'base64' } }, out('oai-b64.jsonl'))
    ws.close()
    expect([r.rows, r.mediaFailed]).toEqual([2, 0])
    const [a, b] = lines(out('oai-b64.jsonl'))
    expect(Buffer.from(a.messages[1].content[1].image_url.url, 'base64').equals(red)).toBe(true)
    expect(Buffer.from(b.messages[0].content[0].image_url.url, 'base64').equals(blue)).toBe(true)
    expect(Buffer.from(b.messages[0].content[1].input_audio.data, 'base64').equals(wav)).toBe(true)
    expect(a.messages[2]).toEqual({ role: 'assistant', content: 'Red.' })
  })

  it('apply an edit of the conversation, the final assistant turn included', async () => {
    const ws = await opened(join(t.dir, 'oai', 'chat.jsonl'))
    const edited = [{ role: 'user', content: 'Colour?' }, { role: 'assistant', content: 'Crimson.' }]
    await ws.curation.apply({ indices: [0] }, { kind: 'edit', field: 'messages', value: edited })
    await ws.curation.apply({ indices: [1] }, { kind: 'status', status: 'rejected' })
    await ws.exports.dataset({ only: 'not-rejected', media: { form: 'keep' } }, out('oai-edit.jsonl'))
    ws.close()
    expect(lines(out('oai-edit.jsonl'))).toEqual([{ messages: edited }])
  })
})

describe('LLaVA conversations', () => {
  it('re-export as the JSON list they came as, unchanged when media are kept', async () => {
    const ws = await opened(join(t.dir, 'llava'))
    const r = await ws.exports.dataset({ only: 'all', media: { form: 'keep' } }, out('llava-keep.json'))
    ws.close()
    expect(r.format).toBe('json')
    expect(JSON.parse(readFileSync(out('llava-keep.json'), 'utf8'))).toEqual(llavaRows)
  })

  it('encode image and images from the media folder: base64 decoded is byte-equal to the files', async () => {
    const ws = await opened(join(t.dir, 'llava'))
    const r = await ws.exports.dataset({ only: 'all', media: { form: 'base64' } }, out('llava-b64.json'))
    ws.close()
    expect([r.rows, r.media, r.mediaFailed]).toEqual([3, 3, 0])
    const rows = JSON.parse(readFileSync(out('llava-b64.json'), 'utf8'))
    expect(Buffer.from(rows[0].image, 'base64').equals(red)).toBe(true)
    expect(rows[1].images.map((x: string) => Buffer.from(x, 'base64'))).toEqual([red, blue])
    expect(rows[1].conversations).toEqual(llavaRows[1].conversations)
  })

  it('write absolute paths into the media folder with --media path from the CLI', async () => {
    let err = ''
    const code = await main(['export', join(t.dir, 'llava'), '--out', out('llava-path.json'), '--media', 'path'], { stdout: () => {}, stderr: (s) => void (err += s) })
    expect(code, err).toBe(0)
    const rows = JSON.parse(readFileSync(out('llava-path.json'), 'utf8'))
    expect(rows[0].image).toBe(join(t.dir, 'llava', 'images', 'red.png'))
  })

  it('write an empty list when no row is kept', async () => {
    const ws = await opened(join(t.dir, 'llava'))
    const r = await ws.exports.dataset({ only: 'accepted', media: { form: 'keep' } }, out('llava-none.json'))
    ws.close()
    expect(r.rows).toBe(0)
    expect(JSON.parse(readFileSync(out('llava-none.json'), 'utf8'))).toEqual([])
  })
})
