// The convenience the app calls: build an AlpacaPrompter or ChatPrompter from upstream-style constructor arguments,
// apply a model's prompt tokens the way TrainableModule.prompt() does, and make one call. Everything comes back as
// data: `{ ok, result, warnings }`, or `{ ok: false, error, warnings }` with Python's error text.
import { AlpacaPrompter } from './alpaca-prompter'
import { ChatPrompter } from './chat-prompter'
import { getModelPromptKeys, MODEL_GROUPS, type ModelConfigs } from './model-configs'
import type { InstructionArg, LazyLLMPrompterBase, LazyllmWarning, SkillsSource, ToolsSource } from './prompter-base'
import type { Diagnostic } from '../../diagnostics'
import { fromJson, toJson, type PyValue } from './python-values'

export type PrompterKind = 'alpaca' | 'chat' | 'AlpacaPrompter' | 'ChatPrompter'

/** Constructor keyword arguments, spelled as in Python. */
export interface PrompterInit {
  instruction?: InstructionArg
  extra_keys?: string | string[] | null
  tools?: ToolsSource
  show?: boolean
  /** ChatPrompter only. */
  history?: unknown[] | null
  skills?: SkillsSource
  enable_system?: boolean
}

export type PrompterCall =
  | {
      method?: 'generate_prompt'
      input?: unknown
      history?: unknown[] | null
      tools?: unknown[] | null
      label?: string | null
      show?: boolean
      return_dict?: boolean
      format?: string | null
    }
  | { method: 'get_response'; output: string; input?: string | null }

export interface RenderLazyllmOptions {
  /** A model name (`Qwen2-7B-Instruct`) or a `model_groups` key (`qwen`) whose prompt keys are applied. */
  model?: string
  /** Explicit prompt keys, applied after `model`'s (what `_set_model_configs(**keys)` receives). */
  modelConfigs?: ModelConfigs
  /** The prompt dict's `drop_builtin_system`: force `system` to ''. */
  dropBuiltinSystem?: boolean
  /** LazyLLM config `disable_system_prompt`, read at construction. */
  disableSystemPrompt?: boolean
}

export interface RenderLazyllmResult {
  ok: boolean
  /** The prompt string, an API payload (`{messages, tools?, system?}`), or get_response's text. */
  result?: unknown
  warnings: LazyllmWarning[]
  error?: Diagnostic
}

export function buildPrompter(
  kind: PrompterKind,
  init: PrompterInit,
  opts: RenderLazyllmOptions = {}
): LazyLLMPrompterBase {
  const tools = typeof init.tools === 'function' ? init.tools : init.tools ? (fromJson(init.tools) as PyValue[]) : null
  const common = {
    instruction: init.instruction ?? null,
    extraKeys: init.extra_keys ?? null,
    tools,
    show: init.show ?? false,
    disableSystemPrompt: opts.disableSystemPrompt ?? false
  }
  const prompter =
    kind === 'alpaca' || kind === 'AlpacaPrompter'
      ? new AlpacaPrompter(common)
      : new ChatPrompter({
          ...common,
          history: init.history ? (fromJson(init.history) as PyValue[]) : null,
          skills: init.skills ?? '',
          enableSystem: init.enable_system ?? true
        })
  if (opts.model) {
    const keys = Object.prototype.hasOwnProperty.call(MODEL_GROUPS, opts.model)
      ? { ...MODEL_GROUPS[opts.model] }
      : getModelPromptKeys(opts.model)
    if (Object.keys(keys).length === 0) {
      prompter.initWarnings.push({
        code: 'lazyllm.unknown_model',
        message: `No LazyLLM prompt keys are known for model "${opts.model}"; the prompter keeps its defaults.`
      })
    }
    prompter.initError ??= prompter.setModelConfigs(keys)
  }
  if (opts.modelConfigs) prompter.initError ??= prompter.setModelConfigs(opts.modelConfigs)
  if (opts.dropBuiltinSystem) prompter.system = ''
  return prompter
}

export function renderLazyllm(
  kind: PrompterKind,
  init: PrompterInit,
  callInput: PrompterCall,
  opts: RenderLazyllmOptions = {}
): RenderLazyllmResult {
  const prompter = buildPrompter(kind, init, opts)
  const out =
    callInput.method === 'get_response'
      ? prompter.getResponse(callInput.output, callInput.input ?? null)
      : prompter.generatePrompt(fromJson(callInput.input ?? null), {
          history: callInput.history ? (fromJson(callInput.history) as PyValue[]) : null,
          tools: callInput.tools ? (fromJson(callInput.tools) as PyValue[]) : (callInput.tools as null | undefined),
          label: callInput.label ?? null,
          show: callInput.show ?? false,
          returnDict: callInput.return_dict ?? false,
          format: callInput.format ?? null
        })
  return out.ok
    ? { ok: true, result: toJson(out.result as PyValue), warnings: out.warnings }
    : { ok: false, error: out.error, warnings: out.warnings }
}
