// A dataset reader's error as the project and the row panel list it: the file is the source, its line the
// range (readers count lines, not columns, so the place is the line's start), the rest data.
import { diagnostic, pointRange, type Diagnostic } from '../../../shared/diagnostics'
import type { DatasetError } from './types'

export function datasetDiagnostic(e: DatasetError): Diagnostic {
  const { file, line, row, offset, column } = e.at
  return diagnostic(e.code, e.severity, e.message, {
    source: file,
    ...(line ? { range: pointRange(line, 1) } : {}),
    data: { stage: e.stage, ...(row !== undefined ? { row } : {}), ...(offset !== undefined ? { byteOffset: offset } : {}), ...(column !== undefined ? { field: column } : {}) }
  })
}
