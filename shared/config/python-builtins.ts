// Builtin functions and methods of str/list/dict available to config files: the ones real OpenCompass and
// AISBench configs call (dict, list, sum, range, enumerate, zip, deepcopy, chr/ord, map/sorted with a key,
// str.replace/format/join, list.append, dict.update/copy/items, math.*, itertools.product, os.path.*, json.*,
// os.environ.get …). Anything else is an AttributeError or NameError with a position. Everything that allocates
// asks the current Budget first, so `[0] * 10**9` or `range(10**10)` fails cleanly instead of taking memory.

import * as pystr from '../python/str-methods'
import { currentBudget } from './python-budget'
import { formatSpec, strFormat } from './python-format'
import { PyBuiltin, PyDict, PyError, PyFile, PyList, PyModule, PyRef, PySet, PyTuple, deepCopy, fromJson, pyEquals, pyRepr, pyStr, runtime, truthy, typeName, type PyValue } from './python-values'

type Kw = Map<string, PyValue>
type Site = { line: number; column: number }
const fn = (name: string, f: (args: PyValue[], kw: Kw, at: Site) => PyValue): PyBuiltin => new PyBuiltin(name, f)

/** Calls a config function or builtin passed as a value (map's function, sorted's key). */
function callValue(f: PyValue, args: PyValue[], at: Site): PyValue {
  if (!(f instanceof PyBuiltin)) throw new PyError('TypeError', `'${typeName(f)}' object is not callable`)
  return f.call(args, new Map(), at)
}

/** Items of an iterable value, as Python's iter() would yield them: a new list the caller may change. */
export const iterate = (v: PyValue): PyValue[] => runtime.items(v).slice() as PyValue[]

/** A `key=` argument as a function of one item (none: the item itself). */
function keyFunction(kw: Kw, at: Site): ((x: PyValue) => PyValue) | undefined {
  const key = kw.get('key') ?? null
  return key === null ? undefined : (x) => callValue(key, [x], at)
}

/** sorted(items, key=…, reverse=…) and list.sort: the runtime's CPython sort. */
const sortItems = (items: PyValue[], kw: Kw, at: Site): PyValue[] => runtime.sorted(items, keyFunction(kw, at), truthy(kw.get('reverse') ?? false))

function noKw(name: string, kw: Kw): void {
  if (kw.size) throw new PyError('TypeError', `${name}() takes no keyword arguments`)
}

function toInt(v: PyValue): number {
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'number') return Math.trunc(v)
  if (typeof v === 'string' && /^\s*[+-]?\d[\d_]*\s*$/.test(v)) return Number(v.replace(/_/g, ''))
  throw new PyError('ValueError', `invalid literal for int() with base 10: ${pyRepr(v)}`)
}

export function add(a: PyValue, b: PyValue): PyValue {
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) return Number(a) + Number(b)
  if (typeof a === 'string' && typeof b === 'string') {
    currentBudget().string(a.length + b.length)
    return a + b
  }
  if ((a instanceof PyList && b instanceof PyList) || (a instanceof PyTuple && b instanceof PyTuple)) {
    currentBudget().items(a.items.length + b.items.length)
    return a instanceof PyList ? new PyList([...a.items, ...b.items]) : new PyTuple([...a.items, ...b.items])
  }
  throw new PyError('TypeError', `unsupported operand type(s) for +: '${typeName(a)}' and '${typeName(b)}'`)
}

function dictFrom(args: PyValue[], kw: Kw): PyDict {
  const d = new PyDict()
  if (args.length > 1) throw new PyError('TypeError', `dict expected at most 1 argument, got ${args.length}`)
  if (args.length === 1) {
    const src = args[0]
    if (src instanceof PyDict) for (const [k, v] of src.entries()) d.set(k, v)
    else {
      for (const pair of iterate(src)) {
        const kv = iterate(pair)
        if (kv.length !== 2) throw new PyError('ValueError', 'dictionary update sequence element has wrong length')
        d.set(kv[0], kv[1])
      }
    }
  }
  for (const [k, v] of kw) d.set(k, v)
  return d
}

export const EXCEPTION_NAMES = ['Exception', 'ValueError', 'TypeError', 'KeyError', 'RuntimeError', 'NotImplementedError', 'AssertionError', 'IndexError', 'FileNotFoundError']

export function makeBuiltins(locals: () => PyDict): Map<string, PyValue> {
  const b = new Map<string, PyValue>()
  const def = (name: string, f: (args: PyValue[], kw: Kw, at: Site) => PyValue): void => {
    b.set(name, fn(name, f))
  }
  def('dict', dictFrom)
  def('list', (a, kw) => (noKw('list', kw), new PyList(a.length ? iterate(a[0]) : [])))
  def('tuple', (a, kw) => (noKw('tuple', kw), new PyTuple(a.length ? iterate(a[0]) : [])))
  def('set', (a, kw) => {
    noKw('set', kw)
    const out: PyValue[] = []
    for (const x of a.length ? iterate(a[0]) : []) if (!out.some((y) => pyEquals(x, y))) out.push(x)
    return new PySet(out)
  })
  def('str', (a) => (a.length ? pyStr(a[0]) : ''))
  def('repr', (a) => pyRepr(a[0]))
  def('int', (a) => (a.length ? toInt(a[0]) : 0))
  def('float', (a) => {
    const v = a[0] ?? 0
    const n = typeof v === 'string' ? Number(v.trim()) : Number(v)
    if (Number.isNaN(n) && !(typeof v === 'string' && /nan/i.test(v))) throw new PyError('ValueError', `could not convert string to float: ${pyRepr(v)}`)
    return n
  })
  def('bool', (a) => (a.length ? truthy(a[0]) : false))
  def('len', (a) => runtime.len(a[0]))
  def('range', (a) => {
    const [start, stop, step] = a.length === 1 ? [0, toInt(a[0]), 1] : [toInt(a[0]), toInt(a[1]), a.length > 2 ? toInt(a[2]) : 1]
    if (step === 0) throw new PyError('ValueError', 'range() arg 3 must not be zero')
    currentBudget().items(Math.max(0, Math.ceil((stop - start) / step)))
    const out: PyValue[] = []
    for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i)
    return new PyList(out)
  })
  def('sum', (a, kw) => {
    let acc: PyValue = a.length > 1 ? a[1] : kw.has('start') ? (kw.get('start') as PyValue) : 0
    if (typeof acc === 'string') throw new PyError('TypeError', "sum() can't sum strings [use ''.join(seq) instead]")
    for (const x of iterate(a[0])) acc = add(acc, x)
    return acc
  })
  def('sorted', (a, kw, at) => new PyList(sortItems(iterate(a[0]), kw, at)))
  def('map', (a, _kw, at) => {
    if (a.length < 2) throw new PyError('TypeError', 'map() must have at least two arguments.')
    const lists = a.slice(1).map(iterate)
    const n = Math.min(...lists.map((l) => l.length))
    return new PyList(Array.from({ length: n }, (_, i) => callValue(a[0], lists.map((l) => l[i]), at)))
  })
  def('filter', (a, _kw, at) => new PyList(iterate(a[1]).filter((x) => (a[0] === null ? truthy(x) : truthy(callValue(a[0], [x], at))))))
  def('chr', (a) => {
    const n = toInt(a[0])
    if (n < 0 || n > 0x10ffff) throw new PyError('ValueError', 'chr() arg not in range(0x110000)')
    return String.fromCodePoint(n)
  })
  def('ord', (a) => {
    const cps = typeof a[0] === 'string' ? [...a[0]] : null
    if (!cps || cps.length !== 1) throw new PyError('TypeError', `ord() expected a character, but string of length ${cps?.length ?? 0} found`)
    return cps[0].codePointAt(0) as number
  })
  def('hex', (a) => {
    const n = toInt(a[0])
    return `${n < 0 ? '-' : ''}0x${Math.abs(n).toString(16)}`
  })
  def('divmod', (a) => {
    const [x, y] = [Number(a[0]), Number(a[1])]
    if (y === 0) throw new PyError('ZeroDivisionError', 'integer division or modulo by zero')
    const q = Math.floor(x / y)
    return new PyTuple([q, x - q * y])
  })
  def('pow', (a) => Number(a[0]) ** Number(a[1]))
  def('callable', (a) => a[0] instanceof PyBuiltin)
  def('hasattr', (a) => (a[0] instanceof PyModule ? moduleAttribute(a[0], pyStr(a[1])) !== undefined : method(a[0], pyStr(a[1])) !== undefined))
  def('reversed', (a) => new PyList(iterate(a[0]).reverse()))
  def('enumerate', (a, kw) => {
    const start = toInt(a[1] ?? kw.get('start') ?? 0)
    return new PyList(iterate(a[0]).map((x, i) => new PyTuple([i + start, x])))
  })
  def('zip', (a) => {
    const lists = a.map(iterate)
    const n = lists.length ? Math.min(...lists.map((l) => l.length)) : 0
    return new PyList(Array.from({ length: n }, (_, i) => new PyTuple(lists.map((l) => l[i]))))
  })
  const minmax = (name: 'min' | 'max') => (a: PyValue[], kw: Kw, at: Site): PyValue => {
    const items = a.length === 1 ? iterate(a[0]) : a
    if (!items.length) {
      if (kw.has('default')) return kw.get('default') as PyValue
      throw new PyError('ValueError', `${name}() arg is an empty sequence`)
    }
    return runtime.extreme(name, items, keyFunction(kw, at)) as PyValue
  }
  def('min', minmax('min'))
  def('max', minmax('max'))
  def('abs', (a) => Math.abs(Number(a[0])))
  def('round', (a) => {
    const n = Number(a[0])
    const digits = a.length > 1 ? toInt(a[1]) : 0
    return Number(n.toFixed(digits))
  })
  def('any', (a) => iterate(a[0]).some(truthy))
  def('all', (a) => iterate(a[0]).every(truthy))
  def('print', () => null)
  def('locals', () => locals())
  def('globals', () => locals())
  def('isinstance', (a) => {
    const [v, t] = a
    const names = t instanceof PyTuple ? t.items : [t]
    // bool is a subclass of int, as in Python.
    const types = typeof v === 'boolean' ? ['bool', 'int'] : [typeName(v)]
    return names.some((n) => n instanceof PyBuiltin && types.includes(n.name))
  })
  def('format', (a) => formatSpec(a[0], a.length > 1 ? pyStr(a[1]) : ''))
  def('deepcopy', (a) => deepCopy(a[0]))
  // Exception classes, so `raise ValueError('…')` reports its own message (the raise statement formats it).
  for (const name of EXCEPTION_NAMES) b.set(name, new PyBuiltin(name, (a) => `${name}(${a.map((x) => pyRepr(x)).join(', ')})`))
  return b
}

/** Standard-library modules whose helpers configs call; others bind opaque references. */
export const STDLIB_MODULES = new Set(['os', 'os.path', 'osp', 'copy', 'math', 'itertools', 'json', 'string'])

const MATH: Record<string, (...x: number[]) => number> = {
  exp: Math.exp,
  sqrt: Math.sqrt,
  log: (x, base) => (base === undefined ? Math.log(x) : Math.log(x) / Math.log(base)),
  log2: Math.log2,
  log10: Math.log10,
  ceil: Math.ceil,
  floor: Math.floor,
  fabs: Math.abs,
  pow: Math.pow,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan
}

/** itertools.product(*iterables, repeat=1), in Python's order (the rightmost iterable advances fastest). */
function product(lists: PyValue[][]): PyValue {
  const total = lists.reduce((n, l) => n * l.length, 1)
  currentBudget().items(total)
  let out: PyValue[][] = [[]]
  for (const l of lists) out = out.flatMap((prefix) => l.map((x) => [...prefix, x]))
  return new PyList(out.map((t) => new PyTuple(t)))
}

/** json.dumps with Python's defaults (', ' and ': ' separators, ensure_ascii=True) and indent. */
function jsonDumps(v: PyValue, kw: Kw): string {
  const ascii = truthy(kw.get('ensure_ascii') ?? true)
  const indentV = kw.get('indent') ?? null
  const indent = indentV === null ? null : typeof indentV === 'string' ? indentV : ' '.repeat(toInt(indentV))
  const str = (s: string): string => {
    let out = JSON.stringify(s)
    if (ascii) out = out.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    return out
  }
  const go = (x: PyValue, level: number): string => {
    if (x === null) return 'null'
    if (typeof x === 'boolean') return x ? 'true' : 'false'
    if (typeof x === 'number') return Number.isFinite(x) ? pyRepr(x) : Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity'
    if (typeof x === 'string') return str(x)
    const nl = indent === null ? '' : `\n${indent.repeat(level + 1)}`
    const end = indent === null ? '' : `\n${indent.repeat(level)}`
    const sep = indent === null ? ', ' : ','
    if (x instanceof PyList || x instanceof PyTuple) return x.items.length ? `[${nl}${x.items.map((y) => go(y, level + 1)).join(sep + nl)}${end}]` : '[]'
    if (x instanceof PyDict) {
      const parts = x.entries().map(([k, y]) => `${str(typeof k === 'string' ? k : pyStr(k))}: ${go(y, level + 1)}`)
      return parts.length ? `{${nl}${parts.join(sep + nl)}${end}}` : '{}'
    }
    throw new PyError('TypeError', `Object of type ${typeName(x)} is not JSON serializable`)
  }
  return go(v, 0)
}

/** Helpers reachable through well-known stdlib modules (`copy.deepcopy`, `os.path.join`, …). */
export function moduleAttribute(mod: PyModule, attr: string): PyValue {
  const full = `${mod.name === 'osp' ? 'os.path' : mod.name}.${attr}`
  if (mod.name === 'math') {
    if (attr === 'pi') return Math.PI
    if (attr === 'e') return Math.E
    if (attr === 'inf') return Infinity
    const f = MATH[attr]
    if (f) return fn(attr, (a) => f(...a.map(Number)))
  }
  switch (full) {
    case 'itertools.product':
      return fn('product', (a, kw) => {
        const repeat = toInt(kw.get('repeat') ?? 1)
        const lists = a.map(iterate)
        return product(Array.from({ length: Math.max(0, repeat) }, () => lists).flat())
      })
    case 'itertools.chain':
      return fn('chain', (a) => new PyList(a.flatMap(iterate)))
    case 'json.dumps':
      return fn('dumps', (a, kw) => jsonDumps(a[0], kw))
    case 'json.loads':
      return fn('loads', (a) => fromJsonText(pyStr(a[0])))
    case 'json.load':
      return fn('load', (a) => {
        if (!(a[0] instanceof PyFile)) throw new PyError('AttributeError', `'${typeName(a[0])}' object has no attribute 'read'`)
        return fromJsonText(a[0].text)
      })
    case 'string.ascii_uppercase':
      return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
    case 'string.ascii_lowercase':
      return 'abcdefghijklmnopqrstuvwxyz'
    case 'string.digits':
      return '0123456789'
    case 'copy.deepcopy':
      return fn('deepcopy', (a) => deepCopy(a[0]))
    case 'copy.copy':
      return fn('copy', (a) => shallowCopy(a[0]))
    case 'os.path':
      return new PyModule('os.path')
    case 'os.path.join':
    case 'osp.join':
      return fn('join', (a) => a.map((x) => pyStr(x)).reduce((acc, p) => (p.startsWith('/') ? p : acc === '' ? p : acc.endsWith('/') ? acc + p : `${acc}/${p}`), ''))
    case 'os.path.basename':
      return fn('basename', (a) => pyStr(a[0]).slice(pyStr(a[0]).lastIndexOf('/') + 1))
    case 'os.path.dirname':
      return fn('dirname', (a) => pyStr(a[0]).slice(0, Math.max(0, pyStr(a[0]).lastIndexOf('/'))))
    case 'os.path.exists':
    case 'os.path.isfile':
    case 'os.path.isdir':
      throw new PyError('', `${full}() would look at the file system, which configs here cannot do (only open() of a file next to the config)`)
  }
  return new PyRef(attr, mod.name)
}

function fromJsonText(text: string): PyValue {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    throw new PyError('json.decoder.JSONDecodeError', `${e instanceof Error ? e.message : String(e)}`)
  }
  return fromJson(parsed)
}

function shallowCopy(v: PyValue): PyValue {
  if (v instanceof PyList) return new PyList([...v.items])
  if (v instanceof PySet) return new PySet([...v.items])
  if (v instanceof PyDict) {
    const d = new PyDict()
    for (const [k, x] of v.entries()) d.set(k, x)
    return d
  }
  return v
}

/** A str method's optional str argument: None (or nothing) means the default. */
const optStr = (x: PyValue | undefined): string | null => (x === undefined || x === null ? null : pyStr(x))
const budgetString = (n: number): void => currentBudget().string(n)

/** Bound method `obj.name`, or undefined when the type has no such method in the subset. */
export function method(obj: PyValue, name: string): PyBuiltin | undefined {
  const m = (f: (args: PyValue[], kw: Kw, at: Site) => PyValue): PyBuiltin => fn(name, f)
  if (obj instanceof PyFile) {
    if (name === 'read') return m(() => obj.text)
    if (name === 'readlines') return m(() => new PyList(obj.lines()))
    return undefined
  }
  if (obj instanceof PySet) {
    switch (name) {
      case 'add':
        return m((a) => {
          if (!obj.items.some((x) => pyEquals(x, a[0]))) obj.items.push(a[0])
          return null
        })
      case 'update':
        return m((a) => {
          for (const x of a.flatMap(iterate)) if (!obj.items.some((y) => pyEquals(x, y))) obj.items.push(x)
          return null
        })
    }
    return undefined
  }
  if (typeof obj === 'string') {
    switch (name) {
      case 'format':
        return m((a, kw) => strFormat(obj, a, kw))
      case 'replace':
        return m((a) => pystr.pyReplace(obj, pyStr(a[0]), pyStr(a[1]), a.length > 2 ? toInt(a[2]) : -1, budgetString))
      case 'upper':
        return m(() => obj.toUpperCase())
      case 'lower':
        return m(() => obj.toLowerCase())
      case 'strip':
        return m((a) => pystr.pyStripChars(obj, optStr(a[0]), true, true))
      case 'lstrip':
        return m((a) => pystr.pyStripChars(obj, optStr(a[0]), true, false))
      case 'rstrip':
        return m((a) => pystr.pyStripChars(obj, optStr(a[0]), false, true))
      case 'split':
      case 'rsplit':
        return m((a, kw) => new PyList(pystr.pySplit(obj, optStr(a[0] ?? kw.get('sep')), toInt(a[1] ?? kw.get('maxsplit') ?? -1), name === 'rsplit')))
      case 'splitlines':
        return m((a, kw) => new PyList(pystr.pySplitlines(obj, truthy(a[0] ?? kw.get('keepends') ?? false))))
      case 'join':
        return m((a) => {
          const parts = iterate(a[0]).map((x) => {
            if (typeof x !== 'string') throw new PyError('TypeError', `sequence item: expected str instance, ${typeName(x)} found`)
            return x
          })
          currentBudget().string(parts.reduce((n, x) => n + x.length, Math.max(0, parts.length - 1) * obj.length))
          return parts.join(obj)
        })
      case 'startswith':
        return m((a) => (a[0] instanceof PyTuple ? a[0].items.some((p) => obj.startsWith(pyStr(p))) : obj.startsWith(pyStr(a[0]))))
      case 'endswith':
        return m((a) => (a[0] instanceof PyTuple ? a[0].items.some((p) => obj.endsWith(pyStr(p))) : obj.endsWith(pyStr(a[0]))))
      case 'title':
        return m(() => pystr.pyTitle(obj))
      case 'capitalize':
        return m(() => pystr.pyCapitalize(obj))
      case 'count':
        return m((a) => pystr.pyCount(obj, pyStr(a[0])))
      case 'find':
      case 'rfind':
        return m((a) => pystr.pyFind(obj, pyStr(a[0]), name === 'rfind'))
      case 'index':
      case 'rindex':
        return m((a) => pystr.pyIndexOf(obj, pyStr(a[0]), name === 'rindex'))
      case 'zfill':
        return m((a) => pystr.pyZfill(obj, toInt(a[0]), budgetString))
      case 'ljust':
      case 'rjust':
      case 'center':
        return m((a) => pystr.pyJustify(obj, name, toInt(a[0]), a.length > 1 ? pyStr(a[1]) : ' ', budgetString))
      case 'partition':
      case 'rpartition':
        return m((a) => new PyTuple(pystr.pyPartition(obj, pyStr(a[0]), name === 'rpartition')))
      case 'removeprefix':
        return m((a) => pystr.pyRemovePrefix(obj, pyStr(a[0])))
      case 'removesuffix':
        return m((a) => pystr.pyRemoveSuffix(obj, pyStr(a[0])))
      case 'isdigit':
      case 'isdecimal':
      case 'isnumeric':
      case 'isalpha':
      case 'isalnum':
      case 'isspace':
      case 'isupper':
      case 'islower':
      case 'istitle':
        return m(() => pystr.PY_STR_PREDICATES[name](obj))
      case 'swapcase':
        return m(() => pystr.pySwapcase(obj))
      case 'casefold':
        return m(() => obj.toLowerCase())
    }
    return undefined
  }
  if (obj instanceof PyList) {
    switch (name) {
      case 'append':
        return m((a) => (obj.items.push(a[0]), null))
      case 'extend':
        return m((a) => {
          const more = iterate(a[0])
          currentBudget().items(obj.items.length + more.length)
          for (const x of more) obj.items.push(x)
          return null
        })
      case 'clear':
        return m(() => ((obj.items.length = 0), null))
      case 'insert':
        return m((a) => (obj.items.splice(toInt(a[0]), 0, a[1]), null))
      case 'copy':
        return m(() => new PyList([...obj.items]))
      case 'pop':
        return m((a) => {
          if (!obj.items.length) throw new PyError('IndexError', 'pop from empty list')
          const k = a.length ? toInt(a[0]) : -1
          return obj.items.splice(k < 0 ? obj.items.length + k : k, 1)[0]
        })
      case 'index':
        return m((a) => {
          const k = obj.items.findIndex((x) => pyEquals(x, a[0]))
          if (k < 0) throw new PyError('ValueError', `${pyRepr(a[0])} is not in list`)
          return k
        })
      case 'count':
        return m((a) => obj.items.filter((x) => pyEquals(x, a[0])).length)
      case 'remove':
        return m((a) => {
          const k = obj.items.findIndex((x) => pyEquals(x, a[0]))
          if (k < 0) throw new PyError('ValueError', 'list.remove(x): x not in list')
          obj.items.splice(k, 1)
          return null
        })
      case 'reverse':
        return m(() => (obj.items.reverse(), null))
      case 'sort':
        return m((_a, kw, at) => {
          obj.items = sortItems(obj.items, kw, at)
          return null
        })
    }
    return undefined
  }
  if (obj instanceof PyDict) {
    switch (name) {
      case 'copy':
        return m(() => shallowCopy(obj))
      case 'deepcopy':
        // mmengine hands values imported from base configs over as ConfigDict (addict), which has deepcopy().
        return m(() => deepCopy(obj))
      case 'update':
        return m((a, kw) => {
          for (const [k, v] of dictFrom(a, kw).entries()) obj.set(k, v)
          return null
        })
      case 'get':
        return m((a) => (obj.has(a[0]) ? (obj.get(a[0]) as PyValue) : (a[1] ?? null)))
      case 'keys':
        return m(() => new PyList(obj.keys()))
      case 'values':
        return m(() => new PyList(obj.values()))
      case 'items':
        return m(() => new PyList(obj.entries().map(([k, v]) => new PyTuple([k, v]))))
      case 'pop':
        return m((a) => {
          if (obj.has(a[0])) {
            const v = obj.get(a[0]) as PyValue
            obj.delete(a[0])
            return v
          }
          if (a.length > 1) return a[1]
          throw new PyError('KeyError', `${pyRepr(a[0])}`)
        })
      case 'clear':
        return m(() => {
          for (const k of obj.keys()) obj.delete(k)
          return null
        })
      case 'setdefault':
        return m((a) => {
          if (!obj.has(a[0])) obj.set(a[0], a[1] ?? null)
          return obj.get(a[0]) as PyValue
        })
    }
    return undefined
  }
  return undefined
}
