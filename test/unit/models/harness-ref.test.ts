// REF@HARNESS[,K=V…]: the same profile as a column under another harness, validated like any profile.
import { describe, expect, it } from 'vitest'
import { parseHarnessRef, profileUnderHarness } from '../../../shared/models/harness-ref'
import { parseProfile, type ModelProfile } from '../../../shared/models/profile'

function profile(json: Record<string, unknown> = {}): ModelProfile {
  const r = parseProfile({ id: 'm', name: 'M', family: 'm', format: 'hf-chat-template', chat_template: '{{ messages }}', context_length: 4096, ...json })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.profile
}

describe('parseHarnessRef', () => {
  it('reads option values as JSON when they parse, as text otherwise', () => {
    expect(parseHarnessRef('qwen2.5-instruct@lm-eval,fewshot_as_multiturn=false,system_instruction=Be brief.')).toEqual({
      base: 'qwen2.5-instruct',
      harness: 'lm-eval',
      options: { fewshot_as_multiturn: false, system_instruction: 'Be brief.' }
    })
  })

  it('leaves a reference without a harness suffix alone', () => {
    expect(parseHarnessRef('qwen2.5-instruct')).toBeNull()
  })

  it('refuses a harness it does not know, naming the ones it does', () => {
    expect(() => parseHarnessRef('qwen2.5-instruct@helm')).toThrow(/unknown harness "helm".*opencompass, aisbench, lm-eval, vlmevalkit/)
  })
})

describe('profileUnderHarness', () => {
  it('names the column after the harness and keeps options apart in the id', () => {
    const a = profileUnderHarness(profile(), 'lm-eval', {})
    const b = profileUnderHarness(profile(), 'lm-eval', { fewshot_as_multiturn: false })
    expect([a.ok && a.profile.id, a.ok && a.profile.name, b.ok && /^m@lm-eval-[0-9a-f]{6}$/.test(b.profile.id)]).toEqual([
      'm@lm-eval',
      'M via lm-evaluation-harness',
      true
    ])
  })

  it('refuses an lm-eval option it does not know (zod), naming the field', () => {
    const r = profileUnderHarness(profile(), 'lm-eval', { fewshot_as_multiturns: false })
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['harness.model_kwargs'])
  })

  it('refuses an lm-eval option of the wrong type', () => {
    const r = profileUnderHarness(profile(), 'lm-eval', { fewshot_as_multiturn: 'no' })
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['harness.model_kwargs.fewshot_as_multiturn'])
  })

  it('refuses a profile that is not a chat template', () => {
    const meta = profile({ format: 'opencompass-meta', meta_template: null, chat_template: undefined })
    expect(profileUnderHarness(meta, 'lm-eval', {}).ok).toBe(false)
  })

  it('keeps an OpenCompass model config\'s wrapper and kwargs when it moves to AISBench', () => {
    const oc = profile({ harness: { name: 'opencompass', wrapper: 'VLLMwithChatTemplate', model_kwargs: { stop_words: ['x'] } } })
    const r = profileUnderHarness(oc, 'aisbench', {})
    expect(r.ok && r.profile.harness).toEqual({ name: 'aisbench', wrapper: 'VLLMwithChatTemplate', model_kwargs: { stop_words: ['x'] } })
  })
})

describe('the harness field', () => {
  it('ties HFLM to lm-eval', () => {
    const r = parseProfile({ ...profile(), harness: { name: 'opencompass', wrapper: 'HFLM' } })
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['harness.name'])
  })
})
