// Registry of conformance runners by family name, used by `promptloom conformance` and the test suite.
import type { ConformanceCase, ConformanceHost, ConformanceRunner } from './types'
import { runOpenCompassCase } from './opencompass'
import { runAisbenchCase } from './aisbench'
import { runHfChatTemplateCase } from './hf-chat-template'
import { runFastchatCase } from './fastchat'
import { runLazyllmCase } from './lazyllm'

export type { ConformanceCase, ConformanceHost, ConformanceRunner } from './types'

export const conformanceRunners: Record<string, ConformanceRunner> = {
  opencompass: runOpenCompassCase,
  aisbench: runAisbenchCase,
  'hf-chat-template': runHfChatTemplateCase,
  fastchat: runFastchatCase,
  lazyllm: runLazyllmCase
}

/** Runs one case (`runners`: the shared ones plus any the host adds); a family this build does not know, or a runner that throws, still yields an output line. */
export async function runConformanceCase(c: ConformanceCase, host: ConformanceHost, runners: Record<string, ConformanceRunner> = conformanceRunners): Promise<unknown> {
  const runner = runners[c.family]
  if (!runner) return { error: 'unsupported family' }
  try {
    return await runner(c, host)
  } catch (e) {
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}` }
  }
}
