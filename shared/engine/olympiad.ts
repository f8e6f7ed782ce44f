// OlympiadBenchTemplate / OlympiadBenchRawTemplate (opencompass/datasets/OlympiadBench.py @ a5acc4b): prompt
// templates that build each row's instruction in Python from its language, subject, question type, answer type,
// multiple-answer flag and unit (OlympiadBenchPrompter.make_prompt), then hand it to PromptTemplate /
// RawPromptTemplate. Reproduced line by line, including what they raise on odd rows.
import { PyRaise } from './errors'
import { pyRepr, pyStr, pyTruthy, pyTypeName } from '../python/json'
import type { Row } from './types'

export type OlympiadKind = 'OlympiadBenchTemplate' | 'OlympiadBenchRawTemplate'

const CN_TYPES: Record<string, string> = { Numerical: '数值', Expression: '表达式', Equation: '方程', Interval: '区间' }
const EN_TYPES: Record<string, string> = { Numerical: 'a numerical value', Expression: 'an expression', Equation: 'an equation', Interval: 'an interval' }

/** Python `needle in s` for a str `s`; anything else raises as CPython does. */
function contains(s: unknown, needle: string): boolean {
  if (typeof s === 'string') return s.includes(needle)
  if (Array.isArray(s)) return s.some((x) => x === needle)
  throw new PyRaise('TypeError', `argument of type '${pyTypeName(s)}' is not iterable`, 'prompt')
}

function strOnly(s: unknown, method: string): string {
  if (typeof s !== 'string') throw new PyRaise('AttributeError', `'${pyTypeName(s)}' object has no attribute '${method}'`, 'prompt')
  return s
}

function singleAnswerTypeText(answerType: unknown, chinese: boolean): string {
  let t = answerType
  if (contains(t, '-')) {
    const s = strOnly(t, 'find')
    t = s.slice(0, s.indexOf('-'))
  }
  for (const k of ['Numerical', 'Expression', 'Equation', 'Interval']) {
    if (contains(t, k)) return chinese ? CN_TYPES[k] : EN_TYPES[k]
  }
  throw new PyRaise('ValueError', `Error parsing answer type ${pyStr(t)}!`, 'prompt')
}

function answerTypeText(answerType: unknown, chinese: boolean, multiple: unknown): string {
  if (contains(answerType, 'Need_human_evaluate') || contains(answerType, 'Tuple')) return ''
  if (!pyTruthy(multiple)) {
    const text = singleAnswerTypeText(answerType, chinese)
    return chinese ? `，答案类型为${text}` : `The answer of The problem should be ${text}. `
  }
  if (!contains(answerType, ',')) {
    const text = singleAnswerTypeText(answerType, chinese)
    return chinese ? `，题目有多个答案，答案类型均为${text}` : `The problem has multiple answers, each of them should be ${text}. `
  }
  const types = strOnly(answerType, 'split')
    .split(',')
    .map((t) => singleAnswerTypeText(t, chinese))
  if (new Set(types).size === 1) {
    return chinese ? `，题目有多个答案，答案类型均为${types[0]}` : `The problem has multiple answers, each of them should be ${types[0]}. `
  }
  return chinese ? `，题目有多个答案，答案类型分别为${types.join('、')}` : `The problem has multiple answers, with the answers in order being ${types.join(', ')}. `
}

/** OlympiadBenchPrompter.make_prompt: the instruction, with `{problem}` left for the template to fill. */
export function olympiadPrompt(language: unknown, subject: unknown, questionType: unknown, answerType: unknown, multiple: unknown, unit: unknown): string {
  const chinese = language === 'Chinese'
  const math = subject === 'Math'
  const theorem = questionType === 'Theorem proof'
  let prompt: string
  if (chinese) {
    const subj = math ? '数学' : '物理'
    if (theorem) {
      prompt = `以下是中国${subj}竞赛中的证明题。请根据题目的要求，运用逻辑推理及常用定理证明题目中的命题。证明过程中使用的变量和公式请使用LaTeX格式表示。`
    } else {
      const att = answerTypeText(answerType, true, multiple)
      let mat = pyTruthy(multiple) ? '\\boxed{用英文逗号连接的多个答案}' : '\\boxed{答案}'
      let unitText = ''
      if (pyTruthy(unit)) {
        mat += '(单位)'
        unitText = '，注意答案的单位不要放在\\boxed{}中'
      }
      prompt = `以下是中国${subj}竞赛中的解答题${att}。请根据题目的要求和所提供的信息计算得出答案。解答过程和结果中使用的变量和公式请使用LaTeX格式表示。请在最后以"所以最终答案是${mat}。"显式给出结果${unitText}。`
    }
  } else {
    const subj = math ? 'Math' : 'Physics'
    if (theorem) {
      prompt =
        `The following is a theorem proving problem from an International ${subj} competition. Please use logical reasoning and common theorems to prove the ` +
        'proposition in the problem according to the given requirements. Please use LaTeX format to represent the variables and formulas used in the proof.'
    } else {
      let mat = pyTruthy(multiple) ? '\\boxed{multiple answers connected with commas}' : '\\boxed{answer}'
      let unitText = ''
      if (pyTruthy(unit)) {
        mat += '(unit)'
        unitText = ', note that the unit of the answer should not be included in \\boxed{}'
      }
      const att = answerTypeText(answerType, false, multiple)
      prompt =
        `The following is an open-ended problem from an International ${subj} competition. ${att}Please calculate the answer according ` +
        'to the given requirements and the information provided. Please use LaTeX format to represent the variables and formulas used in the solution process and results. ' +
        `Please end your solution with "So the final answer is ${mat}." and give the result explicitly${unitText}.`
    }
  }
  prompt = prompt + '\n' + '{problem}' + '\n'
  prompt += chinese ? '\n请通过逐步推理来解答问题，并把最终答案放置于\\boxed{}中。' : '\nPlease reason step by step, and put your final answer within \\boxed{}.'
  return prompt
}

/** `entry.get(key, default)` */
function get(entry: Row, key: string, fallback: unknown): unknown {
  return Object.prototype.hasOwnProperty.call(entry, key) ? entry[key] : fallback
}

/**
 * The entry generate_item hands to the parent class: OlympiadBenchTemplate gives {'prompt', 'problem'} to
 * PromptTemplate (whose round is `{prompt}`, so `{problem}` inside the instruction is filled next, key by key);
 * OlympiadBenchRawTemplate fills `{problem}` itself with str.replace and gives {'problem': instruction}.
 */
export function olympiadEntry(kind: OlympiadKind, entry: Row): Row {
  const problem = get(entry, 'problem', '')
  const prompt = olympiadPrompt(
    get(entry, 'language', 'English'),
    get(entry, 'subject', 'Math'),
    get(entry, 'question_type', ''),
    get(entry, 'answer_type', ''),
    get(entry, 'is_multiple_answer', false),
    get(entry, 'unit', '')
  )
  if (kind === 'OlympiadBenchTemplate') return { prompt, problem }
  if (typeof problem !== 'string') throw new PyRaise('TypeError', `replace() argument 2 must be str, not ${pyTypeName(problem)}`, 'prompt', { field: 'problem' })
  return { problem: prompt.split('{problem}').join(problem) }
}

/** The fixed template each class passes to its parent's constructor. */
export function olympiadBaseTemplate(kind: OlympiadKind): unknown {
  return kind === 'OlympiadBenchTemplate' ? { round: [{ role: 'HUMAN', prompt: '{prompt}' }] } : [{ role: 'user', content: '{problem}' }]
}

/** Their __init__ takes no argument: anything besides `type` in the config is refused by Python. */
export function olympiadArgsError(kind: OlympiadKind, cfg: Record<string, unknown>): PyRaise | null {
  const extra = Object.keys(cfg).find((k) => k !== 'type')
  return extra === undefined ? null : new PyRaise('TypeError', `${kind}.__init__() got an unexpected keyword argument ${pyRepr(extra)}`, 'template', { path: extra })
}
