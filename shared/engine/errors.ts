// Upstream exceptions as data. Engine internals raise PyRaise (mirroring where Python raises); the public
// API catches it at its boundary and returns an EngineError naming the stage, the place and the upstream text.
import { PyError } from '../python/errors'
import type { Family } from './types'

export type Stage =
  | 'dataset'
  | 'model'
  | 'template'
  | 'retriever'
  | 'inferencer'
  | 'retrieve'
  | 'labels'
  | 'ice'
  | 'prompt'
  | 'parse'
  | 'messages'
  | 'internal'

/** Where an error happened: template path, test row, field, label, example, turn. */
export interface ErrorPlace {
  path?: string
  row?: number
  field?: string
  label?: unknown
  ice?: number
  turn?: number
}

export interface EngineError {
  /** AIS error code (e.g. MODEL-DATA-002) or the Python exception class (KeyError). */
  code: string
  /** Exactly what upstream prints: "KeyError: 'SYSTEM'", "AISBenchValueError: [ICLR-PARAM-001]…". */
  message: string
  stage: Stage
  at: ErrorPlace
  /** The upstream exception class. */
  upstream: string
}

/** An upstream exception in flight inside the engine: shared/python's PyError with the stage and place it came from. */
export class PyRaise extends PyError {
  constructor(
    pyClass: string,
    message: string,
    public stage: Stage,
    public at: ErrorPlace = {},
    aisCode?: string
  ) {
    // str() of an AISBench*Error starts with its code in brackets.
    super(pyClass, aisCode ? `[${aisCode}]${message}` : message, { code: aisCode })
  }
}

const AIS_DESCRIPTIONS: Record<string, string> = {
  'ICLR-PARAM-001': 'ice token not in value of template',
  'ICLR-PARAM-002': 'ice template not set',
  'ICLR-PARAM-004': 'fix-k retriever index out of range',
  'ICLR-IMPL-002': 'ice token not provided',
  'ICLR-IMPL-003': 'template not provided',
  'ICLR-TYPE-001': 'template type error',
  'ICLR-TYPE-002': 'template type error',
  'ICLI-PARAM-002': 'invalid infer mode',
  'MODEL-PARAM-002': 'invalid role in prompt template',
  'MODEL-PARAM-004': 'miss required param in meta template',
  'MODEL-PARAM-005': 'role in meta template is not unique',
  'MODEL-DATA-002': 'invalid prompt content',
  'MODEL-TYPE-003': 'invalid mode in prompt template',
  'MODEL-TYPE-004': 'invalid type of param in meta template',
  'MODEL-TYPE-005': 'mix str without explicit role',
  'MODEL-UNK-001': 'unknown error of model',
  'UTILS-TYPE-001': 'invalid type'
}

const AIS_FAQ = 'https://ais-bench-benchmark.readthedocs.io/zh-cn/latest/faqs/error_codes.html#'

/** An AISBench exception: `AISBenchValueError: [CODE]description. message | Visit … for further help.` (ANSI colours left out). */
export function aisRaise(cls: string, code: string, msg: string, stage: Stage, at: ErrorPlace = {}): PyRaise {
  const desc = AIS_DESCRIPTIONS[code] ?? 'error'
  const faq = code.endsWith('UNK-001') ? '' : ` | Visit ${AIS_FAQ}${code.toLowerCase()} for further help.`
  return new PyRaise(cls, `${desc}. ${msg}${faq}`, stage, at, code)
}

/** Raises the OC exception, or the AIS one when the family is AISBench and upstream uses its own class there. */
export function familyRaise(
  family: Family,
  oc: [string, string],
  ais: [string, string, string] | null,
  stage: Stage,
  at: ErrorPlace = {}
): PyRaise {
  if (family === 'aisbench' && ais) return aisRaise(ais[0], ais[1], ais[2], stage, at)
  return new PyRaise(oc[0], oc[1], stage, at)
}

export function toEngineError(e: unknown, fallbackStage: Stage, at: ErrorPlace = {}): EngineError {
  if (e instanceof PyRaise) {
    return { code: e.code ?? e.pyClass, message: e.pyMessage, stage: e.stage, at: { ...at, ...e.at }, upstream: e.pyClass }
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return { code: 'RecursionError', message: 'RecursionError: maximum recursion depth exceeded', stage: fallbackStage, at, upstream: 'RecursionError' }
  }
  const msg = e instanceof Error ? e.message : String(e)
  return { code: 'InternalError', message: `InternalError: ${msg}`, stage: 'internal', at, upstream: 'InternalError' }
}

export function isEngineError(v: unknown): v is EngineError {
  return !!v && typeof v === 'object' && 'code' in v && 'message' in v && 'stage' in v && 'upstream' in v
}
