// A strict JSON parser that remembers where every value and key sits in the text, for the template editor: a
// syntax error comes back as data with its offset (never thrown), and an engine error's template path
// ("prompt_template.template.round[1]") can be mapped back to the exact place in the text the user is editing.

export interface JsonNode {
  kind: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'
  /** Offsets of the value in the text, end exclusive. */
  from: number
  to: number
  value: unknown
  /** For an object member: where its key sits. */
  keyFrom?: number
  keyTo?: number
  members?: Map<string, JsonNode>
  items?: JsonNode[]
}

export interface JsonSyntaxError {
  offset: number
  length: number
  message: string
}

export interface JsonWarning {
  offset: number
  length: number
  message: string
}

export type JsonParseResult =
  | { ok: true; value: unknown; root: JsonNode; warnings: JsonWarning[] }
  | { ok: false; error: JsonSyntaxError }

class Fail extends Error {
  constructor(
    public offset: number,
    public length: number,
    message: string
  ) {
    super(message)
  }
}

const WS = new Set([' ', '\t', '\n', '\r'])

/** Parses JSON text; on a syntax error, says where and what in words a person can act on. */
export function parseJsonWithPositions(text: string): JsonParseResult {
  let i = 0
  const warnings: JsonWarning[] = []

  const skip = () => {
    while (i < text.length && WS.has(text[i])) i++
  }
  const describe = (at: number) => (at >= text.length ? 'the end of the text' : `'${text[at]}'`)
  // Length of the token at `at` (a string literal, a word, or one character), so the underline covers it whole.
  const tokenLength = (at: number) => {
    if (text[at] === '"') {
      const end = text.indexOf('"', at + 1)
      const nl = text.indexOf('\n', at)
      return end !== -1 && (nl === -1 || end < nl) ? end - at + 1 : 1
    }
    return /^[\w.+-]+/.exec(text.slice(at, at + 64))?.[0].length ?? 1
  }

  const value = (): JsonNode => {
    skip()
    const c = text[i]
    if (c === '{') return object()
    if (c === '[') return array()
    if (c === '"') {
      const from = i
      const s = string()
      return { kind: 'string', from, to: i, value: s }
    }
    if (c === "'") throw new Fail(i, 1, "strings must use double quotes in JSON (\"…\"), not single quotes")
    if (c === '-' || (c >= '0' && c <= '9')) return number()
    for (const [word, v, kind] of [
      ['true', true, 'boolean'],
      ['false', false, 'boolean'],
      ['null', null, 'null']
    ] as const) {
      if (text.startsWith(word, i)) {
        const from = i
        i += word.length
        return { kind, from, to: i, value: v }
      }
    }
    for (const [py, js] of [
      ['True', 'true'],
      ['False', 'false'],
      ['None', 'null']
    ]) {
      if (text.startsWith(py, i)) throw new Fail(i, py.length, `${py} is Python; JSON writes ${js}`)
    }
    if (i >= text.length) throw new Fail(i, 0, 'expected a value but the text ended')
    const word = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 64))?.[0]
    throw new Fail(i, word?.length ?? 1, word ? `unexpected word ${word}: strings need double quotes` : `expected a value, found ${describe(i)}`)
  }

  const string = (): string => {
    const start = i
    i++
    let out = ''
    while (true) {
      if (i >= text.length) throw new Fail(start, 1, 'this string is never closed (missing ")')
      const c = text[i]
      if (c === '"') {
        i++
        return out
      }
      if (c === '\n') throw new Fail(start, i - start, 'this string is not closed before the end of the line (write a newline as \\n)')
      if (c < ' ') throw new Fail(i, 1, 'control characters must be escaped inside strings (\\t, \\n, \\u0000…)')
      if (c === '\\') {
        const e = text[i + 1]
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }
        if (e !== undefined && e in simple) {
          out += simple[e]
          i += 2
          continue
        }
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16))
          i += 6
          continue
        }
        throw new Fail(i, 2, `invalid escape ${JSON.stringify(text.slice(i, i + 2)).slice(1, -1)} in a string`)
      }
      out += c
      i++
    }
  }

  const number = (): JsonNode => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))
    if (!m) throw new Fail(i, 1, 'not a valid number')
    const from = i
    i += m[0].length
    return { kind: 'number', from, to: i, value: Number(m[0]) }
  }

  const object = (): JsonNode => {
    const from = i
    i++
    const members = new Map<string, JsonNode>()
    const out: Record<string, unknown> = {}
    skip()
    if (text[i] === '}') {
      i++
      return { kind: 'object', from, to: i, value: out, members }
    }
    let comma = -1
    while (true) {
      skip()
      if (text[i] === '}') throw new Fail(comma, 1, 'trailing comma: JSON does not allow a comma before }')
      if (text[i] !== '"') {
        if (text[i] === "'") throw new Fail(i, 1, 'property names need double quotes in JSON, not single quotes')
        throw new Fail(i, 1, `expected a property name in double quotes, found ${describe(i)}`)
      }
      const keyFrom = i
      const key = string()
      const keyTo = i
      skip()
      if (text[i] !== ':') throw new Fail(i, tokenLength(i), `expected ':' after the property name "${key}", found ${describe(i)}`)
      i++
      const v = value()
      v.keyFrom = keyFrom
      v.keyTo = keyTo
      if (members.has(key)) warnings.push({ offset: keyFrom, length: keyTo - keyFrom, message: `"${key}" appears twice; the last one wins` })
      members.set(key, v)
      Object.defineProperty(out, key, { value: v.value, enumerable: true, writable: true, configurable: true })
      skip()
      if (text[i] === ',') {
        comma = i++
        continue
      }
      if (text[i] === '}') {
        i++
        return { kind: 'object', from, to: i, value: out, members }
      }
      if (i >= text.length) throw new Fail(from, 1, 'this { is never closed (missing })')
      throw new Fail(i, tokenLength(i), `expected ',' or '}' after the value of "${key}", found ${describe(i)}`)
    }
  }

  const array = (): JsonNode => {
    const from = i
    i++
    const items: JsonNode[] = []
    skip()
    if (text[i] === ']') {
      i++
      return { kind: 'array', from, to: i, value: [], items }
    }
    let comma = -1
    while (true) {
      skip()
      if (text[i] === ']') throw new Fail(comma, 1, 'trailing comma: JSON does not allow a comma before ]')
      items.push(value())
      skip()
      if (text[i] === ',') {
        comma = i++
        continue
      }
      if (text[i] === ']') {
        i++
        return { kind: 'array', from, to: i, value: items.map((x) => x.value), items }
      }
      if (i >= text.length) throw new Fail(from, 1, 'this [ is never closed (missing ])')
      throw new Fail(i, tokenLength(i), `expected ',' or ']' after a list item, found ${describe(i)}`)
    }
  }

  try {
    const root = value()
    skip()
    if (i < text.length) throw new Fail(i, tokenLength(i), `unexpected ${describe(i)} after the end of the value`)
    return { ok: true, value: root.value, root, warnings }
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: { offset: e.offset, length: e.length, message: e.message } }
    throw e
  }
}

/** Splits an engine or zod path — "meta_template.round[0].role", "round.0.role" — into its steps. */
export function splitPath(path: string): string[] {
  const out: string[] = []
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[[^\]]*\])*)$/.exec(part)
    if (!m) {
      out.push(part)
      continue
    }
    if (m[1]) out.push(m[1])
    for (const idx of m[2].matchAll(/\[([^\]]*)\]/g)) out.push(idx[1].replace(/^['"]|['"]$/g, ''))
  }
  return out.filter((s) => s !== '')
}

export interface PathLocation {
  /** Offsets to underline: the key of the deepest member found, or the value for list items and the root. */
  from: number
  to: number
  /** How many steps of the path were found in the text. */
  found: number
  steps: string[]
}

/**
 * The place in the text a path points at, as deep as the text goes. A name step inside a list (the engine
 * says "template.round.prompt_mm" without the index) goes to the first item that has that key.
 */
export function locatePath(root: JsonNode, steps: string[]): PathLocation {
  let node = root
  let found = 0
  for (const step of steps) {
    let next: JsonNode | undefined
    if (node.members) next = node.members.get(step)
    else if (node.items) {
      if (/^\d+$/.test(step)) next = node.items[Number(step)]
      else next = node.items.find((it) => it.members?.has(step))?.members?.get(step)
    }
    if (!next) break
    node = next
    found++
  }
  const onKey = node.keyFrom !== undefined && node.keyTo !== undefined && (node.kind === 'object' || node.kind === 'array')
  return onKey ? { from: node.keyFrom!, to: node.keyTo!, found, steps } : { from: node.from, to: node.to, found, steps }
}
