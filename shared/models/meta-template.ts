// The one OpenCompass/AISBench meta-template render of a model profile: a PromptList through the profile's meta
// template (its LM or API parser, in the inferencer's mode) to the model's input. The app's model columns call it for
// a dataset row's PromptList (main/services/workspace/render-row.ts, renderMeta) and renderForModel calls it for a
// conversation (its messages made a PromptList first), so the tests of either check the path the app takes.
import { applyMetaTemplate, toModelInput, type Applied, type Family, type Mode, type ModelInput, type Prompt } from '../engine'
import type { ModelProfile } from './profile'

export interface MetaRender {
  applied: Applied
  /** Null when the meta template failed (applied.error says why). */
  input: ModelInput | null
}

/** `family`: the dataset side's, used when the profile names none (profile.meta_family wins). */
export function renderMetaTemplate(prompt: Prompt, profile: ModelProfile, o: { mode: Mode; family: Family; row?: number; spans?: boolean }): MetaRender {
  const applied = applyMetaTemplate(prompt, profile.meta_template ?? null, { parser: profile.meta_parser ?? 'lm', mode: o.mode, family: profile.meta_family ?? o.family, row: o.row })
  return { applied, input: applied.error || !applied.parsed ? null : toModelInput(applied.parsed, o.spans ?? true) }
}
