// One block of rows rendered to bytes: what a render thread does with each block it is given (render-parallel.ts),
// the main thread and the worker threads alike, so every block is encoded by the same code.
import { encodeLines, type ExportLine, type ExportOptions } from '../services/workspace/export'
import type { Workspace } from '../services/workspace/workspace'
import { lineFailed } from './render-lines'

export interface RenderedBlock {
  /** The block's lines as UTF-8 JSON lines, in order. */
  chunks: Buffer[]
  lines: number
  /** Lines that could not be rendered (lineFailed). */
  failed: number
}

/** The lines of the split's rows [start, end) under `options`, as the one-thread render encodes them. */
export async function renderBlock(ws: Workspace, options: ExportOptions, rows: { start: number; end: number }): Promise<RenderedBlock> {
  let lines = 0
  let failed = 0
  const count = (batch: ExportLine[]) => {
    lines += batch.length
    for (const l of batch) if (lineFailed(l)) failed++
  }
  const chunks: Buffer[] = []
  for await (const c of encodeLines(ws.exports.lineBatches({ ...options, rows }), count)) chunks.push(c)
  return { chunks, lines, failed }
}
