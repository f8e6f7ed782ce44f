// The CLI run in-process, as the tests drive it: exit code, what it wrote, and stdout's JSON lines parsed.
import { main } from '../../main/cli/index'

export interface CliRun {
  code: number
  out: string
  err: string
  /** stdout's lines as JSON (empty when nothing was written). */
  lines: any[]
}

export async function runCli(args: string[]): Promise<CliRun> {
  let out = ''
  let err = ''
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) })
  return { code, out, err, lines: out.trim() ? out.trim().split('\n').map((l) => JSON.parse(l)) : [] }
}
