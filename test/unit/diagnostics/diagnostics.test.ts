import { describe, expect, it } from 'vitest'
import { LineMap, diagnostic, formatDiagnostic, pointRange, rangeFromOffsets } from '../../../shared/diagnostics'

describe('LineMap', () => {
  it('counts \\r\\n, \\r and \\n each as one line end', () => {
    const m = new LineMap('a\r\nb\rc\nd')
    expect([0, 3, 5, 7].map((o) => m.position(o))).toEqual([
      { line: 1, column: 1, offset: 0 },
      { line: 2, column: 1, offset: 3 },
      { line: 3, column: 1, offset: 5 },
      { line: 4, column: 1, offset: 7 }
    ])
  })

  it('gives a column past the line end as the end of that line, not the next line', () => {
    const m = new LineMap('ab\r\ncd')
    expect(m.offset(1, 9)).toBe(2)
    expect(m.offset(2, 2)).toBe(5)
  })

  it('maps offsets to positions and back', () => {
    const text = 'one\ntwo\r\nthree\rfour'
    const m = new LineMap(text)
    for (let o = 0; o <= text.length; o++) {
      const p = m.position(o)
      if (text[o - 1] === '\r' && text[o] === '\n') continue // between \r and \n is no place of its own
      expect(m.offset(p.line, p.column)).toBe(o)
    }
  })

  it('fills in the offsets of a range known by lines and columns', () => {
    expect(new LineMap('x\n{{ y }}').located(pointRange(2, 4))).toEqual({ start: { line: 2, column: 4, offset: 5 }, end: { line: 2, column: 4, offset: 5 } })
  })
})

describe('rangeFromOffsets', () => {
  it('gives both ends with lines, columns and offsets', () => {
    expect(rangeFromOffsets('ab\ncd', 1, 4)).toEqual({ start: { line: 1, column: 2, offset: 1 }, end: { line: 2, column: 2, offset: 4 } })
  })
})

describe('diagnostic', () => {
  it('leaves out the parts that are not set', () => {
    expect(diagnostic('x', 'warning', 'm', { source: undefined, data: { row: undefined as unknown as number } })).toEqual({ code: 'x', severity: 'warning', message: 'm' })
  })
})

describe('formatDiagnostic', () => {
  it('prints file:line:col as compilers do', () => {
    expect(formatDiagnostic(diagnostic('config', 'error', 'NameError: x', { source: 'a.py', range: pointRange(3, 7) }))).toBe('a.py:3:7: error: NameError: x [config]')
  })

  it('prints only the message when the place is unknown', () => {
    expect(formatDiagnostic(diagnostic('store', 'warning', 'cannot load'))).toBe('warning: cannot load [store]')
  })
})
