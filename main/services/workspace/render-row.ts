// Renders one dataset row for the exact-input matrix, export and the CLI; read in this order:
//  render-row.ts        the row: its PromptList (one per PPL label or multi-turn turn) and each model's input for it
//  render-chat-row.ts   a ChatInferencer row (chat turns, each a request), render-conversation.ts a conversation row
//  own-inferencer.ts    where the inferencer decides a model's input (CLP, SWCELoss, LL; PPL on an OpenCompass API model)
//  render-meta.ts       an OpenCompass meta-template model; render-harness.ts a chat-template wrapper (harness);
//  render-messages.ts   every other format (HF chat template, FastChat, LazyLLM, an API) from a conversation
//  model-media.ts       the media each model receives and what it costs in tokens
//  model-render.ts      what every column shares (model identity, engine problems, the context-length check)
//  prompt-blocks.ts     the PromptList as the display shows it
import type { Diagnostic, ModelRender, PromptBlock, ReferenceAnswer, RenderItem } from '../../../shared/api/types'
import { buildPromptList, type BuiltRow, isChatInferencer, isMultiTurn, type Mode, parseMode, type Prepared, type Prompt, pyRepr, toPlainJson, turnPrompts } from '../../../shared/engine'
import { harnessFor, harnessSeqLimit } from '../../../shared/models'
import { metaSeqLimit, withExamples } from './seq-limit'
import { conversationOf } from './variants'
import { renderConversationRow } from './render-conversation'
import { renderChatRow } from './render-chat-row'
import { clpUnparsedRender, ownInferencerRender } from './own-inferencer'
import { renderMeta } from './render-meta'
import { renderConversation } from './render-messages'
import { renderHarness } from './render-harness'
import { type RowMediaInfo, withMediaTokens } from './model-media'
import { engineProblem, modelBase, type ModelContext } from './model-render'
import { promptBlocks } from './prompt-blocks'

/** One request of a row (a PPL label or a multi-turn turn) with its PromptList, for export and the matrix. */
export interface RenderedItem extends RenderItem {
  prompt: Prompt
}

export interface RenderedForModels {
  promptList: PromptBlock[]
  prompt: Prompt | null
  models: ModelRender[]
  problems: Diagnostic[]
  /** The conversation template: the row's final assistant turn, its reference answer (not sent to the models). */
  reference?: ReferenceAnswer | null
  /** Several requests per row (PPL labels, multi-turn turns, AttackInferencer's prompts); the fields above are the first one's. */
  items?: RenderedItem[]
  itemKind?: 'label' | 'turn' | 'adv_prompt'
}

/**
 * `spans: false` (bulk export without --spans) skips everything only the display needs: the span bookkeeping and
 * the PromptList blocks. The text is the same either way.
 */
export function renderPreparedRow(prepared: Prepared, testIndex: number, rowIndex: number, models: ModelContext[], spans = true, media?: RowMediaInfo): RenderedForModels {
  const r = renderPreparedRowText(prepared, testIndex, rowIndex, models, spans)
  const costs = (rs: ModelRender[]) => rs.map((x, j) => (x.media?.length && models[j] ? withMediaTokens(x, models[j], prepared.family, media) : x))
  if (!r.models.some((x) => x.media?.length) && !r.items?.some((it) => it.models.some((x) => x.media?.length))) return r
  return { ...r, models: costs(r.models), ...(r.items ? { items: r.items.map((it) => ({ ...it, models: costs(it.models) })) } : {}) }
}

function renderPreparedRowText(prepared: Prepared, testIndex: number, rowIndex: number, models: ModelContext[], spans: boolean): RenderedForModels {
  const conv = conversationOf(prepared.input)
  if (conv) return renderConversationRow(prepared, conv, testIndex, rowIndex, models, spans)
  if (isChatInferencer(prepared)) return renderChatRow(prepared, testIndex, rowIndex, models, spans)
  const built = buildPromptList(prepared, testIndex)
  const problems = built.warnings.map((w) => engineProblem(w, 'warning'))
  if (built.error || built.items.length === 0) {
    if (built.error) problems.push(engineProblem(built.error, 'error'))
    return { promptList: [], prompt: null, models: [], problems }
  }
  const blocks = (prompt: Prompt) => (spans ? promptBlocks(prompt) : [])
  if (prepared.mode === 'ppl') {
    // OpenCompass scores one prompt per label; each model parses each with mode='ppl'.
    const labelPrompts = built.items.map((b) => b.prompt)
    const items: RenderedItem[] = built.items.map((b, i) => ({
      title: pyRepr(b.label),
      label: toPlainJson(b.label),
      prompt: b.prompt,
      promptList: blocks(b.prompt),
      models: renderModels(b.prompt, prepared, rowIndex, models, spans, 'ppl', { testIndex, item: i, built, labelPrompts })
    }))
    return { ...firstOf(items), problems, items, itemKind: 'label' }
  }
  if (prepared.attack) {
    // AttackInferencer: one request per prompt of original_prompt_list, each in the row's adv_key field.
    const items: RenderedItem[] = built.items.map((b, i) => ({
      title: String(i + 1),
      advPrompt: b.advPrompt,
      prompt: b.prompt,
      promptList: blocks(b.prompt),
      models: renderModels(b.prompt, prepared, rowIndex, models, spans, 'gen', { testIndex, item: i, built })
    }))
    return { ...firstOf(items), problems, items, itemKind: 'adv_prompt' }
  }
  const prompt = built.items[0].prompt
  if (isMultiTurn(prepared)) {
    const split = turnPrompts(prepared, prompt, testIndex)
    problems.push(...split.warnings.map((w) => engineProblem(w, 'warning')))
    // No request can be made (infer_mode='last', a bad mode): the dialogue still shows, no model input does.
    if (split.error) return { promptList: blocks(prompt), prompt, models: [], problems: [...problems, engineProblem(split.error, 'error')] }
    const items: RenderedItem[] = split.turns.map((t) => ({
      title: String(t.turn),
      turn: t.turn,
      history: t.history,
      prompt: t.prompt,
      promptList: blocks(t.prompt),
      models: renderModels(t.prompt, prepared, rowIndex, models, spans, 'gen')
    }))
    if (items.length === 0) return { promptList: blocks(prompt), prompt, models: [], problems }
    return { ...firstOf(items), problems, items, itemKind: 'turn' }
  }
  // ToTInferencer: the models receive its wrapper's first request made of the prompt, not the prompt.
  const sent = built.items[0].request ?? prompt
  return { promptList: blocks(prompt), prompt, models: renderModels(sent, prepared, rowIndex, models, spans, parseMode(prepared), { testIndex, item: 0, built }), problems }
}

/**
 * Each model's input for one request. A chat wrapper whose config sets max_seq_len measures the prompt its own way
 * to drop in-context examples, so its PromptList is rebuilt with that measure (`item`: the label's index for PPL).
 */
function renderModels(prompt: Prompt, prepared: Prepared, rowIndex: number, models: ModelContext[], spans: boolean, mode: Mode, own?: { testIndex: number; item: number; built: BuiltRow; labelPrompts?: Prompt[] }): ModelRender[] {
  const at = own ? { table: prepared.test, tableIndex: own.testIndex, labelPrompts: own.labelPrompts } : undefined
  return models.map((m) => {
    const h = harnessFor(m.profile, prepared.family)
    const byInferencer = ownInferencerRender(prompt, prepared, m, h, rowIndex, spans)
    if (byInferencer) return byInferencer
    const render = (p: Prompt): ModelRender =>
      h ? renderHarness(p, m, h, rowIndex, mode, at) : m.profile.format === 'opencompass-meta' ? renderMeta(p, m, prepared.family, rowIndex, spans, mode) : renderConversation(p, m, prepared.family, rowIndex)
    const limit = !own ? undefined : h ? harnessSeqLimit(m.profile, h, (t) => m.counter.count(t)) : metaSeqLimit(m, prepared.family)
    if (!limit || !own) return render(prompt)
    const built = buildPromptList(prepared, own.testIndex, limit, own.built)
    // Measuring with the model's own tokenizer can fail where the engine's did not (CLP's unparsed PromptList).
    if (built.error) return { ...modelBase(m.profile), kind: 'text', text: '', problems: [engineProblem(built.error, 'error')] }
    const item = built.items[own.item]
    const shown = item?.unparsed ? clpUnparsedRender(item.prompt, m, spans) : render(item?.request ?? item?.prompt ?? prompt)
    return withExamples(shown, prepared.iceIdx[own.testIndex]?.length ?? 0, item, limit, mode, h ? `${h.wrapper} ` : '', m.counter.exact)
  })
}

export function firstOf(items: RenderedItem[]): Pick<RenderedForModels, 'promptList' | 'prompt' | 'models'> {
  const first = items[0]
  return { promptList: first?.promptList ?? [], prompt: first?.prompt ?? null, models: first?.models ?? [] }
}

/** The items as the API carries them: the engine's PromptList stays behind. */
export function apiItems(items: RenderedItem[] | undefined): RenderItem[] | undefined {
  return items?.map(({ prompt: _prompt, ...rest }) => rest)
}
