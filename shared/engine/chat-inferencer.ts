// OpenCompass ChatInferencer (openicl/icl_inferencer/icl_chat_inferencer.py): each test row becomes a chat
// (`get_chat_list`), and each assistant turn a request of `chat[:i]` (infer_mode last / every / every_with_gt).
// The inferencer swaps the model's template parser for its own, which takes chat messages: `chatApiParse` and
// `chatLmParse` are those parsers. In-context examples are not used.
import { PyRaise } from './errors'
import type { Prepared } from './pipeline'
import { generateWholeItem } from './pipeline'
import { promptJson } from './prompt-list'
import { pyRepr } from '../python/json'
import { sLit } from './spanned'
import type { EngineWarning, PromptList, Row } from './types'

export interface ChatMessageJson {
  role: string
  content: unknown
  [k: string]: unknown
}

export interface ChatTurn {
  /** 1-based, as the app numbers turns; the goldens' `turn` is turn - 1. */
  turn: number
  /** chat[:i]: what generate_from_template receives for this request. */
  history: ChatMessageJson[]
  /** The assistant turns already in the history: the dataset's (every_with_gt, last) or the model's own (every). */
  source: 'ground-truth' | 'model-output'
}

/**
 * ChatInferencer, and AgentInferencer (icl_agent_inferencer.py), its subclass: the same chat list and turns; the
 * agent model then writes the LLM's prompt from them with its own protocol (render-row shows the chat only).
 */
export function isChatInferencer(p: Prepared): boolean {
  return p.inferencer.type === 'ChatInferencer' || p.inferencer.type === 'AgentInferencer'
}

const isStr = (v: unknown): v is string => typeof v === 'string'
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr)
const isDictList = (v: unknown): v is Record<string, unknown>[] => Array.isArray(v) && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))

/** `promptlist_to_openai`: bare strings and HUMAN are user turns, SYSTEM system, BOT assistant; sections skipped. */
function promptListToOpenAi(json: unknown): ChatMessageJson[] {
  if (typeof json === 'string') return [{ role: 'user', content: json }]
  const out: ChatMessageJson[] = []
  for (const item of json as unknown[]) {
    if (typeof item === 'string') {
      if (item) out.push({ role: 'user', content: item })
      continue
    }
    const d = item as Record<string, unknown>
    if ('section' in d) continue
    const role = { SYSTEM: 'system', HUMAN: 'user', BOT: 'assistant' }[String(d.role)]
    if (role) out.push({ role, content: d.prompt })
  }
  return out
}

/** `ChatInferencer.get_chat_list` for one test row. Raises as upstream raises. */
export function chatList(p: Prepared, testIndex: number, warnings: EngineWarning[]): ChatMessageJson[] {
  const row = p.test[testIndex]
  const inputs = p.inputColumns
  const out = p.outputColumn
  // {k: v for k, v in test_ds[idx].items() if k in input_columns or k == output_column}, in the row's key order.
  const item: Row = {}
  for (const [k, v] of Object.entries(row)) if (inputs.includes(k) || k === out) item[k] = v
  const fromEntry = (entry: Row): ChatMessageJson[] => {
    const gold = out !== null && out in entry ? entry[out] : ''
    if (!p.promptTemplate && inputs.length === 1) {
      return [
        { role: 'user', content: entry[inputs[0]] ?? null },
        { role: 'assistant', content: gold }
      ]
    }
    if (p.promptTemplate) {
      const chat = promptListToOpenAi(promptJson(generateWholeItem(p, testIndex, entry, warnings)))
      if (chat.length === 0) throw new PyRaise('IndexError', 'list index out of range', 'prompt', { row: testIndex })
      if (chat[chat.length - 1].role !== 'assistant') chat.push({ role: 'assistant', content: gold })
      return chat
    }
    throw new PyRaise('ValueError', '', 'prompt', { row: testIndex })
  }
  const values = Object.values(item)
  if (values.every(isStr)) return fromEntry(item)
  if (values.every(isStrList)) {
    const keys = Object.keys(item)
    const n = Math.min(...values.map((v) => (v as string[]).length))
    const chat: ChatMessageJson[] = []
    for (let i = 0; i < n; i++) chat.push(...fromEntry(Object.fromEntries(keys.map((k) => [k, (item[k] as string[])[i]]))))
    return chat
  }
  if (inputs.length === 1 && isDictList(item[inputs[0]])) return (item[inputs[0]] as ChatMessageJson[]).map((m) => ({ ...m }))
  if (inputs.includes('dialogue')) {
    if (!('dialogue' in item)) throw new PyRaise('KeyError', pyRepr('dialogue'), 'prompt', { row: testIndex })
    return (item.dialogue as ChatMessageJson[]).map((m) => ({ ...m }))
  }
  throw new PyRaise('ValueError', 'Cannot construct chat from the dataset.', 'prompt', { row: testIndex })
}

/**
 * The requests of one chat: `last` — chat[:last assistant]; `every_with_gt` — chat[:i] for every assistant i with
 * the dataset's answers; `every` — the same, each answer replaced by the model's output before the next turn.
 * `outputs[k]` is the model's k-th answer when known; otherwise a placeholder `<model output N>` (N: the user
 * messages the model was given, the convention of the goldens' fake model).
 */
export function chatTurns(p: Prepared, chat: ChatMessageJson[], testIndex: number, outputs: string[] = []): ChatTurn[] {
  const mode = p.inferencer.inferMode ?? 'last'
  if (!['last', 'every', 'every_with_gt'].includes(mode)) throw new PyRaise('AssertionError', '', 'inferencer', { row: testIndex })
  const work = chat.map((m) => ({ ...m }))
  const assistants = work.flatMap((m, i) => (m.role === 'assistant' ? [i] : []))
  if (mode === 'last') {
    if (assistants.length === 0) throw new PyRaise('IndexError', 'list index out of range', 'inferencer', { row: testIndex })
    return [{ turn: 1, history: work.slice(0, assistants[assistants.length - 1]), source: 'ground-truth' }]
  }
  return assistants.map((i, k) => {
    const history = work.slice(0, i).map((m) => ({ ...m }))
    if (mode === 'every') work[i].content = outputs[k] ?? `<model output ${history.filter((m) => m.role === 'user').length}>`
    return { turn: k + 1, history, source: mode === 'every' ? 'model-output' : 'ground-truth' }
  })
}

const ROLE_OF: Record<string, string> = { SYSTEM: 'system', HUMAN: 'user', BOT: 'assistant' }

/** The chat parser's roles: meta round and reserved roles keyed by chat role (SYSTEM → system, …). */
function metaRoles(meta: unknown): Map<string, Record<string, unknown>> | null {
  if (!meta || typeof meta !== 'object' || Object.keys(meta).length === 0) return null
  const m = meta as { round?: unknown[]; reserved_roles?: unknown[] }
  const roles = new Map<string, Record<string, unknown>>()
  for (const it of [...(m.round ?? []), ...(m.reserved_roles ?? [])]) {
    if (!it || typeof it !== 'object') continue
    const d = it as Record<string, unknown>
    roles.set(ROLE_OF[String(d.role)] ?? String(d.role), d)
  }
  return roles
}

/** ChatInferencer's APITemplateParser: each message as {role: the meta role's api_role, prompt: content or ''}. */
export function chatApiParse(chat: ChatMessageJson[], meta: unknown): { role: unknown; prompt: unknown }[] {
  const roles = metaRoles(meta) ?? new Map<string, Record<string, unknown>>([
    ['system', { api_role: 'SYSTEM' }],
    ['user', { api_role: 'HUMAN' }],
    ['assistant', { api_role: 'BOT', generate: true }]
  ])
  return chat.map((m) => {
    const cfg = roles.get(m.role)
    if (cfg && !('api_role' in cfg)) throw new PyRaise('KeyError', pyRepr('api_role'), 'parse')
    return { role: cfg ? cfg.api_role : m.role, prompt: m.content || '' }
  })
}

/** ChatInferencer's LMTemplateParser: begin + content + end per message, then the assistant's begin. */
export function chatLmParse(chat: ChatMessageJson[], meta: unknown): string {
  const roles = metaRoles(meta)
  const text = (v: unknown) => (v ? String(v) : '')
  if (!roles) return chat.map((m) => text(m.content)).join('\n')
  let out = ''
  for (const m of chat) {
    const cfg = roles.get(m.role) ?? {}
    out += text(cfg.begin) + text(m.content) + text(cfg.end)
  }
  const asst = roles.get('assistant')
  if (!asst) throw new PyRaise('KeyError', pyRepr('assistant'), 'parse')
  return out + text(asst.begin)
}

/** A chat as PromptList items (role/content dicts with spans), for the app's blocks and the prompt-list export. */
export function chatPromptList(chat: ChatMessageJson[]): PromptList {
  return chat.map((m) => ({ t: 'd' as const, d: { ...m }, pk: 'content', ...(typeof m.content === 'string' ? { p: sLit(m.content, { kind: 'field', field: m.role }) } : {}) }))
}
