// ToTInferencer (opencompass/openicl/icl_inferencer/icl_tot_inferencer.py): builds each row's prompt x as
// GenInferencer does (examples, max_seq_len truncation) and logs x parsed with mode='gen' as the origin prompt, but
// never sends x: tot_solve(x) sends what its prompt wrapper (TOT_WRAPPER, the config's prompt_wrapper) makes of it.
// Step 0's generation request is the only one that does not depend on the model's answers: method_generate='propose'
// sends propose_prompt_wrap(x, ''), 'sample' standard_prompt_wrap / cot_prompt_wrap(x, '') (prompt_sample), each
// parsed by the model with mode='gen'. Every later request (values or votes of each thought, the next steps) is
// built from the model's answers and is not shown. Upstream has one wrapper, Game24PromptWrapper
// (opencompass/datasets/game24.py), whose prompts are copied below verbatim.
import { PyRaise } from './errors'
import { sConcat, sLit, type Source, type SStr } from './spanned'
import { promptText } from './template'
import type { EngineWarning, Prompt } from './types'
import { isPromptList } from './types'

/** game24.py's module-level prompts, as Python evaluates them (each holds one {input}). */
const GAME24 = {
  standard: "Use numbers and basic arithmetic operations (+ - * /) to obtain 24.\nInput: 4 4 6 8\nAnswer: (4 + 8) * (6 - 4) = 24\nInput: 2 9 10 12\nAnswer: 2 * 12 * (10 - 9) = 24\nInput: 4 9 10 13\nAnswer: (13 - 9) * (10 - 4) = 24\nInput: 1 4 8 8\nAnswer: (8 / 4 + 1) * 8 = 24\nInput: 5 5 5 9\nAnswer: 5 + 5 + 5 + 9 = 24\nInput: {input}\n",
  cot: "Use numbers and basic arithmetic operations (+ - * /) to obtain 24. Each step, you are only allowed to choose two of the remaining numbers to obtain a new number.\nInput: 4 4 6 8\nSteps:\n4 + 8 = 12 (left: 4 6 12)\n6 - 4 = 2 (left: 2 12)\n2 * 12 = 24 (left: 24)\nAnswer: (6 - 4) * (4 + 8) = 24\nInput: 2 9 10 12\nSteps:\n12 * 2 = 24 (left: 9 10 24)\n10 - 9 = 1 (left: 1 24)\n24 * 1 = 24 (left: 24)\nAnswer: (12 * 2) * (10 - 9) = 24\nInput: 4 9 10 13\nSteps:\n13 - 10 = 3 (left: 3 4 9)\n9 - 3 = 6 (left: 4 6)\n4 * 6 = 24 (left: 24)\nAnswer: 4 * (9 - (13 - 10)) = 24\nInput: 1 4 8 8\nSteps:\n8 / 4 = 2 (left: 1 2 8)\n1 + 2 = 3 (left: 3 8)\n3 * 8 = 24 (left: 24)\nAnswer: (1 + 8 / 4) * 8 = 24\nInput: 5 5 5 9\nSteps:\n5 + 5 = 10 (left: 5 9 10)\n10 + 5 = 15 (left: 9 15)\n15 + 9 = 24 (left: 24)\nAnswer: ((5 + 5) + 5) + 9 = 24\nInput: {input}\n",
  propose: "Input: 2 8 8 14\nPossible next steps:\n2 + 8 = 10 (left: 8 10 14)\n8 / 2 = 4 (left: 4 8 14)\n14 + 2 = 16 (left: 8 8 16)\n2 * 8 = 16 (left: 8 14 16)\n8 - 2 = 6 (left: 6 8 14)\n14 - 8 = 6 (left: 2 6 8)\n14 /  2 = 7 (left: 7 8 8)\n14 - 2 = 12 (left: 8 8 12)\nInput: {input}\nPossible next steps:\n"
}

export interface TotPlan {
  method: 'propose' | 'sample'
  sample: 'standard' | 'cot'
  note: EngineWarning
}

const SRC: Source = { kind: 'template', path: 'inferencer.prompt_wrapper' }

/** What ToTInferencer's constructor and tot_solve read from the inferencer config, checked as they fail. */
export function totPlan(inf: Record<string, unknown>): TotPlan {
  const w = inf.prompt_wrapper ?? {}
  const type = w && typeof w === 'object' && !Array.isArray(w) ? (w as Record<string, unknown>).type : undefined
  // TOT_WRAPPER.build(prompt_wrapper): the registry needs a type (the default {} has none).
  if (type === undefined) throw new PyRaise('KeyError', "'type'", 'inferencer', { path: 'inferencer.prompt_wrapper' })
  const name = typeof type === 'string' ? type.split('.').pop() : undefined
  if (name !== 'Game24PromptWrapper')
    throw new PyRaise('ToTWrapperNotReproduced', `ToTInferencer's prompt_wrapper ${String(type)} is not reproduced: PromptLoom knows upstream's one ToT wrapper, Game24PromptWrapper`, 'inferencer', { path: 'inferencer.prompt_wrapper.type' })
  const method = inf.method_generate ?? 'sample'
  const sample = inf.prompt_sample ?? 'standard'
  // tot_solve: neither branch sets new_ys, which is then read.
  if (method !== 'propose' && method !== 'sample') throw new PyRaise('UnboundLocalError', "cannot access local variable 'new_ys' where it is not associated with a value", 'prompt', { path: 'inferencer.method_generate' })
  if (method === 'sample' && sample !== 'standard' && sample !== 'cot') throw new PyRaise('ValueError', `prompt_sample ${String(sample)} not recognized`, 'prompt', { path: 'inferencer.prompt_sample' })
  const what = method === 'propose' ? 'propose_prompt_wrap' : `${String(sample)}_prompt_wrap`
  return {
    method,
    sample: sample as TotPlan['sample'],
    note: {
      code: 'tot-first-request',
      message: `ToTInferencer: the model's first request is shown — step 0's ${what}(x, '') of Game24PromptWrapper, x being this row's prompt (which the predictions log as origin_prompt but never send); every later request (the values of each thought, the next steps) is built from the model's answers and is not shown.`,
      at: { path: 'inferencer.prompt_wrapper' }
    }
  }
}

/** Python's `template.format(input=x)` on a template holding one {input}: x's text in place, its spans kept. */
function formatInput(template: string, x: SStr): SStr {
  const at = template.indexOf('{input}')
  return sConcat([sLit(template.slice(0, at), SRC), x, sLit(template.slice(at + '{input}'.length), SRC)])
}

/** game24.get_current_numbers: the last line's numbers after 'left: ', up to ')'. */
function currentNumbers(y: string): string {
  const lines = y.trim().split('\n')
  const last = lines[lines.length - 1]
  const parts = last.split('left: ')
  return parts[parts.length - 1].split(')')[0]
}

/** tot_solve's first request for the row's prompt x (y = ''). */
export function totFirstRequest(plan: TotPlan, x: Prompt, row: number): SStr {
  // format() writes a PromptList as str(PromptList): its strings and each dict's prompt, joined.
  const xs: SStr = isPromptList(x) ? sLit(promptText(x), { kind: 'template', path: 'prompt_template' }) : x
  if (plan.method === 'sample') return formatInput(plan.sample === 'cot' ? GAME24.cot : GAME24.standard, xs)
  // propose_prompt_wrap calls get_current_numbers(x), which calls x.strip().
  if (isPromptList(x)) throw new PyRaise('AttributeError', "'PromptList' object has no attribute 'strip'", 'prompt', { row })
  const current = currentNumbers(x.text)
  if (current === '24') return sConcat([formatInput(GAME24.cot, xs), sLit('Steps:', SRC)])
  // The numbers are read from x: the row's prompt.
  return formatInput(GAME24.propose, sLit(current, { kind: 'template', path: 'prompt_template' }))
}
