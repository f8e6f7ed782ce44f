// Conversation-shaped datasets: rows that carry a whole chat, in the two forms eval and fine-tune sets use.
//
//  - OpenAI chat format (`messages`): [{role, content}] with content a string or a list of parts
//    ({"type":"text","text"}, {"type":"image_url","image_url":{"url"}}, {"type":"input_audio","input_audio":{data,
//    format}}, {"type":"video_url","video_url":{"url"}}) — the OpenAI vision fine-tuning JSONL, Together/Fireworks.
//  - LLaVA / ShareGPT (`conversations`): [{from: "human"|"gpt"|"system", value}] with `<image>` placeholders and
//    the pictures in an `image` (one) or `images` (several) field, relative to an image folder (LLaVA's
//    --image-folder, LLaMA-Factory's media_dir); `<video>`/`videos` and `<audio>`/`audios` likewise.
//
// Both become one list of OpenAI-style messages (content parts where media is present), which every model kind
// receives in its own way (render-row.ts). Where the media go follows LLaMA-Factory, the converter that reads
// both forms: its mm_plugin replaces each `<image>` in place, in order, one picture per placeholder, and refuses a
// row whose counts differ (src/llamafactory/data/mm_plugin.py `_validate_messages`, hiyouga/LLaMA-Factory
// ff6d4d12); its SharegptDatasetConverter maps the ShareGPT tags (human/gpt/system/observation/function_call,
// converter.py). The text around a placeholder is kept byte for byte, so the parts concatenate back to the value
// with each picture where its `<image>` stood. LLaVA itself moves `<image>` to the front of its turn when it trains
// (llava/train/train.py:308 `preprocess_multimodal`: `DEFAULT_IMAGE_TOKEN + '\n' + value.replace(...).strip()`)
// and its eval scripts prepend it to the question (llava/eval/model_vqa.py:49); a row with pictures but no
// placeholder at all gets them that way: before the text of the first user turn.
//
// The final assistant turn is the row's reference answer (the gold), not part of what is sent: the model is asked
// to produce it. Earlier assistant turns stay in the history.

import { base64Head, embeddedMedia } from '../media/media-value'

export type ConversationStyle = 'openai' | 'sharegpt'

export interface ConversationColumn {
  column: string
  style: ConversationStyle
}

export interface ConversationMessage {
  role: string
  /** A string, or OpenAI content parts where the turn holds media. */
  content: unknown
  [k: string]: unknown
}

export interface ConversationWarning {
  code: string
  message: string
  severity: 'info' | 'warning' | 'error'
}

export interface RowConversation {
  /** The turns sent to the model, in order (system first when the data has one). */
  messages: ConversationMessage[]
  /** The final assistant turn: the row's reference answer, not sent. Null when the conversation ends on a user turn. */
  reference: ConversationMessage | null
  warnings: ConversationWarning[]
}

/** Column names the readers give such data, in the order they are looked for. */
const OPENAI_COLUMNS = ['messages']
const SHAREGPT_COLUMNS = ['conversations', 'conversation']

/**
 * The conversation column of a dataset from its column names and types, or null. `messages` is OpenAI's name;
 * `conversations` is LLaVA's and ShareGPT's. A row decides its own style later (a `messages` list of from/value
 * dicts is read as ShareGPT, as LLaMA-Factory's `formatting: sharegpt` with `messages` does).
 */
export function conversationColumn(columns: Array<{ name: string; type: string; counts?: Partial<Record<string, number>>; present?: number }>): ConversationColumn | null {
  // Mostly lists: a few broken rows (a string, null) do not hide the shape; those rows say what is wrong with them.
  const listy = (c: (typeof columns)[number]) => c.type === 'array' || (c.type === 'mixed' && (c.counts?.array ?? 0) * 2 >= (c.present ?? Infinity))
  const arrays = new Set(columns.filter(listy).map((c) => c.name))
  for (const c of OPENAI_COLUMNS) if (arrays.has(c)) return { column: c, style: 'openai' }
  for (const c of SHAREGPT_COLUMNS) if (arrays.has(c)) return { column: c, style: 'sharegpt' }
  return null
}

/** ShareGPT `from` tags → chat roles (LLaMA-Factory's defaults, plus the role names some sets write instead). */
const SHAREGPT_ROLE: Record<string, string> = {
  human: 'user',
  user: 'user',
  gpt: 'assistant',
  assistant: 'assistant',
  chatgpt: 'assistant',
  bard: 'assistant',
  bing: 'assistant',
  system: 'system',
  observation: 'tool',
  function_call: 'assistant'
}

const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

type MediaKey = 'image' | 'video' | 'audio'
const PLACEHOLDER: Record<MediaKey, string> = { image: '<image>', video: '<video>', audio: '<audio>' }
const PART_OF: Record<MediaKey, string> = { image: 'image_url', video: 'video_url', audio: 'audio_url' }
const FIELDS: Record<MediaKey, [string, string]> = { image: ['image', 'images'], video: ['video', 'videos'], audio: ['audio', 'audios'] }

/** The MIME type of media bytes by their magic numbers (for a data: URL); octet-stream when unknown. */
function mimeOf(b: Uint8Array, kind: MediaKey): string {
  const at = (i: number, s: string) => [...s].every((c, k) => b[i + k] === c.charCodeAt(0))
  if (b[0] === 0x89 && at(1, 'PNG')) return 'image/png'
  if (b[0] === 0xff && b[1] === 0xd8) return 'image/jpeg'
  if (at(0, 'GIF8')) return 'image/gif'
  if (at(0, 'RIFF')) return at(8, 'WEBP') ? 'image/webp' : at(8, 'WAVE') ? 'audio/wav' : 'video/x-msvideo'
  if (at(0, 'BM')) return 'image/bmp'
  if (at(0, 'II*\0') || at(0, 'MM\0*')) return 'image/tiff'
  if (at(0, 'fLaC')) return 'audio/flac'
  if (at(0, 'OggS')) return 'audio/ogg'
  if (at(0, 'ID3') || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0)) return 'audio/mpeg'
  if (at(4, 'ftyp')) return kind === 'audio' ? 'audio/mp4' : 'video/mp4'
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'video/webm'
  return 'application/octet-stream'
}

/**
 * One listed asset as a part's URL: a string as the data gives it (path, URL, data: URL); media stored in the data
 * (a Hugging Face Image/Audio struct with bytes, Parquet binary) as a data: URL of those bytes, so every model kind,
 * the app and the export take it as they take any inline asset; a struct with only a path, that path.
 */
function assetRef(v: unknown, kind: MediaKey): unknown {
  if (typeof v === 'string') return v
  const m = embeddedMedia(v)
  if (m?.base64) return `data:${mimeOf(base64Head(m.base64), kind)};base64,${m.base64}`
  if (m?.path) return m.path
  return v
}

/** The media a row lists beside its conversation (`image` or `images`, …), in order; empty entries are skipped. */
function listedMedia(row: Record<string, unknown>, kind: MediaKey): unknown[] {
  const out: unknown[] = []
  for (const f of FIELDS[kind]) {
    const v = row[f]
    if (v === undefined || v === null || v === '') continue
    if (Array.isArray(v)) out.push(...v.filter((x) => x !== null && x !== undefined && x !== '').map((x) => assetRef(x, kind)))
    else out.push(assetRef(v, kind))
  }
  return out
}

/** The OpenAI content part for one listed asset (a path, URL or data: URL as the data gives it). */
export function mediaPart(kind: MediaKey, ref: unknown): Record<string, unknown> {
  const key = PART_OF[kind]
  return { type: key, [key]: { url: ref } }
}

interface Placer {
  queues: Record<MediaKey, unknown[]>
  used: Record<MediaKey, number>
  placeholders: Record<MediaKey, number>
}

/** A string content with its `<image>`/`<video>`/`<audio>` placeholders replaced in place by the listed assets. */
function expand(text: string, placer: Placer): unknown {
  const re = /<(image|video|audio)>/g
  if (!re.test(text)) return text
  re.lastIndex = 0
  const parts: Record<string, unknown>[] = []
  let last = 0
  let placedAny = false
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const kind = m[1] as MediaKey
    placer.placeholders[kind]++
    const k = placer.used[kind]
    if (k >= placer.queues[kind].length) continue // no asset left: the placeholder stays text
    if (m.index > last) parts.push({ type: 'text', text: text.slice(last, m.index) })
    parts.push(mediaPart(kind, placer.queues[kind][k]))
    placer.used[kind]++
    placedAny = true
    last = m.index + m[0].length
  }
  if (!placedAny) return text
  if (last < text.length) parts.push({ type: 'text', text: text.slice(last) })
  return parts
}

function textOf(v: unknown): string {
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v)
}

/**
 * The conversation of one row as OpenAI-style messages plus its reference answer. Never throws: a row that is not
 * a conversation gives no messages and an error warning that says why.
 */
export function rowConversation(row: Record<string, unknown>, col: ConversationColumn): RowConversation {
  const warnings: ConversationWarning[] = []
  const raw = row[col.column]
  if (!Array.isArray(raw)) {
    warnings.push({ code: 'conversation-missing', message: `This row has no "${col.column}" list, so there is no conversation to send.`, severity: 'error' })
    return { messages: [], reference: null, warnings }
  }
  const placer: Placer = {
    queues: { image: listedMedia(row, 'image'), video: listedMedia(row, 'video'), audio: listedMedia(row, 'audio') },
    used: { image: 0, video: 0, audio: 0 },
    placeholders: { image: 0, video: 0, audio: 0 }
  }
  const messages: ConversationMessage[] = []
  raw.forEach((m, i) => {
    if (!isDict(m)) {
      warnings.push({ code: 'conversation-turn', message: `Turn ${i + 1} is not an object (${textOf(m).slice(0, 40)}); it is left out.`, severity: 'error' })
      return
    }
    const shareGpt = 'from' in m && !('role' in m)
    if (shareGpt) {
      const tag = String(m.from)
      const role = SHAREGPT_ROLE[tag.toLowerCase()]
      if (!role) warnings.push({ code: 'conversation-role', message: `Turn ${i + 1} comes from "${tag}", which is none of human/gpt/system: sent with that role.`, severity: 'warning' })
      const value = m.value
      messages.push({ role: role ?? tag, content: typeof value === 'string' ? expand(value, placer) : (value ?? '') })
      return
    }
    if (!('role' in m)) {
      warnings.push({ code: 'conversation-turn', message: `Turn ${i + 1} has neither "role" nor "from"; it is left out.`, severity: 'error' })
      return
    }
    const msg: ConversationMessage = { ...m, role: String(m.role), content: m.content ?? '' }
    // LLaMA-Factory's sharegpt format with OpenAI tags: string contents with <image> and an `images` list.
    if (typeof msg.content === 'string') msg.content = expand(msg.content, placer)
    messages.push(msg)
  })
  const total = (k: MediaKey) => placer.queues[k].length
  for (const kind of ['image', 'video', 'audio'] as MediaKey[]) {
    const n = total(kind)
    const ph = placer.placeholders[kind]
    const tag = PLACEHOLDER[kind]
    if (n > 0 && ph === 0) {
      // LLaVA's eval convention: the picture before the question (llava/eval/model_vqa.py: `<image>\n` + qs).
      const first = messages.find((m) => m.role === 'user')
      if (first) {
        const parts = placer.queues[kind].map((r) => mediaPart(kind, r))
        first.content = [...parts, ...(Array.isArray(first.content) ? first.content : first.content === '' ? [] : [{ type: 'text', text: textOf(first.content) }])]
        placer.used[kind] = n
        warnings.push({ code: 'conversation-media-placed', message: `No ${tag} in the conversation: the row's ${n === 1 ? kind : `${n} ${kind}s`} go${n === 1 ? 'es' : ''} before the first user turn's text, as LLaVA's eval scripts put it.`, severity: 'info' })
      } else warnings.push({ code: 'conversation-media-unplaced', message: `The row lists ${n} ${kind}(s) but the conversation has no user turn to carry them: not sent.`, severity: 'error' })
    } else if (n !== ph) {
      const extra = n - placer.used[kind]
      if (extra > 0) {
        const first = messages.find((m) => m.role === 'user')
        if (first) {
          const parts = placer.queues[kind].slice(placer.used[kind]).map((r) => mediaPart(kind, r))
          first.content = [...parts, ...(Array.isArray(first.content) ? first.content : first.content === '' ? [] : [{ type: 'text', text: textOf(first.content) }])]
          placer.used[kind] = n
        }
      }
      warnings.push({
        code: 'conversation-media-count',
        message:
          n > ph
            ? `The row lists ${n} ${kind}(s) but the conversation has ${ph} ${tag}: the ${n - ph} without a place go before the first user turn's text. LLaMA-Factory refuses such a row ("The number of ${kind}s does not match the number of ${tag} tokens").`
            : `The conversation has ${ph} ${tag} but the row lists ${n} ${kind}(s): the last ${ph - n} stay as the text "${tag}". LLaMA-Factory refuses such a row ("The number of ${kind}s does not match the number of ${tag} tokens").`,
        severity: 'warning'
      })
    }
  }
  let reference: ConversationMessage | null = null
  if (messages.length > 0 && messages[messages.length - 1].role === 'assistant') reference = messages.pop()!
  if (messages.length === 0) warnings.push({ code: 'conversation-empty', message: reference ? 'The conversation is only an assistant turn: nothing is left to send once it is kept as the reference answer.' : 'The conversation has no turns.', severity: 'error' })
  return { messages, reference, warnings }
}

/** The text of a message's content (text parts joined), for a reference answer or a text-only view. */
export function contentPlainText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content))
    return content.map((p) => (isDict(p) && p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('')
  return textOf(content)
}

/** The media of a content part: its kind and the reference (URL, path, data: URL, or raw base64 for input_audio). */
export function partMedia(part: unknown): { kind: MediaKey; ref: string; format?: string } | null {
  if (!isDict(part)) return null
  const t = part.type
  const urlOf = (v: unknown) => (typeof v === 'string' ? v : isDict(v) && typeof v.url === 'string' ? v.url : null)
  if (t === 'image_url' || t === 'video_url' || t === 'audio_url') {
    const u = urlOf(part[t])
    return u === null ? null : { kind: t === 'image_url' ? 'image' : t === 'video_url' ? 'video' : 'audio', ref: u }
  }
  if (t === 'input_audio' && isDict(part.input_audio) && typeof part.input_audio.data === 'string')
    return { kind: 'audio', ref: part.input_audio.data, ...(typeof part.input_audio.format === 'string' ? { format: part.input_audio.format } : {}) }
  if ((t === 'image' || t === 'video' || t === 'audio') && (typeof part[t] === 'string' || typeof part.url === 'string' || typeof part.path === 'string'))
    return { kind: t, ref: (typeof part[t] === 'string' ? part[t] : typeof part.url === 'string' ? part.url : part.path) as string }
  return null
}
