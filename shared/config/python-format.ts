// The config evaluator's string formatting: shared/python/format.ts over the evaluator's values (f'{x:>8}',
// format(), str.format, '%s' % x). What is the config's own: its value classes, and that a number carries no
// float marker (1.0 evaluates to 1, so it formats as an int); every width is charged to the evaluation budget.
import { PyError } from '../python/errors'
import { formatValue, percentFormat as pyPercentFormat, strFormat as pyStrFormat, type FormatModel } from '../python/format'
import { currentBudget } from './python-budget'
import { runtime, type PyValue } from './python-values'

const model: FormatModel = {
  ...runtime.formatModel,
  getAttr(_v, name) {
    throw new PyError('', `attribute access '.${name}' in format fields is not supported`)
  },
  checkLength: (n) => currentBudget().string(n)
}

/** `format(value, spec)`. */
export const formatSpec = (v: PyValue, spec: string): string => formatValue(model, v, spec)

/** `template.format(*args, **kwargs)`. */
export const strFormat = (template: string, args: PyValue[], kwargs: Map<string, PyValue>): string => pyStrFormat(model, template, args, kwargs)

/** printf-style `template % values`. */
export const percentFormat = (template: string, values: PyValue): string => pyPercentFormat(model, template, values)
