export { diagnostic, isError, pointRange, pyClassOf, type Diagnostic, type DiagnosticData, type DiagnosticParts, type Position, type Range, type Severity } from './diagnostic'
export { LineMap, rangeFromOffsets } from './line-map'
export { formatDiagnostic, placeText, placedMessage } from './format'
