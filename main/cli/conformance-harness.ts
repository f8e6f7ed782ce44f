// Conformance runner for the 'opencompass-chat' and 'aisbench-chat' families (chat-template wrappers): a golden
// case's model becomes a profile through the model-config import (the wrapper class, a built-in profile by name, the
// config's keyword arguments), its dataset side a prepared pipeline, and every row renders through the app's own
// renderPreparedRow — the path of the matrix and `promptloom render`. The answer is shaped like `expected`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ConformanceCase, ConformanceHost } from '../../shared/conformance'
import type { PipelineCaseInput } from '../../shared/conformance/engine-case'
import { jsonGet, jsonObject } from '../../shared/python/json'
import {
  chatList,
  decodeInferCfg,
  isChatInferencer,
  preparePipeline,
  promptJson,
  toPlainJson,
  type Family,
  type PipelineInput
} from '../../shared/engine'
import type { HarnessTrace, ModelRender } from '../../shared/api/types'
import { parseProfile, type ModelProfile } from '../../shared/models'
import { profileUnderHarness } from '../../shared/models/harness-ref'
import { profileFromOpenCompassModel } from '../services/models/import-opencompass-config'
import { loadProfileLibrary } from '../services/models/profile-library'
import { tokenCounterForProfile } from '../services/models/tokenizer'
import { renderPreparedRow } from '../services/workspace/render-row'
import type { ModelContext } from '../services/workspace/model-render'

interface CaseError {
  error: string
  stage: string
}

/** The model a harness case names: a wrapper with its keyword arguments, or a built-in profile under a harness. */
interface CaseModel {
  wrapper?: string
  model_kwargs?: Record<string, unknown>
  profile?: string
  chat_template?: string
  special_tokens_source?: string
  special_tokens?: ModelProfile['special_tokens']
  harness?: { model_kwargs?: Record<string, unknown> }
}

/** A harness case's input: an engine case's pipeline with the model it goes through. */
interface HarnessCaseInput extends PipelineCaseInput {
  model?: CaseModel
}

const caseInput = (c: ConformanceCase): HarnessCaseInput => (c.input ?? {}) as HarnessCaseInput

/** The model config a golden case describes, as a user's config would hold it (path: the built-in profile). */
function modelConfig(model: CaseModel, family: Family): Record<string, unknown> {
  const source =
    typeof model.special_tokens_source === 'string'
      ? model.special_tokens_source.replace(/^profile:/, '')
      : model.chat_template
  const module = family === 'aisbench' ? 'ais_bench.benchmark.models' : 'opencompass.models'
  return { type: `${module}.${model.wrapper}`, path: source, ...(model.model_kwargs ?? {}) }
}

async function profileFor(
  c: ConformanceCase,
  family: Family,
  host: ConformanceHost
): Promise<ModelProfile | CaseError> {
  const model = caseInput(c).model ?? {}
  // An empty folder to resolve relative paths against: `path` names a built-in profile, never a folder here.
  const baseDir = mkdtempSync(join(tmpdir(), 'promptloom-occ-'))
  try {
    const r = await profileFromOpenCompassModel(modelConfig(model, family), { baseDir, family })
    if (!r.ok)
      return { error: `model import: ${r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, stage: 'model' }
    let profile = r.profile
    // The case names the exact template and tokens; a built-in profile ships the same bytes, but be faithful.
    const source = host.loadChatTemplate(String(model.chat_template))
    if (source !== undefined && source !== profile.chat_template) profile = { ...profile, chat_template: source }
    if (model.special_tokens) profile = { ...profile, special_tokens: model.special_tokens }
    return profile
  } finally {
    rmSync(baseDir, { recursive: true, force: true })
  }
}

function traceItem(t: HarnessTrace | undefined): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  if (!t) return o
  if (t.modelInput !== undefined) o.model_input = t.modelInput
  if (t.chatMessages !== undefined) o.chat_messages = t.chatMessages
  if (t.error && t.error.stage !== 'ppl') {
    o.error = { error: t.error.message, stage: t.error.stage }
    return o
  }
  if (t.prompt !== undefined) {
    o.prompt = t.prompt
    o.tokenize_add_special_tokens = t.addSpecialTokens ?? null
  }
  if (t.postPromptError) o.post_prompt_error = t.postPromptError
  return o
}

function caseError(m: ModelRender | undefined): CaseError | undefined {
  const e = m?.harness?.error
  return e && e.stage === 'parse' ? { error: e.message, stage: 'parse' } : undefined
}

export async function runHarnessCase(c: ConformanceCase, host: ConformanceHost): Promise<unknown> {
  const family: Family = c.family === 'aisbench-chat' ? 'aisbench' : 'opencompass'
  const input = caseInput(c)
  const profile = await profileFor(c, family, host)
  if ('error' in profile) return profile
  const ctx: ModelContext = { profile, counter: await tokenCounterForProfile(profile) }
  const pin: PipelineInput = {
    family,
    reader_cfg: input.reader_cfg ?? {},
    infer_cfg: decodeInferCfg(input.infer_cfg),
    train: input.train ?? [],
    test: input.test ?? [],
    meta_template: null,
    parser: 'api',
    mode: input.mode ?? 'gen'
  }
  const prepared = preparePipeline(pin)
  if ('code' in prepared) return { error: prepared.message, stage: prepared.stage }
  const rows = prepared.test.map((_, i) => renderPreparedRow(prepared, i, i, [ctx], false))
  // Upstream builds every prompt before the model sees any, then stops at the first failing batch.
  for (const r of rows) {
    const e = r.problems.find((p) => p.severity === 'error')
    if (e) return { error: e.message, stage: 'prompt' }
  }
  const stop_words = rows[0]?.models[0]?.harness?.stopWords ?? []
  if (isChatInferencer(prepared)) {
    const items = rows.map((r, i) => ({
      index: i,
      chat: chatList(prepared, i, []),
      turns: (r.items ?? []).map((it) => {
        const history = promptJson(it.prompt) as { role: string }[]
        const t = it.models[0]?.harness
        const o: Record<string, unknown> = { turn: (it.turn ?? 1) - 1, history, ...traceItem(t) }
        // The goldens' fake model answers "<model output N>", N = the user messages it was given.
        if (t && !t.error) o.output = `<model output ${history.filter((m) => m.role === 'user').length}>`
        return o
      })
    }))
    return toPlainJson({ stop_words, items })
  }
  if (prepared.mode === 'ppl') {
    const labels = prepared.labels ?? []
    const items: unknown[] = []
    let pplError: string | undefined
    for (let li = 0; li < labels.length; li++)
      for (let i = 0; i < rows.length; i++) {
        const it = rows[i].items?.[li]
        const m = it?.models[0]
        const ce = caseError(m)
        if (ce) return ce
        if (m?.harness?.error?.stage === 'ppl') pplError ??= m.harness.error.message
        items.push({
          index: i,
          label: it?.label,
          prompt_list: it ? promptJson(it.prompt) : null,
          ...traceItem(m?.harness)
        })
      }
    return toPlainJson({
      ice_idx: prepared.iceIdx,
      labels,
      stop_words,
      items,
      ...(pplError ? { ppl_error: pplError } : {})
    })
  }
  const items: unknown[] = []
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]
    const m = r.models[0]
    const ce = caseError(m)
    if (ce) return ce
    items.push({
      index: i,
      prompt_list: r.prompt === null ? null : promptJson(r.prompt),
      ...traceItem(m?.harness)
    })
  }
  return toPlainJson({ ice_idx: prepared.iceIdx, stop_words, items })
}

/**
 * 'lm-eval' cases (test/conformance/cases-local/lm-eval.jsonl, made by running lm-evaluation-harness): the built-in
 * profile the case names, under the lm-eval harness with the case's options exactly as `--model ID@lm-eval,…` makes
 * it (profileUnderHarness), its dataset side a prepared OpenCompass pipeline, every row through renderPreparedRow.
 */
export async function runLmEvalCase(c: ConformanceCase, host: ConformanceHost): Promise<unknown> {
  const input = caseInput(c)
  const model = input.model ?? {}
  const lib = await loadProfileLibrary()
  let base = lib.profiles.find((p) => p.id === model.profile)
  if (!base) return { error: `no built-in profile ${model.profile}`, stage: 'model' }
  const source = host.loadChatTemplate(String(model.chat_template))
  if (source !== undefined && source !== base.chat_template) base = { ...base, chat_template: source }
  if (model.special_tokens) base = { ...base, special_tokens: model.special_tokens }
  const r = profileUnderHarness(base, 'lm-eval', model.harness?.model_kwargs ?? {})
  if (!r.ok) return { error: `model: ${r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, stage: 'model' }
  const ctx: ModelContext = { profile: r.profile, counter: await tokenCounterForProfile(r.profile) }
  const prepared = preparePipeline({
    family: 'opencompass',
    reader_cfg: input.reader_cfg ?? {},
    infer_cfg: decodeInferCfg(input.infer_cfg),
    train: input.train ?? [],
    test: input.test ?? [],
    meta_template: null,
    parser: 'api',
    mode: input.mode ?? 'gen'
  })
  if ('code' in prepared) return { error: prepared.message, stage: prepared.stage }
  const rows = prepared.test.map((_, i) => renderPreparedRow(prepared, i, i, [ctx], false))
  const item = (index: number, m: ModelRender | undefined, label?: unknown): Record<string, unknown> => {
    const t = m?.harness
    const o: Record<string, unknown> = { index, chat_messages: t?.chatMessages ?? null }
    if (label !== undefined) o.label = label
    if (!t || t.error) {
      o.error = { error: t?.error?.message ?? 'no harness trace' }
      return o
    }
    o.retried_without_system = t.retriedWithoutSystem !== undefined
    o.prompt = t.prompt
    if (prepared.mode === 'ppl') o.continuation = t.continuation
    else o.tokenize_add_special_tokens = t.addSpecialTokens ?? null
    return o
  }
  if (prepared.mode === 'ppl') {
    const labels = prepared.labels ?? []
    const items: unknown[] = []
    for (let li = 0; li < labels.length; li++)
      for (let i = 0; i < rows.length; i++) items.push(item(i, rows[i].items?.[li]?.models[0], rows[i].items?.[li]?.label))
    return toPlainJson({ items })
  }
  const stop_words = rows[0]?.models[0]?.harness?.stopWords ?? []
  return toPlainJson({ stop_words, items: rows.map((r, i) => item(i, r.models[0])) })
}

/** The built-in profile a case names, or — for one the library does not ship yet — a profile of the case's template. */
async function caseProfile(model: CaseModel, host: ConformanceHost): Promise<ModelProfile | CaseError> {
  const lib = await loadProfileLibrary()
  const source = host.loadChatTemplate(String(model.chat_template))
  let base = lib.profiles.find((p) => p.id === model.profile)
  if (!base) {
    if (source === undefined) return { error: `no built-in profile ${model.profile} and no template ${model.chat_template}`, stage: 'model' }
    const r = parseProfile({ id: model.profile, name: model.profile, family: 'case', format: 'hf-chat-template', chat_template: source, context_length: 32768 })
    if (!r.ok) return { error: r.errors.map((e) => e.message).join('; '), stage: 'model' }
    base = r.profile
  }
  if (source !== undefined && source !== base.chat_template) base = { ...base, chat_template: source }
  if (model.special_tokens) base = { ...base, special_tokens: model.special_tokens }
  return base
}

/**
 * 'vlmevalkit' cases (test/conformance/cases-local/vlmevalkit.jsonl, made by running VLMEvalKit): the case's rows as
 * a dataset (with a plain template: VLMEvalKit ignores it), the model under the vlmevalkit harness as
 * `--model ID@vlmevalkit,…` makes it, every row through renderPreparedRow. Image parts compare as {type: image}.
 */
export async function runVlmevalCase(c: ConformanceCase, host: ConformanceHost): Promise<unknown> {
  const input = caseInput(c)
  const model = input.model ?? {}
  const base = await caseProfile(model, host)
  if ('error' in base) return base
  const r = profileUnderHarness(base, 'vlmevalkit', model.harness?.model_kwargs ?? {})
  if (!r.ok) return { error: `model: ${r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, stage: 'model' }
  const ctx: ModelContext = { profile: r.profile, counter: await tokenCounterForProfile(r.profile) }
  const test: Record<string, unknown>[] = input.test ?? []
  const prepared = preparePipeline({
    family: 'opencompass',
    reader_cfg: { input_columns: ['question'], output_column: 'answer' },
    infer_cfg: { prompt_template: { type: 'PromptTemplate', template: '{question}' }, retriever: { type: 'ZeroRetriever' }, inferencer: { type: 'GenInferencer' } },
    train: [],
    test,
    meta_template: null,
    parser: 'api',
    mode: 'gen'
  })
  if ('code' in prepared) return { error: prepared.message, stage: prepared.stage }
  const imageless = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map((m) => {
          const { role, content } = jsonObject(m)
          return { role, content: Array.isArray(content) ? content.map((p) => (jsonGet(p, 'type') === 'image' ? { type: 'image' } : p)) : content }
        })
      : v
  const items = prepared.test.map((_, i) => {
    const t = renderPreparedRow(prepared, i, i, [ctx], false).models[0]?.harness
    if (!t || t.error) return { index: i, error: { error: t?.error?.message ?? 'no harness trace' } }
    const struct = (t.modelInput as { type: string; value: string }[]).map((s) => (s.type === 'image' ? { type: 'image' } : s))
    return {
      index: i,
      custom_prompt: t.vlmPrompt === 'model',
      struct,
      chat_messages: imageless(t.chatMessages),
      prompt: t.prompt
    }
  })
  return toPlainJson({ items })
}
