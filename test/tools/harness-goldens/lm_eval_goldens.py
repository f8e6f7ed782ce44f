#!/usr/bin/env python3
"""Golden cases for PromptLoom's lm-evaluation-harness columns, made by running upstream.

    python lm_eval_goldens.py LM_EVAL_TREE SHARED_DIR OUT.jsonl

LM_EVAL_TREE: an export of EleutherAI/lm-evaluation-harness (the tree that holds lm_eval/) at LM_EVAL_COMMIT.
SHARED_DIR: ../shared (the chat templates in chat-templates/templates/*.jinja).

What runs is upstream's own code: ConfigurableTask.fewshot_context, build_qa_turn, multiturn_to_singleturn,
maybe_delimit, FirstNSampler, utils.apply_template (doc_to_text / doc_to_target templates), TaskConfig and its
default generation kwargs, ConfigurableTask.construct_requests (multiple_choice → loglikelihood requests),
HFLM.apply_chat_template (with its system-dropping retry), handle_stop_sequences and has_bos_prefix; and
transformers' real PreTrainedTokenizerBase.apply_chat_template (transformers 5.18.0 and jinja2 3.1.6, installed
from wheels: no reimplementation). The tokenizer is a PreTrainedTokenizerFast over an empty WordLevel vocabulary
with the case's special tokens and chat template: apply_chat_template(tokenize=False) only reads those.

Not run: a ConfigurableTask's __init__ (it downloads the dataset): the generator makes the object with
object.__new__ and sets the attributes __init__ would (_config, fewshot_cfg, sampler, features, prompt,
multiple_input, OUTPUT_TYPE, _metric_fn_list). HFLM is not instantiated (it loads a model): its apply_chat_template
is called on an object holding only `tokenizer` and `chat_template_args`, the two attributes it reads.

Stubbed (stubs.py; any use raises): datasets, sacrebleu, dill, torch, zstandard, accelerate — imported at module
level by lm_eval.api.task / lm_eval.api.metrics / lm_eval.models.huggingface and not used by the functions above.
importlib.metadata.version('lm_eval') answers the commit (the tree is not pip-installed).

How a PromptLoom row maps to the task (shared/models/lm-eval.ts says the same): the dataset template's HUMAN prompt
is doc_to_text, its BOT prompt doc_to_target (OpenCompass's {col} as jinja's {{col}}), the SYSTEM text the task's
description, the FixKRetriever's examples the few-shot docs in order (sampler first_n), a PPL config's label
prompts the choices of a multiple_choice task.
"""
import json
import importlib.metadata as md
import os
import re
import sys
from functools import partial
from types import SimpleNamespace

LM_EVAL_COMMIT = '4e7e0d47f33bc71070c1d38394bafbb52b117163'
UPSTREAM = f'EleutherAI/lm-evaluation-harness@{LM_EVAL_COMMIT}'

tree, shared, out_path = sys.argv[1], sys.argv[2], sys.argv[3]

# transformers first, on the real environment (it probes for torch itself), then the stubs.
import transformers  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402
from tokenizers.models import WordLevel  # noqa: E402
from transformers import PreTrainedTokenizerFast  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stubs  # noqa: E402

stubs.install(['datasets', 'sacrebleu', 'dill', 'torch', 'zstandard', 'accelerate'])
_version = md.version
md.version = lambda n: f'0+{LM_EVAL_COMMIT[:12]}' if n == 'lm_eval' else _version(n)
sys.path.insert(0, tree)

from lm_eval.api.samplers import FirstNSampler  # noqa: E402
from lm_eval.api.task import ConfigurableTask  # noqa: E402
from lm_eval.config.task import TaskConfig  # noqa: E402
from lm_eval.models.huggingface import HFLM  # noqa: E402
from lm_eval.models.utils import handle_stop_sequences, has_bos_prefix  # noqa: E402

TEMPLATES = {
    # profile id: (chat template file, special tokens) — the pairs ../shared's opencompass-chat cases use.
    'qwen2.5-instruct': ('Qwen--Qwen2.5-7B-Instruct', {'eos_token': '<|im_end|>', 'pad_token': '<|endoftext|>'}),
    'llama-3.1-instruct': ('meta-llama--Llama-3.1-8B-Instruct', {'bos_token': '<|begin_of_text|>', 'eos_token': '<|eot_id|>'}),
    'gemma-2-it': ('ollama-gguf--gemma2-2b', {'bos_token': '<bos>', 'eos_token': '<eos>', 'pad_token': '<pad>', 'unk_token': '<unk>'}),
    'mixtral-8x7b-instruct': ('mistralai--Mixtral-8x7B-Instruct-v0.1', {'bos_token': '<s>', 'eos_token': '</s>', 'unk_token': '<unk>'}),
    'phi-3-mini-instruct': ('ollama-gguf--phi3-3.8b', {'bos_token': '<s>', 'eos_token': '<|endoftext|>', 'unk_token': '<unk>'}),
    'qwen3': ('Qwen--Qwen3-0.6B', {'eos_token': '<|im_end|>', 'pad_token': '<|endoftext|>'}),
    'mistral-nemo-instruct-2407': ('mistralai--Mistral-Nemo-Instruct-2407', {'bos_token': '<s>', 'eos_token': '</s>', 'unk_token': '<unk>'}),
    'gemma-3-it': ('ollama-gguf--gemma3-1b', {'bos_token': '<bos>', 'eos_token': '<eos>', 'pad_token': '<pad>', 'unk_token': '<unk>'}),
    'phi-4': ('ollama-gguf--phi4-14b', {'bos_token': '<|endoftext|>', 'eos_token': '<|im_end|>'}),
    'deepseek-r1': ('deepseek-ai--DeepSeek-R1', {'bos_token': '<｜begin▁of▁sentence｜>', 'eos_token': '<｜end▁of▁sentence｜>'}),
    'deepseek-v3': ('ollama-gguf--deepseek-v3-671b', {'bos_token': '<｜begin▁of▁sentence｜>', 'eos_token': '<｜end▁of▁sentence｜>'}),
    'glm-4-chat': ('ollama-gguf--glm4-9b', {'eos_token': '<|endoftext|>', 'pad_token': '<|endoftext|>'}),
    'internlm2-chat': ('ollama-gguf--internlm2-1.8b', {'bos_token': '<s>', 'eos_token': '</s>', 'unk_token': '<unk>'}),
    'yi-chat': ('ollama-gguf--yi-6b', {'bos_token': '<|startoftext|>', 'eos_token': '<|im_end|>', 'unk_token': '<unk>'}),
    'command-r': ('ollama-gguf--command-r-35b', {'bos_token': '<BOS_TOKEN>', 'eos_token': '<|END_OF_TURN_TOKEN|>', 'pad_token': '<PAD>'}),
}

TRAIN = [
    {'question': 'What is 1+1?', 'answer': '2'},
    {'question': 'What is 2+3?', 'answer': '5'},
    {'question': 'What is the capital of France?', 'answer': 'Paris'},
    {'question': 'How many legs does a spider have?', 'answer': '8'},
]
TEST = [
    {'question': 'What is 3+4?', 'answer': '7'},
    {'question': '天空是什么颜色？', 'answer': '蓝色'},
]

# A multiple_choice task's few-shot answers are its choices (a digit string would be read as a choice index).
YES_NO = [
    {'question': 'Is 1+1 equal to 2?', 'answer': 'yes'},
    {'question': 'Is Paris in Spain?', 'answer': 'no'},
    {'question': 'Do spiders have eight legs?', 'answer': 'yes'},
]

# Case shapes: the dataset side (OpenCompass) and the lm-eval options the column carries.
SHAPES = {
    'dlg-0': dict(human='Q: {question}', bot='A: {answer}', shots=0),
    'dlg-3-mt': dict(human='Q: {question}', bot='A: {answer}', shots=3, opts={'fewshot_as_multiturn': True}),
    'dlg-3-st': dict(human='Q: {question}', bot='A: {answer}', shots=3, opts={'fewshot_as_multiturn': False}),
    'sys-3-mt': dict(system='Answer briefly.', human='Q: {question}', bot='A: {answer}', shots=3),
    'sys-2-st-si': dict(system='Answer briefly.', human='Q: {question}', bot='A: {answer}', shots=2,
                        opts={'fewshot_as_multiturn': False, 'system_instruction': 'You are a careful grader.'}),
    'si-0': dict(human='{question}', bot='{answer}', shots=0, opts={'system_instruction': 'Think step by step.'}),
    'gp-2-mt': dict(human='Question: {question}', bot='{answer}', shots=2, opts={'gen_prefix': 'Answer:'}),
    'gp-2-st': dict(human='Question: {question}', bot='{answer}', shots=2, opts={'gen_prefix': 'Answer:', 'fewshot_as_multiturn': False}),
    'delim-3-st': dict(human='Q: {question}', bot='{answer}', shots=3,
                       opts={'fewshot_as_multiturn': False, 'target_delimiter': ' =>', 'fewshot_delimiter': '\n###\n'}),
    'desc-opt-2-st': dict(system='Answer briefly.', human='Q: {question}\n', bot='{answer}', shots=2,
                          opts={'fewshot_as_multiturn': False, 'description': 'Arithmetic and trivia.'}),
    'str-0': dict(string='Question: {question}\nAnswer:', shots=0),
    'ppl-0': dict(human='{question}', labels=['A', 'B'], shots=0),
    'ppl-2-st': dict(system='Answer yes or no.', human='Q: {question}', bot='{answer}', labels=['yes', 'no'], shots=2,
                     opts={'fewshot_as_multiturn': False}, train=YES_NO),
    'ppl-gp-0': dict(human='{question}', labels=['A', 'B'], shots=0, opts={'gen_prefix': 'Answer:'}),
    'ppl-gpsp-2-mt': dict(human='Q: {question}', bot='{answer}', labels=['yes', 'no'], shots=2, opts={'gen_prefix': 'Answer: '},
                          train=YES_NO),
    # MMLU-style plain-string label prompts: lm-eval's doc_to_text is the text the labels share, the rest the choices.
    'ppl-str-0': dict(string='Question: {question}\nAnswer: ', labels=['A', 'B', 'C'], shots=0),
    'ppl-str-gp-0': dict(string='Question: {question}\n', labels=['yes', 'no'], shots=0, opts={'gen_prefix': 'Answer:'}),
    'empty-q-2-st': dict(human='{question}', bot='{answer}', shots=2, opts={'fewshot_as_multiturn': False}, test=[
        {'question': '', 'answer': 'x'}, {'question': 'Line one\nline two\n', 'answer': 'y'}]),
}
EXTRA = [
    ('qwen3', 'dlg-0', {'enable_thinking': False}),
    ('qwen3', 'sys-3-mt', {'chat_template_args': {'enable_thinking': False}}),
    ('llama-3.1-instruct', 'dlg-3-st', {'add_bos_token': True}),
]


def jinja(oc_template):
    """OpenCompass's {col} placeholders as an lm-eval YAML writes them."""
    return re.sub(r'\{(\w+)\}', r'{{\1}}', oc_template)


def infer_cfg(shape):
    """The OpenCompass dataset config whose rows PromptLoom renders for this shape."""
    if 'string' in shape and 'labels' in shape:
        return {'prompt_template': {'type': 'PromptTemplate', 'template': {lab: shape['string'] + lab for lab in shape['labels']}},
                'retriever': {'type': 'ZeroRetriever'}, 'inferencer': {'type': 'PPLInferencer'}}
    if 'string' in shape:
        return {'prompt_template': {'type': 'PromptTemplate', 'template': shape['string']},
                'retriever': {'type': 'ZeroRetriever'}, 'inferencer': {'type': 'GenInferencer'}}
    begin = [{'role': 'SYSTEM', 'fallback_role': 'HUMAN', 'prompt': shape['system']}] if shape.get('system') else []
    k = shape['shots']
    retriever = {'type': 'FixKRetriever', 'fix_id_list': list(range(k))} if k else {'type': 'ZeroRetriever'}
    cfg = {}
    if k:
        cfg['ice_template'] = {'type': 'PromptTemplate', 'template': {'round': [
            {'role': 'HUMAN', 'prompt': shape['human']}, {'role': 'BOT', 'prompt': shape['bot']}]}}
        begin = begin + ['</E>']
    if 'labels' in shape:
        tpl = {}
        for lab in shape['labels']:
            t = {'round': [{'role': 'HUMAN', 'prompt': shape['human']}, {'role': 'BOT', 'prompt': lab}]}
            if begin:
                t = {'begin': begin, **t}
            tpl[lab] = t
        cfg['prompt_template'] = {'type': 'PromptTemplate', 'template': tpl, **({'ice_token': '</E>'} if k else {})}
        inferencer = {'type': 'PPLInferencer'}
    else:
        t = {'round': [{'role': 'HUMAN', 'prompt': shape['human']}, {'role': 'BOT', 'prompt': shape['bot']}]}
        if begin:
            t = {'begin': begin, **t}
        cfg['prompt_template'] = {'type': 'PromptTemplate', 'template': t, **({'ice_token': '</E>'} if k else {})}
        inferencer = {'type': 'GenInferencer'}
    cfg['retriever'] = retriever
    cfg['inferencer'] = inferencer
    return cfg


class RecordingTokenizer:
    """The real tokenizer; remembers the conversation of its last apply_chat_template call."""

    def __init__(self, tok):
        self.tok = tok
        self.calls = []

    def apply_chat_template(self, conversation, **kw):
        self.calls.append([dict(m) for m in conversation])
        return self.tok.apply_chat_template(conversation, **kw)

    def __getattr__(self, name):
        return getattr(self.tok, name)


def make_tokenizer(template_name, special):
    source = open(os.path.join(shared, 'chat-templates', 'templates', f'{template_name}.jinja'), encoding='utf-8').read()
    tok = PreTrainedTokenizerFast(tokenizer_object=Tokenizer(WordLevel({'<unk>': 0}, unk_token='<unk>')), **special)
    tok.chat_template = source
    return tok


def make_task(shape, opts, fewshot_docs):
    """A ConfigurableTask as __init__ would leave it for this task config (no dataset download)."""
    string = shape.get('string')
    cfg = dict(
        task='promptloom_row',
        test_split='test',
        fewshot_split='train',
        doc_to_text=jinja(string if string is not None else shape['human']),
        doc_to_target=jinja(shape['bot']) if shape.get('bot') else '{{answer}}',
        description=opts.get('description', shape.get('system') or ''),
        fewshot_config={'sampler': 'first_n'},
        output_type='multiple_choice' if 'labels' in shape else 'generate_until',
    )
    if 'labels' in shape:
        cfg['doc_to_choice'] = shape['labels']
    for k in ('target_delimiter', 'fewshot_delimiter', 'gen_prefix'):
        if k in opts:
            cfg[k] = opts[k]
    config = TaskConfig(**cfg)
    task = object.__new__(ConfigurableTask)
    task._config = config
    task.fewshot_cfg = config.fewshot_config
    task.sampler = FirstNSampler(list(fewshot_docs), rnd=None)
    task.prompt = None
    task.features = ['question', 'answer']
    task.multiple_input = 0
    task.OUTPUT_TYPE = config.output_type
    task._metric_fn_list = {}
    return task


def run_case(profile_id, shape_name, extra_opts=None):
    shape = SHAPES[shape_name]
    template_name, special = TEMPLATES[profile_id]
    opts = {**shape.get('opts', {}), **(extra_opts or {})}
    k = shape['shots']
    rec = RecordingTokenizer(make_tokenizer(template_name, special))
    ct_args = dict(opts.get('chat_template_args') or {})
    if opts.get('enable_thinking') is not None:
        ct_args = ct_args | {'enable_thinking': opts['enable_thinking']}
    lm = SimpleNamespace(tokenizer=rec, chat_template_args=ct_args)
    train = shape.get('train', TRAIN)
    task = make_task(shape, opts, train[:k])
    items = []
    test = shape.get('test', TEST)
    for i, doc in enumerate(test):
        rec.calls.clear()
        try:
            ctx = task.fewshot_context(
                doc,
                num_fewshot=k,
                system_instruction=opts.get('system_instruction'),
                apply_chat_template=True,
                fewshot_as_multiturn=opts.get('fewshot_as_multiturn', True),
                chat_template=partial(HFLM.apply_chat_template, lm),
                gen_prefix=task.doc_to_prefix(doc),
            )
        except Exception as e:  # noqa: BLE001 - upstream's error is the expected output
            err = {'index': i, 'chat_messages': rec.calls[-1] if rec.calls else None,
                   'error': {'error': f'{type(e).__name__}: {e}', 'error_type': type(e).__name__}}
            items += [{**err, 'label': lab} for lab in shape['labels']] if 'labels' in shape else [err]
            continue
        base = {'index': i, 'chat_messages': rec.calls[-1], 'retried_without_system': len(rec.calls) > 1}
        if task.OUTPUT_TYPE == 'multiple_choice':
            for n, inst in enumerate(task.construct_requests(doc, ctx, apply_chat_template=True)):
                c, cont = inst.arguments
                items.append({**base, 'label': shape['labels'][n], 'prompt': c + cont, 'continuation': cont})
        else:
            add = False if has_bos_prefix(ctx, special.get('bos_token')) else opts.get('add_bos_token')
            items.append({**base, 'prompt': ctx, 'tokenize_add_special_tokens': add})
    if task.OUTPUT_TYPE == 'multiple_choice':
        # OpenCompass's PPL order (labels first, then rows), which the PromptLoom side follows.
        items.sort(key=lambda x: (shape['labels'].index(x['label']), x['index']))
    until = handle_stop_sequences(list(task.config.generation_kwargs['until']) if task.config.generation_kwargs else None,
                                  eos=special.get('eos_token'))
    expected = {'items': items}
    if task.OUTPUT_TYPE == 'generate_until':
        expected['stop_words'] = until
    suffix = '-' + '-'.join(f'{k}' for k in (extra_opts or {})) if extra_opts else ''
    return {
        'id': f'lme-{shape_name}{suffix}-{profile_id}',
        'family': 'lm-eval',
        'upstream': UPSTREAM,
        'transformers': transformers.__version__,
        'category': shape_name,
        'input': {
            'kind': 'pipeline',
            'reader_cfg': {'input_columns': ['question'], 'output_column': 'answer'},
            'infer_cfg': infer_cfg(shape),
            'train': train,
            'test': test,
            'mode': 'ppl' if 'labels' in shape else 'gen',
            'model': {'profile': profile_id, 'chat_template': template_name, 'special_tokens': special,
                      'harness': {'name': 'lm-eval', 'wrapper': 'HFLM', 'model_kwargs': opts}},
        },
        'expected': expected,
    }


def main():
    cases = [run_case(p, s) for p in TEMPLATES for s in SHAPES]
    cases += [run_case(p, s, o) for p, s, o in EXTRA]
    with open(out_path, 'w', encoding='utf-8') as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + '\n')
    print(f'{len(cases)} cases → {out_path}; stubbed: {", ".join(stubs.STUBBED)}', file=sys.stderr)


main()
