// Model profiles for a project: profile JSON files, OpenCompass model configs (.py/.json), Hugging Face model
// folders, or built-in library profiles by id. A broken one is reported and the others still load.
import { readFile, stat } from 'node:fs/promises'
import { extname } from 'node:path'
import type { Diagnostic } from '../../../shared/api/types'
import type { ModelProfile } from '../../../shared/models'
import { parseHarnessRef, profileUnderHarness } from '../../../shared/models/harness-ref'
import { loadConfig } from '../config/load-config-async'
import { importProfileFromModelFolder } from '../models/import-model-folder'
import { importProfileFromOpenCompassConfig } from '../models/import-opencompass-config'
import { loadProfileFile, loadProfileLibrary } from '../models/profile-library'
import { tokenCounterForProfile } from '../models/tokenizer'
import type { ModelContext } from './model-render'
import { placedMessage } from '../../../shared/diagnostics'

/** REF@HARNESS[,K=V…] (shared/models/harness-ref.ts): REF's profiles, each as a column under that harness. */
async function loadOne(ref: string, library: () => Promise<ModelProfile[]>): Promise<{ profiles: ModelProfile[]; problems: Diagnostic[] }> {
  let hr
  try {
    hr = (await stat(ref).catch(() => null)) ? null : parseHarnessRef(ref)
  } catch (e) {
    return { profiles: [], problems: [{ code: 'model-profile', message: `${ref}: ${(e as Error).message}`, severity: 'error', source: ref }] }
  }
  if (!hr) return loadPlain(ref, library)
  const base = await loadPlain(hr.base, library)
  const profiles: ModelProfile[] = []
  const problems = [...base.problems]
  for (const p of base.profiles) {
    const r = profileUnderHarness(p, hr.harness, hr.options)
    if (r.ok) profiles.push(r.profile)
    else problems.push({ code: 'model-profile', message: `${ref}: ${r.errors.map((e) => `${e.path || '(profile)'}: ${e.message}`).join('; ')}`, severity: 'error', source: ref })
  }
  return { profiles, problems }
}

async function loadPlain(ref: string, library: () => Promise<ModelProfile[]>): Promise<{ profiles: ModelProfile[]; problems: Diagnostic[] }> {
  const fail = (message: string): { profiles: ModelProfile[]; problems: Diagnostic[] } => ({
    profiles: [],
    problems: [{ code: 'model-profile', message: `${ref}: ${message}`, severity: 'error', source: ref }]
  })
  const st = await stat(ref).catch(() => null)
  if (!st) {
    const hit = (await library()).find((p) => p.id === ref || p.id === ref.toLowerCase())
    return hit ? { profiles: [hit], problems: [] } : fail('no such file, folder or built-in profile')
  }
  if (st.isDirectory()) {
    const r = await importProfileFromModelFolder(ref)
    return r.ok ? { profiles: [r.profile], problems: [] } : fail(r.errors.map((e) => `${e.path || '(profile)'}: ${e.message}`).join('; '))
  }
  const ext = extname(ref).toLowerCase()
  if (ext === '.json') {
    // A PromptLoom profile, or an OpenCompass model config as JSON ({"models": [...]}).
    const text = await readFile(ref, 'utf8').catch(() => '')
    if (/"models"\s*:/.test(text)) return fromOpenCompass(ref)
    const r = await loadProfileFile(ref)
    if (r.ok) return { profiles: [r.profile], problems: [] }
    const detail = r.error.errors?.map((e) => `${e.path || '(profile)'}: ${e.message}`).join('; ')
    return fail(detail || r.error.message)
  }
  if (ext === '.py' || ext === '.yaml' || ext === '.yml') return fromOpenCompass(ref)
  return fail('not a profile (.json), an OpenCompass model config (.py) or a model folder')
}

async function fromOpenCompass(ref: string): Promise<{ profiles: ModelProfile[]; problems: Diagnostic[] }> {
  const r = await importProfileFromOpenCompassConfig(ref, {
    loadConfig: async (path) => {
      const c = await loadConfig(path)
      const err = c.diagnostics.find((d) => d.severity !== 'warning')
      if (err) return { ok: false, error: { message: placedMessage(err) } }
      return { ok: true, value: c.variables as Record<string, unknown> }
    }
  })
  if (r.ok) return { profiles: r.profiles, problems: [] }
  return { profiles: [], problems: r.errors.map((e) => ({ code: 'model-profile', message: `${ref}: ${e.path || '(config)'}: ${e.message}`, severity: 'error', source: ref })) }
}

export async function loadModels(refs: string[]): Promise<{ models: ModelContext[]; problems: Diagnostic[] }> {
  let lib: Promise<ModelProfile[]> | null = null
  const library = () => (lib ??= loadProfileLibrary().then((l) => l.profiles))
  const models: ModelContext[] = []
  const problems: Diagnostic[] = []
  const seen = new Set<string>()
  for (const ref of refs) {
    const r = await loadOne(ref, library)
    problems.push(...r.problems)
    for (const profile of r.profiles) {
      if (seen.has(profile.id)) continue
      seen.add(profile.id)
      models.push({ profile, counter: await tokenCounterForProfile(profile) })
    }
  }
  return { models, problems }
}

export async function libraryProfiles(): Promise<ModelProfile[]> {
  return (await loadProfileLibrary()).profiles
}
