// Output sinks for CLI commands, so commands are testable without touching process.stdout.
export interface CliIo {
  stdout(s: string): void
  stderr(s: string): void
  /** Standard input, for `--dataset -`. */
  stdin?: AsyncIterable<Uint8Array>
}

export const processIo: CliIo = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  stdin: process.stdin
}
