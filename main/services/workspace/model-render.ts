// What every model column is built from, whatever the format: the model's identity, engine errors and warnings as
// problems, and the context-length check.
import type { Diagnostic, ModelRender } from '../../../shared/api/types'
import { type EngineError, type EngineWarning, stripAnsi } from '../../../shared/engine'
import type { ModelProfile } from '../../../shared/models'
import type { TokenCounter } from '../models/tokenizer'
import { diagnostic, type DiagnosticData } from '../../../shared/diagnostics'

export interface ModelContext {
  profile: ModelProfile
  counter: TokenCounter
}

/** What every column shows about its model, whatever the format. */
export function modelBase(p: ModelProfile): Pick<ModelRender, 'modelId' | 'modelName' | 'contextLength' | 'specialTokens'> {
  return { modelId: p.id, modelName: p.name, contextLength: p.context_length, specialTokens: specialTokenList(p) }
}

/** Per profile, made once: every row's render of the profile carries the same list. */
const SPECIAL_TOKENS = new WeakMap<ModelProfile, string[]>()

function specialTokenList(p: ModelProfile): string[] {
  let out = SPECIAL_TOKENS.get(p)
  if (!out) SPECIAL_TOKENS.set(p, (out = listSpecialTokens(p)))
  return out
}

function listSpecialTokens(p: ModelProfile): string[] {
  const out: string[] = []
  for (const v of Object.values(p.special_tokens ?? {})) {
    if (typeof v === 'string') out.push(v)
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x)
  }
  return out
}

/** An engine error or warning as a column's problem (ANSI codes stripped, the stage named). */
export function engineProblem(e: EngineError | EngineWarning, severity: Diagnostic['severity']): Diagnostic {
  const data: DiagnosticData = {}
  for (const [k, v] of Object.entries(e.at ?? {})) if (typeof v === 'string' || typeof v === 'number') data[k] = v
  const stage = 'stage' in e ? (e as EngineError).stage : undefined
  // The engine keeps upstream's exact text (AISBench colours it with ANSI codes); people read it without them.
  const message = stripAnsi(e.message)
  return diagnostic(e.code, severity, stage ? `${stage}: ${message}` : message, { data })
}

/** The problems, plus an error when the model's input exceeds its context length. */
export function withLength(problems: Diagnostic[], count: number, ctx: number): Diagnostic[] {
  if (count <= ctx) return problems
  return [...problems, { code: 'over-context', message: `${count.toLocaleString()} tokens exceed the context length ${ctx.toLocaleString()}`, severity: 'error' }]
}

/** The problems without repeats (the same code and message). */
export function dedupe(ps: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>()
  return ps.filter((p) => {
    const k = `${p.code}\0${p.message}`
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}
