// The inferencer flow of OpenCompass/AISBench for one dataset: prepare once (dataset reader, meta template,
// templates, retriever, labels), then render any test row on demand (examples, prompt, max_seq_len
// truncation, parser, request messages), exactly in upstream's order so errors name the same stage.
import { PyRaise, familyRaise, toEngineError, type EngineError, type Stage } from './errors'
import { aisMessages, chatMessages, openAiMessages, parsedJson, toModelInput } from './messages'
import { buildMeta, type MetaInfo } from './meta-template'
import { parseApi, parseLm, parsedText, type Parsed } from './parser'
import type { FormatArgs } from './format-plan'
import { perItem, promptJson, strItem } from './prompt-list'
import { decodeLabelDicts, jsonObject, pyKeyEq, pyRepr, pyStr, pyTruthy } from '../python/json'
import { olympiadEntry } from './olympiad'
import { attackEntry, attackPrompts, type AttackPrompts } from './attack'
import { totFirstRequest, totPlan, type TotPlan } from './tot'
import { pySetOrder } from './py-set-order'
import { retrieveIndices } from './retrievers'
import { splitTurns } from './turns'
import { EMPTY, sConcat, sLit, toSegments, type Segment, type Source, type SStr } from './spanned'
import {
  buildTemplate,
  dictKeys,
  generateIceItem,
  generateItem,
  generateLabelPromptItem,
  mmItem,
  multiTurnItem,
  promptText,
  rawItem,
  type BuiltTemplate
} from './template'
import type { EngineWarning, Family, Mode, ParserKind, PItem, PipelineInput, Prompt, PromptList, RenderedItem, RenderedPrompt, RenderedRow, Row } from './types'
import { isPromptList } from './types'

export interface Prepared {
  input: PipelineInput
  family: Family
  parser: ParserKind
  mode: Mode
  train: Row[]
  test: Row[]
  inputColumns: string[]
  outputColumn: string | null
  meta: MetaInfo | null
  iceTemplate: BuiltTemplate | null
  promptTemplate: BuiltTemplate | null
  iceSeparator: string
  iceEos: string
  inferencer: { type: string; genToken: string; inferMode?: string }
  /** Retrieved train indices per test row, before truncation. */
  iceIdx: number[][]
  labels: unknown[] | null
  maxSeqLen: number | null
  warnings: EngineWarning[]
  /** Per test row, what the retriever noted about its examples (ties decided by numpy's sort order). */
  retrieverNotes: Map<number, EngineWarning[]>
  /** Example k made from train row idx (key `idx:k`), with the warnings making it gave. */
  iceCache: Map<string, { prompt: Prompt; warnings: EngineWarning[] }>
  /** The last example block and the train indices it was made from (FixK: the same for every row). */
  iceBlock?: { idx: number[]; stage: Stage; prompt: Prompt; warnings: EngineWarning[] }
  fieldSources: Map<string, Source>
  /** Where a test row's column comes from (one function for all rows, so nothing is made per row). */
  srcOf: (key: string) => Source
  /** The output column masked with gen_field_replace_token, or undefined when there is none. */
  mask?: { key: string; value: string; src: Source }
  /** Whether the rendering template is a RawPromptTemplate (its output is a plain list). */
  plainList?: boolean
  /** CLP / SWCELoss inferencers: what they do after the prompt that needs the model (every row carries it). */
  rowNote?: EngineWarning
  /** AttackInferencer: the prompts of original_prompt_list, one request each (attack.ts). */
  attack?: AttackPrompts
  /** ToTInferencer: how its prompt wrapper makes the first request from the row's prompt (tot.ts). */
  tot?: TotPlan
}

const SEP_PATH = 'retriever.ice_separator'
const EOS_PATH = 'retriever.ice_eos_token'

/** Python `seq[start:stop]` for a slice string such as "[1:]" or "[:3]". */
function applyRange(rows: Row[], range: unknown, name: string): Row[] {
  if (range === undefined || range === null) return rows
  if (typeof range === 'string') {
    const m = /^\s*\[\s*(-?\d+)?\s*:\s*(-?\d+)?\s*\]\s*$/.exec(range)
    if (!m) throw new PyRaise('SyntaxError', `unsupported ${name}: ${range}`, 'dataset', { path: `reader_cfg.${name}` })
    const n = rows.length
    const norm = (v: string | undefined, d: number) => (v === undefined ? d : Number(v) < 0 ? Math.max(0, n + Number(v)) : Math.min(n, Number(v)))
    return rows.slice(norm(m[1], 0), norm(m[2], n))
  }
  throw new PyRaise('NotImplementedError', `${name} given as a number shuffles with Python's random.Random; not supported`, 'dataset', { path: `reader_cfg.${name}` })
}

/**
 * A precomputed ice_idx (the JSON of upstream's `retriever.retrieve()`): one list of train indices per test row of
 * the split, each an int below the train split's size (negative counts from the end, as Python indexes).
 */
function precomputedIndices(src: { file: string; indices: unknown }, trainSize: number, testSize: number, retriever: string): ReturnType<typeof retrieveIndices> {
  const bad = (why: string): ReturnType<typeof retrieveIndices> => ({ ok: false, error: { code: 'IceIdxFile', message: `IceIdxFile: ${src.file}: ${why}`, stage: 'retrieve' } })
  const v = src.indices
  if (typeof v === 'string') return bad(v)
  if (!Array.isArray(v) || !v.every((x) => Array.isArray(x) && x.every((i) => Number.isInteger(i)))) return bad('expected a JSON list of lists of train indices, one list per test row')
  if (v.length !== testSize) return bad(`${v.length} lists for ${testSize} test rows`)
  for (const idx of v as number[][]) for (const i of idx) if (i >= trainSize || i < -trainSize) return bad(`train index ${i} is out of range for ${trainSize} train rows`)
  const note = `examples from the precomputed ice_idx ${src.file} (${retriever} is not run by PromptLoom: the file says which train rows upstream retrieved)`
  return { ok: true, indices: v as number[][], notes: (v as number[][]).map((_, row) => ({ row, code: 'ice-idx-precomputed', message: note })) }
}

/** DatasetReader.__init__'s keyword arguments (the same in OpenCompass a5acc4b and AISBench 29c363e). */
const READER_ARGS = new Set(['input_columns', 'output_column', 'input_template', 'output_template', 'train_split', 'train_range', 'test_split', 'test_range'])

/**
 * BaseDataset.__init__ calls `self._init_reader(**reader_cfg)`, which passes everything to DatasetReader: a
 * reader_cfg that is not a dict (`reader_cfg = {…},` — a trailing comma makes a tuple, as PJExam's configs do) or
 * that has a key DatasetReader does not take fails there, before any prompt is built.
 */
function checkReaderCfg(rc: unknown, family: Family): void {
  if (Array.isArray(rc) || rc === null || typeof rc !== 'object') {
    // JSON cannot tell a tuple from a list; in a Python config a non-dict reader_cfg is a trailing-comma tuple.
    const type = Array.isArray(rc) ? 'tuple' : rc === null ? 'NoneType' : typeof rc === 'string' ? 'str' : typeof rc === 'number' ? (Number.isInteger(rc) ? 'int' : 'float') : typeof rc === 'boolean' ? 'bool' : 'object'
    const mod = family === 'aisbench' ? 'ais_bench.benchmark.datasets.base' : 'opencompass.datasets.base'
    throw new PyRaise('TypeError', `${mod}.BaseDataset._init_reader() argument after ** must be a mapping, not ${type}`, 'dataset', { path: 'reader_cfg' })
  }
  for (const k of Object.keys(rc)) {
    if (!READER_ARGS.has(k)) throw new PyRaise('TypeError', `DatasetReader.__init__() got an unexpected keyword argument ${pyRepr(k)}`, 'dataset', { path: `reader_cfg.${k}` })
  }
}

function retrieverDefaults(type: string, family: Family): [string, string] {
  if (type === 'ZeroRetriever') return ['', '']
  void family
  return ['\n', '\n']
}

/**
 * An infer_cfg as JSON holds it, ready for the engine: templates keyed by int/bool labels ({0: '…', 1: '…'}) arrive
 * as {"__label_dict__": …} and become LabelDicts with typed keys. Its own keys are strs, so it stays a dict.
 */
export function decodeInferCfg(cfg: unknown): Record<string, unknown> {
  return jsonObject(decodeLabelDicts(cfg ?? {}))
}

function fail(e: unknown, stage: Stage): EngineError {
  return toEngineError(e, stage)
}

/** Everything that is the same for every row. Runs the retriever once. */
export function preparePipeline(input: PipelineInput): Prepared | EngineError {
  const family = input.family
  const warnings: EngineWarning[] = []
  try {
    const rc = input.reader_cfg ?? {}
    checkReaderCfg(rc, family)
    const inputColumns = typeof rc.input_columns === 'string' ? rc.input_columns.split(/\s+/).filter(Boolean) : (rc.input_columns ?? [])
    const outputColumn = pyTruthy(rc.output_column) ? (rc.output_column as string) : null
    const train = applyRange(input.train ?? [], rc.train_range, 'train_range')
    const test = applyRange(input.test ?? [], rc.test_range, 'test_range')
    const meta = buildMeta(input.meta_template ?? null, input.parser, family)
    const cfg = input.infer_cfg ?? {}
    const rcfg = jsonObject(cfg.retriever ?? { type: 'ZeroRetriever' })
    let iceTemplate: BuiltTemplate | null = null
    let promptTemplate: BuiltTemplate | null = null
    if (cfg.ice_template) iceTemplate = buildTemplate(jsonObject(cfg.ice_template), 'ice_template', family)
    if (cfg.prompt_template) promptTemplate = buildTemplate(jsonObject(cfg.prompt_template), 'prompt_template', family)
    const [defSep, defEos] = retrieverDefaults(String(rcfg.type), family)
    // The retriever's and inferencer's constructors take these str arguments unchecked (by annotation only).
    const iceSeparator = rcfg.type === 'ZeroRetriever' && family === 'opencompass' ? '' : ((rcfg.ice_separator ?? defSep) as string)
    const iceEos = (rcfg.ice_eos_token ?? defEos) as string
    const inf = jsonObject(cfg.inferencer ?? { type: 'GenInferencer' })
    // CLP, SWCELoss and PPLOnly call generate_prompt_for_generate_task without gen_field_replace_token: the output column is ''.
    const ownToken = inf.type === 'CLPInferencer' || inf.type === 'SWCELossInferencer' || inf.type === 'PPLOnlyInferencer'
    const genToken = ownToken ? '' : ((inf.gen_field_replace_token ?? '') as string)
    const inferencer = { type: String(inf.type), genToken, inferMode: inf.infer_mode as string | undefined }
    const retrieverCfg: Record<string, unknown> = { ...rcfg }
    if (family === 'aisbench') {
      // AISBench passes the templates to the retriever constructor (tasks/openicl_infer.py).
      retrieverCfg.ice_template = cfg.ice_template ?? null
      retrieverCfg.prompt_template = cfg.prompt_template ?? null
    }
    if (inferencer.type === 'CLPInferencer') clpBeforeRetrieve(inf, input.parser)
    const r = input.ice_idx ? precomputedIndices(input.ice_idx, train.length, test.length, String(rcfg.type)) : retrieveIndices(retrieverCfg, { train, test, inputColumns, outputColumn, family })
    if (!r.ok) return { code: r.error.code, message: r.error.message, stage: r.error.stage, at: { path: 'retriever' }, upstream: r.error.message.split(':')[0] }
    const p: Prepared = {
      input,
      family,
      parser: input.parser,
      mode: input.mode,
      train,
      test,
      inputColumns,
      outputColumn,
      meta,
      iceTemplate,
      promptTemplate,
      iceSeparator,
      iceEos,
      inferencer,
      iceIdx: r.indices,
      labels: null,
      maxSeqLen: family === 'opencompass' && typeof input.max_seq_len === 'number' ? input.max_seq_len : null,
      warnings,
      retrieverNotes: notesByRow(r.notes),
      iceCache: new Map(),
      fieldSources: new Map(),
      srcOf: (key) => fieldSrc(p, key),
      mask: outputColumn === null ? undefined : { key: outputColumn, value: inferencer.genToken, src: { kind: 'field', field: outputColumn, masked: true } }
    }
    if (input.mode === 'ppl') p.labels = getLabels(p, inf.labels)
    if (inferencer.type === 'CLPInferencer') clpChoices(p)
    if (inferencer.type === 'SWCELossInferencer') swcePrepare(p, inf)
    if (inferencer.type === 'PPLOnlyInferencer') pplOnlyPrepare(p)
    if (inferencer.type === 'ToTInferencer') {
      p.tot = totPlan(inf)
      p.rowNote = p.tot.note
    }
    if (inferencer.type === 'AttackInferencer') {
      p.attack = attackPrompts(inf)
      p.rowNote = p.attack.note
    }
    if (inferencer.type === 'LLInferencer') {
      p.rowNote = {
        code: 'll-continuation',
        message: "LLInferencer sends each label's prompt and scores the log-likelihood of the row's `cont` value after it (get_loglikelihood); the scores need the model.",
        at: { field: 'cont' }
      }
    }
    return p
  } catch (e) {
    return fail(e, 'dataset')
  }
}

/**
 * CLPInferencer (opencompass/openicl/icl_inferencer/icl_clp_inferencer.py): its constructor asserts single_token,
 * and inference() refuses API models before it retrieves anything.
 */
function clpBeforeRetrieve(inf: Record<string, unknown>, parser: ParserKind): void {
  if ('single_token' in inf && !pyTruthy(inf.single_token)) throw new PyRaise('AssertionError', 'Only support single token choice currently.', 'inferencer', { path: 'inferencer.single_token' })
  const refused = clpRefusal(parser)
  if (refused) throw refused
}

/** What CLPInferencer.inference raises for a model of this parser (API models are refused), or null. */
export function clpRefusal(parser: ParserKind): PyRaise | null {
  return parser === 'api' ? new PyRaise('ValueError', 'API model is not supported for conditional log probability inference and skip this exp.', 'inferencer', { path: 'inferencer.type' }) : null
}

/**
 * CLPInferencer then reads `retriever.test_ds[0]['choices']` (the first test row's choices, for every row),
 * builds each prompt as GenInferencer does (generate_prompt_for_generate_task, parse_template mode 'gen') and
 * scores the first token of each choice at the next position: the prompt is what the model reads; the
 * scores need its logits.
 */
function clpChoices(p: Prepared): void {
  if (p.test.length === 0) throw new PyRaise('IndexError', 'list index out of range', 'inferencer')
  const first = p.test[0]
  if (!Object.prototype.hasOwnProperty.call(first, 'choices')) throw new PyRaise('KeyError', "'choices'", 'inferencer', { row: 0, field: 'choices' })
  p.rowNote = {
    code: 'clp-choices',
    message: `CLPInferencer sends this prompt and compares the next-token probabilities of the first token of each choice ${pyRepr(first.choices)} (the first test row's \`choices\`, used for every row); the scores need the model.`,
    at: { field: 'choices' }
  }
}

/**
 * SWCELossInferencer (icl_sw_ce_loss_inferencer.py): reads `self.model.tokenizer.vocab_size` first (an API model's
 * tokenizer is None), builds each row's prompt with generate_prompt_for_generate_task (no examples, output column
 * blanked), tokenizes it as it is — no meta template, no chat template — and asserts the reader has no output
 * column. Then every row's tokens are concatenated and the loss is taken over sliding windows: the windows need
 * the model's tokenizer, so each row says so.
 */
function swcePrepare(p: Prepared, inf: Record<string, unknown>): void {
  const refused = swceRefusal(p.parser)
  if (refused) throw refused
  if (p.outputColumn !== null) throw new PyRaise('AssertionError', 'SWCELossInferencer supports `output_column=None` only.', 'inferencer', { path: 'reader_cfg.output_column' })
  // generate_prompt_for_generate_task(idx, ice='', ice_template=None, prompt_template=…): never any example.
  p.iceTemplate = null
  p.iceSeparator = ''
  p.iceEos = ''
  const block = inf.block_size ?? 1900
  const stride = inf.stride ?? 512
  p.rowNote = {
    code: 'swce-sliding-window',
    message: `SWCELossInferencer tokenizes this text as it is (no meta or chat template), joins the tokens of every row of the split and computes the cross-entropy loss over windows of ${pyStr(block)} tokens moved ${pyStr(stride)} tokens at a time; where the windows fall needs the model's tokenizer.`,
    at: {}
  }
}

/**
 * PPLOnlyInferencer (icl_ppl_only_inferencer.py): builds each prompt as GenInferencer does (no
 * gen_field_replace_token), asserts the reader has no output column, and scores the whole text with
 * model.get_ppl_from_template(entry) — which parses the prompt with mode='ppl' (a dialogue's last BOT turn is
 * rendered whole, with no generation prefix). The score needs the model.
 */
function pplOnlyPrepare(p: Prepared): void {
  if (p.outputColumn !== null) throw new PyRaise('AssertionError', 'PPLOnlyInferencer supports `output_column=None` only.', 'prompt', { path: 'reader_cfg.output_column' })
  p.rowNote = { code: 'pplonly-perplexity', message: "PPLOnlyInferencer scores this text's perplexity (get_ppl_from_template: the prompt parsed with mode='ppl'); the score needs the model.", at: {} }
}

/** The mode each model parses a prompt in: the inferencer's, except PPLOnlyInferencer's gen prompts, scored as PPL. */
export function parseMode(p: Prepared): Mode {
  return p.inferencer.type === 'PPLOnlyInferencer' ? 'ppl' : p.mode
}

/** What SWCELossInferencer raises for a model of this parser: an API model has no tokenizer (OpenAI sets None). */
export function swceRefusal(parser: ParserKind): PyRaise | null {
  return parser === 'api' ? new PyRaise('AttributeError', "'NoneType' object has no attribute 'vocab_size'", 'inferencer', { path: 'inferencer.type' }) : null
}

/** SWCELossInferencer hands the prompt to tokenizer.encode: a PromptList (dialogue template) is not text. */
export function swcePromptCheck(prompt: Prompt, row: number): PyRaise | null {
  if (!isPromptList(prompt)) return null
  return new PyRaise('SWCELossPromptList', 'SWCELossInferencer hands this PromptList (a dialogue template) to tokenizer.encode, which takes text: upstream fails here (the exception depends on the tokenizer)', 'prompt', { row })
}

/** BaseRetriever.get_labels (an explicit inferencer `labels` wins). */
function getLabels(p: Prepared, explicit: unknown): unknown[] {
  if (Array.isArray(explicit)) return explicit
  const pt = p.promptTemplate
  const it = p.iceTemplate
  if (pt && typeof pt.template === 'object' && pt.kind !== 'RawPromptTemplate') return dictKeys(pt.template as Record<string, unknown>)
  if (it && it.iceToken !== null && typeof it.template === 'object' && it.kind !== 'RawPromptTemplate') return dictKeys(it.template as Record<string, unknown>)
  const col = p.outputColumn
  if (col === null || (p.test.length > 0 && !(col in p.test[0]))) throw new PyRaise('KeyError', col === null ? 'None' : pyRepr(col), 'labels', { field: col ?? undefined })
  const column = p.test.map((row) => row[col])
  // Numbers and bools hash the same in every CPython process, so their set order is reproducible.
  const ordered = pySetOrder(column, pyKeyEq)
  if (ordered !== undefined) return ordered
  const seen: unknown[] = []
  for (const v of column) if (!seen.some((x) => pyKeyEq(x, v))) seen.push(v)
  p.warnings.push({ code: 'labels-set-order', message: 'Labels come from list(set(column)); Python orders str labels by a randomised hash, so upstream order varies between runs.', at: { field: col } })
  return seen
}

function fieldSrc(p: Prepared, key: string): Source {
  let s = p.fieldSources.get(key)
  if (!s) p.fieldSources.set(key, (s = { kind: 'field', field: key }))
  return s
}

/** safe_format kwargs of a test row; `mask` replaces the output column (generation prompts). */
function testArgs(p: Prepared, row: Row, mask: boolean): FormatArgs {
  return { row, srcOf: p.srcOf, override: mask ? p.mask : undefined }
}

function pyIndex<T>(arr: T[], i: number, stage: Stage): T {
  const j = i < 0 ? arr.length + i : i
  if (j < 0 || j >= arr.length) throw new PyRaise('IndexError', 'list index out of range', stage)
  return arr[j]
}

/** BaseRetriever.generate_ice: examples joined by ice_separator, then ice_eos_token. */
export function generateIce(p: Prepared, idxList: number[], stage: Stage, warnings: EngineWarning[]): Prompt {
  const last = p.iceBlock
  if (last !== undefined && last.stage === stage && sameIndices(last.idx, idxList)) {
    // Every row that uses the examples gets their warnings, not only the row that made them.
    addWarnings(warnings, last.warnings)
    return last.prompt
  }
  const made: EngineWarning[] = []
  const prompt = makeIce(p, idxList, stage, made)
  p.iceBlock = { idx: idxList, stage, prompt, warnings: made }
  addWarnings(warnings, made)
  return prompt
}

/** Adds warnings a row does not have yet (max_seq_len truncation makes the examples several times). */
function addWarnings(to: EngineWarning[], from: EngineWarning[]): void {
  for (const w of from) if (!to.includes(w)) to.push(w)
}

function sameIndices(a: number[], b: number[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function makeIce(p: Prepared, idxList: number[], stage: Stage, warnings: EngineWarning[]): Prompt {
  const t = p.iceTemplate
  if (!t) {
    if (idxList.length) {
      const msg = 'You have not specified ice_template while retrieving examples from train set! Please either specify ice_template or use `ZeroRetriever`.'
      // AIS splits the f-string with a backslash line continuation, which keeps the next line's indentation.
      const aisMsg = msg.replace('examples from', `examples${' '.repeat(34)}from`)
      throw familyRaise(p.family, ['AssertionError', msg], ['AISBenchValueError', 'ICLR-PARAM-002', aisMsg], stage)
    }
  }
  const meta = t?.promptType === 'meta'
  const sep = sLit(meta ? '' : p.iceSeparator, { kind: 'separator', path: SEP_PATH })
  const eos = sLit(meta ? '' : p.iceEos, { kind: 'eos', path: EOS_PATH })
  const items: Prompt[] = idxList.map((idx, k) => {
    const key = `${idx}:${k}`
    let v = p.iceCache.get(key)
    if (!v) {
      const entry = pyIndex(p.train, idx, stage)
      const col = p.outputColumn
      if (col === null || !(col in entry)) throw new PyRaise('KeyError', col === null ? 'None' : pyRepr(col), stage, { ice: k, field: col ?? undefined })
      const made: EngineWarning[] = []
      v = { prompt: generateIceItem(t!, entry, entry[col], k, made), warnings: made }
      p.iceCache.set(key, v)
    }
    addWarnings(warnings, v.warnings)
    return v.prompt
  })
  if (t?.kind === 'RawPromptTemplate') return (items as PromptList[]).flat()
  if (items.length > 0 && isPromptList(items[0])) {
    let acc: PromptList | null = null
    for (const ice of items) {
      const x: Prompt = isPromptList(ice) ? (sep.text ? [...ice, strItem(sep)] : ice) : sConcat([ice, sep])
      if (acc === null) acc = isPromptList(x) ? [...x] : [...x.text].map((c) => strItem(sLit(c, { kind: 'ice' })))
      else if (isPromptList(x)) acc.push(...x)
      else if (x.text) acc.push(strItem(x))
    }
    acc!.push(strItem(eos))
    return acc!
  }
  const parts: SStr[] = []
  items.forEach((it, i) => {
    if (isPromptList(it)) throw new PyRaise('TypeError', `sequence item ${i}: expected str instance, PromptList found`, stage)
    if (i > 0) parts.push(sep)
    parts.push(it)
  })
  parts.push(eos)
  return sConcat(parts)
}

/** generate_prompt_for_generate_task / generate_label_prompt: which template renders the test row. */
function pickTemplate(p: Prepared): BuiltTemplate {
  const { iceTemplate: it, promptTemplate: pt, family } = p
  if (pt && it) {
    if (pt.iceToken === null) throw familyRaise(family, ['NotImplementedError', 'ice_token of prompt_template is not provided'], ['AISBenchImplementationError', 'ICLR-IMPL-002', 'ice_token of prompt_template is not provided'], 'prompt')
    return pt
  }
  if (it) {
    if (it.iceToken === null) throw familyRaise(family, ['NotImplementedError', 'ice_token of ice_template is not provided'], ['AISBenchImplementationError', 'ICLR-IMPL-002', 'ice_token of ice_template is not provided'], 'prompt')
    return it
  }
  if (pt) return pt
  throw familyRaise(family, ['NotImplementedError', 'Leaving prompt as empty is not supported'], ['AISBenchImplementationError', 'ICLR-IMPL-003', 'Leaving prompt as empty is not supported'], 'prompt')
}

/** `adv`: AttackInferencer's k-th listed prompt, which the row carries under adv_key (attack.ts). */
function genPrompt(p: Prepared, rowIdx: number, ice: Prompt, warnings: EngineWarning[], adv?: number): Prompt {
  const t = pickTemplate(p)
  const a = adv === undefined ? undefined : p.attack
  const row = a ? attackEntry(p.test[rowIdx], a, adv!) : p.test[rowIdx]
  const args = testArgs(p, row, true)
  if (a) args.srcOf = (key) => (key === a.key ? a.sources[adv!] : p.srcOf(key))
  const ctx = { warnings, row: rowIdx }
  if (t.olympiad) return olympiadItem(p, t, row, rowIdx, ice, warnings)
  switch (t.kind) {
    case 'RawPromptTemplate':
      return rawItem(t, row, ice, ctx)
    case 'MultiTurnPromptTemplate':
      return multiTurnItem(t, row, rowIdx)
    case 'MMPromptTemplate':
      return mmItem(t, row, args, ctx, warnings)
    default:
      noteLostExamples(p, t, ice, warnings, rowIdx)
      return generateItem(t, { entries: args, ctx, ice })
  }
}

/**
 * OlympiadBenchTemplate / OlympiadBenchRawTemplate.generate_item: the row becomes the entry the class builds
 * (olympiad.ts), then the parent's generate_item runs with the same output masking and examples.
 */
function olympiadItem(p: Prepared, t: BuiltTemplate, row: Row, rowIdx: number, ice: Prompt, warnings: EngineWarning[], mask = true): Prompt {
  const ctx = { warnings, row: rowIdx }
  let entry: Row
  try {
    entry = olympiadEntry(t.olympiad!, row)
  } catch (e) {
    if (e instanceof PyRaise) e.at = { ...e.at, row: rowIdx, path: `${t.name}.type` }
    throw e
  }
  if (t.kind === 'RawPromptTemplate') return rawItem(t, entry, ice, ctx)
  const made: Source = { kind: 'template', path: `${t.name}.type` }
  const srcOf = (key: string): Source => (key === 'prompt' ? made : p.srcOf(key))
  return generateItem(t, { entries: { row: entry, srcOf, override: mask ? p.mask : undefined }, ctx, ice })
}

const lostCache = new WeakMap<BuiltTemplate, boolean>()

function noteLostExamples(p: Prepared, t: BuiltTemplate, ice: Prompt, warnings: EngineWarning[], row: number): void {
  if (t.iceToken === null || !promptText(ice)) return
  let lost = lostCache.get(t)
  if (lost === undefined) lostCache.set(t, (lost = templateLosesExamples(t)))
  if (lost) warnings.push({ code: 'ice-token-missing-examples-dropped', message: `The template does not contain ${pyRepr(t.iceToken)} where examples can go; the in-context examples vanish.`, at: { path: `${t.name}.template`, row } })
}

/** A dialogue template whose str values lack ice_token passes the constructor check, and its examples vanish. */
function templateLosesExamples(t: BuiltTemplate): boolean {
  const tpl = t.template
  if (typeof tpl !== 'object' || tpl === null) return false
  return !JSON.stringify(tpl).includes(t.iceToken!)
}

function labelPrompt(p: Prepared, rowIdx: number, ice: Prompt, label: unknown, warnings: EngineWarning[]): Prompt {
  const t = pickTemplate(p)
  const row = p.test[rowIdx]
  const ctx = { warnings, row: rowIdx }
  if (t.kind === 'RawPromptTemplate') return rawItem(t, row, ice, ctx)
  return generateLabelPromptItem(t, label, { entries: testArgs(p, row, false), ctx, ice })
}

/**
 * `PromptTemplate.generate_item(entry)` as ChatInferencer calls it: the whole template for `entry`, in-context
 * examples replaced by nothing and no column masked (the gold answer stays in the BOT turn).
 */
export function generateWholeItem(p: Prepared, testIndex: number, entry: Row, warnings: EngineWarning[]): Prompt {
  if (!p.promptTemplate) throw new PyRaise('ValueError', '', 'prompt', { row: testIndex })
  if (p.promptTemplate.olympiad) return olympiadItem(p, p.promptTemplate, entry, testIndex, EMPTY, warnings, false)
  return generateItem(p.promptTemplate, { entries: testArgs(p, entry, false), ctx: { warnings, row: testIndex }, ice: EMPTY })
}

export interface ApplyOptions {
  parser: ParserKind
  mode: Mode | string
  family: Family
  row?: number
  plainList?: boolean
}

export interface Applied {
  parsed?: Parsed
  warnings: EngineWarning[]
  error?: EngineError
}

/**
 * Applies a model's meta template to a row's PromptList (LMTemplateParser or APITemplateParser). The checked
 * meta template is remembered per template object (with its parser and family), so a model applied row after
 * row builds it once and its parser memos carry over; treat the object as read-only once applied (an edit
 * makes a new object).
 */
export function applyMetaTemplate(prompt: Prompt, metaTemplate: unknown, opts: ApplyOptions): Applied {
  const key = typeof prompt === 'object' && prompt !== null ? prompt : null
  const hit = key && LAST_APPLIED.get(key)
  if (hit && hit.meta === metaTemplate && hit.parser === opts.parser && hit.mode === opts.mode && hit.family === opts.family && hit.plainList === opts.plainList) return { parsed: hit.parsed, warnings: [] }
  const warnings: EngineWarning[] = []
  try {
    const meta = cachedMeta(metaTemplate ?? null, opts.parser, opts.family)
    const parsed = parseWith(prompt, meta, opts, warnings)
    if (key && warnings.length === 0 && (parsed.kind === 'text' || parsed.kind === 'messages')) LAST_APPLIED.set(key, { meta: metaTemplate, parser: opts.parser, mode: opts.mode, family: opts.family, plainList: opts.plainList, parsed })
    return { parsed, warnings }
  } catch (e) {
    return { warnings, error: toEngineError(e, 'parse', { row: opts.row }) }
  }
}

/**
 * The last clean application (no warning, no error) of a meta template to each PromptList: a model with
 * max_seq_len measures the prompt and then renders it, the same parse twice. `row` only places warnings and
 * errors, so a clean result holds for any row. Text and messages results are never mutated by their readers.
 */
const LAST_APPLIED = new WeakMap<object, { meta: unknown; parser: ParserKind; mode: Mode | string; family: Family; plainList?: boolean; parsed: Parsed }>()

/** Built meta templates per template object, one per parser and family (index: META_SLOT). */
const META_CACHE = new WeakMap<object, Array<MetaInfo | undefined>>()

function metaSlot(parser: ParserKind, family: Family): number {
  return (parser === 'lm' ? 0 : 2) + (family === 'opencompass' ? 0 : 1)
}

/** buildMeta, once per object: a meta template that fails its checks is not kept, so it raises every time. */
function cachedMeta(metaTemplate: unknown, parser: ParserKind, family: Family): MetaInfo | null {
  if (metaTemplate === null || typeof metaTemplate !== 'object' || (parser !== 'lm' && parser !== 'api') || (family !== 'opencompass' && family !== 'aisbench')) {
    return buildMeta(metaTemplate, parser, family)
  }
  let slots = META_CACHE.get(metaTemplate)
  if (slots === undefined) META_CACHE.set(metaTemplate, (slots = []))
  const k = metaSlot(parser, family)
  const hit = slots[k]
  if (hit !== undefined) return hit
  const meta = buildMeta(metaTemplate, parser, family)
  if (meta !== null) slots[k] = meta
  return meta
}

function parseWith(prompt: Prompt, meta: MetaInfo | null, opts: ApplyOptions, warnings: EngineWarning[]): Parsed {
  const o = { mode: opts.mode, family: opts.family, warnings, row: opts.row, plainList: opts.plainList }
  return opts.parser === 'lm' ? parseLm(prompt, meta, o) : parseApi(prompt, meta, o)
}

export interface BuiltItem {
  label?: unknown
  /** AttackInferencer: the listed prompt this request carries. */
  advPrompt?: string
  prompt: Prompt
  iceIdx: number[]
  /** ToTInferencer: the request the model receives instead of `prompt` (its wrapper's first request, tot.ts). */
  request?: SStr
  /**
   * CLPInferencer after max_seq_len dropped examples: the rebuilt prompt is sent as built, not parsed with the
   * model's meta template (upstream's quirk), so the model reads the template's text as it is.
   */
  unparsed?: boolean
}

export interface BuiltRow {
  items: BuiltItem[]
  warnings: EngineWarning[]
  error?: EngineError
}

function isRaw(p: Prepared): boolean {
  if (p.plainList === undefined) {
    try {
      p.plainList = pickTemplate(p).kind === 'RawPromptTemplate'
    } catch {
      p.plainList = false
    }
  }
  return p.plainList
}

/** A row's PromptList(s) before the model: one for gen, one per label for PPL (label order as upstream iterates). */
/**
 * How a model measures a prompt for `max_seq_len` example dropping, when it is not the engine's own heuristic: a
 * chat-template wrapper counts its tokenizer's tokens of a one-message stand-in (shared/models/harness.ts).
 */
export interface SeqLimit {
  maxSeqLen: number
  tokenLen: (prompt: Prompt, mode: Mode) => number
  /** model.get_token_len of a prompt as built, not parsed (CLPInferencer measures its rebuilt prompts so). */
  rawLen?: (prompt: Prompt, row: number) => number
}

/**
 * `asBuilt`: the same row already built without `limit` (every model with a limit renders from one build): when it
 * kept all the row's examples and each of its prompts fits, it is what this build would make, and is returned as is.
 */
export function buildPromptList(p: Prepared, testIndex: number, limit?: SeqLimit, asBuilt?: BuiltRow): BuiltRow {
  if (limit && asBuilt && fitsAsBuilt(p, testIndex, limit, asBuilt)) return asBuilt
  const warnings: EngineWarning[] = [...(p.retrieverNotes.get(testIndex) ?? [])]
  if (p.rowNote) warnings.push({ ...p.rowNote, at: { ...p.rowNote.at, row: testIndex } })
  const maxSeqLen = limit ? limit.maxSeqLen : p.maxSeqLen
  const measure = (prompt: Prompt, mode: Mode): number => (limit ? limit.tokenLen(prompt, mode) : tokenLen(p, prompt, mode, testIndex))
  const items: BuiltItem[] = []
  let stage: Stage = 'prompt'
  try {
    // SWCELossInferencer retrieves but passes ice='' (swcePrepare): no example is used.
    let idx = p.inferencer.type === 'SWCELossInferencer' ? [] : (p.iceIdx[testIndex] ?? [])
    if (p.mode === 'ppl') {
      // LLInferencer reads retriever.test_ds[idx]['cont'] beside each label prompt.
      if (p.inferencer.type === 'LLInferencer' && !Object.prototype.hasOwnProperty.call(p.test[testIndex], 'cont')) throw new PyRaise('KeyError', "'cont'", 'prompt', { row: testIndex, field: 'cont' })
      stage = 'ice'
      let ice = generateIce(p, idx, 'ice', warnings)
      stage = 'prompt'
      for (const label of p.labels ?? []) {
        let prompt = labelPrompt(p, testIndex, ice, label, warnings)
        if (maxSeqLen !== null) {
          while (idx.length > 0 && measure(prompt, 'ppl') > maxSeqLen) {
            idx = idx.slice(0, -1)
            ice = generateIce(p, idx, 'prompt', warnings)
            prompt = labelPrompt(p, testIndex, ice, label, warnings)
            noteTruncation(warnings, testIndex, idx.length)
          }
        }
        items.push({ label, prompt, iceIdx: idx })
      }
      return { items, warnings }
    }
    // AttackInferencer.predict runs get_generation_prompt_list_from_retriever_indices once per listed prompt, each
    // from the retriever's full examples.
    const all = idx
    for (const adv of p.attack ? p.attack.prompts.map((_, k) => k) : [undefined]) {
      idx = all
      let ice = generateIce(p, idx, 'prompt', warnings)
      let prompt = genPrompt(p, testIndex, ice, warnings, adv)
      if (maxSeqLen !== null && p.inferencer.type === 'CLPInferencer') {
        items.push(clpTruncate(p, testIndex, idx, prompt, warnings, maxSeqLen, measure, limit?.rawLen ?? engineRawLen))
        continue
      }
      if (maxSeqLen !== null) {
        while (idx.length > 0 && measure(prompt, 'gen') > maxSeqLen) {
          idx = idx.slice(0, -1)
          ice = generateIce(p, idx, 'prompt', warnings)
          prompt = genPrompt(p, testIndex, ice, warnings, adv)
          noteTruncation(warnings, testIndex, idx.length)
        }
      }
      items.push({ prompt, iceIdx: idx, ...(adv === undefined ? {} : { advPrompt: p.attack!.prompts[adv] }), ...(p.tot ? { request: totFirstRequest(p.tot, prompt, testIndex) } : {}) })
    }
    return { items, warnings }
  } catch (e) {
    return { items, warnings, error: toEngineError(e, stage, { row: testIndex }) }
  }
}

/**
 * CLPInferencer.inference's own max_seq_len loop: the parsed prompt is measured with model.get_token_len, and while
 * examples remain and `tokens + 1 > max_seq_len` (one token for the scored choice) the last example is dropped and
 * the prompt rebuilt — but not parsed again: the rebuilt prompt is measured and sent as built (no meta template), a
 * dialogue's PromptList included.
 */
function clpTruncate(p: Prepared, testIndex: number, all: number[], first: Prompt, warnings: EngineWarning[], maxSeqLen: number, measure: (prompt: Prompt, mode: Mode) => number, rawLen: (prompt: Prompt, row: number) => number): BuiltItem {
  let idx = all
  let prompt = first
  let n = measure(prompt, 'gen')
  let unparsed = false
  while (idx.length > 0 && n + 1 > maxSeqLen) {
    idx = idx.slice(0, -1)
    prompt = genPrompt(p, testIndex, generateIce(p, idx, 'prompt', warnings), warnings)
    unparsed = true
    n = rawLen(prompt, testIndex)
    noteTruncation(warnings, testIndex, idx.length)
  }
  if (unparsed)
    warnings.push({
      code: 'clp-unparsed-after-truncation',
      message: "CLPInferencer dropped examples for max_seq_len and, as upstream does, does not parse the rebuilt prompt: the model reads the template's text as built, without its meta template.",
      at: { row: testIndex }
    })
  return { prompt, iceIdx: idx, ...(unparsed ? { unparsed } : {}) }
}

/**
 * The engine's model.get_token_len of an unparsed prompt: upstream's word/CJK heuristic (BaseAPIModel.get_token_len,
 * the harness's models) runs re.findall on it, which a PromptList is not.
 */
function engineRawLen(prompt: Prompt, row: number): number {
  if (isPromptList(prompt)) throw new PyRaise('TypeError', "expected string or bytes-like object, got 'PromptList'", 'inferencer', { row })
  return countTokens(prompt.text)
}

/** Whether building the row under `limit` would keep every example of `built` (measured as the build measures). */
function fitsAsBuilt(p: Prepared, testIndex: number, limit: SeqLimit, built: BuiltRow): boolean {
  if (built.error) return false
  const all = p.iceIdx[testIndex] ?? []
  const ppl = p.mode === 'ppl'
  if (built.items.length !== (ppl ? (p.labels ?? []).length : p.attack ? p.attack.prompts.length : 1)) return false
  for (const it of built.items) if (it.iceIdx.length !== all.length) return false
  // With no examples nothing is measured: there is nothing to drop.
  if (all.length === 0) return true
  // CLPInferencer keeps a token for the scored choice.
  const margin = p.inferencer.type === 'CLPInferencer' ? 1 : 0
  for (const it of built.items) if (limit.tokenLen(it.prompt, ppl ? 'ppl' : 'gen') + margin > limit.maxSeqLen) return false
  return true
}

function noteTruncation(warnings: EngineWarning[], row: number, kept: number): void {
  const w = warnings.find((x) => x.code === 'examples-truncated' && x.at.row === row)
  const message = `Examples dropped from the end until the prompt fits max_seq_len; ${kept} kept.`
  if (w) w.message = message
  else warnings.push({ code: 'examples-truncated', message, at: { row } })
}

/** get_token_len_from_template with upstream's heuristic: [A-Za-z0-9]+ runs plus CJK characters. */
function tokenLen(p: Prepared, prompt: Prompt, mode: Mode, row: number): number {
  const parsed = parseWith(prompt, p.meta, { parser: p.parser, mode, family: p.family, row, plainList: isRaw(p) }, [])
  return countTokens(parsedText(parsed))
}

/**
 * Upstream's estimate: the matches of /[A-Za-z0-9]+/ plus those of /[\u4e00-\u9fff]/ (code units, as the regexes
 * see them), counted in one pass without making the match arrays (it runs for every row and model with max_seq_len).
 */
export function countTokens(s: string): number {
  let n = 0
  let inWord = false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      if (!inWord) n++
      inWord = true
    } else {
      inWord = false
      if (c >= 0x4e00 && c <= 0x9fff) n++
    }
  }
  return n
}

export function renderPrompt(prompt: Prompt, spans = true): RenderedPrompt {
  if (!isPromptList(prompt)) return spans ? { json: prompt.text, segments: toSegments(prompt) } : { json: prompt.text }
  if (!spans) return { json: promptJson(prompt) }
  return { json: promptJson(prompt), itemSegments: perItem(prompt, BASE_SEGMENTS, itemSegments) }
}

const BASE_SEGMENTS = new WeakMap<PromptList, Array<Segment[] | null>>()

function itemSegments(it: PItem): Segment[] | null {
  return it.t === 's' ? toSegments(it.s) : it.t === 'd' && it.p ? toSegments(it.p) : null
}

/** Request messages for an API model input. */
function requestMessages(p: Prepared, json: unknown, item: RenderedItem): void {
  if (p.family === 'aisbench') item.messages = messagesOrError(aisMessages, json)
  else {
    item.openaiMessages = messagesOrError(openAiMessages, json)
    item.chatMessages = messagesOrError(chatMessages, json)
  }
}

/** A conversion's messages, or its error as data. Module level: a closure per row costs (see parser.ts LmWalk). */
function messagesOrError(f: (x: unknown) => unknown, json: unknown): unknown {
  try {
    return f(json)
  } catch (e) {
    return { error: toEngineError(e, 'messages').message }
  }
}

export interface RenderOptions {
  /**
   * Whether to give segments (text + source) beside every text. On by default, for the UI, which asks for one
   * row at a time; bulk paths (export, counting, benchmarks) turn it off and skip that work.
   */
  spans?: boolean
}

/** One test row, from examples to what the model receives. */
export function renderRow(p: Prepared, testIndex: number, opts?: RenderOptions): RenderedRow {
  const spans = opts?.spans !== false
  const built = buildPromptList(p, testIndex)
  const warnings = built.warnings
  const row: RenderedRow = { index: testIndex, items: [], warnings }
  if (built.error) {
    row.error = built.error
    return row
  }
  const plainList = isRaw(p)
  for (const b of built.items) {
    const item: RenderedItem = { index: testIndex, promptList: renderPrompt(b.prompt, spans), iceIdx: b.iceIdx }
    if (p.mode === 'ppl') item.label = b.label
    if (b.advPrompt !== undefined) item.advPrompt = b.advPrompt
    row.items.push(item)
    if (p.inferencer.type === 'MultiTurnGenInferencer') {
      renderTurns(p, testIndex, b.prompt as PromptList, item, warnings, spans)
      if (item.error) row.error = item.error
      continue
    }
    const swce = p.inferencer.type === 'SWCELossInferencer' ? swcePromptCheck(b.prompt, testIndex) : null
    if (swce) {
      item.error = toEngineError(swce, 'prompt', { row: testIndex })
      row.error = item.error
      break
    }
    if (b.request) item.request = b.request.text
    const parsed = b.unparsed ? unparsedInput(b.prompt) : tryParse(p, b.request ?? b.prompt, parseMode(p), testIndex, plainList, warnings)
    if ('error' in parsed) {
      item.error = parsed.error
      row.error = parsed.error
      break
    }
    item.modelInput = toModelInput(parsed, spans)
    if (p.parser === 'api' && parseMode(p) === 'gen') requestMessages(p, parsedJson(parsed), item)
  }
  return row
}

/** A CLP prompt rebuilt after truncation reaches the model as built (only text gets that far: see clpTruncate). */
function unparsedInput(prompt: Prompt): Parsed {
  return { kind: 'text', s: prompt as Exclude<Prompt, PromptList> }
}

function tryParse(p: Prepared, prompt: Prompt, mode: Mode, row: number, plainList: boolean, warnings: EngineWarning[]): Parsed | { error: EngineError } {
  try {
    return parseWith(prompt, p.meta, { parser: p.parser, mode, family: p.family, row, plainList }, warnings)
  } catch (e) {
    return { error: toEngineError(e, p.family === 'aisbench' ? 'prompt' : 'parse', { row }) }
  }
}

/** MultiTurnGenInferencer: one request per BOT turn (every / every_with_gt); `last` crashes upstream. */
function renderTurns(p: Prepared, rowIdx: number, prompt: PromptList, item: RenderedItem, warnings: EngineWarning[], spans: boolean): void {
  try {
    const turns = splitTurns(p, prompt, rowIdx, warnings)
    item.turns = []
    for (const { turn, prompt: request } of turns) {
      const parsed = parseWith(request, p.meta, { parser: p.parser, mode: 'gen', family: p.family, row: rowIdx }, warnings)
      const t: NonNullable<RenderedItem['turns']>[number] = { turn_id: turn - 1, modelInput: toModelInput(parsed, spans) }
      if (p.parser === 'api') {
        try {
          t.messages = p.family === 'aisbench' ? aisMessages(parsedJson(parsed)) : openAiMessages(parsedJson(parsed))
        } catch (e) {
          t.messages = { error: toEngineError(e, 'messages').message }
        }
      }
      item.turns.push(t)
    }
  } catch (e) {
    item.error = toEngineError(e, 'parse', { row: rowIdx })
  }
}

/** Parsed in-context examples of every row in PPL mode, as OC logs them (`ice_model_input`). */
export function iceModelInputs(p: Prepared): unknown[] | EngineError {
  const out: unknown[] = []
  for (let i = 0; i < p.test.length; i++) {
    try {
      const ice = generateIce(p, p.iceIdx[i] ?? [], 'ice', [])
      out.push(parsedJson(parseWith(ice, p.meta, { parser: p.parser, mode: 'ppl', family: p.family, row: i, plainList: false }, [])))
    } catch (e) {
      return toEngineError(e, 'parse', { row: i })
    }
  }
  return out
}

export interface RenderAllResult {
  prepared?: Prepared
  rows: RenderedRow[]
  /** The first error in upstream's execution order: upstream fails the whole dataset on it. */
  error?: EngineError
  iceModelInput?: unknown[]
  warnings: EngineWarning[]
}

/** Renders every row (CLI and conformance); stops at the first error as upstream would. */
export function renderAll(input: PipelineInput): RenderAllResult {
  const p = preparePipeline(input)
  if ('code' in p) return { rows: [], error: p, warnings: [] }
  const res: RenderAllResult = { prepared: p, rows: [], warnings: [...p.warnings] }
  // Upstream builds every prompt (all rows) before parsing any of them, so a prompt-stage error anywhere wins.
  const built = p.test.map((_, i) => buildPromptList(p, i))
  if (p.mode === 'ppl' && p.family === 'opencompass') {
    const iceErr = built.find((b) => b.error && b.error.stage === 'ice')
    if (iceErr) return { ...res, error: iceErr.error }
    const imi = iceModelInputs(p)
    if (!Array.isArray(imi)) return { ...res, error: imi }
    res.iceModelInput = imi
  }
  if (p.family === 'opencompass') {
    const first = built.find((b) => b.error)
    if (first) return { ...res, error: first.error }
  }
  for (let i = 0; i < p.test.length; i++) {
    const r = renderRow(p, i)
    res.rows.push(r)
    res.warnings.push(...r.warnings)
    if (r.error) return { ...res, error: r.error }
  }
  return res
}

export { EMPTY }

function notesByRow(notes: { row: number; code: string; message: string }[] | undefined): Map<number, EngineWarning[]> {
  const out = new Map<number, EngineWarning[]>()
  for (const n of notes ?? []) out.set(n.row, [...(out.get(n.row) ?? []), { code: n.code, message: n.message, at: { path: 'retriever', row: n.row } }])
  return out
}
