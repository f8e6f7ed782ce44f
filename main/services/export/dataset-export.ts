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
// Written atomically (temp file + rename; cancelled or failed: no output, no temp) and streamed. The text formats
// take rows of a byte-range file (JSONL, CSV, TSV) as batches of byte ranges that the worker threads read, turn
// into records and write into the temp file themselves, in order ('export-rows', ordered-writes.ts): the main
// thread only counts. Rows it must read itself (Parquet, Arrow) it turns into records with the same code, their
// media encoded on the workers, and writes.
import { closeSync, openSync } from 'node:fs'
import { toPlainJson } from '../../../shared/engine'
import type { ColumnInfo } from '../datasets/types'
import { openAtomic, type AtomicWriter } from '../fs/atomic-write'
import { isBytesValue, isHfMediaStruct } from '../../../shared/media/media-value'
import { runTask } from '../workers/pool'
import { mediaItems, type Kind, type MediaItem } from './dataset-media'
import type { RowBatch } from './export-rows-task'
import type { MediaEncoder } from './media-encoder'
import { MediaSlots, type Part } from './media-slots'
import { ordered } from './ordered'
import { orderedOutput, outputEnd, stopOutput, type OrderedOutput } from './ordered-writes'
import { CURATION_COLUMNS, curationFields, textRecord, topColumns, tsvHeader, type DatasetExportRow, type RecordSpec, type TextFormat } from './text-record'

export type { DatasetExportRow } from './text-record'

export const DATASET_FORMATS = ['jsonl', 'json', 'mm-custom', 'vlmeval-tsv', 'hf-parquet'] as const
export type DatasetExportFormat = (typeof DATASET_FORMATS)[number]

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
  /**
   * The same rows as batches of byte ranges, when every one is in a byte-range file: text formats then have the
   * worker threads read and build them.
   */
  batches?: AsyncIterable<RowBatch>
  /** The dataset's columns (dotted paths for nested fields); the top-level ones give TSV and Parquet their columns. */
  columns: ColumnInfo[]
  encoder: MediaEncoder
  curationColumns: boolean
  signal?: AbortSignal
  onRow?: (rows: number) => void
}

/** Rows encoded ahead of the one being written: enough to keep two workers busy, few enough to bound memory. */
const WINDOW = 8
/** Batches in flight: two building on the workers, two more queued so neither waits while the main thread writes. */
const BATCH_WINDOW = 4
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

/** Records ready to write, with what they count. */
interface RecordChunk {
  parts: Part[]
  rows: number
  media: number
  failed: Array<{ index: number; messages: string[] }>
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
      const spec: RecordSpec = { format: a.format, columns: topColumns(a.columns.map((c) => c.name)), curationColumns: a.curationColumns, encoder: a.encoder }
      if (a.format === 'vlmeval-tsv') await w.write(tsvHeader(spec) + '\n')
      // A JSON array is written as a stream too: "[", the elements (each after ",\n"; the first one's comma
      // dropped), "]".
      const array = a.format === 'json'
      if (array) await w.write('[')
      // The workers write into the file from where it is now; this thread goes on after what they wrote.
      const out = a.batches ? await w.handOff().then((h) => orderedOutput(h.fd, h.at)) : null
      for await (const chunk of out && a.batches ? workerChunks(spec, a.batches, out) : threadChunks(spec, a.rows)) {
        if (a.signal?.aborted) break
        for (const f of chunk.failed) note(f.index, f.messages)
        res.media += chunk.media - chunk.failed.reduce((n, f) => n + f.messages.length, 0)
        for (const [k, p] of chunk.parts.entries()) await w.write(array && res.rows === 0 && k === 0 ? dropComma(p) : p)
        res.rows += chunk.rows
        a.onRow?.(res.rows)
      }
      if (out) w.resumeAt(outputEnd(out))
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

/** A JSON array's first element without the comma before it (one byte: the part is text or UTF-8). */
const dropComma = (p: Part): Part => (typeof p === 'string' ? p.slice(1) : p.subarray(1))

/** Records built on this thread, one chunk each, their media encoded on the workers. */
async function* threadChunks(spec: RecordSpec, rows: AsyncIterable<DatasetExportRow>): AsyncGenerator<RecordChunk> {
  for await (const rec of ordered(rows, (r) => textRecord(spec, r), WINDOW)) {
    yield { parts: rec.parts, rows: 1, media: rec.media, failed: rec.failed.length ? [{ index: rec.index, messages: rec.failed }] : [] }
  }
}

/**
 * Records built on the worker threads from the rows' byte ranges and written by them into `out`: each chunk is one
 * batch's counts. Returns (normally, cancelled or failed) only when no batch is running any more, so the file is
 * not closed under a worker still writing it.
 */
async function* workerChunks(spec: RecordSpec, batches: AsyncIterable<RowBatch>, out: OrderedOutput): AsyncGenerator<RecordChunk> {
  const enc = spec.encoder
  enc.prepareWorkers()
  const shared = { format: spec.format as TextFormat, columns: spec.columns, curationColumns: spec.curationColumns, encoding: enc.encoding, roots: enc.roots, mediaDir: enc.mediaDir }
  const running = new Set<Promise<unknown>>()
  // The source files are opened once for all batches (opening and closing one per batch cost each worker ~0.3 s).
  const sources = new Map<string, number>()
  let seq = 0
  const run = (batch: RowBatch) => {
    const file = batch.spans.file
    let fd = sources.get(file)
    if (fd === undefined) sources.set(file, (fd = openSync(file, 'r')))
    const t = runTask('export-rows', { batch: { ...batch, spans: { ...batch.spans, fd } }, spec: shared, out, seq: seq++ })
    running.add(t)
    void t.then(
      () => running.delete(t),
      () => running.delete(t)
    )
    return t
  }
  let finished = false
  try {
    for await (const r of ordered(batches, run, BATCH_WINDOW)) yield { parts: [], rows: r.rows, media: r.media, failed: r.failed }
    finished = true
  } finally {
    // Cancelled or failed: the batches waiting for their turn give up, and those writing finish first.
    if (!finished) stopOutput(out)
    await Promise.allSettled([...running])
    for (const fd of sources.values()) closeSync(fd)
  }
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
  const names = topColumns(a.columns.map((c) => c.name))
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
    for (const r of p.slots.results) if (r?.ok) groupBytes += r.bytes
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
