// Chat-template models in the workspace, the path of the app's matrix and of `promptloom render`: the demo's
// dialogue variant through Qwen2.5's chat template as each harness wraps it (a built-in profile follows the
// config's harness — the demo config is AISBench's —, an imported OpenCompass model config follows OpenCompass).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import { demoProjectDir } from '../../../main/services/app-paths'
import { resolveProjectSpec } from '../../../main/services/workspace/project-spec'
import { Workspace } from '../../../main/services/workspace/workspace'
import type { ExportLine } from '../../../main/services/workspace/export'

const host: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }
const SYSTEM = 'You answer multiple-choice questions about a picture or a short spoken clip.'

let ws: Workspace
let dir: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'promptloom-chat-harness-'))
  // An OpenCompass model config for the same model; its path names the Hugging Face repo of a built-in profile.
  writeFileSync(
    join(dir, 'qwen_oc.json'),
    JSON.stringify({
      models: [
        {
          type: 'opencompass.models.HuggingFacewithChatTemplate',
          abbr: 'qwen2.5-7b-instruct-oc',
          path: 'Qwen/Qwen2.5-7B-Instruct',
          max_out_len: 64,
          batch_size: 8
        }
      ]
    })
  )
  const spec = await resolveProjectSpec(demoProjectDir())
  spec.modelFiles = ['qwen2.5-instruct', join(dir, 'qwen_oc.json')]
  ws = new Workspace(host, { curation: 'memory' })
  await ws.session.openSpec(spec)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const roles = (msgs: unknown): string[] => (msgs as { role: string }[]).map((m) => m.role)

describe('the demo dialogue variant through a chat-template model', () => {
  it('keeps the in-context examples as alternating user/assistant turns (AISBench: SYSTEM stays a system message)', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-dialogue', modelIds: ['qwen2.5-instruct'] })
    const h = r.models[0].harness!
    expect(h.label).toBe('AISBench HuggingFacewithChatTemplate')
    expect(roles(h.chatMessages)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user'
    ])
    const msgs = h.chatMessages as { role: string; content: string }[]
    expect(msgs[0].content).toBe(SYSTEM)
    // The examples' answers are the train rows' (0, 1, 2); the test row's own answer is not sent.
    expect(msgs.filter((m) => m.role === 'assistant').every((m) => /^[ABCD]$/.test(m.content))).toBe(true)
    expect(r.models[0].text!.startsWith(`<|im_start|>system\n${SYSTEM}<|im_end|>\n<|im_start|>user\nQuestion: `)).toBe(
      true
    )
    expect(r.models[0].text!.endsWith('Answer with the letter only.<|im_end|>\n<|im_start|>assistant\n')).toBe(true)
  })

  it('follows OpenCompass for an OpenCompass model config: SYSTEM joins the first user turn, user turns end in "\\n"', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-dialogue', modelIds: ['qwen2.5-7b-instruct-oc'] })
    const h = r.models[0].harness!
    expect(h.label).toBe('OpenCompass HuggingFacewithChatTemplate')
    expect(roles(h.chatMessages)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user'])
    const users = (h.chatMessages as { role: string; content: string }[]).filter((m) => m.role === 'user')
    expect(users[0].content.startsWith(`${SYSTEM}\nQuestion: `)).toBe(true)
    expect(users.every((m) => m.content.endsWith('\n'))).toBe(true)
    // No system message reached the template, so Qwen2.5's default system prompt is there.
    expect(r.models[0].text!.startsWith('<|im_start|>system\nYou are Qwen, created by Alibaba Cloud.')).toBe(true)
  })

  it('says a chat-template wrapper cannot score the PPL variant', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-ppl', modelIds: ['qwen2.5-instruct'] })
    const m = r.items![0].models[0]
    expect([m.text, m.problems.find((p) => p.severity === 'error')?.code]).toEqual(['', 'ppl-unsupported'])
  })

  it('exports the harness with each line, and the messages the chat template received', async () => {
    const lines: ExportLine[] = []
    for await (const l of ws.exports.lines({
      variantId: 'demo-mm-dialogue',
      modelIds: ['qwen2.5-7b-instruct-oc'],
      only: 'all',
      format: 'messages'
    })) {
      lines.push(l)
      break
    }
    expect(lines[0].harness).toBe('OpenCompass HuggingFacewithChatTemplate')
    expect(roles(lines[0].prompt)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user'])
  })
})
