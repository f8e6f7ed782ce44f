// Works out what a path holds: one data file (format from its extension, JSON sniffed), or a dataset folder
// whose files name their splits — train.jsonl + test.jsonl, or the Hugging Face layout data/train-00000-of-00002.parquet.
// A Hugging Face `datasets.save_to_disk` folder (state.json + dataset_info.json + data-XXXXX-of-NNNNN.arrow, or a
// DatasetDict's dataset_dict.json + one such folder per split) is read as its state.json lists its Arrow shards.
// Rows for in-context examples come from train and rows to render from test, as the evaluators do.
import { readFile, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import type { DatasetFormat } from './types'

export interface SplitLayout {
  name: string
  files: Array<{ file: string; format: DatasetFormat }>
}

const EXT_FORMAT: Record<string, DatasetFormat> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.json': 'json',
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.parquet': 'parquet',
  '.arrow': 'arrow'
}

export function formatOf(file: string): DatasetFormat | null {
  return EXT_FORMAT[path.extname(file).toLowerCase()] ?? null
}

// Split names as the Hub and the evaluators spell them; anything else becomes its own split by file name.
const SPLIT_NAMES = ['train', 'validation', 'valid', 'val', 'dev', 'test', 'eval']

function splitNameOf(base: string): string {
  const stem = base.replace(/\.[^.]+$/, '')
  // HF shards: train-00000-of-00003, test-00000-of-00001-abc123
  const shard = /^(.+?)-\d{5}-of-\d{5}/.exec(stem)
  const name = (shard ? shard[1] : stem).toLowerCase()
  for (const s of SPLIT_NAMES)
    if (name === s || name.endsWith(`_${s}`) || name.endsWith(`-${s}`) || name.startsWith(`${s}-`)) return s
  return shard ? shard[1] : stem
}

const isFile = (p: string): Promise<boolean> =>
  stat(p).then(
    (s) => s.isFile(),
    () => false
  )

/** The Arrow shards a save_to_disk Dataset folder's state.json lists, in order; null when `dir` is not one. */
async function savedDatasetFiles(dir: string): Promise<{ split: string | null; files: string[] } | null> {
  if (!(await isFile(path.join(dir, 'state.json'))) || !(await isFile(path.join(dir, 'dataset_info.json')))) return null
  let state: { _data_files?: Array<{ filename?: unknown }>; _split?: unknown }
  try {
    state = JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8'))
  } catch {
    return null
  }
  if (!Array.isArray(state._data_files)) return null
  const files = state._data_files.map((f) => f?.filename).filter((f): f is string => typeof f === 'string')
  // `_split` may carry a slice ("train[:100]"): the split's name is the part before it.
  const split = typeof state._split === 'string' ? (/^[\w.-]+/.exec(state._split)?.[0] ?? null) : null
  return { split, files: files.map((f) => path.join(dir, f)) }
}

/** A save_to_disk folder's splits: one for a Dataset, one per split of a DatasetDict; null for any other folder. */
export async function savedDatasetLayout(dir: string): Promise<SplitLayout[] | null> {
  const one = await savedDatasetFiles(dir)
  if (one)
    return [{ name: one.split ?? 'default', files: one.files.map((file) => ({ file, format: 'arrow' as const })) }]
  if (!(await isFile(path.join(dir, 'dataset_dict.json')))) return null
  let names: unknown
  try {
    names = JSON.parse(await readFile(path.join(dir, 'dataset_dict.json'), 'utf8'))?.splits
  } catch {
    return null
  }
  if (!Array.isArray(names)) return null
  const out: SplitLayout[] = []
  for (const name of names) {
    if (typeof name !== 'string') continue
    const sub = await savedDatasetFiles(path.join(dir, name))
    if (sub) out.push({ name, files: sub.files.map((file) => ({ file, format: 'arrow' as const })) })
  }
  return out
}

/** Lists the splits of a folder, shards in name order. Files whose format is unknown are ignored. */
export async function layoutOf(target: string): Promise<{ kind: 'file' | 'folder'; splits: SplitLayout[] }> {
  const st = await stat(target)
  if (!st.isDirectory()) {
    const format = formatOf(target) ?? 'jsonl'
    return { kind: 'file', splits: [{ name: 'default', files: [{ file: target, format }] }] }
  }
  const saved = await savedDatasetLayout(target)
  if (saved) return { kind: 'folder', splits: saved }
  const found: Array<{ file: string; format: DatasetFormat }> = []
  const scan = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true })
    entries.sort((a, b) => a.name.localeCompare(b.name))
    for (const e of entries) {
      if (e.name.startsWith('.')) continue
      const full = path.join(dir, e.name)
      // Symlinks are followed: a Hugging Face hub snapshot is a folder of links into its blob store.
      const kind = e.isSymbolicLink() ? await stat(full).catch(() => null) : e
      if (!kind) continue
      if (kind.isDirectory() && depth < 2 && (e.name === 'data' || depth === 0)) await scan(full, depth + 1)
      else if (kind.isFile()) {
        const format = formatOf(e.name)
        if (format) found.push({ file: full, format })
      }
    }
  }
  await scan(target, 0)
  const bySplit = new Map<string, SplitLayout>()
  for (const f of found) {
    const rel = path.relative(target, f.file).split(path.sep)
    // data/<split>/xxx.parquet is a split named by its folder.
    const name =
      rel.length >= 3 && rel[0] === 'data'
        ? rel[1]
        : rel.length === 2 && rel[0] !== 'data'
          ? rel[0]
          : splitNameOf(path.basename(f.file))
    let s = bySplit.get(name)
    if (!s) bySplit.set(name, (s = { name, files: [] }))
    s.files.push(f)
  }
  const order = (n: string): number => {
    const k = SPLIT_NAMES.indexOf(n)
    return k < 0 ? SPLIT_NAMES.length : k
  }
  const splits = [...bySplit.values()].sort((a, b) => order(a.name) - order(b.name) || a.name.localeCompare(b.name))
  return { kind: 'folder', splits }
}
