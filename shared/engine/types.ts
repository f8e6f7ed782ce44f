// Public shapes of the OpenCompass/AISBench prompt engine: pipeline input, prompt lists with spans,
// rendered rows, warnings.
import type { EngineError, ErrorPlace } from './errors'
import type { Segment, SStr } from './spanned'

export type Family = 'opencompass' | 'aisbench'
export type ParserKind = 'lm' | 'api'
export type Mode = 'gen' | 'ppl'
export type Row = Record<string, unknown>

export interface PipelineInput {
  family: Family
  reader_cfg: { input_columns?: string[] | string; output_column?: string | null; train_range?: unknown; test_range?: unknown; [k: string]: unknown }
  infer_cfg: Record<string, unknown>
  train?: Row[]
  test: Row[]
  meta_template?: unknown
  parser: ParserKind
  mode: Mode
  max_seq_len?: number | null
  model_outputs?: string[][]
  /**
   * The retriever's result computed elsewhere (`retriever.retrieve()` of upstream, one list of train indices per
   * test row, dumped as JSON): used instead of running the retriever, for those that need model weights (TopK, MDL).
   */
  ice_idx?: { file: string; indices: unknown }
}

/** A quirk of upstream that the engine reproduces and points out. */
export interface EngineWarning {
  code: string
  message: string
  at: ErrorPlace
}

/** A str item of a PromptList. */
export interface PStr {
  t: 's'
  s: SStr
}
/** A dict item (role item or section marker); `p` carries the spans of a str `prompt`. */
export interface PDict {
  t: 'd'
  d: Record<string, unknown>
  p?: SStr
  /** The key `p` belongs to: 'prompt', or 'content' for RawPromptTemplate messages. */
  pk?: string
}
/** Anything else a config may put in a list (upstream crashes on most uses). */
export interface POther {
  t: 'o'
  v: unknown
}
export type PItem = PStr | PDict | POther
export type PromptList = PItem[]
/** What the dataset side produces: a str (SStr) or a PromptList. */
export type Prompt = SStr | PromptList

export function isPromptList(p: Prompt): p is PromptList {
  return Array.isArray(p)
}

/** One chat message as the API parser produces it: `prompt` is text with spans, or multimodal parts. */
export interface ApiMessage {
  role: unknown
  prompt: string | unknown
  segments?: Segment[]
}

/** A model input: the LM parser's string, or the API parser's message list (raw items kept as upstream has them). */
export type ModelInput =
  /** `segments` is left out when the row was rendered with `spans: false`. */
  | { kind: 'text'; text: string; segments?: Segment[] }
  | { kind: 'messages'; items: Array<ApiMessage | { raw: unknown }> }
  | { kind: 'parts'; parts: unknown }

export interface RenderedPrompt {
  /** Upstream JSON form of the PromptList (or str). Dicts that did not change are shared between rows: read-only. */
  json: unknown
  /** Segments when the prompt is a str; per item segments of str items and role prompts otherwise. */
  segments?: Segment[]
  itemSegments?: Array<Segment[] | null>
}

export interface RenderedItem {
  index: number
  label?: unknown
  /** AttackInferencer: the prompt of original_prompt_list this request carries. */
  advPrompt?: string
  /** ToTInferencer: the first request its prompt wrapper makes of the prompt (what the model parses instead). */
  request?: string
  promptList?: RenderedPrompt
  modelInput?: ModelInput
  /** Request messages: OC OpenAI / HF chat conversions, AIS VLLMCustomAPIChat. */
  openaiMessages?: unknown
  chatMessages?: unknown
  messages?: unknown
  turns?: Array<{ turn_id: number; modelInput?: ModelInput; messages?: unknown; error?: EngineError }>
  /** Train indices actually used after max_seq_len truncation. */
  iceIdx?: number[]
  error?: EngineError
}

export interface RenderedRow {
  index: number
  items: RenderedItem[]
  warnings: EngineWarning[]
  error?: EngineError
}

export type { EngineError, ErrorPlace }
