// `promptloom export`: the curated dataset itself — the rows a scope keeps, field edits applied, optionally with
// curation columns — as AISBench mm_custom JSONL, VLMEvalKit TSV, Hugging Face Parquet or JSONL, media encoded as
// chosen. The same code as the app's Export dialog (ExportService.dataset).
import { stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { Host } from '../api/host'
import { DATASET_FORMATS, type DatasetExportFormat } from '../services/export/dataset-export'
import { resolveProjectSpec } from '../services/workspace/project-spec'
import { Workspace } from '../services/workspace/workspace'
import { parseArgs, UsageError } from './args'
import { printErrors, type CliIo } from './io'
import { MEDIA_FLAGS, MEDIA_HELP, mediaFromFlags } from './media-flags'

export const EXPORT_HELP = `promptloom export PATH --out FILE [--only SCOPE] [--format FORMAT] [--curation] [media options]

Writes the curated dataset: the rows SCOPE keeps, with field edits applied, in the form evaluation tools read.
(The rendered prompts per model are \`promptloom render\`.) Curation is read from the project's saved store.

  PATH              a dataset, a project folder or a config (--config and --dataset as for render also work)
  --out FILE        where to write (atomically: a temp file renamed into place; nothing is left on failure)
  --only all|accepted|not-rejected       which rows (default all)
  --format jsonl|json|mm-custom|vlmeval-tsv|hf-parquet
                    default: the source's own form
                      jsonl        the rows as JSON lines, media as chosen with --media
                      json         the rows as one JSON array (a .json source, e.g. LLaVA's fine-tune file)
                      mm-custom    AISBench mm_custom {type, path: [absolute paths], question, answer}; media are
                                   always paths (inline or re-encoded ones are written to FILE's _media folder)
                      vlmeval-tsv  VLMEvalKit TSV, every field quoted; images as base64, several as a list literal
                      hf-parquet   Hugging Face datasets Parquet, media as Image/Audio/Video {bytes, path}
  --curation        add curation_status, curation_note, curation_tags, curation_edited columns
${MEDIA_HELP}
Conversation rows (OpenAI messages, LLaVA/ShareGPT conversations) keep their own shape, final assistant turn
included: each image_url / video_url / audio_url part and each image/images field is encoded as --media says;
input_audio parts stay raw base64 (the only form OpenAI's input_audio takes).

Exit codes: 0 ok, 1 some media could not be encoded (kept as they were; listed on stderr), 2 usage error.
`

const quietHost: Host = { mode: 'browser', mediaUrl: (p) => p, pickSavePath: async () => null, emit: () => {} }

export async function runExport(argv: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseArgs(argv, {
    config: { type: 'string' },
    dataset: { type: 'string' },
    out: { type: 'string', short: 'o' },
    only: { type: 'string' },
    format: { type: 'string' },
    curation: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    ...MEDIA_FLAGS
  })
  if (flags.help) {
    io.stdout(EXPORT_HELP)
    return 0
  }
  const source = flags.config ?? positional[0] ?? flags.dataset
  if (!source) throw new UsageError('export needs a dataset, project or config (PATH)')
  if (!flags.out) throw new UsageError('export needs --out FILE')
  const only = (flags.only ?? 'all') as 'all' | 'accepted' | 'not-rejected'
  if (!['all', 'accepted', 'not-rejected'].includes(only)) throw new UsageError('--only must be all, accepted or not-rejected')
  const format = flags.format as DatasetExportFormat | undefined
  if (format !== undefined && !(DATASET_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${DATASET_FORMATS.join(', ')}`)
  const media = mediaFromFlags(flags)
  const target = resolve(flags.out)
  if (!(await stat(dirname(target)).catch(() => null))?.isDirectory()) throw new UsageError(`--out: folder ${dirname(target)} does not exist`)

  const ws = new Workspace(quietHost)
  try {
    const spec = await resolveProjectSpec(source)
    if (flags.dataset) spec.dataset = resolve(flags.dataset)
    const summary = await ws.session.openSpec(spec)
    printErrors(io, summary.problems)
    const r = await ws.exports.dataset({ only, format, media, curationColumns: flags.curation === true }, target)
    io.stderr(`wrote ${r.rows} row(s) as ${r.format}${r.media ? ` with ${r.media} media asset(s)` : ''} to ${target}\n`)
    for (const p of r.problems) io.stderr(`promptloom: ${p}\n`)
    if (r.mediaFailed) io.stderr(`${r.mediaFailed} media asset(s) could not be encoded and were kept as the dataset gave them\n`)
    return r.mediaFailed ? 1 : 0
  } finally {
    ws.close()
  }
}
