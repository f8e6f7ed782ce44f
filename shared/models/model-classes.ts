// What a model class of OpenCompass / AISBench does with prompts, read from the class (model-classes.generated.ts),
// never guessed from its name: AISBench's VLLMCustomAPIChat is an API model with a default chat meta template,
// its VLLMCustomAPI an LM-parser model, OpenCompass's Llama2 an API-parser model.

import { MODEL_CLASSES } from './model-classes.generated'

export interface ModelClassInfo {
  parser: 'lm' | 'api'
  /** The meta template the class uses when the config gives none. */
  default_meta_template?: unknown
  /** Whether the get_ppl the class resolves to scores (false: it raises NotImplementedError, as BaseAPIModel's does). */
  ppl?: boolean
  /** The class's is_api attribute (BaseModel False, BaseAPIModel True): CLPInferencer refuses an API model. */
  is_api?: boolean
  /** Whether the class has a get_loglikelihood (LLInferencer calls it). */
  loglikelihood?: boolean
}

export type ModelClassTable = Record<'opencompass' | 'aisbench', Record<string, ModelClassInfo>>

/**
 * The class's parser and default meta template. `family` picks the framework when known (AISBench and
 * OpenCompass both have e.g. an `OpenAI` class); otherwise OpenCompass's is tried first. Undefined for a class
 * neither framework has (a user's own model class).
 */
export function modelClassInfo(cls: string, family?: 'opencompass' | 'aisbench'): ModelClassInfo | undefined {
  const order: ('opencompass' | 'aisbench')[] = family === 'aisbench' ? ['aisbench', 'opencompass'] : family === 'opencompass' ? ['opencompass', 'aisbench'] : ['opencompass', 'aisbench']
  for (const f of order) {
    const hit = Object.prototype.hasOwnProperty.call(MODEL_CLASSES[f], cls) ? MODEL_CLASSES[f][cls] : undefined
    if (hit) return hit
  }
  return undefined
}
