// `promptloom`: the headless face of the same engine and services the app uses.
// Each command's module is loaded when that command runs (`render` never loads the HTTP server, and nothing loads
// sharp until a picture is touched): startup is part of every `promptloom render`.
import { processIo, type CliIo } from './io'
import { UsageError } from './args'
import { removeOpenTemps } from '../services/fs/atomic-write'
import { dirname, join } from 'node:path'
import { useCompileCache } from './compile-cache'
import { appVersion } from '../services/app-paths'

const HELP = `promptloom — see exactly what each model receives

Usage:
  promptloom serve [PATH] [--port N] [--open]     the app in a browser (loopback only, tokened URL)
  promptloom render --config C [--dataset D] --model M [--model M2 …]
                    [--variant ABBR] [--format string|messages|prompt-list] [--spans] [--out F.jsonl]
                                                   render every row per model as JSON lines
  promptloom lint --config C [--dataset D] --model M [--model M2 …] [--variant ABBR]
                  [--json] [--fail-on error|warning|never]
                                                   find what is wrong in every row × model (lint --help)
  promptloom export PATH --out F [--only all|accepted|not-rejected]
                    [--format jsonl|mm-custom|vlmeval-tsv|hf-parquet] [--curation] [--media …]
                                                   write the curated dataset (media encoded as chosen)
  promptloom inspect PATH [--json]                 check a dataset: rows, columns, media, bad rows
  promptloom conformance CASES.jsonl […]          run golden cases, one {"id","output"} line each
  promptloom --help | --version

PATH / --config may be a project folder (project.json), an OpenCompass/AISBench config (.py .json .yaml) or a
dataset (.jsonl .json .csv .tsv .parquet, or a folder with train/test files). --model takes a profile JSON, an
OpenCompass model config, a model folder (tokenizer_config.json …) or a built-in profile name; M@HARNESS[,K=V…]
(opencompass, aisbench, lm-eval, vlmevalkit) renders the same model as that harness sends it (see render --help).
Exit codes: 0 ok, 1 problems found (rows skipped, render errors), 2 usage error.
`

/** Set when this file runs as the CLI bundle: where the bundled dataset worker is. */
let workerFileForCli: string | null = null

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [cmd, ...rest] = argv
  try {
    if (workerFileForCli && cmd && !cmd.startsWith('-') && cmd !== 'help') {
      const pool = await import('../services/workers/pool')
      pool.configureWorkers({ workerFile: workerFileForCli })
      // Configs are evaluated on a worker: one started now loads its modules while this thread loads the command's.
      if (cmd === 'render' || cmd === 'lint') pool.warmWorkers(1)
    }
    switch (cmd) {
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        io.stdout(HELP)
        return 0
      case '--version':
      case '-v':
        io.stdout(`promptloom ${appVersion()}\n`)
        return 0
      case 'serve':
        return await (await import('./serve')).runServe(rest, io)
      case 'render':
        // Large renders use worker threads; the bundled render worker sits beside the dataset worker.
        if (workerFileForCli) (await import('./render-parallel')).configureRenderWorker(join(dirname(workerFileForCli), 'render-worker.js'))
        return await (await import('./render')).runRender(rest, io)
      case 'export':
        return await (await import('./export')).runExport(rest, io)
      case 'inspect':
        return await (await import('./inspect')).runInspect(rest, io)
      case 'lint':
        return await (await import('./lint')).runLint(rest, io)
      case 'conformance':
        return await (await import('./conformance')).runConformance(rest, io)
      default:
        throw new UsageError(`unknown command "${cmd}"`)
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`promptloom: ${e.message}\nRun promptloom --help for usage.\n`)
      return 2
    }
    io.stderr(`promptloom: ${e instanceof Error ? e.message : String(e)}\n`)
    return 1
  }
}

// Run when executed as the CLI bundle (not when imported by tests).
if (require.main === module) {
  useCompileCache()
  // Dataset indexing runs on worker threads; the bundled worker sits beside this entry file.
  workerFileForCli = join(__dirname, 'dataset-worker.js')
  // `promptloom render | head` closes the pipe early: that is a normal end, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0)
  })
  // Interrupted: an export's temp file goes with the process (a killed one is removed by the next export).
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      removeOpenTemps()
      process.exit(sig === 'SIGINT' ? 130 : 143)
    })
  }
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (e) => {
      process.stderr.write(`promptloom: ${String(e)}\n`)
      process.exitCode = 1
    }
  )
}
