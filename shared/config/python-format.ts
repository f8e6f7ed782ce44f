// The config evaluator's string formatting: shared/python/format.ts over the evaluator's values (f'{x:>8}',
// format(), str.format, '%s' % x). What is the config's own: its value classes, and that a number carries no
// float marker (1.0 evaluates to 1, so it formats as an int); every width is charged to the evaluation budget.
import { PyError } from '../python/errors'
import { formatValue, percentFormat as pyPercentFormat, strFormat as pyStrFormat, type FormatModel, type Operand } from '../python/format'
import { currentBudget } from './python-budget'
import { PyDict, PyList, PyTuple, pyRepr, pyStr, typeName, type PyValue } from './python-values'

function operand(v: unknown): Operand {
  if (typeof v === 'string') return { kind: 'str', s: v }
  if (typeof v === 'boolean') return { kind: 'int', n: v ? 1n : 0n }
  if (typeof v === 'number') return Number.isInteger(v) ? { kind: 'int', n: BigInt(v) } : { kind: 'float', x: v }
  return { kind: 'other' }
}

function getItem(v: unknown, key: string | number): unknown {
  if (v instanceof PyDict) {
    if (!v.has(key)) throw new PyError('KeyError', pyRepr(key))
    return v.get(key)
  }
  if (v instanceof PyList || v instanceof PyTuple) {
    const what = v instanceof PyList ? 'list' : 'tuple'
    if (typeof key !== 'number') throw new PyError('TypeError', `${what} indices must be integers or slices, not str`)
    if (key >= v.items.length) throw new PyError('IndexError', `${what} index out of range`)
    return v.items[key]
  }
  if (typeof v === 'string') {
    if (typeof key !== 'number') throw new PyError('TypeError', "string indices must be integers, not 'str'")
    const cps = Array.from(v)
    if (key >= cps.length) throw new PyError('IndexError', 'string index out of range')
    return cps[key]
  }
  throw new PyError('TypeError', `'${typeName(v as PyValue)}' object is not subscriptable`)
}

const model: FormatModel = {
  str: (v) => pyStr(v as PyValue),
  repr: (v) => pyRepr(v as PyValue),
  typeName: (v) => typeName(v as PyValue),
  operand,
  getItem,
  getAttr(_v, name) {
    throw new PyError('', `attribute access '.${name}' in format fields is not supported`)
  },
  tupleItems: (v) => (v instanceof PyTuple ? v.items : undefined),
  isMapping: (v) => v instanceof PyDict || v instanceof PyList,
  checkLength: (n) => currentBudget().string(n)
}

/** `format(value, spec)`. */
export const formatSpec = (v: PyValue, spec: string): string => formatValue(model, v, spec)

/** `template.format(*args, **kwargs)`. */
export const strFormat = (template: string, args: PyValue[], kwargs: Map<string, PyValue>): string => pyStrFormat(model, template, args, kwargs)

/** printf-style `template % values`. */
export const percentFormat = (template: string, values: PyValue): string => pyPercentFormat(model, template, values)
