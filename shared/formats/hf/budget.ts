// Resource limits of one render. Chat templates come with downloaded models and datasets, so a template may
// loop for ever, recurse without end or build a gigabyte string; each render gets a budget of steps (loop
// iterations, macro calls, filter and method calls), wall-clock time, string and list sizes and macro nesting,
// and fails with a LimitExceeded error that the compiler places at the template's line and column like any
// other render error. Renders are synchronous and never nest, so the budget of the one running is module state
// (cheaper on the hot path than threading it through every closure).
import { LimitExceeded } from './values'

export { LimitExceeded }

export interface RenderLimits {
  /** Loop iterations, macro calls, filter and method calls one render may take. */
  steps: number
  /** Wall-clock milliseconds one render may take. */
  timeMs: number
  /** Longest string (UTF-16 code units) the template may build, its output included. */
  stringLength: number
  /** Longest list the template may build. */
  listLength: number
  /** Macro calls nested inside each other (jinja2 fails near this depth on Python's recursion limit). */
  callDepth: number
}

/** jinja2's sandbox refuses range() longer than this (sandbox.MAX_RANGE); a fixed rule, not a budget. */
export const MAX_RANGE = 100000

export const DEFAULT_RENDER_LIMITS: Readonly<RenderLimits> = Object.freeze({
  steps: 5_000_000,
  timeMs: 2_000,
  stringLength: 32 * 1024 * 1024,
  listLength: 1_000_000,
  callDepth: 200
})

// How often (in steps) the clock is read: often enough that one step's worst case (an O(n) copy of a list at
// the size limit) times this stays well under the time limit.
const CLOCK_EVERY = 64

/**
 * The running render's counters and size limits as one object, so the compiler's hot paths test them inline
 * (`if (--budget.stepsLeft < 0 || --budget.clock === 0) overStep()`) without a call per loop iteration.
 */
export const budget = { stepsLeft: 0, clock: CLOCK_EVERY, stringLength: DEFAULT_RENDER_LIMITS.stringLength, listLength: DEFAULT_RENDER_LIMITS.listLength }

let limits: RenderLimits = DEFAULT_RENDER_LIMITS
let deadline = Infinity
let depth = 0

/** Starts a render's budget; `overrides` replace single limits (tests, callers with their own needs). */
export function startBudget(overrides?: Partial<RenderLimits>): void {
  limits = overrides ? { ...DEFAULT_RENDER_LIMITS, ...overrides } : DEFAULT_RENDER_LIMITS
  budget.stepsLeft = limits.steps
  budget.clock = CLOCK_EVERY
  budget.stringLength = limits.stringLength
  budget.listLength = limits.listLength
  deadline = Date.now() + limits.timeMs
  depth = 0
}

/** The slow path of a step: throws when the steps are used up, else rewinds the clock and checks the time. */
export function overStep(): void {
  if (budget.stepsLeft < 0) throw new LimitExceeded(`the template took more than ${limits.steps.toLocaleString('en-US')} steps (loop iterations and calls)`)
  budget.clock = CLOCK_EVERY
  if (Date.now() > deadline) throw new LimitExceeded(`the template ran longer than ${limits.timeMs} ms`)
}

/** Counts one step; throws when the steps or the time are used up. */
export function step(): void {
  if (--budget.stepsLeft < 0 || --budget.clock === 0) overStep()
}

/** Throws unless a string of `n` code units is within the limit. */
export function checkString(n: number): void {
  if (n > budget.stringLength) throw new LimitExceeded(`the template built a string of ${Math.round(n).toLocaleString('en-US')} characters (the limit is ${limits.stringLength.toLocaleString('en-US')})`)
}

/** Throws unless a list of `n` items is within the limit. */
export function checkList(n: number): void {
  if (n > budget.listLength) throw new LimitExceeded(`the template built a list of ${Math.round(n).toLocaleString('en-US')} items (the limit is ${limits.listLength.toLocaleString('en-US')})`)
}

/** Enters a macro call; pair with leaveCall() in a finally. */
export function enterCall(): void {
  if (++depth > limits.callDepth) {
    depth--
    throw new LimitExceeded(`macro calls nest deeper than ${limits.callDepth} (runaway recursion?)`)
  }
  step()
}

export function leaveCall(): void {
  depth--
}
