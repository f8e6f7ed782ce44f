// Export of the curated dataset itself (issue #9 item 6): the rows a scope keeps, with their field edits applied,
// optionally with curation columns, in one of the forms evaluation tools read —
//   jsonl        the rows as JSON lines, media encoded as chosen;
//   json         the rows as one JSON array (LLaVA's fine-tune JSON, a `json.load`-read list), media as chosen;
//   mm-custom    AISBench mm_custom JSONL {type, path: [absolute paths], question, answer} (MMCustomDataset reads
//                files by path, so media are always paths; inline or re-encoded assets are written beside it);
//   vlmeval-tsv  VLMEvalKit TSV (tab-separated, every field quoted as vlmeval.smp.dump writes it), images as
//                base64 in their column, several images as a Python list literal;
//   hf-parquet   Hugging Face `datasets` Parquet: media columns as Image/Audio/Video structs {bytes, path} with
//                the `huggingface` schema metadata `datasets` reads back.
// Written atomically (temp file + rename; cancelled or failed: no output, no temp), streamed row by row with a
// bounded window of rows whose media are being encoded on the worker threads.
import type { CurationStatus, RowCuration } from '../../../shared/api/types'
import { toPlainJson } from '../../../shared/engine'
import type { ColumnInfo } from '../datasets/types'
import { openAtomic, type AtomicWriter } from '../fs/atomic-write'
import { isBytesValue, isHfMediaStruct } from '../../../shared/media/media-value'
import { mediaItems, type Kind, type MediaItem } from './dataset-media'
import type { MediaEncoder } from './media-encoder'
import { MediaSlots, type Part } from './media-slots'
import { ordered } from './ordered'
import { tokenizePromptMedia } from './prompt-media'
import type { AssetForm } from '../media/encode'

export const DATASET_FORMATS = ['jsonl', 'json', 'mm-custom', 'vlmeval-tsv', 'hf-parquet'] as const
export type DatasetExportFormat = (typeof DATASET_FORMATS)[number]

export interface DatasetExportRow {
  index: number
  /** The row with its field edits applied. */
  value: Record<string, unknown>
  status: CurationStatus
  curation?: RowCuration
}

export interface DatasetExportResult {
  rows: number
  /** Assets written, and those that could not be encoded (kept as the dataset gave them, and listed). */
  media: number
  mediaFailed: number
  problems: string[]
  cancelled: boolean
}

interface Args {
  target: string
  format: DatasetExportFormat
  rows: AsyncIterable<DatasetExportRow>
  /** The dataset's columns (dotted paths for nested fields); the top-level ones give TSV and Parquet their columns. */
  columns: ColumnInfo[]
  encoder: MediaEncoder
  curationColumns: boolean
  signal?: AbortSignal
  onRow?: (rows: number) => void
}

/** Rows encoded ahead of the one being written: enough to keep two workers busy, few enough to bound memory. */
const WINDOW = 8
const MAX_PROBLEMS = 50

/** The format a dataset is exported in by default: its own. */
export function sourceFormat(datasetFormat: string, columns: ColumnInfo[]): DatasetExportFormat {
  const names = new Set(columns.map((c) => c.name))
  if (datasetFormat === 'parquet' || datasetFormat === 'arrow') return 'hf-parquet'
  if (datasetFormat === 'tsv') return 'vlmeval-tsv'
  // A JSON list (LLaVA's fine-tune files, read with json.load) stays one.
  if (datasetFormat === 'json') return 'json'
  if (names.has('type') && names.has('path') && names.has('question')) return 'mm-custom'
  return 'jsonl'
}

const CURATION_COLUMNS = ['curation_status', 'curation_note', 'curation_tags', 'curation_edited'] as const

function curationFields(r: DatasetExportRow, joined: boolean): Record<string, unknown> {
  const tags = r.curation?.tags ?? []
  const edited = Object.keys(r.curation?.edits ?? {})
  return {
    curation_status: r.status,
    curation_note: r.curation?.note ?? '',
    curation_tags: joined ? tags.join(',') : tags,
    curation_edited: joined ? edited.join(',') : edited
  }
}

export async function writeDatasetExport(a: Args): Promise<DatasetExportResult> {
  const w = await openAtomic(a.target)
  const res: DatasetExportResult = { rows: 0, media: 0, mediaFailed: 0, problems: [], cancelled: false }
  const note = (index: number, msgs: string[]) => {
    res.mediaFailed += msgs.length
    for (const m of msgs) if (res.problems.length < MAX_PROBLEMS) res.problems.push(`row ${index}: ${m}`)
  }
  try {
    if (a.format === 'hf-parquet') await writeParquet(a, w, res, note)
    else {
      const lines = ordered(a.rows, (r) => textRecord(a, r), WINDOW)
      if (a.format === 'vlmeval-tsv') await w.write(tsvHeader(a) + '\n')
      // A JSON array is written as a stream too: "[", the records separated by ",\n", "]".
      const array = a.format === 'json'
      if (array) await w.write('[')
      for await (const rec of lines) {
        if (a.signal?.aborted) break
        note(rec.index, rec.failed)
        res.media += rec.media - rec.failed.length
        if (array) await w.write(res.rows === 0 ? '\n' : ',\n')
        for (const p of rec.parts) await w.write(p)
        res.rows++
        a.onRow?.(res.rows)
      }
      if (array) await w.write(res.rows === 0 ? ']\n' : '\n]\n')
    }
    if (a.signal?.aborted) {
      await w.abort()
      await a.encoder.abort()
      return { ...res, rows: 0, cancelled: true }
    }
    await w.commit()
    await a.encoder.commit()
    return res
  } catch (e) {
    await w.abort()
    await a.encoder.abort()
    throw e
  }
}

/** The form media take in a text format: the user's choice, or what the format requires. */
function formFor(a: Args): AssetForm | null {
  if (a.format === 'mm-custom') return 'path'
  if (a.format === 'vlmeval-tsv') return 'base64'
  return a.encoder.form
}

/**
 * Replaces the media of one value by slot tokens: each asset in the format's form. Values the export must turn
 * into text anyway (bytes, HF structs) are base64 when the user keeps media as they are.
 */
function tokenize(v: unknown, key: string, slots: MediaSlots, form: AssetForm | null): unknown {
  const items = mediaItems(v, key)
  if (items) {
    const binary = items.some((it) => it.binary)
    const f = form ?? (binary ? 'base64' : null)
    if (!f) return v
    const toks = items.map((it) => slots.put(it.source, { media: it.media, form: f, name: it.name }))
    return Array.isArray(v) ? toks : toks[0]
  }
  // Media inside text or nested structures (AIS content strings, OpenAI message parts): encoded in place.
  if (form && (typeof v === 'string' || (v && typeof v === 'object'))) return tokenizePromptMedia(v, slots)
  return v
}

interface TextRecord {
  index: number
  parts: Part[]
  media: number
  failed: string[]
}

async function textRecord(a: Args, r: DatasetExportRow): Promise<TextRecord> {
  const slots = new MediaSlots(a.encoder)
  const form = formFor(a)
  let text: string
  let json = true
  if (a.format === 'mm-custom') {
    const v = r.value
    const src = v.path ?? v.image ?? v.images ?? v.audio ?? v.video
    const items = mediaItems(src, 'path') ?? []
    const type = typeof v.type === 'string' ? v.type : (items[0]?.media ?? 'image')
    const path = items.map((it) => slots.put(it.source, { media: it.media ?? (type as Kind), form: 'path', name: it.name }))
    const rec: Record<string, unknown> = { type, path, question: toPlainJson(v.question ?? v.text ?? ''), answer: toPlainJson(v.answer ?? '') }
    text = JSON.stringify(a.curationColumns ? { ...rec, ...curationFields(r, false) } : rec) + '\n'
  } else if (a.format === 'vlmeval-tsv') {
    json = false
    const cells = tsvColumns(a).map((c) => tsvCell(c in r.value ? tokenize(r.value[c], c, slots, form) : undefined, slots))
    if (a.curationColumns) {
      const cf = curationFields(r, true)
      for (const c of CURATION_COLUMNS) cells.push(tsvCell(cf[c], slots))
    }
    text = cells.join('\t') + '\n'
  } else {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(r.value)) out[k] = toPlainJson(tokenize(v, k, slots, form))
    text = JSON.stringify(a.curationColumns ? { ...out, ...curationFields(r, false) } : out) + (a.format === 'json' ? '' : '\n')
  }
  const failed = await slots.settle()
  return { index: r.index, parts: slots.splice(text, json, (s) => s.replace(/"/g, '""')), media: slots.size, failed }
}

/** Top-level columns, in the dataset's order (nested paths folded into their first segment). */
function topColumns(cols: ColumnInfo[]): string[] {
  const out: string[] = []
  for (const c of cols) {
    const top = c.name.split('.')[0]
    if (!out.includes(top)) out.push(top)
  }
  return out
}

function tsvColumns(a: Args): string[] {
  return topColumns(a.columns)
}

const q = (s: string) => `"${s.replace(/"/g, '""')}"`

function tsvHeader(a: Args): string {
  return [...tsvColumns(a), ...(a.curationColumns ? CURATION_COLUMNS : [])].map(q).join('\t')
}

/** One TSV field as pandas writes it with QUOTE_ALL: None empty, booleans True/False, lists of images as a list literal. */
function tsvCell(v: unknown, slots: MediaSlots): string {
  void slots
  if (v === undefined || v === null) return '""'
  if (typeof v === 'string') return q(v)
  if (typeof v === 'boolean') return q(v ? 'True' : 'False')
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' && x.startsWith('\u0000'))) return q(`[${v.map((x) => `'${x}'`).join(', ')}]`)
  const plain = toPlainJson(v)
  return q(typeof plain === 'number' ? String(plain) : JSON.stringify(plain))
}

// ---------------------------------------------------------------------------------------------------------------
// Hugging Face Parquet

type ParquetKind = { kind: 'media'; feature: 'Image' | 'Audio' | 'Video'; list: boolean } | { kind: 'value'; type: 'STRING' | 'INT64' | 'DOUBLE' | 'BOOLEAN'; dtype: string }

/** Row-group size: a group closes at this many media bytes or this many rows, whichever comes first. */
const GROUP_BYTES = 48 << 20
const GROUP_ROWS = 1000

function valueKind(c: ColumnInfo | undefined): ParquetKind {
  switch (c?.type) {
    case 'integer':
      return { kind: 'value', type: 'INT64', dtype: 'int64' }
    case 'number':
      return { kind: 'value', type: 'DOUBLE', dtype: 'float64' }
    case 'boolean':
      return { kind: 'value', type: 'BOOLEAN', dtype: 'bool' }
    default:
      return { kind: 'value', type: 'STRING', dtype: 'string' }
  }
}

const FEATURE: Record<Kind, 'Image' | 'Audio' | 'Video'> = { image: 'Image', audio: 'Audio', video: 'Video' }

async function writeParquet(a: Args, w: AtomicWriter, res: DatasetExportResult, note: (i: number, m: string[]) => void): Promise<void> {
  const { ParquetWriter, ByteWriter } = await import('hyparquet-writer')
  const names = topColumns(a.columns)
  const byName = new Map(a.columns.map((c) => [c.name, c]))
  let kinds: Map<string, ParquetKind> | null = null
  let writer: InstanceType<typeof ParquetWriter> | null = null
  const bytes = new ByteWriter(1 << 20)
  // The file is streamed: each finished row group goes to the temp file and the buffer starts over.
  ;(bytes as unknown as { flush: () => Promise<void> }).flush = async () => {
    if (bytes.index === 0) return
    await w.write(new Uint8Array(bytes.buffer.slice(0, bytes.index)))
    bytes.index = 0
  }
  type Pending = { row: DatasetExportRow; slots: MediaSlots; cells: Map<string, unknown>; failed: string[] }
  let group: Pending[] = []
  let groupBytes = 0

  const prepare = async (r: DatasetExportRow): Promise<Pending> => {
    const slots = new MediaSlots(a.encoder)
    const cells = new Map<string, unknown>()
    for (const n of names) {
      const v = r.value[n]
      const items = mediaItems(v, n)
      if (items) cells.set(n, { items, tokens: items.map((it) => slots.put(it.source, { media: it.media, raw: true, name: it.name })), list: Array.isArray(v) })
      else cells.set(n, v)
    }
    const failed = await slots.settle()
    return { row: r, slots, cells, failed }
  }

  const decide = (first: Pending[]): Map<string, ParquetKind> => {
    const m = new Map<string, ParquetKind>()
    for (const n of names) {
      const media = first.map((p) => p.cells.get(n)).find((c): c is { items: MediaItem[]; tokens: string[]; list: boolean } => !!c && typeof c === 'object' && 'tokens' in (c as object))
      if (media) m.set(n, { kind: 'media', feature: FEATURE[media.items[0].media ?? 'image'], list: media.list })
      else m.set(n, valueKind(byName.get(n)))
    }
    return m
  }

  const open = (k: Map<string, ParquetKind>) => {
    const extra = a.curationColumns ? CURATION_COLUMNS.map((c) => [c, { kind: 'value', type: 'STRING', dtype: 'string' } as ParquetKind] as const) : []
    const all = [...k.entries(), ...extra]
    const schema: Record<string, unknown>[] = [{ name: 'schema', num_children: all.length }]
    const features: Record<string, unknown> = {}
    for (const [n, pk] of all) {
      if (pk.kind === 'media') {
        const struct = [
          { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
          { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }
        ]
        if (pk.list) {
          schema.push({ name: n, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 }, ...struct)
          features[n] = { feature: { _type: pk.feature }, _type: 'List' }
        } else {
          schema.push({ name: n, repetition_type: 'OPTIONAL', num_children: 2 }, ...struct)
          features[n] = { _type: pk.feature }
        }
      } else {
        schema.push(pk.type === 'STRING' ? { name: n, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' } : { name: n, type: pk.type, repetition_type: 'OPTIONAL' })
        features[n] = { dtype: pk.dtype, _type: 'Value' }
      }
    }
    return new ParquetWriter({
      writer: bytes,
      schema: schema as never,
      kvMetadata: [{ key: 'huggingface', value: JSON.stringify({ info: { features } }) }],
      createdBy: 'PromptLoom'
    })
  }

  const cellValue = (pk: ParquetKind, c: unknown, slots: MediaSlots): unknown => {
    if (pk.kind === 'media') {
      const m = c && typeof c === 'object' && 'tokens' in (c as object) ? (c as { items: MediaItem[]; tokens: string[] }) : null
      if (!m) return null
      const structs = m.tokens.map((t, i) => ({ bytes: slots.payload(t), path: m.items[i].name }))
      return pk.list ? structs : structs[0]
    }
    if (c === undefined || c === null) return null
    const v = toPlainJson(c)
    switch (pk.type) {
      case 'INT64':
        return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : typeof c === 'bigint' ? c : null
      case 'DOUBLE':
        return typeof v === 'number' ? v : null
      case 'BOOLEAN':
        return typeof v === 'boolean' ? v : null
      default:
        if (c instanceof Uint8Array) return Buffer.from(c).toString('base64')
        if (isBytesValue(c)) return c.$bytes
        if (isHfMediaStruct(c)) return JSON.stringify({ path: c.path })
        return typeof v === 'string' ? v : JSON.stringify(v)
    }
  }

  const flushGroup = async () => {
    if (!group.length) return
    kinds ??= decide(group)
    writer ??= open(kinds)
    const cols = [...kinds.entries()]
    const columnData = cols.map(([n, pk]) => ({
      name: n,
      data: group.map((p) => cellValue(pk, p.cells.get(n), p.slots)),
      ...(pk.kind === 'media' ? { codec: 'UNCOMPRESSED' as const, encoding: 'PLAIN' as const, statistics: false } : {})
    }))
    if (a.curationColumns) {
      for (const c of CURATION_COLUMNS) columnData.push({ name: c, data: group.map((p) => String(curationFields(p.row, true)[c])) })
    }
    await writer.write({ columnData: columnData as never, rowGroupSize: group.length })
    group = []
    groupBytes = 0
  }

  for await (const p of ordered(a.rows, prepare, WINDOW)) {
    if (a.signal?.aborted) return
    note(p.row.index, p.failed)
    res.media += p.slots.size - p.failed.length
    group.push(p)
    for (const r of p.slots.results) if (r?.ok) groupBytes += r.payload.byteLength
    res.rows++
        a.onRow?.(res.rows)
    if (groupBytes >= GROUP_BYTES || group.length >= GROUP_ROWS) await flushGroup()
  }
  if (a.signal?.aborted) return
  await flushGroup()
  if (!writer) {
    // No rows: a valid file with the columns as strings.
    kinds = new Map(names.map((n) => [n, valueKind(byName.get(n))]))
    writer = open(kinds)
  }
  await (writer as InstanceType<typeof ParquetWriter>).finish()
  await (bytes as unknown as { flush: () => Promise<void> }).flush()
}
