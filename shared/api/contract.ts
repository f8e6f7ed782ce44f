// The one contract between the UI and the back end: each call's channel name, its argument schema (validated in
// main before use) and its result type. The preload facade, the main-process handlers and the browser-mode HTTP
// bridge are all typed from this file.
import { z } from 'zod'
import type {
  AppInfo,
  CurationChange,
  DatasetSummary,
  ExportResult,
  ModelAddResult,
  ModelSummary,
  ProjectSummary,
  RecentItem,
  RowPage,
  RowRender,
  SkippedLine
} from './types'
import type { BuilderCheck, BuilderSaved, BuilderSnippet, TemplateApplyResult, TemplateDoc, TemplatePreview } from './types'
import type { MediaInfo, MediaPeaks, MediaResult } from './types'
import type { LintReport } from '../lint/report'

const path = z.string().min(1).max(4096).refine((s) => !s.includes('\0'), 'path contains NUL')
const id = z.string().min(1).max(256)
const index = z.number().int().min(0).max(1e9)
const templateTarget = z.union([z.object({ variantId: z.string().min(1).max(256) }).strict(), z.object({ modelId: z.string().min(1).max(256) }).strict()])
const templateText = z.string().max(2_000_000)
const status = z.enum(['unreviewed', 'accepted', 'rejected', 'flagged'])
const count = z.number().int().min(0).max(1e9)
const rowFilter = z
  .object({
    status: z.array(z.enum(['unreviewed', 'accepted', 'rejected', 'flagged', 'edited'])).max(5).optional(),
    tag: z.string().max(200).optional(),
    warning: z.string().max(100).optional(),
    hasMedia: z.boolean().optional(),
    minChars: count.optional(),
    maxChars: count.optional(),
    minTokens: count.optional(),
    maxTokens: count.optional(),
    /** Rows of a lint group or token bin (a key of the last lint's report: "kind|model", "tokens|model|from|to"). */
    lint: z.string().min(1).max(600).optional()
  })
  .strict()
const column = z.string().min(1).max(300)
const recipe = z
  .object({
    abbr: z.string().min(1).max(120).regex(/^[\w.-]+$/, 'letters, digits, _ . - only'),
    shape: z.enum(['string', 'dialogue', 'multimodal']),
    roles: z
      .object({
        question: column.optional(),
        choices: z.array(column).max(26),
        answer: column.optional(),
        context: column.optional(),
        media: z.array(z.object({ column, kind: z.enum(['image', 'audio', 'video']) }).strict()).max(16).optional()
      })
      .strict(),
    sections: z
      .array(
        z.object({ id: z.string().min(1).max(64), name: z.string().max(120), template: z.string().max(100_000), enabled: z.boolean(), wraps: z.array(z.string().max(64)).max(32).optional() }).strict()
      )
      .max(64),
    fields: z
      .record(
        z.string().min(1).max(300),
        z.object({ kind: z.enum(['text', 'image', 'audio', 'video']).optional(), required: z.boolean().optional(), enum: z.array(z.string().max(1000)).max(500).optional() }).strict()
      )
      .optional(),
    selector: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('none') }).strict(),
      z.object({ kind: z.literal('fixed'), ids: z.array(z.number().int().min(0).max(1e9)).min(1).max(64) }).strict(),
      z.object({ kind: z.literal('random'), k: z.number().int().min(1).max(64), seed: z.number().int().min(0).max(2 ** 31) }).strict(),
      z.object({ kind: z.literal('bm25'), k: z.number().int().min(1).max(64) }).strict()
    ])
  })
  .strict()
const snippetName = z.string().trim().min(1, 'a snippet needs a name').max(80)
const rowSort = z.object({ by: z.string().min(1).max(300), dir: z.enum(['asc', 'desc']) }).strict()
const fieldName = z.string().min(1).max(300)
/** A media file (checked against the opened roots in main) or an inline-store id (a hex content hash). */
const mediaSource = z.union([z.object({ path }).strict(), z.object({ inline: z.string().regex(/^[0-9a-f]{32}$/, 'inline id is 32 hex digits') }).strict()])
const curationOp = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('status'), status, toggle: z.boolean().optional() }),
  z.object({ kind: z.literal('note'), note: z.string().max(100_000) }),
  z.object({ kind: z.literal('tag'), tag: z.string().trim().min(1).max(100), action: z.enum(['add', 'remove']) }),
  z.object({ kind: z.literal('edit'), field: fieldName, value: z.unknown() }),
  z.object({ kind: z.literal('revert'), field: fieldName })
])
/** Rows an action applies to: explicit indices, or every row a query + filter shows (resolved in main). */
const curationTarget = z.union([
  z.object({ indices: z.array(index).min(1).max(1_000_000) }).strict(),
  z.object({ query: z.string().max(2000).optional(), filter: rowFilter.optional(), all: z.literal(true) }).strict()
])

const scope = z.enum(['all', 'accepted', 'not-rejected'])
const mediaEncoding = z
  .object({
    form: z.enum(['keep', 'url', 'path', 'data-url', 'base64']),
    maxSide: z.number().int().min(1).max(65535).optional(),
    format: z.enum(['jpeg', 'png', 'webp']).optional(),
    quality: z.number().int().min(1).max(100).optional()
  })
  .strict()
  .refine((m) => m.form !== 'keep' || (m.maxSide === undefined && m.format === undefined && m.quality === undefined), 're-encoding needs a media form other than keep')
const destination = z.enum(['dialog', 'download'])
/** Export: rendered prompts per model (the default, as older callers send it) or the curated dataset. */
const exportRequest = z.union([
  z
    .object({
      what: z.literal('prompts').default('prompts'),
      variantId: id,
      modelIds: z.array(id).min(1).max(32),
      only: scope.default('all'),
      format: z.enum(['auto', 'string', 'messages', 'prompt-list', 'multimodal']).optional(),
      media: mediaEncoding.optional(),
      destination
    })
    .strict(),
  z
    .object({
      what: z.literal('dataset'),
      only: scope.default('all'),
      format: z.enum(['jsonl', 'json', 'mm-custom', 'vlmeval-tsv', 'hf-parquet']).optional(),
      media: mediaEncoding.optional(),
      curationColumns: z.boolean().optional(),
      destination
    })
    .strict()
])

/** A call's declaration: argument tuple schema plus a phantom result type. */
interface Call<A extends z.ZodTypeAny, R> {
  args: A
  result?: R
}
const call = <R>() => <A extends z.ZodTypeAny>(args: A): Call<A, R> => ({ args })

export const contract = {
  'app.info': call<AppInfo>()(z.tuple([])),
  'project.openDemo': call<ProjectSummary>()(z.tuple([])),
  // The optional media folder: where the rows' relative media paths are (VLMEvalKit images, LLaVA --image-folder).
  'project.open': call<ProjectSummary>()(z.tuple([path, z.object({ mediaFolder: path.optional() }).strict().optional()])),
  'project.current': call<ProjectSummary | null>()(z.tuple([])),
  'dataset.inspect': call<DatasetSummary>()(z.tuple([path])),
  'dataset.skipped': call<SkippedLine[]>()(z.tuple([])),
  'dataset.exportSkipped': call<ExportResult>()(z.tuple([z.object({ destination: z.enum(['dialog', 'download']) })])),
  'rows.page': call<RowPage>()(
    z.tuple([
      z.object({
        start: index,
        count: z.number().int().min(1).max(5000),
        query: z.string().max(2000).optional(),
        filter: rowFilter.optional(),
        sort: rowSort.optional(),
        columns: z.array(fieldName).max(16).optional(),
        variantId: id.optional()
      })
    ])
  ),
  'render.row': call<RowRender>()(
    z.tuple([z.object({ index, variantId: id, modelIds: z.array(id).max(32), showIce: z.boolean().optional() })])
  ),
  'models.list': call<ModelSummary[]>()(z.tuple([])),
  'models.add': call<ModelAddResult>()(z.tuple([path])),
  'models.remove': call<ModelSummary[]>()(z.tuple([id])),
  'curation.apply': call<CurationChange>()(z.tuple([z.object({ target: curationTarget, op: curationOp })])),
  'curation.undo': call<CurationChange | null>()(z.tuple([])),
  'curation.redo': call<CurationChange | null>()(z.tuple([])),
  'curation.tags': call<string[]>()(z.tuple([])),
  'dialog.openPath': call<{ path: string | null; unsupported?: string }>()(z.tuple([z.object({ kind: z.enum(['file', 'folder']) })])),
  'recent.list': call<RecentItem[]>()(z.tuple([])),
  'export.run': call<ExportResult>()(z.tuple([exportRequest])),
  'template.get': call<TemplateDoc>()(z.tuple([templateTarget])),
  'template.preview': call<TemplatePreview>()(
    z.tuple([
      z.object({
        index,
        variantId: id,
        modelIds: z.array(id).max(32),
        showIce: z.boolean().optional(),
        edits: z.array(z.object({ target: templateTarget, text: templateText })).max(40)
      })
    ])
  ),
  'template.apply': call<TemplateApplyResult>()(z.tuple([z.object({ target: templateTarget, text: templateText })])),
  'template.revert': call<TemplateApplyResult>()(z.tuple([templateTarget])),
  'template.exportConfig': call<ExportResult>()(z.tuple([z.object({ variantId: id, destination: z.enum(['dialog', 'download']) })])),
  'builder.check': call<BuilderCheck>()(z.tuple([recipe])),
  'builder.save': call<BuilderSaved>()(z.tuple([recipe])),
  'builder.snippets': call<BuilderSnippet[]>()(z.tuple([])),
  'builder.saveSnippet': call<BuilderSnippet[]>()(z.tuple([z.object({ name: snippetName, template: z.string().max(100_000) }).strict()])),
  'builder.deleteSnippet': call<BuilderSnippet[]>()(z.tuple([snippetName])),
  'task.cancel': call<boolean>()(z.tuple([id])),
  'lint.run': call<LintReport>()(z.tuple([z.object({ variantId: id, modelIds: z.array(id).min(1).max(32) }).strict()])),
  'lint.report': call<LintReport | null>()(z.tuple([])),
  'media.probe': call<MediaResult<MediaInfo>>()(z.tuple([mediaSource])),
  'media.peaks': call<MediaResult<MediaPeaks>>()(z.tuple([z.object({ path, n: z.number().int().min(16).max(4096) }).strict()]))
} as const

export type Contract = typeof contract
export type Channel = keyof Contract
export type ArgsOf<C extends Channel> = z.input<Contract[C]['args']>
export type ParsedArgsOf<C extends Channel> = z.output<Contract[C]['args']>
export type ResultOf<C extends Channel> = NonNullable<Contract[C]['result']> | Extract<Contract[C]['result'], null>

export const CHANNELS = Object.keys(contract) as Channel[]

/** Validates a call's arguments; the error names the channel and the offending argument path. */
export function parseArgs<C extends Channel>(
  channel: C,
  args: unknown
): { ok: true; args: ParsedArgsOf<C> } | { ok: false; error: string } {
  const decl = contract[channel]
  if (!decl) return { ok: false, error: `unknown API call: ${String(channel)}` }
  const r = decl.args.safeParse(args)
  if (r.success) return { ok: true, args: r.data as ParsedArgsOf<C> }
  const issue = r.error.issues[0]
  const where = issue?.path.length ? `argument ${issue.path.join('.')}` : 'arguments'
  return { ok: false, error: `${channel}: invalid ${where}: ${issue?.message ?? 'invalid'}` }
}
