// Loading real-shaped config files from test/fixtures/configs, read_base imports resolved on disk.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configDiag, at } from './config-diag'
import { loadConfigFile } from '../../../main/services/config/load-config'

const FIX = join(__dirname, '../../fixtures/configs')
const OC = join(FIX, 'opencompass/configs')

describe('loadConfigFile', () => {
  it('reads gsm8k gen through its read_base import, keeping the dialogue template', () => {
    const r = loadConfigFile(join(OC, 'datasets/gsm8k/gsm8k_gen.py'))
    expect(r.diagnostics).toEqual([])
    expect(r.datasets).toHaveLength(1)
    const [d] = r.datasets
    expect(d).toMatchObject({ variable: 'gsm8k_datasets', abbr: 'gsm8k', type: 'GSM8KDataset', path: 'opencompass/gsm8k' })
    expect(d.reader_cfg).toEqual({ input_columns: ['question'], output_column: 'answer' })
    const round = (d.infer_cfg as any).prompt_template.template.round
    expect(round.map((m: any) => m.role)).toEqual(['HUMAN', 'BOT', 'HUMAN'])
    expect(round[1].prompt).toContain('3 hours x 2 chapters = 6 hours total.\nFor the worksheets')
    expect(round[2].prompt).toBe("Question: {question}\nLet's think step by step\nAnswer:")
    expect((d.infer_cfg as any).inferencer).toEqual({ type: 'GenInferencer', max_out_len: 512 })
    expect(d.eval_cfg).toMatchObject({ pred_postprocessor: { type: 'gsm8k_postprocess' } })
  })

  it('expands the mmlu ppl loop and its label comprehension', () => {
    const r = loadConfigFile(join(OC, 'datasets/mmlu/mmlu_ppl.py'))
    expect(r.diagnostics).toEqual([])
    expect(r.datasets.map((d) => d.abbr)).toEqual(['lukaemon_mmlu_college_biology', 'lukaemon_mmlu_high_school_us_history', 'lukaemon_mmlu_abstract_algebra'])
    const infer = r.datasets[1].infer_cfg as any
    expect(Object.keys(infer.prompt_template.template)).toEqual(['A', 'B', 'C', 'D'])
    expect(infer.prompt_template.template.C).toBe(
      'The following are multiple choice questions (with answers) about  high school us history.\n\n</E>{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: C'
    )
    expect(infer.ice_template.template.A).toBe('{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: A\n')
    expect(infer.retriever).toEqual({ type: 'FixKRetriever', fix_id_list: [0, 1, 2, 3, 4] })
    expect(r.variables).not.toHaveProperty('_name')
  })

  it('reads the AISBench multimodal config with its prompt_mm parts', () => {
    const r = loadConfigFile(join(FIX, 'ais_bench/benchmark/configs/datasets/textvqa/textvqa_gen_base64.py'))
    expect(r.diagnostics).toEqual([])
    const tpl = (r.datasets[0].infer_cfg as any).prompt_template
    expect(tpl.type).toBe('MMPromptTemplate')
    expect(tpl.template.round[0].prompt_mm).toEqual({
      text: { type: 'text', text: '{question} Answer the question using a single word or phrase.' },
      image: { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,{image}' } }
    })
  })

  it('reads the internlm2 model config with its meta template', () => {
    const r = loadConfigFile(join(OC, 'models/hf_internlm/hf_internlm2_chat_7b.py'))
    expect(r.diagnostics).toEqual([])
    expect(r.models).toHaveLength(1)
    const [m] = r.models
    expect(m).toMatchObject({ abbr: 'internlm2-chat-7b-hf', type: 'HuggingFaceCausalLM', path: 'internlm/internlm2-chat-7b', max_seq_len: 2048, max_out_len: 100, batch_size: 8 })
    expect(m.meta_template).toEqual({
      begin: '<s>',
      round: [
        { role: 'HUMAN', begin: '<|im_start|>user\n', end: '<|im_end|>\n' },
        { role: 'SYSTEM', begin: '<|im_start|>system\n', end: '<|im_end|>\n' },
        { role: 'BOT', begin: '<|im_start|>assistant\n', end: '<|im_end|>\n', generate: true }
      ],
      eos_token_id: 92542
    })
    expect(m.raw.generation_kwargs).toEqual({ eos_token_id: [2, 92542] })
  })

  it('resolves relative and absolute read_base imports from a user run config', () => {
    const r = loadConfigFile(join(FIX, 'user/eval_internlm2_chat.py'))
    expect(r.diagnostics).toEqual([])
    expect(r.datasets.map((d) => d.abbr)).toEqual(['gsm8k', 'lukaemon_mmlu_college_biology', 'lukaemon_mmlu_high_school_us_history', 'lukaemon_mmlu_abstract_algebra'])
    expect(r.datasets.every((d) => d.variable === 'datasets')).toBe(true)
    expect(r.models.map((m) => m.abbr)).toEqual(['internlm2-chat-7b-hf'])
    expect(r.variables.work_dir).toBe('./outputs/internlm2_chat')
  })

  it('reads JSON and YAML fixtures of the same shape', () => {
    const j = loadConfigFile(join(FIX, 'plain/gsm8k_gen.json'))
    expect(j.diagnostics).toEqual([])
    expect(j.datasets[0].abbr).toBe('gsm8k')
    expect(j.models[0].meta_template).toMatchObject({ round: [{ role: 'HUMAN' }, { role: 'BOT', generate: true }] })
    const y = loadConfigFile(join(FIX, 'plain/sentiment_ppl.yaml'))
    expect(y.diagnostics).toEqual([])
    expect((y.datasets[0].infer_cfg as any).prompt_template.template).toEqual({
      __label_dict__: [
        [0, 'Review: {sentence}\nSentiment: negative'],
        [1, 'Review: {sentence}\nSentiment: positive']
      ]
    })
  })

  it('names file, line and column for a construct outside the subset', () => {
    const file = join(FIX, 'bad/unsupported.py')
    const r = loadConfigFile(file)
    expect(r.diagnostics).toEqual([
      configDiag(file, 5, 1, 'class definitions are outside the supported config subset', 'error')
    ])
  })

  it('reports runtime errors per statement and keeps the rest', () => {
    const file = join(FIX, 'bad/runtime_error.py')
    const r = loadConfigFile(file)
    expect(r.diagnostics.map((d) => [d.range?.start.line, d.range?.start.column, d.message])).toEqual([
      [4, 24, "NameError: name 'missing_name' is not defined"],
      [5, 39, "calling 'PromptTemplate' (imported from opencompass.openicl.icl_prompt_template) is outside the supported config subset; configs pass classes as type=PromptTemplate"]
    ])
    expect(r.variables.last).toEqual(['question', 'answer'])
  })

  it('reports a missing file as a diagnostic', () => {
    const r = loadConfigFile(join(FIX, 'nope.py'))
    expect(r.diagnostics[0]).toMatchObject({ severity: 'error' })
  })

  it('reports an unresolvable read_base import at its line', () => {
    const file = join(FIX, 'bad/missing_import.py')
    const r = loadConfigFile(file)
    expect(r.diagnostics).toEqual([
      configDiag(file, 4, 5, `cannot find config module '.does_not_exist' imported from ${file}`, 'error')
    ])
  })
})

describe('loadConfigFile: files and environment a config reads', () => {
  it('reads few-shot files next to the config (CHARM style) and says what it read', () => {
    const dir = join(OC, 'datasets/charm_like')
    const r = loadConfigFile(join(dir, 'charm_like_gen.py'))
    expect(r.diagnostics).toEqual([])
    expect(r.datasets.map((d) => d.abbr)).toEqual(['charm-reason-Arithmetic_ZH-CoT', 'charm-reason-Riddles_ZH-CoT'])
    const prompt = (r.datasets[0].infer_cfg.prompt_template as { template: { round: { prompt: string }[] } }).template.round[0].prompt
    expect(prompt).toBe('请按照给定的例子回答问题。\nQ: 1+1?\nA: 2\n\n\nQ：{input}\nA：让我们一步一步来思考。')
    expect(r.inputs.map((i) => (i.kind === 'file' ? [i.file, i.bytes, i.from.line] : null))).toEqual([
      [join(dir, 'few-shot-examples/Arithmetic_ZH-CoT.txt'), 13, 17],
      [join(dir, 'few-shot-examples/Riddles_ZH-CoT.txt'), 14, 17]
    ])
  })

  it('refuses a file outside the folders of the config tree, at the open', () => {
    const r = loadConfigFile(join(OC, 'datasets/charm_like/charm_like_escape.py'))
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ ...at(1, 10), severity: 'error', message: expect.stringMatching(/^FileNotFoundError: open\('.*etc\/hostname'\): (refused|Relative path climbs)/) })
    ])
    expect(r.inputs).toEqual([])
  })

  it('evaluates helper functions, raise guards and os.environ.get defaults (ruler style)', () => {
    const r = loadConfigFile(join(OC, 'datasets/ruler_like/ruler_like_gen.py'))
    expect(r.diagnostics).toEqual([])
    expect(r.datasets.map((d) => [d.abbr, d.raw.max_seq_length, d.raw.tokenizer_model])).toEqual([
      ['ruler_niah_4k', 4096, 'gpt-4'],
      ['ruler_niah_8k', 8192, 'gpt-4']
    ])
    expect(r.inputs).toEqual([expect.objectContaining({ kind: 'environ', name: 'TOKENIZER_MODEL', used: 'gpt-4' })])
  })
})
