// Imports a model profile from a local model folder as Hugging Face saves it (or as found in a HF cache
// snapshot, models--org--name/snapshots/<rev>/): tokenizer_config.json (chat_template as a string or a list of
// named templates, special tokens as strings or AddedToken dicts, add_bos_token), chat_template.jinja, tokenizer.json
// and config.json (context length). Nothing is executed and nothing is fetched.
import { readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { parseProfile, type ModelProfile, type ProfileError } from '../../../shared/models/profile'
import { jsonGet, jsonObject } from '../../../shared/python/json'

export interface ImportWarning {
  code: string
  message: string
}

export type ImportResult = { ok: true; profile: ModelProfile; warnings: ImportWarning[] } | { ok: false; errors: ProfileError[]; warnings: ImportWarning[] }

const SPECIAL_TOKEN_KEYS = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'] as const
// Where configs keep the trained context length, most specific first.
const CONTEXT_KEYS = ['max_position_embeddings', 'n_positions', 'max_sequence_length', 'seq_length', 'n_ctx', 'max_seq_len'] as const
const DEFAULT_CONTEXT = 4096

async function readJson(path: string): Promise<{ ok: true; value: unknown } | { ok: false; missing: boolean; message: string }> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    return { ok: false, missing: (e as NodeJS.ErrnoException).code === 'ENOENT', message: (e as Error).message }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (e) {
    return { ok: false, missing: false, message: `${basename(path)} is not valid JSON: ${(e as Error).message}` }
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return undefined
  }
}

const exists = async (p: string): Promise<boolean> => stat(p).then(
  () => true,
  () => false
)

/** A special token as a plain string: transformers accepts a string or an AddedToken dict ({content, ...}). */
export function tokenText(v: unknown): string | undefined {
  if (typeof v === 'string') return v
  if (v && typeof v === 'object' && typeof (v as { content?: unknown }).content === 'string') return (v as { content: string }).content
  return undefined
}

/** chat_template as tokenizer_config.json holds it: a string, or [{name, template}, ...] (named templates). */
function chatTemplateOf(v: unknown): string | Record<string, string> | undefined {
  if (typeof v === 'string') return v
  if (Array.isArray(v)) {
    const named: Record<string, string> = {}
    for (const t of v) if (t && typeof t.name === 'string' && typeof t.template === 'string') named[t.name] = t.template
    return Object.keys(named).length > 0 ? named : undefined
  }
  return undefined
}

/** "org/name" from a HF cache snapshot path (…/models--org--name/snapshots/<rev>), else the folder name. */
export function modelNameFromPath(dir: string): string {
  const abs = resolve(dir)
  const parent = dirname(abs)
  if (basename(parent) === 'snapshots') {
    const repo = basename(dirname(parent))
    if (repo.startsWith('models--')) return repo.slice('models--'.length).split('--').join('/')
  }
  return basename(abs)
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+|-+$/g, '') || 'model'
  )
}

/** Whether tokenizer.json's post-processor puts BOS in front of every encoding (Llama-style TemplateProcessing). */
function postProcessorAddsBos(tokenizerJson: unknown, bos: string | undefined): boolean | undefined {
  const pp = jsonGet(tokenizerJson, 'post_processor')
  if (!pp || !bos) return undefined
  const procs = jsonGet(pp, 'type') === 'Sequence' ? (jsonGet(pp, 'processors') ?? []) : [pp]
  for (const p of procs as unknown[]) {
    const type = jsonGet(p, 'type')
    const single = jsonGet(p, 'single')
    if (type === 'TemplateProcessing' && Array.isArray(single)) return single.some((s) => jsonGet(s, 'SpecialToken', 'id') === bos)
    if (type === 'BertProcessing' || type === 'RobertaProcessing') return true
  }
  return false
}

export async function importProfileFromModelFolder(dir: string, opts: { id?: string; name?: string } = {}): Promise<ImportResult> {
  const warnings: ImportWarning[] = []
  const errors: ProfileError[] = []
  const tcPath = join(dir, 'tokenizer_config.json')
  const tc = await readJson(tcPath)
  if (!tc.ok && !tc.missing) errors.push({ path: 'tokenizer_config.json', message: tc.message })
  const tokCfg = jsonObject(tc.ok ? tc.value : {})
  const cfg = await readJson(join(dir, 'config.json'))
  if (!cfg.ok && !cfg.missing) errors.push({ path: 'config.json', message: cfg.message })
  const config = jsonObject(cfg.ok ? cfg.value : {})

  // Newer transformers save the template beside the config; when both exist, the separate file wins.
  let chatTemplate: string | Record<string, string> | undefined
  const jinja = await readText(join(dir, 'chat_template.jinja'))
  if (jinja !== undefined) {
    chatTemplate = jinja
    if (tokCfg.chat_template !== undefined) warnings.push({ code: 'chat-template-overridden', message: 'chat_template.jinja overrides the chat_template in tokenizer_config.json.' })
  } else {
    const ctJson = await readJson(join(dir, 'chat_template.json'))
    chatTemplate = chatTemplateOf(ctJson.ok ? jsonGet(ctJson.value, 'chat_template') : undefined) ?? chatTemplateOf(tokCfg.chat_template)
  }
  if (tokCfg.chat_template !== undefined && chatTemplateOf(tokCfg.chat_template) === undefined)
    errors.push({ path: 'tokenizer_config.json.chat_template', message: 'chat_template must be a string or a list of {name, template}' })

  const special: Record<string, string | string[]> = {}
  for (const k of SPECIAL_TOKEN_KEYS) {
    const t = tokenText(tokCfg[k])
    if (t !== undefined) special[k] = t
    else if (tokCfg[k] != null) errors.push({ path: `tokenizer_config.json.${k}`, message: `${k} must be a string or an AddedToken dict with "content"` })
  }
  if (Array.isArray(tokCfg.additional_special_tokens)) {
    const extra = tokCfg.additional_special_tokens.map(tokenText).filter((t: string | undefined): t is string => t !== undefined)
    if (extra.length > 0) special.additional_special_tokens = extra
  }

  const tokenizerPath = join(dir, 'tokenizer.json')
  const hasTokenizer = await exists(tokenizerPath)
  let addBos: boolean | undefined = typeof tokCfg.add_bos_token === 'boolean' ? tokCfg.add_bos_token : undefined
  if (addBos === undefined && hasTokenizer) {
    const tj = await readJson(tokenizerPath)
    if (tj.ok) addBos = postProcessorAddsBos(tj.value, special.bos_token as string | undefined)
    else warnings.push({ code: 'tokenizer-unreadable', message: tj.message })
  }
  if (!hasTokenizer) warnings.push({ code: 'no-tokenizer', message: 'No tokenizer.json in the folder: token counts will be estimates.' })

  let context: number | undefined
  for (const src of [config, config.text_config, config.llm_config, config.language_config]) {
    for (const k of CONTEXT_KEYS) {
      const n = jsonGet(src, k)
      if (typeof n === 'number' && n > 0) {
        context = n
        break
      }
    }
    if (context) break
  }
  // model_max_length is often a sentinel (1e30) when unset; only a plausible value counts.
  if (!context && typeof tokCfg.model_max_length === 'number' && tokCfg.model_max_length > 0 && tokCfg.model_max_length < 1e8) context = tokCfg.model_max_length
  if (!context) {
    context = DEFAULT_CONTEXT
    warnings.push({ code: 'context-length-guessed', message: `No context length in config.json or tokenizer_config.json: assumed ${DEFAULT_CONTEXT}.` })
  }
  if (chatTemplate === undefined) warnings.push({ code: 'no-chat-template', message: 'No chat template found: the profile sends messages as they are (openai-messages).' })
  if (errors.length > 0) return { ok: false, errors, warnings }

  const name = opts.name ?? modelNameFromPath(dir)
  const candidate = {
    id: opts.id ?? slug(name),
    name,
    family: typeof config.model_type === 'string' ? config.model_type : 'unknown',
    format: chatTemplate !== undefined ? 'hf-chat-template' : 'openai-messages',
    ...(chatTemplate !== undefined ? { chat_template: chatTemplate } : {}),
    special_tokens: special,
    ...(addBos !== undefined ? { add_bos_token: addBos } : {}),
    ...(typeof tokCfg.add_eos_token === 'boolean' ? { add_eos_token: tokCfg.add_eos_token } : {}),
    context_length: context,
    tokenizer: hasTokenizer ? { kind: 'hf-json', path: resolve(tokenizerPath) } : { kind: 'estimate' },
    provenance: { source: 'model-folder', path: resolve(dir) }
  }
  const parsed = parseProfile(candidate)
  return parsed.ok ? { ok: true, profile: parsed.profile, warnings } : { ok: false, errors: parsed.errors, warnings }
}
