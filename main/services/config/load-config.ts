// Loads an OpenCompass/AISBench config file from disk. Python configs are read by shared/config's evaluator,
// never executed; `with read_base():` imports are resolved here against the file system: relative imports
// ('.x', '..datasets.gsm8k.gsm8k_gen') from the importing file's folder, absolute ones
// ('opencompass.configs.datasets…', 'ais_bench.benchmark.configs…', 'configs.datasets…') from an enclosing
// `configs/` root or package root found by walking up from the file.
//
// `open(path)` in a config (CHARM reads its few-shot examples that way) reads a text file under the same rule
// as a dataset's media: after realpath it must lie inside a root — here the folder of a config module of this
// import tree (the opened file and every file it imported) or one of `configRoots`. Python resolves a relative
// path against the working directory; we resolve it against the config's own folder, and say so.

import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path'
import { configFormatOf, importConfig, type ConfigResolver, type ConfigTextReader, type ImportedConfig, type YamlLib } from '../../../shared/config/import'
import type { EvalLimits } from '../../../shared/config/python-budget'
import { checkRequestedPath } from '../media/roots'
import { configDiagnostic } from '../../../shared/config/config-diagnostic'

export interface LoadConfigOptions {
  /** Extra folders to try absolute imports against (e.g. a user's OpenCompass checkout `configs/`). */
  configRoots?: string[]
  /** Evaluator limits (tests lower them). */
  limits?: Partial<EvalLimits>
}

/** The largest file a config may open: few-shot example files are a few kB; 16 MB is the string limit. */
const MAX_CONFIG_READ = 16 * 1024 * 1024

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** Reads files a config opens, inside the folders of the config modules loaded so far (and configRoots). */
export function makeTextReader(roots: () => string[]): ConfigTextReader {
  return (requested, fromFile) => {
    const syn = checkRequestedPath(requested)
    if (!syn.ok) return { error: syn.reason }
    const wanted = isAbsolute(syn.path) ? syn.path : resolvePath(dirname(fromFile), syn.path)
    let real: string
    try {
      real = realpathSync(wanted)
    } catch {
      return { error: `no such file: ${wanted}` }
    }
    const realRoots = roots().flatMap((r) => {
      try {
        return [realpathSync(r)]
      } catch {
        return []
      }
    })
    if (!realRoots.some((r) => inside(r, real))) return { error: `refused: ${wanted} is outside the config's folders (${[...new Set(realRoots)].join(', ')})` }
    try {
      const st = statSync(real)
      if (!st.isFile()) return { error: `not a file: ${wanted}` }
      if (st.size > MAX_CONFIG_READ) return { error: `${wanted} is ${st.size} bytes; configs may read files up to ${MAX_CONFIG_READ} bytes` }
      return { file: real, text: readFileSync(real, 'utf8') }
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) }
    }
  }
}

/** Prefixes of absolute config module paths and the folder they start at, relative to a package root. */
const ABSOLUTE_PREFIXES: [string, string[]][] = [
  ['opencompass.configs.', ['opencompass', 'configs']],
  ['ais_bench.benchmark.configs.', ['ais_bench', 'benchmark', 'configs']],
  ['configs.', ['configs']]
]

function readIfFile(file: string): { file: string; source: string } | undefined {
  try {
    if (existsSync(file) && statSync(file).isFile()) return { file, source: readFileSync(file, 'utf8') }
  } catch {}
  return undefined
}

/** A module path as a file: 'a.b.c' → a/b/c.py, or a/b/c/__init__.py for a package. */
function moduleFile(base: string, parts: string[]): { file: string; source: string } | undefined {
  if (parts.some((p) => p === '' || p.includes(sep) || p === '..')) return undefined
  return readIfFile(join(base, ...parts) + '.py') ?? readIfFile(join(base, ...parts, '__init__.py'))
}

/** Folders above `file` that can anchor absolute imports: each ancestor, and any `configs/` folder on the way. */
function ancestors(file: string): string[] {
  const out: string[] = []
  let dir = dirname(resolvePath(file))
  for (;;) {
    out.push(dir)
    const parent = dirname(dir)
    if (parent === dir) return out
    dir = parent
  }
}

export function makeFileResolver(options: LoadConfigOptions = {}): ConfigResolver {
  return (modulePath, fromFile) => {
    const level = /^\.*/.exec(modulePath)?.[0].length ?? 0
    const rest = modulePath.slice(level)
    const parts = rest ? rest.split('.') : []
    if (level > 0) {
      // '.' is the importing file's own folder; each further dot goes one folder up.
      let base = dirname(resolvePath(fromFile))
      for (let i = 1; i < level; i++) base = dirname(base)
      return moduleFile(base, parts)
    }
    const roots = [...(options.configRoots ?? []), ...ancestors(fromFile)]
    for (const root of roots) {
      for (const [prefix, folders] of ABSOLUTE_PREFIXES) {
        if (!modulePath.startsWith(prefix)) continue
        const tail = modulePath.slice(prefix.length).split('.')
        // The root may be the package's parent, or a `configs/` folder itself.
        const hit = moduleFile(join(root, ...folders), tail) ?? (root.endsWith(`${sep}configs`) ? moduleFile(root, tail) : undefined)
        if (hit) return hit
      }
      const direct = moduleFile(root, parts)
      if (direct) return direct
    }
    return undefined
  }
}

/**
 * Reads and imports a config file on the calling thread; I/O failures come back as diagnostics like any other
 * error. The app and the CLI use loadConfig (load-config-async.ts), which runs this in a worker.
 */
export function loadConfigFile(file: string, options: LoadConfigOptions = {}): ImportedConfig {
  const path = resolvePath(file)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    return { datasets: [], models: [], variables: {}, diagnostics: [configDiagnostic(path, null, message)], inputs: [] }
  }
  const folders = new Set<string>([dirname(path), ...(options.configRoots ?? [])])
  const resolveFile = makeFileResolver(options)
  const resolve: ConfigResolver = (modulePath, fromFile) => {
    const found = resolveFile(modulePath, fromFile)
    if (found) folders.add(dirname(found.file))
    return found
  }
  const o = { file: path, resolve, readText: makeTextReader(() => [...folders]), limits: options.limits }
  const format = configFormatOf(path)
  return importConfig(text, format === 'yaml' ? { ...o, format, yaml: yamlLib() } : { ...o, format })
}

/** The yaml package, loaded the first time a YAML config is read (a Python or JSON config never loads it). */
let yaml: YamlLib | null = null
function yamlLib(): YamlLib {
  return (yaml ??= createRequire(__filename)('yaml') as YamlLib)
}
