// Where the inferencer, not the model's template, decides a model's input: CLP, SWCELoss and LL inferencers, and PPL
// scoring on an OpenCompass API model (which cannot score).
import type { ModelRender, Segment } from '../../../shared/api/types'
import { clpRefusal, type Prepared, type Prompt, type PromptList, swcePromptCheck, swceRefusal, toEngineError, toSegments } from '../../../shared/engine'
import type { HarnessSpec } from '../../../shared/models'
import { engineProblem, modelBase, type ModelContext, withLength } from './model-render'

/**
 * Inferencers that decide a model's input themselves. CLP, SWCELoss and LL inferencers refuse API models (an
 * API parser column; every chat wrapper is a local model); SWCELossInferencer tokenizes the prompt text as it is,
 * so every other model gets that text, with no meta or chat template. Null: the usual rendering applies.
 */
export function ownInferencerRender(prompt: Prompt, prepared: Prepared, m: ModelContext, h: HarnessSpec | null, rowIndex: number, spans: boolean): ModelRender | null {
  const type = prepared.inferencer.type
  const scored = type === 'PPLInferencer' || type === 'PPLOnlyInferencer'
  if (type !== 'CLPInferencer' && type !== 'SWCELossInferencer' && type !== 'LLInferencer' && !scored) return null
  const base = modelBase(m.profile)
  const api = !h && m.profile.format === 'opencompass-meta' && m.profile.meta_parser === 'api'
  if (scored) {
    // OpenCompass's API model classes inherit BaseAPIModel.get_ppl, which raises (AISBench's API models score PPL).
    if (!api || prepared.family !== 'opencompass') return null
    return {
      ...base,
      kind: 'text',
      text: '',
      problems: [{ code: 'NotImplementedError', severity: 'error', message: `inferencer: ${type} scores each prompt with model.get_ppl, which OpenCompass's API model classes do not implement: BaseAPIModel.get_ppl raises NotImplementedError ('<model class> does not support ppl-based evaluation yet, try gen-based instead.')` }]
    }
  }
  const fail = (e: unknown): ModelRender => ({ ...base, kind: 'text', text: '', problems: [engineProblem(toEngineError(e, 'inferencer', { row: rowIndex }), 'error')] })
  if (type === 'LLInferencer') {
    // Only the HuggingFace model classes define get_loglikelihood; the API classes have no such method.
    if (!api) return null
    return {
      ...base,
      kind: 'text',
      text: '',
      problems: [{ code: 'AttributeError', severity: 'error', message: "inferencer: LLInferencer calls model.get_loglikelihood, which only OpenCompass's HuggingFace model classes define: an API model fails with AttributeError ('… object has no attribute get_loglikelihood')" }]
    }
  }
  if (type === 'CLPInferencer') {
    const refused = api ? clpRefusal('api') : null
    return refused ? fail(refused) : null
  }
  const refused = api ? swceRefusal('api') : swcePromptCheck(prompt, rowIndex)
  if (refused) return fail(refused)
  const s = prompt as Exclude<Prompt, PromptList>
  const tokens = m.counter.count(s.text)
  return { ...base, kind: 'text', text: s.text, ...(spans ? { segments: toSegments(s) as Segment[] } : {}), tokens, problems: withLength([], tokens.count, m.profile.context_length) }
}
