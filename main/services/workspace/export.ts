// Export: every row of the split through every chosen model, one JSON line per (row, model), written atomically.
// A row that makes several requests gives one line per request: per PPL label (`label`) or per multi-turn turn
// (`turn`). The same generator feeds `promptloom render`, so the CLI and the app export the very same bytes.
import type { CurationStatus, MediaEncoding } from '../../../shared/api/types'
import { applyMetaTemplate, isEngineError, parsedJson, stripAnsi, promptJson, toPlainJson, type EngineError, type Prepared, type Row } from '../../../shared/engine'
import type { ModelRender } from '../../../shared/api/types'
import { toMediaMap } from '../../../shared/models'
import type { DatasetHandle } from '../datasets'
import { openAtomic } from '../fs/atomic-write'
import type { MediaEncoder } from '../export/media-encoder'
import { MediaSlots, type Part } from '../export/media-slots'
import { ordered } from '../export/ordered'
import { LineBuffer } from '../export/line-json'
import { tokenizePromptMedia } from '../export/prompt-media'
import { renderPreparedRow, type RenderedForModels, type RenderedItem } from './render-row'
import { sentMessages } from './render-meta'
import type { ModelContext } from './model-render'
import type { RowMediaInfo } from './model-media'
import type { Variant } from './variants'
import { errorText } from '../../../shared/python/errors'

export interface ExportOptions {
  variantId: string
  modelIds: string[]
  only: 'all' | 'accepted' | 'not-rejected'
  /**
   * auto: what the model receives (string or messages); prompt-list: the dataset-side PromptList as upstream JSON;
   * multimodal: the messages (as for `messages`) with each media part a placeholder in the text and a `media` map.
   */
  format: 'auto' | 'string' | 'messages' | 'prompt-list' | 'multimodal'
  spans?: boolean
  /** How media in the prompts is written (default: as rendered). */
  media?: MediaEncoding
  /**
   * Shard `index` of `count` (0-based): a contiguous slice of the split's rows, so the shards' outputs concatenated
   * in order are the whole output. Lets a distributed engine run one process per shard.
   */
  shard?: Shard
  /** Only the split's rows [start, end) (within the shard): how parallel render hands out blocks of rows. */
  rows?: { start: number; end: number }
}

export interface Shard {
  index: number
  count: number
}

/** The rows [start, end) of shard `s` in a split of `total` rows; every row falls in exactly one shard. */
export function shardRange(total: number, s: Shard | undefined): { start: number; end: number } {
  if (!s) return { start: 0, end: total }
  return { start: Math.floor((s.index * total) / s.count), end: Math.floor(((s.index + 1) * total) / s.count) }
}

export interface ExportLine {
  index: number
  split: string
  variant: string
  model: string
  format: 'string' | 'messages' | 'prompt-list' | 'multimodal'
  /** PPL: the label this prompt is scored for (as JSON: "A", 0). Absent on generation lines. */
  label?: unknown
  /** Multi-turn: the request's turn, from 1 (upstream's turn_id + 1). Absent on generation lines. */
  turn?: number
  /** AttackInferencer: the prompt of original_prompt_list the request carries. Absent otherwise. */
  adv_prompt?: string
  prompt: unknown
  /** --format multimodal: each placeholder in the prompt's text (<image_1>, <audio_1>…) → its media part. */
  media?: Record<string, unknown>
  gold?: unknown
  status: CurationStatus
  tokens?: number
  tokens_exact?: boolean
  /** Of `tokens`, the media's own (pictures counted by the model's processor rule at their real size). */
  tokens_media?: number
  /** Media parts whose token cost is unknown (no rule, or the size could not be read): not in `tokens`. */
  tokens_media_unknown?: number
  problems?: { code: string; message: string; severity: string }[]
  spans?: unknown
  /** A chat-template model: the harness semantics its input follows ("OpenCompass HuggingFacewithChatTemplate"). */
  harness?: string
}

const BATCH = 500
/**
 * …and about this many bytes of rows, when the file says how big they are: 500 VLMEvalKit rows carry 47 MB of
 * base64 pictures, and such a batch (with the next one read ahead) lived long enough to be promoted and pile up as
 * old-generation garbage — most of a render's 650 MB.
 */
export const BATCH_BYTES = 2 << 20

export interface ExportSource {
  dataset: DatasetHandle
  split: string
  total: number
  variant: Variant
  models: ModelContext[]
  options: ExportOptions
  status: (index: number) => CurationStatus
  prepare: (rows: Row[]) => Promise<Prepared | EngineError>
  wholeSplit: boolean
  signal?: AbortSignal
  onProgress?: (done: number, total: number) => void
  /** Picture sizes for the media token rules (only asked for when a model has one). */
  mediaInfo?: (value: Record<string, unknown>, file: string) => Promise<RowMediaInfo | undefined>
}

/** The lines one at a time (see exportBatches). */
export async function* exportLines(a: ExportSource): AsyncGenerator<ExportLine> {
  for await (const batch of exportBatches(a)) yield* batch
}

/**
 * The lines in batches of up to BATCH rows, in order: a consumer that writes them pays one await per batch, not
 * one per line (with three async steps between rendering and the file, per-line awaits cost more than the render).
 * The generator only reads and awaits; each row's lines are made by plain functions (rowLines): V8 optimizes a
 * big async generator slowly and again after each deoptimization (measured: the old one-body generator was
 * compiled 9 times per 100,000-row render, ~1 s of background compile time).
 */
export async function* exportBatches(a: ExportSource): AsyncGenerator<ExportLine[]> {
  const range = a.options.rows ?? shardRange(a.total, a.options.shard)
  // The next batch is read while this one renders.
  const read = (start: number) => {
    if (start >= range.end) return null
    const count = batchRows(a, start, range.end)
    const rows = a.dataset.readRows(a.split, start, count)
    rows.catch(() => {})
    return { end: start + count, rows }
  }
  for (let next = read(range.start); next; ) {
    if (a.signal?.aborted) return
    const cur = next
    const recs = await cur.rows
    next = read(cur.end)
    const keep = recs.filter((r) => {
      const s = a.status(r.index)
      return a.options.only === 'all' || (a.options.only === 'accepted' ? s === 'accepted' : s !== 'rejected')
    })
    if (keep.length === 0) continue
    const prepared = await a.prepare(keep.map((r) => r.value))
    const batch: ExportLine[] = []
    for (let k = 0; k < keep.length; k++) {
      const rec = keep[k]
      const info = a.mediaInfo && !isEngineError(prepared) ? await a.mediaInfo(rec.value, rec.at.file) : undefined
      rowLines(a, rec, k, prepared, info, batch)
    }
    if (batch.length) yield batch
    a.onProgress?.(cur.end - range.start, range.end - range.start)
  }
}

/** How many rows from `start` the next batch reads: BATCH, fewer when they are large (BATCH_BYTES). */
function batchRows(a: ExportSource, start: number, end: number): number {
  const n = Math.min(BATCH, end - start)
  const spans = a.dataset.rowSpans(a.split, start, n)
  if (!spans) return n
  let bytes = 0
  for (const sp of spans) for (let k = 0; k < sp.starts.length; k++) bytes += sp.ends[k] - sp.starts[k]
  return bytes <= BATCH_BYTES ? n : Math.max(1, Math.floor((n * BATCH_BYTES) / bytes))
}

type LineHead = Pick<ExportLine, 'index' | 'split' | 'variant' | 'status' | 'gold'>

/**
 * One export line. Every line has the same keys in the same order (V8 then sees one object shape): the absent ones
 * are undefined, which JSON.stringify leaves out, so the JSON is that of an object with only the present keys.
 */
function line(head: LineHead, model: string, tag: { label?: unknown; turn?: number; adv_prompt?: string }, format: ExportLine['format'], prompt: unknown, more: Partial<ExportLine>): ExportLine {
  return {
    index: head.index,
    split: head.split,
    variant: head.variant,
    status: head.status,
    gold: head.gold,
    model,
    label: tag.label,
    turn: tag.turn,
    adv_prompt: tag.adv_prompt,
    format,
    prompt,
    media: more.media,
    harness: more.harness,
    tokens: more.tokens,
    tokens_exact: more.tokens_exact,
    tokens_media: more.tokens_media,
    tokens_media_unknown: more.tokens_media_unknown,
    problems: more.problems,
    spans: more.spans
  }
}

const NO_TAG = Object.freeze({})

/** The lines of one row (row × model × request, a model's labels or turns together), appended to `batch`. */
function rowLines(a: ExportSource, rec: { index: number; value: Row }, k: number, prepared: Prepared | EngineError, info: RowMediaInfo | undefined, batch: ExportLine[]): void {
  const out = a.variant.reader_cfg.output_column
  const head: LineHead = { index: rec.index, split: a.split, variant: a.variant.id, status: a.status(rec.index), gold: typeof out === 'string' && out in rec.value ? toPlainJson(rec.value[out]) : undefined }
  if (isEngineError(prepared)) {
    const problems = [{ code: prepared.code, message: stripAnsi(prepared.message), severity: 'error' }]
    for (const m of a.models) batch.push(line(head, m.profile.id, NO_TAG, 'string', null, { problems }))
    return
  }
  const r = renderPreparedRow(prepared, a.wholeSplit ? rec.index : k, rec.index, a.models, a.options.spans === true, info)
  // The conversation template's gold is the row's final assistant turn (its reference answer, not sent).
  if (r.reference) head.gold = toPlainJson(r.reference.content)
  const reqs = requests(r)
  if (a.options.format === 'prompt-list') {
    for (const it of reqs) batch.push(line(head, '(dataset)', it.tag, 'prompt-list', it.prompt ? promptJson(it.prompt) : null, { problems: r.problems.map(brief), spans: a.options.spans ? it.promptList : undefined }))
    return
  }
  if (reqs.every((it) => it.models.length === 0)) {
    for (const m of a.models) batch.push(line(head, m.profile.id, NO_TAG, 'string', null, { problems: r.problems.map(brief) }))
    return
  }
  for (let j = 0; j < a.models.length; j++) for (const it of reqs) batch.push(modelLine(a, head, r, it, it.models[j]))
}

/** A request's line for one model: what the model receives, in the format asked for, with its notes. */
function modelLine(a: ExportSource, head: LineHead, r: RenderedForModels, it: ReturnType<typeof requests>[number], m: ModelRender): ExportLine {
  const wantsMessages = a.options.format === 'messages' || a.options.format === 'multimodal'
  const asMessages = m.kind === 'messages' || wantsMessages
  // --format messages: the messages before any chat template is applied (what an OpenAI-compatible server gets),
  // never the finished string wrapped as a message. Where upstream fails there is no prompt.
  const before = wantsMessages && m.kind === 'text' ? messagesBeforeTemplate(m, it.prompt, a.variant.family) : null
  let prompt: unknown =
    m.kind === 'messages' ? (m.harness?.error ? null : (m.messages ?? []).map((x) => ({ role: x.role, content: x.content }))) : before ? before.messages : m.harness?.error ? null : m.text
  // --format multimodal (TFRobot's format_2_multimodal): text with stable media placeholders plus the map.
  let media: Record<string, unknown> | undefined
  let clash = false
  if (a.options.format === 'multimodal' && Array.isArray(prompt)) {
    const mm = toMediaMap(prompt)
    prompt = mm.messages
    media = mm.media
    clash = mm.clash
  }
  // (A prompt that could not be read as messages has no media to map: at most one of the two notes.)
  const problems = sharedProblems(r.problems, m.problems, before?.problem ?? (clash ? PLACEHOLDER_CLASH : undefined))
  const t = m.tokens
  return line(head, m.modelId, it.tag, a.options.format === 'multimodal' ? 'multimodal' : asMessages ? 'messages' : 'string', prompt, {
    media,
    harness: m.harness?.label,
    tokens: t?.count,
    tokens_exact: t?.exact,
    tokens_media: t?.media,
    tokens_media_unknown: t?.media !== undefined && t.mediaUnknown ? t.mediaUnknown : undefined,
    problems: problems.length ? problems : undefined,
    spans: a.options.spans ? (m.kind === 'text' ? m.segments : m.messages?.map((x) => x.segments ?? null)) : undefined
  })
}

/**
 * The messages a model's format received before its template: a chat wrapper's `_convert_chat_messages` output
 * (also when the template then fails: a server applies its own), FastChat/LazyLLM's conversation, or for a meta
 * template the dataset PromptList through the API parser and the OpenAI conversion.
 */
function messagesBeforeTemplate(m: ModelRender, prompt: RenderedForModels['prompt'], family: Variant['family']): { messages: unknown[] | null; problem?: { code: string; message: string; severity: string } } {
  if (m.harness) {
    if (Array.isArray(m.harness.chatMessages)) return { messages: m.harness.chatMessages as unknown[] }
    return { messages: null }
  }
  if (m.inputMessages) return { messages: m.inputMessages }
  if (prompt === null) return { messages: null }
  const applied = applyMetaTemplate(prompt, null, { parser: 'api', mode: 'gen', family })
  try {
    if (!applied.parsed) throw new Error(applied.error?.message ?? 'the template parser gave no result')
    return { messages: sentMessages(applied.parsed.kind, parsedJson(applied.parsed)) as unknown[] }
  } catch (e) {
    return { messages: null, problem: { code: 'messages-unavailable', message: `No messages for --format messages: the prompt cannot be read as messages (${stripAnsi(errorText(e))}).`, severity: 'error' } }
  }
}

/** The row's requests: one per label or turn, or the single generation request (no extra fields). */
function requests(r: RenderedForModels): { tag: { label?: unknown; turn?: number; adv_prompt?: string }; prompt: RenderedForModels['prompt']; promptList: RenderedForModels['promptList']; models: RenderedForModels['models'] }[] {
  if (!r.items) return [{ tag: {}, prompt: r.prompt, promptList: r.promptList, models: r.models }]
  const tag = (it: RenderedItem) => (r.itemKind === 'label' ? { label: it.label } : r.itemKind === 'adv_prompt' ? { adv_prompt: it.advPrompt } : { turn: it.turn })
  return r.items.map((it) => ({ tag: tag(it), prompt: it.prompt, promptList: it.promptList, models: it.models }))
}

const brief = (p: { code: string; message: string; severity: string }) => ({ code: p.code, message: p.message, severity: p.severity })

const PLACEHOLDER_CLASH = Object.freeze({
  code: 'media-placeholder-in-text',
  message: 'The text already contains a string shaped like a media placeholder (<image_1>…): a pipeline that attaches media by placeholder would take it for one.',
  severity: 'warning'
})

type Brief = ReturnType<typeof brief>
const NO_PROBLEMS: Brief[] = Object.freeze([]) as unknown as Brief[]
/**
 * Lines with the same problems share one frozen list (most lines of a job repeat the same few facts: the
 * meta-template-not-applied note on every line of a plain-string template), and encodeLines encodes a shared list
 * once, not on every line. Lists are shared by content, up to SHARED_MAX of them.
 */
const shared = new Map<string, Brief[]>()
/**
 * The shared list of a line whose only problem is a frozen (module constant) object, by that object: found without
 * making the content key (a line of a plain-string template carries such a note on every line).
 */
const sharedByConstant = new WeakMap<object, Brief[]>()
/** A shared list as the end of its line's JSON: `,"problems":[…]}`. */
const sharedTail = new WeakMap<Brief[], string>()
const SHARED_MAX = 4096
function sharedProblems(a: readonly Brief[], b: readonly Brief[], c?: Brief): Brief[] {
  const n = a.length + b.length + (c ? 1 : 0)
  if (n === 0) return NO_PROBLEMS
  const constant = n === 1 ? (a[0] ?? b[0] ?? c!) : undefined
  if (constant && Object.isFrozen(constant)) {
    let list = sharedByConstant.get(constant)
    if (!list) sharedByConstant.set(constant, (list = sharedByContent(a, b, c)))
    return list
  }
  return sharedByContent(a, b, c)
}

function sharedByContent(a: readonly Brief[], b: readonly Brief[], c?: Brief): Brief[] {
  let key = ''
  for (const p of a) key += `${p.code}\u0000${p.severity}\u0000${p.message}\u0001`
  for (const p of b) key += `${p.code}\u0000${p.severity}\u0000${p.message}\u0001`
  if (c) key += `${c.code}\u0000${c.severity}\u0000${c.message}\u0001`
  const hit = shared.get(key)
  if (hit) return hit
  const list = [...a, ...b, ...(c ? [c] : [])].map((p) => Object.freeze(brief(p)))
  // Lists that never repeat (a message naming its row) must not crowd out the common ones for good.
  if (shared.size >= SHARED_MAX) shared.clear()
  Object.freeze(list)
  shared.set(key, list)
  sharedTail.set(list, `,"problems":${JSON.stringify(list)}}`)
  return list
}

/** Lines one by one or in batches (exportBatches), as the writers below take them. */
export type LineStream = AsyncIterable<ExportLine | ExportLine[]>

async function* eachLine(lines: LineStream): AsyncGenerator<ExportLine> {
  for await (const l of lines) {
    if (Array.isArray(l)) yield* l
    else yield l
  }
}

/** One export line serialized, its media encoded as the export asks (pieces to write in order). */
export async function* serializeLines(lines: LineStream, media: MediaEncoder | null, window = 8): AsyncGenerator<{ line: ExportLine; parts: Part[] }> {
  if (!media?.active) {
    for await (const line of eachLine(lines)) yield { line, parts: [JSON.stringify(line) + '\n'] }
    return
  }
  yield* ordered(
    eachLine(lines),
    async (line) => {
      const slots = new MediaSlots(media)
      const prompt = tokenizePromptMedia(line.prompt, slots)
      const mediaMap = line.media ? (tokenizePromptMedia(line.media, slots) as Record<string, unknown>) : undefined
      const failed = await slots.settle()
      const out: ExportLine = { ...line, prompt, ...(mediaMap ? { media: mediaMap } : {}) }
      if (failed.length) {
        // A line without problems gets them after its other keys (its spans too), as it always has.
        if (line.problems === undefined) delete out.problems
        out.problems = [...(line.problems ?? []), ...failed.map((message) => ({ code: 'media', message, severity: 'warning' }))]
      }
      return { line: out, parts: slots.splice(JSON.stringify(out) + '\n', true) }
    },
    window
  )
}

/**
 * Lines without media to encode, as UTF-8 bytes in chunks of about a megabyte, in order: the bytes of
 * `JSON.stringify(line) + '\n'` for each line. `onBatch` sees each batch before its bytes are made.
 */
export async function* encodeLines(lines: LineStream, onBatch?: (batch: ExportLine[]) => void): AsyncGenerator<Buffer> {
  const out = new LineBuffer()
  for await (const l of lines) {
    const batch = Array.isArray(l) ? l : [l]
    onBatch?.(batch)
    for (let i = 0; i < batch.length; i++) {
      const line = batch[i]
      const tail = sharedTailOf(line)
      let full: Buffer | null
      if (tail === undefined) full = out.add(JSON.stringify(line))
      else {
        // The line without its problems, its closing brace replaced by the list's cached JSON: the same bytes.
        const p = line.problems
        line.problems = undefined
        const head = JSON.stringify(line)
        line.problems = p
        full = out.add(head, tail)
      }
      if (full) yield full
    }
  }
  const last = out.take()
  if (last) yield last
}

/** A line's shared problems list as JSON, when it has one and it is the line's last key (no spans after it). */
function sharedTailOf(line: ExportLine): string | undefined {
  const p = line.problems
  return p && line.spans === undefined ? sharedTail.get(p) : undefined
}

/** Encoded chunks (encodeLines) written atomically, one write in flight while the next chunk is made. */
export async function writeEncoded(target: string, chunks: AsyncIterable<Uint8Array>, signal?: AbortSignal): Promise<{ cancelled: boolean }> {
  const w = await openAtomic(target)
  try {
    let writing: Promise<void> | null = null
    for await (const chunk of chunks) {
      if (signal?.aborted) break
      await writing
      writing = w.write(chunk)
      // Seen when awaited (next chunk or the end); until then it must not count as unhandled.
      writing.catch(() => {})
    }
    await writing
    if (signal?.aborted) {
      await w.abort()
      return { cancelled: true }
    }
    await w.commit()
    return { cancelled: false }
  } catch (e) {
    await w.abort()
    throw e
  }
}

/** Writes the lines atomically: a cancelled or failed export leaves no partial file and no temp file behind. */
export async function writeExport(target: string, lines: LineStream, signal?: AbortSignal, media?: MediaEncoder | null): Promise<{ lines: number; skipped: number; cancelled: boolean }> {
  let n = 0
  let skipped = 0
  if (!media?.active) {
    const count = (batch: ExportLine[]) => {
      for (const line of batch) if (line.prompt === null) skipped++
      n += batch.length
    }
    let r: { cancelled: boolean }
    try {
      r = await writeEncoded(target, encodeLines(lines, count), signal)
    } catch (e) {
      await media?.abort()
      throw e
    }
    if (r.cancelled) {
      await media?.abort()
      return { lines: 0, skipped: 0, cancelled: true }
    }
    await media?.commit()
    return { lines: n, skipped, cancelled: false }
  }
  const w = await openAtomic(target)
  try {
    for await (const { line, parts } of serializeLines(lines, media)) {
      if (signal?.aborted) break
      if (line.prompt === null) skipped++
      for (const p of parts) await w.write(p)
      n++
    }
    if (signal?.aborted) {
      await w.abort()
      await media?.abort()
      return { lines: 0, skipped: 0, cancelled: true }
    }
    await w.commit()
    await media?.commit()
    return { lines: n, skipped, cancelled: false }
  } catch (e) {
    await w.abort()
    await media?.abort()
    throw e
  }
}
