// OpenCompass/AISBench prompt engine: public API. Prepare a dataset once, then render rows on demand; or
// build a row's PromptList once and apply several models' meta templates to it.
export { preparePipeline, renderRow, buildPromptList, applyMetaTemplate, renderAll, renderPrompt, iceModelInputs, countTokens } from './pipeline'
export type { Prepared, BuiltRow, BuiltItem, Applied, ApplyOptions, RenderAllResult, RenderOptions, SeqLimit } from './pipeline'
export { pyStr, pyRepr, pyFloatRepr, parsePyJson, decodeLabelDicts, toPlainJson, PyFloat, LabelDict } from './py-value'
export { toSegments } from './spanned'
export type { Segment, Source, SourceKind, SStr } from './spanned'
export { parsedJson, toModelInput, openAiMessages, chatMessages, aisMessages } from './messages'
export { promptJson, toItem } from './prompt-list'
export type { EngineError, ErrorPlace, Stage } from './errors'
export { isEngineError } from './errors'
export type * from './types'
export { isMultiTurn, splitTurns, turnPrompts } from './turns'
export type { TurnHistory, TurnPrompt, TurnSplit } from './turns'
