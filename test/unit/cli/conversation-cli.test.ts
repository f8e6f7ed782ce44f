// `promptloom render` on conversation-shaped datasets (#9): the path the app's Export takes. An OpenAI messages
// JSONL and a LLaVA conversations file with --media-folder render with the conversation template; `gold` is the
// final assistant turn; --media base64 inlines the LLaVA picture byte for byte.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { main } from '../../../main/cli/index'

async function run(args: string[]) {
  let out = ''
  let err = ''
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) })
  return { code, out, err, get lines() { return out.trim() ? out.trim().split('\n').map((l) => JSON.parse(l)) : [] } }
}

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function llava(): Promise<{ dir: string; file: string; images: string; picture: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'pl-cli-conv-'))
  dirs.push(dir)
  const images = join(dir, 'images')
  mkdirSync(images)
  const picture = await sharp({ create: { width: 10, height: 7, channels: 3, background: '#c33' } }).png().toBuffer()
  writeFileSync(join(images, 'red.png'), picture)
  const file = join(dir, 'llava.json')
  writeFileSync(
    file,
    JSON.stringify([
      { id: 'q1', image: 'red.png', conversations: [{ from: 'human', value: '<image>\nWhat colour?' }, { from: 'gpt', value: 'Red.' }] },
      { id: 'q2', conversations: [{ from: 'human', value: 'Hi' }, { from: 'gpt', value: 'Hello' }, { from: 'human', value: 'Again?' }, { from: 'gpt', value: 'Yes.' }] }
    ])
  )
  return { dir, file, images, picture }
}

describe('promptloom render on conversation datasets', () => {
  it('renders an OpenAI messages JSONL as the conversation, gold = the final assistant turn, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-cli-conv-'))
    dirs.push(dir)
    const f = join(dir, 'chat.jsonl')
    writeFileSync(f, JSON.stringify({ messages: [{ role: 'user', content: 'Capital of France?' }, { role: 'assistant', content: 'Paris.' }] }) + '\n')
    const r = await run(['render', '--config', f, '--model', 'openai-messages', '--model', 'qwen2.5-instruct'])
    expect(r.code).toBe(0)
    expect(r.lines.map((l) => [l.variant, l.model, l.gold])).toEqual([
      ['conversation', 'openai-messages', 'Paris.'],
      ['conversation', 'qwen2.5-instruct', 'Paris.']
    ])
    expect(r.lines[0].prompt).toEqual([{ role: 'user', content: 'Capital of France?' }])
    expect(r.lines[1].prompt).toMatch(/<\|im_start\|>user\nCapital of France\?<\|im_end\|>\n<\|im_start\|>assistant\n$/)
  })

  it('renders LLaVA conversations with --media-folder, history kept, the picture where <image> stands', async () => {
    const f = await llava()
    const r = await run(['render', '--config', f.file, '--media-folder', f.images, '--model', 'openai-messages'])
    expect(r.code).toBe(0)
    expect(r.lines[0].prompt).toEqual([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'red.png' } }, { type: 'text', text: '\nWhat colour?' }] }])
    expect(r.lines[1].prompt.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(r.lines.map((l) => l.gold)).toEqual(['Red.', 'Yes.'])
  })

  it('lint reports conversation rows whose pictures and placeholders differ, or that have no conversation', async () => {
    const f = await llava()
    writeFileSync(
      f.file,
      JSON.stringify([
        { id: 'a', images: ['red.png', 'red.png'], conversations: [{ from: 'human', value: '<image> once' }, { from: 'gpt', value: 'x' }] },
        { id: 'b', conversations: [{ from: 'human', value: 'fine' }, { from: 'gpt', value: 'y' }] },
        { id: 'c', conversations: 'broken' }
      ])
    )
    const r = await run(['lint', '--config', f.file, '--media-folder', f.images, '--model', 'openai-messages', '--json'])
    const report = JSON.parse(r.out)
    const kinds = Object.fromEntries(report.groups.map((g: { kind: string; severity: string; examples: { row: number }[] }) => [g.kind, [g.severity, g.examples.map((e) => e.row)]]))
    expect(kinds['conversation-media-count']).toEqual(['warning', [0]])
    expect(kinds['conversation-missing']).toEqual(['error', [2]])
    expect(r.code).toBe(1)
  })

  it('inlines the LLaVA picture with --media base64: decoded, byte-equal to the file', async () => {
    const f = await llava()
    const r = await run(['render', '--config', f.file, '--media-folder', f.images, '--model', 'openai-messages', '--media', 'base64'])
    expect(r.code).toBe(0)
    const url = r.lines[0].prompt[0].content[0].image_url.url as string
    expect(Buffer.from(url, 'base64').equals(f.picture)).toBe(true)
  })
})
