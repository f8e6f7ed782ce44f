// Hugging Face `datasets.load_from_disk` over a `save_to_disk` folder, as the loaders that call it see the result:
// a Dataset folder holds dataset_info.json (features), state.json (`_data_files`: the Arrow IPC stream shards in
// order) and data-XXXXX-of-NNNNN.arrow; a DatasetDict folder holds dataset_dict.json ({"splits": […]}) and one
// Dataset folder per split. Rows are as `ds[i]` gives them: Image feature cells decoded (PilImage), other values
// as pyarrow's to_pylist gives them (floats as Python floats).
import { ArrowStreamReader } from '../formats/arrow-ipc'
import type { LoaderIO } from './io'
import { pjoin } from './io'
import { PyError, PyFloat } from './py'
import { jsonGet } from '../python/json'

/** A decoded `datasets` Image cell (a PIL.Image in upstream's rows): the stored struct, decoded on demand. */
export class PilImage {
  constructor(
    public readonly bytes: Uint8Array | null,
    public readonly path: string | null
  ) {}
}

export interface DiskDataset {
  columns: string[]
  rows: Record<string, unknown>[]
  /** Feature `_type` by column (Value, Image, Sequence, …) from dataset_info.json. */
  features: Record<string, unknown>
}

/** `_data_files` of a state.json, in order. */
export function stateDataFiles(stateJson: string): string[] {
  let j: unknown
  try {
    j = JSON.parse(stateJson)
  } catch {
    throw new PyError('JSONDecodeError', 'state.json is not valid JSON')
  }
  const files = jsonGet(j, '_data_files')
  if (!Array.isArray(files)) throw new PyError('KeyError', "'_data_files'")
  return files.map((f: unknown) => {
    const name = jsonGet(f, 'filename')
    if (typeof name !== 'string') throw new PyError('KeyError', "'filename'")
    return name
  })
}

function isImageFeature(f: unknown): boolean {
  return !!f && typeof f === 'object' && (f as Record<string, unknown>)._type === 'Image'
}

/** Image cells (top level, or a list of them) become PilImage, as Dataset.__getitem__ decodes them. */
function decodeCell(v: unknown, feature: unknown): unknown {
  if (v === null || v === undefined) return null
  if (isImageFeature(feature)) {
    const s = v as { bytes?: unknown; path?: unknown }
    return new PilImage(s.bytes instanceof Uint8Array ? s.bytes : null, typeof s.path === 'string' ? s.path : null)
  }
  const f = feature as Record<string, unknown> | unknown[] | null
  const inner = Array.isArray(f)
    ? f[0]
    : f && (f._type === 'Sequence' || f._type === 'List' || f._type === 'LargeList')
      ? f.feature
      : undefined
  if (inner !== undefined && Array.isArray(v)) return v.map((x) => decodeCell(x, inner))
  return v
}

/** datasets.load_from_disk(path) for a Dataset folder; a DatasetDict folder or anything else fails as upstream does. */
export async function loadFromDisk(path: string, io: LoaderIO): Promise<DiskDataset> {
  if (!(await io.exists(path))) throw new PyError('FileNotFoundError', `Directory ${path} not found`)
  const infoPath = pjoin(path, 'dataset_info.json')
  const statePath = pjoin(path, 'state.json')
  const isFile = async (p: string): Promise<boolean> => (await io.exists(p)) && !(await io.isDir(p))
  if (!((await isFile(infoPath)) && (await isFile(statePath)))) {
    if (await isFile(pjoin(path, 'dataset_dict.json')))
      // load_from_disk returns a DatasetDict, on which the loaders' `.select(...)` fails.
      throw new PyError('AttributeError', "'DatasetDict' object has no attribute 'select'")
    throw new PyError(
      'FileNotFoundError',
      `Directory ${path} is neither a \`Dataset\` directory nor a \`DatasetDict\` directory.`
    )
  }
  let features: Record<string, unknown> = {}
  try {
    const info = JSON.parse(await io.readText(infoPath))
    if (info?.features && typeof info.features === 'object') features = info.features
  } catch {
    throw new PyError('JSONDecodeError', 'dataset_info.json is not valid JSON')
  }
  const files = stateDataFiles(await io.readText(statePath))
  let columns: string[] | null = null
  const rows: Record<string, unknown>[] = []
  for (const f of files) {
    const bytes = await io.readBytes(pjoin(path, f))
    let reader: ArrowStreamReader
    try {
      reader = await ArrowStreamReader.fromBytes(bytes, { float: (x) => new PyFloat(x) })
    } catch (e) {
      throw new PyError('ArrowInvalid', e instanceof Error ? e.message : String(e))
    }
    const names = reader.schema.fields.map((x) => x.name)
    columns ??= names
    if (Object.keys(features).length === 0) {
      const hf = reader.schema.metadata.get('huggingface')
      try {
        const j = hf ? JSON.parse(hf) : null
        features = j?.info?.features ?? {}
      } catch {
        features = {}
      }
    }
    for (const r of await reader.rows()) {
      const row: Record<string, unknown> = {}
      for (const c of columns) row[c] = decodeCell(r[c] ?? null, features[c])
      rows.push(row)
    }
  }
  return { columns: columns ?? Object.keys(features), rows, features }
}
