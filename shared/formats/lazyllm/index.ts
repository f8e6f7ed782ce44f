// Public entry of the LazyLLM prompter port: AlpacaPrompter, ChatPrompter, the smaller prompters, per-model token
// sets, and the render convenience.
export { AlpacaPrompter, ALPACA_PREFIX, ALPACA_SPLIT, ALPACA_TEMPLATE } from './alpaca-prompter'
export type { AlpacaOptions } from './alpaca-prompter'
export type { InstructionArg } from './prompter-base'
export { ChatPrompter, CHAT_TEMPLATE } from './chat-prompter'
export type { ChatOptions } from './chat-prompter'
export { CustomPrompter, EmptyPrompter, LegacyPrompter, LEGACY_TEMPLATES } from './other-prompters'
export type { LegacyPrompterOptions } from './other-prompters'
export { getModelPromptKeys, modelGroupFor, MODEL_CONFIG_KEYS, MODEL_GROUPS } from './model-configs'
export type { ModelConfigKey, ModelConfigs } from './model-configs'
export { DEFAULT_SYSTEM, FC_PROMPT, FC_PROMPT_PLACEHOLDER, ISA, ISE, LazyLLMPrompterBase } from './prompter-base'
export type {
  BaseOptions,
  GenerateOptions,
  LazyllmResult,
  LazyllmWarning,
  PreHook,
  SkillsSource,
  ToolsSource
} from './prompter-base'
export { buildPrompter, renderLazyllm } from './render'
export type { PrompterCall, PrompterInit, PrompterKind, RenderLazyllmOptions, RenderLazyllmResult } from './render'
export { json5Dumps, json5Loads } from './json5'
export { PyFloat, fromJson as fromJsonValue, pyRepr, pyStr, toJson as toJsonValue } from './python-values'
export type { PyValue } from './python-values'
