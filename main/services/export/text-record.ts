// One row of the curated dataset export as the text formats write it (JSONL, a JSON array's element, AISBench
// mm_custom, a VLMEvalKit TSV line), its media replaced by slot tokens and spliced back as encoded bytes
// (MediaSlots). The main thread builds records this way for rows it read itself (Parquet, Arrow sources), and the
// 'export-rows' worker task for rows it reads from a byte-range file, so both give the same bytes.
import type { CurationStatus, RowCuration } from '../../../shared/api/types'
import { toPlainJson } from '../../../shared/engine'
import { mediaItems, type Kind } from './dataset-media'
import type { MediaEncoder } from './media-encoder'
import { MediaSlots, type Part } from './media-slots'
import { tokenizePromptMedia } from './prompt-media'
import type { AssetForm } from '../media/encode'

export type TextFormat = 'jsonl' | 'json' | 'mm-custom' | 'vlmeval-tsv'

export interface DatasetExportRow {
  index: number
  /** The row with its field edits applied. */
  value: Record<string, unknown>
  status: CurationStatus
  curation?: RowCuration
}

/** What every record of one export shares. */
export interface RecordSpec {
  format: TextFormat
  /** Top-level columns in the dataset's order (TSV columns). */
  columns: string[]
  curationColumns: boolean
  encoder: MediaEncoder
}

export interface TextRecord {
  index: number
  /**
   * The record's bytes in order: text, with encoded media between the pieces. A JSON array's element starts with
   * ",\n" (the writer drops the first element's comma); other formats end with "\n".
   */
  parts: Part[]
  media: number
  failed: string[]
}

export const CURATION_COLUMNS = ['curation_status', 'curation_note', 'curation_tags', 'curation_edited'] as const

export function curationFields(r: DatasetExportRow, joined: boolean): Record<string, unknown> {
  const tags = r.curation?.tags ?? []
  const edited = Object.keys(r.curation?.edits ?? {})
  return {
    curation_status: r.status,
    curation_note: r.curation?.note ?? '',
    curation_tags: joined ? tags.join(',') : tags,
    curation_edited: joined ? edited.join(',') : edited
  }
}

/** Top-level columns, in the dataset's order (nested paths folded into their first segment). */
export function topColumns(names: string[]): string[] {
  const out: string[] = []
  for (const n of names) {
    const top = n.split('.')[0]
    if (!out.includes(top)) out.push(top)
  }
  return out
}

/** The form media take in a text format: the user's choice, or what the format requires. */
function formFor(spec: RecordSpec): AssetForm | null {
  if (spec.format === 'mm-custom') return 'path'
  if (spec.format === 'vlmeval-tsv') return 'base64'
  return spec.encoder.form
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

export async function textRecord(spec: RecordSpec, r: DatasetExportRow): Promise<TextRecord> {
  const slots = new MediaSlots(spec.encoder)
  const form = formFor(spec)
  let text: string
  let json = true
  if (spec.format === 'mm-custom') {
    const v = r.value
    const src = v.path ?? v.image ?? v.images ?? v.audio ?? v.video
    const items = mediaItems(src, 'path') ?? []
    const type = typeof v.type === 'string' ? v.type : (items[0]?.media ?? 'image')
    const path = items.map((it) => slots.put(it.source, { media: it.media ?? (type as Kind), form: 'path', name: it.name }))
    const rec: Record<string, unknown> = { type, path, question: toPlainJson(v.question ?? v.text ?? ''), answer: toPlainJson(v.answer ?? '') }
    text = JSON.stringify(spec.curationColumns ? { ...rec, ...curationFields(r, false) } : rec) + '\n'
  } else if (spec.format === 'vlmeval-tsv') {
    json = false
    const cells = spec.columns.map((c) => tsvCell(c in r.value ? tokenize(r.value[c], c, slots, form) : undefined))
    if (spec.curationColumns) {
      const cf = curationFields(r, true)
      for (const c of CURATION_COLUMNS) cells.push(tsvCell(cf[c]))
    }
    text = cells.join('\t') + '\n'
  } else {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(r.value)) out[k] = toPlainJson(tokenize(v, k, slots, form))
    const body = JSON.stringify(spec.curationColumns ? { ...out, ...curationFields(r, false) } : out)
    text = spec.format === 'json' ? ',\n' + body : body + '\n'
  }
  const failed = await slots.settle()
  return { index: r.index, parts: slots.splice(text, json, (s) => s.replace(/"/g, '""')), media: slots.size, failed }
}

const q = (s: string) => `"${s.replace(/"/g, '""')}"`

export function tsvHeader(spec: Pick<RecordSpec, 'columns' | 'curationColumns'>): string {
  return [...spec.columns, ...(spec.curationColumns ? CURATION_COLUMNS : [])].map(q).join('\t')
}

/** One TSV field as pandas writes it with QUOTE_ALL: None empty, booleans True/False, lists of images as a list literal. */
function tsvCell(v: unknown): string {
  if (v === undefined || v === null) return '""'
  if (typeof v === 'string') return q(v)
  if (typeof v === 'boolean') return q(v ? 'True' : 'False')
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' && x.startsWith('\u0000'))) return q(`[${v.map((x) => `'${x}'`).join(', ')}]`)
  const plain = toPlainJson(v)
  return q(typeof plain === 'number' ? String(plain) : JSON.stringify(plain))
}
