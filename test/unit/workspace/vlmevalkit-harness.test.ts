// A VLMEvalKit TSV (MMBench layout, base64 pictures) through one VL chat template twice, on the path of the matrix
// and `promptloom render`: as OpenCompass's wrapper sends the config's template, and as VLMEvalKit sends it
// (its own Hint/Question/Options prompt, one image part per picture, Qwen2VLChat's messages).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Host } from '../../../main/api/host'
import { resolveProjectSpec } from '../../../main/services/workspace/project-spec'
import { Workspace } from '../../../main/services/workspace/workspace'
import { SHARED_DIR } from '../../support/shared-dir'

const host: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a9a70000000049454e44ae426082', 'hex').toString('base64')

let dir: string
let ws: Workspace
let vl: string
let variant: string
let ids: string[]
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'promptloom-vlmeval-'))
  writeFileSync(
    join(dir, 'MMBench_DEV.tsv'),
    ['index\tquestion\thint\tA\tB\tanswer\timage', `0\tWhat colour is it?\t\tred\tblue\tA\t${PNG}`, `1\t这是什么颜色？\tLook closely.\t红\t蓝\tB\t${PNG}`].join('\n') + '\n'
  )
  const template = readFileSync(join(SHARED_DIR, 'chat-templates', 'templates', 'Qwen--Qwen2.5-VL-7B-Instruct.jinja'), 'utf8')
  const profile = { id: 'qwen2.5-vl-t', name: 'Qwen2.5-VL', family: 'qwen2.5-vl', format: 'hf-chat-template', chat_template: template, special_tokens: { eos_token: '<|im_end|>' }, context_length: 32768 }
  vl = join(dir, 'qwen-vl.json')
  writeFileSync(vl, JSON.stringify(profile))
  const spec = await resolveProjectSpec(join(dir, 'MMBench_DEV.tsv'))
  spec.modelFiles = [vl, `${vl}@vlmevalkit`, `${vl}@vlmevalkit,use_custom_prompt=false,system_prompt=Be brief.`]
  ws = new Workspace(host, { curation: 'memory' })
  const summary = await ws.session.openSpec(spec)
  variant = summary.variants[0].id
  ids = summary.models.map((m) => m.id)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const render = async (index: number, id: string) => (await ws.render.row({ index, variantId: variant, modelIds: [id] })).models[0]

describe('VLMEvalKit columns', () => {
  it("use Qwen2-VL's own MCQ prompt with one image part, whatever the config's template", async () => {
    const m = await render(0, 'qwen2.5-vl-t@vlmevalkit')
    expect(m.text).toBe(
      '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n<|vision_start|><|image_pad|><|vision_end|>Question: What colour is it?\nOptions:\nA. red\nB. blue\nPlease select the correct answer from the options above.<|im_end|>\n<|im_start|>assistant\n'
    )
  })

  it('ask for the letter in Chinese when the prompt has Chinese characters, and put the hint first', async () => {
    const m = await render(1, 'qwen2.5-vl-t@vlmevalkit')
    expect(m.harness?.chatMessages).toEqual([
      { role: 'user', content: [{ type: 'image', image: 'file://1.png' }, { type: 'text', text: 'Hint: Look closely.\nQuestion: 这是什么颜色？\nOptions:\nA. 红\nB. 蓝\n请直接回答选项字母。' }] }
    ])
  })

  it("with use_custom_prompt=false take the dataset's build_prompt (its trailing ' \\n' kept) and the system_prompt", async () => {
    const msgs = (await render(0, ids[2])).harness?.chatMessages as { role: string; content: unknown }[]
    expect([msgs[0], (msgs[1].content as { text?: string }[])[1].text]).toEqual([
      { role: 'system', content: 'Be brief.' },
      'Question: What colour is it?\nOptions:\nA. red\nB. blue\nPlease select the correct answer from the options above. \n'
    ])
  })
})
