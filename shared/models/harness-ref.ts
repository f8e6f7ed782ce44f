// "qwen2.5-instruct@lm-eval": a model column for the same profile under another evaluation harness. The CLI's
// --model, the app's model picker and a project's model list all take this form:
//
//   REF@HARNESS[,KEY=VALUE…]
//
// REF is what --model takes otherwise (a built-in profile id, a profile JSON, a model config or folder); HARNESS is
// opencompass, aisbench, lm-eval or vlmevalkit; each KEY=VALUE is a harness option (lm-eval: fewshot_as_multiturn,
// system_instruction, …; VLMEvalKit: use_custom_prompt, system_prompt, custom_dataset; OpenCompass/AISBench: the
// wrapper's model config kwargs), VALUE read as JSON when it
// parses as JSON (false, 3, ["\n\n"]) and as plain text otherwise. The derived profile has the id REF's id + "@" +
// HARNESS (+ "-" and a short hash of the options when there are any), so both columns can be open side by side.
import { CHAT_WRAPPERS, HARNESS_NAMES, parseProfile, type HarnessName, type ModelProfile, type ParseProfileResult } from './profile'
import { HARNESS_TITLE } from './harness'

export interface HarnessRef {
  base: string
  harness: HarnessName
  options: Record<string, unknown>
}

/** Splits REF@HARNESS[,K=V…]; null when `ref` has no harness suffix. Throws a readable Error on a bad suffix. */
export function parseHarnessRef(ref: string): HarnessRef | null {
  const at = ref.lastIndexOf('@')
  if (at <= 0) return null
  const [name, ...pairs] = ref.slice(at + 1).split(',')
  if (!/^[a-z][a-z0-9-]*$/.test(name)) return null
  if (!(HARNESS_NAMES as readonly string[]).includes(name))
    throw new Error(`unknown harness "${name}" after "@": use one of ${HARNESS_NAMES.join(', ')}`)
  const options: Record<string, unknown> = {}
  for (const p of pairs) {
    const eq = p.indexOf('=')
    if (eq <= 0) throw new Error(`harness option "${p}" must be KEY=VALUE`)
    const raw = p.slice(eq + 1)
    let v: unknown = raw
    try {
      v = JSON.parse(raw)
    } catch {
      v = raw
    }
    options[p.slice(0, eq)] = v
  }
  return { base: ref.slice(0, at), harness: name as HarnessName, options }
}

/** FNV-1a of the options, 6 hex digits: tells two columns of one harness with different options apart. */
function optionsTag(options: Record<string, unknown>): string {
  const text = JSON.stringify(Object.keys(options).sort().map((k) => [k, options[k]]))
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, '0').slice(0, 6)
}

/** The profile as a column under `harness`: a chat-template profile (or one that already names a harness). */
export function profileUnderHarness(profile: ModelProfile, harness: HarnessName, options: Record<string, unknown>): ParseProfileResult {
  if (profile.format !== 'hf-chat-template')
    return {
      ok: false,
      errors: [{ path: 'harness', message: `${profile.id} is a ${profile.format} profile: a harness wraps a chat template, so only hf-chat-template profiles can be shown @${harness}` }]
    }
  const baseId = profile.id.replace(/@.*$/, '')
  const hasOptions = Object.keys(options).length > 0
  const own = profile.harness
  const ocLike = (n: HarnessName | undefined) => n === undefined || n === 'opencompass' || n === 'aisbench'
  const ownWrapper = own && ocLike(own.name) && (CHAT_WRAPPERS as readonly string[]).includes(own.wrapper) ? own.wrapper : undefined
  const wrapper =
    harness === 'lm-eval' ? 'HFLM' : harness === 'vlmevalkit' ? 'Qwen2VLChat' : (ownWrapper ?? 'HuggingFacewithChatTemplate')
  // Moving an OpenCompass config's model to AISBench keeps its wrapper kwargs; lm-eval and VLMEvalKit take their own
  // options only.
  const kwargs = ocLike(harness) && ownWrapper && own ? { ...own.model_kwargs, ...options } : options
  const described = hasOptions ? ` (${Object.entries(options).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ')})` : ''
  return parseProfile({
    ...profile,
    id: `${baseId}@${harness}${hasOptions ? `-${optionsTag(options)}` : ''}`,
    name: `${profile.name.replace(/ via .*$/, '')} via ${HARNESS_TITLE[harness]}${described}`,
    harness: { name: harness, wrapper, model_kwargs: kwargs }
  })
}
