// In-context example retrieval for the OpenCompass/AISBench engine: given a retriever config dict (with its
// `type` as a class-name string) and the train/test rows, return the train indices each test row gets, in
// upstream order and before any max_seq_len truncation. Errors are data carrying upstream's exception text and
// the stage upstream raises them in ('retriever' = constructor, 'retrieve' = retrieve()).

import { aisErrorText } from './ais-error'
import { Bm25Okapi } from './bm25'
import { numpyArgsort } from './numpy-argsort'
import { x86SimdArgsort } from './x86-simd-argsort'
import { LegacyRandomState } from './numpy-random'
import { jsonRuntime, pyRepr, pyStr } from '../../python/json'
import { PyError } from '../../python/errors'
import { nltkWordTokenize } from './word-tokenize'

export type Row = Record<string, unknown>
export type Family = 'opencompass' | 'aisbench'

export interface RetrieveContext {
  train: Row[]
  test: Row[]
  inputColumns: string[]
  outputColumn: string | null
  family: Family
}

export interface RetrieveError {
  /** Python exception class for OpenCompass (e.g. 'AssertionError'), the AIS error code for AISBench errors. */
  code: string
  /** `"<ExceptionClass>: <str(exc)>"`, as the goldens' `expected.error` holds it (ANSI colours kept for AIS). */
  message: string
  stage: 'retriever' | 'retrieve'
}

/** A test row's note from the retriever: something upstream decides in a way PromptLoom can only follow on one machine. */
export interface RetrieveNote {
  row: number
  code: string
  message: string
}
export type RetrieveResult = { ok: true; indices: number[][]; notes?: RetrieveNote[] } | { ok: false; error: RetrieveError }

export { nltkWordTokenize } from './word-tokenize'
export { Bm25Okapi } from './bm25'
export { numpyArgsort } from './numpy-argsort'
export { x86SimdArgsort } from './x86-simd-argsort'
export { LegacyRandomState } from './numpy-random'

const COMMON = ['ice_separator', 'ice_eos_token', 'ice_num']
const AIS_TEMPLATES = ['ice_template', 'prompt_template']

/** Constructor keyword arguments each retriever accepts, per family; `null` = not available in that family. */
const PARAMS: Record<string, Record<Family, string[] | null>> = {
  ZeroRetriever: { opencompass: ['ice_eos_token'], aisbench: ['ice_separator', 'ice_eos_token', ...AIS_TEMPLATES] },
  FixKRetriever: {
    opencompass: ['fix_id_list', ...COMMON],
    aisbench: ['fix_id_list', ...AIS_TEMPLATES, ...COMMON]
  },
  RandomRetriever: { opencompass: [...COMMON, 'seed'], aisbench: [...AIS_TEMPLATES, ...COMMON, 'seed'] },
  SlidingWindowRetriever: { opencompass: ['k', ...COMMON], aisbench: null },
  BM25Retriever: { opencompass: [...COMMON], aisbench: null },
  // opencompass/datasets/xiezhi.py: configs pass the class itself (it is not in the registry).
  XiezhiRetriever: { opencompass: [...COMMON], aisbench: null }
}
/** Upstream retrievers that rank with embedding models; out of reach without Python and weights. */
const NEEDS_MODELS = ['TopkRetriever', 'TopKRetriever', 'VotekRetriever', 'DPPRetriever', 'MDLRetriever', 'MMRRetriever']
const REQUIRED: Record<string, string[]> = { FixKRetriever: ['fix_id_list'], SlidingWindowRetriever: ['k'] }

const fail = (code: string, message: string, stage: RetrieveError['stage']): RetrieveResult => ({
  ok: false,
  error: { code, message, stage }
})
const pyError = (cls: string, text: string, stage: RetrieveError['stage']): RetrieveResult =>
  fail(cls, `${cls}: ${text}`, stage)

/** Python `seq[:stop]` for an int stop (negative counts from the end). */
function pySliceTo<T>(seq: T[], stop: number): T[] {
  return seq.slice(0, stop < 0 ? Math.max(0, seq.length + stop) : stop)
}

/** Python `list(range(start, stop))`. */
function pyRange(start: number, stop: number): number[] {
  const out: number[] = []
  for (let i = start; i < stop; i++) out.push(i)
  return out
}

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v)
}

/**
 * What a model-ranked retriever needs, named from its config (the defaults are TopkRetriever's and MDLRetriever's
 * in opencompass/openicl/icl_retriever): the examples of every row depend on those weights, so none is shown.
 */
function needsModelsMessage(type: string, cfg: Record<string, unknown>): string {
  const st = typeof cfg.sentence_transformers_model_name === 'string' ? cfg.sentence_transformers_model_name : 'all-mpnet-base-v2'
  const tok = typeof cfg.tokenizer_name === 'string' ? cfg.tokenizer_name : 'gpt2-xl'
  const base = `${type} ranks the train rows by the embeddings of the sentence-transformers model '${st}' (inputs cut with the '${tok}' tokenizer) and a faiss nearest-neighbour search`
  const extra =
    type === 'MDLRetriever'
      ? `, then scores ${pyStr(cfg.candidate_num ?? 1)} candidate example sets ${pyStr(cfg.select_time ?? 5)} times with the language model '${typeof cfg.ce_model_name === 'string' ? cfg.ce_model_name : 'gpt2-xl'}'`
      : type === 'VotekRetriever' || type === 'DPPRetriever' || type === 'MMRRetriever'
        ? ', then selects among them with scores computed from those embeddings'
        : ''
  return `${base}${extra}: the examples of every row depend on those model weights, which PromptLoom does not run, so no row can be rendered with the examples upstream would pick`
}

/** Checks constructor arguments the way Python's call machinery would, before any retriever code runs. */
function checkArguments(type: string, cfg: Record<string, unknown>, family: Family): RetrieveResult | null {
  if (NEEDS_MODELS.includes(type)) return fail('UnsupportedRetriever', needsModelsMessage(type, cfg), 'retriever')
  const accepted = PARAMS[type]?.[family]
  if (!accepted) {
    // The gist of mmengine's Registry.build error for an unregistered type.
    return fail('KeyError', `KeyError: '${type} is not in the icl_retriever registry'`, 'retriever')
  }
  for (const key of Object.keys(cfg)) {
    if (key === 'type') continue
    if (!accepted.includes(key)) {
      return pyError('TypeError', `${type}.__init__() got an unexpected keyword argument ${pyRepr(key)}`, 'retriever')
    }
  }
  const missing = (REQUIRED[type] ?? []).filter((k) => !(k in cfg))
  if (missing.length === 1) {
    return pyError('TypeError', `${type}.__init__() missing 1 required positional argument: '${missing[0]}'`, 'retriever')
  }
  return null
}

function fixK(cfg: Record<string, unknown>, ctx: RetrieveContext): RetrieveResult {
  const ids: unknown = cfg.fix_id_list
  if (!Array.isArray(ids) || !ids.every(isInt)) {
    return pyError('TypeError', `fix_id_list must be a list of ints, got ${pyRepr(ids)}`, 'retrieve')
  }
  const n = ctx.train.length
  for (const idx of ids) {
    if (ctx.family === 'aisbench') {
      if (idx >= n || idx < 0) {
        const msg = `Fix-K retriever index ${idx} is out of range of [0, ${n})`
        const text = aisErrorText('AISBenchValueError', 'ICLR-PARAM-004', 'fix-k retriever index out of range', msg)
        return fail('ICLR-PARAM-004', text, 'retrieve')
      }
    } else if (idx >= n) {
      // OpenCompass only asserts the upper bound; a negative id later indexes from the end, as Python does.
      return pyError('AssertionError', `Index ${idx} is out of range of ${n}`, 'retrieve')
    }
  }
  return { ok: true, indices: ctx.test.map(() => [...ids]) }
}

function random(cfg: Record<string, unknown>, ctx: RetrieveContext): RetrieveResult {
  const iceNum = cfg.ice_num ?? 1
  const seed = cfg.seed === undefined ? 43 : cfg.seed
  if (seed === null) {
    return fail('NondeterministicSeed', 'RandomRetriever with seed=None draws from OS entropy and cannot be reproduced', 'retrieve')
  }
  if (!isInt(seed) || seed < 0 || seed > 0xffffffff) {
    return pyError('ValueError', 'Seed must be between 0 and 2**32 - 1', 'retrieve')
  }
  if (!isInt(iceNum)) return pyError('TypeError', `'${typeof iceNum}' object cannot be interpreted as an integer`, 'retrieve')
  const rng = new LegacyRandomState(seed)
  const indices: number[][] = []
  for (let i = 0; i < ctx.test.length; i++) {
    const pick = rng.choiceWithoutReplacement(ctx.train.length, iceNum)
    if (!pick.ok) return pyError('ValueError', pick.message, 'retrieve')
    indices.push(pick.value)
  }
  return { ok: true, indices }
}

function slidingWindow(cfg: Record<string, unknown>, ctx: RetrieveContext): RetrieveResult {
  const k = cfg.k
  if (!isInt(k)) return pyError('TypeError', `k must be an int, got ${pyRepr(k)}`, 'retrieve')
  const n = ctx.train.length
  return {
    ok: true,
    indices: ctx.test.map((_, i) => {
      if (i >= k) return pyRange(i - k, i)
      // The first rows wrap around: pad at the front with the last train indices (negative if train is short).
      const previous = pyRange(Math.max(0, i - k), i)
      return previous.length < k ? [...pyRange(n - (k - previous.length), n), ...previous] : previous
    })
  }
}

/** The retrieval corpus upstream builds: `' '.join(str(row[c]) for c in input_columns)` per row. */
export function inputFieldCorpus(rows: Row[], inputColumns: string[]): { ok: true; corpus: string[] } | { ok: false; missing: string } {
  const corpus: string[] = []
  for (const row of rows) {
    const parts: string[] = []
    for (const c of inputColumns) {
      if (!Object.prototype.hasOwnProperty.call(row, c)) return { ok: false, missing: c }
      parts.push(pyStr(row[c]))
    }
    corpus.push(parts.join(' '))
  }
  return { ok: true, corpus }
}

function bm25(cfg: Record<string, unknown>, ctx: RetrieveContext): RetrieveResult {
  const iceNum = cfg.ice_num ?? 1
  if (!isInt(iceNum)) return pyError('TypeError', 'slice indices must be integers or None or have an __index__ method', 'retrieve')
  const train = inputFieldCorpus(ctx.train, ctx.inputColumns)
  if (!train.ok) return pyError('KeyError', pyRepr(train.missing), 'retriever')
  const indexCorpus = train.corpus.map(nltkWordTokenize)
  // rank_bm25 divides by the corpus size and by the vocabulary size while indexing.
  if (indexCorpus.length === 0 || indexCorpus.every((d) => d.length === 0)) {
    return pyError('ZeroDivisionError', 'division by zero', 'retriever')
  }
  const model = new Bm25Okapi(indexCorpus)
  const test = inputFieldCorpus(ctx.test, ctx.inputColumns)
  if (!test.ok) return pyError('KeyError', pyRepr(test.missing), 'retriever')
  const notes: RetrieveNote[] = []
  const indices = test.corpus.map((text, row) => {
    const scores = model.scores(nltkWordTokenize(text))
    // numpy 2.x sorts float64 with x86-simd-sort on x86-64 CPUs with AVX-512 (where the goldens were made); it
    // orders equal scores differently from numpy's generic sort, which a NaN score still gets.
    const simd = x86SimdArgsort(scores)
    const order = simd ?? numpyArgsort(scores)
    const picked = pySliceTo(order.reverse(), iceNum)
    const tie = tieNote(scores, order, picked.length)
    if (tie) notes.push({ row, code: 'bm25-tie', message: tie + (simd ? '' : ' (a NaN score: numpy\'s generic order is used)') })
    return picked
  })
  return { ok: true, indices, notes }
}

/**
 * Says when equal BM25 scores decided which train rows became examples, or their order: numpy breaks ties by its
 * sort algorithm, which depends on the CPU (AVX-512, AVX2 and other machines differ), so upstream elsewhere may pick
 * other rows. `order` is the descending order used; `k` how many were picked.
 */
function tieNote(scores: ArrayLike<number>, order: number[], k: number): string | null {
  if (k === 0) return null
  const cut = scores[order[k - 1]]
  const tiedAtCut = k < order.length && scores[order[k]] === cut
  let tiedInside = false
  for (let i = 1; i < k && !tiedInside; i++) if (scores[order[i]] === scores[order[i - 1]]) tiedInside = true
  if (!tiedAtCut && !tiedInside) return null
  const same = order.filter((i) => scores[i] === cut).length
  const what = tiedAtCut
    ? `${same} train rows share the lowest chosen BM25 score (${cut}), so numpy's tie order chose which of them became examples`
    : 'examples with equal BM25 scores were ordered by numpy\'s tie order'
  return `${what}; this follows numpy 2.x on an AVX-512 x86 CPU, and upstream on another CPU (AVX2, ARM) may pick or order them differently.`
}

/**
 * XiezhiRetriever.retrieve (opencompass/datasets/xiezhi.py): train rows indexed by each of their `labels`; a test
 * row takes, label by label (most specific first, as the loader sorts them), every train row sharing that label
 * until it has ice_num, then keeps the first ice_num. A test label no train row has raises KeyError.
 */
function xiezhi(cfg: Record<string, unknown>, ctx: RetrieveContext): RetrieveResult {
  try {
    return { ok: true, indices: xiezhiIndices(cfg.ice_num ?? 1, ctx) }
  } catch (e) {
    if (e instanceof PyError) return pyError(e.pyClass, e.message, 'retrieve')
    throw e
  }
}

/** The retrieve body on row data, in the runtime's Python: iter() of the labels, their dict keys, `len(ids) < ice_num`. */
function xiezhiIndices(iceNum: unknown, ctx: RetrieveContext): number[][] {
  const labelsOf = (row: Row): readonly unknown[] => {
    if (!Object.prototype.hasOwnProperty.call(row, 'labels')) throw new PyError('KeyError', "'labels'")
    return jsonRuntime.items(row.labels)
  }
  const byLabel = new Map<string, number[]>()
  ctx.train.forEach((row, index) => {
    for (const label of labelsOf(row)) {
      const k = jsonRuntime.hashKey(label)
      const list = byLabel.get(k)
      if (list) list.push(index)
      else byLabel.set(k, [index])
    }
  })
  return ctx.test.map((row) => {
    const ids: number[] = []
    for (const label of labelsOf(row)) {
      if (!jsonRuntime.compare('<', ids.length, iceNum)) break
      const found = byLabel.get(jsonRuntime.hashKey(label))
      if (!found) throw new PyError('KeyError', pyRepr(label))
      ids.push(...found)
    }
    if (!isInt(iceNum)) throw new PyError('TypeError', 'slice indices must be integers or None or have an __index__ method')
    return pySliceTo(ids, iceNum)
  })
}

/** Train indices of the in-context examples for every test row, as upstream's `retriever.retrieve()` returns them. */
export function retrieveIndices(cfg: Record<string, unknown>, ctx: RetrieveContext): RetrieveResult {
  const type = String(cfg.type)
  const badArgs = checkArguments(type, cfg, ctx.family)
  if (badArgs) return badArgs
  switch (type) {
    case 'ZeroRetriever':
      return { ok: true, indices: ctx.test.map(() => []) }
    case 'FixKRetriever':
      return fixK(cfg, ctx)
    case 'RandomRetriever':
      return random(cfg, ctx)
    case 'SlidingWindowRetriever':
      return slidingWindow(cfg, ctx)
    case 'BM25Retriever':
      return bm25(cfg, ctx)
    case 'XiezhiRetriever':
      return xiezhi(cfg, ctx)
    default:
      return fail('KeyError', `KeyError: '${type} is not in the icl_retriever registry'`, 'retriever')
  }
}
