// `promptloom render` on configs written like upstream's: PPL templates keyed by integer labels render, and a
// run whose renders or config failed exits 1 saying what failed (issue #12).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../../main/cli/index'

async function run(args: string[]) {
  let out = ''
  let err = ''
  const code = await main(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) })
  return { code, out, err }
}

// configs/datasets/CLUE_C3/CLUE_C3_ppl_56b537.py, as upstream writes it.
const C3_PPL = `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.datasets import C3Dataset

C3_reader_cfg = dict(
    input_columns=['question', 'content', 'choice0', 'choice1', 'choice2', 'choice3', 'choices'],
    output_column='label')

C3_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template={
            0: '文章：{content}\\n问题：{question}\\n答案：{choice0}',
            1: '文章：{content}\\n问题：{question}\\n答案：{choice1}',
        }),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=PPLInferencer))

C3_datasets = [dict(type=C3Dataset, abbr='C3', path='./data/CLUE/C3/dev_0.json', reader_cfg=C3_reader_cfg, infer_cfg=C3_infer_cfg)]
`

const ROW = { question: 'Q?', content: 'C', choice0: 'a', choice1: 'b', choice2: 'c', choice3: 'd', choices: ['a', 'b'], label: 0 }

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pl-cfg-render-'))
  writeFileSync(join(dir, 'test.jsonl'), JSON.stringify(ROW) + '\n')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('render on upstream-style configs', () => {
  it('renders a PPL template keyed by integer labels, one line per label', async () => {
    writeFileSync(join(dir, 'c3_ppl.py'), C3_PPL)
    const r = await run(['render', '--config', join(dir, 'c3_ppl.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.label, l.prompt])).toEqual([
      [0, '文章：C\n问题：Q?\n答案：a'],
      [1, '文章：C\n问题：Q?\n答案：b']
    ])
  })

  it('exits 1 when a render fails, even where the line carries an empty prompt', async () => {
    writeFileSync(join(dir, 'c3_ppl.py'), C3_PPL)
    const r = await run(['render', '--config', join(dir, 'c3_ppl.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'qwen2.5-instruct'])
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.every((l) => l.problems.some((p: { severity: string }) => p.severity === 'error'))).toBe(true)
    expect(r.code).toBe(1)
    expect(r.err).toContain('2 line(s) could not be rendered')
  })

  it('exits 1 on a partial import and says what failed, while rendering the datasets built before the error', async () => {
    writeFileSync(join(dir, 'partial.py'), `${C3_PPL}\nbroken_datasets = [dict(abbr='x', infer_cfg=missing_cfg)]\n`)
    const r = await run(['render', '--config', join(dir, 'partial.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    expect(r.out.trim().split('\n')).toHaveLength(2)
    expect(r.err).toMatch(/promptloom: .*partial\.py:\d+:45: error: NameError: name 'missing_cfg' is not defined \[config\]/)
    expect(r.err).toContain('the config has 1 error(s) (above); only the datasets built before them were rendered')
    expect(r.code).toBe(1)
  })

  it('stops a runaway config with its place and exit 1, without taking the process down', async () => {
    writeFileSync(join(dir, 'huge.py'), `${C3_PPL}\nx = [0] * 10**9\n`)
    const r = await run(['render', '--config', join(dir, 'huge.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    expect(r.err).toContain('a value of 1,000,000,000 items exceeds the config limit')
    expect(r.code).toBe(1)
  })
})

describe('render on inferencers other than Gen and PPL', () => {
  const withInferencer = (name: string): string => C3_PPL.replace('inferencer=dict(type=PPLInferencer)', `inferencer=dict(type=${name})`).replace('import PPLInferencer', `import ${name}`)

  it('renders LLInferencer one prompt per label, as PPLInferencer, and says so', async () => {
    writeFileSync(join(dir, 'c3_ll.py'), withInferencer('LLInferencer'))
    writeFileSync(join(dir, 'test.jsonl'), JSON.stringify({ ...ROW, cont: 'a' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'c3_ll.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    expect(r.code).toBe(0)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => l.label)).toEqual([0, 1])
  })

  it('fails an LLInferencer row without the `cont` column it scores, as upstream does, and exits 1', async () => {
    writeFileSync(join(dir, 'c3_ll.py'), withInferencer('LLInferencer'))
    const r = await run(['render', '--config', join(dir, 'c3_ll.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    const line = JSON.parse(r.out.trim().split('\n')[0])
    expect([line.problems.at(-1).message, r.code]).toEqual(["prompt: KeyError: 'cont'", 1])
  })

  it('fails LLInferencer for an API model, which has no get_loglikelihood, and exits 1', async () => {
    writeFileSync(join(dir, 'c3_ll.py'), withInferencer('LLInferencer'))
    writeFileSync(join(dir, 'test.jsonl'), JSON.stringify({ ...ROW, cont: 'a' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'c3_ll.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-api'])
    const line = JSON.parse(r.out.trim().split('\n')[0])
    expect([line.problems.find((p: { severity: string }) => p.severity === 'error')?.message.includes('get_loglikelihood'), r.code]).toEqual([true, 1])
  })

  it('names an inferencer whose prompt needs the model among the project problems', async () => {
    const { Workspace } = await import('../../../main/services/workspace/workspace')
    writeFileSync(join(dir, 'c3_agent.py'), withInferencer('AgentInferencer'))
    const ws = new Workspace({ mode: 'browser', mediaUrl: (p: string) => p, pickSavePath: async () => null, emit: () => {} } as never)
    const s = await ws.session.openSpec({ root: dir, configFile: join(dir, 'c3_agent.py'), dataset: join(dir, 'test.jsonl'), modelFiles: ['opencompass-internlm2-chat-meta'] } as never)
    expect(s.problems).toContainEqual(expect.objectContaining({ code: 'inferencer', severity: 'warning', message: expect.stringContaining("C3: AgentInferencer builds each row's chat as ChatInferencer does") }))
  })
})

// configs/datasets/civilcomments/civilcomments_clp_a3c5fd.py, as upstream writes it.
const CIVIL_CLP = `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import CLPInferencer
from opencompass.openicl.icl_evaluator import AUCROCEvaluator
from opencompass.datasets import CivilCommentsDataset

civilcomments_reader_cfg = dict(
    input_columns=['text'],
    output_column='label',
    train_split='test',
    test_split='test')

civilcomments_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(round=[
            dict(
                role='HUMAN',
                prompt='Text: {text}\\nQuestion: Does the above text contain '
                'rude, hateful, aggressive, disrespectful or unreasonable '
                'language?\\nAnswer:')
        ])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=CLPInferencer))

civilcomments_eval_cfg = dict(evaluator=dict(type=AUCROCEvaluator), )

civilcomments_datasets = [
    dict(
        type=CivilCommentsDataset,
        path='civil_comments',
        reader_cfg=civilcomments_reader_cfg,
        infer_cfg=civilcomments_infer_cfg,
        eval_cfg=civilcomments_eval_cfg)
]
`

describe('render on CLPInferencer', () => {
  const clpRender = async (model: string) => {
    writeFileSync(join(dir, 'civil.py'), CIVIL_CLP)
    writeFileSync(join(dir, 'civil.jsonl'), JSON.stringify({ text: 'You are kind.', label: 0, choices: ['no', 'yes'] }) + '\n')
    const r = await run(['render', '--config', join(dir, 'civil.py'), '--dataset', join(dir, 'civil.jsonl'), '--model', model])
    return { code: r.code, line: JSON.parse(r.out.trim().split('\n')[0]) }
  }

  it('refuses an API model as CLPInferencer.inference does, and exits 1', async () => {
    const { code, line } = await clpRender('opencompass-api')
    expect([line.problems.find((p: { severity: string }) => p.severity === 'error')?.message, code]).toEqual(['inferencer: ValueError: API model is not supported for conditional log probability inference and skip this exp.', 1])
  })

  it('renders the generation prompt for a local model', async () => {
    const { line } = await clpRender('opencompass-internlm2-chat-meta')
    expect(line.prompt).toContain('Text: You are kind.\nQuestion: Does the above text contain rude, hateful, aggressive, disrespectful or unreasonable language?\nAnswer:')
  })

  it('says which choices the model scores after the prompt', async () => {
    const { line } = await clpRender('opencompass-internlm2-chat-meta')
    expect(line.problems).toContainEqual(expect.objectContaining({ severity: 'warning', message: expect.stringContaining("first token of each choice ['no', 'yes']") }))
  })
})

describe('render on CLPInferencer with max_seq_len', () => {
  // CIVIL_CLP with two in-context examples (FixKRetriever over the same split) and a dialogue prompt template.
  const fewShot = CIVIL_CLP.replace(
    'civilcomments_infer_cfg = dict(\n    prompt_template=dict(\n        type=PromptTemplate,\n        template=dict(round=[',
    "civilcomments_infer_cfg = dict(\n    ice_template=dict(type=PromptTemplate, template='Text: {text}\\nAnswer: {label}'),\n    prompt_template=dict(\n        type=PromptTemplate,\n        ice_token='</E>',\n        template=dict(begin='</E>', round=["
  )
    .replace('retriever=dict(type=ZeroRetriever)', 'retriever=dict(type=FixKRetriever, fix_id_list=[0, 1])')
    .replace('import ZeroRetriever', 'import FixKRetriever')
  // configs/models/hf_internlm/hf_internlm2_chat_7b.py's meta template on a HuggingFaceCausalLM with a small max_seq_len.
  const model = (maxSeqLen: number) => `from opencompass.models import HuggingFaceCausalLM

_meta_template = dict(round=[
    dict(role='HUMAN', begin='<|im_start|>user\\n', end='<|im_end|>\\n'),
    dict(role='BOT', begin='<|im_start|>assistant\\n', end='<|im_end|>\\n', generate=True),
])
models = [dict(type=HuggingFaceCausalLM, abbr='internlm2-chat-hf', path='internlm/internlm2-chat-7b', meta_template=_meta_template, max_seq_len=${maxSeqLen}, batch_size=1)]
`
  const clpRender = async (maxSeqLen: number) => {
    writeFileSync(join(dir, 'civil.py'), fewShot)
    writeFileSync(join(dir, 'model.py'), model(maxSeqLen))
    const rows = [{ text: 'You are kind.', label: 0, choices: ['no', 'yes'] }, { text: 'Go away, idiot.', label: 1, choices: ['no', 'yes'] }]
    writeFileSync(join(dir, 'civil.jsonl'), rows.map((x) => JSON.stringify(x)).join('\n') + '\n')
    const r = await run(['render', '--config', join(dir, 'civil.py'), '--dataset', join(dir, 'civil.jsonl'), '--model', join(dir, 'model.py')])
    return { code: r.code, lines: r.out.trim().split('\n').map((l) => JSON.parse(l)) }
  }

  it('renders the parsed dialogue with its examples when the prompt fits', async () => {
    const { code, lines } = await clpRender(4096)
    expect([code, lines[0].prompt.startsWith('Text: You are kind.\nAnswer: 0\nText: Go away, idiot.\nAnswer: 1\n<|im_start|>user\n')]).toEqual([0, true])
  })

  it('fails once examples are dropped: upstream measures the rebuilt dialogue without parsing it, and the tokenizer takes text', async () => {
    const { code, lines } = await clpRender(20)
    expect([code, lines.map((l) => l.problems?.find((p: { severity: string }) => p.severity === 'error')?.code)]).toEqual([1, ['TokenizerPromptList', 'TokenizerPromptList']])
  })
})

// configs/datasets/OlympiadBench/OlympiadBench_0shot_gen_be8b13.py, cut to one category.
const OLYMPIAD = `from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.datasets import OlympiadBenchDataset, OlympiadBenchEvaluator, olympiadbench_postprocess_v2

olympiadbench_reader_cfg = dict(
    input_columns=[
        'problem', 'language', 'subject', 'question_type',
        'answer_type', 'is_multiple_answer', 'unit', 'questions'
    ],
    output_column='solution'
)

olympiadbench_datasets = []
for _name in ['OE_TO_maths_en_COMP']:
    olympiadbench_infer_cfg = dict(
        prompt_template=dict(
            type='OlympiadBenchTemplate'
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )
    olympiadbench_datasets.append(dict(
        type=OlympiadBenchDataset, abbr=f'OlympiadBench_{_name}', path='opencompass/OlympiadBench', name=_name,
        reader_cfg=olympiadbench_reader_cfg, infer_cfg=olympiadbench_infer_cfg))
`

describe('render on OlympiadBench\'s own template classes', () => {
  const row = { problem: 'Find $x$.', language: 'English', subject: 'Math', question_type: 'Open-ended', answer_type: 'Numerical', is_multiple_answer: false, unit: null, questions: {}, solution: ['$1$'] }

  it('builds the instruction from the row as OlympiadBenchTemplate does', async () => {
    writeFileSync(join(dir, 'olympiad.py'), OLYMPIAD)
    writeFileSync(join(dir, 'oly.jsonl'), JSON.stringify(row) + '\n')
    const r = await run(['render', '--config', join(dir, 'olympiad.py'), '--dataset', join(dir, 'oly.jsonl'), '--model', 'opencompass-api'])
    const line = JSON.parse(r.out.trim().split('\n')[0])
    expect(line.prompt[0].content).toBe(
      'The following is an open-ended problem from an International Math competition. The answer of The problem should be a numerical value. Please calculate the answer according to the given requirements and the information provided. Please use LaTeX format to represent the variables and formulas used in the solution process and results. Please end your solution with "So the final answer is \\boxed{answer}." and give the result explicitly.\nFind $x$.\n\nPlease reason step by step, and put your final answer within \\boxed{}.'
    )
  })

  it('says what upstream raises on an answer type it cannot parse, and exits 1', async () => {
    writeFileSync(join(dir, 'olympiad.py'), OLYMPIAD)
    writeFileSync(join(dir, 'oly.jsonl'), JSON.stringify({ ...row, answer_type: 'Boolean' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'olympiad.py'), '--dataset', join(dir, 'oly.jsonl'), '--model', 'opencompass-api'])
    const line = JSON.parse(r.out.trim().split('\n')[0])
    expect([line.problems[0].message, r.code]).toEqual(['prompt: ValueError: Error parsing answer type Boolean!', 1])
  })
})

describe('render on a reader_cfg written with a trailing comma', () => {
  it('fails as BaseDataset does when reader_cfg is a tuple, and exits 1', async () => {
    writeFileSync(join(dir, 'tuple.py'), C3_PPL.replace("output_column='label')", "output_column='label'),"))
    const r = await run(['render', '--config', join(dir, 'tuple.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-api'])
    const line = JSON.parse(r.out.trim().split('\n')[0])
    expect([line.problems[0].message, r.code]).toEqual(['TypeError: opencompass.datasets.base.BaseDataset._init_reader() argument after ** must be a mapping, not tuple', 1])
  })
})

// configs/datasets/llm_compression/llm_compression.py, one subset.
const LLM_COMPRESSION = `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import SWCELossInferencer
from opencompass.openicl.icl_evaluator import BPCEvaluator
from opencompass.datasets import LLMCompressionDataset

llm_compression_datasets = []
for _name in ['python']:
    llm_cmp_infer_cfg = dict(
        prompt_template=dict(
            type=PromptTemplate,
            template='{content}',
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=SWCELossInferencer, block_size=1900, stride=512),
    )
    llm_compression_datasets.append(
        dict(
            abbr=f'llm_compression-{_name}',
            type=LLMCompressionDataset,
            path='./data/llm-compression',
            name=_name,
            samples=None,
            reader_cfg=dict(
                input_columns=['content'],
                output_column=None,
            ),
            infer_cfg=llm_cmp_infer_cfg,
        ))

del _name
`

describe('render on SWCELossInferencer', () => {
  const swceRender = async (model: string) => {
    writeFileSync(join(dir, 'llmc.py'), LLM_COMPRESSION)
    writeFileSync(join(dir, 'llmc.jsonl'), JSON.stringify({ content: 'def f(x):\n    return x\n' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'llmc.py'), '--dataset', join(dir, 'llmc.jsonl'), '--model', model])
    return { code: r.code, line: JSON.parse(r.out.trim().split('\n')[0]) }
  }

  it('gives a chat-template model the row text as it is, without its chat template', async () => {
    const { line } = await swceRender('qwen2.5-instruct')
    expect(line.prompt).toBe('def f(x):\n    return x\n')
  })

  it('fails for an API model as upstream does (its tokenizer is None), and exits 1', async () => {
    const { code, line } = await swceRender('opencompass-api')
    expect([line.problems.find((p: { severity: string }) => p.severity === 'error')?.message, code]).toEqual(["inferencer: AttributeError: 'NoneType' object has no attribute 'vocab_size'", 1])
  })
})

// configs/datasets/math/math_agent_gen_0c1b4e.py, with one shot.
const MATH_AGENT = `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import AgentInferencer
from opencompass.datasets import (
    MATHDataset, MATHAgentEvaluator, math_postprocess
)

math_reader_cfg = dict(input_columns=['problem'], output_column='solution')

math_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt='What is 1+1?'),
                dict(role='BOT', prompt="""Tool:PythonInterpreter
Tool Input:\`\`\`python
def solution():
    return 1 + 1
\`\`\`"""),
                dict(role='SYSTEM', prompt='Response:2'),
                dict(role='BOT', prompt='FinalAnswer: The final answer is $2$. I hope it is correct.'),
                dict(role='HUMAN', prompt='{problem}'),
            ])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=AgentInferencer),
)

math_datasets = [
    dict(
        abbr='math-agent',
        type=MATHDataset,
        path='opencompass/math',
        reader_cfg=math_reader_cfg,
        infer_cfg=math_infer_cfg,
    )
]
`

describe('render on AgentInferencer', () => {
  const agentRender = async () => {
    writeFileSync(join(dir, 'math_agent.py'), MATH_AGENT)
    writeFileSync(join(dir, 'math.jsonl'), JSON.stringify({ problem: 'What is 2+3?', solution: '5' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'math_agent.py'), '--dataset', join(dir, 'math.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    return JSON.parse(r.out.trim().split('\n')[0])
  }

  it('gives the messages the agent receives, ending with the row\'s question', async () => {
    const line = await agentRender()
    expect(line.prompt.at(-1)).toEqual({ role: 'user', content: 'What is 2+3?' })
  })

  it('says the agent\'s own prompt around them is not shown', async () => {
    const line = await agentRender()
    expect(line.problems).toContainEqual(expect.objectContaining({ severity: 'warning', message: expect.stringContaining('writes InternLM2') }))
  })
})

// configs/datasets/promptbench/promptbench_wnli_gen_50662f.py, its prompt list cut to two.
const WNLI_ATTACK = `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import AttackInferencer
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.datasets import wnliDataset

wnli_reader_cfg = dict(
    input_columns=['sentence1', 'sentence2'],
    output_column='label_option',
    train_split='validation',
    test_split='validation')

original_prompt_list = [
    'Are the following two sentences entailment or not_entailment? Answer me with "A. entailment" or "B. not_entailment", just one word. ',
    "Assess the connection between the following sentences and classify it as 'A. entailment' or 'B. not_entailment'.",
]

wnli_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(round=[
            dict(
                role='HUMAN',
                prompt="""{adv_prompt}
Sentence 1: {sentence1}
Sentence 2: {sentence2}
Answer:"""),
        ]),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(
        type=AttackInferencer,
        original_prompt_list=original_prompt_list,
        adv_key='adv_prompt'))

wnli_datasets = [dict(abbr='wnli', type=wnliDataset, path='glue', name='wnli', reader_cfg=wnli_reader_cfg, infer_cfg=wnli_infer_cfg, eval_cfg=dict(evaluator=dict(type=AccEvaluator)))]
`

describe('render on AttackInferencer', () => {
  const attackRender = async (extra: string[] = []) => {
    writeFileSync(join(dir, 'wnli_attack.py'), WNLI_ATTACK)
    writeFileSync(join(dir, 'wnli.jsonl'), JSON.stringify({ sentence1: 'The cat sat.', sentence2: 'A cat sat.', label_option: 'A' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'wnli_attack.py'), '--dataset', join(dir, 'wnli.jsonl'), '--model', 'opencompass-api', ...extra])
    return { code: r.code, lines: r.out.trim().split('\n').map((l) => JSON.parse(l)) }
  }

  it('gives one request per listed prompt, each in the row\'s {adv_prompt} field, as the attack task\'s prompt selection sends them', async () => {
    const { code, lines } = await attackRender(['--format', 'messages'])
    expect(code).toBe(0)
    expect(lines.map((l) => [l.adv_prompt.slice(0, 10), l.prompt])).toEqual([
      ['Are the fo', [{ role: 'user', content: 'Are the following two sentences entailment or not_entailment? Answer me with "A. entailment" or "B. not_entailment", just one word. \nSentence 1: The cat sat.\nSentence 2: A cat sat.\nAnswer:' }]],
      ['Assess the', [{ role: 'user', content: "Assess the connection between the following sentences and classify it as 'A. entailment' or 'B. not_entailment'.\nSentence 1: The cat sat.\nSentence 2: A cat sat.\nAnswer:" }]]
    ])
  })

  it('says the adversarial prompts derived from the model\'s scores are not shown', async () => {
    const { lines } = await attackRender()
    expect(lines[0].problems).toContainEqual(expect.objectContaining({ code: 'attack-prompts', message: expect.stringContaining('one request per prompt of original_prompt_list (2)') }))
  })
})

// configs/datasets/game24/game24_gen_52a460.py, as upstream writes it.
const GAME24_TOT = `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import ToTInferencer
from opencompass.datasets import (Game24Dataset, game24_postprocess,
                                  Game24Evaluator, Game24PromptWrapper)

generation_kwargs = dict(do_sample=False, temperature=0.7)

game24_reader_cfg = dict(
    input_columns=['input'],
    output_column='output')

game24_infer_cfg = dict(
        prompt_template=dict(
        type=PromptTemplate,
        template='{input}'),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=ToTInferencer, generation_kwargs=generation_kwargs, method_generate='propose',
                    method_evaluate='value', method_select='greedy', n_evaluate_sample=3, n_select_sample=5, prompt_wrapper=dict(type=Game24PromptWrapper)))

game24_datasets = [
    dict(
        abbr='game24',
        type=Game24Dataset,
        path='test-time-compute/game-of-24',
        reader_cfg=game24_reader_cfg,
        infer_cfg=game24_infer_cfg)
]
`

describe('render on ToTInferencer', () => {
  const totRender = async () => {
    writeFileSync(join(dir, 'game24.py'), GAME24_TOT)
    writeFileSync(join(dir, 'game24.jsonl'), JSON.stringify({ input: '4 5 6 10', output: '(5 * (10 - 4)) - 6' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'game24.py'), '--dataset', join(dir, 'game24.jsonl'), '--model', 'opencompass-internlm2-chat-meta'])
    return { code: r.code, line: JSON.parse(r.out.trim().split('\n')[0]) }
  }

  it("gives the model step 0's propose request Game24PromptWrapper makes of the row's prompt, not the prompt itself", async () => {
    const { code, line } = await totRender()
    expect([code, line.prompt.split('\n').slice(-3)]).toEqual([0, ['Input: 4 5 6 10', 'Possible next steps:', '']])
    expect(line.prompt.startsWith('Input: 2 8 8 14\nPossible next steps:\n2 + 8 = 10 (left: 8 10 14)\n')).toBe(true)
  })

  it('says the later requests need the model', async () => {
    const { line } = await totRender()
    expect(line.problems).toContainEqual(expect.objectContaining({ code: 'tot-first-request', message: expect.stringContaining('propose_prompt_wrap') }))
  })
})

// AISBench configs/datasets/BFCL/BFCL_gen_live_simple.py, as upstream writes it.
const BFCL_LIVE_SIMPLE = `from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import BFCLV3FunctionCallInferencer
from ais_bench.benchmark.datasets import BFCLDataset, BFCLSingleTurnEvaluator

bfcl_category = "live_simple"

bfcl_reader_cfg = dict(
    input_columns=["id", "question", "function"],
    output_column="ground_truth",
)

bfcl_infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template="{question}"),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=BFCLV3FunctionCallInferencer),
)

bfcl_datasets = [
    dict(
        abbr=f"BFCL-v3-{bfcl_category}",
        type=BFCLDataset,
        category=bfcl_category,
        path="",
        reader_cfg=bfcl_reader_cfg,
        infer_cfg=bfcl_infer_cfg,
    )
]
`

describe('render on BFCLV3FunctionCallInferencer', () => {
  it("says the model's input (the question's first turn with bfcl_eval's tools or system prompt) is not reproduced, and exits 1", async () => {
    writeFileSync(join(dir, 'bfcl.py'), BFCL_LIVE_SIMPLE)
    const question = JSON.stringify([[{ role: 'user', content: 'What is the weather in Paris?' }]])
    const fn = JSON.stringify([{ name: 'get_weather', description: 'Weather of a city', parameters: { type: 'dict', properties: { city: { type: 'string' } }, required: ['city'] } }])
    writeFileSync(join(dir, 'bfcl.jsonl'), JSON.stringify({ id: 'live_simple_0-0-0', question, function: fn, ground_truth: '[]' }) + '\n')
    const r = await run(['render', '--config', join(dir, 'bfcl.py'), '--dataset', join(dir, 'bfcl.jsonl'), '--model', 'opencompass-api'])
    const line = JSON.parse(r.out.trim().split('\n')[0])
    expect([r.code, line.prompt, line.problems.map((p: { code: string }) => p.code)]).toEqual([1, '', ['BFCLNotReproduced']])
  })
})

// configs/datasets/compassbench_20_v1_1/reason/compassbench_v1_reason_gen_d26d08.py, cut to one dataset.
const COMPASSBENCH_REASON = `compassbench_v1_reason_datasets = [
    dict(path='data/compassbench_v1.1/reason/EN_Commonsense.jsonl',
         abbr='reasonbench_en_commonsense_circular', data_type='circular-mcq', infer_method='gen'),
]
`

describe('render on custom datasets (no type: the run builds them)', () => {
  const write = (rows: object[]) => {
    mkdirSync(join(dir, 'data/compassbench_v1.1/reason'), { recursive: true })
    writeFileSync(join(dir, 'data/compassbench_v1.1/reason/EN_Commonsense.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
    writeFileSync(join(dir, 'reason.py'), COMPASSBENCH_REASON)
  }

  it("renders a circular-mcq dataset's rotations with the template built from the first row", async () => {
    write([{ question: 'Which is a mammal?', A: 'shark', B: 'dolphin', answer: 'B' }])
    const r = await run(['render', '--config', join(dir, 'reason.py'), '--model', 'opencompass-internlm2-chat-meta'])
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect([r.code, lines.map((l) => [l.gold, l.prompt])]).toEqual([
      0,
      [
        ['B', '<|im_start|>system\n<|im_end|>\n<|im_start|>user\nQuestion: Which is a mammal?\nA. shark\nB. dolphin<|im_end|>\n<|im_start|>assistant\n'],
        ['A', '<|im_start|>system\n<|im_end|>\n<|im_start|>user\nQuestion: Which is a mammal?\nA. dolphin\nB. shark<|im_end|>\n<|im_start|>assistant\n']
      ]
    ])
  })

  it("exits 1 with upstream's error when the first row is not JSON", async () => {
    write([])
    writeFileSync(join(dir, 'data/compassbench_v1.1/reason/EN_Commonsense.jsonl'), '\n{"question": "q", "A": "a", "B": "b", "answer": "A"}\n')
    const r = await run(['render', '--config', join(dir, 'reason.py'), '--model', 'opencompass-internlm2-chat-meta'])
    expect([r.code, r.err]).toEqual([1, expect.stringContaining('make_custom_dataset_config, which fails here: JSONDecodeError')])
  })
})

// configs/datasets/wikitext/wikitext_2_raw_ppl_05247d.py, with a dialogue template as a config may write one.
const WIKI_PPLONLY = (output: string) => `from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import PPLOnlyInferencer
from opencompass.openicl.icl_evaluator import AveragePPLEvaluator
from opencompass.datasets import JsonlDataset

wikitext_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(round=[dict(role='HUMAN', prompt='Continue: {text}'), dict(role='BOT', prompt='Sure.')])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=PPLOnlyInferencer),
)

wikitext_reader_cfg = dict(input_columns=['text'], output_column=${output})

wikitext_datasets = [dict(abbr='wikitext-2-raw', type=JsonlDataset, path='./data/wikitext.jsonl', reader_cfg=wikitext_reader_cfg, infer_cfg=wikitext_infer_cfg)]
`

describe('render on PPLOnlyInferencer and PPL for API models', () => {
  const render = async (config: string, model: string) => {
    writeFileSync(join(dir, 'cfg.py'), config)
    writeFileSync(join(dir, 'wiki.jsonl'), JSON.stringify({ text: 'Valkyria Chronicles III', label: 'x' }) + '\n')
    return run(['render', '--config', join(dir, 'cfg.py'), '--dataset', join(dir, 'wiki.jsonl'), '--model', model])
  }

  it("gives each model the text get_ppl_from_template scores: parsed with mode='ppl', the BOT turn whole", async () => {
    const r = await render(WIKI_PPLONLY('None'), 'opencompass-internlm2-chat-meta')
    expect(JSON.parse(r.out.trim()).prompt).toMatch(/<\|im_start\|>user\nContinue: Valkyria Chronicles III<\|im_end\|>\n<\|im_start\|>assistant\nSure\.<\|im_end\|>\n$/)
  })

  it('fails as PPLOnlyInferencer asserts when the reader has an output column, and exits 1', async () => {
    const r = await render(WIKI_PPLONLY("'label'"), 'opencompass-internlm2-chat-meta')
    expect([r.code, JSON.parse(r.out.trim()).problems.map((p: { message: string }) => p.message)]).toEqual([1, ['AssertionError: PPLOnlyInferencer supports `output_column=None` only.']])
  })

  it("fails a PPL template on an OpenCompass API model, whose get_ppl raises NotImplementedError, and exits 1", async () => {
    writeFileSync(join(dir, 'c3_ppl.py'), C3_PPL)
    const r = await run(['render', '--config', join(dir, 'c3_ppl.py'), '--dataset', join(dir, 'test.jsonl'), '--model', 'opencompass-api'])
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect([r.code, lines.map((l) => l.problems.find((p: { severity: string }) => p.severity === 'error')?.code)]).toEqual([1, ['NotImplementedError', 'NotImplementedError']])
  })

  // A model config as examples/eval_judgebench.py writes one: HuggingFaceChatGLM3 installs the API template parser
  // but is a HuggingFace model, whose get_ppl scores the parsed text.
  const chatglm3 = (meta: string) => `from opencompass.models import HuggingFaceChatGLM3

api_meta_template = dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)])
models = [dict(type=HuggingFaceChatGLM3, abbr='chatglm3-6b-hf', path='THUDM/chatglm3-6b', meta_template=${meta}, max_out_len=100, batch_size=8)]
`

  it('scores a PPL template on HuggingFaceChatGLM3 (API parser, HuggingFace get_ppl): the parsed text, not a refusal', async () => {
    writeFileSync(join(dir, 'c3_ppl.py'), C3_PPL)
    writeFileSync(join(dir, 'chatglm3.py'), chatglm3('api_meta_template'))
    const r = await run(['render', '--config', join(dir, 'c3_ppl.py'), '--dataset', join(dir, 'test.jsonl'), '--model', join(dir, 'chatglm3.py')])
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    // A plain-string template: APITemplateParser returns it unchanged, and get_ppl tokenizes that text.
    expect([r.code, lines.map((l) => [l.label, l.prompt, l.problems])]).toEqual([
      0,
      [
        [0, '文章：C\n问题：Q?\n答案：a', undefined],
        [1, '文章：C\n问题：Q?\n答案：b', undefined]
      ]
    ])
  })

  it('fails a PPL dialogue on HuggingFaceChatGLM3: its API parser makes role messages, which get_ppl cannot tokenize', async () => {
    writeFileSync(join(dir, 'c3_ppl.py'), C3_PPL.replace("0: '文章：{content}\\n问题：{question}\\n答案：{choice0}'", "0: dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{choice0}')])"))
    writeFileSync(join(dir, 'chatglm3.py'), chatglm3('api_meta_template'))
    const r = await run(['render', '--config', join(dir, 'c3_ppl.py'), '--dataset', join(dir, 'test.jsonl'), '--model', join(dir, 'chatglm3.py')])
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.label, l.problems?.map((p: { code: string }) => p.code)])).toEqual([
      [0, ['PPLPromptList']],
      [1, undefined]
    ])
    expect(r.code).toBe(1)
  })
})
