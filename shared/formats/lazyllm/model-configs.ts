// Per-model prompt tokens: LazyLLM's `model_groups` (lazyllm/components/utils/downloader/model_mapping.py at the
// pinned commit) and the name lookup `ModelManager.get_model_prompt_keys` does, so a prompter can be rendered the
// way `TrainableModule(<model>).prompt(...)` would.

/** The keys `_set_model_configs` accepts. The last four are accepted and then ignored. */
export const MODEL_CONFIG_KEYS = [
  'system',
  'sos',
  'soh',
  'soa',
  'eos',
  'eoh',
  'eoa',
  'soe',
  'eoe',
  'tool_start_token',
  'tool_end_token',
  'tool_args_token',
  'separator',
  'plugin',
  'interpreter',
  'stop_words'
] as const

export type ModelConfigKey = (typeof MODEL_CONFIG_KEYS)[number]
export type ModelConfigs = Partial<Record<ModelConfigKey, string | string[] | null>>

const INTERNLM_SYSTEM =
  'You are an AI assistant whose name is InternLM (书生·浦语).\n- InternLM (书生·浦语) is a conversational language model that is developed by Shanghai AI Laboratory (上海人工智能实验室). It is designed to be helpful, honest, and harmless.\n- InternLM (书生·浦语) can understand and communicate fluently in the language chosen by the user such as English and 中文.'

const IM_TOKENS = {
  sos: '<|im_start|>system\n',
  soh: '<|im_start|>user\n',
  soa: '<|im_start|>assistant\n',
  soe: '<|im_start|>environment\n',
  eos: '<|im_end|>\n',
  eoh: '<|im_end|>\n',
  eoa: '<|im_end|>',
  eoe: '<|im_end|>\n',
  separator: '\n',
  stop_words: ['<|im_end|>']
}

/** InternLM2's and SenseChat's: the ChatML tokens plus the same plugin, interpreter and tool-call tokens. */
const IM_TOOL_TOKENS = {
  ...IM_TOKENS,
  plugin: '<|plugin|>',
  interpreter: '<|interpreter|>',
  tool_start_token: '<|function|>',
  tool_end_token: '<|action_end|>',
  tool_args_token: '<|args|>'
}

const LLAMA3_TOKENS = {
  sos: '<|start_header_id|>system<|end_header_id|>\n\n',
  soh: '<|start_header_id|>user<|end_header_id|>\n\n',
  soa: '<|start_header_id|>assistant<|end_header_id|>\n\n',
  eos: '<|eot_id|>',
  eoh: '<|eot_id|>',
  eoa: '<|eot_id|>'
}

/** `model_groups[group]['prompt_keys']`, key order as upstream writes it. */
export const MODEL_GROUPS: Readonly<Record<string, ModelConfigs>> = {
  'meta-llama-3': { ...LLAMA3_TOKENS, stop_words: ['<|eot_id|>', '<|end_of_text|>'] },
  'llama-2': {
    sos: '[INST] <<SYS>>\n',
    soa: ' [/INST] ',
    eos: '\n<</SYS>>\n\n',
    eoa: '</s>',
    separator: '<s>[INST] ',
    system:
      '\nYou are a helpful, respectful and honest assistant. Always answer as helpfully as possible, while being safe. Your answers should not include any harmful, unethical, racist, sexist, toxic, dangerous, or illegal content. Please ensure that your responses are socially unbiased and positive in nature.\n\n' +
      "If a question does not make any sense, or is not factually coherent, explain why instead of answering something not correct. If you don't know the answer to a question, please don't share false information."
  },
  qwen: {
    ...IM_TOKENS,
    tool_start_token: '<|action_start|><|function|>',
    tool_end_token: '<|action_end|>',
    tool_args_token: '<|args|>',
    system: 'You are a helpful assistant.'
  },
  'deepseek-r1-distill-qwen': {
    ...IM_TOKENS,
    soa: '<|im_start|>assistant\n\n<think>',
    tool_start_token: '<|action_start|><|function|>',
    tool_end_token: '<|action_end|>',
    tool_args_token: '<|args|>',
    system: 'You are a helpful assistant.'
  },
  'deepseek-r1-distill-llama': {
    ...LLAMA3_TOKENS,
    soa: '<|start_header_id|>assistant<|end_header_id|>\n\n<think>',
    stop_words: ['<|eot_id|>', '<|end_of_text|>', '<|eom_id|>'],
    system: 'You are a helpful assistant.'
  },
  deepseek: {
    sos: '<｜begin▁of▁sentence｜>',
    soh: '<｜User｜>',
    soa: '<｜Assistant｜>',
    eos: '',
    eoh: '',
    eoa: '<｜end▁of▁sentence｜>',
    stop_words: ['<｜end▁of▁sentence｜>'],
    system: ''
  },
  internlm: {
    sos: '<|System|>:',
    soh: '<|User|>:',
    soa: '<|Bot|>:',
    eos: '\n',
    eoh: '\n',
    eoa: '<eoa>',
    separator: '\n',
    stop_words: ['<eoa>'],
    system: INTERNLM_SYSTEM
  },
  internlm2: {
    ...IM_TOOL_TOKENS,
    system: INTERNLM_SYSTEM
  },
  sensechat: {
    ...IM_TOOL_TOKENS,
    system:
      'You are an AI assistant whose name is SenseChat.\n- SenseChat is a conversational language model that is developed by SenseTime. It is designed to be helpful, honest, and harmless.\n- SenseChat can understand and communicate fluently in the language chosen by the user such as English and 中文.'
  },
  'internlm-xcomposer2': {
    sos: '[UNUSED_TOKEN_146]system\n',
    soh: '[UNUSED_TOKEN_146]user\n',
    soa: '[UNUSED_TOKEN_146]assistant\n',
    eos: '[UNUSED_TOKEN_145]\n',
    eoh: '[UNUSED_TOKEN_145]\n',
    eoa: '[UNUSED_TOKEN_145]\n',
    separator: '\n',
    stop_words: ['[UNUSED_TOKEN_145]'],
    system:
      'You are an AI assistant whose name is InternLM-XComposer (浦语·灵笔).\n- InternLM-XComposer (浦语·灵笔) is a multi-modality conversational language model that is developed by Shanghai AI Laboratory (上海人工智能实验室). It is designed to be helpful, honest, and harmless.\n' +
      '- InternLM-XComposer (浦语·灵笔) can understand and communicate fluently in the language chosen by the user such as English and 中文.\n- InternLM-XComposer (浦语·灵笔) is capable of comprehending and articulating responses effectively based on the provided image.'
  },
  'internlm-xcomposer': {},
  codellama: {},
  baichuan: {},
  baichuan2: { soh: '<reserved_106>', soa: '<reserved_107>' },
  chatglm3: {
    sos: '<|system|>\n',
    soh: '<|user|>\n',
    soa: '<|assistant|>\n',
    plugin: '<|observation|>\n',
    stop_words: ['<|user|>', '<|observation|>']
  },
  'glm-4': {
    sos: '<|system|>\n',
    soh: '<|user|>\n',
    soa: '<|assistant|>\n',
    soe: '<|observation|>\n',
    eoe: '\n',
    plugin: '<|observation|>\n',
    stop_words: ['<|user|>', '<|observation|>'],
    tool_start_token: '✿FUNCTION✿: ',
    tool_args_token: '✿ARGS✿: ',
    tool_end_token: '\n'
  }
}

/** `model_provider` keys: a name the mapping does not list must start with one of these to get a group. */
const PROVIDER_PREFIXES = [
  'baichuan',
  'chatglm',
  'glm',
  'codellama',
  'llama',
  'meta-llama',
  'internlm',
  'sensechat',
  'internvl',
  'qwen',
  'deepseek'
]

/**
 * The `model_groups` key a model name falls into, the way `_try_add_mapping` picks it: the (lower-cased, path-less)
 * name must start with a known provider prefix, then the longest group key contained in the name wins.
 * Returns null for names LazyLLM would give no prompt keys.
 */
export function modelGroupFor(modelName: string): string | null {
  const name = (modelName.split('/').pop() ?? modelName).toLowerCase()
  if (Object.prototype.hasOwnProperty.call(MODEL_GROUPS, name)) return name
  if (!PROVIDER_PREFIXES.some((p) => name.startsWith(p))) return null
  let best: string | null = null
  for (const key of Object.keys(MODEL_GROUPS)) {
    if (name.includes(key) && (best === null || key.length > best.length)) best = key
  }
  return best
}

/** `ModelManager.get_model_prompt_keys(model)`: a copy of the group's prompt keys, or `{}`. */
export function getModelPromptKeys(modelName: string): ModelConfigs {
  const group = modelGroupFor(modelName)
  if (!group) return {}
  return Object.fromEntries(Object.entries(MODEL_GROUPS[group]).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]))
}
