// Step 6: the exported line. Every row of the split (or of a shard) through the chosen models as JSON lines
// (export.ts builds them; `promptloom render` writes the very same ones), or the curated dataset itself in its
// own or another format, with media kept, inlined or written beside the file; also the dataset's skipped lines.
// Progress with counts, cancellable, written atomically.
import { rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { CurationStatus, ExportRequest, ExportResult, ExportScope, MediaEncoding } from '../../../shared/api/types'
import type { Host } from '../../api/host'
import type { DatasetHandle } from '../datasets'
import { checkMediaEncoding, MediaEncoder } from '../export/media-encoder'
import { MediaDir } from '../export/media-dir'
import type { RowBatch } from '../export/export-rows-task'
import { sourceFormat, writeDatasetExport, type DatasetExportFormat, type DatasetExportResult, type DatasetExportRow } from '../export/dataset-export'
import type { CurationState } from './curation'
import { exportBatches, exportLines, shardRange, writeExport, type ExportOptions, type ExportSource } from './export'
import { needsWholeSplit } from './infer-mode'
import { rowMediaFacts } from './media-sizes'
import type { ProjectSession } from './project-session'
import type { RenderService } from './render-service'
import { findMediaRefs } from './row-media'
import type { Tasks } from './tasks'

type Progress = (done: number, total: number) => void

/**
 * Rows whose byte ranges are looked up at a time, and the bounds of one 'export-rows' batch: ~20 rows of 95 KB
 * base64 pictures, within the 2 MiB a worker keeps in its reused read buffers.
 */
const SPAN_WINDOW = 4096
const BATCH_BYTES = 2 << 20
const BATCH_ROWS = 256

export class ExportService {
  constructor(
    private session: ProjectSession,
    private render: RenderService,
    private tasks: Tasks,
    private host: Host
  ) {}

  /** Every row and chosen model, one JSON line each. Shared by Export and `promptloom render`. */
  lines(o: ExportOptions, signal?: AbortSignal, onProgress?: Progress) {
    return exportLines(this.source(o, signal, onProgress))
  }

  /** The same lines in batches (one per block of rows): what the writers take, one await per batch. */
  lineBatches(o: ExportOptions, signal?: AbortSignal, onProgress?: Progress) {
    return exportBatches(this.source(o, signal, onProgress))
  }

  /** The split's rows an export with these options covers (its shard, or all). */
  range(o: ExportOptions): { start: number; end: number } {
    return o.rows ?? shardRange(this.session.testRows(), o.shard)
  }

  private source(o: ExportOptions, signal?: AbortSignal, onProgress?: Progress): ExportSource {
    const p = this.session.need()
    const v = this.render.variant(p, o.variantId)
    const models = p.models.filter((m) => o.modelIds.includes(m.profile.id))
    if (models.length === 0) throw new Error(`none of the models ${o.modelIds.join(', ')} is in this project`)
    return {
      dataset: withEdits(p.dataset, this.session.curation),
      split: p.testSplit,
      total: this.session.testRows(p),
      variant: v,
      models,
      options: o,
      status: (i) => this.session.curation.get(i),
      prepare: (rows) => this.render.prepare(p, v, needsWholeSplit(v) ? 'all' : rows),
      wholeSplit: needsWholeSplit(v),
      signal,
      onProgress,
      ...(models.some((m) => m.profile.media?.image?.tokens || m.profile.media?.audio?.tokens)
        ? { mediaInfo: (value: Record<string, unknown>, file: string) => rowMediaFacts(findMediaRefs(value), p.mediaBase ? join(p.mediaBase, '_') : file, this.session.roots(), models.map((m) => m.profile)) }
        : {})
    }
  }

  /** The rows a scope keeps, read in batches with their field edits applied and their curation. */
  async *datasetRows(only: ExportScope, signal?: AbortSignal, onProgress?: Progress): AsyncGenerator<DatasetExportRow> {
    const p = this.session.need()
    const total = this.session.testRows(p)
    for (let start = 0; start < total; start += 500) {
      if (signal?.aborted) return
      const recs = await p.dataset.readRows(p.testSplit, start, Math.min(500, total - start))
      for (const r of recs) {
        if (r.error) continue
        const status = this.session.curation.get(r.index)
        if (!inScope(only, status)) continue
        const cur = this.session.curation.record(r.index)
        yield { index: r.index, value: this.session.curation.edited(r.index, r.value), status, ...(cur ? { curation: cur } : {}) }
      }
      onProgress?.(Math.min(start + 500, total), total)
    }
  }

  /**
   * The same rows as batches of byte ranges for the worker threads to read and build ('export-rows'), or null when
   * some rows are not in a byte-range file (Parquet, Arrow: read on this thread).
   */
  datasetBatches(only: ExportScope, signal?: AbortSignal, onProgress?: Progress): AsyncGenerator<RowBatch> | null {
    const p = this.session.need()
    const total = this.session.testRows(p)
    for (let start = 0; start < total; start += SPAN_WINDOW) if (!p.dataset.rowSpans(p.testSplit, start, Math.min(SPAN_WINDOW, total - start))) return null
    const curation = this.session.curation
    return (async function* () {
      for (let start = 0; start < total; start += SPAN_WINDOW) {
        if (signal?.aborted) return
        for (const sp of p.dataset.rowSpans(p.testSplit, start, Math.min(SPAN_WINDOW, total - start)) ?? []) {
          let batch: RowBatch | null = null
          let bytes = 0
          for (let k = 0; k < sp.indices.length; k++) {
            const i = sp.indices[k]
            const status = curation.get(i)
            if (!inScope(only, status)) continue
            const size = sp.ends[k] - sp.starts[k]
            if (batch && (bytes + size > BATCH_BYTES || batch.spans.indices.length >= BATCH_ROWS)) {
              yield batch
              batch = null
            }
            if (!batch) {
              batch = { spans: { ...sp, indices: [], raw: [], lines: [], starts: [], ends: [] }, curation: [] }
              bytes = 0
            }
            const b = batch.spans
            b.indices.push(i)
            b.raw.push(sp.raw[k])
            b.lines.push(sp.lines[k])
            b.starts.push(sp.starts[k])
            b.ends.push(sp.ends[k])
            bytes += size
            const record = curation.record(i)
            batch.curation.push(record ? { status, record } : { status })
          }
          if (batch) yield batch
        }
        onProgress?.(Math.min(start + SPAN_WINDOW, total), total)
      }
    })()
  }

  /** The curated dataset written to `target` in `format` (default: the source's own form). */
  async dataset(
    q: { only: ExportScope; format?: DatasetExportFormat; media: MediaEncoding; curationColumns?: boolean },
    target: string,
    signal?: AbortSignal,
    onProgress?: Progress
  ): Promise<DatasetExportResult & { format: DatasetExportFormat }> {
    const p = this.session.need()
    await p.ready
    const format = q.format ?? sourceFormat(p.dataset.format, p.dataset.columns)
    const r = await writeDatasetExport({
      target,
      format,
      rows: this.datasetRows(q.only, signal, onProgress),
      batches: this.datasetBatches(q.only, signal, onProgress) ?? undefined,
      columns: p.dataset.columns,
      encoder: this.mediaEncoder(q.media, target, signal),
      curationColumns: q.curationColumns === true,
      signal
    })
    return { ...r, format }
  }

  /** The app's Export: rendered prompts per model, or the curated dataset; progress with counts, cancellable. */
  async run(q: ExportRequest): Promise<ExportResult> {
    const p = this.session.need()
    // Export writes validated rows only (unreadable ones skipped and counted), as it always has.
    await p.ready
    const base = p.spec.name.replace(/[^\w.-]+/g, '_')
    const dsFormat = q.what === 'dataset' ? (q.format ?? sourceFormat(p.dataset.format, p.dataset.columns)) : null
    const name = dsFormat ? `${base}-curated${DATASET_EXT[dsFormat]}` : `${base}-${(q.what !== 'dataset' ? q.variantId : '').replace(/[^\w.-]+/g, '_')}.jsonl`
    const dialog = q.destination === 'dialog' && this.host.mode === 'electron'
    const target = dialog ? await this.host.pickSavePath(name) : join(await tmpExportDir(), name)
    if (!target) return { rows: 0, skipped: 0, cancelled: true }
    const task = this.tasks.start(dsFormat ? 'Exporting dataset' : 'Exporting prompts')
    const media = q.media ?? { form: 'keep' as const }
    let rows: number
    let skipped = 0
    let problems: string[] = []
    try {
      if (q.what === 'dataset') {
        const r = await this.dataset({ only: q.only, format: dsFormat!, media, curationColumns: q.curationColumns }, target, task.signal, (d, t) => task.progress(d, t))
        if (r.cancelled) return await cancelled(target, dialog)
        rows = r.rows
        problems = r.problems
      } else {
        const lines = this.lineBatches({ variantId: q.variantId, modelIds: q.modelIds, only: q.only, format: q.format ?? 'auto' }, task.signal, (d, t) => task.progress(d, t))
        const r = await writeExport(target, lines, task.signal, this.mediaEncoder(media, target, task.signal))
        if (r.cancelled) return await cancelled(target, dialog)
        rows = r.lines
        skipped = r.skipped
      }
    } catch (e) {
      if (!dialog) await rm(dirname(target), { recursive: true, force: true })
      throw e
    } finally {
      task.finish(1, 1)
    }
    const extra = problems.length ? { problems } : {}
    if (!dialog) {
      if (!this.host.offerDownload) throw new Error('this host cannot offer downloads')
      return { rows, skipped, downloadUrl: this.host.offerDownload(target, name), fileName: name, ...extra }
    }
    return { rows, skipped, path: target, ...extra }
  }

  /** Writes every skipped line as JSONL ({file, line, row, offset, code, message, raw}) where the user picks. */
  async skipped(q: { destination: 'dialog' | 'download' }): Promise<ExportResult> {
    const p = this.session.need()
    await p.ready
    const name = `${p.spec.name.replace(/[^\w.-]+/g, '_')}-skipped.jsonl`
    const dialog = q.destination === 'dialog' && this.host.mode === 'electron'
    const target = dialog ? await this.host.pickSavePath(name) : join(await tmpExportDir(), name)
    if (!target) return { rows: 0, skipped: 0, cancelled: true }
    const n = await p.dataset.exportSkipped(target)
    if (dialog) return { rows: n, skipped: 0, path: target }
    if (!this.host.offerDownload) throw new Error('this host cannot offer downloads')
    return { rows: n, skipped: 0, downloadUrl: this.host.offerDownload(target, name) }
  }

  /**
   * The encoder an export uses for media: files are read from the opened roots, relative references from the
   * dataset's folder first; assets that must become files go to a folder beside `target`.
   */
  mediaEncoder(encoding: MediaEncoding, target: string | null, signal?: AbortSignal): MediaEncoder {
    const p = this.session.need()
    const problem = checkMediaEncoding(encoding)
    if (problem) throw new Error(`media: ${problem}`)
    const ds = p.dataset.path
    const datasetDir = ds.match(/\.\w+$/) ? dirname(ds) : ds
    return new MediaEncoder(encoding, { roots: [...new Set([datasetDir, ...this.session.roots()])], mediaDir: target ? new MediaDir(target) : undefined, signal })
  }
}

/** Whether a row with this status is among the rows the scope keeps. */
function inScope(only: ExportScope, status: CurationStatus): boolean {
  return only === 'accepted' ? status === 'accepted' : only === 'not-rejected' ? status !== 'rejected' : true
}

const DATASET_EXT: Record<DatasetExportFormat, string> = { jsonl: '.jsonl', json: '.json', 'mm-custom': '.mm_custom.jsonl', 'vlmeval-tsv': '.tsv', 'hf-parquet': '.parquet' }

/** A cancelled export: nothing was written (atomic); a browser-mode export's own temp folder goes too. */
async function cancelled(target: string, dialog: boolean): Promise<ExportResult> {
  if (!dialog) await rm(dirname(target), { recursive: true, force: true })
  return { rows: 0, skipped: 0, cancelled: true }
}

/** A fresh temporary folder for a browser-mode download. */
export async function tmpExportDir(): Promise<string> {
  const { mkdtemp } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  return mkdtemp(join(tmpdir(), 'promptloom-export-'))
}

/** The dataset as export sees it: rows read through the curation's edits. */
export function withEdits(d: DatasetHandle, c: CurationState): DatasetHandle {
  return new Proxy(d, {
    get(target, prop, receiver) {
      if (prop === 'readRows') {
        return async (split: string, start: number, count: number) =>
          (await target.readRows(split, start, count)).map((r) => ({ ...r, value: c.edited(r.index, r.value) }))
      }
      const v = Reflect.get(target, prop, receiver)
      return typeof v === 'function' ? v.bind(target) : v
    }
  })
}
