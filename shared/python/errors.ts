// The one Python exception PromptLoom raises while it runs Python semantics (str.format, %-formatting, value
// access, a family's own pipeline): `pyClass` is the Python exception class (KeyError, ValueError, jinja2's
// UndefinedError, …) and `message` is what str(exc) gives. Families that need more (the engine's stage and place,
// the config evaluator's line, an AISBench error code) extend it; none has an exception type of its own.

export interface PyErrorOptions {
  /** An AISBench error code (UTILS-CFG-008) where upstream raises an AISBench*Error. */
  code?: string
}

export class PyError extends Error {
  readonly code?: string
  constructor(
    /** The Python exception class name; '' for a limit of PromptLoom's own that Python does not have. */
    readonly pyClass: string,
    /** str(exc). */
    message: string,
    opts: PyErrorOptions = {}
  ) {
    super(message)
    this.name = pyClass || 'PyError'
    if (opts.code !== undefined) this.code = opts.code
  }

  /**
   * `f"{type(e).__name__}: {e}"`, the form every upstream harness records (`KeyError: 'x'`, and `AssertionError: `
   * with the space when str(e) is empty, where a traceback would print the class alone).
   */
  get pyMessage(): string {
    return this.pyClass ? `${this.pyClass}: ${this.message}` : this.message
  }
}

/** What a caught value says: `Class: message` for a PyError, the message of any other Error, else its str. */
export function errorText(e: unknown): string {
  if (e instanceof PyError) return e.pyMessage
  return e instanceof Error ? e.message : String(e)
}
