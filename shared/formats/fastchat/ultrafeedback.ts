// UltraFeedback's trimmed copy of FastChat (OpenBMB/UltraFeedback src/comparison_data_generation/fastchat.py), used
// to build its comparison-data prompts: a raw `system` string instead of system_template/system_message, 14 styles,
// its own LLAMA2 branch, and a system message always present in the OpenAI messages.
//
// Not a profile option (unlike fastchat_version 'v0.2.36'): no evaluation harness renders through this copy — neither
// OpenCompass nor AISBench imports it — and its one caller, UltraFeedback's main.py, appends a principle drawn with
// random.choice per completion to the system text, which a profile cannot reproduce. It stays for the 36 conformance
// goldens that pin the copy's own LLAMA2 and system-message quirks (shared/conformance/fastchat.ts replays them).
import { renderPrompt } from './separator-styles'
import type { FormatWarning, MessageContent, OpenAIMessage, PromptResult, SeparatorStyle } from './types'

export interface UltraFeedbackTemplateDef {
  name: string
  system: string
  roles: readonly string[]
  sepStyle: SeparatorStyle
  sep: string
  sep2?: string
  stopStr?: string
  stopTokenIds?: readonly number[]
}

const VICUNA: UltraFeedbackTemplateDef = {
  name: 'vicuna',
  system:
    "A chat between a curious user and an artificial intelligence assistant. The assistant gives helpful, detailed, and polite answers to the user's questions.",
  roles: ['USER', 'ASSISTANT'],
  sepStyle: 'ADD_COLON_TWO',
  sep: ' ',
  sep2: '</s>'
}

/** `conv_template`: `wizardlm` is the very same object as `vicuna`, so it reports the name "vicuna". */
const ULTRAFEEDBACK_TEMPLATES: Readonly<Record<string, UltraFeedbackTemplateDef>> = {
  llama: {
    name: 'llama-2',
    system:
      '<s>[INST] <<SYS>>\nYou are a helpful, respectful and honest assistant. Always answer as helpfully as possible, while being safe. ' +
      'Your answers should not include any harmful, unethical, racist, sexist, toxic, dangerous, or illegal content. ' +
      'Please ensure that your responses are socially unbiased and positive in nature.\n\n' +
      'If a question does not make any sense, or is not factually coherent, explain why instead of answering something not correct. ' +
      "If you don't know the answer to a question, please don't share false information.\n<</SYS>>\n\n",
    roles: ['[INST]', '[/INST]'],
    sepStyle: 'LLAMA2',
    sep: ' ',
    sep2: ' </s><s>',
    stopTokenIds: [2]
  },
  alpaca: {
    name: 'alpaca',
    system: 'Below is an instruction that describes a task. Write a response that appropriately completes the request.',
    roles: ['### Instruction', '### Response'],
    sepStyle: 'ADD_COLON_TWO',
    sep: '\n\n',
    sep2: '</s>'
  },
  vicuna: VICUNA,
  wizardlm: VICUNA,
  mpt: {
    name: 'mpt-30b-chat',
    system:
      '<|im_start|>system\nA conversation between a user and an LLM-based AI assistant. The assistant gives helpful and honest answers.',
    roles: ['<|im_start|>user', '<|im_start|>assistant'],
    sepStyle: 'CHATML',
    sep: '<|im_end|>',
    stopTokenIds: [50278, 0]
  },
  falcon: {
    name: 'falcon',
    system: '',
    roles: ['User', 'Assistant'],
    sepStyle: 'RWKV',
    sep: '\n',
    sep2: '<|endoftext|>',
    stopStr: '\nUser',
    stopTokenIds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
  }
}

export interface UltraFeedbackTemplateInfo {
  name: string
  system: string
  roles: string[]
  messages: [string, string][]
  offset: number
  sep_style: SeparatorStyle
  sep: string
  sep2: string | null
  stop_str: string | null
  stop_token_ids: number[] | null
}

export class UltraFeedbackConversation {
  system: string
  messages: [string, MessageContent][] = []

  constructor(readonly def: UltraFeedbackTemplateDef) {
    this.system = def.system
  }

  get roles(): readonly string[] {
    return this.def.roles
  }

  appendMessage(role: string, message: MessageContent): void {
    this.messages.push([role, message])
  }

  getPrompt(): PromptResult {
    return renderPrompt(
      {
        name: this.def.name,
        // A template of just the field makes the shared renderer start from the raw system string, as the copy does.
        systemTemplate: '{system_message}',
        systemMessage: this.system,
        roles: this.def.roles,
        messages: this.messages,
        sepStyle: this.def.sepStyle,
        sep: this.def.sep,
        sep2: this.def.sep2 ?? null
      },
      'ultrafeedback'
    )
  }

  /** Unlike FastChat, the system message is always first, empty or not, scaffolding tokens included. */
  toOpenAIApiMessages(): { messages: OpenAIMessage[]; warnings: FormatWarning[] } {
    const warnings: FormatWarning[] = []
    const messages: OpenAIMessage[] = [{ role: 'system', content: this.system }]
    if (this.system === '') {
      warnings.push({
        code: 'fastchat.openai_empty_system',
        message: 'UltraFeedback always emits the system message, even when it is empty.'
      })
    } else if (/<s>|<\|im_start\|>/.test(this.system)) {
      warnings.push({
        code: 'fastchat.openai_system_scaffolding',
        message:
          'The system message carries the template scaffolding (e.g. "<s>[INST] <<SYS>>" or "<|im_start|>system") into the OpenAI messages.'
      })
    }
    this.messages.forEach(([, msg], i) => {
      if (i % 2 === 0) messages.push({ role: 'user', content: msg })
      else if (msg !== null) messages.push({ role: 'assistant', content: msg })
    })
    return { messages, warnings }
  }

  info(): UltraFeedbackTemplateInfo {
    const d = this.def
    return {
      name: d.name,
      system: this.system,
      roles: [...d.roles],
      messages: [],
      offset: 0,
      sep_style: d.sepStyle,
      sep: d.sep,
      sep2: d.sep2 ?? null,
      stop_str: d.stopStr ?? null,
      stop_token_ids: d.stopTokenIds ? [...d.stopTokenIds] : null
    }
  }
}

export function listUltraFeedbackTemplates(): string[] {
  return Object.keys(ULTRAFEEDBACK_TEMPLATES)
}

/** `conv_template[key].copy()`, or `null` for a key UltraFeedback does not register. */
export function getUltraFeedbackTemplate(key: string): UltraFeedbackConversation | null {
  const def = Object.prototype.hasOwnProperty.call(ULTRAFEEDBACK_TEMPLATES, key)
    ? ULTRAFEEDBACK_TEMPLATES[key]
    : undefined
  return def ? new UltraFeedbackConversation(def) : null
}

/** UltraFeedback's model-type lookup in main.py: `conv_template[model_type.split('-')[0]]`. */
export function ultraFeedbackTemplateForModelType(modelType: string): UltraFeedbackConversation | null {
  return getUltraFeedbackTemplate(modelType.split('-')[0])
}
