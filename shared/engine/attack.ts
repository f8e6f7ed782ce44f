// AttackInferencer (opencompass/openicl/icl_inferencer/icl_attack_inferencer.py, run by tasks/openicl_attack.py):
// the prompt template keeps a field (adv_key, 'adv_prompt' in the promptbench configs) that no row has. The task
// first scores every prompt of the inferencer's original_prompt_list (prompt_selection): predict(prompt) builds each
// row's prompt from {**row, adv_key: prompt} with generate_prompt_for_adv_generate_task — GenInferencer's building,
// max_seq_len truncation included — and sends it. Those prompts are reproduced, one per listed prompt; what
// promptbench's Attack then writes (words of the best prompts perturbed by the model's accuracy) needs the model.
import { PyRaise } from './errors'
import type { Source } from './spanned'
import type { EngineWarning, Row } from './types'

export interface AttackPrompts {
  /** The template field each listed prompt fills (AttackInferencer's adv_key). */
  key: string
  prompts: string[]
  /** Where each prompt comes from, for the spans. */
  sources: Source[]
  note: EngineWarning
}

/** What AttackInferencer's constructor and OpenICLAttackTask read from the inferencer config. */
export function attackPrompts(inf: Record<string, unknown>): AttackPrompts {
  if (!('adv_key' in inf)) throw new PyRaise('TypeError', "AttackInferencer.__init__() missing 1 required positional argument: 'adv_key'", 'inferencer', { path: 'inferencer' })
  const key = inf.adv_key
  // OpenICLAttackTask._inference reads self.infer_cfg['inferencer']['original_prompt_list'] once the inferencer is built.
  if (!('original_prompt_list' in inf)) throw new PyRaise('KeyError', "'original_prompt_list'", 'inferencer', { path: 'inferencer.original_prompt_list' })
  const list = inf.original_prompt_list
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string'))
    throw new PyRaise('TypeError', 'original_prompt_list must be a list of str: each is one prompt AttackInferencer.predict scores', 'inferencer', { path: 'inferencer.original_prompt_list' })
  if (typeof key !== 'string') throw new PyRaise('TypeError', 'adv_key must be a str: the template field the listed prompts fill', 'inferencer', { path: 'inferencer.adv_key' })
  return {
    key,
    prompts: list as string[],
    sources: list.map((_, i) => ({ kind: 'template', path: `inferencer.original_prompt_list[${i}]` })),
    note: {
      code: 'attack-prompts',
      message: `AttackInferencer: one request per prompt of original_prompt_list (${list.length}), its text in the row's {${key}} field, as the attack task's prompt selection sends them; the adversarial prompts promptbench's Attack then derives from the model's accuracy need the model and are not shown.`,
      at: { path: 'inferencer.original_prompt_list' }
    }
  }
}

/** `{**self.test_ds[idx], **extra_prompt}`: the row with the listed prompt under adv_key. */
export function attackEntry(row: Row, a: AttackPrompts, k: number): Row {
  return { ...row, [a.key]: a.prompts[k] }
}
