// The chat-template wrappers' rules that the golden cases do not pin down on their own: FastChat's adapter
// resolution, double BOS judged on what is tokenized, and max_seq_len measured on a one-message stand-in.
import { describe, expect, it } from 'vitest'
import { buildPromptList, preparePipeline, type Prepared } from '../../../shared/engine'
import { sLit } from '../../../shared/engine/spanned'
import { conversationTemplateForModel } from '../../../shared/formats/fastchat/model-adapters'
import { harnessFor, harnessSeqLimit, wrapChatPrompt, type HarnessSpec } from '../../../shared/models/harness'
import { parseProfile, type ModelProfile } from '../../../shared/models/profile'

function profile(json: Record<string, unknown>): ModelProfile {
  const r = parseProfile({ id: 't', name: 'T', family: 't', format: 'hf-chat-template', context_length: 4096, ...json })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.profile
}

const BOS_TEMPLATE =
  '{{ bos_token }}{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}'
const oc = (wrapper: HarnessSpec['wrapper'], model_kwargs: Record<string, unknown> = {}): HarnessSpec => ({
  name: 'opencompass',
  wrapper,
  model_kwargs
})
const question = sLit('Q: hi', { kind: 'template' })

describe('fastchat_template resolves NAME as a model path through FastChat adapters', () => {
  it.each([
    ['vicuna', 'vicuna_v1.1'],
    ['llama-2', 'llama-2'],
    ['qwen', 'qwen-7b-chat'],
    ['models/vicuna-7b-v0', 'one_shot'],
    ['no-such-family', 'one_shot']
  ])('%s → %s', (name, template) => {
    expect(conversationTemplateForModel(name).template).toBe(template)
  })
})

describe('TurboMind and double BOS', () => {
  const p = profile({ chat_template: BOS_TEMPLATE, special_tokens: { bos_token: '<s>' }, add_bos_token: true })

  it('TurboMind strips the one leading BOS the template writes (lmdeploy adds its own)', () => {
    const r = wrapChatPrompt(question, p, oc('TurboMindModelwithChatTemplate'), { mode: 'gen' })
    expect([r.trace.prompt, r.trace.addSpecialTokens]).toEqual(['<user>Q: hi<assistant>', null])
  })

  it('HF encodes without special tokens: the template BOS is the only BOS', () => {
    const r = wrapChatPrompt(question, p, oc('HuggingFacewithChatTemplate'), { mode: 'gen' })
    expect(r.signals.filter((s) => s.code === 'double-bos')).toEqual([])
  })

  it('vLLM with FastChat leaves tokenization to the engine, which adds BOS to a text that has none', () => {
    const r = wrapChatPrompt(question, p, oc('VLLMwithChatTemplate', { fastchat_template: 'vicuna' }), { mode: 'gen' })
    expect([r.trace.addSpecialTokens, r.signals.some((s) => s.code === 'double-bos')]).toEqual([null, false])
  })
})

describe('chat_template_kwargs', () => {
  const p = profile({
    chat_template: '{{ flag | default("unset") }}|{% for m in messages %}{{ m.content }}{% endfor %}'
  })
  it('vLLM forwards them to the template', () => {
    expect(
      wrapChatPrompt(question, p, oc('VLLMwithChatTemplate', { chat_template_kwargs: { flag: 'on' } }), { mode: 'gen' })
        .trace.prompt
    ).toBe('on|Q: hi')
  })
  it('HF ignores them (upstream logs them as unused)', () => {
    const r = wrapChatPrompt(question, p, oc('HuggingFacewithChatTemplate', { chat_template_kwargs: { flag: 'on' } }), {
      mode: 'gen'
    })
    expect([r.trace.prompt, r.warnings.some((w) => w.includes('takes no chat_template_kwargs'))]).toEqual([
      'unset|Q: hi',
      true
    ])
  })
})

describe('max_seq_len drops in-context examples measured as upstream measures', () => {
  // One "token" per character: the limit is easy to reason about.
  const counter = (t: string) => ({ count: t.length, exact: true })
  const p = profile({ chat_template: '{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}' })
  const prepared = preparePipeline({
    family: 'opencompass',
    parser: 'api',
    mode: 'gen',
    reader_cfg: { input_columns: ['q'], output_column: 'a' },
    infer_cfg: {
      ice_template: {
        type: 'PromptTemplate',
        template: {
          round: [
            { role: 'HUMAN', prompt: '{q}' },
            { role: 'BOT', prompt: '{a}' }
          ]
        }
      },
      prompt_template: {
        type: 'PromptTemplate',
        template: {
          begin: '</E>',
          round: [
            { role: 'HUMAN', prompt: '{q}' },
            { role: 'BOT', prompt: '{a}' }
          ]
        },
        ice_token: '</E>'
      },
      retriever: { type: 'FixKRetriever', fix_id_list: [0, 1] },
      inferencer: { type: 'GenInferencer' }
    },
    train: [
      { q: 'aaaa', a: '1' },
      { q: 'bbbb', a: '2' }
    ],
    test: [{ q: 'cccc', a: '3' }]
  }) as Prepared

  it('counts str(parsed PromptList) as one user message: examples, then the question, joined with nothing', () => {
    const limit = harnessSeqLimit(p, oc('HuggingFacewithChatTemplate', { max_seq_len: 100 }), counter)!
    const built = buildPromptList(prepared, 0)
    // "aaaa\n" + "1" + "bbbb\n" + "2" + "cccc\n" (the default meta's trailing "\n" on user turns) as [user]…
    expect(limit.tokenLen(built.items[0].prompt, 'gen')).toBe('[user]aaaa\n1bbbb\n2cccc\n'.length)
  })

  it('drops trailing examples until the stand-in fits', () => {
    const limit = harnessSeqLimit(
      p,
      oc('HuggingFacewithChatTemplate', { max_seq_len: '[user]aaaa\n1cccc\n'.length }),
      counter
    )!
    expect(buildPromptList(prepared, 0, limit).items[0].iceIdx).toEqual([0])
  })

  it('does not apply when the model config sets no max_seq_len, or under AISBench', () => {
    expect(harnessSeqLimit(p, oc('HuggingFacewithChatTemplate'), counter)).toBeUndefined()
    expect(
      harnessSeqLimit(
        p,
        { name: 'aisbench', wrapper: 'HuggingFacewithChatTemplate', model_kwargs: { max_seq_len: 5 } },
        counter
      )
    ).toBeUndefined()
  })
})

describe('the default wrapper of a chat-template profile', () => {
  it('is one object per profile and family, so what is cached by it (probed template facts) is computed once', () => {
    const p = profile({ chat_template: BOS_TEMPLATE })
    const a = harnessFor(p, 'opencompass')
    expect(a).toEqual({ name: 'opencompass', wrapper: 'HuggingFacewithChatTemplate', model_kwargs: {} })
    expect(harnessFor(p, 'opencompass')).toBe(a)
    expect(harnessFor(p, 'aisbench')).not.toBe(a)
    expect(harnessFor(p, 'aisbench')?.name).toBe('aisbench')
  })
})
