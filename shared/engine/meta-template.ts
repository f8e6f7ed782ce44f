// A model's meta template checked the way LMTemplateParser/APITemplateParser constructors check it, plus the
// per-round role dict (`_update_role_dict`) with spans for begin/prompt/end.
import { PyRaise, aisRaise, type Stage } from './errors'
import { isShared } from './prompt-list'
import { pyRepr, pyTruthy } from '../python/json'
import { EMPTY, sLit, type SStr } from './spanned'
import type { Family, PItem, ParserKind } from './types'

export interface RoleState {
  cfg: Record<string, unknown>
  begin: SStr
  end: SStr
  /** Spans of a str prompt; `cfg.prompt` holds non-str prompts (prompt_mm lists stay in cfg.prompt_mm). */
  prompt: SStr | null
}

export interface MetaInfo {
  meta: Record<string, unknown> | unknown[]
  /** A list meta template (OC API parser only): role/content messages merged by position. */
  isList: boolean
  round: unknown[]
  roles: Map<string, RoleState>
  family: Family
  parser: ParserKind
  /** Index of each role in `round` (what _split_rounds compares). */
  roundIndex: Map<string, number>
  /** Parser results for template items and example rounds, which are the same objects row after row. */
  memo: Map<string, WeakMap<object, unknown>>
}

/**
 * A per-round role dict: the meta template's roles, overridden by the round's template items. A round
 * overrides a role or two, so the overrides are a short list searched in order, not a Map made per round.
 */
export class RoleDict {
  private roles: string[] | null = null
  private states: RoleState[] | null = null
  constructor(private readonly base: Map<string, RoleState>) {}
  get(role: string): RoleState | undefined {
    if (this.roles !== null) {
      const i = this.roles.indexOf(role)
      if (i !== -1) return this.states![i]
    }
    return this.base.get(role)
  }
  has(role: string): boolean {
    return (this.roles !== null && this.roles.includes(role)) || this.base.has(role)
  }
  set(role: string, st: RoleState): void {
    if (this.roles === null) {
      this.roles = [role]
      this.states = [st]
      return
    }
    const i = this.roles.indexOf(role)
    if (i !== -1) this.states![i] = st
    else {
      this.roles.push(role)
      this.states!.push(st)
    }
  }
}

/** The memo table of one parser use (`kind` names the parser and mode). */
export function memoTable(info: MetaInfo, kind: string): WeakMap<object, unknown> {
  let m = info.memo.get(kind)
  if (!m) info.memo.set(kind, (m = new WeakMap()))
  return m
}

function roundIndex(round: unknown[]): Map<string, number> {
  const idx = new Map<string, number>()
  round.forEach((r, i) => {
    if (typeof r !== 'string') idx.set((r as Record<string, unknown>).role as string, i)
  })
  return idx
}

function metaErr(family: Family, oc: [string, string], code: string, msg: string): PyRaise {
  const stage: Stage = 'model'
  return family === 'aisbench' ? aisRaise('AISBenchTypeError', code, msg, stage, { path: 'meta_template' }) : new PyRaise(oc[0], oc[1], stage, { path: 'meta_template' })
}

function strPart(v: unknown, role: string, path: string): SStr {
  return typeof v === 'string' ? sLit(v, { kind: 'meta', role, path }) : EMPTY
}

/** Returns null when the meta template is falsy (no meta template). */
export function buildMeta(meta: unknown, parser: ParserKind, family: Family): MetaInfo | null {
  if (!pyTruthy(meta)) return null
  if (Array.isArray(meta)) {
    if (parser === 'api' && family === 'opencompass') return { meta, isList: true, round: [], roles: new Map(), family, parser, roundIndex: new Map(), memo: new Map() }
    throw metaErr(family, ['AssertionError', 'round is required in meta template'], 'MODEL-PARAM-004', 'round is required in meta template')
  }
  const m = meta as Record<string, unknown>
  if (!('round' in m)) throw metaErr(family, ['AssertionError', 'round is required in meta template'], 'MODEL-PARAM-004', 'round is required in meta template')
  if (!Array.isArray(m.round)) throw metaErr(family, ['AssertionError', ''], 'MODEL-TYPE-004', 'round must be a list in meta template')
  const keys = ['round']
  if ('reserved_roles' in m) {
    if (!Array.isArray(m.reserved_roles)) throw metaErr(family, ['AssertionError', ''], 'MODEL-TYPE-004', 'reserved_roles must be a list in meta template')
    keys.push('reserved_roles')
  }
  const roles = new Map<string, RoleState>()
  for (const key of keys) {
    ;(m[key] as unknown[]).forEach((item, i) => {
      if (typeof item === 'string') return
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        throw metaErr(family, ['AssertionError', ''], 'MODEL-TYPE-004', `each item in ${key} must be a string or a dict in meta template`)
      }
      const cfg = item as Record<string, unknown>
      if (!('role' in cfg)) throw new PyRaise('KeyError', "'role'", 'model', { path: `meta_template.${key}[${i}]` })
      const role = cfg.role as string
      if (roles.has(role)) throw metaErr(family, ['AssertionError', 'role in meta prompt must be unique!'], 'MODEL-PARAM-005', `role ${role} in meta prompt must be unique!`)
      const path = `meta_template.${key}[${i}]`
      if (parser === 'lm' && (Array.isArray(cfg.begin) || Array.isArray(cfg.end))) {
        throw new PyRaise('NotImplementedError', 'Using List[str|int] is as the begin or endof a prompt is not supported yet.', 'model', { path })
      }
      roles.set(role, {
        cfg: { ...cfg },
        begin: strPart(cfg.begin, role, `${path}.begin`),
        end: strPart(cfg.end, role, `${path}.end`),
        prompt: typeof cfg.prompt === 'string' ? sLit(cfg.prompt, { kind: 'meta', role, path: `${path}.prompt` }) : null
      })
    })
  }
  return { meta: m, isList: false, round: m.round, roles, family, parser, roundIndex: roundIndex(m.round), memo: new Map() }
}

/** _update_role_dict: template items override the meta role's keys (begin, end, prompt, generate…). */
export function updateRoleDict(info: MetaInfo, items: readonly PItem[], stage: Stage, row?: number): RoleDict {
  const rd = new RoleDict(info.roles)
  for (const it of items) {
    if (it.t !== 'd') continue
    if (!('role' in it.d)) throw new PyRaise('KeyError', "'role'", stage, { row })
    let role = it.d.role as string
    if (!info.roles.has(role)) {
      role = it.d.fallback_role as string
      if (!pyTruthy(role) || !rd.has(role)) throw new PyRaise('KeyError', role === undefined || role === null ? 'None' : pyRepr(role), stage, { row })
    }
    const prev = rd.get(role)!
    rd.set(role, prev === info.roles.get(role) ? overrideOfBase(info, prev, it) : override(prev, it))
  }
  return rd
}

/**
 * The role state of a template item over the meta role itself. It depends on the item's config dict (shared
 * by every row's copy of the item) and its prompt text: made once per dict, re-made only when the text changes.
 */
function overrideOfBase(info: MetaInfo, base: RoleState, it: PItem & { t: 'd' }): RoleState {
  // The role follows from the dict (its role, or its fallback_role), so one table serves every role.
  const memo = memoTable(info, 'role')
  const key = it.d
  const hit = memo.get(key) as RoleState | undefined
  if (hit !== undefined) {
    if (!('prompt' in it.d) || hit.prompt === (it.p ?? null)) return hit
    const st: RoleState = { cfg: hit.cfg, begin: hit.begin, end: hit.end, prompt: it.p ?? null }
    memo.set(key, st)
    return st
  }
  const st = override(base, it)
  if (isShared(key)) memo.set(key, st)
  return st
}

/**
 * `{ ...a, ...b }`. Object.assign is several times quicker in V8 than a two-source spread, and the same
 * unless a key is `__proto__` (assign would set the prototype; the spread makes an own key): then spread.
 */
function mergeDicts(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  if (Object.hasOwn(a, '__proto__') || Object.hasOwn(b, '__proto__')) return { ...a, ...b }
  return Object.assign({}, a, b)
}

function override(prev: RoleState, it: PItem & { t: 'd' }): RoleState {
  const src = { kind: 'template' as const, role: it.d.role as string }
  return {
    cfg: mergeDicts(prev.cfg, it.d),
    begin: 'begin' in it.d ? (typeof it.d.begin === 'string' ? sLit(it.d.begin, src) : EMPTY) : prev.begin,
    end: 'end' in it.d ? (typeof it.d.end === 'string' ? sLit(it.d.end, src) : EMPTY) : prev.end,
    prompt: 'prompt' in it.d ? (it.p ?? null) : prev.prompt
  }
}
