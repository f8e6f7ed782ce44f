// Dataset services facade: open a dataset (any format, any size) and read its rows on demand; inspect it.
export { openDataset, peekJsonl, type DatasetHandle, type OpenOptions, type ValidateOptions, type ValidationOutcome, type ValidationState } from './open-dataset'
export { inspectDataset, type InspectReport, type InspectOptions, type MediaProblem } from './inspect-dataset'
export { CancelledError } from './index-file'
export { datasetDiagnostic } from './dataset-diagnostic'
export { defaultCacheDir } from './index-cache'
export type * from './types'
