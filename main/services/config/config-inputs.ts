// Says what a config read besides its own text: files it opened (one line per file, however often it was
// opened) and environment variables it asked for (never read: the config's default is what counts).
import type { Diagnostic } from '../../../shared/api/types'
import type { ConfigInput } from '../../../shared/config/import'
import { pointRange } from '../../../shared/diagnostics'

export function configInputProblems(inputs: ConfigInput[]): Diagnostic[] {
  const out: Diagnostic[] = []
  const files = new Map<string, Extract<ConfigInput, { kind: 'file' }>>()
  const env = new Map<string, Extract<ConfigInput, { kind: 'environ' }>>()
  for (const i of inputs) {
    if (i.kind === 'file' && !files.has(i.file)) files.set(i.file, i)
    if (i.kind === 'environ' && !env.has(i.name)) env.set(i.name, i)
  }
  for (const f of files.values()) {
    out.push({ code: 'config-read', severity: 'info', message: `the config read ${f.file} (${f.bytes} characters)`, source: f.from.file, range: pointRange(f.from.line, f.from.column) })
  }
  for (const e of env.values()) {
    const used = e.used === null ? 'None' : JSON.stringify(e.used)
    out.push({
      code: 'config-environ',
      severity: 'warning',
      message: `the config asks for the environment variable ${e.name}; the environment is not read, so its default ${used} is used (as in a clean environment)`,
      source: e.from.file,
      range: pointRange(e.from.line, e.from.column)
    })
  }
  return out
}
