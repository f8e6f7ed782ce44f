// Runs one `opencompass-chatml` golden case (test/tools/config-bench/chatml_goldens.py) through the code a project
// opening a run config uses: `construct` reads the case's copy of chatobj_custom_gen.py with the config reader and
// builds the chatml_datasets entries as the config importer does; `load` writes the case's JSONL below a fresh
// folder (removed afterwards) and builds its rows with the reproduced ChatMLDataset loader.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ConformanceCase } from '../../../shared/conformance/types'
import { constructChatmlDatasets, readChatmlTemplate } from '../../../shared/config/chatml'
import type { Json } from '../../../shared/config/import'
import { PyError, loaderFor } from '../../../shared/loaders'
import { goldenJson } from '../loaders/conformance-case'
import { nodeLoaderIO } from '../loaders/node-io'

const failure = (e: unknown): Record<string, string> => {
  if (e instanceof PyError) return { error: `${e.pyClass}: ${e.message}`, error_type: e.pyClass }
  throw e
}

/** An opencompass-chatml case: the entries and the template module's text, or a ChatML JSONL to load. */
type ChatmlCaseInput = { kind: 'construct'; chatml_datasets: Json; template_source: string } | { kind: 'load'; text: string }

export async function runChatmlCase(c: ConformanceCase): Promise<unknown> {
  const input = c.input as ChatmlCaseInput
  if (input.kind === 'construct') {
    try {
      const { template } = readChatmlTemplate({ file: 'chatobj_custom_gen.py', source: input.template_source })
      return { datasets: constructChatmlDatasets(input.chatml_datasets, template) }
    } catch (e) {
      return failure(e)
    }
  }
  const root = await mkdtemp(path.join(tmpdir(), 'plchatml'))
  try {
    const file = path.join(root, 'data.jsonl')
    await writeFile(file, input.text)
    try {
      const res = await loaderFor('ChatMLDataset')!({ path: file }, nodeLoaderIO({ cwd: root, cacheDir: path.join(root, '.cache') }))
      return { columns: res.columns, rows: goldenJson(res.rows) }
    } catch (e) {
      return failure(e)
    }
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
