// Where a CLI command's rows come from when it runs as one step of a larger job: `--dataset -` reads JSONL rows from
// standard input (Spark's RDD.pipe, a Ray map_batches subprocess, a shell pipeline), and `--shard I/N` takes one
// contiguous slice of a file's rows so N processes together cover it exactly once, in order.
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { layoutOf } from '../services/datasets/layout'
import type { Shard } from '../services/workspace/export'
import type { ProjectSpec } from '../services/workspace/project-spec'
import { UsageError } from './args'

export interface SpooledInput {
  path: string
  dispose(): Promise<void>
}

/**
 * Standard input copied to a private temporary folder as its `test` split: the dataset reader indexes files by byte
 * offset (so bad lines are reported with their line and offset, as for any file), which a pipe cannot give. When the
 * configured dataset is a folder of splits, its other splits are linked in beside it, so in-context examples still
 * come from the configured train split. Removed by dispose().
 */
export async function spoolStdin(stdin: AsyncIterable<Uint8Array>, configured?: string): Promise<SpooledInput> {
  const dir = await mkdtemp(join(tmpdir(), 'promptloom-stdin-'))
  const dispose = () => rm(dir, { recursive: true, force: true })
  try {
    await pipeline(Readable.from(stdin), createWriteStream(join(dir, 'test.jsonl'), { mode: 0o600 }))
    if (configured && (await stat(configured).catch(() => null))?.isDirectory()) {
      const { splits } = await layoutOf(configured)
      for (const split of splits) {
        if (split.name === 'test') continue
        for (const f of split.files) await symlink(f.file, join(dir, basename(f.file)))
      }
      return { path: dir, dispose }
    }
    return { path: join(dir, 'test.jsonl'), dispose }
  } catch (e) {
    await dispose()
    throw e
  }
}

/**
 * `--dataset D` and `--media-folder F` applied to a command's project, the same way for every command. `-` spools
 * standard input (see spoolStdin); relative media paths in such rows then resolve against the media folder, or else
 * the folder of the dataset the config names (the rows usually are that dataset's), or else the working directory —
 * never the private spool folder. The caller disposes the returned spool, if any.
 */
export async function applyDatasetFlags(
  spec: ProjectSpec,
  flags: { dataset?: string; 'media-folder'?: string },
  stdin: AsyncIterable<Uint8Array> | undefined
): Promise<SpooledInput | null> {
  if (flags['media-folder']) spec.mediaFolder = resolve(flags['media-folder'])
  if (flags.dataset !== '-') {
    if (flags.dataset) spec.dataset = resolve(flags.dataset)
    return null
  }
  if (!stdin) throw new UsageError('--dataset -: this command has no standard input')
  const configured = spec.dataset
  const spooled = await spoolStdin(stdin, configured)
  spec.dataset = spooled.path
  if (!spec.mediaFolder) {
    const isDir = configured ? (await stat(configured).catch(() => null))?.isDirectory() : undefined
    spec.mediaFolder = isDir === undefined ? process.cwd() : isDir ? configured! : dirname(configured!)
  }
  return spooled
}

/** `I/N` with 0 ≤ I < N, as `--shard` takes it. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim())
  if (!m) throw new UsageError(`--shard must be I/N (shard I of N, counted from 0), not "${text}"`)
  const index = Number(m[1])
  const count = Number(m[2])
  if (count < 1 || index >= count) throw new UsageError(`--shard ${text}: I must be at least 0 and below N, and N at least 1`)
  return { index, count }
}
