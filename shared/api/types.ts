// Result and event payload types of the PromptLoom API. Plain data only: every value crosses a process boundary
// (Electron IPC structured clone, or JSON over HTTP in browser mode).
import type { FieldSchema, SchemaIssue } from '../builder/schema'
import type { Diagnostic } from '../diagnostics'

export type { Diagnostic } from '../diagnostics'

export type HostMode = 'electron' | 'browser'

export interface AppInfo {
  name: string
  version: string
  mode: HostMode
  node: string
  platform: string
}

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'mixed'

export interface ColumnInfo {
  name: string
  type: ColumnType
  /** True when values look like media references (image/audio/video paths, data: URLs, base64). */
  media?: 'image' | 'audio' | 'video'
}

export interface RowProblem {
  file: string
  line?: number
  row?: number
  byteOffset?: number
  field?: string
  message: string
}

export interface DatasetSummary {
  path: string
  format: string
  splits: { name: string; rowCount: number; file: string }[]
  columns: ColumnInfo[]
  problems: RowProblem[]
  /**
   * 'running' while a large dataset is validated after opening: rows can be read, but columns are a sample of the
   * first rows, problems are not listed yet and unreadable rows show as error rows. A 'project.changed' event
   * brings the final summary. 'cancelled' when the user stopped it. Absent when validation is done.
   */
  validation?: 'running' | 'cancelled' | 'failed'
  /** Lines (records) that could not be read and were skipped: how many, and how many of each error code. */
  skipped?: { total: number; byCode: Record<string, number> }
  /** Rows whose media cannot be shown, checked after the dataset opens (absent until the check has run). */
  media?: { rows: number; missing: number; refused: number; unreadable: number }
}

/** A line (record) of the dataset that was skipped, and where. */
export interface SkippedLine {
  file: string
  line: number | null
  /** Byte offset of the line in the file. */
  offset: number | null
  code: string
  message: string
}

export interface ModelSummary {
  id: string
  name: string
  format: string
  contextLength?: number
  source: string
}

export interface TemplateVariant {
  /** Stable id of a dataset config inside the project's config file (its abbr). */
  id: string
  label: string
  kind: string
}

export interface ProjectSummary {
  id: string
  name: string
  root: string
  configFile?: string
  dataset: DatasetSummary
  variants: TemplateVariant[]
  models: ModelSummary[]
  problems: Diagnostic[]
}

export type CurationStatus = 'unreviewed' | 'accepted' | 'rejected' | 'flagged'

export interface RowListItem {
  index: number
  split: string
  /** A short single-line preview of the row's text fields. */
  preview: string
  status: CurationStatus
  media: MediaRef[]
  problems: number
  /** Cheap per-row warning kinds (missing-field, empty-field, long-field, dataset-error). */
  warnings?: string[]
  tags?: string[]
  edited?: boolean
  hasNote?: boolean
  /** Characters of the prompt input fields. */
  chars?: number
  /** Values of the columns the list was asked to show, as short single-line text. */
  cells?: Record<string, string>
}

export interface RowPage {
  total: number
  start: number
  items: RowListItem[]
}

export interface MediaRef {
  field: string
  kind: 'image' | 'audio' | 'video' | 'unknown'
  /** The reference as written in the row (truncated for base64). */
  raw: string
  /** A URL the renderer may load (media protocol or browser-mode media route); absent when refused or missing. */
  url?: string
  error?: string
}

/** One piece of rendered text and where it came from; the pieces concatenate to the exact text. */
export interface Segment {
  text: string
  source: SegmentSource
}

export interface SegmentSource {
  kind: string
  path?: string
  field?: string
  ice?: number
  role?: string
  part?: string
  masked?: boolean
  turn?: number
}

export interface RenderedMessage {
  role: string
  content: string | unknown[]
  segments?: Segment[]
}

export interface ModelRender {
  modelId: string
  modelName: string
  kind: 'text' | 'messages'
  text?: string
  segments?: Segment[]
  messages?: RenderedMessage[]
  /** count: text tokens plus the media tokens known (`media`); `mediaUnknown` parts whose cost is unknown. */
  tokens?: { count: number; exact: boolean; media?: number; mediaUnknown?: number }
  contextLength?: number
  /** The model's special tokens, highlighted in the exact text. */
  specialTokens?: string[]
  /** For a chat-template model: the harness that wraps it and each step of its path (shared/models/harness.ts). */
  harness?: HarnessTrace
  /**
   * When the model's config sets max_seq_len: in-context examples retrieved for the row and kept after OpenCompass
   * dropped them from the end to fit ("5 → 3 examples"); the text above is the truncated prompt.
   */
  examples?: { retrieved: number; kept: number; maxSeqLen: number }
  /**
   * The media parts this model's input carries, in order: the placeholder its template writes for each and what the
   * part costs in tokens where the rule is known (null: unknown). `dropped`: the model never receives it.
   */
  media?: ModelMediaPart[]
  /** A string-building format (FastChat, LazyLLM): the messages it received before its template (--format messages). */
  inputMessages?: { role: string; content: unknown }[]
  problems: Diagnostic[]
}

export interface ModelMediaPart {
  modality: 'image' | 'audio' | 'video'
  /** The reference as the part carries it (a path, URL; inline data abbreviated). */
  ref: string
  placeholder?: string
  tokens?: number | null
  /** How the token count was worked out (or why it is unknown). */
  how?: string
  /** Vision tokens attended by cross-attention, outside the text (Llama 3.2 Vision). */
  crossAttention?: number
  dropped?: boolean
  /** Where the renderer can load it (the row's media URL for the same reference). */
  url?: string
}

/** One request through an evaluation harness's chat-template wrapper, step by step (as the goldens record it). */
export interface HarnessTrace {
  harness: 'opencompass' | 'aisbench' | 'lm-eval' | 'vlmevalkit'
  wrapper: 'HuggingFacewithChatTemplate' | 'VLLMwithChatTemplate' | 'TurboMindModelwithChatTemplate' | 'HuggingFaceQwen2VLwithChatTemplate' | 'VLLMOfflineVLModel' | 'HFLM' | 'Qwen2VLChat'
  /** "OpenCompass HuggingFacewithChatTemplate", "lm-evaluation-harness HFLM". */
  label: string
  /** `parse_template(prompt, mode)`: the wrapper's API parser output, [{role, prompt}] or a str. */
  modelInput?: unknown
  /** `_convert_chat_messages` output, or {error}. */
  chatMessages?: unknown
  /** The text handed to the tokenizer or engine. */
  prompt?: string
  /** false: encoded with add_special_tokens=False; true: with; null: left to the engine's default. */
  addSpecialTokens?: boolean | null
  /** The wrapper's `generate` fails after the prompt is built (AISBench's generation_kwargs pops). */
  postPromptError?: string
  /** Where upstream stops; stage `parse` aborts the whole task before any model call. */
  error?: { message: string; stage: 'parse' | 'drop_middle' | 'format_vision_input' | 'convert_chat_messages' | 'apply_chat_template' | 'fastchat_template' | 'ppl' }
  stopWords: string[]
  /** The `fastchat_template` name when FastChat replaces the chat template. */
  fastchat?: string
  /** lm-eval: the template error that made HFLM render again without the system message. */
  retriedWithoutSystem?: string
  /** VLMEvalKit: whose prompt the row got — the model's own (use_custom_prompt) or the dataset's build_prompt. */
  vlmPrompt?: 'model' | 'dataset'
  /** lm-eval PPL: the continuation scored after the context (the text ends with it). */
  continuation?: string
}

/** One block of the dataset-side prompt: a role item, a section marker or a plain string. */
export interface PromptBlock {
  role?: string
  segments: Segment[]
  section?: string
}

/**
 * One of several requests a row makes: a PPL label's prompt (OpenCompass scores one per label), or one turn of
 * AISBench's MultiTurnGenInferencer (one request per BOT turn).
 */
export interface RenderItem {
  /** Short tab title: the label as Python writes it ('A', 0), or the turn number. */
  title: string
  /** The label value (PPL). */
  label?: unknown
  /** The turn number from 1 (multi-turn); upstream's turn_id is turn - 1. */
  turn?: number
  /** AttackInferencer: the prompt of original_prompt_list this request carries in its adv_key field. */
  advPrompt?: string
  /** Multi-turn: what the earlier BOT turns hold in this request (dataset answers, or the model's own outputs). */
  history?: { source: 'ground-truth' | 'model-output'; answers: string[] }
  promptList: PromptBlock[]
  models: ModelRender[]
}

/** The conversation template's reference answer: the row's final assistant turn, shown beside the row, never sent. */
export interface ReferenceAnswer {
  role: string
  /** Its text parts joined. */
  text: string
  /** As the data gives it (a string, or content parts). */
  content: unknown
  /** Its place in the conversation, from 1. */
  turn: number
}

/** One part of a conversation turn as the app shows it: text, or a media item (resolved like the row's media). */
export type ConversationPartView = { kind: 'text'; text: string } | { kind: 'media'; media: MediaRef }

export interface ConversationTurnView {
  role: string
  parts: ConversationPartView[]
}

/** A conversation-shaped row (OpenAI messages, LLaVA conversations) as sent: its turns in order and its reference. */
export interface ConversationView {
  /** 'openai' (messages) or 'sharegpt' (LLaVA/ShareGPT conversations). */
  style: string
  turns: ConversationTurnView[]
  /** The final assistant turn: the reference answer, not sent. */
  reference: ConversationTurnView | null
}

export interface RowRender {
  index: number
  split: string
  variantId: string
  fields: Record<string, unknown>
  media: MediaRef[]
  /** The dataset-side prompt (a PromptList as role blocks, or a plain string), before any model format. */
  promptList: PromptBlock[]
  models: ModelRender[]
  problems: Diagnostic[]
  status: CurationStatus
  /** Note, tags and edited fields of this row (fields above already carry the edited values). */
  curation?: RowCuration
  /**
   * Set when the row makes several requests (PPL labels, multi-turn turns): each with its own prompt and model
   * inputs. promptList and models above are the first item's, so single-request readers keep working.
   */
  items?: RenderItem[]
  itemKind?: 'label' | 'turn' | 'adv_prompt'
  /** The conversation template: the row's turns with their media, and the reference answer. */
  conversation?: ConversationView
}

/**
 * How an export writes each media asset: as the dataset gives it ('keep'), as a file:// URL, an absolute path, a
 * data: URL or raw base64; images optionally re-encoded (longest side, format, quality).
 */
export interface MediaEncoding {
  form: 'keep' | 'url' | 'path' | 'data-url' | 'base64'
  maxSide?: number
  format?: 'jpeg' | 'png' | 'webp'
  quality?: number
}

export type ExportScope = 'all' | 'accepted' | 'not-rejected'

/** The curated dataset's export forms (see main/services/export/dataset-export.ts). */
export type DatasetExportFormat = 'jsonl' | 'json' | 'mm-custom' | 'vlmeval-tsv' | 'hf-parquet'

/** What the Export dialog asks for: rendered prompts per model, or the curated dataset itself. */
export type ExportRequest =
  | {
      what?: 'prompts'
      variantId: string
      modelIds: string[]
      only: ExportScope
      format?: 'auto' | 'string' | 'messages' | 'prompt-list' | 'multimodal'
      media?: MediaEncoding
      destination: 'dialog' | 'download'
    }
  | {
      what: 'dataset'
      only: ExportScope
      /** Default: the source's own form. */
      format?: DatasetExportFormat
      media?: MediaEncoding
      curationColumns?: boolean
      destination: 'dialog' | 'download'
    }

export interface ExportResult {
  rows: number
  skipped: number
  /** Browser mode: the file name to save the download as. */
  fileName?: string
  /** Assets that could not be encoded (first 50), kept as the dataset gave them. */
  problems?: string[]
  /** Where the file was written (Electron) or where to download it (browser mode). */
  path?: string
  downloadUrl?: string
  cancelled?: boolean
}

/** What the template editor edits: a template variant's infer_cfg pieces, or a model's own format. */
export type TemplateTarget = { variantId: string } | { modelId: string }

export interface TemplateDoc {
  target: TemplateTarget
  title: string
  /** json: infer_cfg pieces or a meta template; jinja2: an HF chat template. */
  language: 'json' | 'jinja2'
  /** The text in effect now (with the project's saved edit, if any). */
  text: string
  /** The text as the config file or the model profile gives it. */
  original: string
  overridden: boolean
  readOnly?: boolean
  note?: string
}

/** One unsaved edit to preview. */
export interface TemplateEdit {
  target: TemplateTarget
  text: string
}

export interface TemplatePreview {
  /** The row rendered with the edits; null when an edit cannot be read at all (see its diagnostics). */
  render: RowRender | null
  /** Diagnostics of each edit, in the order the edits were given. */
  /** Each edit's problems, each with its range in that edit's text for the editor to underline. */
  diagnostics: Diagnostic[][]
}

/** The prompt builder's check of a recipe against the open dataset. */
export interface BuilderCheck {
  /** The recipe as the variant editor's text (ice_template, prompt_template, retriever, inferencer). */
  variantText: string
  schema: FieldSchema[]
  /** Placeholders no column fills, each at its place. */
  issues: SchemaIssue[]
  /** Rows that do not satisfy the schema, grouped by what is wrong, with a few row numbers. */
  rowIssues: { code: SchemaIssue['code']; field: string; severity: 'error' | 'warning'; message: string; count: number; rows: number[] }[]
  rowsChecked: number
  totalRows: number
}

/** Where the builder wrote the config and its JSON Schema. */
export interface BuilderSaved {
  config: string
  schema: string
  /** The multimodal shape's data file (each row with its composed content), which the config reads. */
  data?: string
}

/** A prompt-builder section saved for reuse (in the user's config folder, across projects). */
export interface BuilderSnippet {
  name: string
  /** The section's template; one holding `{wrapped}` is a wrap section. */
  template: string
  savedAt: string
}

export interface TemplateApplyResult {
  applied: boolean
  doc: TemplateDoc
  diagnostics: Diagnostic[]
  /** Where the project's edits were saved; saveError when they could not be (the edit still holds until closed). */
  savedTo?: string
  saveError?: string
}

export interface ProgressEvent {
  taskId: string
  label: string
  done: number
  total: number
  /** Estimated milliseconds left, when it can be told. */
  etaMs?: number
  finished?: boolean
}

export interface ApiEvents {
  progress: ProgressEvent
  /**
   * The open project's summary changed without the renderer asking (background validation finished: columns,
   * problems and, when rows were skipped, row numbers and counts). Same `id` as the summary it replaces.
   */
  'project.changed': ProjectChangedEvent
  /**
   * The first rows of a dataset being opened, as soon as they can be read (a large file is still being indexed):
   * the row list shows them until the open finishes.
   */
  'dataset.firstRows': FirstRowsEvent
}

export interface FirstRowsEvent {
  /** The dataset file the rows come from. */
  file: string
  items: RowListItem[]
}

export interface ProjectChangedEvent {
  summary: ProjectSummary
  /** Row numbers or row statuses changed: pages already fetched are stale. */
  rowsChanged: boolean
}

/** A row's curation beyond its status: note, tags and edited fields (the original value is kept beside the edit). */
export interface RowCuration {
  status: CurationStatus
  note?: string
  tags?: string[]
  edits?: Record<string, { original: unknown; value: unknown }>
}

/** One curation action; applied to a target (row indices, or every row a filter shows) and undoable. */
export type CurationOp =
  | { kind: 'status'; status: CurationStatus; toggle?: boolean }
  | { kind: 'note'; note: string }
  | { kind: 'tag'; tag: string; action: 'add' | 'remove' }
  | { kind: 'edit'; field: string; value: unknown }
  | { kind: 'revert'; field: string }

export interface RowFilter {
  /** 'edited' matches rows with at least one edited field. */
  status?: (CurationStatus | 'edited')[]
  tag?: string
  /** A row warning kind (see RowListItem.warnings), or 'any'. */
  warning?: string
  hasMedia?: boolean
  /** Characters of the row's prompt input fields. */
  minChars?: number
  maxChars?: number
  /** Estimated tokens of the row's prompt input fields (see rowTokenEstimate). */
  minTokens?: number
  maxTokens?: number
  /** Rows of a group (or token bin) of the last lint, by its key (see shared/lint/report.ts). */
  lint?: string
}

export interface RowSort {
  /** 'index' | 'length' | 'status' | 'field:<name>' */
  by: string
  dir: 'asc' | 'desc'
}

export interface CurationChange {
  /** What was done, naming the rows, for the notice ("accepted row 9", "rejected 120 rows (3, 5, 9, …)"). */
  label: string
  count: number
  /** The first rows (indices) the change touched. */
  rows?: number[]
  canUndo: boolean
  canRedo: boolean
  /** What undo / redo would do next ("accepted row 9"), null when there is nothing. */
  undoLabel?: string | null
  redoLabel?: string | null
  /** Another PromptLoom had changed this project's curation meanwhile: both are kept (merged per field). */
  merged?: boolean
  /** The undo/redo step that was applied; absent for a new action. */
  step?: 'undo' | 'redo'
}

export interface RecentItem {
  path: string
  name: string
  kind: 'project' | 'dataset' | 'config' | 'folder'
  openedAt: string
}

export interface ModelAddResult {
  models: ModelSummary[]
  added: string[]
  problems: Diagnostic[]
}

/** Which media a probe or peaks call is about: a file (as the row's media URL names it) or an inline id. */
export type MediaSource = { path: string } | { inline: string }

/** Facts about one media item, for the zoom view and the audio player: by its bytes, never its name. */
export interface MediaInfo {
  mime: string
  media: 'image' | 'audio' | 'video' | 'unknown'
  bytes: number
  width?: number | null
  height?: number | null
  durationSec?: number | null
  sampleRate?: number | null
  channels?: number | null
  codec?: string | null
}

/** A media call's answer: the value, or why not (refused outside the opened roots, missing, unsupported, corrupt). */
export type MediaResult<T> = { ok: true; value: T } | { ok: false; code: 'refused' | 'missing' | 'unsupported' | 'corrupt' | 'invalid'; message: string }

/** Waveform peaks: n buckets, each the loudest sample in it, 0..1. */
export interface MediaPeaks {
  peaks: number[]
  durationSec: number | null
}
