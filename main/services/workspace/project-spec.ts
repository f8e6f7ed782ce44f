// Works out what a path the user opened is: a PromptLoom project folder (project.json), an OpenCompass/AISBench
// config file, or a dataset file or folder. The result names every file the workspace will read.
import { readFile, stat } from 'node:fs/promises'
import { basename, dirname, extname, join, resolve } from 'node:path'

export interface ProjectSpec {
  name: string
  root: string
  /** Dataset file or folder (train/test splits). */
  dataset: string
  configFile?: string
  /** Model profile files (JSON profiles or OpenCompass model configs). */
  modelFiles: string[]
  /** Names of built-in library profiles to use when the project names none. */
  libraryModels: string[]
  /** The column that identifies a row (project.json "idColumn"); otherwise detected (see store/row-identity.ts). */
  idColumn?: string
  /**
   * Folder that relative media paths in the rows are under (VLMEvalKit's images folder, LLaVA's --image-folder);
   * default: the dataset file's folder. project.json `mediaFolder`, relative to the project.
   */
  mediaFolder?: string
  /**
   * project.json `iceIdx`: per template variant (its abbr), a JSON file holding upstream's `retriever.retrieve()` —
   * one list of train indices per test row — used instead of running the retriever (TopK and MDL need model
   * weights). Paths relative to the project.
   */
  iceIdx?: Record<string, string>
}

const CONFIG_EXT = new Set(['.py', '.yaml', '.yml'])
const DATASET_EXT = new Set(['.jsonl', '.json', '.csv', '.tsv', '.parquet'])
const DEFAULT_LIBRARY_MODELS = ['chatml', 'llama-3.1-instruct', 'qwen2.5-instruct']
/**
 * A dataset with media opened without models: an API model (the content parts it receives), a vision-language chat
 * template (the pictures in place) and a text-only meta template (what such a model drops, with its signal).
 */
export const MEDIA_LIBRARY_MODELS = ['opencompass-api', 'qwen2.5-vl-instruct', 'chatml']

/** The models a project shows: its own, else the library defaults (media-capable ones when the data has media). */
export function modelRefs(spec: ProjectSpec, hasMedia: boolean): string[] {
  if (spec.modelFiles.length) return spec.modelFiles
  return hasMedia && spec.libraryModels === DEFAULT_LIBRARY_MODELS ? MEDIA_LIBRARY_MODELS : spec.libraryModels
}

export class ProjectOpenError extends Error {}

export async function resolveProjectSpec(input: string): Promise<ProjectSpec> {
  const path = resolve(input)
  const st = await stat(path).catch(() => null)
  if (!st) throw new ProjectOpenError(`${path}: no such file or folder`)
  if (st.isDirectory()) {
    const manifest = join(path, 'project.json')
    if (await stat(manifest).catch(() => null)) return readManifest(manifest)
    return { name: basename(path), root: path, dataset: path, modelFiles: [], libraryModels: DEFAULT_LIBRARY_MODELS }
  }
  const ext = extname(path).toLowerCase()
  if (basename(path) === 'project.json') return readManifest(path)
  if (CONFIG_EXT.has(ext)) {
    return { name: basename(path, ext), root: dirname(path), dataset: '', configFile: path, modelFiles: [], libraryModels: DEFAULT_LIBRARY_MODELS }
  }
  if (DATASET_EXT.has(ext)) {
    return { name: basename(path), root: dirname(path), dataset: path, modelFiles: [], libraryModels: DEFAULT_LIBRARY_MODELS }
  }
  throw new ProjectOpenError(`${path}: not a dataset (.jsonl .json .csv .tsv .parquet), config (.py .yaml) or project folder`)
}

async function readManifest(file: string): Promise<ProjectSpec> {
  const root = dirname(file)
  let m: Record<string, unknown>
  try {
    m = JSON.parse(await readFile(file, 'utf8'))
  } catch (e) {
    throw new ProjectOpenError(`${file}: not valid JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  const str = (k: string): string | undefined => {
    const v = m[k]
    if (v === undefined) return undefined
    if (typeof v !== 'string') throw new ProjectOpenError(`${file}: field "${k}" must be a string`)
    return v
  }
  const models = m.models ?? []
  if (!Array.isArray(models) || models.some((x) => typeof x !== 'string')) {
    throw new ProjectOpenError(`${file}: field "models" must be a list of file paths`)
  }
  const dataset = str('dataset')
  if (!dataset) throw new ProjectOpenError(`${file}: field "dataset" is required`)
  const config = str('config')
  const idColumn = str('idColumn')
  const mediaFolder = str('mediaFolder')
  const ice = m.iceIdx
  if (ice !== undefined && (ice === null || typeof ice !== 'object' || Array.isArray(ice) || Object.values(ice).some((x) => typeof x !== 'string'))) {
    throw new ProjectOpenError(`${file}: field "iceIdx" must map template variant names to file paths`)
  }
  return {
    ...(ice ? { iceIdx: Object.fromEntries(Object.entries(ice as Record<string, string>).map(([k, x]) => [k, resolve(root, x)])) } : {}),
    ...(idColumn ? { idColumn } : {}),
    name: str('name') ?? basename(root),
    root,
    dataset: resolve(root, dataset),
    configFile: config ? resolve(root, config) : undefined,
    modelFiles: (models as string[]).map((x) => resolve(root, x)),
    libraryModels: Array.isArray(m.libraryModels) ? (m.libraryModels as string[]) : [],
    ...(mediaFolder ? { mediaFolder: resolve(root, mediaFolder) } : {})
  }
}
