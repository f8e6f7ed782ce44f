// What the app and the CLI call to import a config: the evaluation runs in a worker thread when workers are
// available (the built app, the CLI, benchmarks) and in-process otherwise (unit tests), through the shared pool.
import { resolve } from 'node:path'
import type { ImportedConfig } from '../../../shared/config/import'
import { runTask } from '../workers/pool'
import type { LoadConfigOptions } from './load-config'
import { configDiagnostic } from '../../../shared/config/config-diagnostic'

export async function loadConfig(file: string, options: LoadConfigOptions = {}): Promise<ImportedConfig> {
  const path = resolve(file)
  try {
    return await runTask('config-load', { file: path, options })
  } catch (e) {
    // The worker itself died (out of memory past every limit): still a diagnostic, never a crash.
    const message = `the config could not be evaluated: ${e instanceof Error ? e.message : String(e)}`
    return { datasets: [], models: [], variables: {}, diagnostics: [configDiagnostic(path, null, message)], inputs: [] }
  }
}
