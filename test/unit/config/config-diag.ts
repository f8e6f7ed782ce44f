// The diagnostic config import gives for a place in a config file, written out in full so a test states it.
import { expect } from 'vitest'
import type { Diagnostic } from '../../../shared/diagnostics'

export function configDiag(file: string, line: number, column: number, message: unknown, severity: 'error' | 'warning'): Diagnostic {
  return { code: 'config', severity, message: message as string, source: file, range: { start: { line, column }, end: { line, column } } }
}

/** Where a diagnostic starts, to spread into toMatchObject or expect.objectContaining. */
export const at = (line: number, column?: number) => ({ range: expect.objectContaining({ start: expect.objectContaining(column === undefined ? { line } : { line, column }) }) })
