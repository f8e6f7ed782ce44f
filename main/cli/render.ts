// `promptloom render`: every row of a dataset through a config's template and each model's format, one JSON line
// per row and model — the same generator the app's Export uses.
import { stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { Host } from '../api/host'
import {
  encodeLines,
  serializeLines,
  writeEncoded,
  writeExport,
  type ExportLine,
  type ExportOptions,
  type Shard
} from '../services/workspace/export'
import { applyDatasetFlags, parseShard, type SpooledInput } from './dataset-input'
import { MEDIA_FLAGS, MEDIA_HELP, mediaFromFlags } from './media-flags'
import { lineFailed } from './render-lines'
import { renderBlock } from './render-block'
import {
  earlyRenderWorkers,
  renderInParallel,
  renderThreads,
  startRenderWorkers,
  type RenderWorkers
} from './render-parallel'
import { Workspace } from '../services/workspace/workspace'
import { resolveProjectSpec, type ProjectSpec } from '../services/workspace/project-spec'
import { parseArgs, UsageError } from './args'
import { printErrors, type CliIo } from './io'

const FORMATS = ['string', 'messages', 'prompt-list', 'multimodal'] as const

const RENDER_HELP = `promptloom render --config C [--dataset D] --model M [--model M2 …] [options]

Renders every row through the config's template and each model's format: one JSON line per row and model
(per label for PPL, per turn for multi-turn), the same lines the app's Export writes.

  --config C        a project folder, an OpenCompass/AISBench config (.py .json .yaml) or a dataset
  --dataset D       the dataset, when the config does not name it (or to override it); - reads JSONL rows from
                    standard input (relative media paths then resolve against --media-folder, else the folder of
                    the config's own dataset, else the working directory)
  --media-folder F  where the rows' relative media paths are (VLMEvalKit images folder, LLaVA --image-folder)
  --shard I/N       only shard I of N (from 0): a contiguous slice of the rows, so N runs together cover every row
                    once and their outputs concatenated in order are the whole output
  --model M         a profile JSON, OpenCompass model config, model folder or built-in profile name (repeatable);
                    M@HARNESS[,KEY=VALUE…] shows it under another harness (opencompass, aisbench, lm-eval,
                    vlmevalkit), e.g. --model qwen2.5-instruct@lm-eval
                    --model 'qwen2.5-instruct@lm-eval,fewshot_as_multiturn=false' --model qwen2.5-vl-instruct@vlmevalkit
                    (lm-eval options: fewshot_as_multiturn, system_instruction, description, target_delimiter,
                    fewshot_delimiter, gen_prefix, until, chat_template_args, enable_thinking, add_bos_token;
                    vlmevalkit: use_custom_prompt, system_prompt, custom_dataset; VALUE is JSON when it parses as
                    JSON, else text)
  --variant ABBR    the config's dataset abbr to render (default: the first)
  --format string|messages|prompt-list|multimodal
                    messages: what the model's format received before any chat template (an OpenAI-compatible
                    server's input); prompt-list: the dataset-side PromptList; multimodal: the messages with each
                    media part a placeholder in the text (<image_1>, <audio_1>…) and a "media" map from placeholder
                    to part, for pipelines that attach media themselves
  --only all|accepted|not-rejected   rows by their saved curation (default all)
  --spans           add where each piece of text came from
  --out F.jsonl     write atomically to F (default: stdout)
${MEDIA_HELP}

Exit codes: 0 ok, 1 some rows could not be rendered (see their "problems"), 2 usage error.
`

const quietHost: Host = {
  mode: 'browser',
  mediaUrl: (p) => p,
  pickSavePath: async () => null,
  emit: () => {}
}

export async function runRender(argv: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseArgs(argv, {
    config: { type: 'string' },
    dataset: { type: 'string' },
    'media-folder': { type: 'string' },
    model: { type: 'string', multiple: true },
    variant: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
    spans: { type: 'boolean' },
    shard: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    ...MEDIA_FLAGS
  })
  if (flags.help) {
    io.stdout(RENDER_HELP)
    return 0
  }
  const media = mediaFromFlags(flags)
  const config = flags.config ?? positional[0]
  if (!config) throw new UsageError('render needs --config (a config file, dataset or project folder)')
  if (flags.format && !(FORMATS as readonly string[]).includes(flags.format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`)
  const only = (flags.only ?? 'all') as ExportOptions['only']
  if (!['all', 'accepted', 'not-rejected'].includes(only))
    throw new UsageError('--only must be all, accepted or not-rejected')

  const shard = flags.shard ? parseShard(flags.shard) : undefined
  const spec = await resolveProjectSpec(config)
  let spooled: SpooledInput | null = null
  try {
    spooled = await applyDatasetFlags(spec, flags, io.stdin)
    return await render(spec, flags, { media, only, shard }, io)
  } finally {
    await spooled?.dispose()
  }
}

async function render(
  spec: ProjectSpec,
  flags: { model?: string[]; variant?: string; format?: string; out?: string; spans?: boolean },
  o: { media: ReturnType<typeof mediaFromFlags>; only: ExportOptions['only']; shard?: Shard },
  io: CliIo
): Promise<number> {
  const { media, only } = o
  const ws = new Workspace(quietHost)
  if (flags.model?.length) {
    spec.modelFiles = await Promise.all(
      flags.model.map(async (m) => ((await stat(m).catch(() => null)) ? resolve(m) : m))
    )
  }
  // Rendering with media encoded stays on this thread; otherwise a large dataset's workers start now.
  let workers: RenderWorkers | null = media.form === 'keep' ? await earlyRenderWorkers(spec.dataset) : null
  try {
    const summary = await ws.session.openSpec(spec)
    printErrors(io, summary.problems)
    if (summary.models.length === 0)
      throw new UsageError('no usable model: give --model with a profile, model config, model folder or built-in name')
    const variant = flags.variant ?? summary.variants[0].id
    if (!summary.variants.some((v) => v.id === variant))
      throw new UsageError(`no variant "${variant}"; this config has: ${summary.variants.map((v) => v.id).join(', ')}`)

    const options: ExportOptions = {
      variantId: variant,
      modelIds: summary.models.map((m) => m.id),
      only,
      format: (flags.format as ExportOptions['format']) ?? 'auto',
      spans: flags.spans,
      shard: o.shard
    }
    const lines = ws.exports.lineBatches(options)
    let problems = 0
    const count = (batch: ExportLine[]) => {
      for (const l of batch) if (lineFailed(l)) problems++
    }
    const target = flags.out ? resolve(flags.out) : null
    if (target) {
      await stat(dirname(target)).catch(() => {
        throw new UsageError(`--out: folder ${dirname(target)} does not exist`)
      })
    }
    const encoder = ws.exports.mediaEncoder(media, target)
    // Large renders without media to encode (and without a curation store to share) run on several threads.
    const range = ws.exports.range(options)
    const threads = encoder.active || ws.session.hasStore ? 1 : renderThreads(range.end - range.start)
    // The workers started early, as many as are needed (or those needed started now).
    if (workers) await workers.keep(threads - 1)
    if (threads > 1 && !workers?.count) workers = startRenderWorkers(threads - 1)
    if (workers?.count) {
      const used = workers.count + 1
      workers.open({ spec, options })
      let n = 0
      const chunks = renderInParallel(
        workers,
        range,
        (rows) => renderBlock(ws, options, rows),
        (lines, failed) => {
          n += lines
          problems += failed
        }
      )
      if (target) {
        await writeEncoded(target, chunks)
        io.stderr(`wrote ${n} lines to ${target} (${used} threads)\n`)
      } else for await (const chunk of chunks) writeStdout(io, chunk)
    } else if (target) {
      const counting = (async function* () {
        for await (const b of lines) {
          count(b)
          yield b
        }
      })()
      const r = await writeExport(target, counting, undefined, encoder)
      io.stderr(`wrote ${r.lines} lines to ${target}\n`)
    } else if (!encoder.active) {
      // Megabyte chunks of UTF-8, written as bytes when the sink takes them.
      for await (const chunk of encodeLines(lines, count)) writeStdout(io, chunk)
    } else {
      for await (const { line, parts } of serializeLines(lines, encoder)) {
        if (lineFailed(line)) problems++
        for (const p of parts)
          io.stdout(typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('latin1'))
      }
    }
    if (problems) io.stderr(`${problems} line(s) could not be rendered; see their "problems"\n`)
    // A config that stopped at an error still yields the datasets built before it; they are rendered, but the
    // run failed: the rest of the config is missing.
    const configErrors = summary.problems.filter((x) => x.severity === 'error' && x.code === 'config').length
    if (configErrors)
      io.stderr(`the config has ${configErrors} error(s) (above); only the datasets built before them were rendered\n`)
    // Rows the dataset reader skipped never reach the output: a pipeline must not take the file as complete.
    const skipped = summary.dataset.skipped?.total ?? 0
    if (skipped)
      io.stderr(
        `promptloom: ${skipped} row(s) of the dataset could not be read and were skipped (promptloom inspect lists where)\n`
      )
    return problems || configErrors || skipped ? 1 : 0
  } finally {
    await workers?.stop()
  }
}

/** Encoded lines to standard output: as bytes when the sink takes them. */
function writeStdout(io: CliIo, chunk: Buffer): void {
  if (io.stdoutBytes) io.stdoutBytes(chunk)
  else io.stdout(chunk.toString('utf8'))
}
