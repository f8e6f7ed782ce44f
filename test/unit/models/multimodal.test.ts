// Multimodal content as the model kinds receive it: transformers' processor rewrite, AISBench's VL wrappers'
// part rewrite, the signals for models that cannot take a modality, the profile's modalities field, and the
// media token rules read from transformers' processors.
import { describe, expect, it } from 'vitest'
import { aisVisionInput, chatTemplateMediaSignals, mediaPartsOf, processorMessages } from '../../../shared/models/multimodal'
import { imageTokenCost, llavaNextTokens, mllamaTiles, smartResize } from '../../../shared/models/media-tokens'
import { parseProfile } from '../../../shared/models/profile'
import { loadProfileLibrary } from '../../../main/services/models/profile-library'

const imageUrl = (url: unknown) => ({ type: 'image_url', image_url: url })

describe('ProcessorMixin.apply_chat_template part rewrite', () => {
  it('turns {"type":"image_url","image_url":{"url":U}} into {"type":"image","url":U}', () => {
    const out = processorMessages([{ role: 'user', content: [imageUrl({ url: 'a.png' }), { type: 'text', text: 'Q' }] }])
    expect(out[0].content).toEqual([{ type: 'image', url: 'a.png' }, { type: 'text', text: 'Q' }])
  })

  it('takes "image_url": U as a plain string too', () => {
    expect(processorMessages([{ role: 'user', content: [imageUrl('b.png')] }])[0].content).toEqual([{ type: 'image', url: 'b.png' }])
  })

  it('leaves string content and its input untouched', () => {
    const input = [{ role: 'user', content: 'hi' }, { role: 'user', content: [imageUrl({ url: 'c.png' })] }]
    const copy = JSON.parse(JSON.stringify(input))
    const out = processorMessages(input)
    expect(out[0]).toBe(input[0])
    expect(input).toEqual(copy)
  })
})

describe("AISBench VL wrappers' format_vision_input", () => {
  const parsed = [{ role: 'HUMAN', prompt: [imageUrl({ url: 'x.png' }), { type: 'video_url', video_url: { url: 'v.mp4' } }, { type: 'text', text: 'Q' }] }]

  it('HuggingFaceQwen2VLwithChatTemplate: image_url → {type: image, image: <image_url as is>} with vision_kwargs pixels', () => {
    const r = aisVisionInput(parsed, 'HuggingFaceQwen2VLwithChatTemplate', { min_pixels: 100, max_pixels: 200 })
    expect((r.input as { prompt: unknown[] }[])[0].prompt).toEqual([
      { type: 'image', image: { url: 'x.png' }, min_pixels: 100, max_pixels: 200 },
      { type: 'video', video: { url: 'v.mp4' }, min_pixels: 100, max_pixels: 200, fps: 2 },
      { type: 'text', text: 'Q' }
    ])
    expect(r.warning).toBeUndefined()
  })

  it('VLLMOfflineVLModel keeps video_url parts as they are', () => {
    const r = aisVisionInput(parsed, 'VLLMOfflineVLModel')
    expect((r.input as { prompt: unknown[] }[])[0].prompt[1]).toEqual({ type: 'video_url', video_url: { url: 'v.mp4' } })
  })

  it('a text prompt fails as Python does when it iterates the characters', () => {
    expect(() => aisVisionInput([{ role: 'HUMAN', prompt: 'plain text' }], 'VLLMOfflineVLModel')).toThrow(
      expect.objectContaining({ pyMessage: "TypeError: string indices must be integers, not 'str'" })
    )
  })

  it('more than one message logs upstream\'s warning and rewrites only the first', () => {
    const r = aisVisionInput([{ role: 'SYSTEM', prompt: [] }, { role: 'HUMAN', prompt: [imageUrl('y.png')] }], 'VLLMOfflineVLModel')
    expect(r.warning).toBe('Invalid input format, please check it!')
    expect((r.input as { prompt: unknown[] }[])[1].prompt).toEqual([imageUrl('y.png')])
  })
})

describe('media signals for chat-template models', () => {
  const parts = mediaPartsOf([{ content: [imageUrl({ url: 'a.png' }), { type: 'audio_url', audio_url: { url: 'a.wav' } }, { type: 'text', text: 'Q' }] }])
  const textOnly = { name: 'Qwen2.5 Instruct' }

  it('counts the parts by modality, in order', () => {
    expect(parts.map((p) => [p.modality, p.ref])).toEqual([
      ['image', 'a.png'],
      ['audio', 'a.wav']
    ])
  })

  it('a text-only template that fails on list content says it is text-only and names the parts', () => {
    const s = chatTemplateMediaSignals(textOnly, parts, { error: 'TypeError: can only concatenate str (not "list") to str', listContent: true })
    expect(s).toHaveLength(1)
    expect(s[0].code).toBe('text-only-template')
    expect(s[0].message).toContain('This template is text-only: it cannot take the image and audio parts (1 image, 1 audio clip)')
  })

  it('a text-only model whose template keeps only the text names the dropped modality and count', () => {
    const s = chatTemplateMediaSignals(textOnly, parts, { text: 'Q' })
    expect(s.map((x) => x.code)).toEqual(['media-dropped'])
    expect(s[0].message).toMatch(/^Text-only model: 1 image, 1 audio clip dropped/)
  })

  it('a vision template that wrote fewer placeholders than it received parts says so', () => {
    const vl = { name: 'LLaVA', modalities: ['text', 'image'], media: { image: { placeholder: '<image>' } } }
    const s = chatTemplateMediaSignals(vl, parts.slice(0, 1), { text: '[INST] Q [/INST]' })
    expect(s.map((x) => x.code)).toEqual(['media-placeholder-missing'])
    expect(chatTemplateMediaSignals(vl, parts.slice(0, 1), { text: '[INST] <image>\nQ [/INST]' })).toEqual([])
  })
})

describe('profile modalities', () => {
  const base = { id: 'x', name: 'X', family: 'x', format: 'hf-chat-template', chat_template: '{{ x }}', context_length: 10 }

  it('accepts the modalities a model takes with a placeholder and token rule', () => {
    const r = parseProfile({ ...base, modalities: ['text', 'image'], media: { image: { placeholder: '<image>', tokens: { rule: 'fixed', tokens: 576, source: 'llava' } } } })
    expect(r.ok).toBe(true)
  })

  it('refuses an unknown modality, naming the field', () => {
    const r = parseProfile({ ...base, modalities: ['text', 'smell'] })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.errors[0].path).toBe('modalities.1')
  })

  it('refuses media for a modality the profile does not take', () => {
    const r = parseProfile({ ...base, modalities: ['text'], media: { audio: { placeholder: '<audio>' } } })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.errors.map((e) => e.path)).toContain('media.audio')
  })

  it('the built-in library has vision-language profiles, marked, with provenance, and text-only ones unmarked', async () => {
    const lib = await loadProfileLibrary()
    expect(lib.errors).toEqual([])
    const vl = lib.profiles.filter((p) => p.modalities?.includes('image'))
    expect(vl.map((p) => p.id)).toEqual(
      expect.arrayContaining(['qwen2.5-vl-instruct', 'qwen3-vl-instruct', 'llava-v1.6-mistral', 'llama-3.2-vision-instruct', 'gemma-3-vision-it', 'gemma-4-it', 'idefics3-8b-llama3', 'smolvlm-instruct', 'lfm2.5-vl-450m'])
    )
    for (const p of vl) expect(p.provenance?.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(lib.profiles.find((p) => p.id === 'gemma-4-it')?.modalities).toEqual(['text', 'image', 'audio', 'video'])
    expect(lib.profiles.find((p) => p.id === 'qwen2.5-instruct')?.modalities).toBeUndefined()
  })
})

describe('media token rules (transformers processors)', () => {
  it('Qwen2-VL smart_resize rounds each side to a multiple of 28 (Python round: halves to even)', () => {
    expect(smartResize(240, 320, 28, 3136, 12845056)).toEqual([252, 308])
    // 70/28 = 2.5: Python's round gives 2 (JavaScript's Math.round would give 3).
    expect(smartResize(70, 280, 28, 3136, 12845056)).toEqual([56, 280])
  })

  it('Qwen2.5-VL: one token per 28×28 pixels after smart_resize, max_pixels from vision_kwargs', () => {
    const rule = { rule: 'qwen2-vl' as const, patch_size: 14, merge_size: 2, min_pixels: 3136, max_pixels: 12845056, source: 't' }
    expect(imageTokenCost(rule, { width: 320, height: 240 }).tokens).toBe((308 / 28) * (252 / 28))
    const capped = imageTokenCost(rule, { width: 1600, height: 1200 }, { max_pixels: 256 * 28 * 28 })
    expect(capped.tokens).toBeLessThanOrEqual(256)
    expect(capped.how).toContain('max_pixels 200704')
  })

  it('LLaVA-NeXT anyres: 336×336 → 576 base + 2×2 grid … (a square fits 672×672)', () => {
    const pins = [[336, 672], [672, 336], [672, 672], [1008, 336], [336, 1008]] as [number, number][]
    // 48×48 unpadded grid + 48 newline tokens + 577 base − 1 (default strategy drops CLS).
    expect(llavaNextTokens(672, 672, 336, 14, pins, 'default')).toBe(48 * 48 + 48 + 576)
  })

  it('Llama 3.2 Vision tiles: a wide 1600×1200 picture takes 4 tiles, a small one 1', () => {
    expect(mllamaTiles(1200, 1600, 4, 560)).toBe(4)
    expect(mllamaTiles(240, 320, 4, 560)).toBe(1)
  })

  it('an unknown rule or size is unknown, never a guess', () => {
    expect(imageTokenCost(undefined, { width: 10, height: 10 }).tokens).toBeNull()
    expect(imageTokenCost({ rule: 'qwen2-vl', patch_size: 14, merge_size: 2, min_pixels: 1, max_pixels: 10 ** 9, source: 't' }, null).tokens).toBeNull()
  })
})
