// PromptTemplate, MMPromptTemplate, MultiTurnPromptTemplate and RawPromptTemplate: construction checks,
// _encode_template, and the items upstream generates from them (examples, generation and PPL prompts).
import { PyRaise, familyRaise } from './errors'
import type { FormatArgs } from './format-plan'
import {
  formatEntries,
  formatPrompt,
  marker,
  markFormatTargets,
  markShared,
  replacePrompt,
  safeFormat,
  strItem,
  toItem,
  type FormatCtx,
  type FormatEntry,
  type FormatInput
} from './prompt-list'
import { LabelDict, jsonRuntime, pyRepr, pyStr, pyTruthy, pyTypeName } from '../python/json'
import { PyError } from '../python/errors'
import { EMPTY, sLit, sRetag, type Source } from './spanned'
import { olympiadArgsError, olympiadBaseTemplate, type OlympiadKind } from './olympiad'
import type { EngineWarning, Family, PDict, PItem, Prompt, PromptList, PStr as PStrItem, Row } from './types'
import { isPromptList } from './types'

export type TemplateKind = 'PromptTemplate' | 'MMPromptTemplate' | 'MultiTurnPromptTemplate' | 'RawPromptTemplate'

export interface BuiltTemplate {
  kind: TemplateKind
  /** 'prompt_template' or 'ice_template': the config path, used in sources and errors. */
  name: string
  template: unknown
  iceToken: string | null
  sepToken: string | null
  promptType: 'meta' | 'origin'
  family: Family
  /** Encoded forms, made once (the template is the same for every row). */
  cache: Map<string, Prompt>
  /** RawPromptTemplate `format_variables`: whether message contents are formatted with the row (default true). */
  formatVariables?: boolean
  /** The last examples spliced into the generation template, and the result (FixK: the same for every row). */
  spliced?: { ice: Prompt; template: Prompt; result: Prompt }
  /** MMPromptTemplate: whether every round item has prompt_mm (worked out once, on the first row). */
  mmRoundOk?: boolean
  /** OlympiadBenchTemplate / OlympiadBenchRawTemplate: a subclass that builds each row's entry first (olympiad.ts). */
  olympiad?: OlympiadKind
}

const TEMPLATE_ARGS: Record<TemplateKind, string[]> = {
  PromptTemplate: ['template', 'ice_token', 'sep_token'],
  MMPromptTemplate: ['template', 'ice_token', 'sep_token'],
  MultiTurnPromptTemplate: ['template', 'ice_token', 'sep_token'],
  RawPromptTemplate: ['messages', 'format_variables', 'ice_token']
}

function isDict(v: unknown): v is Record<string, unknown> | LabelDict {
  return v instanceof LabelDict || (!!v && typeof v === 'object' && !Array.isArray(v))
}

export function dictKeys(v: Record<string, unknown> | LabelDict): unknown[] {
  return v instanceof LabelDict ? v.keys() : Object.keys(v)
}

function dictValues(v: Record<string, unknown> | LabelDict): unknown[] {
  return v instanceof LabelDict ? v.values() : Object.values(v)
}

/** Python `d[key]` on a template dict (typed keys: 1 != '1'). */
export function dictGet(v: Record<string, unknown> | LabelDict, key: unknown, stage: 'ice' | 'prompt'): unknown {
  if (v instanceof LabelDict) {
    if (!v.has(key)) throw new PyRaise('KeyError', pyRepr(key), stage)
    return v.get(key)
  }
  if (typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(v, key)) throw new PyRaise('KeyError', pyRepr(key), stage)
  return v[key]
}

/** Builds a template from its config dict, raising what upstream's constructor raises. */
export function buildTemplate(cfg: Record<string, unknown>, name: string, family: Family): BuiltTemplate {
  const kind = String(cfg.type) as TemplateKind
  const stage = family === 'aisbench' ? 'retriever' : 'template'
  const at = { path: name }
  const cls = String(cfg.type)
  if (cls === 'OlympiadBenchTemplate' || cls === 'OlympiadBenchRawTemplate') {
    // opencompass.datasets.OlympiadBench registers both (OpenCompass only): no arguments, a fixed parent template.
    if (family === 'aisbench') throw new PyRaise('KeyError', `'${cfg.type} is not in the icl_prompt_template registry'`, stage, at)
    const bad = olympiadArgsError(cls, cfg)
    if (bad) throw new PyRaise(bad.pyClass, bad.message, stage, at)
    const base = olympiadBaseTemplate(cls)
    const built =
      cls === 'OlympiadBenchTemplate' ? buildTemplate({ type: 'PromptTemplate', template: base }, name, family) : buildRaw({ type: 'RawPromptTemplate', messages: base }, name, family)
    return { ...built, olympiad: cls }
  }
  if (!TEMPLATE_ARGS[kind]) throw new PyRaise('KeyError', `'${cfg.type} is not in the icl_prompt_template registry'`, stage, at)
  for (const k of Object.keys(cfg)) {
    if (k !== 'type' && !TEMPLATE_ARGS[kind].includes(k)) {
      throw new PyRaise('TypeError', `${kind}.__init__() got an unexpected keyword argument ${pyRepr(k)}`, stage, at)
    }
  }
  if (kind === 'RawPromptTemplate') return buildRaw(cfg, name, family)
  if (!('template' in cfg)) throw new PyRaise('TypeError', `${kind}.__init__() missing 1 required positional argument: 'template'`, stage, at)
  const template = cfg.template
  if (typeof template !== 'string' && !isDict(template)) {
    throw familyRaise(family, ['AssertionError', ''], ['AISBenchValueError', 'ICLR-TYPE-001', `Prompt template must be a str or a dict, but got <class '${pyTypeName(template)}'>`], stage, at)
  }
  const tokenArg = (tk: 'ice_token' | 'sep_token'): string | null => {
    const v = cfg[tk]
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new PyRaise('TypeError', `Expected an object in [None, 'str'] type, but got ${pyStr(v)}`, stage, { path: `${name}.${tk}` })
    }
    return v ?? null
  }
  const iceToken = tokenArg('ice_token')
  const sepToken = tokenArg('sep_token')
  let promptType: 'meta' | 'origin' = 'origin'
  if (isDict(template)) {
    const keys = dictKeys(template)
    const ctr = ['begin', 'round', 'end'].filter((k) => keys.some((x) => x === k)).length
    promptType = ctr === keys.length ? 'meta' : 'origin'
    for (const val of dictValues(template)) {
      if (typeof val !== 'string' && !Array.isArray(val) && !isDict(val)) {
        throw familyRaise(family, ['TypeError', `dictionary of template expects a str, list or a dict, but got '${pyStr(val)}'`], ['AISBenchTypeError', 'ICLR-TYPE-002', `dictionary of template expects a str, list or a dict, but got '${pyStr(val)}'`], stage, at)
      }
      if (typeof val === 'string' && iceToken && !val.includes(iceToken)) {
        throw familyRaise(family, ['LookupError', `'${iceToken}' not in '${val}'`], ['AISBenchValueError', 'ICLR-PARAM-001', `'${iceToken}' not in '${val}'`], stage, at)
      }
    }
  } else if (iceToken && !(template as string).includes(iceToken)) {
    throw familyRaise(family, ['LookupError', `'${iceToken}' not in '${template}'`], ['AISBenchValueError', 'ICLR-PARAM-001', `'${iceToken}' not in '${template}'`], stage, at)
  }
  return { kind, name, template, iceToken, sepToken, promptType, family, cache: new Map() }
}

function buildRaw(cfg: Record<string, unknown>, name: string, family: Family): BuiltTemplate {
  const messages = cfg.messages
  const at = { path: `${name}.messages` }
  if (!Array.isArray(messages)) throw new PyRaise('ValueError', 'messages must be a list', 'template', at)
  messages.forEach((m, i) => {
    if (typeof m === 'string') return
    if (!isDict(m) || m instanceof LabelDict) throw new PyRaise('ValueError', `messages[${i}] must be a dict or a str`, 'template', at)
    if ('expand_column' in m) return
    if (!('role' in m) || !('content' in m)) throw new PyRaise('ValueError', `messages[${i}] must have 'role' and 'content'`, 'template', at)
    if (!['system', 'user', 'assistant'].includes(m.role as string)) {
      throw new PyRaise('ValueError', `messages[${i}] has invalid role: ${pyStr(m.role)}`, 'template', at)
    }
  })
  const formatVariables = cfg.format_variables === undefined ? true : pyTruthy(cfg.format_variables)
  // RawPromptTemplate's constructor takes ice_token unchecked (a str by its annotation only).
  const iceToken = (cfg.ice_token ?? '</E>') as string
  return { kind: 'RawPromptTemplate', name, template: messages, iceToken, sepToken: null, promptType: 'origin', family, cache: new Map(), formatVariables }
}

/** PromptList `+=` of a config value: falsy ignored, str appended, list (or dict keys) extended. */
function iaddConfig(out: PromptList, v: unknown, path: string): void {
  if (!pyTruthy(v)) return
  if (typeof v === 'string') out.push(toItem(v, path))
  else if (Array.isArray(v)) v.forEach((x, i) => out.push(toItem(x, `${path}[${i}]`)))
  else if (isDict(v)) dictKeys(v).forEach((k) => out.push(toItem(k, path)))
  else throw new PyRaise('TypeError', `'${pyTypeName(v)}' object is not iterable`, 'prompt', { path })
}

/** _encode_template: a str stays a str; a dict becomes begin/round(or ice)/end sections. */
export function encodeTemplate(tpl: unknown, ice: boolean, path: string): Prompt {
  if (typeof tpl === 'string') return sLit(tpl, { kind: 'template', path })
  if (Array.isArray(tpl)) throw new PyRaise('TypeError', 'list indices must be integers or slices, not str', 'prompt', { path })
  if (!isDict(tpl) || tpl instanceof LabelDict) throw new PyRaise('TypeError', `'${pyTypeName(tpl)}' object is not subscriptable`, 'prompt', { path })
  const out: PromptList = []
  if ('begin' in tpl && !ice) {
    out.push(marker('begin', 'begin'))
    if (Array.isArray(tpl.begin)) iaddConfig(out, tpl.begin, `${path}.begin`)
    else out.push(toItem(tpl.begin, `${path}.begin`))
    out.push(marker('begin', 'end'))
  }
  out.push(marker(ice ? 'ice' : 'round', 'begin'))
  if (!('round' in tpl)) throw new PyRaise('KeyError', "'round'", 'prompt', { path })
  iaddConfig(out, tpl.round, `${path}.round`)
  out.push(marker(ice ? 'ice' : 'round', 'end'))
  if ('end' in tpl && !ice) {
    // Upstream opens the end section with pos='end' too (sic): see the end-section warnings in the parsers.
    out.push(marker('end', 'end'))
    if (Array.isArray(tpl.end)) iaddConfig(out, tpl.end, `${path}.end`)
    else out.push(toItem(tpl.end, `${path}.end`))
    out.push(marker('end', 'end'))
  }
  return out
}

function cached(t: BuiltTemplate, key: string, make: () => Prompt): Prompt {
  let v = t.cache.get(key)
  if (!v) {
    v = make()
    markShared(v)
    markFormatTargets(v)
    t.cache.set(key, v)
  }
  return v
}

function labelPath(t: BuiltTemplate, label: unknown): string {
  return `${t.name}.template[${pyRepr(label)}]`
}

/** The template a label selects: the whole template for str/meta ones, template[label] for label dicts. */
function selectEncoded(t: BuiltTemplate, label: unknown, ice: boolean, stage: 'ice' | 'prompt'): Prompt {
  if (typeof t.template === 'string' || t.promptType === 'meta') {
    return cached(t, ice ? 'ice' : 'main', () => encodeTemplate(t.template, ice, `${t.name}.template`))
  }
  const tpl = t.template as Record<string, unknown> | LabelDict
  const value = dictGet(tpl, label, stage)
  return cached(t, `${ice ? 'ice' : 'main'}:${pyRepr(label)}`, () => encodeTemplate(value, ice, labelPath(t, label)))
}

/** Marks every piece of an example's text as belonging to in-context example k. */
function asIce(p: Prompt, k: number): Prompt {
  const map = (src: Source): Source => ({ ...src, kind: 'ice', ice: k })
  if (!isPromptList(p)) return sRetag(p, map)
  return p.map((it): PItem => {
    if (it.t === 's') return { t: 's', s: sRetag(it.s, map) }
    if (it.t === 'd' && it.p) return { t: 'd', d: it.d, p: sRetag(it.p, map) }
    return it
  })
}

/** generate_ice_item: example k from a train row, formatted with its own (unmasked) row. */
export function generateIceItem(t: BuiltTemplate, entry: Row, label: unknown, k: number, warnings: EngineWarning[]): Prompt {
  if (t.kind === 'RawPromptTemplate') return rawItem(t, entry, null, { forIce: true }, k)
  let tp = asIce(selectEncoded(t, label, true, 'ice'), k)
  if (t.sepToken !== null && promptText(tp).includes(t.sepToken)) {
    warnings.push({ code: 'sep-token-kept-in-example', message: `sep_token ${pyRepr(t.sepToken)} is not removed from in-context examples (upstream discards the result of replace).`, at: { path: `${t.name}.sep_token`, ice: k } })
  }
  if (t.iceToken !== null) tp = replacePrompt(tp, t.iceToken, EMPTY, t.family)
  const srcs = new Map<string, Source>()
  const args: FormatArgs = {
    row: entry,
    srcOf: (key) => {
      let s = srcs.get(key)
      if (!s) srcs.set(key, (s = { kind: 'ice', ice: k, field: key }))
      return s
    }
  }
  return formatPrompt(tp, args, { forIce: true })
}

export function promptText(p: Prompt): string {
  if (!isPromptList(p)) return p.text
  let s = ''
  for (const it of p) if (it.t === 's') s += it.s.text
  else if (it.t === 'd' && it.p) s += it.p.text
  return s
}

export interface ItemArgs {
  entries: FormatInput
  ctx: FormatCtx
  ice: Prompt
}

/** generate_item (gen): template (first value of a label dict), examples spliced at ice_token, sep removed, then the masked row. */
export function generateItem(t: BuiltTemplate, args: ItemArgs): Prompt {
  let template: Prompt
  if (typeof t.template === 'string') template = cached(t, 'main', () => encodeTemplate(t.template, false, `${t.name}.template`))
  else if (t.promptType === 'origin') {
    const first = dictKeys(t.template as Record<string, unknown>)[0]
    template = selectEncoded(t, first, false, 'prompt')
  } else template = selectEncoded(t, null, false, 'prompt')
  const memo = t.spliced
  if (memo !== undefined && memo.ice === args.ice && memo.template === template) template = memo.result
  else {
    const encoded = template
    if (t.iceToken !== null) template = replacePrompt(template, t.iceToken, args.ice, t.family)
    if (t.sepToken !== null) template = replacePrompt(template, t.sepToken, EMPTY, t.family)
    markFormatTargets(template)
    t.spliced = { ice: args.ice, template: encoded, result: template }
  }
  return formatPrompt(template, args.entries, args.ctx)
}

/** generate_label_prompt_item (PPL): template[label], sep removed, examples inserted, row NOT masked. */
export function generateLabelPromptItem(t: BuiltTemplate, label: unknown, args: ItemArgs): Prompt {
  let template = selectEncoded(t, label, false, 'prompt')
  if (t.sepToken !== null) template = replacePrompt(template, t.sepToken, EMPTY, t.family)
  if (t.iceToken !== null) template = replacePrompt(template, t.iceToken, args.ice, t.family)
  return formatPrompt(template, args.entries, args.ctx)
}

function rowFieldSrc(key: string): Source {
  return { kind: 'field', field: key }
}

/** RawPromptTemplate.generate_item: role/content messages; ice token spliced; expand_column spliced verbatim. */
export function rawItem(t: BuiltTemplate, entry: Row, ice: Prompt | null, ctx: FormatCtx, k?: number): PromptList {
  const entries = formatEntries(entry, k === undefined ? rowFieldSrc : (key: string): Source => ({ kind: 'ice', ice: k, field: key }))
  const out: PromptList = []
  ;(t.template as unknown[]).forEach((m, i) => {
    const path = `${t.name}.messages[${i}]`
    if (typeof m === 'string') {
      if (m === t.iceToken && ice && isPromptList(ice)) out.push(...ice)
      return
    }
    const d = m as Record<string, unknown>
    if ('expand_column' in d) {
      const v = entry[d.expand_column as string]
      if (Array.isArray(v)) for (const x of v) out.push({ t: 'd', d: x as Record<string, unknown>, pk: 'content' } as PDict)
      return
    }
    // Upstream deep-copies each message and formats only a str `content`, and only with format_variables:
    // other keys stay, and list content (multimodal parts) is left as it is.
    if (typeof d.content !== 'string') {
      out.push({ t: 'd', d: deepCopy(d), pk: 'content' } as PDict)
      return
    }
    const base: Source = k === undefined ? { kind: 'template', path: `${path}.content` } : { kind: 'ice', ice: k, path: `${path}.content` }
    const raw = sLit(d.content, base)
    const content = t.formatVariables === false ? raw : safeFormat(raw, entries, ctx)
    out.push({ t: 'd', d: { ...d, content: content.text }, p: content, pk: 'content' } as PDict)
  })
  return out
}

/** What Python's `zip` takes from a row value (a list's items, a str's characters, a dict's keys), raised at `stage`. */
function pyIter(v: unknown, stage: 'prompt'): readonly unknown[] {
  try {
    return jsonRuntime.items(v)
  } catch (e) {
    if (e instanceof PyError) throw new PyRaise(e.pyClass, e.message, stage)
    throw e
  }
}

/** MultiTurnPromptTemplate.generate_item: one copy of `round` per (question, answer) pair; begin/end never formatted. */
export function multiTurnItem(t: BuiltTemplate, entry: Row, row: number): PromptList {
  if (typeof t.template === 'string') throw new PyRaise('AttributeError', "'str' object has no attribute 'get'", 'prompt', { row })
  const enc = selectEncoded(t, null, false, 'prompt') as PromptList
  const rb = enc.findIndex((it) => it.t === 'd' && it.d.section === 'round' && it.d.pos === 'begin')
  const re = enc.findIndex((it) => it.t === 'd' && it.d.section === 'round' && it.d.pos === 'end')
  const round = enc.slice(rb + 1, re)
  if (!('question' in entry)) throw new PyRaise('KeyError', "'question'", 'prompt', { row, field: 'question' })
  if (!('answer' in entry)) throw new PyRaise('KeyError', "'answer'", 'prompt', { row, field: 'answer' })
  const qs = pyIter(entry.question, 'prompt')
  const as = pyIter(entry.answer, 'prompt')
  const out: PromptList = enc.slice(0, rb + 1)
  const n = Math.min(qs.length, as.length)
  for (let i = 0; i < n; i++) {
    const entries: FormatEntry[] = [
      { needle: '{question}', key: 'question', value: sLit(pyStr(qs[i]), { kind: 'field', field: 'question', turn: i }) },
      { needle: '{answer}', key: 'answer', value: sLit(pyStr(as[i]), { kind: 'field', field: 'answer', turn: i }) }
    ]
    out.push(...(formatPrompt(round, entries, { row }) as PromptList))
  }
  out.push(...enc.slice(re))
  return out
}

const MM_TAGS: Array<[string, string, string]> = [
  ['<AIS_TEXT_START>', 'text', ''],
  ['<AIS_IMAGE_START>', 'image', 'image_url'],
  ['<AIS_VIDEO_START>', 'video', 'video_url'],
  ['<AIS_AUDIO_START>', 'audio', 'audio_url']
]

/** copy.deepcopy of a JSON config value (plain objects and lists copied, other values shared: they are immutable). */
function deepCopy<T>(v: T): T {
  if (Array.isArray(v)) return v.map(deepCopy) as T
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o = v as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(o)) out[k] = deepCopy(o[k])
    return out as T
  }
  return v
}

function mmRoundOk(t: BuiltTemplate, row?: number): boolean {
  if (t.mmRoundOk === undefined) t.mmRoundOk = checkMmTemplate(t, row)
  return t.mmRoundOk
}

/**
 * MMPromptTemplate.check_mm_template: `"prompt_mm" not in data.keys()` for each round item in turn, so the
 * first item that is not a dict (a str) raises AttributeError, unless an earlier dict already returned False.
 */
function checkMmTemplate(t: BuiltTemplate, row?: number): boolean {
  const tpl = t.template
  if (!isDict(tpl) || tpl instanceof LabelDict || !('round' in tpl)) return false
  const round = tpl.round
  const items: unknown[] = Array.isArray(round) ? round : typeof round === 'string' ? [...round] : isDict(round) ? dictKeys(round) : []
  if (!Array.isArray(round) && typeof round !== 'string' && !isDict(round)) {
    throw new PyRaise('TypeError', `'${pyTypeName(round)}' object is not iterable`, 'prompt', { row, path: `${t.name}.template.round` })
  }
  for (const data of items) {
    if (!isDict(data) || data instanceof LabelDict) {
      throw new PyRaise('AttributeError', `'${pyTypeName(data)}' object has no attribute 'keys'`, 'prompt', { row, path: `${t.name}.template.round` })
    }
    if (!('prompt_mm' in data)) return false
  }
  return true
}

/** format_mm: content segments become prompt_mm parts (content order); plain prompt items stay unformatted. */
export function mmItem(t: BuiltTemplate, entry: Row, entries: FormatInput, ctx: FormatCtx, warnings: EngineWarning[]): PromptList {
  if (!mmRoundOk(t, ctx.row)) {
    warnings.push({ code: 'mm-template-without-prompt-mm', message: 'MMPromptTemplate round items without prompt_mm are copied unformatted: placeholders stay and the output column is not masked.', at: { path: `${t.name}.template.round`, row: ctx.row } })
  }
  // format_mm_url indexes template["round"] (Python 3.11+ names the index type).
  if (typeof t.template === 'string') throw new PyRaise('TypeError', "string indices must be integers, not 'str'", 'prompt', { row: ctx.row, path: `${t.name}.template` })
  const enc = selectEncoded(t, null, false, 'prompt') as PromptList
  const out: PromptList = new Array(enc.length)
  for (let i = 0; i < enc.length; i++) {
    const it = enc[i]
    if (it.t === 's') {
      out[i] = strItem(safeFormat(it.s, entries, ctx))
      // generate_item then tests `"prompt_mm" in item` on every item: a substring test for a str, and
      // get_mm_template indexes it.
      if ((out[i] as PStrItem).s.text.includes('prompt_mm')) throw new PyRaise('TypeError', "string indices must be integers, not 'str'", 'prompt', { row: ctx.row })
    }
    else if (it.t !== 'd' || !('prompt_mm' in it.d)) out[i] = it
    else out[i] = { t: 'd', d: mmDict(t, it.d, entry, ctx), p: it.p }
  }
  return out
}

/** How to make one kind of part: the prompt_mm entry, and the field to fill split once at its placeholder. */
interface PartPlan {
  part: Record<string, unknown>
  /** The url dict holding the field (image_url: {url}), or null when the field is on the part itself. */
  nested: string | null
  field: string
  pieces: string[]
  /** Whether a shallow copy (and of the url dict) is a deep copy: no other nested dict or list. */
  flat: boolean
}

const PART_PLANS = new WeakMap<object, Array<PartPlan | undefined>>()

/** The plan for tag `k` of MM_TAGS (made once per prompt_mm dict and tag). */
function partPlan(pm: Record<string, unknown>, k: number): PartPlan {
  let plans = PART_PLANS.get(pm)
  if (!plans) PART_PLANS.set(pm, (plans = []))
  let plan = plans[k]
  if (plan === undefined) {
    const [, key, urlKey] = MM_TAGS[k]
    // format_mm indexes the part as a dict (mm['image']['image_url']['url']); a prompt_mm entry is one.
    const part = pm[key] as Record<string, unknown>
    const nested = part?.[urlKey]
    if (key === 'text') plan = { part, nested: null, field: 'text', pieces: pyStr(part?.text).split('{question}'), flat: false }
    else if (nested && typeof nested === 'object') plan = { part, nested: urlKey, field: 'url', pieces: pyStr((nested as Record<string, unknown>).url).split(`{${key}}`), flat: false }
    else plan = { part, nested: null, field: urlKey, pieces: pyStr(nested).split(`{${key}}`), flat: false }
    plan.flat = isFlatPart(part, plan.nested)
    plans[k] = plan
  }
  return plan
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype
}

function isFlatPart(part: unknown, nested: string | null): boolean {
  if (!isPlainObject(part)) return false
  const shallow = (o: Record<string, unknown>): boolean => Object.values(o).every((v) => !Array.isArray(v) && !isPlainObject(v))
  for (const [k, v] of Object.entries(part)) {
    if (k === nested) {
      if (!isPlainObject(v) || !shallow(v)) return false
    } else if (Array.isArray(v) || isPlainObject(v)) return false
  }
  return true
}

/**
 * Which MM_TAGS entry the content segment [pos, end) starts with (-1: none), read in place so no segment string
 * is cut out. The tags differ at their sixth character; a tag must lie inside the segment.
 */
function tagAt(content: string, pos: number, end: number): number {
  let k: number
  switch (content.charCodeAt(pos + 5)) {
    case 84: // T
      k = 0
      break
    case 73: // I
      k = 1
      break
    case 86: // V
      k = 2
      break
    case 65: // A
      k = 3
      break
    default:
      return -1
  }
  const tag = MM_TAGS[k][0]
  // A slice compared with the tag is quicker in V8 than startsWith(tag, pos).
  return pos + tag.length <= end && content.slice(pos, pos + tag.length) === tag ? k : -1
}

/** The field's text with every placeholder replaced by `value` (one placeholder, the usual case: no join). */
function fill(pieces: string[], value: string): string {
  if (pieces.length === 1) return pieces[0]
  if (pieces.length === 2) return pieces[0] + value + pieces[1]
  return pieces.join(value)
}

/**
 * One part for one content segment: format_mm takes `deepcopy(mm['image'])` for every segment and fills its
 * placeholder, so each part has its own url dict (two images of one row keep their two urls).
 */
function makePart(plan: PartPlan, value: string): unknown {
  if (plan.nested !== null) {
    const inner = plan.part[plan.nested] as Record<string, unknown>
    const nest = plan.flat ? { ...inner } : deepCopy(inner)
    nest.url = fill(plan.pieces, value)
    const part = plan.flat ? { ...plan.part } : deepCopy(plan.part)
    part[plan.nested] = nest
    return part
  }
  const part = plan.flat ? { ...plan.part } : deepCopy(plan.part)
  part[plan.field] = fill(plan.pieces, value)
  return part
}

const CONTENT_SEP = '<AIS_CONTENT_TAG>'

/** The plan for tag `k`, after the check that the template has that kind of part (KeyError otherwise). */
function checkedPlan(t: BuiltTemplate, pm: Record<string, unknown>, k: number, row: number | undefined): PartPlan {
  const key = MM_TAGS[k][1]
  if (!pm || typeof pm !== 'object' || !(key in pm)) throw new PyRaise('KeyError', pyRepr(key), 'prompt', { row, path: `${t.name}.template.round.prompt_mm` })
  return partPlan(pm, k)
}

/**
 * `entry['content'].split('<AIS_CONTENT_TAG>')`, each segment tested against the tags in turn. Walked by
 * position: only the value after a tag is cut out, and a prompt_mm dict's plans are looked up, checked once.
 */
function mmDict(t: BuiltTemplate, item: Record<string, unknown>, entry: Row, ctx: FormatCtx): Record<string, unknown> {
  const pm = item.prompt_mm as Record<string, unknown>
  if (!('content' in entry)) throw new PyRaise('KeyError', "'content'", 'prompt', { row: ctx.row, field: 'content' })
  const parts: unknown[] = []
  const content = pyStr(entry.content)
  const plans = PART_PLANS.get(pm)
  const n = content.length
  let pos = 0
  while (pos <= n) {
    let end = content.indexOf(CONTENT_SEP, pos)
    if (end === -1) end = n
    const k = tagAt(content, pos, end)
    if (k !== -1) {
      const plan = plans?.[k] ?? checkedPlan(t, pm, k, ctx.row)
      parts.push(makePart(plan, content.slice(pos + MM_TAGS[k][0].length, end)))
    }
    pos = end + CONTENT_SEP.length
  }
  // The copy keeps the key order: prompt_mm stays where the template has it.
  return { ...item, prompt_mm: parts }
}
