// Worker task 'export-rows': a batch of the curated dataset export, from the rows' byte ranges to their records in
// the output file. The worker reads the rows from the file itself (the main thread passes offsets, never cells: a
// 95 KB base64 picture copied into a message per row was what made the export slow), applies their field edits,
// encodes their media in this thread and writes the records into the output at their place (ordered-writes.ts):
// the main thread gets counts back, never bytes.
import type { CurationStatus, MediaEncoding, RowCuration } from '../../../shared/api/types'
import { spanRows, type RowSpans } from '../datasets/row-spans'
import { applyEdits } from '../workspace/curation'
import { MediaDir } from './media-dir'
import { MediaEncoder } from './media-encoder'
import { ordered } from './ordered'
import { textRecord, type DatasetExportRow, type RecordSpec, type TextFormat } from './text-record'
import { BatchOutput, type OrderedOutput } from './ordered-writes'
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

export interface ExportRowsInput {
  batch: RowBatch
  spec: ExportRowsSpec
  /** The output file and its order; this batch is number `seq` of the export (0, 1, …). */
  out: OrderedOutput
  seq: number
}

export interface ExportRowsOutput {
  rows: number
  media: number
  failed: Array<{ index: number; messages: string[] }>
}

/** Records encoded at once within a batch: files read for one row overlap the next rows' encoding. */
const WINDOW = 8
/**
 * Records kept before they are written: a batch whose pictures are inlined from files can be hundreds of MB, so
 * past this it writes what it has (waiting for its turn first) and goes on.
 */
const FLUSH_BYTES = 4 << 20

export async function exportRows(input: ExportRowsInput): Promise<ExportRowsOutput> {
  const { batch, spec } = input
  const output = new BatchOutput(input.out, input.seq, spec.format === 'json')
  const encoder = new MediaEncoder(spec.encoding, { roots: spec.roots, mediaDir: spec.mediaDir ? MediaDir.at(spec.mediaDir) : undefined, inThread: true })
  const rs: RecordSpec = { format: spec.format, columns: spec.columns, curationColumns: spec.curationColumns, encoder }
  const out: ExportRowsOutput = { rows: 0, media: 0, failed: [] }
  const sp = batch.spans
  const inBytes = sp.indices.length ? sp.ends[sp.indices.length - 1] - sp.starts[0] : 0
  async function* rows(): AsyncGenerator<DatasetExportRow> {
    let k = 0
    for await (const r of spanRows(sp)) {
      const c = batch.curation[k++]
      // A row that cannot be read now is left out, as the main thread's export leaves it out.
      if (r.error) continue
      yield { index: r.index, value: applyEdits(r.value, c.record?.edits), status: c.status, ...(c.record ? { curation: c.record } : {}) }
    }
  }
  // Sized for the rows' own bytes and a little more (keys, escapes), so base64 passed through is not regrown.
  const buf = new PartBuffer(Math.min(FLUSH_BYTES, inBytes + (inBytes >> 3) + (64 << 10)))
  try {
    for await (const rec of ordered(rows(), (r) => textRecord(rs, r), WINDOW)) {
      for (const p of rec.parts) buf.add(p)
      out.rows++
      out.media += rec.media
      if (rec.failed.length) out.failed.push({ index: rec.index, messages: rec.failed })
      if (buf.length >= FLUSH_BYTES) {
        await output.write(buf.view())
        buf.clear()
      }
    }
    await output.write(buf.view())
    await output.finish()
  } finally {
    buf.release()
  }
  return out
}
