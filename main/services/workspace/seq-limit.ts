// OpenCompass's max_seq_len truncation per model: GenInferencer/PPLInferencer drop in-context examples from the end
// until the prompt, measured by the model's get_token_len_from_template, fits. A meta-template model (HuggingFace
// LM classes) measures its parsed text with its tokenizer, special tokens added (`len(tokenizer.encode(prompt))`);
// an API model counts words and CJK characters (BaseAPIModel.get_token_len). Chat-template wrappers measure their
// own way (shared/models/harness.ts). The model's column then shows the truncated prompt and "5 → 3 examples".
import type { ModelRender } from '../../../shared/api/types'
import { applyMetaTemplate, countTokens, isPromptList, parsedJson, PyRaise, toModelInput, type BuiltItem, type Family, type Mode, type SeqLimit } from '../../../shared/engine'
import type { ModelContext } from './model-render'

export function metaSeqLimit(m: ModelContext, family: Family): SeqLimit | undefined {
  const p = m.profile
  const max = p.max_seq_len
  if (p.format !== 'opencompass-meta' || !max) return undefined
  const parser = p.meta_parser ?? 'lm'
  return {
    maxSeqLen: max,
    tokenLen(prompt, mode) {
      const applied = applyMetaTemplate(prompt, p.meta_template ?? null, { parser, mode, family: p.meta_family ?? family })
      // A prompt the parser rejects fails the same way when it is sent; nothing is dropped for it here.
      if (!applied.parsed) return 0
      if (parser === 'api') {
        const json = parsedJson(applied.parsed)
        if (typeof json === 'string') return countTokens(json)
        return (Array.isArray(json) ? json : []).reduce((n: number, x) => n + (x && typeof x === 'object' && typeof (x as { prompt?: unknown }).prompt === 'string' ? countTokens((x as { prompt: string }).prompt) : 0), 0)
      }
      const input = toModelInput(applied.parsed, false)
      const text = input.kind === 'text' ? input.text : JSON.stringify(parsedJson(applied.parsed))
      return m.counter.count(text, { addSpecialTokens: true }).count
    },
    rawLen(prompt, row) {
      // HuggingFace.get_token_len: len(tokenizer.encode(prompt)), which takes text.
      if (isPromptList(prompt)) throw new PyRaise('TokenizerPromptList', 'model.get_token_len hands this rebuilt PromptList (a dialogue template, not parsed) to the tokenizer, which takes text: upstream fails here (the exception depends on the tokenizer)', 'inferencer', { row })
      return m.counter.count(prompt.text, { addSpecialTokens: true }).count
    }
  }
}

/** The render with how many examples survived, and a problem when some were dropped or none fit. */
export function withExamples(r: ModelRender, retrieved: number, item: BuiltItem | undefined, limit: SeqLimit, mode: Mode, who: string, exact: boolean): ModelRender {
  if (retrieved === 0 || !item) return r
  const kept = item.iceIdx?.length ?? retrieved
  const problems = [...r.problems]
  const estimate = exact ? '' : ' Token counts are estimates here (no tokenizer): the exact cut may differ.'
  if (kept < retrieved)
    problems.unshift({ code: 'examples-truncated', severity: 'warning', message: `${who}max_seq_len=${limit.maxSeqLen}: ${retrieved} → ${kept} examples; OpenCompass dropped the rest from the end so the prompt fits.${estimate}` })
  if (kept === 0) {
    const n = limit.tokenLen(item.prompt, mode)
    if (n > limit.maxSeqLen)
      problems.unshift({ code: 'examples-none-fit', severity: 'error', message: `${who}max_seq_len=${limit.maxSeqLen}: still ${n.toLocaleString()} tokens with every in-context example dropped.${estimate}` })
  }
  return { ...r, examples: { retrieved, kept, maxSeqLen: limit.maxSeqLen }, problems }
}
