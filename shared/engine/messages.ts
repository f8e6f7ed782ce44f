// What reaches an API: a parsed prompt as OpenCompass's OpenAI wrapper and HF-chat wrappers send it, and as
// AISBench's VLLMCustomAPIChat sends it. Upstream errors come back as { error } in place of the list.
import { PyRaise } from './errors'
import { pyRepr, pyTypeName } from '../python/json'
import { toSegments } from './spanned'
import type { Parsed } from './parser'
import type { ModelInput } from './types'

/** The model input as upstream JSON: str, or a list of {role, prompt} / raw items, or multimodal parts. */
export function parsedJson(p: Parsed): unknown {
  switch (p.kind) {
    case 'text':
      return p.s.text
    case 'parts':
      return p.parts
    case 'passthrough':
      return p.items
    case 'messages':
      return p.items.map((it) => (it.t === 'raw' ? it.v : { role: it.role, prompt: it.prompt ? it.prompt.text : it.raw }))
  }
}

/** The model input with (by default) segments beside every text; `spans: false` leaves them out. */
export function toModelInput(p: Parsed, spans = true): ModelInput {
  switch (p.kind) {
    case 'text':
      return spans ? { kind: 'text', text: p.s.text, segments: toSegments(p.s) } : { kind: 'text', text: p.s.text }
    case 'parts':
      return { kind: 'parts', parts: p.parts }
    case 'passthrough':
      return { kind: 'messages', items: p.items.map((raw) => ({ raw })) }
    case 'messages':
      return {
        kind: 'messages',
        items: p.items.map((it) => (it.t === 'raw' ? { raw: it.v } : it.prompt ? (spans ? { role: it.role, prompt: it.prompt.text, segments: toSegments(it.prompt) } : { role: it.role, prompt: it.prompt.text }) : { role: it.role, prompt: it.raw }))
      }
  }
}

const OC_ROLES: Record<string, string> = { HUMAN: 'user', BOT: 'assistant', SYSTEM: 'system' }
const CHATML = ['user', 'assistant', 'system']

function subscript(item: unknown, key: string): unknown {
  if (typeof item === 'string') throw new PyRaise('TypeError', "string indices must be integers, not 'str'", 'messages')
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new PyRaise('TypeError', `'${item === null ? 'NoneType' : 'list'}' object is not subscriptable`, 'messages')
  const o = item as Record<string, unknown>
  if (!(key in o)) throw new PyRaise('KeyError', pyRepr(key), 'messages')
  return o[key]
}

function asList(input: unknown): unknown[] | string {
  return typeof input === 'string' ? input : (input as unknown[])
}

/** OC OpenAI._preprocess_messages. */
export function openAiMessages(input: unknown): unknown {
  const v = asList(input)
  if (typeof v === 'string') return [{ role: 'user', content: v }]
  const ready = v.length > 0 && v.every((it) => it && typeof it === 'object' && !Array.isArray(it) && CHATML.includes((it as Record<string, unknown>).role as string))
  if (ready) return v.map((it) => ({ role: subscript(it, 'role'), content: subscript(it, 'content') }))
  return v.map((it) => {
    const role = subscript(it, 'role') as string
    const msg: Record<string, unknown> = { content: subscript(it, 'prompt') }
    if (OC_ROLES[role]) msg.role = OC_ROLES[role]
    return msg
  })
}

/** OC huggingface_above_v4_33._convert_chat_messages: empty prompts skipped, same roles merged. */
export function chatMessages(input: unknown): unknown {
  const v = asList(input)
  if (typeof v === 'string') return [{ role: 'user', content: v }]
  const out: Array<{ role: string; content: unknown }> = []
  for (const it of v) {
    const prompt = subscript(it, 'prompt')
    if (!prompt) continue
    const r = subscript(it, 'role') as string
    const role = OC_ROLES[r]
    if (!role) throw new PyRaise('KeyError', pyRepr(r), 'messages')
    const last = out[out.length - 1]
    if (last && last.role === role) last.content = pyIAdd(last.content, pyConcatStr('\n', prompt))
    else out.push({ role, content: prompt })
  }
  return out
}

/** Python `'\n' + x`: only a str may follow a str. */
function pyConcatStr(left: string, right: unknown): string {
  if (typeof right !== 'string') throw new PyRaise('TypeError', `can only concatenate str (not "${pyTypeName(right)}") to str`, 'messages')
  return left + right
}

/** Python `a += s` for a str `s`: a str concatenates; a list (multimodal content) is extended by s's characters. */
function pyIAdd(a: unknown, s: string): unknown {
  if (typeof a === 'string') return a + s
  if (Array.isArray(a)) return [...a, ...s]
  throw new PyRaise('TypeError', `unsupported operand type(s) for +=: '${pyTypeName(a)}' and 'str'`, 'messages')
}

const AIS_ROLES: Record<string, string> = { HUMAN: 'user', BOT: 'assistant', SYSTEM: 'system', TOOL: 'tool' }

/** AIS VLLMCustomAPIChat.get_request_body()['messages']. */
export function aisMessages(input: unknown): unknown {
  const v = asList(input)
  if (typeof v === 'string') return [{ role: 'user', content: v }]
  const out: Array<Record<string, unknown>> = []
  for (let i = 0; i < v.length; i++) {
    const it = v[i]
    const content = subscript(it, 'prompt')
    const role = subscript(it, 'role') as string
    const msg: Record<string, unknown> = { role: AIS_ROLES[role] ?? role, content }
    const o = it as Record<string, unknown>
    for (const k of Object.keys(o)) if (k !== 'role' && k !== 'prompt') msg[k] = o[k]
    out.push(msg)
  }
  return out
}
