// OpenCompass ChatInferencer rows: the row becomes a chat and each assistant turn a request of the history before it,
// through each model's chat parser or format (AgentInferencer: the messages its agent receives).
import type { ModelRender } from '../../../shared/api/types'
import { chatApiParse, chatList, chatLmParse, type ChatMessageJson, chatPromptList, chatTurns, type EngineWarning, openAiMessages, type Prepared, type Prompt, toEngineError } from '../../../shared/engine'
import { harnessFor, wrapChatHistory } from '../../../shared/models'
import type { ChatMessage } from '../../../shared/models/renderers'
import { firstOf, type RenderedForModels, type RenderedItem } from './render-row'
import { renderMessages } from './render-messages'
import { harnessRender } from './render-harness'
import { engineProblem, modelBase, type ModelContext, withLength } from './model-render'
import { promptBlocks } from './prompt-blocks'

/**
 * OpenCompass ChatInferencer: the row becomes a chat and each assistant turn a request of the history before it;
 * the inferencer's own chat parser replaces each model's template parser (shared/engine/chat-inferencer.ts).
 */
export function renderChatRow(prepared: Prepared, testIndex: number, rowIndex: number, models: ModelContext[], spans: boolean): RenderedForModels {
  const warnings: EngineWarning[] = []
  let turns
  let chat: ChatMessageJson[]
  try {
    chat = chatList(prepared, testIndex, warnings)
    turns = chatTurns(prepared, chat, testIndex, prepared.input.model_outputs?.[testIndex])
  } catch (e) {
    return { promptList: [], prompt: null, models: [], problems: [...warnings.map((w) => engineProblem(w, 'warning')), engineProblem(toEngineError(e, 'prompt', { row: testIndex }), 'error')] }
  }
  const problems = warnings.map((w) => engineProblem(w, 'warning'))
  const blocks = (prompt: Prompt) => (spans ? promptBlocks(prompt) : [])
  const items: RenderedItem[] = turns.map((t) => {
    const prompt = chatPromptList(t.history)
    return {
      title: String(t.turn),
      turn: t.turn,
      history: { source: t.source, answers: t.history.filter((x) => x.role === 'assistant').map((x) => String(x.content ?? '')) },
      prompt,
      promptList: blocks(prompt),
      models: models.map((m) => renderChatTurn(t.history, m, prepared, rowIndex))
    }
  })
  if (items.length === 0) {
    const whole = chatPromptList(chat)
    return { promptList: blocks(whole), prompt: whole, models: [], problems }
  }
  return { ...firstOf(items), problems, items, itemKind: 'turn' }
}

/**
 * AgentInferencer: the messages the agent gets for this request (its history and the user message: infer_last's
 * set_history(chat[:user_idx]) + chat(content); infer_every's chat(content, history)). The agent (LagentAgent /
 * CodeAgent) writes the LLM's prompt from them with its protocol, which only the agent library knows.
 */
function agentTurn(history: ChatMessageJson[], m: ModelContext, prepared: Prepared, base: Pick<ModelRender, 'modelId' | 'modelName' | 'contextLength' | 'specialTokens'>): ModelRender {
  const messages = history.map((x) => ({ role: x.role, content: typeof x.content === 'string' ? x.content : (x.content as unknown[]) }))
  const tokens = m.counter.count(JSON.stringify(messages))
  const mode = prepared.inferencer.inferMode ?? 'last'
  const steps =
    mode === 'every' ? " Earlier assistant turns are the agent's own steps (its inner_steps), shown as placeholders." : mode === 'every_with_gt' ? " Earlier assistant turns reach the agent through its gt_response(), in the agent's own step format, shown here as the dataset has them." : ''
  return {
    ...base,
    kind: 'messages',
    messages,
    tokens,
    problems: [
      {
        code: 'agent-protocol',
        severity: 'warning',
        message: `AgentInferencer hands these messages to an agent model (LagentAgent / CodeAgent, opencompass.models.lagent), which writes ${m.profile.name}'s prompt with its own protocol (system prompt, tool descriptions, ReAct steps) and runs tools between calls: that prompt needs the agent library and is not shown. A plain model config fails upstream (AgentInferencer reads model.agent).${steps}`
      }
    ]
  }
}

/** One ChatInferencer request through a model: its chat parser (LM: begin/content/end; API: api_role) or format. */
function renderChatTurn(history: ChatMessageJson[], m: ModelContext, prepared: Prepared, row: number): ModelRender {
  const p = m.profile
  const h = harnessFor(p, prepared.family)
  if (h) return harnessRender(wrapChatHistory(history, p, h, { mode: 'gen', row, countTokens: (t) => m.counter.count(t) }), m)
  const base = modelBase(p)
  const fail = (e: unknown): ModelRender => ({ ...base, kind: 'text', text: '', problems: [engineProblem(toEngineError(e, 'parse', { row }), 'error')] })
  if (prepared.inferencer.type === 'AgentInferencer') return agentTurn(history, m, prepared, base)
  if (p.format === 'opencompass-meta' && (p.meta_parser ?? 'lm') === 'lm') {
    try {
      const text = chatLmParse(history, p.meta_template ?? null)
      const tokens = m.counter.count(text)
      return { ...base, kind: 'text', text, segments: [{ text, source: { kind: 'meta' } }], tokens, problems: withLength([], tokens.count, p.context_length) }
    } catch (e) {
      return fail(e)
    }
  }
  if (p.format === 'opencompass-meta') {
    try {
      const sent = openAiMessages(chatApiParse(history, p.meta_template ?? null)) as { role?: unknown; content: unknown }[]
      const tokens = m.counter.count(JSON.stringify(sent))
      const messages = sent.map((x) => ({ role: String(x.role ?? '(none)'), content: typeof x.content === 'string' ? x.content : (x.content as unknown[]) }))
      return { ...base, kind: 'messages', messages, tokens, problems: withLength([], tokens.count, p.context_length) }
    } catch (e) {
      return fail(e)
    }
  }
  return renderMessages(history as ChatMessage[], m, [])
}
