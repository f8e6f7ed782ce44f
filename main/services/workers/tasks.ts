// Registry of the tasks a worker can run. One table, imported both by the worker entry and by the in-process
// fallback, so a task behaves identically wherever it runs.
import { scanJsonlRange } from '../datasets/jsonl-index'
import { scanJsonFile } from '../datasets/json-index'
import { scanCsvFile } from '../datasets/csv-index'
import { validateRows } from '../datasets/validate-rows'
import { validateJsonlRange } from '../datasets/validate-jsonl'
import { validateParquetFile } from '../datasets/parquet-source'
import { validateArrowFile } from '../datasets/arrow-source'
import { encodePayload } from '../media/encode'
import { exportRows } from '../export/export-rows-task'
import { loadConfigTask } from '../config/config-task'
import { audioPeaks } from '../media/audio'
import { signatures } from '../../../shared/lint/dataset-checks'

export const TASKS = {
  'jsonl-scan': scanJsonlRange,
  'json-scan': scanJsonFile,
  'csv-scan': scanCsvFile,
  'validate-rows': validateRows,
  'validate-jsonl': validateJsonlRange,
  'parquet-validate': validateParquetFile,
  'arrow-validate': validateArrowFile,
  // Export: one media asset read, re-encoded (sharp) and base64-encoded off the main thread.
  'encode-media': (input: Parameters<typeof encodePayload>[0]) => encodePayload(input),
  // Export: a batch of rows read from their byte ranges and written as records, media encoded in the worker.
  'export-rows': exportRows,
  'config-load': loadConfigTask,
  // Waveform peaks: bounded reads of a possibly huge audio file and WASM decoding, off the main thread.
  'audio-peaks': (input: { file: string; n: number }) => audioPeaks(input.file, input.n),
  // Lint: near-duplicate signatures of a batch of rows' input texts, while the main thread renders the next batch.
  'minhash': async (input: { inputs: string[] }) => signatures(input.inputs)
} as const

export type TaskName = keyof typeof TASKS
export type TaskInput<N extends TaskName> = Parameters<(typeof TASKS)[N]>[0]
export type TaskOutput<N extends TaskName> = Awaited<ReturnType<(typeof TASKS)[N]>>
