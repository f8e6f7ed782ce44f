// Template edits of a project: the text of each variant's infer_cfg pieces (ice_template, prompt_template,
// retriever) and of each model's own format (meta template, chat template, FastChat / LazyLLM settings), the
// user's edits over them, previews of unsaved edits, and diagnostics placed at their line and column. Edits are
// saved beside the project in .promptloom/overrides.json; the config file and the profiles are never written.
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { ModelRender, RowRender, TemplateApplyResult, TemplateDoc, TemplateEdit, TemplateTarget } from '../../../shared/api/types'
import { diagnostic, rangeFromOffsets, type Diagnostic, type Severity } from '../../../shared/diagnostics'
import { CONTENT_SPEC_KEY } from '../../../shared/builder'
import { compileChatTemplate } from '../../../shared/formats/hf'
import { chatTemplateSource, parseProfile, selectChatTemplate, type ModelProfile } from '../../../shared/models'
import { writeFileAtomic } from '../fs/atomic-write'
import { OVERRIDES_FILE, datasetStoreDir } from '../store/store-location'
import type { ModelContext } from './model-render'
import { locatePath, parseJsonWithPositions, splitPath, type JsonNode } from './template-json'
import { templateFamily, type Variant } from './variants'

/** The infer_cfg pieces the variant editor shows; inferencer may be added by hand. */
export const VARIANT_KEYS = ['ice_template', 'prompt_template', 'retriever'] as const
// The prompt builder's multimodal drafts carry how each row's content is composed (shared/builder/mm-content.ts).
const EDITABLE_INFER_KEYS = new Set<string>([...VARIANT_KEYS, 'inferencer', CONTENT_SPEC_KEY])
/** The profile field each non-Jinja format keeps its template in. */
const FORMAT_FIELD: Partial<Record<ModelProfile['format'], 'meta_template' | 'fastchat_template' | 'lazyllm'>> = {
  'opencompass-meta': 'meta_template',
  fastchat: 'fastchat_template',
  lazyllm: 'lazyllm'
}
const SAVED_VERSION = 1

/** Template edits are the curated dataset's, like its curation: saved in its own store folder. */
export const overridesFile = (root: string, dataset: string): string => join(datasetStoreDir(root, dataset), OVERRIDES_FILE)

interface SavedOverrides {
  version: number
  variants: Record<string, { text: string }>
  models: Record<string, { text: string }>
}

const keyOf = (t: TemplateTarget): string => ('variantId' in t ? `variant:${t.variantId}` : `model:${t.modelId}`)

// ---------------------------------------------------------------------------------------------- diagnostics

/** A diagnostic over offsets [from, to) of the text. */
export function diagnosticAt(text: string, from: number, to: number, message: string, severity: Severity, code = 'template'): Diagnostic {
  return diagnostic(code, severity, message, { range: rangeFromOffsets(text, from, to) })
}

/** For a problem the text cannot place: line 1, saying so, so the user still sees it beside the editor. */
export function unplaced(text: string, message: string, severity: Severity, code = 'template'): Diagnostic {
  const first = text.indexOf('\n')
  const end = first === -1 ? text.length : first
  return diagnosticAt(text, 0, end, `${message} (no position in this text; shown on line 1)`, severity, code)
}

/** Places an engine or schema path ("prompt_template.template.round[1]") in JSON text; null when no step is there. */
function placePath(text: string, root: JsonNode | undefined, path: string, dropFirst: string | null): { from: number; to: number } | null {
  if (!root) return null
  let steps = splitPath(path)
  if (dropFirst !== null) {
    if (steps[0] !== dropFirst) return null
    steps = steps.slice(1)
    if (steps.length === 0) return { from: root.from, to: Math.min(root.to, text.indexOf('\n', root.from) === -1 ? root.to : text.indexOf('\n', root.from)) }
  } else if (!root.members?.has(steps[0] ?? '')) return null
  const at = locatePath(root, steps)
  return at.found > 0 || dropFirst !== null ? { from: at.from, to: at.to } : null
}

/** A KeyError names a value the text wrote (a role, a column): the first string in the text equal to it. */
function placeNamedValue(root: JsonNode, message: string): { from: number; to: number } | null {
  const name = /KeyError: '([^']*)'/.exec(message)?.[1]
  if (name === undefined) return null
  const walk = (n: JsonNode): JsonNode | null => {
    if (n.kind === 'string' && n.value === name) return n
    for (const c of n.members?.values() ?? n.items ?? []) {
      const hit = walk(c)
      if (hit) return hit
    }
    return null
  }
  const hit = walk(root)
  return hit ? { from: hit.from, to: hit.to } : null
}

// ---------------------------------------------------------------------------------------------- text of a target

/** The editable JSON of a variant: its infer_cfg pieces, in a fixed order. */
export function variantText(inferCfg: Record<string, unknown>): string {
  const out: Record<string, unknown> = {}
  for (const k of VARIANT_KEYS) if (inferCfg[k] !== undefined) out[k] = inferCfg[k]
  return JSON.stringify(out, null, 2) + '\n'
}

/** What the editor shows for a model: the template of its format, and in which language. */
export function modelText(p: ModelProfile): { language: TemplateDoc['language']; text: string; readOnly?: boolean; note?: string } {
  if (p.format === 'hf-chat-template') {
    const sel = selectChatTemplate(p.chat_template)
    if (!sel.ok) return { language: 'jinja2', text: '', readOnly: true, note: sel.message }
    return { language: 'jinja2', text: sel.source, ...(sel.name ? { note: `editing the chat template named "${sel.name}"` } : {}) }
  }
  const field = FORMAT_FIELD[p.format]
  if (!field) return { language: 'json', text: '', readOnly: true, note: `${p.format}: the messages go to the API as they are; there is no template to edit` }
  const note = field === 'meta_template' ? 'OpenCompass meta template (JSON)' : `the profile's ${field} (JSON)`
  return { language: 'json', text: JSON.stringify(p[field] ?? null, null, 2) + '\n', note }
}

// ---------------------------------------------------------------------------------------------- reading edits

export interface ReadEdit<T> {
  /** The edited variant or profile; null when the text cannot be read at all. */
  value: T | null
  diagnostics: Diagnostic[]
  /** True when the edit must not be applied (errors in the text itself). */
  blocking: boolean
  /** Places a problem of a render made with this edit; null when it is not about this text. */
  place: (pr: Diagnostic) => Diagnostic | null
}

function jsonErrors(text: string) {
  const r = parseJsonWithPositions(text)
  if (!r.ok) {
    const d = diagnosticAt(text, r.error.offset, r.error.offset + r.error.length, r.error.message, 'error', 'json-syntax')
    return { ok: false as const, diagnostics: [d] }
  }
  const diagnostics = r.warnings.map((w) => diagnosticAt(text, w.offset, w.offset + w.length, w.message, 'warning', 'json-duplicate-key'))
  return { ok: true as const, value: r.value, root: r.root, diagnostics }
}

const NEVER: ReadEdit<never>['place'] = () => null

/** Reads a variant's edited JSON over the variant it came from. */
export function readVariantEdit(text: string, base: Variant): ReadEdit<Variant> {
  const j = jsonErrors(text)
  if (!j.ok) return { value: null, diagnostics: j.diagnostics, blocking: true, place: NEVER }
  const diagnostics = [...j.diagnostics]
  const root = j.root
  if (root.kind !== 'object' || !root.members) {
    diagnostics.push(diagnosticAt(text, root.from, root.to, 'expected an object with ice_template, prompt_template and retriever', 'error', 'shape'))
    return { value: null, diagnostics, blocking: true, place: NEVER }
  }
  for (const [k, node] of root.members) {
    if (!EDITABLE_INFER_KEYS.has(k)) diagnostics.push(diagnosticAt(text, node.keyFrom!, node.keyTo!, `"${k}" is not part of infer_cfg here; expected ${[...EDITABLE_INFER_KEYS].join(', ')}`, 'error', 'shape'))
    else if (node.kind !== 'object') diagnostics.push(diagnosticAt(text, node.from, node.to, `${k} must be a dict (a JSON object with "type")`, 'error', 'shape'))
  }
  if (!root.members.has('prompt_template') && !root.members.has('ice_template')) {
    diagnostics.push(diagnosticAt(text, root.from, root.from + 1, 'needs a prompt_template or an ice_template', 'error', 'shape'))
  }
  const blocking = diagnostics.some((d) => d.severity === 'error')
  const infer: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(base.infer_cfg)) if (!VARIANT_KEYS.includes(k as (typeof VARIANT_KEYS)[number])) infer[k] = v
  Object.assign(infer, j.value as Record<string, unknown>)
  const place = (pr: Diagnostic): Diagnostic | null => {
    const path = pr.data?.path
    const at = typeof path === 'string' ? placePath(text, root, path, null) : placeNamedValue(root, pr.message)
    return at ? diagnosticAt(text, at.from, at.to, pr.message, pr.severity, pr.code) : null
  }
  // A composed content is the one column the multimodal draft's template reads; AISBench templates get its semantics.
  const reader_cfg = CONTENT_SPEC_KEY in infer ? { ...base.reader_cfg, input_columns: ['content'] } : base.reader_cfg
  const edited: Variant = { ...base, family: templateFamily(infer, base.family), reader_cfg, infer_cfg: infer }
  return { value: blocking ? null : edited, diagnostics, blocking, place }
}

/** Reads a model's edited template over the profile it came from, checked against the profile schema. */
export function readModelEdit(text: string, base: ModelProfile): ReadEdit<ModelProfile> {
  if (base.format === 'hf-chat-template') return readChatTemplateEdit(text, base)
  const field = FORMAT_FIELD[base.format]
  if (!field) return { value: null, diagnostics: [unplaced(text, `${base.format} has no template to edit`, 'error', 'read-only')], blocking: true, place: NEVER }
  const j = jsonErrors(text)
  if (!j.ok) return { value: null, diagnostics: j.diagnostics, blocking: true, place: NEVER }
  const diagnostics = [...j.diagnostics]
  const candidate = { ...base, [field]: j.value } as ModelProfile
  const checked = parseProfile(candidate)
  if (!checked.ok) {
    for (const e of checked.errors) {
      // Only what this text can fix; the rest of the profile was valid when it loaded.
      const at = placePath(text, j.root, e.path, field)
      if (e.path.split('.')[0] !== field) continue
      diagnostics.push(at ? diagnosticAt(text, at.from, at.to, e.message, 'error', 'profile') : unplaced(text, e.message, 'error', 'profile'))
    }
  }
  const blocking = diagnostics.some((d) => d.severity === 'error')
  const place = (pr: Diagnostic): Diagnostic | null => {
    const path = pr.data?.path
    if (typeof path !== 'string') return null
    const at = placePath(text, j.root, path, field)
    return at ? diagnosticAt(text, at.from, at.to, pr.message, pr.severity, pr.code) : null
  }
  return { value: blocking ? null : candidate, diagnostics, blocking, place }
}

function readChatTemplateEdit(text: string, base: ModelProfile): ReadEdit<ModelProfile> {
  const diagnostics: Diagnostic[] = []
  const c = compileChatTemplate(text)
  // The compiler places what it refuses in the text; only an internal failure has no place.
  if (!c.ok) diagnostics.push(c.error.range ? { ...c.error, code: 'jinja-syntax' } : unplaced(text, c.error.message, 'error', 'jinja-syntax'))
  const sel = selectChatTemplate(base.chat_template)
  const chat_template = typeof base.chat_template === 'object' && sel.ok && sel.name ? { ...base.chat_template, [sel.name]: text } : text
  // A render error of this text (raise_exception, a missing key) keeps its range in the text it names as its source.
  const source = chatTemplateSource(base.id, sel.ok ? sel.name : undefined)
  const place = (pr: Diagnostic): Diagnostic | null => (pr.range && pr.source === source ? pr : null)
  // A template that does not compile is still previewed: the model's column shows the error as it would happen.
  return { value: { ...base, chat_template }, diagnostics, blocking: diagnostics.length > 0, place }
}

// ---------------------------------------------------------------------------------------------- the project's edits

export interface Drafts {
  variant?: Variant
  models: Map<string, ModelContext>
  reads: ReadEdit<unknown>[]
  diagnostics: Diagnostic[][]
  /** An edit could not be read at all; nothing is rendered. */
  unreadable: boolean
}

/**
 * The project's template edits: the originals (as the config and profiles give them), the edits in effect,
 * and the file they are saved to. Applying an edit changes the project's variants and model profiles in place.
 */
export class ProjectTemplates {
  private readonly originalInfer = new Map<string, Record<string, unknown>>()
  private readonly originalProfiles = new Map<string, ModelProfile>()
  private readonly texts = new Map<string, string>()

  constructor(
    /** The overrides file (see overridesFile). */
    readonly file: string,
    private readonly variants: Variant[],
    private readonly models: ModelContext[],
    /** Called when a variant's config changes, so cached pipelines for it are dropped. */
    private readonly onVariantChange: (id: string) => void = () => {}
  ) {
    for (const v of variants) this.originalInfer.set(v.id, structuredClone(v.infer_cfg))
    for (const m of models) this.originalProfiles.set(m.profile.id, structuredClone(m.profile))
  }

  private variantOf(id: string): Variant {
    const v = this.variants.find((x) => x.id === id)
    if (!v) throw new Error(`no template variant "${id}" in this project`)
    return v
  }

  private modelOf(id: string): ModelContext {
    const m = this.models.find((x) => x.profile.id === id)
    if (!m) throw new Error(`no model "${id}" in this project`)
    return m
  }

  doc(t: TemplateTarget): TemplateDoc {
    const edited = this.texts.get(keyOf(t))
    if ('variantId' in t) {
      const v = this.variantOf(t.variantId)
      const original = variantText(this.originalInfer.get(v.id) ?? v.infer_cfg)
      return { target: t, title: v.id, language: 'json', text: edited ?? original, original, overridden: edited !== undefined, note: 'infer_cfg: ice_template, prompt_template, retriever (JSON)' }
    }
    const m = this.modelOf(t.modelId)
    const orig = modelText(this.originalProfiles.get(m.profile.id) ?? m.profile)
    return { target: t, title: m.profile.name, ...orig, text: edited ?? orig.text, original: orig.text, overridden: edited !== undefined }
  }

  /** Reads one edit against the original variant or profile (edits replace, they do not stack). */
  read(t: TemplateTarget, text: string): ReadEdit<Variant | ModelProfile> {
    if ('variantId' in t) {
      const v = this.variantOf(t.variantId)
      return readVariantEdit(text, { ...v, infer_cfg: this.originalInfer.get(v.id) ?? v.infer_cfg })
    }
    const m = this.modelOf(t.modelId)
    return readModelEdit(text, this.originalProfiles.get(m.profile.id) ?? m.profile)
  }

  /** Variant and model substitutes for rendering unsaved edits; only the shown variant's edit matters. */
  drafts(variantId: string, edits: TemplateEdit[]): Drafts {
    const models = new Map<string, ModelContext>()
    let variant: Variant | undefined
    let unreadable = false
    const reads = edits.map((e) => {
      const r = this.read(e.target, e.text)
      const usable = r.value ?? null
      if ('variantId' in e.target) {
        if (e.target.variantId === variantId) {
          if (usable) variant = usable as Variant
          else unreadable = true
        }
      } else if (usable) models.set(e.target.modelId, { ...this.modelOf(e.target.modelId), profile: usable as ModelProfile })
      else unreadable = true
      return r as ReadEdit<unknown>
    })
    return { variant, models, reads, diagnostics: reads.map((r) => [...r.diagnostics]), unreadable }
  }

  /** Adds what rendering the row with the edits found — engine errors and warnings, placed in each edit's text. */
  renderDiagnostics(d: Drafts, edits: TemplateEdit[], render: RowRender): Diagnostic[][] {
    return edits.map((e, i) => {
      const out = [...d.diagnostics[i]]
      const read = d.reads[i]
      const add = (pr: Diagnostic, placeAlways: boolean) => {
        const placed = read.place(pr)
        if (placed) out.push(placed)
        else if (placeAlways) out.push(unplaced(e.text, pr.message, pr.severity, pr.code))
      }
      if ('variantId' in e.target) {
        if (e.target.variantId !== render.variantId) return out
        for (const pr of render.problems) if (pr.code !== 'media') add(pr, pr.severity === 'error' || typeof pr.data?.path === 'string')
        // A model's column fails on what the variant asks of it (a role its meta template lacks): shown here
        // too when the text names the culprit, under the model's name.
        for (const m of render.models) {
          for (const pr of m.problems) {
            if (pr.severity !== 'error' || pr.code === 'over-context') continue
            const placed = read.place(pr)
            if (placed) out.push({ ...placed, message: `${m.modelName}: ${placed.message}` })
          }
        }
        return out
      }
      const col: ModelRender | undefined = render.models.find((m) => m.modelId === (e.target as { modelId: string }).modelId)
      const hasOwnError = out.some((x) => x.severity === 'error')
      for (const pr of col?.problems ?? []) {
        if (pr.code === 'over-context') continue
        // The compile error is already placed; the column repeats it without a position.
        if (hasOwnError && pr.severity === 'error') continue
        add(pr, pr.severity === 'error')
      }
      return out
    })
  }

  /** Applies saved edits when the project opens; one that no longer reads is reported and left out. */
  async load(): Promise<Diagnostic[]> {
    let raw: string
    try {
      raw = await readFile(this.file, 'utf8')
    } catch {
      return []
    }
    const problems: Diagnostic[] = []
    let saved: SavedOverrides
    try {
      saved = JSON.parse(raw) as SavedOverrides
      if (saved?.version !== SAVED_VERSION) throw new Error(`unknown version ${String(saved?.version)}`)
    } catch (e) {
      return [{ code: 'template-overrides', message: `${this.file}: cannot read the saved template edits: ${(e as Error).message}`, severity: 'error', source: this.file }]
    }
    const entries: [TemplateTarget, string][] = [
      ...Object.entries(saved.variants ?? {}).map(([id, v]) => [{ variantId: id }, v?.text] as [TemplateTarget, string]),
      ...Object.entries(saved.models ?? {}).map(([id, v]) => [{ modelId: id }, v?.text] as [TemplateTarget, string])
    ]
    for (const [t, text] of entries) {
      const name = 'variantId' in t ? `template variant "${t.variantId}"` : `model "${t.modelId}"`
      const exists = 'variantId' in t ? this.variants.some((v) => v.id === t.variantId) : this.models.some((m) => m.profile.id === t.modelId)
      if (!exists || typeof text !== 'string') {
        problems.push({ code: 'template-overrides', message: `saved template edit for ${name} is not used: the project has no such ${'variantId' in t ? 'variant' : 'model'}`, severity: 'warning', source: this.file })
        continue
      }
      const r = this.read(t, text)
      if (r.blocking || !r.value) {
        const first = r.diagnostics.find((d) => d.severity === 'error')
        problems.push({ code: 'template-overrides', message: `saved template edit for ${name} is not used: ${first ? `${first.range ? `line ${first.range.start.line}:${first.range.start.column}: ` : ''}${first.message}` : 'it does not read'}`, severity: 'error', source: this.file })
        continue
      }
      this.commit(t, text, r.value)
    }
    return problems
  }

  private commit(t: TemplateTarget, text: string | null, value: Variant | ModelProfile) {
    if (text === null) this.texts.delete(keyOf(t))
    else this.texts.set(keyOf(t), text)
    if ('variantId' in t) {
      this.variantOf(t.variantId).infer_cfg = (value as Variant).infer_cfg
      this.onVariantChange(t.variantId)
    } else this.modelOf(t.modelId).profile = value as ModelProfile
  }

  /** Makes an edit the project's own and saves it; refused (applied: false) while the text has errors. */
  async apply(t: TemplateTarget, text: string): Promise<TemplateApplyResult> {
    const r = this.read(t, text)
    if (r.blocking || !r.value) return { applied: false, doc: this.doc(t), diagnostics: r.diagnostics }
    const same = text === this.doc(t).original
    this.commit(t, same ? null : text, r.value)
    return { applied: true, doc: this.doc(t), diagnostics: r.diagnostics, ...(await this.save()) }
  }

  /** Back to the config's or the profile's own template. */
  async revert(t: TemplateTarget): Promise<TemplateApplyResult> {
    const had = this.texts.has(keyOf(t))
    if ('variantId' in t) {
      const v = this.variantOf(t.variantId)
      this.commit(t, null, { ...v, infer_cfg: structuredClone(this.originalInfer.get(v.id) ?? v.infer_cfg) })
    } else {
      const m = this.modelOf(t.modelId)
      this.commit(t, null, structuredClone(this.originalProfiles.get(m.profile.id) ?? m.profile))
    }
    return { applied: true, doc: this.doc(t), diagnostics: [], ...(had ? await this.save() : {}) }
  }

  /** Writes a variant's dataset config (reader_cfg and the infer_cfg in effect) as JSON; never over the config file. */
  async exportConfig(variantId: string, target: string, configFile: string | undefined): Promise<void> {
    if (configFile && resolve(target) === resolve(configFile)) {
      throw new Error(`${target} is the project's config file; PromptLoom does not overwrite it. Choose another name.`)
    }
    const v = this.variantOf(variantId)
    const out = { abbr: v.id, reader_cfg: v.reader_cfg, infer_cfg: v.infer_cfg }
    await writeFileAtomic(target, JSON.stringify(out, null, 2) + '\n')
  }

  private async save(): Promise<{ savedTo?: string; saveError?: string }> {
    const out: SavedOverrides = { version: SAVED_VERSION, variants: {}, models: {} }
    for (const [k, text] of [...this.texts].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [kind, ...rest] = k.split(':')
      const id = rest.join(':')
      if (kind === 'variant') out.variants[id] = { text }
      else out.models[id] = { text }
    }
    try {
      await mkdir(dirname(this.file), { recursive: true })
      await writeFileAtomic(this.file, JSON.stringify(out, null, 2) + '\n')
      return { savedTo: this.file }
    } catch (e) {
      return { saveError: `could not save the template edits to ${this.file}: ${(e as Error).message}` }
    }
  }
}
