// Runtime values of the config evaluator and their Python semantics: equality, hashing for dict keys,
// truthiness, str()/repr(), and conversion to the JSON-like shape the engine consumes.

import { PyError } from '../python/errors'
import { strRepr } from '../python/repr'
import { PyRuntime, computedScalarView, type PyView } from '../python/values'

export class PyList {
  constructor(public items: PyValue[]) {}
}
export class PyTuple {
  constructor(public readonly items: PyValue[]) {}
}
export class PySet {
  constructor(public items: PyValue[]) {}
}
export class PyDict {
  readonly map = new Map<string, { key: PyValue; value: PyValue }>()
  get(key: PyValue): PyValue | undefined {
    return this.map.get(hashKey(key))?.value
  }
  has(key: PyValue): boolean {
    return this.map.has(hashKey(key))
  }
  set(key: PyValue, value: PyValue): void {
    const h = hashKey(key)
    const old = this.map.get(h)
    // Python keeps the first key object on overwrite ({1: 'a', True: 'b'} == {1: 'b'}).
    this.map.set(h, { key: old ? old.key : key, value })
  }
  delete(key: PyValue): boolean {
    return this.map.delete(hashKey(key))
  }
  keys(): PyValue[] {
    return [...this.map.values()].map((e) => e.key)
  }
  values(): PyValue[] {
    return [...this.map.values()].map((e) => e.value)
  }
  entries(): [PyValue, PyValue][] {
    return [...this.map.values()].map((e) => [e.key, e.value])
  }
  get size(): number {
    return this.map.size
  }
}

/** A class, function or other object imported from a non-config module: kept by name only. */
export class PyRef {
  constructor(
    readonly name: string,
    readonly module: string
  ) {}
}
/** A module imported with `import x` (attribute access yields refs or known helpers). */
export class PyModule {
  constructor(readonly name: string) {}
}

export interface CallSite {
  line: number
  column: number
}

export class PyBuiltin {
  constructor(
    readonly name: string,
    readonly call: (args: PyValue[], kwargs: Map<string, PyValue>, at: CallSite) => PyValue
  ) {}
}

/** A function defined in a config (`def` or `lambda`): called like a builtin, runs in its defining module. */
export class PyFunction extends PyBuiltin {}

/** A text file a config opened (`with open(path) as f`), read whole through the host's root rules. */
export class PyFile {
  constructor(
    readonly name: string,
    readonly text: string
  ) {}
  /** Lines as Python's file iteration yields them: each keeps its '\n'. */
  lines(): string[] {
    return this.text.match(/[^\n]*\n|[^\n]+$/g) ?? []
  }
}

export type PyValue = null | boolean | number | string | PyList | PyTuple | PySet | PyDict | PyRef | PyModule | PyBuiltin | PyFile

export { PyError }

/** A PyError raised at a known place in the config's source; the evaluator reports every PyError as a diagnostic. */
export class LocatedError extends PyError {
  constructor(
    pyClass: string,
    message: string,
    readonly at: CallSite
  ) {
    super(pyClass, message)
  }
}

export const errorAt = (e: PyError): CallSite | undefined => (e instanceof LocatedError ? e.at : undefined)

/** The dict key `v` is (the runtime's hashKey: 1, 1.0 and True are one key); TypeError for an unhashable value. */
export const hashKey = (v: PyValue): string => runtime.hashKey(v)

/** What an evaluator value is to the Python runtime. There is no float marker: 1.0 evaluates to the int 1. */
function view(v: unknown): PyView {
  const scalar = computedScalarView(v)
  if (scalar) return scalar
  if (v instanceof PyList) return { t: 'list', items: v.items }
  if (v instanceof PyTuple) return { t: 'tuple', items: v.items }
  if (v instanceof PySet) return { t: 'set', items: v.items }
  if (v instanceof PyDict) return { t: 'dict', entries: () => v.entries(), size: v.size, lookup: (k) => (v.has(k as PyValue) ? { value: v.get(k as PyValue) } : undefined) }
  if (v instanceof PyModule) return { t: 'object', type: 'module', repr: `<module '${v.name}'>` }
  if (v instanceof PyFunction) return { t: 'object', type: 'function', repr: `<function ${v.name}>` }
  if (v instanceof PyBuiltin) return { t: 'object', type: 'builtin_function_or_method', repr: `<built-in function ${v.name}>` }
  if (v instanceof PyFile) return { t: 'object', type: '_io.TextIOWrapper', repr: `<_io.TextIOWrapper name=${strRepr(v.name)} mode='r' encoding='UTF-8'>`, iter: () => v.lines() }
  if (v instanceof PyRef) {
    const repr = `<class '${v.module ? `${v.module}.` : ''}${v.name}'>`
    return { t: 'object', type: 'type', repr, eqKey: repr }
  }
  return { t: 'object', type: 'object', repr: String(v) }
}

export const runtime = new PyRuntime(view)

export const typeName = (v: PyValue): string => runtime.typeName(v)

export const truthy = (v: PyValue): boolean => runtime.truthy(v)

/** Containers nested deeper than this (only a value that contains itself gets there) are an error, as in CPython. */
const MAX_VALUE_DEPTH = 1000

function tooDeep(): PyError {
  return new PyError('RecursionError', 'the value contains itself (or is nested more than 1000 levels deep)')
}

/** Python `a == b`: the runtime's equality (an imported class equals the same class imported again). */
export const pyEquals = (a: PyValue, b: PyValue): boolean => runtime.eq(a, b)

/** repr() as CPython prints it, including `[...]` / `{...}` where a container contains itself. */
export const pyRepr = (v: PyValue): string => runtime.repr(v)

export const pyStr = (v: PyValue): string => runtime.str(v)

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/**
 * The JSON-like form the engine takes: tuples and sets become arrays, imported classes and functions become
 * their name, and a dict with any non-str key becomes {"__label_dict__": [[k, v], …]}.
 */
export function toJson(v: PyValue, active: Set<PyValue> = new Set()): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v
  if (v instanceof PyList || v instanceof PyTuple || v instanceof PySet || v instanceof PyDict) {
    // JSON has no cycles: a container holding itself (x = []; x.append(x)) cannot become configuration.
    if (active.has(v)) throw new PyError('ValueError', `Circular reference detected (a ${typeName(v)} contains itself)`)
    if (active.size > MAX_VALUE_DEPTH) throw tooDeep()
    active.add(v)
    try {
      const j = (x: PyValue): Json => toJson(x, active)
      if (!(v instanceof PyDict)) return v.items.map(j)
      const entries = v.entries()
      if (entries.every(([k]) => typeof k === 'string')) {
        const out: { [k: string]: Json } = {}
        for (const [k, x] of entries) out[k as string] = j(x)
        return out
      }
      return { __label_dict__: entries.map(([k, x]) => [j(k), j(x)]) }
    } finally {
      active.delete(v)
    }
  }
  return v.name
}

/** The inverse for JSON/YAML configs and resolver results: objects become dicts, label dicts typed dicts. */
export function fromJson(j: unknown): PyValue {
  if (j === null || j === undefined) return null
  if (typeof j === 'boolean' || typeof j === 'number' || typeof j === 'string') return j
  if (Array.isArray(j)) return new PyList(j.map(fromJson))
  const d = new PyDict()
  const o = j as Record<string, unknown>
  if (Object.keys(o).length === 1 && Array.isArray(o.__label_dict__)) {
    for (const pair of o.__label_dict__ as unknown[][]) d.set(fromJson(pair[0]), fromJson(pair[1]))
    return d
  }
  for (const [k, x] of Object.entries(o)) d.set(k, fromJson(x))
  return d
}

/** copy.deepcopy: shared and self-referencing containers are copied once, as its memo does. */
export function deepCopy(v: PyValue, memo: Map<PyValue, PyValue> = new Map()): PyValue {
  if (!(v instanceof PyList || v instanceof PyTuple || v instanceof PySet || v instanceof PyDict)) return v
  const seen = memo.get(v)
  if (seen) return seen
  if (memo.size > 10_000_000) throw tooDeep()
  if (v instanceof PyTuple) {
    const t = new PyTuple(v.items.map((x) => deepCopy(x, memo)))
    memo.set(v, t)
    return t
  }
  if (v instanceof PyDict) {
    const d = new PyDict()
    memo.set(v, d)
    for (const [k, x] of v.entries()) d.set(k, deepCopy(x, memo))
    return d
  }
  const out = v instanceof PyList ? new PyList([]) : new PySet([])
  memo.set(v, out)
  for (const x of v.items) out.items.push(deepCopy(x, memo))
  return out
}
