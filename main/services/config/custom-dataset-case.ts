// Runs one `opencompass-custom` golden case (test/tools/config-bench/custom_goldens.py) through the app's own
// path: the case's files are written below a fresh folder (upstream's working directory), the entry is completed
// by completeCustomDataset as a project opening the config in that folder does, and a CircularCustomDataset's
// rows are built by the reproduced loader. The folder is removed afterwards.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ConformanceCase } from '../../../shared/conformance/types'
import type { DatasetConfig, Json } from '../../../shared/config/import'
import { PyError, loadKwargs, loaderFor } from '../../../shared/loaders'
import { goldenJson } from '../loaders/conformance-case'
import { nodeLoaderIO } from '../loaders/node-io'
import { completeCustomDataset } from './custom-datasets'

const failure = (e: unknown, key = 'error'): Record<string, string> =>
  e instanceof PyError ? { [key]: `${e.pyClass}: ${e.message}`, error_type: e.pyClass } : { [key]: e instanceof Error ? e.message : String(e) }

/** An opencompass-custom case: the files of upstream's working directory and the dataset entry a config holds. */
interface CustomDatasetCaseInput {
  files?: Record<string, string>
  entry: Record<string, Json>
}

export async function runCustomDatasetCase(c: ConformanceCase): Promise<unknown> {
  const input = c.input as CustomDatasetCaseInput
  const root = await mkdtemp(path.join(tmpdir(), 'plcustom'))
  try {
    for (const [rel, text] of Object.entries(input.files ?? {})) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true })
      await writeFile(path.join(root, rel), text)
    }
    const entry = input.entry
    const configFile = path.join(root, 'config.py')
    const dataFile = path.resolve(root, String(entry.path))
    const written: DatasetConfig = { variable: 'datasets', index: 0, reader_cfg: {}, infer_cfg: {}, raw: entry }
    let dataset: DatasetConfig
    try {
      dataset = (await completeCustomDataset(written, { configFile })).dataset
    } catch (e) {
      return failure(e)
    }
    const out: Record<string, unknown> = { dataset: dataset.raw }
    const loader = loaderFor(dataset.type)
    if (loader) {
      try {
        const io = nodeLoaderIO({ cwd: root, cacheDir: path.join(root, '.cache') })
        out.rows = goldenJson((await loader({ ...loadKwargs(dataset.raw), path: dataFile }, io)).rows)
      } catch (e) {
        Object.assign(out, failure(e, 'rows_error'))
      }
    }
    return out
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
