// Conversation-shaped datasets opened with no config (#9): the workspace the app and the CLI share gives them the
// "conversation" template, and every model kind receives the turns — an OpenAI-style API the content parts, a
// chat-template model and an OpenCompass meta-template model the turns' text with a signal for the media they
// cannot take. The final assistant turn is the reference answer, never sent.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { mediaHost as host } from '../../support/host'
import { Workspace } from '../../../main/services/workspace/workspace'
import { demoProjectDir } from '../../../main/services/app-paths'
// Opening the demo's configs writes the loader's cache beside them: always a copy, never the checkout.
import { demoCopy } from '../store/helpers'


const dirs: string[] = []
const spaces: Workspace[] = []
afterEach(() => {
  for (const w of spaces.splice(0)) w.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'plconv'))
  dirs.push(d)
  return d
}
function workspace(): Workspace {
  const w = new Workspace(host, { curation: 'memory' })
  spaces.push(w)
  return w
}
const png = (colour: string): Promise<Buffer> => sharp({ create: { width: 8, height: 6, channels: 3, background: colour } }).png().toBuffer()

async function openAiFile(d: string): Promise<string> {
  const b64 = (await png('#0a0')).toString('base64')
  const rows = [
    {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What colour is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${b64}` } }] },
        { role: 'assistant', content: 'Green.' }
      ]
    },
    { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }, { role: 'user', content: 'Bye?' }] }
  ]
  const f = join(d, 'chat.jsonl')
  writeFileSync(f, rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return f
}

const errors = (r: { problems: { severity: string }[] }) => r.problems.filter((p) => p.severity === 'error')

describe('conversation datasets in the workspace', () => {
  it('gives an OpenAI messages JSONL the conversation template', async () => {
    const d = dir()
    const p = await workspace().session.open(await openAiFile(d))
    expect(p.variants.map((v) => v.id)).toEqual(['conversation'])
    expect(p.variants[0].label).toContain('reference answer')
  })

  it('lists each row by its first user turn', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    const page = await ws.rows.page({ start: 0, count: 2 })
    expect(page.items.map((x) => x.preview)).toEqual(['What colour is this?', 'Hi'])
  })

  it('does not count an inline picture into the row length the list shows and filters on', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    const big = Buffer.alloc(40_000, 7).toString('base64')
    const f = join(d, 'big.jsonl')
    writeFileSync(f, JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }, { type: 'image_url', image_url: { url: `data:image/png;base64,iVBORw0KGgo${big}` } }] }, { role: 'assistant', content: 'ok' }] }) + '\n')
    await ws.session.open(f)
    const item = (await ws.rows.page({ start: 0, count: 1 })).items[0]
    expect(item.warnings).not.toContain('long-field')
    expect(item.chars).toBeLessThan(300)
  })

  it('sends an OpenAI-style API the turns with their content parts, the last assistant turn kept as the reference', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    await ws.session.addModel('openai-messages')
    const r = await ws.render.row({ index: 0, variantId: 'conversation', modelIds: ['openai-messages'] })
    const m = r.models[0]
    expect(m.messages?.map((x) => x.role)).toEqual(['system', 'user'])
    expect((m.messages?.[1].content as { type: string }[]).map((x) => x.type)).toEqual(['text', 'image_url'])
    expect(errors(m)).toEqual([])
    expect(r.conversation?.reference?.parts).toEqual([{ kind: 'text', text: 'Green.' }])
  })

  it('does not count the picture as prompt text', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    await ws.session.addModel('openai-messages')
    const r = await ws.render.row({ index: 0, variantId: 'conversation', modelIds: ['openai-messages'] })
    // "Be brief." + "What colour is this?" is 29 characters: about 8 tokens, not the base64's hundreds.
    expect(r.models[0].tokens!.count).toBeLessThan(12)
  })

  it('shows the conversation with its picture as media, never as base64', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    const r = await ws.render.row({ index: 0, variantId: 'conversation', modelIds: [] })
    const media = r.conversation!.turns[1].parts[1]
    expect(media).toMatchObject({ kind: 'media', media: { kind: 'image', url: expect.stringMatching(/^\/media\?inline=/) } })
    expect(JSON.stringify(r.conversation)).not.toContain('iVBORw0KGgo')
  })

  it('shows an input_audio part as playable audio', async () => {
    const d = dir()
    const pcm = Buffer.alloc(44 + 400)
    pcm.write('RIFF', 0)
    pcm.writeUInt32LE(36 + 400, 4)
    pcm.write('WAVEfmt ', 8)
    pcm.writeUInt32LE(16, 16)
    pcm.writeUInt16LE(1, 20)
    pcm.writeUInt16LE(1, 22)
    pcm.writeUInt32LE(8000, 24)
    pcm.writeUInt32LE(16000, 28)
    pcm.writeUInt16LE(2, 32)
    pcm.writeUInt16LE(16, 34)
    pcm.write('data', 36)
    pcm.writeUInt32LE(400, 40)
    const f = join(d, 'audio.jsonl')
    const audio = { type: 'input_audio', input_audio: { data: pcm.toString('base64'), format: 'wav' } }
    writeFileSync(f, JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What do you hear?' }, audio] }, { role: 'assistant', content: 'Silence.' }] }) + '\n')
    const ws = workspace()
    await ws.session.open(f)
    const r = await ws.render.row({ index: 0, variantId: 'conversation', modelIds: [] })
    expect(r.conversation!.turns[0].parts[1]).toMatchObject({ kind: 'media', media: { kind: 'audio', url: expect.stringMatching(/^\/media\?inline=/) } })
  })

  it('gives a chat-template model the turns as text, with a signal for the picture it cannot take', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    await ws.session.addModel('qwen2.5-instruct')
    const r = await ws.render.row({ index: 0, variantId: 'conversation', modelIds: ['qwen2.5-instruct'] })
    const m = r.models[0]
    expect(errors(m)).toEqual([])
    expect(m.text).toContain('What colour is this?<|im_end|>\n<|im_start|>assistant\n')
    expect(m.text).not.toContain('Green.')
    expect(m.problems.find((x) => x.code === 'media-dropped')?.message).toContain('1 image dropped')
    expect(m.media).toEqual([expect.objectContaining({ modality: 'image', dropped: true })])
  })

  it('gives a vision-language chat-template model the picture in place, as transformers\' processor renders it, and counts its tokens', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    await ws.session.addModel('qwen2.5-vl-instruct')
    await ws.session.addModel('llava-1.5')
    const r = await ws.render.row({ index: 0, variantId: 'conversation', modelIds: ['qwen2.5-vl-instruct', 'llava-1.5'] })
    const [qwen, llava] = r.models
    expect(qwen.text).toContain('<|im_start|>user\nWhat colour is this?<|vision_start|><|image_pad|><|vision_end|><|im_end|>')
    // The llava-1.5 template writes the pictures first and has no system turn (a signal says it drops it).
    expect(llava.text).toBe('USER: <image>\nWhat colour is this? ASSISTANT:')
    expect(llava.problems.map((x) => x.code)).toContain('system-dropped')
    expect([...r.models.flatMap((m) => errors(m)), ...r.models.flatMap((m) => m.problems.filter((x) => x.code === 'media-dropped' || x.code === 'media-placeholder-missing'))]).toEqual([])
    // LLaVA 1.5: 576 tokens per picture (the profile's rule), beside the text.
    expect(llava.tokens?.count).toBeGreaterThan(576)
  })

  it('gives an OpenCompass meta-template model the turns through a PromptList', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    await ws.session.addModel(join(demoProjectDir(), 'models/chatml.json'))
    const r = await ws.render.row({ index: 1, variantId: 'conversation', modelIds: ['demo-chatml'] })
    expect(r.models[0].text).toBe('<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n<|im_start|>user\nBye?<|im_end|>\n<|im_start|>assistant\n')
    expect(r.conversation?.reference).toBeNull()
  })

  it('gives an lm-evaluation-harness column the earlier turns as fewshot-as-multiturn exchanges', async () => {
    const d = dir()
    const ws = workspace()
    await ws.session.open(await openAiFile(d))
    await ws.session.addModel('qwen2.5-instruct@lm-eval')
    const r = await ws.render.row({ index: 1, variantId: 'conversation', modelIds: ['qwen2.5-instruct@lm-eval'] })
    const m = r.models[0]
    expect(errors(m)).toEqual([])
    expect(m.harness?.label).toBe('lm-evaluation-harness HFLM')
    expect(m.text).toContain('<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n<|im_start|>user\nBye?<|im_end|>\n<|im_start|>assistant\n')
  })

  it('resolves LLaVA pictures in the media folder and puts each where its <image> stands', async () => {
    const d = dir()
    mkdirSync(join(d, 'images'))
    writeFileSync(join(d, 'images', 'red.png'), await png('#d33'))
    writeFileSync(
      join(d, 'llava.json'),
      JSON.stringify([{ id: 'a', image: 'red.png', conversations: [{ from: 'human', value: 'Look: <image>\nColour?' }, { from: 'gpt', value: 'Red.' }] }])
    )
    const ws = workspace()
    await ws.session.open(join(d, 'llava.json'), { mediaFolder: join(d, 'images') })
    await ws.session.addModel('openai-messages')
    const r = await ws.render.row({ index: 0, variantId: 'conversation', modelIds: ['openai-messages'] })
    expect(r.models[0].messages?.[0].content).toEqual([
      { type: 'text', text: 'Look: ' },
      { type: 'image_url', image_url: { url: 'red.png' } },
      { type: 'text', text: '\nColour?' }
    ])
    expect(r.conversation!.turns[0].parts[1]).toEqual({
      kind: 'media',
      media: { field: 'conversations[0].content[1]', kind: 'image', raw: 'red.png', url: `/media?path=${encodeURIComponent(join(d, 'images', 'red.png'))}` }
    })
    expect(r.conversation!.reference?.parts).toEqual([{ kind: 'text', text: 'Red.' }])
  })
})

describe('the built-in openai-messages profile', () => {
  it('receives an AISBench prompt_mm prompt with no meta template as one user message of parts (was KeyError: role)', async () => {
    const ws = workspace()
    await ws.session.open(join(demoCopy(), 'configs/demo_mm_prompt.py'))
    await ws.session.addModel('openai-messages')
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-prompt', modelIds: ['openai-messages'] })
    const m = r.models[0]
    expect(errors(m)).toEqual([])
    expect(m.messages?.map((x) => x.role)).toEqual(['user'])
    expect((m.messages?.[0].content as { type: string }[]).map((x) => x.type)).toEqual(['image_url', 'text'])
  })

  it('renders every variant of the demo without an error', async () => {
    const ws = workspace()
    const p = await ws.session.open(demoCopy())
    await ws.session.addModel('openai-messages')
    for (const v of p.variants) {
      const r = await ws.render.row({ index: 0, variantId: v.id, modelIds: ['openai-messages'] })
      const models = [...r.models, ...(r.items ?? []).flatMap((it) => it.models)]
      expect(models.flatMap((m) => errors(m)), v.id).toEqual([])
    }
  })
})
