// Facade of the Python config reader: source text in, the module's top-level variables out as JSON-like
// values, with positioned diagnostics. Pure TypeScript; sibling configs come through the resolver callback.

import type { EvalLimits } from './python-budget'
import { Budget } from './python-budget'
import { evaluateModule, type ConfigInput, type ConfigResolver, type ConfigTextReader, type EvalSession } from './python-eval'
import { configDiagnostic } from './config-diagnostic'
import type { Diagnostic } from '../diagnostics'
import { PyBuiltin, PyError, PyModule, PyRef, toJson, type Json, type PyValue } from './python-values'

export type { ConfigInput, ConfigResolver, ConfigTextReader } from './python-eval'
export type { Json } from './python-values'

export interface PythonConfigResult {
  /** Top-level variables (imports of classes/modules and dunder names left out), in definition order. */
  variables: Record<string, Json>
  /** The same variables as runtime values, keeping object identity (used to de-duplicate dataset lists). */
  values: Map<string, PyValue>
  diagnostics: Diagnostic[]
  /** Files the config read (open) and environment variables it asked for, in order. */
  inputs: ConfigInput[]
}

export interface PythonConfigOptions {
  file: string
  resolve?: ConfigResolver
  /** For `open(path)` in configs; without it a config that opens a file gets an error at the open. */
  readText?: ConfigTextReader
  limits?: Partial<EvalLimits>
}

/** True for values that are program plumbing rather than configuration (imported classes, modules, helpers). */
export function isPlumbing(v: PyValue): boolean {
  return v instanceof PyRef || v instanceof PyModule || v instanceof PyBuiltin
}

export function evaluatePythonConfig(source: string, { file, resolve, readText, limits }: PythonConfigOptions): PythonConfigResult {
  const session: EvalSession = { resolve, readText, modules: new Map(), loading: new Set(), budget: new Budget(limits), inputs: [] }
  const mod = evaluateModule(source, file, session)
  const variables: Record<string, Json> = {}
  const values = new Map<string, PyValue>()
  const diagnostics = [...mod.diagnostics]
  for (const [name, v] of mod.vars) {
    if (name.startsWith('__') || isPlumbing(v)) continue
    try {
      variables[name] = toJson(v)
    } catch (e) {
      // A value that contains itself (x = []; x.append(x)) or nests too deeply cannot become configuration.
      if (!(e instanceof PyError) && !(e instanceof RangeError)) throw e
      const at = mod.positions.get(name) ?? { line: 1, column: 1 }
      const message = e instanceof PyError ? e.pyMessage : 'RecursionError: the value is nested too deeply'
      diagnostics.push(configDiagnostic(file, at, `${name}: ${message}`))
      continue
    }
    values.set(name, v)
  }
  return { variables, values, diagnostics, inputs: session.inputs ?? [] }
}
