// Template variants of a project: each dataset config of its OpenCompass/AISBench config file, or a default
// string template over the dataset's columns when no config was given.
import type { DatasetConfig } from '../../../shared/config/import'
import type { Family, PipelineInput } from '../../../shared/engine'
import type { ColumnInfo } from '../datasets/types'
import { conversationColumn, type ConversationColumn } from '../../../shared/conversation'
import { jsonGet } from '../../../shared/python/json'

export interface Variant {
  id: string
  label: string
  kind: string
  family: Family
  reader_cfg: PipelineInput['reader_cfg']
  infer_cfg: Record<string, unknown>
  /** A precomputed ice_idx file for this variant (project.json `iceIdx`), used instead of its retriever. */
  iceIdxFile?: string
}

const AIS_ONLY_TEMPLATES = new Set(['MMPromptTemplate', 'MultiTurnPromptTemplate'])
const ANSWER_COLUMNS = ['answer', 'label', 'target', 'gold', 'output']

function templateKind(infer: Record<string, unknown>): string {
  const t = infer.prompt_template ?? infer.ice_template
  const type = jsonGet(t, 'type')
  const tpl = jsonGet(t, 'template')
  const shape = typeof tpl === 'string' ? 'string' : tpl && typeof tpl === 'object' && ('round' in tpl || 'begin' in tpl) ? 'dialogue' : tpl && typeof tpl === 'object' ? 'labels' : ''
  return [typeof type === 'string' ? type : 'PromptTemplate', shape].filter(Boolean).join(' · ')
}

/**
 * Whether the variant's template reads the reader's input columns. AISBench's MMPromptTemplate does not: format_mm
 * fills prompt_mm from the row's `content` (AIS content tags) alone, so input columns a loader does not build (mm_custom's
 * `image`, `audio`) are not missing fields, and upstream runs without them.
 */
export function readsInputColumns(v: Variant): boolean {
  return jsonGet(v.infer_cfg.prompt_template ?? v.infer_cfg.ice_template, 'type') !== 'MMPromptTemplate'
}

/** The family whose semantics a template needs: AISBench for its own template classes, else `fallback`. */
export function templateFamily(infer: Record<string, unknown>, fallback: Family): Family {
  const type = jsonGet(infer.prompt_template ?? infer.ice_template, 'type')
  return typeof type === 'string' && AIS_ONLY_TEMPLATES.has(type) ? 'aisbench' : fallback
}

export function variantsFromConfig(datasets: DatasetConfig[], configText: string): Variant[] {
  const ais = /\bais_bench\b/.test(configText)
  const seen = new Set<string>()
  return datasets.map((d, i) => {
    let id = d.abbr ?? `${d.variable}[${d.index}]`
    while (seen.has(id)) id = `${id}#${i}`
    seen.add(id)
    const infer: Record<string, unknown> = d.infer_cfg
    const family = templateFamily(infer, ais ? 'aisbench' : 'opencompass')
    return { id, label: `${id} (${templateKind(infer)})`, kind: templateKind(infer), family, reader_cfg: d.reader_cfg, infer_cfg: infer }
  })
}

/**
 * With no config: a dataset whose rows carry a chat (OpenAI `messages`, LLaVA/ShareGPT `conversations`) is sent as
 * the conversation it is (shared/conversation); any other shows every scalar column in a plain string template,
 * the answer column masked.
 */
export function defaultVariant(columns: ColumnInfo[]): Variant {
  const conv = conversationColumn(columns)
  if (conv) return conversationVariant(conv)
  // Media columns (base64 images, HF Image structs, file paths) are shown as media, never put into the text.
  const names = columns.filter((c) => !c.name.includes('.') && c.type !== 'object' && c.type !== 'array' && !c.media).map((c) => c.name)
  const output = ANSWER_COLUMNS.find((a) => names.includes(a)) ?? null
  const inputs = names.filter((n) => n !== output)
  const template = inputs.map((n) => `${n}: {${n}}`).join('\n') + (output ? `\nAnswer: {${output}}` : '')
  return {
    id: 'default',
    label: 'default (all columns, string template)',
    kind: 'PromptTemplate · string',
    family: 'opencompass',
    reader_cfg: { input_columns: inputs, output_column: output },
    infer_cfg: {
      prompt_template: { type: 'PromptTemplate', template },
      retriever: { type: 'ZeroRetriever' },
      inferencer: { type: 'GenInferencer' }
    }
  }
}

/**
 * The "conversation" template: each row's turns in order, media parts where the data puts them, the final assistant
 * turn kept as the reference answer (not sent). Not an OpenCompass template: infer_cfg.conversation marks it, and
 * render-row.ts sends the turns to each model as a chat (as OpenCompass's ChatInferencer hands a chat to a model).
 */
export function conversationVariant(conv: ConversationColumn): Variant {
  const what = conv.style === 'openai' ? 'OpenAI messages' : 'LLaVA/ShareGPT conversations'
  return {
    id: 'conversation',
    label: `conversation (${what} in \`${conv.column}\`; the last assistant turn is the reference answer)`,
    kind: 'conversation',
    family: 'opencompass',
    reader_cfg: { input_columns: [conv.column], output_column: null },
    infer_cfg: {
      conversation: { column: conv.column, style: conv.style },
      retriever: { type: 'ZeroRetriever' },
      inferencer: { type: 'GenInferencer' }
    }
  }
}

/**
 * The conversation a variant sends, when it is the conversation template. A prompt or in-context template added in
 * the template editor replaces it: the rows are then rendered through that template like any other.
 */
export function conversationOf(v: { infer_cfg: Record<string, unknown> }): ConversationColumn | null {
  if (v.infer_cfg?.prompt_template || v.infer_cfg?.ice_template) return null
  const column = jsonGet(v.infer_cfg, 'conversation', 'column')
  const style = jsonGet(v.infer_cfg, 'conversation', 'style')
  return typeof column === 'string' && (style === 'openai' || style === 'sharegpt') ? { column, style } : null
}

/** Retrievers whose choice for a row depends on the other test rows. */
export function needsAllTestRows(v: Variant): boolean {
  const t = jsonGet(v.infer_cfg, 'retriever', 'type')
  return typeof t === 'string' && !['ZeroRetriever', 'FixKRetriever'].includes(t)
}
