// Where in a template's source a token, a node or an error is. Spans are UTF-16 offsets into the text the
// caller passed (before any newline normalisation), so an editor can underline them as they are.
import { PyError } from '../../python/errors'

/** Half-open range [start, end) of offsets into the original template source. */
export interface Span {
  start: number
  end: number
}

/**
 * Thrown for template text jinja2 would refuse to compile; `span` is where, when known. The Python class is
 * jinja2's own, or SyntaxError where Python rejects the code jinja2 generates.
 */
export class TemplateSyntaxError extends PyError {
  constructor(
    message: string,
    public span?: Span,
    pyClass = 'TemplateSyntaxError'
  ) {
    super(pyClass, message)
  }
}

// Render-time errors come from everywhere (values, filters, methods), so their place is kept beside them
// rather than on them: the innermost node that sees an error records it first, and outer nodes leave it.
const errorSpans = new WeakMap<object, Span>()

/** Records `at` as the place of `e` unless an inner node already did; returns `e` for `throw locate(e, at)`. */
export function locate(e: unknown, at: Span): unknown {
  if (typeof e === 'object' && e !== null && !errorSpans.has(e)) errorSpans.set(e, at)
  return e
}

/** The place recorded for a thrown value, if any. */
export function spanOfError(e: unknown): Span | undefined {
  if (e instanceof TemplateSyntaxError) return e.span
  return typeof e === 'object' && e !== null ? errorSpans.get(e) : undefined
}
