// Indexes CSV/TSV by record: a byte scanner that knows quotes (RFC 4180: doubled quotes, newlines and CRLF inside
// quoted fields), so only a line break outside quotes ends a record. Line breaks are CR, LF or CRLF as Python's csv
// module reads them; a UTF-8 BOM and a last line without a line break are handled. An unterminated quote would
// swallow the rest of the file, so the scanner reports it at the record where it starts (one skipped row) and
// resumes on the next physical line. test/unit/datasets/csv-differential.test.ts checks it against Python's csv.
import { open } from 'node:fs/promises'
import type { TaskContext } from '../workers/task-types'
import type { DatasetError } from './types'
import { RowIndexBuilder, type RowIndex } from './row-index'
import { parseCsvRecord } from './csv-record'

export interface CsvScanInput {
  file: string
  delimiter: string
  /** Scan only the first this many bytes: the records wholly inside them (a peek at the first rows). */
  maxBytes?: number
}

export interface CsvScanOutput extends RowIndex {
  header: string[] | null
  headerLine: number
  errors: DatasetError[]
  cancelled: boolean
}

const CHUNK = 8 << 20
const MAX_RESUMES = 1000

export async function scanCsvFile(input: CsvScanInput, ctx: TaskContext): Promise<CsvScanOutput> {
  const { file, delimiter } = input
  const fh = await open(file, 'r')
  const size = (await fh.stat()).size
  const limit = Math.min(size, input.maxBytes ?? size)
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(16, limit)))
  const records = new RowIndexBuilder(limit / 100)
  const errors: DatasetError[] = []
  let cancelled = false

  const bomHead = Buffer.alloc(3)
  await fh.read(bomHead, 0, 3, 0)
  const bom = bomHead[0] === 0xef && bomHead[1] === 0xbb && bomHead[2] === 0xbf ? 3 : 0

  /** Scans from `from`; returns where an unterminated quote began, or null when the file ended cleanly. */
  const scan = async (from: number, firstLine: number): Promise<{ start: number; line: number } | null> => {
    let pos = from
    let recStart = from
    let recLine = firstLine
    let line = firstLine
    let inQuotes = false
    // Just after a closing quote: a second quote here is an escaped (doubled) quote and the field stays quoted.
    let afterQuote = false
    let atFieldStart = true
    // The record ended at a CR: a LF right after it belongs to the same line break.
    let afterCr = false
    const d = delimiter.charCodeAt(0)
    while (pos < limit) {
      if (ctx.aborted()) {
        cancelled = true
        return null
      }
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, limit - pos), pos)
      if (bytesRead === 0) break
      // Where the next look for a plain record (below) may start.
      let plainFrom = 0
      for (let i = 0; i < bytesRead; i++) {
        // A record with no quote and no CR before its LF (a TSV row with a 100 KB base64 cell) is only delimiters
        // and data: its end is found by memchr instead of byte by byte. Looked for once per line.
        if (i >= plainFrom && !inQuotes && !afterQuote && !afterCr) {
          const lf = buf.indexOf(10, i)
          if (lf < 0 || lf >= bytesRead) plainFrom = bytesRead
          else {
            plainFrom = lf + 1
            if (lf > i) {
              const seg = buf.subarray(i, lf)
              if (seg.indexOf(34) < 0 && seg.indexOf(13) < 0) i = lf
            }
          }
        }
        const c = buf[i]
        if (inQuotes) {
          if (c === 34) {
            inQuotes = false
            afterQuote = true
          } else if (c === 10) line++
          continue
        }
        if (afterQuote) {
          afterQuote = false
          if (c === 34) {
            inQuotes = true
            continue
          }
        }
        if (c === 10 || c === 13) {
          // Outside quotes CR, LF and CRLF each end a record, as in Python's csv module; blank lines hold none.
          const abs = pos + i
          if (c === 10 && afterCr) {
            afterCr = false
            recStart = abs + 1
            continue
          }
          if (abs > recStart) records.push(recStart, abs, recLine)
          line++
          recStart = abs + 1
          recLine = line
          atFieldStart = true
          afterCr = c === 13
          continue
        }
        afterCr = false
        if (c === 34 && atFieldStart) {
          inQuotes = true
          atFieldStart = false
        } else if (c === d) {
          atFieldStart = true
        } else {
          atFieldStart = false
        }
      }
      pos += bytesRead
      ctx.progress({ bytesDone: pos, rows: records.length })
    }
    // A peek ends inside a record: the records before it are all it has.
    if (limit < size) return null
    if (inQuotes) return { start: recStart, line: recLine }
    if (size > recStart) records.push(recStart, size, recLine)
    return null
  }

  try {
    let from = bom
    let line = 1
    for (let resumes = 0; ; resumes++) {
      const broken = await scan(from, line)
      if (!broken || cancelled) break
      errors.push({
        code: 'unterminated-quote',
        message: 'A quoted field is never closed; this record is skipped and reading resumes on the next line',
        stage: 'index',
        severity: 'error',
        at: { file, line: broken.line, offset: broken.start }
      })
      if (resumes >= MAX_RESUMES) break
      const probe = Buffer.allocUnsafe(64 << 10)
      let p = broken.start
      let next = -1
      while (p < size && next < 0) {
        const { bytesRead } = await fh.read(probe, 0, probe.length, p)
        if (bytesRead === 0) break
        const nl = probe.indexOf(10)
        if (nl >= 0 && nl < bytesRead) next = p + nl + 1
        else p += bytesRead
      }
      if (next < 0 || next >= size) break
      from = next
      line = broken.line + 1
    }
    const idx = records.finish()
    let header: string[] | null = null
    let headerLine = 0
    if (idx.starts.length > 0) {
      const hb = Buffer.allocUnsafe(idx.ends[0] - idx.starts[0])
      await fh.read(hb, 0, hb.length, idx.starts[0])
      header = parseCsvRecord(hb.toString('utf8'), delimiter)
      headerLine = idx.lines[0]
    }
    return {
      starts: idx.starts.subarray(1).slice(),
      ends: idx.ends.subarray(1).slice(),
      lines: idx.lines.subarray(1).slice(),
      header,
      headerLine,
      errors,
      cancelled
    }
  } finally {
    await fh.close()
  }
}
