// What config import reports, in the one Diagnostic shape: code `config`, the config file as the source, the
// place in it as the range (none for what concerns the whole file).
import { diagnostic, pointRange, type Diagnostic, type Range, type Severity } from '../diagnostics'

export function configDiagnostic(file: string, at: { line: number; column: number } | Range | null, message: string, severity: Severity = 'error'): Diagnostic {
  return diagnostic('config', severity, message, { source: file, ...(at ? { range: 'start' in at ? at : pointRange(at.line, at.column) } : {}) })
}
