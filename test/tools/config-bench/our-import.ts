// PromptLoom's import of one upstream config file, for the config-bench scripts. A file under
// configs/chatml_datasets is what a run config's `chatml_datasets` holds: it is imported through a run config
// written beside --work (`datasets = []`, `chatml_datasets` = the file's `datasets`), resolved against TREE, as
// upstream_datasets.py measures it.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { ImportedConfig } from '../../../shared/config/import'

type Loader = (file: string, options?: { configRoots?: string[] }) => ImportedConfig

export function ourImport(loadConfigFile: Loader, tree: string, file: string, work: string): ImportedConfig {
  if (!file.includes('/chatml_datasets/')) return loadConfigFile(join(tree, file))
  const module = relative('', file).replace(/\.py$/, '').split('/').join('.')
  const run = join(work, 'chatml-run', `${module.replace(/\./g, '_')}.py`)
  mkdirSync(join(work, 'chatml-run'), { recursive: true })
  writeFileSync(run, `from mmengine.config import read_base\n\nwith read_base():\n    from ${module} import datasets as bench_chatml\n\ndatasets = []\nchatml_datasets = bench_chatml\n`)
  return loadConfigFile(run, { configRoots: [tree] })
}
