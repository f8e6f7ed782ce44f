// Multimodal content as the model kinds receive it: which content parts carry which modality, the rewrites
// upstream applies before a chat template sees them (transformers' ProcessorMixin, AISBench's VL wrappers), and
// the signals for a model that cannot take a modality. Pure data functions: the harness path, renderForModel,
// the conformance runner and the app all come through here.
import { PyError } from '../python/errors'
import { jsonRuntime } from '../python/json'
import type { Diagnostic } from '../diagnostics'

export const MODALITIES = ['text', 'image', 'audio', 'video'] as const
export type Modality = (typeof MODALITIES)[number]
export type MediaModality = Exclude<Modality, 'text'>

type Part = Record<string, unknown>

function isPart(x: unknown): x is Part {
  return !!x && typeof x === 'object' && !Array.isArray(x)
}

/**
 * The modality of one content part, by the spellings the tools write: OpenAI (`image_url`, `input_audio`,
 * AISBench's `audio_url`/`video_url`), transformers processors (`{"type":"image"|"video"|"audio", url|path|image…}`),
 * VLMEvalKit/Qwen (`{"type":"image","image":…}`). null for a part that is not media (text, unknown types).
 */
export function partModality(p: unknown): MediaModality | null {
  if (!isPart(p)) return null
  const t = p.type
  if (t === 'image' || t === 'image_url') return 'image'
  if (t === 'video' || t === 'video_url') return 'video'
  if (t === 'audio' || t === 'audio_url' || t === 'input_audio') return 'audio'
  return null
}

/** The media reference a part carries (URL, path, data URL, base64), as written; '' when it carries none. */
export function partRef(p: unknown): string {
  if (!isPart(p)) return ''
  for (const k of ['image_url', 'video_url', 'audio_url', 'url', 'path', 'image', 'video', 'audio', 'base64']) {
    const v = p[k]
    if (typeof v === 'string') return v
    if (isPart(v) && typeof v.url === 'string') return v.url
  }
  const ia = p.input_audio
  if (isPart(ia) && typeof ia.data === 'string') return ia.data
  return ''
}

export interface MediaPartRef {
  modality: MediaModality
  ref: string
  /** Message index and part index inside its content list. */
  message: number
  part: number
}

/** Every media part of a conversation, in order (messages in order, parts in order). */
export function mediaPartsOf(messages: ReadonlyArray<{ content?: unknown }>): MediaPartRef[] {
  const out: MediaPartRef[] = []
  messages.forEach((m, i) => {
    if (!Array.isArray(m?.content)) return
    m.content.forEach((p, j) => {
      const modality = partModality(p)
      if (modality) out.push({ modality, ref: partRef(p), message: i, part: j })
    })
  })
  return out
}

/** "1 image, 2 audio clips" — counts by modality in a fixed order, for signals. */
export function countPhrase(parts: ReadonlyArray<{ modality: MediaModality }>): string {
  const n: Record<MediaModality, number> = { image: 0, audio: 0, video: 0 }
  for (const p of parts) n[p.modality]++
  const words: Record<MediaModality, [string, string]> = { image: ['image', 'images'], audio: ['audio clip', 'audio clips'], video: ['video', 'videos'] }
  return (['image', 'audio', 'video'] as const)
    .filter((k) => n[k] > 0)
    .map((k) => `${n[k]} ${words[k][n[k] === 1 ? 0 : 1]}`)
    .join(', ')
}

/**
 * transformers ProcessorMixin.apply_chat_template (5.17.0, the version ../shared/conformance's processor-path
 * goldens were made with): before the template runs, each OpenAI-style part of a list-content message,
 * `{"type": "image_url", "image_url": {"url": U}}` or `{"type": "image_url", "image_url": U}`, becomes
 * `{"type": "image", "url": U}` (../shared/specs/hf-chat-template-cases.md, vision/audio-language section).
 * Everything else is passed as it is; the input is not modified.
 */
export function processorMessages<M extends { content?: unknown }>(messages: ReadonlyArray<M>): M[] {
  return messages.map((m) => {
    if (!isPart(m) || !Array.isArray(m.content)) return m
    let changed = false
    const content = m.content.map((p) => {
      if (!isPart(p) || p.type !== 'image_url') return p
      const v = p.image_url
      const url = isPart(v) ? v.url : v
      changed = true
      return { type: 'image', url }
    })
    return changed ? { ...m, content } : m
  })
}

/**
 * AISBench's VL wrappers (models/local_models/huggingface_vl.py HuggingFaceQwen2VLwithChatTemplate.format_vision_input,
 * vllm_offline_vl.py VLLMOfflineVLModel.format_image_input) rewrite the parts of the FIRST parsed item's prompt
 * before `_convert_chat_messages`: `image_url` → `{'type': 'image', 'image': item['image_url']}` (the url dict or
 * string as it is, plus min_pixels/max_pixels/total_pixels from vision_kwargs when set); the HF wrapper also turns
 * `video_url` into `{'type': 'video', 'video': item['video_url'], …, 'fps': 2, 'nframes': …}` (vLLM keeps it).
 * Other parts stay. Iterating a str prompt fails as in Python (`item['type']` on a character).
 */
export function aisVisionInput(
  parsed: unknown,
  wrapper: 'HuggingFaceQwen2VLwithChatTemplate' | 'VLLMOfflineVLModel',
  visionKwargs: Record<string, unknown> = {}
): { input: unknown; warning?: string } {
  const list = Array.isArray(parsed) ? parsed : null
  const warning = !list || list.length !== 1 || !isPart(list[0]) ? 'Invalid input format, please check it!' : undefined
  if (typeof parsed === 'string') {
    // inputs[i][0] of a str is its first character; ['prompt'] on it raises.
    throw new PyError('TypeError', "string indices must be integers, not 'str'")
  }
  if (!list || list.length === 0) throw new PyError('IndexError', 'list index out of range')
  const first = list[0]
  if (!isPart(first)) throw new PyError('TypeError', `${typeof first === 'string' ? 'string' : 'list'} indices must be integers, not 'str'`)
  if (!('prompt' in first)) throw new PyError('KeyError', "'prompt'")
  const prompt = first.prompt
  if (typeof prompt === 'string') {
    if (prompt.length > 0) throw new PyError('TypeError', "string indices must be integers, not 'str'")
    return { input: list, warning }
  }
  const px: Record<string, unknown> = {}
  for (const k of ['min_pixels', 'max_pixels', 'total_pixels']) if (visionKwargs[k] !== undefined && visionKwargs[k] !== null) px[k] = visionKwargs[k]
  // `for item in prompt`: iter() of it (a dict's keys are str items, which are not parts).
  const out = jsonRuntime.items(prompt).map((item) => {
    if (!isPart(item)) throw new PyError('TypeError', "string indices must be integers, not 'str'")
    if (!('type' in item)) throw new PyError('KeyError', "'type'")
    if (item.type === 'image_url') return { type: 'image', image: item.image_url, ...px }
    if (item.type === 'video_url' && wrapper === 'HuggingFaceQwen2VLwithChatTemplate') {
      const v: Record<string, unknown> = { type: 'video', video: item.video_url, ...px }
      v.fps = visionKwargs.fps ?? 2
      // nframes needs the video's frame count (cv2.CAP_PROP_FRAME_COUNT); it only feeds the processor, not the text.
      return v
    }
    return item
  })
  return { input: [{ ...first, prompt: out }, ...list.slice(1)], warning }
}

/** The modalities a profile takes; absent: text only (message APIs are not judged: the server decides). */
export function profileModalities(profile: { modalities?: readonly string[] }): readonly string[] {
  return profile.modalities ?? ['text']
}

const MOD_WORD: Record<MediaModality, string> = { image: 'image', audio: 'audio', video: 'video' }

/**
 * The signals for a model whose input is a string built by a chat template: what the template received (`parts`:
 * the media parts of its messages) against what it can take and what it wrote. Never silent: a text-only model
 * given media says which modality and how many were dropped; a vision template that wrote fewer placeholders than
 * it received parts says so; a template that failed on list content says it is text-only beside upstream's error.
 */
export function chatTemplateMediaSignals(
  profile: { name: string; modalities?: readonly string[]; media?: Partial<Record<MediaModality, { placeholder: string }>> },
  parts: ReadonlyArray<MediaPartRef>,
  outcome: { text: string } | { error: string; listContent: boolean }
): Diagnostic[] {
  const takes = profileModalities(profile)
  const out: Diagnostic[] = []
  if ('error' in outcome) {
    const notTaken = parts.filter((p) => !takes.includes(p.modality))
    if (outcome.listContent && (notTaken.length > 0 || (parts.length === 0 && takes.length === 1)))
      out.push({
        code: 'text-only-template',
        severity: 'error',
        message: `This template is text-only: it cannot take the ${notTaken.length ? `${[...new Set(notTaken.map((p) => MOD_WORD[p.modality]))].join(' and ')} part${notTaken.length === 1 ? '' : 's'} (${countPhrase(notTaken)})` : 'content-part list'} — transformers fails on it as shown (${outcome.error}). Use a vision/audio-language profile, or a text-only prompt for this model.`
      })
    return out
  }
  const dropped = parts.filter((p) => !takes.includes(p.modality))
  if (dropped.length)
    out.push({
      code: 'media-dropped',
      severity: 'warning',
      message: `Text-only model: ${countPhrase(dropped)} dropped — ${profile.name} takes ${takes.join(', ')} only, so the template kept the text and the model never sees the ${[...new Set(dropped.map((p) => MOD_WORD[p.modality]))].join(' or ')}.`
    })
  for (const mod of ['image', 'audio', 'video'] as const) {
    const given = parts.filter((p) => p.modality === mod)
    const ph = profile.media?.[mod]?.placeholder
    if (!given.length || !takes.includes(mod) || !ph) continue
    const written = outcome.text.split(ph).length - 1
    if (written < given.length)
      out.push({
        code: 'media-placeholder-missing',
        severity: 'warning',
        message: `The template wrote ${written} ${ph} for ${countPhrase(given)}: ${given.length - written === 1 ? 'one part does' : `${given.length - written} parts do`} not reach the model. This template reads only some part spellings (e.g. {"type": "${mod}"}); OpenAI-style ${mod}_url parts pass through a tokenizer unchanged — a processor wrapper (HuggingFaceQwen2VLwithChatTemplate, VLLMOfflineVLModel) or transformers' processor rewrites image_url parts.`
      })
  }
  return out
}
