// Shapes shared by every conformance family: a golden case as ../shared/conformance/cases/*.jsonl hold them,
// and what a family's runner needs from its host (the CLI gives file access; shared/ has none).
export interface ConformanceCase {
  id: string
  family: string
  /** Each family's runner reads it as its own input shape (EngineCaseInput, HfCaseInput, …). */
  input: unknown
  expected: unknown
  [key: string]: unknown
}

export interface ConformanceHost {
  /** Source text of a chat template named by a case (e.g. ../shared/chat-templates/templates/<name>.jinja), or undefined. */
  loadChatTemplate(name: string): string | undefined
}

/** One family's runner: returns an object shaped like the case's `expected` (errors under the same keys). */
export type ConformanceRunner = (c: ConformanceCase, host: ConformanceHost) => unknown | Promise<unknown>
