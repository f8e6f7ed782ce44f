// Where the inferencer, not the model's template, decides a model's input: CLP, SWCELoss and LL inferencers, and PPL
// scoring on a model class that cannot score. What a model can do is its class's (model-classes.generated.ts, read
// from upstream's classes), not its parser's: HuggingFaceChatGLM3 parses with the API parser and still scores PPL.
import type { Diagnostic, ModelRender, Segment } from '../../../shared/api/types'
import { applyMetaTemplate, clpRefusal, type Prepared, type Prompt, type PromptList, swcePromptCheck, swceRefusal, toEngineError, toSegments } from '../../../shared/engine'
import type { HarnessSpec, ModelProfile } from '../../../shared/models'
import { modelClassInfo } from '../../../shared/models/model-classes'
import { engineProblem, modelBase, type ModelContext, withLength } from './model-render'

/** What an OpenCompass model class does with an inferencer's requests. */
interface ClassAbilities {
  /** The class's name as upstream writes it in messages ('<model class>' when the profile names none). */
  name: string
  /** BaseModel.is_api / BaseAPIModel.is_api as the class resolves it (CLPInferencer refuses such a model). */
  isApi: boolean
  /** Whether its get_ppl scores (BaseModel's and BaseAPIModel's raise NotImplementedError). */
  ppl: boolean
  /** Whether it has a get_loglikelihood (LLInferencer's AttributeError otherwise). */
  loglikelihood: boolean
}

const LOCAL: ClassAbilities = { name: 'the model', isApi: false, ppl: true, loglikelihood: true }

/**
 * The abilities of the profile's model class (model_class, as an imported config names it). A profile that names
 * none, or a class neither framework has, is taken for what its parser suggests: an API-parser model is an API class.
 */
function classAbilities(profile: ModelProfile): ClassAbilities {
  const info = profile.model_class ? modelClassInfo(profile.model_class, profile.meta_family ?? 'opencompass') : undefined
  const api = profile.meta_parser === 'api'
  if (!info) return { name: profile.model_class ?? '<model class>', isApi: api, ppl: !api, loglikelihood: !api }
  return { name: profile.model_class!, isApi: info.is_api ?? api, ppl: info.ppl ?? !api, loglikelihood: info.loglikelihood ?? false }
}

/**
 * Inferencers that decide a model's input themselves. CLP, SWCELoss and LL inferencers refuse models whose class
 * cannot do what they ask (every chat wrapper is a local model); SWCELossInferencer tokenizes the prompt text as it
 * is, so every other model gets that text, with no meta or chat template. Null: the usual rendering applies.
 */
export function ownInferencerRender(prompt: Prompt, prepared: Prepared, m: ModelContext, h: HarnessSpec | null, rowIndex: number, spans: boolean): ModelRender | null {
  const type = prepared.inferencer.type
  if (type === 'BFCLV3FunctionCallInferencer') return bfclRender(m.profile)
  const scored = type === 'PPLInferencer' || type === 'PPLOnlyInferencer'
  if (type !== 'CLPInferencer' && type !== 'SWCELossInferencer' && type !== 'LLInferencer' && !scored) return null
  const base = modelBase(m.profile)
  // Every other column (chat wrappers, chat templates, FastChat …) is a local model that scores.
  const meta = !h && m.profile.format === 'opencompass-meta'
  const cls = meta ? classAbilities(m.profile) : LOCAL
  const failed = (code: string, message: string): ModelRender => ({ ...base, kind: 'text', text: '', problems: [{ code, severity: 'error', message }] })
  if (scored) {
    // AISBench's API models score PPL their own way.
    if (prepared.family !== 'opencompass') return null
    if (!cls.ppl)
      return failed('NotImplementedError', `inferencer: ${type} scores each prompt with model.get_ppl, which ${cls.name} does not implement: its get_ppl (BaseModel's or BaseAPIModel's) raises NotImplementedError ('${cls.name} does not support ppl-based evaluation yet, try gen-based instead.')`)
    return meta ? scoredDialogue(prompt, m.profile, cls, prepared, rowIndex, type) : null
  }
  const fail = (e: unknown): ModelRender => ({ ...base, kind: 'text', text: '', problems: [engineProblem(toEngineError(e, 'inferencer', { row: rowIndex }), 'error')] })
  if (type === 'LLInferencer') {
    if (cls.loglikelihood) return null
    return failed('AttributeError', `inferencer: LLInferencer calls model.get_loglikelihood, which ${cls.name} does not define (only OpenCompass's HuggingFace, TurboMind, VLLM, InternTrain and Llama2 classes do): upstream fails with AttributeError ('… object has no attribute get_loglikelihood')`)
  }
  if (type === 'CLPInferencer') {
    const refused = cls.isApi ? clpRefusal('api') : null
    return refused ? fail(refused) : null
  }
  const refused = cls.isApi ? swceRefusal('api') : swcePromptCheck(prompt, rowIndex)
  if (refused) return fail(refused)
  return asBuilt(prompt, m, spans, [])
}

/** The prompt's text as the template built it, with no meta or chat template (the caller checked it is text). */
function asBuilt(prompt: Prompt, m: ModelContext, spans: boolean, problems: Diagnostic[]): ModelRender {
  const s = prompt as Exclude<Prompt, PromptList>
  const tokens = m.counter.count(s.text)
  return { ...modelBase(m.profile), kind: 'text', text: s.text, ...(spans ? { segments: toSegments(s) as Segment[] } : {}), tokens, problems: withLength(problems, tokens.count, m.profile.context_length) }
}

const CLP_UNPARSED: Diagnostic = Object.freeze({
  code: 'clp-unparsed-after-truncation',
  severity: 'warning',
  message: "CLPInferencer dropped in-context examples for max_seq_len and, as upstream does, does not parse the rebuilt prompt: the model reads the template's text as built, without its meta template."
})

/** CLPInferencer's prompt rebuilt after max_seq_len dropped examples (clpTruncate): sent as built, never parsed. */
export function clpUnparsedRender(prompt: Prompt, m: ModelContext, spans: boolean): ModelRender {
  return asBuilt(prompt, m, spans, [CLP_UNPARSED])
}

const BFCL_NOT_REPRODUCED: Diagnostic = Object.freeze({
  code: 'BFCLNotReproduced',
  severity: 'error',
  message:
    "inferencer: BFCLV3FunctionCallInferencer (AISBench) does not send the template's text: each request is the first turn of the row's `question` (JSON turns, roles mapped to HUMAN/BOT/SYSTEM/TOOL) plus the row's `function` schemas, which the bfcl_eval package turns into OpenAI tools (func_doc_language_specific_pre_processing + convert_to_tool, for a model config with returns_tool_calls=True) or into a system prompt it inserts before the first turn (system_prompt_pre_processing_chat_model, the default); later turns execute the model's tool calls. PromptLoom does not bundle bfcl_eval, so this model's input is not shown."
})

/** BFCLV3FunctionCallInferencer: what the model receives is built by bfcl_eval, which is not reproduced (say so). */
function bfclRender(profile: ModelProfile): ModelRender {
  return { ...modelBase(profile), kind: 'text', text: '', problems: [BFCL_NOT_REPRODUCED] }
}

/**
 * A scoring class with the API parser (HuggingFaceChatGLM3, Llama2, Mixtral): get_ppl_from_template parses with
 * mode='ppl' and hands the result to get_ppl, which tokenizes text. A plain-string result is scored as shown (null:
 * the usual rendering); a dialogue parses to a PromptList, which the tokenizer does not take.
 */
function scoredDialogue(prompt: Prompt, profile: ModelProfile, cls: ClassAbilities, prepared: Prepared, rowIndex: number, type: string): ModelRender | null {
  if (profile.meta_parser !== 'api') return null
  const applied = applyMetaTemplate(prompt, profile.meta_template ?? null, { parser: 'api', mode: 'ppl', family: prepared.family, row: rowIndex })
  if (!applied.parsed || applied.parsed.kind === 'text') return null
  return {
    ...modelBase(profile),
    kind: 'text',
    text: '',
    problems: [
      {
        code: 'PPLPromptList',
        severity: 'error',
        message: `inferencer: ${type} scores with ${cls.name}.get_ppl, which tokenizes text; ${cls.name}'s API template parser turns this dialogue into a PromptList of role messages (mode='ppl'), which the tokenizer does not take: upstream fails here (the exception depends on the tokenizer)`
      }
    ]
  }
}
