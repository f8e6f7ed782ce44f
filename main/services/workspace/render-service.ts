// Step 3: what each model receives for a row. The variant's pipeline is prepared (retriever, in-context examples,
// prompt template) over the row — or once over the whole split for retrievers that compare rows — and rendered
// through every chosen model (render-row.ts), with the row's media resolved for the app. Export and lint prepare
// rows through the same `prepare`.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { datasetDiagnostic } from '../datasets'
import type { Diagnostic, RowCuration, RowRender } from '../../../shared/api/types'
import { CONTENT_SPEC_KEY, type ContentSpec } from '../../../shared/builder'
import { decodeInferCfg, isEngineError, preparePipeline, toPlainJson, type EngineError, type Prepared, type Row } from '../../../shared/engine'
import { jsonGet } from '../../../shared/python/json'
import type { Host } from '../../api/host'
import { needsWholeSplit, variantMode } from './infer-mode'
import { ContentComposer } from './prompt-builder'
import { refUrlOf, rowMediaFacts } from './media-sizes'
import { splitSize, type LoadedProject } from './project-load'
import type { ProjectSession } from './project-session'
import { conversationView } from './render-conversation'
import { apiItems, renderPreparedRow } from './render-row'
import { engineProblem, type ModelContext } from './model-render'
import { findMediaRefs, onePerFile, resolveRowMedia } from './row-media'
import { conversationOf, type Variant } from './variants'

/** A precomputed ice_idx file's JSON (the engine checks its shape against the splits). */
async function readIceIdx(file: string): Promise<{ file: string; indices: unknown }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    return { file, indices: `cannot read: ${e instanceof Error ? e.message : String(e)}` }
  }
  try {
    return { file, indices: JSON.parse(text) }
  } catch (e) {
    return { file, indices: `not JSON: ${e instanceof Error ? e.message : String(e)}` }
  }
}

/** Retrievers that compare a row with every other row read the whole split; beyond this we refuse politely. */
const MAX_ROWS_IN_MEMORY = 200_000

/** Originals shorter than this are too common to say a field was derived from them. */
const MIN_DERIVED_CHARS = 8

/** An unsaved template edit standing in for the variant or for some models (the template editor's preview). */
export interface RenderDraft {
  variant?: Variant
  models?: Map<string, ModelContext>
}

export class RenderService {
  constructor(
    private session: ProjectSession,
    private host: Host
  ) {}

  /** The project's variant `id`, or an error naming it. */
  variant(p: LoadedProject, id: string): Variant {
    const v = p.variants.find((x) => x.id === id)
    if (!v) throw new Error(`no template variant "${id}" in this project`)
    return v
  }

  private trainRows(p: LoadedProject): Promise<Row[]> {
    if (!p.trainRows) {
      const n = splitSize(p, p.trainSplit)
      if (n > MAX_ROWS_IN_MEMORY) throw new Error(`the train split has ${n.toLocaleString()} rows; in-context examples are drawn from at most ${MAX_ROWS_IN_MEMORY.toLocaleString()}`)
      p.trainRows = p.dataset.readRows(p.trainSplit, 0, n).then((rs) => rs.map((r) => r.value))
    }
    return p.trainRows
  }

  /**
   * A prepared pipeline for `rows`. Zero/FixK retrievers do not look at other test rows, so a row is prepared on
   * its own; the others (Random, SlidingWindow, BM25, …) are prepared once over the whole split and cached.
   */
  async prepare(p: LoadedProject, v: Variant, rows: Row[] | 'all'): Promise<Prepared | EngineError> {
    const base = {
      family: v.family,
      reader_cfg: v.reader_cfg,
      infer_cfg: decodeInferCfg(v.infer_cfg),
      // ZeroRetriever never reads the train split; skipping it lets a huge single-split dataset render at all.
      train: jsonGet(v.infer_cfg, 'retriever', 'type') === 'ZeroRetriever' ? [] : await this.trainRows(p),
      meta_template: null,
      parser: 'lm' as const,
      mode: variantMode(v),
      ...(v.iceIdxFile ? { ice_idx: await readIceIdx(v.iceIdxFile) } : {})
    }
    if (rows !== 'all') return preparePipeline({ ...base, test: rows })
    // An unsaved template edit is not one of the project's variants: cached under its config, one at a time.
    const key = p.variants.includes(v) ? v.id : `\0draft:${v.id}:${JSON.stringify(v.infer_cfg)}`
    let cached = p.prepared.get(key)
    if (!cached) {
      if (key !== v.id) for (const k of p.prepared.keys()) if (k.startsWith('\0draft:')) p.prepared.delete(k)
      const n = this.session.testRows(p)
      if (n > MAX_ROWS_IN_MEMORY) throw new Error(`${jsonGet(v.infer_cfg, 'retriever', 'type')} compares every test row; ${n.toLocaleString()} rows is more than ${MAX_ROWS_IN_MEMORY.toLocaleString()}`)
      cached = p.dataset.readRows(p.testSplit, 0, n).then((rs) => preparePipeline({ ...base, test: rs.map((r) => this.session.curation.edited(r.index, r.value)) }))
      p.prepared.set(key, cached)
    }
    return cached
  }

  /** One row through the variant and every chosen model: the exact-input matrix of the app's row panel. */
  async row(q: { index: number; variantId: string; modelIds: string[] }, draft?: RenderDraft): Promise<RowRender> {
    const p = this.session.need()
    const curation = () => this.session.curation
    const v = draft?.variant ?? this.variant(p, q.variantId)
    const raw = await p.dataset.readRow(p.testSplit, q.index)
    if (!raw) throw new Error(`row ${q.index} is out of range`)
    // Before validation ends an unreadable row is still listed: it renders as an error, not as an empty prompt.
    if (raw.error) {
      const e = raw.error
      return { index: q.index, split: p.testSplit, variantId: v.id, fields: {}, media: [], status: curation().get(q.index), promptList: [], models: [], problems: [{ ...datasetDiagnostic(e), message: `${e.message} (line ${e.at.line ?? '?'}); validation will skip this row` }] }
    }
    // Edited fields are what renders (and exports); the originals stay in the curation record.
    const composed = await this.composed(p, v, curation().edited(q.index, raw.value), raw.at.file)
    const rec = { ...raw, value: composed.value }
    const models = p.models.filter((m) => q.modelIds.includes(m.profile.id)).map((m) => draft?.models?.get(m.profile.id) ?? m)
    const all = needsWholeSplit(v)
    const prepared = await this.prepare(p, v, all ? 'all' : [rec.value])
    const cur = curation().record(q.index)
    const urls = { file: (abs: string) => this.host.mediaUrl(abs), inline: this.host.inlineMediaUrl ? (id: string) => this.host.inlineMediaUrl!(id) : undefined }
    const mediaFile = p.mediaBase ? join(p.mediaBase, '_') : rec.at.file
    const refs = findMediaRefs(await this.withReferencedImage(p, rec.value))
    const media = await resolveRowMedia(refs, mediaFile, this.session.roots(), urls)
    const conv = conversationOf(v)
    const conversation = conv ? await conversationView(rec.value, conv, (refs) => resolveRowMedia(refs, mediaFile, this.session.roots(), urls)) : undefined
    const base = { index: q.index, split: p.testSplit, variantId: v.id, fields: toPlainJson(rec.value) as Record<string, unknown>, media: onePerFile(media), status: curation().get(q.index), ...(cur ? { curation: toPlainJson(cur) as RowCuration } : {}) }
    if (isEngineError(prepared)) {
      return { ...base, promptList: [], models: [], problems: [engineProblem(prepared, 'error')] }
    }
    // Model columns show their media parts with the row's own media, and count them at their real size and length.
    const facts = await rowMediaFacts(refs, mediaFile, this.session.roots(), models.map((m) => m.profile))
    const r = renderPreparedRow(prepared, all ? q.index : 0, q.index, models, true, { ...facts, urlOf: refUrlOf(refs, media) })
    const mediaProblems: Diagnostic[] = media.filter((m) => m.error).map((m) => ({ code: 'media', message: `${m.field}: ${m.error}`, severity: 'warning', data: { field: m.field } }))
    mediaProblems.push(...staleDerived(rec.value, cur))
    return { ...base, promptList: r.promptList, models: r.models, problems: [...composed.problems, ...r.problems, ...mediaProblems], ...(r.items ? { items: apiItems(r.items), itemKind: r.itemKind } : {}), ...(conversation ? { conversation } : {}) }
  }

  /**
   * A prompt-builder draft of the multimodal shape: the row with the `content` the saved data will hold for it
   * (prompt-builder.ts, shared/builder/mm-content.ts). Any other variant: the row as it is.
   */
  private async composed(p: LoadedProject, v: Variant, value: Record<string, unknown>, file: string): Promise<{ value: Record<string, unknown>; problems: Diagnostic[] }> {
    const spec = v.infer_cfg[CONTENT_SPEC_KEY] as ContentSpec | undefined
    if (!spec) return { value, problems: [] }
    const c = await new ContentComposer(spec, { dataset: p.dataset, trainSplit: p.trainSplit, mediaBase: p.mediaBase }).compose(value, file)
    const problems: Diagnostic[] = c.missing.map((id) => ({ code: 'builder-example-missing', severity: 'warning', message: `example ${id} is not a row of the ${p.trainSplit} split: left out` }))
    return { value: { ...value, content: c.content }, problems }
  }

  /**
   * VLMEvalKit TSVs save space by writing another row's `index` (≤ 64 characters) in `image`: for the media
   * shown, the row's image is that row's. The row itself (what templates read) is unchanged.
   */
  private async withReferencedImage(p: LoadedProject, value: Record<string, unknown>): Promise<Record<string, unknown>> {
    const ref = value.image
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 64 || !('index' in value) || !/^(csv|tsv)$/.test(p.dataset.format)) return value
    p.indexRows ??= (async () => {
      const map = new Map<string, number>()
      const n = this.session.testRows(p)
      for (let start = 0; start < n; start += 500) {
        for (const r of await p.dataset.readRows(p.testSplit, start, 500)) {
          const k = r.value.index
          if ((typeof k === 'string' || typeof k === 'number') && !map.has(String(k))) map.set(String(k), r.index)
        }
      }
      return map
    })()
    const at = (await p.indexRows).get(ref)
    if (at === undefined) return value
    const target = (await p.dataset.readRow(p.testSplit, at))?.value.image
    return typeof target === 'string' && target.length > 64 ? { ...value, image: target } : value
  }
}

/**
 * Fields derived from an edited one (an AIS `content` built from `question`) still hold the original text: each is
 * marked stale, naming the field it came from, so the reviewer edits it too or re-derives it (the row's panel
 * offers to replace the original text by the edited one).
 */
function staleDerived(row: Record<string, unknown>, cur: RowCuration | undefined): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const [from, e] of Object.entries(cur?.edits ?? {})) {
    if (typeof e.original !== 'string' || typeof e.value !== 'string' || e.original.length < MIN_DERIVED_CHARS) continue
    for (const [field, v] of Object.entries(row)) {
      if (field === from || typeof v !== 'string' || !v.includes(e.original) || v.includes(e.value)) continue
      out.push({ code: 'derived-stale', severity: 'warning', message: `${field} still holds the original ${from} (it looks derived from it): edit ${field} too, or re-derive it`, data: { field, from } })
    }
  }
  return out
}
