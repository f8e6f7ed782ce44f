// Output sinks for CLI commands, so commands are testable without touching process.stdout.
import { formatDiagnostic, type Diagnostic } from '../../shared/diagnostics'

export interface CliIo {
  stdout(s: string): void
  /** Bytes to standard output (UTF-8 text already encoded), when the sink takes them; else stdout(text). */
  stdoutBytes?(b: Uint8Array): void
  stderr(s: string): void
  /** Standard input, for `--dataset -`. */
  stdin?: AsyncIterable<Uint8Array>
}

export const processIo: CliIo = {
  stdout: (s) => void process.stdout.write(s),
  stdoutBytes: (b) => void process.stdout.write(b),
  stderr: (s) => void process.stderr.write(s),
  stdin: process.stdin
}

/** The project's errors, one a line as compilers print them: `promptloom: file:line:col: error: message [code]`. */
export function printErrors(io: CliIo, problems: readonly Diagnostic[]): void {
  for (const p of problems) if (p.severity === 'error') io.stderr(`promptloom: ${formatDiagnostic(p)}\n`)
}
