// Which inferencer flow a template variant runs: generation, or PPL (one prompt per label, each scored), and
// whether its rows can be rendered one at a time.
import type { Mode } from '../../../shared/engine'
import { jsonGet } from '../../../shared/python/json'
import { needsAllTestRows, type Variant } from './variants'

function inferencerName(v: Variant): string {
  const t = jsonGet(v.infer_cfg, 'inferencer', 'type')
  // A config may name the class by its dotted path.
  return typeof t === 'string' ? (t.split('.').pop() ?? t) : ''
}

/** PPLInferencer and LLInferencer build one prompt per label (generate_label_prompt); every other inferencer generates. */
export function variantMode(v: Variant): Mode {
  const name = inferencerName(v)
  return name === 'PPLInferencer' || name === 'LLInferencer' ? 'ppl' : 'gen'
}

/**
 * What PromptLoom shows for inferencers other than Gen/PPL/Chat, read from upstream's
 * opencompass/openicl/icl_inferencer: most build their prompts exactly as GenInferencer (or PPL's label prompts)
 * and only differ in what they do with the model; the rest cannot be shown without the model, and say so.
 */
const INFERENCER_NOTES: Record<string, { severity: 'info' | 'warning'; text: string }> = {
  SCInferencer: { severity: 'info', text: 'builds its prompts as GenInferencer does (then samples sc_size answers); shown as such' },
  PPLOnlyInferencer: { severity: 'info', text: "builds its prompts as GenInferencer does, asserts the reader has no output column, and scores each whole prompt's perplexity, parsed with mode='ppl' as get_ppl_from_template does (a dialogue's last BOT turn whole, no generation prefix); shown as such" },
  LLInferencer: { severity: 'info', text: "builds one prompt per label as PPLInferencer does, then scores the log-likelihood of each row's `cont` column after it (KeyError without one); shown as such" },
  ToTInferencer: {
    severity: 'warning',
    text: "builds each row's prompt as GenInferencer does but sends what its prompt wrapper (Game24PromptWrapper) makes of it: the models show step 0's request (propose, or the standard / cot sample prompt); the later requests (each thought's value or vote, the next steps) need the model's answers and are not shown"
  },
  AttackInferencer: {
    severity: 'warning',
    text: "sends one request per prompt of original_prompt_list (the row's adv_key field set to it), built as GenInferencer builds its prompts; shown as such, one tab each. The adversarial prompts promptbench's Attack then derives from the model's accuracy need the model and are not shown"
  },
  CLPInferencer: {
    severity: 'info',
    text: "builds its prompts as GenInferencer does, refuses API models, and scores the first token of each of the first test row's `choices` (the scores need the model); shown as such. Under max_seq_len it keeps a token for the choice and, once examples are dropped, measures and sends the rebuilt prompt without parsing it (upstream's quirk: no meta template; a dialogue then fails in the tokenizer)"
  },
  SWCELossInferencer: { severity: 'info', text: 'tokenizes each row\'s text as it is (no meta or chat template), refuses API models, and computes a loss over sliding windows of every row\'s tokens (the windows need the model\'s tokenizer); each row\'s text is shown' },
  AgentInferencer: { severity: 'warning', text: "builds each row's chat as ChatInferencer does and hands it to an agent model, which writes the LLM's prompt with its own protocol (system prompt, tools, ReAct steps): the chat messages are shown, the agent's prompt is not" },
  BFCLV3FunctionCallInferencer: {
    severity: 'warning',
    text: "is not reproduced: it ignores the prompt template, reads each row's `question` (JSON turns) and `function` (tool schemas), turns the schemas into OpenAI tools (returns_tool_calls) or a system prompt with the bfcl_eval package, and executes tool calls between requests; the template's text shown is not what the model receives"
  }
}

export function inferencerNote(v: Variant): { severity: 'info' | 'warning'; message: string } | null {
  const name = inferencerName(v)
  const note = INFERENCER_NOTES[name]
  return note ? { severity: note.severity, message: `${v.id}: ${name} ${note.text}` } : null
}

function isLabelSource(t: unknown): boolean {
  if (t === null || typeof t !== 'object') return false
  const tpl = t as { type?: unknown; template?: unknown }
  return tpl.type !== 'RawPromptTemplate' && tpl.template !== null && typeof tpl.template === 'object'
}

/**
 * PPL labels come from the explicit `labels`, the template's dict keys, or else list(set(output column)) over the
 * whole test split (BaseRetriever.get_labels) — then a row cannot be rendered on its own.
 */
function labelsFromColumn(v: Variant): boolean {
  const c = v.infer_cfg
  if (Array.isArray(jsonGet(c, 'inferencer', 'labels'))) return false
  if (isLabelSource(c.prompt_template)) return false
  if (isLabelSource(c.ice_template) && jsonGet(c, 'ice_template', 'ice_token') != null) return false
  return true
}

/** Whether rendering a row needs every test row (retrievers that compare rows, or PPL labels from a column). */
export function needsWholeSplit(v: Variant): boolean {
  // CLPInferencer reads the choices of the split's first row (test_ds[0]['choices']) for every row.
  // A precomputed ice_idx holds one list per row of the whole split.
  return needsAllTestRows(v) || (variantMode(v) === 'ppl' && labelsFromColumn(v)) || inferencerName(v) === 'CLPInferencer' || v.iceIdxFile !== undefined
}
