// LMTemplateParser (PromptList → string) and APITemplateParser (PromptList → role messages), as upstream's
// parse_template walks sections, splits rounds, merges role dicts and stops at the generate role.
import { PyRaise, aisRaise, type Stage } from './errors'
import { memoTable, updateRoleDict, type MetaInfo, type RoleDict, type RoleState } from './meta-template'
import { isShared, itemJson, isSectionMarker } from './prompt-list'
import { pyRepr, pyTruthy, pyTypeName } from '../python/json'
import { EMPTY, sConcat, sLit, type Source, type SStr } from './spanned'
import type { EngineWarning, Family, Mode, PItem, Prompt, PromptList } from './types'
import { isPromptList } from './types'

const JOIN_SRC: Source = { kind: 'separator', path: 'parser.join' }
const JOIN = sLit('\n', JOIN_SRC)
const MERGE = sLit('\n', { kind: 'separator', path: 'parser.merge' })

export interface ParseOpts {
  mode: Mode | string
  family: Family
  warnings: EngineWarning[]
  row?: number
  /** The prompt is a plain Python list (RawPromptTemplate output), not a PromptList. */
  plainList?: boolean
}

/** A message the API parser produced; raw entries are what upstream inserts as is (meta begin, None). */
export type ApiItem = { t: 'msg'; role: unknown; prompt: SStr | null; raw?: unknown } | { t: 'raw'; v: unknown }

export type Parsed =
  | { kind: 'text'; s: SStr }
  | { kind: 'messages'; items: ApiItem[] }
  | { kind: 'parts'; parts: unknown[] }
  | { kind: 'passthrough'; items: unknown[] }

function err(family: Family, oc: [string, string], code: string, msg: string, row?: number): PyRaise {
  return family === 'aisbench' ? aisRaise('AISBenchValueError', code, msg, 'parse', { row }) : new PyRaise(oc[0], oc[1], 'parse', { row })
}

function checkMode(o: ParseOpts): void {
  if (o.mode !== 'ppl' && o.mode !== 'gen') {
    if (o.family === 'aisbench') throw aisRaise('AISBenchTypeError', 'MODEL-TYPE-003', `Parsing mode must be 'ppl' or 'gen', but got ${o.mode}`, 'parse', { row: o.row })
    throw new PyRaise('AssertionError', '', 'parse', { row: o.row })
  }
}

/** No meta template: non-empty texts joined by '\n', with a separator even after empty items (sic). */
function joinPlain(pl: PromptList, o: ParseOpts, collectMm: boolean): Parsed {
  const parts: SStr[] = []
  let sep = false
  const mm: unknown[] = []
  for (const it of pl) {
    if (isSectionMarker(it)) continue
    if (it.t === 's') {
      if (it.s.text) parts.push(sep ? JOIN : EMPTY, it.s)
    } else if (it.t === 'd') {
      const p = it.p ? it.p.text : it.d.prompt
      if (pyTruthy(p)) {
        if (!it.p) throw new PyRaise('TypeError', `can only concatenate str (not "${pyTypeName(p)}") to str`, 'parse', { row: o.row })
        parts.push(sep ? JOIN : EMPTY, it.p)
      } else if (collectMm && pyTruthy(it.d.prompt_mm)) {
        const v = it.d.prompt_mm
        if (Array.isArray(v)) mm.push(...v)
        else if (v && typeof v === 'object') mm.push(...Object.keys(v))
        else if (typeof v === 'string') mm.push(...v)
      }
    } else throw new PyRaise('AttributeError', `'${pyTypeName(it.v)}' object has no attribute 'get'`, 'parse', { row: o.row })
    sep = true
  }
  const s = sConcat(parts)
  if (collectMm && !s.text) return { kind: 'parts', parts: mm }
  return { kind: 'text', s }
}

interface Walk {
  onStr(it: PItem & { t: 's' }): void
  onRound(dialogue: PromptList, section: string, lastRound: boolean, forGenAllowed: boolean): boolean
  onBeginEnd(it: PItem): boolean
}

const SECTIONS = ['begin', 'round', 'end', 'ice']

function hasEndSection(pl: PromptList, from: number): boolean {
  for (let k = from; k < pl.length; k++) {
    const x = pl[k]
    if (x.t === 'd' && x.d.section === 'end') return true
  }
  return false
}

/** The section walk both parsers share; returns whether generation went on to the end. */
function walk(pl: PromptList, info: MetaInfo, o: ParseOpts, w: Walk): boolean {
  const stack: Array<[string, number]> = []
  let generate = true
  let i = 0
  for (; i < pl.length; i++) {
    if (!generate) break
    const it = pl[i]
    if (it.t === 's') {
      w.onStr(it)
    } else if (it.t === 'd' && 'section' in it.d) {
      const pos = it.d.pos
      if (pos === 'end') {
        const top = stack.pop()
        if (!top) throw new PyRaise('IndexError', 'pop from empty list', 'parse', { row: o.row })
        const [section, start] = top
        if (section !== it.d.section) throw err(o.family, ['AssertionError', ''], 'MODEL-UNK-001', `section ${pyRepr(it.d.section).slice(1, -1)} in prompt template must match the last section ${section}`, o.row)
        if (section === 'round' || section === 'ice') {
          const dialogue = pl.slice(start, i)
          generate = w.onRound(dialogue, section, true, true)
        }
      } else if (pos === 'begin') {
        const sec = it.d.section as string
        if (!SECTIONS.includes(sec)) throw err(o.family, ['AssertionError', ''], 'MODEL-UNK-001', `section ${sec} in prompt template is not valid, it must be 'begin', 'round', 'end', or 'ice'`, o.row)
        stack.push([sec, i + 1])
      } else {
        throw err(o.family, ['ValueError', `Invalid pos ${pos}`], 'MODEL-UNK-001', `Invalid prompt template item pos ${pos}, legal item pos are 'begin' or 'end'.`, o.row)
      }
    } else {
      if (stack.length === 0) throw new PyRaise('IndexError', 'list index out of range', 'parse', { row: o.row })
      const top = stack[stack.length - 1][0]
      if (top === 'begin' || top === 'end') generate = w.onBeginEnd(it)
    }
  }
  if (!generate) {
    // Anything after the cut (the template's `end` section, later rounds) never reaches the model.
    if (hasEndSection(pl, i)) {
      o.warnings.push({ code: 'end-dropped-in-gen', message: "The template's `end` section comes after the generation cut and is dropped (upstream also opens it with pos='end').", at: { row: o.row, path: 'end' } })
    }
  }
  return generate
}

/** _split_rounds: a new round starts whenever a role's index in meta.round does not increase. */
function splitRounds(dialogue: PromptList, info: MetaInfo, api: boolean, o: ParseOpts): number[] {
  const idx = info.roundIndex
  let last = -1
  const cut = [0]
  for (let k = 0; k < dialogue.length; k++) {
    const it = dialogue[k]
    if (it.t === 's') continue
    if (it.t !== 'd') throw new PyRaise('TypeError', `'${pyTypeName(it.v)}' object is not subscriptable`, 'parse', { row: o.row })
    if (!('role' in it.d)) throw new PyRaise('KeyError', "'role'", 'parse', { row: o.row })
    let ri = idx.get(it.d.role as string)
    if (ri === undefined) {
      if (!api) throw new PyRaise('KeyError', pyRepr(it.d.role), 'parse', { row: o.row })
      ri = idx.get(it.d.fallback_role as string)
      if (ri === undefined) {
        const msg = o.family === 'aisbench' ? `prompt template item ${pyRepr(itemJson(it))} neither has an appropriate role nor a fallback_role.` : `${pyRepr(itemJson(it))} neither has an appropriate role nor a fallback role.`
        if (o.family === 'aisbench') throw aisRaise('AISBenchKeyError', 'MODEL-PARAM-002', msg, 'parse', { row: o.row })
        throw new PyRaise('KeyError', pyRepr(msg), 'parse', { row: o.row })
      }
    }
    if (ri <= last) cut.push(k)
    last = ri
  }
  cut.push(dialogue.length)
  return cut
}

function roleOf(rd: RoleDict, item: Record<string, unknown>, o: ParseOpts): RoleState {
  const st = rd.get(item.role as string) ?? rd.get(item.fallback_role as string)
  if (!st) throw new PyRaise('AttributeError', "'NoneType' object has no attribute 'get'", 'parse', { row: o.row })
  return st
}

function promptOf(st: RoleState, o: ParseOpts): SStr {
  if (st.prompt) return st.prompt
  const p = st.cfg.prompt
  if (p === undefined || p === '') return EMPTY
  throw new PyRaise('TypeError', `can only concatenate str (not "${pyTypeName(p)}") to str`, 'parse', { row: o.row })
}

/** `role.get('generate')` truthy; the usual true/absent answered before the general Python truthiness. */
function isGenerate(st: RoleState): boolean {
  const g = st.cfg.generate
  return g === true || (g !== undefined && g !== false && pyTruthy(g))
}

/** _role2str: begin, then (unless cut for generation) prompt and end. */
function roleToStr(st: RoleState, forGen: boolean, o: ParseOpts): [SStr, boolean] {
  if (forGen && isGenerate(st)) return [st.begin, false]
  return [sConcat([st.begin, promptOf(st, o), st.end]), true]
}

/** The rounds of one section as the LM parser renders them; `go` is false once the generate role cut it. */
function lmRounds(dialogue: PromptList, section: string, info: MetaInfo, o: ParseOpts): { s: SStr; go: boolean } {
  const parts: SStr[] = []
  const cuts = splitRounds(dialogue, info, false, o)
  let go = true
  for (let r = 0; r < cuts.length - 1; r++) {
    const rd = updateRoleDict(info, cuts.length === 2 ? dialogue : dialogue.slice(cuts[r], cuts[r + 1]), 'parse', o.row)
    const forGen = o.mode === 'gen' && r === cuts.length - 2 && section === 'round'
    go = true
    for (let k = 0; k < info.round.length; k++) {
      const m = info.round[k]
      if (typeof m === 'string') {
        parts.push(sLit(m, { kind: 'meta', path: `meta_template.round[${k}]` }))
        continue
      }
      const [s, cont] = roleToStr(roleOf(rd, m as Record<string, unknown>, o), forGen, o)
      parts.push(s)
      if (!cont) {
        go = false
        break
      }
    }
  }
  return { s: sConcat(parts), go }
}

interface RoundMemo<T> {
  items: readonly PItem[]
  value: T
}

/**
 * Example rounds (section 'ice') are the same item objects for every row that shares its examples, and
 * parse to the same thing: remember the last result per first item. Test-row rounds change every row.
 */
function memoRounds<T>(info: MetaInfo, kind: string, dialogue: PromptList, section: string, o: ParseOpts, make: () => T): T {
  if (section !== 'ice' || dialogue.length === 0) return make()
  const memo = memoTable(info, kind)
  const hit = memo.get(dialogue[0]) as RoundMemo<T> | undefined
  if (hit !== undefined && sameItems(hit.items, dialogue)) return hit.value
  const value = make()
  memo.set(dialogue[0], { items: dialogue, value })
  return value
}

/** A begin/end item's parse, remembered per shared config dict while its prompt text stays the same. */
function memoItem<T>(info: MetaInfo, kind: string, it: PItem & { t: 'd' }, make: () => T): T {
  const memo = memoTable(info, kind)
  const hit = memo.get(it.d) as { p: SStr | undefined; value: T } | undefined
  if (hit !== undefined && hit.p === it.p) return hit.value
  const value = make()
  if (hit !== undefined || isShared(it.d)) memo.set(it.d, { p: it.p, value })
  return value
}

function sameItems(a: readonly PItem[], b: readonly PItem[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The LM parser's walk handlers. A class, not an object of arrow functions made per call: the handlers are
 * made once, and dev builds that keep function names (tsx, esbuild keepNames) do not name a closure per row.
 */
class LmWalk implements Walk {
  readonly parts: SStr[] = []
  constructor(
    private readonly info: MetaInfo,
    private readonly o: ParseOpts
  ) {}
  onStr(it: PItem & { t: 's' }): void {
    this.parts.push(it.s)
  }
  onRound(dialogue: PromptList, section: string): boolean {
    const { info, o } = this
    const r = memoRounds(info, o.mode === 'gen' ? 'lm-ice-gen' : 'lm-ice-ppl', dialogue, section, o, () => lmRounds(dialogue, section, info, o))
    this.parts.push(r.s)
    return r.go
  }
  onBeginEnd(it: PItem): boolean {
    const { info, o } = this
    if (it.t !== 'd') throw new PyRaise('AssertionError', '', 'parse', { row: o.row })
    const r = memoItem(info, 'lm-item', it, () => {
      const st = roleOf(updateRoleDict(info, [it], 'parse', o.row), it.d, o)
      return { s: roleToStr(st, false, o)[0], generate: pyTruthy(st.cfg.generate) }
    })
    if (o.mode === 'gen' && r.generate) {
      o.warnings.push({ code: 'lm-never-cuts-in-begin-end', message: 'A generate role inside begin/end is rendered in full: the LM parser only cuts generation inside `round`.', at: { row: o.row, path: 'begin' } })
    }
    this.parts.push(r.s)
    return true
  }
}

export function parseLm(p: Prompt, info: MetaInfo | null, o: ParseOpts): Parsed {
  // A plain list (RawPromptTemplate) is parsed item by item (`[self.parse_template(p) for p in prompt]`): a
  // message dict fails the type assert, and an empty list (expand_column over a non-list column) gives [].
  if (o.plainList) {
    if (isPromptList(p) && p.length === 0) return { kind: 'passthrough', items: [] }
    throw new PyRaise('AssertionError', '', 'parse', { row: o.row })
  }
  checkMode(o)
  if (!isPromptList(p)) return { kind: 'text', s: p }
  if (!info) return joinPlain(p, o, false)
  const metaBegin = info.meta && !Array.isArray(info.meta) ? (info.meta as Record<string, unknown>) : {}
  const lw = new LmWalk(info, o)
  const generate = walk(p, info, o, lw)
  const parts = lw.parts
  // `meta_template.get('begin', '') + prompt` and `prompt += meta_template.get('end', '')`: a begin/end that is
  // present but not a str (a role dict, None, a list) makes the concatenation raise.
  if ('begin' in metaBegin && typeof metaBegin.begin !== 'string') throw new PyRaise('TypeError', addError(metaBegin.begin, 'str'), 'parse', { row: o.row, path: 'meta_template.begin' })
  if (generate && 'end' in metaBegin && typeof metaBegin.end !== 'string') throw new PyRaise('TypeError', `can only concatenate str (not "${pyTypeName(metaBegin.end)}") to str`, 'parse', { row: o.row, path: 'meta_template.end' })
  const begin = typeof metaBegin.begin === 'string' ? sLit(metaBegin.begin, { kind: 'meta', path: 'meta_template.begin' }) : EMPTY
  const end = generate && typeof metaBegin.end === 'string' ? sLit(metaBegin.end, { kind: 'meta', path: 'meta_template.end' }) : EMPTY
  return { kind: 'text', s: sConcat([begin, ...parts, end]) }
}

/** Python's TypeError text for `left + <str>` when `left` is not a str. */
function addError(left: unknown, right: string): string {
  const t = pyTypeName(left)
  if (t === 'list') return `can only concatenate list (not "${right}") to list`
  return `unsupported operand type(s) for +: '${t}' and '${right}'`
}

/** _role2api_role: {role: api_role, prompt: begin+prompt+end}; AISBench needs prompt or prompt_mm. */
function roleToApi(st: RoleState, forGen: boolean, o: ParseOpts): [ApiItem | null, boolean] {
  if (forGen && isGenerate(st)) return [null, false]
  if (!('api_role' in st.cfg)) throw new PyRaise('KeyError', "'api_role'", 'parse', { row: o.row })
  const role = st.cfg.api_role
  if (o.family === 'aisbench') {
    if ('prompt' in st.cfg) return [{ t: 'msg', role, prompt: sConcat([st.begin, promptOf(st, o), st.end]) }, true]
    if ('prompt_mm' in st.cfg) return [{ t: 'msg', role, prompt: null, raw: st.cfg.prompt_mm }, true]
    throw aisRaise('AISBenchValueError', 'MODEL-DATA-002', "Invalid prompt content: without 'prompt' or 'prompt_mm' param!", 'parse', { row: o.row })
  }
  return [{ t: 'msg', role, prompt: sConcat([st.begin, promptOf(st, o), st.end]) }, true]
}

function typeNameOfApi(v: ApiItem | null): string {
  if (v === null) return 'NoneType'
  if (v.t === 'raw') return pyTypeName(v.v)
  return 'dict'
}

/** Whether every element has 'role' and 'content' (a substring test for str elements). */
function isOpenAiList(p: PromptList): boolean {
  if (p.length === 0) return false
  return p.every((it) => (it.t === 's' ? it.s.text.includes('role') && it.s.text.includes('content') : it.t === 'd' && 'role' in it.d && 'content' in it.d))
}

/** The rounds of one section as API messages; `go` is false once the generate role cut it. */
function apiRounds(dialogue: PromptList, section: string, info: MetaInfo, o: ParseOpts): { msgs: ApiItem[]; go: boolean } {
  const msgs: ApiItem[] = []
  const cuts = splitRounds(dialogue, info, true, o)
  let go = true
  for (let r = 0; r < cuts.length - 1; r++) {
    // One round (the usual test row) is the whole dialogue: no copy of it.
    const rd = updateRoleDict(info, cuts.length === 2 ? dialogue : dialogue.slice(cuts[r], cuts[r + 1]), 'parse', o.row)
    const forGen = o.mode === 'gen' && section === 'round' && r === cuts.length - 2
    go = true
    for (const m of info.round) {
      if (typeof m === 'string') {
        if (o.family === 'aisbench') throw aisRaise('AISBenchTypeError', 'MODEL-TYPE-005', 'Mixing str without explicit role is not allowed in API models!', 'parse', { row: o.row })
        throw new PyRaise('TypeError', 'Mixing str without explicit role is not allowed in API models!', 'parse', { row: o.row })
      }
      const [msg, cont] = roleToApi(roleOf(rd, m as Record<string, unknown>, o), forGen, o)
      if (msg) msgs.push(msg)
      if (!cont) {
        go = false
        break
      }
    }
  }
  return { msgs, go }
}

/** The API parser's walk handlers (a class for the same reason as LmWalk). */
class ApiWalk implements Walk {
  readonly out: Array<ApiItem | null> = []
  constructor(
    private readonly info: MetaInfo,
    private readonly o: ParseOpts
  ) {}
  onStr(it: PItem & { t: 's' }): void {
    if (it.s.text.trim()) this.o.warnings.push({ code: 'api-string-ignored', message: `A bare string item (${pyRepr(it.s.text.slice(0, 40))}) is ignored by the API parser.`, at: { row: this.o.row } })
  }
  onRound(dialogue: PromptList, section: string): boolean {
    const { info, o } = this
    const r = memoRounds(info, o.mode === 'gen' ? 'api-ice-gen' : 'api-ice-ppl', dialogue, section, o, () => apiRounds(dialogue, section, info, o))
    for (const m of r.msgs) this.out.push(m)
    return r.go
  }
  onBeginEnd(it: PItem): boolean {
    const { info, o } = this
    if (it.t !== 'd') throw new PyRaise('TypeError', `'${pyTypeName(it.t === 'o' ? it.v : '')}' object is not subscriptable`, 'parse', { row: o.row })
    const r = memoItem(info, o.mode === 'gen' ? 'api-item-gen' : 'api-item-ppl', it, () => roleToApi(roleOf(updateRoleDict(info, [it], 'parse', o.row), it.d, o), o.mode === 'gen', o))
    this.out.push(r[0])
    return r[1]
  }
}

export function parseApi(p: Prompt, info: MetaInfo | null, o: ParseOpts): Parsed {
  if (o.family === 'opencompass' && isPromptList(p) && isOpenAiList(p)) {
    checkMode(o)
    const items = p.map(itemJson)
    if (info?.isList) return { kind: 'passthrough', items: mergeListMeta(info.meta as unknown[], items) }
    return { kind: 'passthrough', items }
  }
  if (o.plainList) return { kind: 'passthrough', items: [] }
  checkMode(o)
  if (!isPromptList(p)) return { kind: 'text', s: p }
  if (!info || info.isList) return joinPlain(p, o, o.family === 'aisbench')
  const aw = new ApiWalk(info, o)
  walk(p, info, o, aw)
  const out = aw.out
  // Merge consecutive messages of the same api_role with '\n'.
  if (out.length === 0) throw new PyRaise('IndexError', 'list index out of range', 'parse', { row: o.row })
  const first = out[0]
  if (!first) throw new PyRaise('TypeError', "'NoneType' object is not subscriptable", 'parse', { row: o.row })
  const merged: ApiItem[] = [{ ...first }]
  let lastRole = (first as { role: unknown }).role
  for (let k = 1; k < out.length; k++) {
    const it = out[k]
    if (!it || it.t !== 'msg') throw new PyRaise('TypeError', `'${typeNameOfApi(it)}' object is not subscriptable`, 'parse', { row: o.row })
    if (it.role === lastRole) {
      const prev = merged[merged.length - 1] as ApiItem & { t: 'msg' }
      if (it.prompt === null) throw new PyRaise('TypeError', `can only concatenate str (not "${pyTypeName(it.raw)}") to str`, 'parse', { row: o.row })
      if (prev.prompt === null) {
        if (Array.isArray(prev.raw)) merged[merged.length - 1] = { ...prev, raw: [...prev.raw, ...('\n' + it.prompt.text)] }
        else throw new PyRaise('TypeError', `unsupported operand type(s) for +=: '${pyTypeName(prev.raw)}' and 'str'`, 'parse', { row: o.row })
      } else merged[merged.length - 1] = { ...prev, prompt: sConcat([prev.prompt, MERGE, it.prompt]) }
    } else {
      lastRole = it.role
      merged.push(it)
    }
  }
  const mb = (info.meta as Record<string, unknown>).begin
  if (pyTruthy(mb)) merged.unshift({ t: 'raw', v: mb })
  return { kind: 'messages', items: merged }
}

/** OC list meta template: meta messages merged into role/content messages by position. */
function mergeListMeta(meta: unknown[], items: unknown[]): unknown[] {
  const out: unknown[] = []
  let j = 0
  for (const m of meta) {
    const mm = m as Record<string, unknown>
    const cur = items[j] as Record<string, unknown> | undefined
    if (cur && typeof cur === 'object' && cur.role === mm.role) {
      out.push({ ...cur, content: String(mm.content ?? '') + String(cur.content ?? '') })
      j++
    } else out.push({ role: mm.role, content: mm.content })
  }
  return out.concat(items.slice(j))
}

/** str() of a parsed prompt, as get_token_len_from_template measures it. */
export function parsedText(p: Parsed): string {
  switch (p.kind) {
    case 'text':
      return p.s.text
    case 'messages':
      return p.items.map((it) => (it.t === 'raw' ? (typeof it.v === 'string' ? it.v : '') : it.prompt ? it.prompt.text : '')).join('')
    case 'passthrough':
      return p.items.map((it) => (typeof it === 'string' ? it : '')).join('')
    default:
      return ''
  }
}

export type { Stage }
