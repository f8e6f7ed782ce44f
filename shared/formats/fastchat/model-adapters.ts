// FastChat's `get_conversation_template(model_path)` (fastchat/model/model_adapter.py, lm-sys/FastChat@0e6d3e4b, and
// v0.2.36): the registered model adapters in registration order, each with its `match` and `get_default_conv_template`.
// OpenCompass's `fastchat_template=NAME` option goes through this, so NAME is matched as a model path
// ('vicuna' → vicuna_v1.1, 'qwen' → qwen-7b-chat, anything unmatched → one_shot).
import { PyError } from '../../python/errors'
import type { RegistryVersion } from './registry'

type Adapter = readonly [name: string, match: (path: string) => boolean, template: (path: string) => string]

const lower = (p: string): string => p.toLowerCase()
const has =
  (...words: string[]) =>
  (p: string): boolean =>
    words.some((w) => lower(p).includes(w))
const fixed = (t: string) => (): string => t

/** `remove_parent_directory_name`: the last path component (one trailing "/" ignored). */
function lastComponent(p: string): string {
  const q = p.endsWith('/') ? p.slice(0, -1) : p
  return q.split('/').pop() ?? q
}

const ANTHROPIC = [
  'claude-1',
  'claude-2',
  'claude-2.0',
  'claude-2.1',
  'claude-3-haiku-20240307',
  'claude-3-haiku-20240307-vertex',
  'claude-3-sonnet-20240229',
  'claude-3-sonnet-20240229-vertex',
  'claude-3-5-sonnet-20240620',
  'claude-3-opus-20240229',
  'claude-instant-1',
  'claude-instant-1.2'
]
const OPENAI = [
  'gpt-3.5-turbo',
  'gpt-3.5-turbo-0301',
  'gpt-3.5-turbo-0613',
  'gpt-3.5-turbo-1106',
  'gpt-3.5-turbo-0125',
  'gpt-4',
  'gpt-4-0314',
  'gpt-4-0613',
  'gpt-4-turbo',
  'gpt-4-1106-preview',
  'gpt-4-0125-preview',
  'gpt-4-turbo-browsing',
  'gpt-4-turbo-2024-04-09',
  'gpt2-chatbot',
  'im-also-a-good-gpt2-chatbot',
  'im-a-good-gpt2-chatbot',
  'gpt-4o-mini-2024-07-18',
  'gpt-4o-2024-05-13',
  'gpt-4o-2024-08-06',
  'chatgpt-4o-latest-20240903',
  'chatgpt-4o-latest',
  'o1-preview',
  'o1-mini'
]

const firstOf = (p: string, cases: Array<[string, string]>, dflt: string): string =>
  cases.find(([k]) => p.includes(k))?.[1] ?? dflt

const ADAPTERS: Adapter[] = [
  // PeftModelAdapter reads the base model from adapter_config.json; there is no model folder here.
  [
    'PeftModelAdapter',
    has('peft'),
    () => {
      throw new PyError('ValueError', 'PeftModelAdapter needs the adapter_config.json of a PEFT model folder')
    }
  ],
  ['StableVicunaAdapter', has('stable-vicuna'), fixed('stable-vicuna')],
  ['VicunaAdapter', has('vicuna'), (p) => (lastComponent(p).includes('v0') ? 'one_shot' : 'vicuna_v1.1')],
  [
    'AiroborosAdapter',
    (p) => /airoboros|spicyboros/i.test(p),
    (p) =>
      p.includes('-3.') || p.includes('-3p')
        ? 'airoboros_v3'
        : p.includes('spicyboros') || /-(2\.[2-9]+)/.test(p)
          ? 'airoboros_v2'
          : 'airoboros_v1'
  ],
  ['LongChatAdapter', has('longchat'), fixed('vicuna_v1.1')],
  ['GoogleT5Adapter', has('flan-', 'fastchat-t5', 'codet5p'), fixed('one_shot')],
  ['KoalaAdapter', has('koala'), fixed('koala_v1')],
  ['AlpacaAdapter', has('alpaca'), fixed('alpaca')],
  [
    'ChatGLMAdapter',
    has('chatglm'),
    (p) => (lower(p).includes('chatglm2') ? 'chatglm2' : lower(p).includes('chatglm3') ? 'chatglm3' : 'chatglm')
  ],
  ['CodeGeexAdapter', has('codegeex'), fixed('codegeex')],
  ['DollyV2Adapter', has('dolly-v2'), fixed('dolly_v2')],
  ['OasstPythiaAdapter', (p) => lower(p).includes('oasst') && lower(p).includes('pythia'), fixed('oasst_pythia')],
  [
    'OasstLLaMAAdapter',
    (p) =>
      lower(p).includes('openassistant-sft-7-llama-30b-hf') ||
      (lower(p).includes('oasst') && !lower(p).includes('pythia')),
    fixed('oasst_llama')
  ],
  [
    'OpenChat35Adapter',
    (p) => (lower(p).includes('openchat') && lower(p).includes('3.5')) || lower(p).includes('starling-lm'),
    fixed('openchat_3.5')
  ],
  ['TenyxChatAdapter', has('tenyxchat'), fixed('tenyxchat')],
  ['StableLMAdapter', has('stablelm'), fixed('stablelm')],
  ['BaizeAdapter', has('baize'), fixed('baize')],
  ['RwkvAdapter', has('rwkv-4'), fixed('rwkv')],
  ['OpenBuddyAdapter', has('openbuddy'), fixed('openbuddy')],
  ['PhoenixAdapter', has('phoenix'), fixed('phoenix')],
  ['BardAdapter', (p) => p === 'bard', fixed('bard')],
  ['PaLM2Adapter', (p) => p === 'palm-2', fixed('bard')],
  ['GeminiAdapter', has('gemini', 'bard'), (p) => (p.includes('gemini-1.5-pro') ? 'gemini-1.5-pro' : 'gemini')],
  ['GemmaAdapter', has('gemma'), fixed('gemma')],
  [
    'ChatGPTAdapter',
    (p) => OPENAI.includes(p),
    (p) =>
      firstOf(
        p,
        [
          ['browsing', 'api_based_default'],
          ['gpt-4-turbo-2024-04-09', 'gpt-4-turbo-2024-04-09'],
          ['gpt2-chatbot', 'gpt-4-turbo-2024-04-09'],
          ['gpt-4o-2024-05-13', 'gpt-4-turbo-2024-04-09'],
          ['gpt-4o-2024-08-06', 'gpt-mini'],
          ['anonymous-chatbot', 'gpt-4-turbo-2024-04-09'],
          ['chatgpt-4o-latest', 'gpt-4-turbo-2024-04-09'],
          ['gpt-mini', 'gpt-mini'],
          ['gpt-4o-mini-2024-07-18', 'gpt-mini'],
          ['o1', 'api_based_default']
        ],
        'chatgpt'
      )
  ],
  ['AzureOpenAIAdapter', (p) => p === 'azure-gpt-35-turbo' || p === 'azure-gpt-4', fixed('chatgpt')],
  [
    'ClaudeAdapter',
    (p) => ANTHROPIC.includes(p),
    (p) =>
      firstOf(
        p,
        [
          ['claude-3-haiku', 'claude-3-haiku-20240307'],
          ['claude-3-sonnet', 'claude-3-sonnet-20240229'],
          ['claude-3-5-sonnet', 'claude-3-5-sonnet-20240620-v2'],
          ['claude-3-opus', 'claude-3-opus-20240229']
        ],
        'claude'
      )
  ],
  [
    'MPTAdapter',
    (p) => lower(p).includes('mpt') && !lower(p).includes('airoboros'),
    (p) =>
      firstOf(
        lower(p),
        [
          ['mpt-7b-chat', 'mpt-7b-chat'],
          ['mpt-30b-chat', 'mpt-30b-chat'],
          ['mpt-30b-instruct', 'mpt-30b-instruct']
        ],
        'zero_shot'
      )
  ],
  ['BiLLaAdapter', has('billa'), fixed('billa')],
  ['RedPajamaINCITEAdapter', has('redpajama-incite'), fixed('redpajama-incite')],
  ['H2OGPTAdapter', has('h2ogpt'), fixed('h2ogpt')],
  ['RobinAdapter', has('robin'), fixed('Robin')],
  ['SnoozyAdapter', (p) => lower(p).includes('gpt4all') && lower(p).includes('snoozy'), fixed('snoozy')],
  [
    'WizardLMAdapter',
    has('wizardlm'),
    (p) => (['13b', '30b', '70b'].some((s) => lower(p).includes(s)) ? 'vicuna_v1.1' : 'one_shot')
  ],
  ['ManticoreAdapter', has('manticore'), fixed('manticore')],
  ['GuanacoAdapter', has('guanaco'), fixed('zero_shot')],
  ['CamelAdapter', has('camel'), fixed('vicuna_v1.1')],
  ['ChangGPTAdapter', (p) => lower(p).includes('polyglot') && lower(p).includes('chang'), fixed('polyglot_changgpt')],
  ['TuluAdapter', has('tulu'), fixed('tulu')],
  ['FalconChatAdapter', (p) => lower(p).includes('falcon') && lower(p).includes('chat'), fixed('falcon-chat')],
  ['FalconAdapter', (p) => lower(p).includes('falcon') && !lower(p).includes('chat'), fixed('falcon')],
  ['TigerBotAdapter', has('tigerbot'), fixed('tigerbot')],
  [
    'BaichuanAdapter',
    has('baichuan'),
    (p) =>
      lower(p).includes('chat') ? (lower(p).includes('baichuan2') ? 'baichuan2-chat' : 'baichuan-chat') : 'zero_shot'
  ],
  ['XGenAdapter', has('xgen'), fixed('xgen')],
  ['PythiaAdapter', has('pythia'), fixed('one_shot')],
  ['InternLMChatAdapter', has('internlm'), fixed('internlm-chat')],
  ['StarChatAdapter', has('starchat'), fixed('starchat')],
  ['Llama2Adapter', has('llama-2'), fixed('llama-2')],
  ['CuteGPTAdapter', has('cutegpt'), fixed('cutegpt')],
  [
    'OpenOrcaAdapter',
    has('mistral-7b-openorca', 'openorca'),
    (p) => (lower(p).includes('mistral-7b-openorca') ? 'mistral-7b-openorca' : 'open-orca')
  ],
  [
    'DolphinAdapter',
    (p) => lower(p).includes('dolphin') && lower(p).includes('mistral'),
    fixed('dolphin-2.2.1-mistral-7b')
  ],
  ['Hermes2Adapter', has('openhermes-2.5-mistral-7b', 'openhermes-2-mistral-7b'), fixed('OpenHermes-2.5-Mistral-7B')],
  [
    'NousHermes2MixtralAdapter',
    has('nous-hermes-2-mixtral-8x7b-dpo', 'nous-hermes-2-mixtral-8x7b-sft'),
    fixed('Nous-Hermes-2-Mixtral-8x7B-DPO')
  ],
  ['NousHermesAdapter', has('nous-hermes'), fixed('alpaca')],
  ['MistralAdapter', has('mistral', 'mixtral'), fixed('mistral')],
  ['WizardCoderAdapter', has('wizardcoder'), fixed('alpaca')],
  ['QwenChatAdapter', has('qwen'), fixed('qwen-7b-chat')],
  [
    'AquilaChatAdapter',
    has('aquila'),
    (p) => {
      const l = lower(p)
      if (!l.includes('aquilachat2')) return 'aquila-chat'
      return l.includes('16k') ? 'aquila' : l.includes('34b') ? 'aquila-legacy' : 'aquila-v1'
    }
  ],
  ['BGEAdapter', has('bge'), fixed('one_shot')],
  ['E5Adapter', has('e5-'), fixed('one_shot')],
  ['Lamma2ChineseAdapter', has('llama2-chinese'), fixed('llama2-chinese')],
  ['Lamma2ChineseAlpacaAdapter', has('chinese-alpaca'), fixed('chinese-alpaca2')],
  [
    'VigogneAdapter',
    (p) => /vigogne|vigostral/i.test(p),
    (p) =>
      lower(p).includes('chat')
        ? lower(p).includes('vigostral')
          ? 'vigogne_chat_v3'
          : 'vigogne_chat_v2'
        : 'vigogne_instruct'
  ],
  [
    'OpenLLaMaOpenInstructAdapter',
    (p) => lower(p).includes('open-llama') && lower(p).includes('open-instruct'),
    fixed('alpaca')
  ],
  ['ReaLMAdapter', (p) => p.includes('ReaLM'), fixed('ReaLM-7b-v1')],
  ['PhindCodeLlamaAdapter', has('phind-codellama-'), fixed('phind')],
  ['CodeLlamaAdapter', has('codellama'), fixed('llama-2')],
  ['Llama2ChangAdapter', has('llama2-ko-chang'), fixed('polyglot_changgpt')],
  ['ZephyrAdapter', has('zephyr'), fixed('zephyr')],
  ['NotusAdapter', has('notus'), fixed('zephyr')],
  ['CatPPTAdapter', has('catppt'), fixed('catppt')],
  ['TinyLlamaAdapter', has('tinyllama'), fixed('TinyLlama')],
  ['XwinLMAdapter', has('xwin-lm'), fixed('vicuna_v1.1')],
  ['LemurAdapter', has('lemur-70b-chat'), fixed('lemur-70b-chat')],
  ['PygmalionAdapter', (p) => /pygmalion|mythalion|metharme/i.test(p), fixed('metharme')],
  ['MicrosoftOrcaAdapter', has('orca-2'), fixed('orca-2')],
  ['XdanAdapter', (p) => lower(p).includes('xdan') && lower(p).includes('v1'), fixed('xdan-v1')],
  ['YiAdapter', (p) => lower(p).includes('yi-') && lower(p).includes('chat'), fixed('Yi-34b-chat')],
  ['PplxAIAdapter', (p) => p === 'pplx-7b-online' || p === 'pplx-70b-online', fixed('pplxai')],
  ['DeepseekCoderAdapter', has('deepseek-coder'), fixed('deepseek-coder')],
  [
    'DeepseekChatAdapter',
    (p) => lower(p).includes('deepseek-llm') && lower(p).includes('chat'),
    fixed('deepseek-chat')
  ],
  ['Yuan2Adapter', has('yuan2'), fixed('yuan2')],
  ['MetaMathAdapter', has('metamath'), fixed('metamath')],
  ['BagelAdapter', has('bagel'), fixed('airoboros_v3')],
  ['SolarAdapter', (p) => lower(p).includes('solar-') && lower(p).includes('instruct'), fixed('solar')],
  ['SteerLMAdapter', has('steerlm-chat'), fixed('steerlm')],
  ['LlavaAdapter', has('llava'), (p) => (lower(p).includes('34b') ? 'llava-chatml' : 'vicuna_v1.1')],
  ['YuanAdapter', has('yuan'), fixed('yuan')],
  ['OlmoAdapter', has('olmo'), fixed('api_based_default')],
  ['CohereAdapter', (p) => p === 'command-r', fixed('api_based_default')],
  ['DBRXAdapter', (p) => p === 'dbrx-instruct', fixed('api_based_default')],
  ['GemmaAdapter', has('gemma'), fixed('gemma')],
  ['YandexGPTAdapter', has('yandexgpt'), fixed('yandexgpt')],
  ['CllmAdapter', has('consistency-llm'), fixed('cllm')],
  ['RekaAdapter', has('reka'), fixed('api_based_default')],
  ['SmaugChatAdapter', has('smaug'), fixed('qwen-7b-chat')],
  ['Llama3Adapter', has('llama-3-'), fixed('llama-3')],
  [
    'Llama31Adapter',
    has('llama-3.1'),
    (p) =>
      ['llama-3.1-8b-instruct', 'llama-3.1-70b-instruct', 'the-real-chatbot-v2'].includes(lower(p))
        ? 'meta-llama-3.1-sp'
        : 'meta-llama-3.1'
  ],
  ['GrokAdapter', has('grok'), (p) => (lower(p).includes('mini') ? 'grok-2-mini' : 'grok-2')],
  ['NoSystemAdapter', (p) => ['athene-70b', 'p2l'].includes(lower(p)), fixed('api_based_default')],
  ['BaseModelAdapter', () => true, fixed('one_shot')]
]

/**
 * v0.2.36 registers the same adapters in the same order, less the twelve added since; four adapters there give their
 * plain template (HEAD added branches for newer API models and LLaVA-34B), and its OpenAI and Anthropic model lists
 * stop before the gpt-4-turbo-browsing and claude-3 names.
 */
const ADDED_AFTER_V0236: ReadonlySet<string> = new Set([
  'GemmaAdapter',
  'OlmoAdapter',
  'CohereAdapter',
  'DBRXAdapter',
  'YandexGPTAdapter',
  'CllmAdapter',
  'RekaAdapter',
  'SmaugChatAdapter',
  'Llama3Adapter',
  'Llama31Adapter',
  'GrokAdapter',
  'NoSystemAdapter'
])
const V0236_TEMPLATE: Readonly<Record<string, string>> = { ChatGPTAdapter: 'chatgpt', ClaudeAdapter: 'claude', GeminiAdapter: 'gemini', LlavaAdapter: 'vicuna_v1.1' }
const V0236_MODELS: Readonly<Record<string, readonly string[]>> = {
  ChatGPTAdapter: OPENAI.slice(0, OPENAI.indexOf('gpt-4-turbo-browsing')),
  ClaudeAdapter: ANTHROPIC.filter((m) => !m.startsWith('claude-3'))
}
const ADAPTERS_V0236: Adapter[] = ADAPTERS.filter(([name]) => !ADDED_AFTER_V0236.has(name)).map(([name, match, template]) => [
  name,
  V0236_MODELS[name] ? (p: string) => V0236_MODELS[name].includes(p) : match,
  V0236_TEMPLATE[name] ? fixed(V0236_TEMPLATE[name]) : template
])

/** `os.path.basename(os.path.normpath(path))` for the POSIX paths FastChat sees. */
function basename(p: string): string {
  const parts = p.split('/').filter((x) => x !== '' && x !== '.')
  return parts.length ? parts[parts.length - 1] : p.startsWith('/') ? '/' : '.'
}

/** The adapter `get_model_adapter(model_path)` picks and the conversation template name it gives, in that FastChat. */
export function conversationTemplateForModel(modelPath: string, version: RegistryVersion = 'head'): { adapter: string; template: string } {
  const adapters = version === 'head' ? ADAPTERS : ADAPTERS_V0236
  const base = basename(modelPath)
  // The basename first (skipping the catch-all), then the full path.
  const hit =
    adapters.find(([name, match]) => name !== 'BaseModelAdapter' && match(base)) ??
    adapters.find(([, match]) => match(modelPath))!
  return { adapter: hit[0], template: hit[2](modelPath) }
}
