// `promptloom conformance CASES.jsonl …`: one {"id","output"} line per golden case, for check.mjs to compare.
import { createReadStream, existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { conformanceRunners, runConformanceCase, type ConformanceHost, type ConformanceRunner } from '../../shared/conformance'
import { parsePyJson } from '../../shared/engine'
import { runLoaderCase } from '../services/loaders/conformance-case'
import { runCustomDatasetCase } from '../services/config/custom-dataset-case'
import { runChatmlCase } from '../services/config/chatml-case'
import { UsageError } from './args'
import { runHarnessCase, runLmEvalCase, runVlmevalCase } from './conformance-harness'

/** Families whose cases run through the app's own row renderer (main/), not a shared-only runner. */
const runners: Record<string, ConformanceRunner> = {
  ...conformanceRunners,
  'opencompass-chat': runHarnessCase,
  'aisbench-chat': runHarnessCase,
  'lm-eval': runLmEvalCase,
  vlmevalkit: runVlmevalCase,
  // Loader cases need files and a picture codec: main runs them with the app's loader code.
  'aisbench-loader': runLoaderCase,
  // OpenCompass custom datasets: the config completed from files, as a project opening it does.
  'opencompass-custom': runCustomDatasetCase,
  // Run configs' chatml_datasets: the datasets built and ChatMLDataset's rows.
  'opencompass-chatml': runChatmlCase
}
import type { CliIo } from './io'

/** Chat templates live beside the cases: <cases>/../../chat-templates/templates/<name>.jinja (the shared layout). */
function hostFor(casesFile: string): ConformanceHost {
  const cache = new Map<string, string | undefined>()
  // Cases kept in this repository (test/conformance/cases-local) use the shared templates: PROMPTLOOM_SHARED or ../shared.
  const sharedDir = process.env.PROMPTLOOM_SHARED ?? join(dirname(casesFile), '..', '..', '..', '..', 'shared')
  const dirs = [
    join(dirname(casesFile), '..', '..', 'chat-templates', 'templates'),
    join(dirname(casesFile), '..', 'chat-templates', 'templates'),
    join(sharedDir, 'chat-templates', 'templates')
  ]
  return {
    loadChatTemplate(name) {
      if (!cache.has(name)) {
        const safe = /^[\w.@+-]+$/.test(name) ? name : null
        const file = safe ? dirs.map((d) => join(d, `${safe}.jinja`)).find((f) => existsSync(f)) : undefined
        cache.set(name, file ? readFileSync(file, 'utf8') : undefined)
      }
      return cache.get(name)
    }
  }
}

export const CONFORMANCE_HELP = `promptloom conformance CASES.jsonl [CASES2.jsonl …]

Runs golden cases (made by running the upstream code: OpenCompass, AISBench, transformers chat templates, FastChat,
LazyLLM, lm-evaluation-harness, VLMEvalKit, AISBench dataset loaders) through the same code the app and render use,
and prints one {"id","output"} JSON line per case, for ../shared/conformance/check.mjs to compare:
  promptloom conformance cases.jsonl > out.jsonl && node check.mjs cases.jsonl --outputs out.jsonl

Chat templates are read from chat-templates/templates beside the cases (or $PROMPTLOOM_SHARED).
Exit codes: 0 every case ran (whether or not it matches), 2 usage error.
`

export async function runConformance(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(CONFORMANCE_HELP)
    return 0
  }
  if (args.length === 0) throw new UsageError('conformance needs one or more CASES.jsonl files')
  for (const file of args) {
    if (!existsSync(file)) throw new UsageError(`${file}: no such file`)
    const host = hostFor(file)
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })
    let n = 0
    for await (const line of lines) {
      n++
      if (!line.trim()) continue
      let c
      try {
        c = JSON.parse(line)
        // The engine families print values as Python's str() does, which tells 1.0 from 1: keep that distinction.
        if (c.family === 'opencompass' || c.family === 'aisbench') c = parsePyJson(line)
      } catch (e) {
        io.stderr(`${file}:${n}: not JSON: ${e instanceof Error ? e.message : String(e)}\n`)
        continue
      }
      const output = await runConformanceCase(c, host, runners)
      io.stdout(JSON.stringify({ id: c.id, output }) + '\n')
    }
  }
  return 0
}
