// Worker task 'export-rows': a batch of the curated dataset export, from the rows' byte ranges to the bytes of
// their records. The worker reads the rows from the file itself (the main thread passes offsets, never cells: a
// 95 KB base64 picture copied into a message per row was what made the export slow), applies their field edits,
// encodes their media in this thread and hands back one buffer, moved, not copied. The main thread only writes it.
import type { CurationStatus, MediaEncoding, RowCuration } from '../../../shared/api/types'
import { readSpans, type RowSpans } from '../datasets/row-spans'
import { applyEdits } from '../workspace/curation'
import { MediaDir } from './media-dir'
import { MediaEncoder } from './media-encoder'
import { ordered } from './ordered'
import { textRecord, type DatasetExportRow, type RecordSpec, type TextFormat } from './text-record'
import { PartBuffer } from './part-buffer'

/** The rows of one batch: where they are, and each one's curation (aligned with spans.indices). */
export interface RowBatch {
  spans: RowSpans
  curation: Array<{ status: CurationStatus; record?: RowCuration }>
}

/** What the batches of one export share: the record format and how media are encoded. */
export interface ExportRowsSpec {
  format: TextFormat
  columns: string[]
  curationColumns: boolean
  encoding: MediaEncoding
  roots: string[]
  mediaDir: { temp: string; final: string } | null
}

export interface ExportRowsOutput {
  /** The batch's records, in order (one exact-size buffer, so it is moved to the main thread). */
  bytes: Uint8Array
  rows: number
  media: number
  failed: Array<{ index: number; messages: string[] }>
}

/** Records encoded at once within a batch: files read for one row overlap the next rows' encoding. */
const WINDOW = 8

export async function exportRows(input: { batch: RowBatch; spec: ExportRowsSpec }): Promise<ExportRowsOutput> {
  const { batch, spec } = input
  const encoder = new MediaEncoder(spec.encoding, { roots: spec.roots, mediaDir: spec.mediaDir ? MediaDir.at(spec.mediaDir) : undefined, inThread: true })
  const rs: RecordSpec = { format: spec.format, columns: spec.columns, curationColumns: spec.curationColumns, encoder }
  const out: ExportRowsOutput = { bytes: new Uint8Array(0), rows: 0, media: 0, failed: [] }
  const recs = await readSpans(batch.spans)
  async function* rows(): AsyncGenerator<DatasetExportRow> {
    for (let k = 0; k < recs.length; k++) {
      const r = recs[k]
      const c = batch.curation[k]
      // A row that cannot be read now is left out, as the main thread's export leaves it out.
      if (r.error) continue
      yield { index: r.index, value: applyEdits(r.value, c.record?.edits), status: c.status, ...(c.record ? { curation: c.record } : {}) }
    }
  }
  const buf = new PartBuffer()
  try {
    for await (const rec of ordered(rows(), (r) => textRecord(rs, r), WINDOW)) {
      for (const p of rec.parts) buf.add(p)
      out.rows++
      out.media += rec.media
      if (rec.failed.length) out.failed.push({ index: rec.index, messages: rec.failed })
    }
    out.bytes = buf.bytes()
  } finally {
    buf.release()
  }
  return out
}
