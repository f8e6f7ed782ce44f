// A diagnostic as one line of text, the way compilers print them: `file:line:col: severity: message [code]`.
import type { Diagnostic } from './diagnostic'

/** Where a diagnostic is, as `file:line:col` (whichever parts are known), or '' when nothing is. */
export function placeText(d: Diagnostic): string {
  const pos = d.range ? `${d.range.start.line}:${d.range.start.column}` : ''
  if (d.source && pos) return `${d.source}:${pos}`
  return d.source ?? pos
}

/** `file:line:col: error: message [code]`; the place is left out when unknown. */
export function formatDiagnostic(d: Diagnostic): string {
  const at = placeText(d)
  return `${at ? `${at}: ` : ''}${d.severity}: ${d.message} [${d.code}]`
}

/** `file:line:col: message`, for an error text that names where (the place left out when unknown). */
export function placedMessage(d: Diagnostic): string {
  const at = placeText(d)
  return at ? `${at}: ${d.message}` : d.message
}
