// Decodes one CSV/TSV record (already delimited by the indexer) into fields: quoted fields, doubled quotes,
// embedded delimiters and newlines. Lenient where RFC 4180 is silent: a stray quote inside an unquoted field is
// kept as text, as spreadsheet programs do.

export function parseCsvRecord(text: string, delimiter: string): string[] {
  // The delimiter is one character (the first, if more are given).
  const dc = delimiter.charAt(0)
  const fields: string[] = []
  let i = 0
  const n = text.length
  for (;;) {
    if (i < n && text.charCodeAt(i) === 34) {
      // Quoted field.
      let value = ''
      let j = i + 1
      for (;;) {
        const q = text.indexOf('"', j)
        if (q < 0) {
          // Unterminated: the indexer reports it; keep what is there.
          value += text.slice(j)
          j = n
          break
        }
        value += text.slice(j, q)
        if (text.charCodeAt(q + 1) === 34) {
          value += '"'
          j = q + 2
        } else {
          j = q + 1
          break
        }
      }
      // Anything between the closing quote and the delimiter is kept.
      const next = text.indexOf(delimiter, j)
      const stop = next < 0 ? n : next
      value += text.slice(j, stop)
      fields.push(value)
      if (next < 0) break
      i = next + 1
    } else {
      const next = dc ? text.indexOf(dc, i) : -1
      fields.push(text.slice(i, next < 0 ? n : next))
      if (next < 0) break
      i = next + 1
    }
  }
  return fields
}
