// Imports model profiles from an OpenCompass/AISBench model config: the `models = [dict(...)]` list of a .py config
// (evaluated by the config loader, main/services/config), its JSON twin, or a single model dict. Meta-template models
// become opencompass-meta profiles (LM or API parser by model class); *withChatTemplate models take the HF chat
// template from their local model folder or a built-in profile, and keep the wrapper and its keyword arguments
// (meta_template, fastchat_template, chat_template_kwargs, stop_words, generation_kwargs, drop_middle, max_seq_len)
// as the profile's harness, so they render as that wrapper does (shared/models/harness.ts).
import { readFile, stat } from 'node:fs/promises'
import { dirname, extname, isAbsolute, join, resolve } from 'node:path'
import { CHAT_WRAPPERS, parseProfile, type ChatWrapper, type ModelProfile, type ProfileError } from '../../../shared/models/profile'
import { loadConfig } from '../config/load-config-async'
import { modelClassInfo } from '../../../shared/models/model-classes'
import { importProfileFromModelFolder, type ImportWarning } from './import-model-folder'
import { loadProfileLibrary } from './profile-library'
import { placedMessage } from '../../../shared/diagnostics'

/** Evaluates a Python config file to its top-level variables (as plain JSON values). */
export type OpenCompassConfigLoader = (path: string) => Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; error: { message: string } }>

export type ConfigImportResult =
  | { ok: true; profiles: ModelProfile[]; warnings: ImportWarning[] }
  | { ok: false; errors: ProfileError[]; warnings: ImportWarning[] }

// OpenCompass's HuggingFace models default to max_seq_len=2048 when a config gives none.
const OC_DEFAULT_MAX_SEQ_LEN = 2048
// VLLMOfflineVLModel renders with the model's processor chat template too (vllm_offline_vl.py), without the suffix.
const CHAT_TEMPLATE_CLASS = /withChatTemplate$|^VLLMOfflineVLModel$/
// Only for model classes neither framework has (modelClassInfo knows every upstream one): a guess by name.
const API_CLASS = /API|OpenAI|GPT|Claude|Gemini|ZhiPu|BaiChuan|MiniMax|XunFei|ERNIE|SenseTime|MoonShot|Hunyuan|Doubao|^Qwen$/i
const LM_CLASS = /^(HuggingFace\w*|VLLM\w*|TurboMind\w*|Lmdeploy\w*|LightllmAPI|Llama2|LLaMA\w*|InternLM\w*|GLM\w*|Mixtral|ModelScope\w*)$/

function className(type: unknown): string {
  if (typeof type !== 'string') return ''
  const s = type.replace(/^<class '|'>$/g, '')
  return s.slice(s.lastIndexOf('.') + 1)
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+|-+$/g, '') || 'model'
  )
}

const isDir = async (p: string): Promise<boolean> => stat(p).then(
  (s) => s.isDirectory(),
  () => false
)
const isFile = async (p: string): Promise<boolean> => stat(p).then(
  (s) => s.isFile(),
  () => false
)

/** The harness a model class belongs to, when its module says so (an AISBench or OpenCompass import path). */
function harnessName(type: unknown, family: 'opencompass' | 'aisbench' | undefined): 'opencompass' | 'aisbench' | undefined {
  const s = typeof type === 'string' ? type : ''
  if (/(^|[^\w])ais_bench\./.test(s)) return 'aisbench'
  if (/(^|[^\w])opencompass\./.test(s)) return 'opencompass'
  return family
}

/**
 * The keyword arguments the wrapper's constructor gets: the model dict after `build_model_from_cfg` removed type,
 * abbr, run_cfg and batch_size (OpenCompass also max_out_len, which AISBench keeps). Only JSON values are kept.
 */
function wrapperKwargs(model: Record<string, unknown>): Record<string, unknown> {
  const drop = new Set(['type', 'abbr', 'run_cfg', 'batch_size'])
  if (!/ais_bench\./.test(String(model.type ?? ''))) drop.add('max_out_len')
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(model)) if (!drop.has(k)) out[k] = JSON.parse(JSON.stringify(v ?? null))
  return out
}

/** A built-in profile named by id, or by the Hugging Face repo its template comes from ("Qwen/Qwen2.5-7B-Instruct"). */
async function builtInProfile(path: unknown, libraryDir?: string): Promise<ModelProfile | undefined> {
  if (typeof path !== 'string' || path === '') return undefined
  const lib = await loadProfileLibrary(libraryDir)
  const want = path.toLowerCase().replace(/\/+$/, '')
  const names = (p: ModelProfile) => [p.provenance?.key, p.provenance?.source?.replace('--', '/')]
  return lib.profiles.find((p) => p.id === want) ?? lib.profiles.find((p) => p.format === 'hf-chat-template' && names(p).some((k) => typeof k === 'string' && k.toLowerCase() === want))
}

/** One model dict (`dict(type=..., abbr=..., meta_template=..., max_seq_len=...)`) as a profile. */
export async function profileFromOpenCompassModel(
  model: Record<string, unknown>,
  opts: { baseDir: string; index?: number; family?: 'opencompass' | 'aisbench'; libraryDir?: string }
): Promise<{ ok: true; profile: ModelProfile; warnings: ImportWarning[] } | { ok: false; errors: ProfileError[]; warnings: ImportWarning[] }> {
  const at = (field: string): string => (opts.index === undefined ? field : `models.${opts.index}.${field}`)
  const warnings: ImportWarning[] = []
  const cls = className(model.type)
  const label = typeof model.abbr === 'string' ? model.abbr : typeof model.name === 'string' ? model.name : cls || 'model'
  const localPath = async (v: unknown): Promise<string | undefined> => {
    if (typeof v !== 'string' || v === '') return undefined
    const p = isAbsolute(v) ? v : resolve(opts.baseDir, v)
    return (await isDir(p)) ? p : undefined
  }
  const modelDir = (await localPath(model.tokenizer_path)) ?? (await localPath(model.path))
  let context = typeof model.max_seq_len === 'number' && model.max_seq_len > 0 ? model.max_seq_len : undefined

  if (CHAT_TEMPLATE_CLASS.test(cls)) {
    if (!(CHAT_WRAPPERS as readonly string[]).includes(cls))
      return { ok: false, errors: [{ path: at('type'), message: `${cls} is not one of the chat-template wrappers PromptLoom reproduces (${CHAT_WRAPPERS.join(', ')})` }], warnings }
    let base: ModelProfile
    if (modelDir) {
      const r = await importProfileFromModelFolder(modelDir, { id: slug(label), name: label })
      if (!r.ok) return { ok: false, errors: r.errors.map((e) => ({ ...e, path: at(e.path) })), warnings: r.warnings }
      warnings.push(...r.warnings)
      base = r.profile
    } else {
      const hit = await builtInProfile(model.path, opts.libraryDir)
      if (!hit)
        return {
          ok: false,
          errors: [{ path: at('path'), message: `${cls} renders with the model's own HF chat template: "${String(model.path)}" is neither a local model folder nor a built-in profile (by id or Hugging Face name)` }],
          warnings
        }
      base = { ...hit, id: slug(label), name: label }
    }
    const name = harnessName(model.type, opts.family)
    const harness = { ...(name ? { name } : {}), wrapper: cls as ChatWrapper, model_kwargs: wrapperKwargs(model) }
    const candidate = { ...base, ...(context ? { context_length: context } : {}), harness, provenance: { ...(base.provenance ?? {}), source: 'opencompass-config', note: cls } }
    const parsed = parseProfile(candidate)
    if (!parsed.ok) return { ok: false, errors: parsed.errors.map((e) => ({ ...e, path: at(e.path) })), warnings }
    return { ok: true, profile: parsed.profile, warnings }
  }

  const hasMeta = model.meta_template !== undefined && model.meta_template !== null
  // The parser and default meta template come from the class itself (its __init__ upstream); only a class
  // neither framework has falls back to a guess from its name, and says so.
  const info = cls ? modelClassInfo(cls, opts.family) : undefined
  const api = info ? info.parser === 'api' : cls !== '' && !LM_CLASS.test(cls) && API_CLASS.test(cls)
  if (cls && !info) {
    warnings.push({ code: 'model-class-unknown', message: `${cls} is not a model class of OpenCompass or AISBench: ${api ? 'the API' : 'the LM'} template parser is assumed from its name.` })
  }
  const defaultMeta = !hasMeta && info?.default_meta_template !== undefined ? info.default_meta_template : undefined
  if (defaultMeta !== undefined) warnings.push({ code: 'default-meta-template', message: `${label} gives no meta_template: ${cls} uses its default one (${JSON.stringify(defaultMeta)}).` })
  else if (!hasMeta) warnings.push({ code: 'no-meta-template', message: `${label} has no meta_template: prompts reach the model as the dataset template writes them.` })
  if (!context) {
    context = OC_DEFAULT_MAX_SEQ_LEN
    warnings.push({ code: 'context-length-default', message: `${label} sets no max_seq_len: OpenCompass's default ${OC_DEFAULT_MAX_SEQ_LEN} is assumed.` })
  }
  const tokenizerJson = modelDir ? join(modelDir, 'tokenizer.json') : undefined
  const candidate = {
    id: slug(label),
    name: label,
    family: cls || 'opencompass',
    format: 'opencompass-meta',
    meta_template: hasMeta ? model.meta_template : (defaultMeta ?? null),
    meta_parser: api ? 'api' : 'lm',
    meta_family: opts.family ?? 'opencompass',
    ...(cls ? { model_class: cls } : {}),
    special_tokens: {},
    context_length: context,
    // Only a max_seq_len the config writes reaches the inferencer (the 2048 default above is the model's own).
    ...(typeof model.max_seq_len === 'number' && model.max_seq_len > 0 ? { max_seq_len: model.max_seq_len } : {}),
    tokenizer: tokenizerJson && (await isFile(tokenizerJson)) ? { kind: 'hf-json', path: tokenizerJson } : { kind: 'estimate' },
    provenance: { source: 'opencompass-config', ...(cls ? { note: cls } : {}) }
  }
  const parsed = parseProfile(candidate)
  if (!parsed.ok) return { ok: false, errors: parsed.errors.map((e) => ({ ...e, path: at(e.path) })), warnings }
  return { ok: true, profile: parsed.profile, warnings }
}

/** 'aisbench' or 'opencompass' when a .py/.yaml config imports from one of them (`from ais_bench… import …`). */
async function familyOfConfigText(path: string): Promise<'opencompass' | 'aisbench' | undefined> {
  if (!['.py', '.yaml', '.yml'].includes(extname(path).toLowerCase())) return undefined
  const text = await readFile(path, 'utf8').catch(() => '')
  if (/\bais_bench\b/.test(text)) return 'aisbench'
  if (/\bopencompass\b/.test(text)) return 'opencompass'
  return undefined
}

/** The config importer (main/services/config): reads Python/YAML configs without executing them. */
const defaultLoadConfig: OpenCompassConfigLoader = async (path) => {
  const c = await loadConfig(path)
  const err = c.diagnostics.find((d) => d.severity === 'error')
  if (err) return { ok: false, error: { message: placedMessage(err) } }
  return { ok: true, value: c.variables as Record<string, unknown> }
}

/**
 * Every model of an OpenCompass model config. A .py/.yaml file is evaluated by the config importer (or `loadConfig`); a .json
 * file is read directly: `{ "models": [...] }`, or one model dict such as the demo project's JSON twins.
 */
export async function importProfileFromOpenCompassConfig(
  path: string,
  opts: { loadConfig?: OpenCompassConfigLoader; family?: 'opencompass' | 'aisbench' } = {}
): Promise<ConfigImportResult> {
  let root: Record<string, unknown>
  if (['.py', '.yaml', '.yml'].includes(extname(path).toLowerCase())) {
    const r = await (opts.loadConfig ?? defaultLoadConfig)(path)
    if (!r.ok) return { ok: false, errors: [{ path: '', message: r.error.message }], warnings: [] }
    root = r.value
  } else {
    try {
      root = JSON.parse(await readFile(path, 'utf8'))
    } catch (e) {
      return { ok: false, errors: [{ path: '', message: `cannot read ${path}: ${(e as Error).message}` }], warnings: [] }
    }
  }
  const models = Array.isArray(root.models) ? root.models : root && typeof root === 'object' && !('models' in root) ? [root] : undefined
  if (!models || models.length === 0) return { ok: false, errors: [{ path: 'models', message: 'the config defines no models (expected models = [dict(...)])' }], warnings: [] }

  const profiles: ModelProfile[] = []
  const errors: ProfileError[] = []
  const warnings: ImportWarning[] = []
  const baseDir = dirname(resolve(path))
  // A config keeps classes by name only; its imports say whose classes they are (as for dataset configs).
  const family = opts.family ?? (await familyOfConfigText(path))
  for (let i = 0; i < models.length; i++) {
    const m = models[i]
    if (!m || typeof m !== 'object' || Array.isArray(m)) {
      errors.push({ path: `models.${i}`, message: 'a model must be a dict' })
      continue
    }
    const r = await profileFromOpenCompassModel(m as Record<string, unknown>, { baseDir, index: Array.isArray(root.models) ? i : undefined, family })
    warnings.push(...r.warnings)
    if (r.ok) profiles.push(r.profile)
    else errors.push(...r.errors)
  }
  return errors.length > 0 ? { ok: false, errors, warnings } : { ok: true, profiles, warnings }
}
