// OpenCompass run configs with `chatml_datasets` (examples/eval_chatml_datasets.py, autotest/eval/eval_chat_obj_v8.py;
// the entries come from configs/chatml_datasets/*: `dict(abbr=…, path=….jsonl, evaluator=dict(type='llm_evaluator',
// judge_cfg=…), n=…)`). The run (opencompass/utils/run.py get_config_from_arg) first reads config['datasets']
// (try_fill_in_custom_cfgs: a KeyError when the config has none), then appends consturct_chatml_datasets'
// result: each entry becomes a ChatMLDataset whose reader_cfg, infer_cfg and evaluators are copied from the
// template module opencompass/configs/datasets/chatobj_custom/chatobj_custom_gen.py. Reproduced here over that
// module's values (the host resolves it like any read_base import), with upstream's asserts and quirks (an
// LLM judge's own dataset_cfg gets test_range '[0:16]' whenever the entry sets a test_range).
import { PyError } from '../python/errors'
import { evaluatePythonConfig, type ConfigResolver, type ConfigTextReader } from './python-config'
import type { Diagnostic } from '../diagnostics'
import type { EvalLimits } from './python-budget'
import type { Json } from './python-values'

/** The module consturct_chatml_datasets imports its template from. */
export const CHATML_TEMPLATE_MODULE = 'opencompass.configs.datasets.chatobj_custom.chatobj_custom_gen'

/** What consturct_chatml_datasets imports from the template module. */
export interface ChatmlTemplate {
  chatobj_custom_datasets: Json
  chatobj_custom_infer_cfg: Json
  chatobj_custom_reader_cfg: Json
  optional_evaluator: Json
}

const TEMPLATE_NAMES = ['chatobj_custom_datasets', 'chatobj_custom_infer_cfg', 'chatobj_custom_reader_cfg', 'optional_evaluator'] as const

/** `from …chatobj_custom_gen import …` of the four names, the module read by the config reader. */
export function readChatmlTemplate(
  found: { file: string; source: string },
  o: { resolve?: ConfigResolver; readText?: ConfigTextReader; limits?: Partial<EvalLimits> } = {}
): { template: ChatmlTemplate; diagnostics: Diagnostic[] } {
  const t = evaluatePythonConfig(found.source, { file: found.file, ...o })
  for (const k of TEMPLATE_NAMES) if (!(k in t.variables)) throw new PyError('ImportError', `cannot import name '${k}' from '${CHATML_TEMPLATE_MODULE}' (${found.file})`)
  return { template: Object.fromEntries(TEMPLATE_NAMES.map((k) => [k, t.variables[k]])) as unknown as ChatmlTemplate, diagnostics: t.diagnostics }
}

type Obj = Record<string, Json>

const copy = <T extends Json>(v: T): T => structuredClone(v)
const isObj = (v: Json | undefined): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)

function item(v: Json | undefined, key: string): Json {
  if (isObj(v) && key in v) return v[key]
  if (isObj(v)) throw new PyError('KeyError', `'${key}'`)
  throw new PyError(
    'TypeError',
    `'${v === null ? 'NoneType' : Array.isArray(v) ? 'list' : typeof v}' object is not subscriptable`
  )
}

function assert(ok: boolean): void {
  if (!ok) throw new PyError('AssertionError', '')
}

const EVALUATOR_INITS = ['math_evaluator', 'mcq_rule_evaluator', 'llm_evaluator', 'cascade_evaluator']

function initEvaluator(kind: string, evalcfg: Json, t: ChatmlTemplate, top: boolean): Obj {
  const optional = t.optional_evaluator
  switch (kind) {
    case 'math_evaluator':
      return copy(item(optional, 'math_evaluator')) as Obj
    case 'mcq_rule_evaluator': {
      const e = copy(item(optional, 'mcq_rule_evaluator')) as Obj
      if (isObj(evalcfg) && 'answer_pattern' in evalcfg)
        (item(e, 'pred_postprocessor') as Obj).answer_pattern = evalcfg.answer_pattern
      return e
    }
    case 'llm_evaluator': {
      const e = copy(item(optional, 'llm_evaluator')) as Obj
      assert(isObj(evalcfg) && 'judge_cfg' in evalcfg)
      e.judge_cfg = (evalcfg as Obj).judge_cfg
      if ('prompt' in (evalcfg as Obj)) {
        const messages = item(item(e, 'prompt_template'), 'messages')
        for (const m of Array.isArray(messages) ? messages : [])
          if (isObj(m) && m.role === 'user') m.content = (evalcfg as Obj).prompt
      }
      return e
    }
    case 'cascade_evaluator': {
      // init_cascade_evaluator(evalcfg, func_locals): reached only from the entry's own evaluator (a nested one
      // gets one argument and fails with TypeError, as upstream).
      if (!top)
        throw new PyError('TypeError', "init_cascade_evaluator() missing 1 required positional argument: 'func_locals'")
      const ruleKind = `${String(item(item(evalcfg, 'rule_evaluator'), 'type'))}`
      const llmKind = `${String(item(item(evalcfg, 'llm_evaluator'), 'type'))}`
      assert(EVALUATOR_INITS.includes(ruleKind) && EVALUATOR_INITS.includes(llmKind))
      const e = copy(item(optional, 'cascade_evaluator')) as Obj
      e.rule_evaluator = initEvaluator(ruleKind, (evalcfg as Obj).rule_evaluator, t, false)
      e.llm_evaluator = initEvaluator(llmKind, (evalcfg as Obj).llm_evaluator, t, false)
      return e
    }
  }
  throw new PyError('AssertionError', '')
}

/** consturct_chatml_datasets: the datasets the run appends to config['datasets']. */
export function constructChatmlDatasets(entries: Json, t: ChatmlTemplate): Obj[] {
  if (!Array.isArray(entries)) throw new PyError('TypeError', 'chatml_datasets must be a list of dicts')
  return entries.map((dataset) => {
    assert(isObj(dataset) && ['abbr', 'path', 'evaluator'].every((k) => k in dataset))
    const d = dataset as Obj
    const out: Obj = { abbr: d.abbr, path: d.path }
    if ('n' in d) out.n = d.n
    const reader = copy(t.chatobj_custom_reader_cfg) as Obj
    if ('test_range' in d) reader.test_range = d.test_range
    out.reader_cfg = reader
    out.infer_cfg = copy(t.chatobj_custom_infer_cfg)
    const kind = String(item(d.evaluator, 'type'))
    assert(EVALUATOR_INITS.includes(kind))
    out.eval_cfg = { evaluator: initEvaluator(kind, d.evaluator, t, true) }
    // `chatobj_custom_dataset | deepcopy(chatobj_custom_datasets)`: the template's keys (its type) win.
    if (!isObj(t.chatobj_custom_datasets))
      throw new PyError('TypeError', "unsupported operand type(s) for |: 'dict' and a non-dict chatobj_custom_datasets")
    Object.assign(out, copy(t.chatobj_custom_datasets))
    const datasetCfg = copy(out)
    delete datasetCfg.infer_cfg
    delete datasetCfg.eval_cfg
    delete datasetCfg.n
    const evaluator = (out.eval_cfg as Obj).evaluator as Obj
    if (kind === 'llm_evaluator') evaluator.dataset_cfg = copy(datasetCfg)
    if (kind === 'cascade_evaluator') (evaluator.llm_evaluator as Obj).dataset_cfg = copy(datasetCfg)
    const llm = evaluator.llm_evaluator
    if ('test_range' in d && 'llm_evaluator' in evaluator && isObj(llm) && 'dataset_cfg' in llm) {
      ;(item(llm.dataset_cfg, 'reader_cfg') as Obj).test_range = d.test_range
    }
    if (
      'test_range' in d &&
      'dataset_cfg' in evaluator &&
      isObj(evaluator.dataset_cfg) &&
      'reader_cfg' in evaluator.dataset_cfg
    ) {
      ;(evaluator.dataset_cfg.reader_cfg as Obj).test_range = '[0:16]'
    }
    return out
  })
}
