// Shared conformance runner for the 'opencompass' and 'aisbench' families: feeds a golden case to the
// engine and shapes the result like the case's `expected`.
import { applyMetaTemplate, decodeInferCfg, renderAll } from '../engine'
import { parsedJson } from '../engine/messages'
import { aisMessages, chatMessages, openAiMessages } from '../engine/messages'
import { toPlainJson } from '../python/json'
import { promptJson, toItem } from '../engine/prompt-list'
import { sLit } from '../engine/spanned'
import type { Family, Mode, ModelInput, ParserKind, PipelineInput, Prompt, RenderedItem, Row } from '../engine/types'
import type { ConformanceCase } from './types'

function modelInputJson(m: ModelInput | undefined): unknown {
  if (!m) return undefined
  if (m.kind === 'text') return m.text
  if (m.kind === 'parts') return m.parts
  return m.items.map((it) => ('raw' in it ? it.raw : { role: it.role, prompt: it.prompt }))
}

function errorOut(message: string, stage: string): unknown {
  return { error: message, stage }
}

function messagesOut(family: Family, json: unknown): Record<string, unknown> {
  const wrap = (f: (x: unknown) => unknown): unknown => {
    try {
      return f(json)
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) }
    }
  }
  return family === 'aisbench' ? { messages: wrap(aisMessages) } : { openai_messages: wrap(openAiMessages), chat_messages: wrap(chatMessages) }
}

/** An opencompass/aisbench case's input as the golden generator writes it: a pipeline, or (kind 'parse') a PromptList. */
export type EngineCaseInput = PipelineCaseInput | ParseCaseInput

export interface ParseCaseInput {
  kind: 'parse'
  prompt_list: unknown
  meta_template: unknown
  parser: ParserKind
  mode: Mode
}

export interface PipelineCaseInput {
  kind?: undefined
  reader_cfg?: PipelineInput['reader_cfg']
  infer_cfg?: unknown
  train?: Row[]
  test?: Row[]
  meta_template?: unknown
  parser?: ParserKind
  mode?: Mode
  max_seq_len?: number | null
  model_outputs?: string[][]
}

function runParseCase(family: Family, input: ParseCaseInput): unknown {
  const pl = input.prompt_list
  const prompt: Prompt = typeof pl === 'string' ? sLit(pl, { kind: 'template', path: 'prompt_list' }) : (pl as unknown[]).map((x, i) => toItem(x, `prompt_list[${i}]`))
  const r = applyMetaTemplate(prompt, input.meta_template, { parser: input.parser, mode: input.mode, family, row: 0 })
  if (r.error) return errorOut(r.error.message, r.error.stage)
  const model_input = parsedJson(r.parsed!)
  const item: Record<string, unknown> = { index: 0, prompt_list: promptJson(prompt), model_input }
  if (input.parser === 'api') Object.assign(item, messagesOut(family, model_input))
  return { items: [item] }
}

function itemOut(it: RenderedItem, family: Family, parser: string, mode: string, multiturn: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = { index: it.index }
  if (mode === 'ppl') o.label = it.label
  if (it.advPrompt !== undefined) o.adv_prompt = it.advPrompt
  if (it.request !== undefined) o.request = it.request
  o.prompt_list = it.promptList?.json
  if (multiturn) {
    o.turns = (it.turns ?? []).map((t) => {
      const x: Record<string, unknown> = { turn_id: t.turn_id, model_input: modelInputJson(t.modelInput) }
      if (t.messages !== undefined) x.messages = t.messages
      return x
    })
    return o
  }
  o.model_input = modelInputJson(it.modelInput)
  if (parser === 'api' && mode === 'gen') {
    if (family === 'aisbench') o.messages = it.messages
    else {
      o.openai_messages = it.openaiMessages
      o.chat_messages = it.chatMessages
    }
  }
  return o
}

/** The pipeline a case describes, with upstream's defaults for what it leaves out. */
export function casePipelineInput(family: Family, input: PipelineCaseInput): PipelineInput {
  return {
    family,
    reader_cfg: input.reader_cfg ?? {},
    infer_cfg: decodeInferCfg(input.infer_cfg),
    train: input.train ?? [],
    test: input.test ?? [],
    meta_template: input.meta_template ?? null,
    parser: input.parser ?? 'lm',
    mode: input.mode ?? 'gen',
    max_seq_len: input.max_seq_len,
    model_outputs: input.model_outputs
  }
}

export function runEngineCase(c: ConformanceCase, family: Family): unknown {
  const input = (c.input ?? {}) as EngineCaseInput
  if (input.kind === 'parse') return toPlainJson(runParseCase(family, input))
  const pin = casePipelineInput(family, input)
  const res = renderAll(pin)
  if (res.error) return errorOut(res.error.message, res.error.stage)
  const p = res.prepared!
  const multiturn = p.inferencer.type === 'MultiTurnGenInferencer'
  let items = res.rows.flatMap((r) => r.items.map((it) => itemOut(it, family, pin.parser, pin.mode, multiturn)))
  if (pin.mode === 'ppl' && family === 'opencompass') {
    // OpenCompass iterates labels first, then rows.
    const labels = p.labels ?? []
    items = labels.flatMap((_, li) => res.rows.map((r) => itemOut(r.items[li], family, pin.parser, pin.mode, false)))
  }
  // The attack task calls predict once per listed prompt, each over every row.
  if (p.attack) items = p.attack.prompts.flatMap((_, k) => res.rows.map((r) => itemOut(r.items[k], family, pin.parser, pin.mode, false)))
  const out: Record<string, unknown> = { ice_idx: p.iceIdx, items }
  if (pin.mode === 'ppl' && family === 'opencompass') {
    out.labels = p.labels
    out.ice_model_input = res.iceModelInput
  }
  return toPlainJson(out)
}
