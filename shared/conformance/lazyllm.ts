// Conformance runner for the 'lazyllm' family: replays a golden case (one prompter, optional model tokens, one
// call) through shared/formats/lazyllm and returns `{result}` or `{error}` as the golden does.
import type { ConformanceCase, ConformanceRunner } from './types'
import {
  CustomPrompter,
  EmptyPrompter,
  LegacyPrompter,
  fromJsonValue,
  renderLazyllm,
  type ModelConfigs,
  type PrompterCall,
  type PrompterInit,
  type LegacyPrompterOptions,
  type PyValue
} from '../formats/lazyllm'

/** The constructor arguments the golden recorded; which of them are there depends on the class. */
interface CaseInit {
  template_name?: string
  prompt?: LegacyPrompterOptions
  template?: string
  instruction_template?: string
  split?: string | null
  [k: string]: unknown
}

interface LazyllmCaseInput {
  class: 'AlpacaPrompter' | 'ChatPrompter' | 'EmptyPrompter' | 'PrompterBase' | 'Prompter'
  init: CaseInit
  model_configs?: ModelConfigs
  env?: { disable_system_prompt?: boolean }
  call: PrompterCall & Record<string, unknown>
}

function legacyCase(init: CaseInit): LegacyPrompter | string {
  // `constructor` is a key of the case data here, not Object.prototype.constructor.
  const ctor: unknown = Object.prototype.hasOwnProperty.call(init, 'constructor') ? init['constructor'] : undefined
  if (ctor === 'from_template')
    return LegacyPrompter.fromTemplate(init.template_name as string) ?? `KeyError: '${init.template_name}'`
  if (ctor === 'from_dict') return new LegacyPrompter(init.prompt)
  return new LegacyPrompter(init as LegacyPrompterOptions)
}

export const runLazyllmCase: ConformanceRunner = (c: ConformanceCase) => {
  const input = c.input as LazyllmCaseInput
  const call = input.call
  if (input.class === 'AlpacaPrompter' || input.class === 'ChatPrompter') {
    const out = renderLazyllm(input.class, input.init as PrompterInit, call, {
      modelConfigs: input.model_configs,
      disableSystemPrompt: input.env?.disable_system_prompt ?? false
    })
    return out.ok ? { result: out.result } : { error: out.error?.message }
  }
  if (input.class === 'Prompter') {
    const p = legacyCase(input.init)
    if (typeof p === 'string') return { error: p }
    if (call.method === 'get_response') return { result: p.getResponse(call.output, call.input ?? null) }
    const out = p.generatePrompt(
      fromJsonValue(call.input ?? null),
      fromJsonValue(call.history ?? null),
      fromJsonValue(call.tools ?? null),
      call.label ?? null
    )
    return out.ok ? { result: out.result } : { error: out.error.message }
  }
  if (input.class === 'EmptyPrompter') {
    const empty = new EmptyPrompter()
    if (call.method === 'get_response') {
      const res = empty.getResponse(call.output, call.input ?? null)
      return res.ok ? { result: res.result } : { error: res.error.message }
    }
    const out = empty.generatePrompt(fromJsonValue(call.input ?? null), {
      format: call.format ?? null,
      returnDict: call.return_dict ?? false
    })
    return { result: out.ok ? out.result : null }
  }
  const prompter = new CustomPrompter(input.init.template as string, input.init.instruction_template as string, input.init.split ?? null)
  if (input.model_configs) {
    const err = prompter.setModelConfigs(input.model_configs)
    if (err) return { error: err.message }
  }
  if (call.method === 'get_response') {
    const out = prompter.getResponse(call.output, call.input ?? null)
    return out.ok ? { result: out.result } : { error: out.error.message }
  }
  const out = prompter.generatePrompt(fromJsonValue(call.input ?? null), {
    history: fromJsonValue(call.history ?? null) as PyValue[] | null,
    tools: fromJsonValue(call.tools ?? null) as PyValue[] | null,
    label: call.label ?? null,
    returnDict: call.return_dict ?? false,
    format: call.format ?? null
  })
  return out.ok ? { result: out.result } : { error: out.error.message }
}
