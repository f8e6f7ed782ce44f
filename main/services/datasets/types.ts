// Data types shared by every dataset reader: row errors as data, column summaries, progress and the handle the
// app and the CLI use to read rows on demand. Kept free of Node imports so the API layer can re-export them.

export type DatasetFormat = 'jsonl' | 'json' | 'csv' | 'tsv' | 'parquet' | 'arrow'

/** Where a problem is, precise enough for a person to open the file and look. */
export interface DatasetErrorAt {
  file: string
  /** 1-based line in the file (text formats). */
  line?: number
  /** 0-based row index within its source (Parquet) or split. */
  row?: number
  /** Byte offset in the file where the row (or the problem) starts. */
  offset?: number
  /** Column path for media problems, e.g. `meta.image`. */
  column?: string
}

export type DatasetErrorCode =
  | 'empty-file'
  | 'read-failed'
  | 'invalid-json'
  | 'json-too-deep'
  | 'blank-line'
  | 'not-an-object'
  | 'invalid-utf8'
  | 'row-too-large'
  | 'unterminated-quote'
  | 'ragged-row'
  | 'json-structure'
  | 'parquet-corrupt'
  | 'arrow-corrupt'
  | 'media-refused'
  | 'media-missing'
  | 'media-offline'
  | 'cancelled'
  | 'unsupported'

/**
 * Errors on user input are data, never thrown. `severity: 'error'` means the row was skipped;
 * `'warning'` means the row loads but something in it (a media reference) is unusable.
 */
export interface DatasetError {
  code: DatasetErrorCode
  message: string
  stage: 'open' | 'index' | 'parse' | 'validate' | 'media'
  severity: 'error' | 'warning'
  at: DatasetErrorAt
}

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array' | 'mixed'

export interface ColumnInfo {
  /** Dotted path; nested object fields are addressable (`meta.image`). */
  name: string
  type: ColumnType
  /** How many rows hold a value of each observed type. */
  counts: Partial<Record<Exclude<ColumnType, 'mixed'>, number>>
  /** Rows in which the field is present (any type, including null). */
  present: number
  /** Set when the column holds media (paths, base64, data: URLs, HF Image/Audio/Video structs): never prompt text. */
  media?: 'image' | 'audio' | 'video'
}

/** `bytes`: media stored as binary in the data (a Parquet binary column, an HF Image/Audio struct). */
export type MediaRefKind = 'relative' | 'absolute' | 'file-url' | 'http' | 'data-url' | 'base64' | 'bytes'
export type MediaType = 'image' | 'audio' | 'video' | 'unknown'

/** A media reference found in a row value. */
export interface MediaRef {
  kind: MediaRefKind
  media: MediaType
  /** The reference as written (data: URLs and base64 are abbreviated). */
  value: string
  column: string
  /** Source-relative row and the data file it is in (relative references are relative to that file). */
  row: number
  file: string
}

export interface MediaRefSummary {
  /** Count of references by kind. */
  byKind: Partial<Record<MediaRefKind, number>>
  total: number
  /** File references (relative, absolute, file://) kept for resolution, capped; `truncated` says if some were dropped. */
  files: MediaRef[]
  truncated: boolean
}

export interface Progress {
  phase: 'index' | 'validate' | 'cache'
  split: string
  file: string
  bytesDone: number
  bytesTotal: number
  rows: number
}

export interface RowRecord {
  /** Row number within the split as the app sees it (skipped rows excluded). */
  index: number
  value: Record<string, unknown>
  /** Where the row came from, for "open at" and error messages. */
  at: DatasetErrorAt
  /** Set when the row could not be read now (the file changed since it was indexed); value is then {}. */
  error?: DatasetError
}

export interface SplitInfo {
  name: string
  files: string[]
  rowCount: number
}

export interface ValidationSummary {
  columns: ColumnInfo[]
  media: MediaRefSummary
  errors: DatasetError[]
  /** Rows skipped because they could not be read (errors beyond the kept list are still counted). */
  skipped: number
  errorCount: number
}
