// The one shape in which every layer reports what is wrong or worth knowing — the engine, config import, the
// model formats, dataset readers, loaders and profiles — as data, never thrown, in the way
// microsoft/node-jsonc-parser returns its parse errors with offsets. A text position (`range`) is kept from
// the layer that knows it up to the editor, which underlines it, and the CLI, which prints file:line:col.

export type Severity = 'error' | 'warning' | 'info'

/** A place in a text: 1-based line, 1-based column in UTF-16 code units; `offset` (0-based) when the layer had the text. */
export interface Position {
  line: number
  column: number
  offset?: number
}

/** [start, end): `end` is exclusive; equal to `start` where only a point is known. */
export interface Range {
  start: Position
  end: Position
}

/** Context that is not a text position: row, field, variant, model, config path, stage, Python exception class… */
export type DiagnosticData = Record<string, string | number | boolean>

export interface Diagnostic {
  /** What kind of finding it is: a stable id (`config`, `jinja-syntax`, `KeyError`, `MODEL-DATA-002`, …). */
  code: string
  severity: Severity
  message: string
  /** What `range` is in: a file path, or a named text (a model's chat template, a variant's infer_cfg). */
  source?: string
  range?: Range
  data?: DiagnosticData
}

export interface DiagnosticParts {
  source?: string
  range?: Range
  data?: DiagnosticData
}

/** A Diagnostic with only the parts that are set (no `source: undefined` in JSON, no empty `data`). */
export function diagnostic(code: string, severity: Severity, message: string, parts: DiagnosticParts = {}): Diagnostic {
  const d: Diagnostic = { code, severity, message }
  if (parts.source !== undefined) d.source = parts.source
  if (parts.range) d.range = parts.range
  const data = parts.data && Object.fromEntries(Object.entries(parts.data).filter(([, v]) => v !== undefined))
  if (data && Object.keys(data).length) d.data = data
  return d
}

/** A range that is one point: the place a layer knows only by its line and column. */
export function pointRange(line: number, column: number): Range {
  return { start: { line, column }, end: { line, column } }
}

export const isError = (d: Diagnostic): boolean => d.severity === 'error'

/** The Python exception class a diagnostic carries (`data.pyClass`), if any. */
export function pyClassOf(d: Diagnostic): string | undefined {
  const c = d.data?.pyClass
  return typeof c === 'string' ? c : undefined
}
