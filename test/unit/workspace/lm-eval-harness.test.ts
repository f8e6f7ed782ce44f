// The same model under several harnesses, side by side, on the path of the app's matrix and `promptloom render`:
// the demo's dialogue variant through Qwen2.5's chat template as AISBench (the demo config's harness) and as
// lm-evaluation-harness sends it, with fewshot_as_multiturn on (the default) and off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Prompt } from '../../../shared/engine'
import { wrapChatPrompt, type ModelProfile } from '../../../shared/models'
import { loadProfileLibrary } from '../../../main/services/models/profile-library'
import type { Host } from '../../../main/api/host'
import { demoProjectDir } from '../../../main/services/app-paths'
import { resolveProjectSpec } from '../../../main/services/workspace/project-spec'
import { Workspace } from '../../../main/services/workspace/workspace'

const host: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }
const SYSTEM = 'You answer multiple-choice questions about a picture or a short spoken clip.'
const SINGLE = 'qwen2.5-instruct@lm-eval,fewshot_as_multiturn=false'

let ws: Workspace
let ids: string[]
let qwen: ModelProfile
beforeAll(async () => {
  qwen = (await loadProfileLibrary()).profiles.find((p) => p.id === 'qwen2.5-instruct')!
  const spec = await resolveProjectSpec(demoProjectDir())
  spec.modelFiles = ['qwen2.5-instruct', 'qwen2.5-instruct@lm-eval', SINGLE]
  ws = new Workspace(host, { curation: 'memory' })
  const summary = await ws.session.openSpec(spec)
  ids = summary.models.map((m) => m.id)
})
afterAll(() => ws.close())

const roles = (msgs: unknown): string[] => (msgs as { role: string }[]).map((m) => m.role)

describe('one profile, three columns', () => {
  it('gives each harness its own column id and a name that says the harness', () => {
    expect(ids).toEqual(['qwen2.5-instruct', 'qwen2.5-instruct@lm-eval', expect.stringMatching(/^qwen2\.5-instruct@lm-eval-[0-9a-f]{6}$/)])
  })

  it('lm-eval keeps the examples as user/assistant turns, with the template SYSTEM text as the task description', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-dialogue', modelIds: ['qwen2.5-instruct@lm-eval'] })
    const h = r.models[0].harness!
    expect([h.label, roles(h.chatMessages)]).toEqual([
      'lm-evaluation-harness HFLM',
      ['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']
    ])
  })

  it('lm-eval with fewshot_as_multiturn=false joins examples and question in one user message', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-dialogue', modelIds: [ids[2]] })
    const msgs = r.models[0].harness!.chatMessages as { role: string; content: string }[]
    expect([roles(msgs), msgs[0].content]).toEqual([['system', 'user'], SYSTEM])
  })

  it('the single-turn user message joins question and answer with " " and examples with a blank line', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-dialogue', modelIds: [ids[2]] })
    const user = (r.models[0].harness!.chatMessages as { content: string }[])[1].content
    expect(user).toMatch(/Answer with the letter only\. [ABCD]\n\nQuestion: /)
  })
})

describe('what lm-eval cannot or does differently', () => {
  it('refuses a row whose turns carry image parts (AISBench prompt_mm): HFLM is text-only', () => {
    const mm: Prompt = [{ t: 'd', d: { role: 'HUMAN', prompt_mm: { text: { type: 'text', text: 'Q' } } } }]
    const r = wrapChatPrompt(mm, qwen, { name: 'lm-eval', wrapper: 'HFLM', model_kwargs: {} }, { mode: 'gen' })
    expect(r.trace.error?.message).toContain('HFMultimodalLM is not reproduced')
  })

  it('renders a PPL label as the loglikelihood request: the labels\' shared text as context, the label as continuation', async () => {
    const r = await ws.render.row({ index: 0, variantId: 'demo-mm-ppl', modelIds: ['qwen2.5-instruct@lm-eval'] })
    const t = r.items![1].models[0].harness!
    expect([t.continuation, t.prompt!.endsWith('Answer: <|im_end|>\n<|im_start|>assistant\nB')]).toEqual(['B', true])
  })
})
