// AISBench dataset classes (and OpenCompass's CircularCustomDataset and ChatMLDataset) whose load() PromptLoom reproduces, by the name a config's `type` gives. A class
// not listed here is used as the rows are in the file (the workspace says so in one problem).
import type { LoaderFn } from './types'
import { loadMMCustom } from './mm-custom'
import { loadCircularCustom } from './circular-custom'
import { loadChatML } from './chatml'
import { loadOmniDocBench, loadTextVQA, loadVideoBench, loadVocalSound } from './file-loaders'
import { loadHLE, loadMMMU, loadRealworldQA, loadRefCOCO, loadVideoMME } from './parquet-loaders'
import { loadMathVision } from './mathvision'
import { loadGEdit } from './gedit'
import { loadDocVQA, loadInfoVQA, loadMMMUProOptions10, loadMMMUProVision, loadMMStar } from './vlmeval-loaders'

export type { LoaderIO } from './io'
export type { LoaderFn, LoaderResult } from './types'
import { PyError } from './py'

export { PyError }
export * from './ais-content'

export const LOADERS: Record<string, LoaderFn> = {
  MMCustomDataset: loadMMCustom,
  MMStarDataset: loadMMStar,
  MMMUProVisionDataset: loadMMMUProVision,
  MMMUProOptions10Dataset: loadMMMUProOptions10,
  DocVQADataset: loadDocVQA,
  InfoVQADataset: loadInfoVQA,
  TEXTVQADataset: loadTextVQA,
  VocalSoundDataset: loadVocalSound,
  VideoBenchDataset: loadVideoBench,
  OmniDocBenchDataset: loadOmniDocBench,
  HLEDataset: loadHLE,
  VideoMMEDataset: loadVideoMME,
  RealworldQADataset: loadRealworldQA,
  RefCOCODataset: loadRefCOCO,
  RefCOCOgDataset: loadRefCOCO,
  RefCOCOPlusDataset: loadRefCOCO,
  MMMUDataset: loadMMMU,
  MathVisionDataset: loadMathVision,
  GEditDataset: loadGEdit,
  // OpenCompass's: the class make_custom_dataset_config gives a circular-mcq custom dataset.
  CircularCustomDataset: loadCircularCustom,
  // OpenCompass's: the class of every dataset a run config's chatml_datasets becomes.
  ChatMLDataset: loadChatML
}

/** Config keys that BaseDataset does not pass to load(). */
const NOT_LOAD_KWARGS = new Set(['abbr', 'type', 'reader_cfg', 'infer_cfg', 'eval_cfg', 'judge_infer_cfg'])

/** load()'s keyword arguments from a dataset config entry. */
export function loadKwargs(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([k]) => !NOT_LOAD_KWARGS.has(k)))
}

export function loaderFor(type: string | undefined): LoaderFn | null {
  return type ? (LOADERS[type] ?? null) : null
}

/**
 * The reader step after load(): AISBench reads the output column from the dataset, so a column that load()'s
 * rows do not have (from_list keeps the first row's keys) fails there.
 */
export function checkReaderColumns(columns: string[], readerCfg: Record<string, unknown>): PyError | null {
  const out = readerCfg.output_column
  if (typeof out === 'string' && out && !columns.includes(out))
    return new PyError('ValueError', `Column '${out}' doesn't exist.`)
  return null
}
