// The config import as a worker task: evaluating a config (a Python file someone handed you) runs off the main
// thread, so a slow or hostile config never freezes the app or the browser-mode server. Its own limits
// (shared/config/python-budget.ts) end it with a clean error; the worker is the second wall.
import type { ImportedConfig } from '../../../shared/config/import'
import type { TaskContext } from '../workers/task-types'
import { loadConfigFile, type LoadConfigOptions } from './load-config'

export interface ConfigTaskInput {
  file: string
  options?: LoadConfigOptions
}

export async function loadConfigTask(input: ConfigTaskInput, _ctx: TaskContext): Promise<ImportedConfig> {
  return loadConfigFile(input.file, input.options)
}
