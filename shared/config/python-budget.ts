// Resource limits of the config evaluator. A config is data someone hands you: `x = [0] * 10**9`, a nested
// comprehension over two big ranges, `while True: pass` or a self-recursive function must end in a clean error at
// the config's line and column, never in a frozen or killed process. One Budget is shared by every module of an
// import tree (a read_base() import counts against the config that imported it).
//
// Limits, chosen far above what real configs use (the largest upstream OpenCompass/AISBench dataset config —
// needlebench's loops — takes about 0.2 M steps and builds no container over 10 k items):
//   steps      every statement, expression and allocated item counts one (a list of n items costs n);
//   items      one list/tuple/dict/set/range;
//   string     one str, in UTF-16 code units (what a format width or a repetition would allocate);
//   depth      Python function calls in progress (CPython's default limit is 1000; ours unwinds JS frames);
//   time       wall clock for the whole import.

export interface EvalLimits {
  maxSteps: number
  maxItems: number
  maxStringLength: number
  maxCallDepth: number
  timeMs: number
}

export const DEFAULT_LIMITS: EvalLimits = {
  maxSteps: 20_000_000,
  maxItems: 1_000_000,
  maxStringLength: 16 * 1024 * 1024,
  maxCallDepth: 200,
  timeMs: 10_000
}

/** Thrown when a limit is hit; not caught by per-statement recovery, so the whole import stops there. */
export class BudgetExceeded extends Error {
  file?: string
  line?: number
  column?: number
}

export class Budget {
  readonly limits: EvalLimits
  private steps = 0
  private readonly deadline: number
  depth = 0

  constructor(limits: Partial<EvalLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits }
    this.deadline = Date.now() + this.limits.timeMs
  }

  /** Counts `n` steps; checks the clock every 4096 steps so the check costs nothing measurable. */
  step(n = 1): void {
    const before = this.steps
    this.steps += n
    if (this.steps > this.limits.maxSteps) {
      throw new BudgetExceeded(`the config takes more than ${this.limits.maxSteps.toLocaleString('en-US')} evaluation steps (a runaway loop or a huge value?)`)
    }
    if (before >>> 12 !== this.steps >>> 12 && Date.now() > this.deadline) {
      throw new BudgetExceeded(`the config takes longer than ${this.limits.timeMs / 1000} s to evaluate`)
    }
  }

  /** Before building a container of `n` items: refuses it over the limit, and charges the items as steps. */
  items(n: number): void {
    if (n > this.limits.maxItems) {
      throw new BudgetExceeded(`a value of ${formatCount(n)} items exceeds the config limit of ${this.limits.maxItems.toLocaleString('en-US')}`)
    }
    this.step(n)
  }

  /** Before building a string of `n` code units. */
  string(n: number): void {
    if (n > this.limits.maxStringLength) {
      throw new BudgetExceeded(`a string of ${formatCount(n)} characters exceeds the config limit of ${this.limits.maxStringLength.toLocaleString('en-US')}`)
    }
    this.step(n >>> 6)
  }

  enter(): void {
    if (++this.depth > this.limits.maxCallDepth) {
      this.depth--
      throw new BudgetExceeded(`RecursionError: function calls nested more than ${this.limits.maxCallDepth} deep`)
    }
  }

  leave(): void {
    this.depth--
  }
}

function formatCount(n: number): string {
  return Number.isFinite(n) && n < 1e15 ? Math.round(n).toLocaleString('en-US') : String(n)
}

/** The budget of code that runs outside an import (helpers called by tests or by other modules). */
let ambient: Budget | null = null

/** The budget of the import in progress, for builtins that allocate (range, str * n, …). */
export function currentBudget(): Budget {
  return (ambient ??= new Budget({ timeMs: Number.MAX_SAFE_INTEGER, maxSteps: Number.MAX_SAFE_INTEGER }))
}

/** Runs `f` with `budget` as the current one (imports are synchronous, so a module-level slot is enough). */
export function withBudget<T>(budget: Budget, f: () => T): T {
  const saved = ambient
  ambient = budget
  try {
    return f()
  } finally {
    ambient = saved
  }
}
