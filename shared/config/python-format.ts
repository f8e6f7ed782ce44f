// Python string formatting used by configs: format specs (f'{x:>8}', '{:.2f}'), str.format with positional,
// numbered and named fields, and printf-style '%s' % x. Common cases only; the rest raise a PyError.

import { currentBudget } from './python-budget'
import { PyDict, PyError, PyList, PyTuple, pyRepr, pyStr, type PyValue } from './python-values'

const SPEC = /^(?:(.)?([<>=^]))?([+\- ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/s

/** `format(value, spec)` for str, int, float and bool values. */
export function formatSpec(v: PyValue, spec: string): string {
  if (spec === '') return pyStr(v)
  const m = SPEC.exec(spec)
  if (!m) throw new PyError(`Invalid format specifier '${spec}'`)
  const [, fillRaw, alignRaw, sign, , zero, widthRaw, group, precRaw, type] = m
  const width = widthRaw ? Number(widthRaw) : 0
  const prec = precRaw !== undefined ? Number(precRaw) : undefined
  currentBudget().string(Math.max(width, prec ?? 0))
  let body: string
  const isNum = typeof v === 'number' || typeof v === 'boolean'
  if (!isNum) {
    if (type && type !== 's') throw new PyError(`Unknown format code '${type}' for object of type '${typeof v === 'string' ? 'str' : 'object'}'`)
    body = pyStr(v)
    if (prec !== undefined) body = body.slice(0, prec)
  } else {
    const n = Number(v)
    switch (type) {
      case 'd':
        if (!Number.isInteger(n)) throw new PyError("Unknown format code 'd' for object of type 'float'")
        body = String(Math.abs(n))
        break
      case 'f':
      case 'F':
        body = Math.abs(n).toFixed(prec ?? 6)
        break
      case 'e':
      case 'E': {
        const s = Math.abs(n).toExponential(prec ?? 6)
        body = s.replace(/e([+-])(\d)$/, 'e$10$2')
        if (type === 'E') body = body.toUpperCase()
        break
      }
      case '%':
        body = `${(Math.abs(n) * 100).toFixed(prec ?? 6)}%`
        break
      case 'x':
      case 'X':
      case 'o':
      case 'b':
        body = Math.abs(n).toString(type === 'o' ? 8 : type === 'b' ? 2 : 16)
        if (type === 'X') body = body.toUpperCase()
        break
      case undefined:
      case 'g':
      case 'n':
        body = prec !== undefined && !Number.isInteger(n) ? String(Number(Math.abs(n).toPrecision(prec))) : pyStr(Math.abs(n))
        break
      default:
        throw new PyError(`Unknown format code '${type}' for a number`)
    }
    if (group) {
      const [int, frac] = body.split('.')
      body = int.replace(/\B(?=(\d{3})+(?!\d))/g, group) + (frac !== undefined ? `.${frac}` : '')
    }
    const signStr = n < 0 || Object.is(n, -0) ? '-' : sign === '+' ? '+' : sign === ' ' ? ' ' : ''
    if (zero && !alignRaw) return signStr + body.padStart(width - signStr.length, '0')
    body = signStr + body
  }
  const fill = fillRaw ?? (zero ? '0' : ' ')
  const align = alignRaw ?? (isNum ? '>' : '<')
  const pad = Math.max(0, width - [...body].length)
  if (align === '<') return body + fill.repeat(pad)
  if (align === '>' || align === '=') return fill.repeat(pad) + body
  return fill.repeat(Math.floor(pad / 2)) + body + fill.repeat(pad - Math.floor(pad / 2))
}

function convert(v: PyValue, conv: string | undefined): PyValue {
  if (conv === 'r' || conv === 'a') return pyRepr(v)
  if (conv === 's') return pyStr(v)
  return v
}

/** `template.format(*args, **kwargs)`. */
export function strFormat(template: string, args: PyValue[], kwargs: Map<string, PyValue>): string {
  let out = ''
  let auto = 0
  for (let i = 0; i < template.length; i++) {
    const c = template[i]
    if (c === '{' && template[i + 1] === '{') {
      out += '{'
      i++
      continue
    }
    if (c === '}' && template[i + 1] === '}') {
      out += '}'
      i++
      continue
    }
    if (c === '}') throw new PyError("Single '}' encountered in format string")
    if (c !== '{') {
      out += c
      continue
    }
    const end = template.indexOf('}', i)
    if (end < 0) throw new PyError("Single '{' encountered in format string")
    const field = template.slice(i + 1, end)
    const m = /^([^!:[.]*)((?:\[[^\]]*\]|\.\w+)*)(?:!([rsa]))?(?::(.*))?$/s.exec(field)
    if (!m) throw new PyError(`invalid format field '{${field}}'`)
    const [, name, accessors, conv, spec] = m
    let v: PyValue
    if (name === '') {
      if (auto >= args.length) throw new PyError(`Replacement index ${auto} out of range for positional args tuple`)
      v = args[auto++]
    } else if (/^\d+$/.test(name)) {
      const k = Number(name)
      if (k >= args.length) throw new PyError(`Replacement index ${k} out of range for positional args tuple`)
      v = args[k]
    } else {
      if (!kwargs.has(name)) throw new PyError(`KeyError: '${name}'`)
      v = kwargs.get(name) as PyValue
    }
    for (const acc of accessors.match(/\[[^\]]*\]|\.\w+/g) ?? []) {
      if (acc.startsWith('.')) throw new PyError(`attribute access '${acc}' in format fields is not supported`)
      const key = acc.slice(1, -1)
      if (v instanceof PyDict) v = v.get(key) ?? fail(`KeyError: '${key}'`)
      else if (v instanceof PyList || v instanceof PyTuple) v = v.items[Number(key)] ?? fail('IndexError: list index out of range')
      else throw new PyError(`'${typeof v}' object is not subscriptable`)
    }
    out += formatSpec(convert(v, conv), spec ?? '')
    i = end
  }
  return out
}

function fail(message: string): never {
  throw new PyError(message)
}

/** printf-style `template % values` for %s, %r, %d, %i, %f and %%. */
export function percentFormat(template: string, values: PyValue): string {
  const args = values instanceof PyTuple ? values.items : [values]
  let k = 0
  const out = template.replace(/%(\(\w+\))?([-+ 0#]*)(\d+)?(?:\.(\d+))?([sridfeEgx%])/g, (whole, key, flags, width, prec, type) => {
    if (type === '%') return '%'
    let v: PyValue
    if (key) {
      if (!(values instanceof PyDict)) throw new PyError('format requires a mapping')
      v = values.get(key.slice(1, -1)) ?? fail(`KeyError: '${key.slice(1, -1)}'`)
    } else {
      if (k >= args.length) throw new PyError('not enough arguments for format string')
      v = args[k++]
    }
    let body: string
    if (type === 's') body = pyStr(v)
    else if (type === 'r') body = pyRepr(v)
    else if (type === 'd' || type === 'i') body = String(Math.trunc(Number(v)))
    else body = formatSpec(v, `${prec !== undefined ? `.${prec}` : ''}${type}`)
    const w = width ? Number(width) : 0
    currentBudget().string(w)
    return flags.includes('-') ? body.padEnd(w) : body.padStart(w, flags.includes('0') && type !== 's' ? '0' : ' ')
  })
  if (!(values instanceof PyDict) && k < args.length) throw new PyError('not all arguments converted during string formatting')
  return out
}
