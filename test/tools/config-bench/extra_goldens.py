"""Golden cases for upstream classes the shared harness does not load (issue #12), made by running upstream.

    python3 test/tools/config-bench/extra_goldens.py OC_TREE ../shared test/conformance/cases-local/opencompass-extra.jsonl

OC_TREE is an OpenCompass checkout at a5acc4b (the folder holding `opencompass/`). The shared harness
(../shared/upstream/opencompass/harness: oc_loader.load_opencompass, oc_run.run_pipeline_case) runs every case,
exactly as the conformance goldens are made; this script only adds the upstream classes it lacks to the
harness's registry, imported from the checkout's own files:

- CLPInferencer (opencompass/openicl/icl_inferencer/icl_clp_inferencer.py), run by `run_clp_case` below: the
  real inference() on the harness's LM / API model; what needs the model is replaced by recorders — the
  tokenizer's encode (choice ids) returns [1], and `_get_cond_prob` records the parsed prompts it is given
  (the model input) and returns equal scores. The prompt lists are recorded from the real
  generate_prompt_for_generate_task.
- SWCELossInferencer (opencompass/openicl/icl_inferencer/icl_sw_ce_loss_inferencer.py), run by
  `run_swce_case`: the real inference() on the harness's LM model given a recording tokenizer (vocab_size 32000;
  encode records the text it is given) and a `model.model` whose `.device` stops the run once every row is
  encoded and the output-column assert has passed (what follows is the model's loss); an API model gets
  OpenAI's `tokenizer = None`.
- LLInferencer (opencompass/openicl/icl_inferencer/icl_ll_inferencer.py), run by `run_ll_case`: the real
  inference() with a model whose get_loglikelihood records the parsed label prompts and the `cont` values it is
  given (returning zeros); written in the shape of the harness's PPL cases.
- AttackInferencer (opencompass/openicl/icl_inferencer/icl_attack_inferencer.py), run by `run_attack_case`: the
  real predict() for each prompt of original_prompt_list, as OpenICLAttackTask's prompt selection calls it, the
  model's generate_from_template recorded and the evaluator a stand-in (ZeroScore).
- ToTInferencer (icl_tot_inferencer.py) with Game24PromptWrapper (opencompass/datasets/game24.py; pandas, which only
  its loader uses, a stand-in), run by `run_tot_case`: the real inference(), the model's calls recorded.
- XiezhiRetriever (opencompass/datasets/xiezhi.py; the configs pass the class itself), entered like
  OlympiadBench.py below, run by the harness's own run_pipeline_case.
- OlympiadBenchTemplate, OlympiadBenchRawTemplate (opencompass/datasets/OlympiadBench.py). The module is
  entered without `opencompass.datasets.__init__` (which imports every dataset); its module-level imports that
  only the evaluator and loader use (sympy, opencompass.openicl.icl_evaluator, opencompass.datasets.base,
  opencompass.utils.get_data_path) are stand-ins that are never called on the template path.

The cases below are small rows in the style of the real configs (configs/datasets/OlympiadBench/*): each row
is rendered by the real generate_item, then by the real LM / API template parser with the harness's models.
"""
import importlib
import json
import os
import sys
import types


def load(tree, shared):
    sys.path.insert(0, os.path.join(shared, 'upstream', 'opencompass', 'harness'))
    import oc_loader  # noqa: E402
    import oc_run  # noqa: E402
    from stubs import FakeRegistry, _module, package_stub  # noqa: E402
    m = oc_loader.load_opencompass(tree)
    pkg = os.path.join(m.root, 'opencompass')
    # Stand-ins for what OlympiadBench.py imports for its loader and evaluator only.
    sympy = _module('sympy', Eq=object, Pow=object, simplify=None, sympify=None)
    _module('sympy.parsing')
    _module('sympy.parsing.latex', parse_latex=None)
    sympy.parsing = sys.modules['sympy.parsing']
    _module('opencompass.openicl.icl_evaluator', BaseEvaluator=object)
    dpkg = package_stub('opencompass.datasets', os.path.join(pkg, 'datasets'))
    _module('opencompass.datasets.base', BaseDataset=object)
    dpkg.base = sys.modules['opencompass.datasets.base']
    sys.modules['opencompass.utils'].get_data_path = None
    ob = importlib.import_module('opencompass.datasets.OlympiadBench')
    xz = importlib.import_module('opencompass.datasets.xiezhi')
    m.retrievers['XiezhiRetriever'] = xz.XiezhiRetriever
    m.swce = importlib.import_module('opencompass.openicl.icl_inferencer.icl_sw_ce_loss_inferencer')
    m.ll = importlib.import_module('opencompass.openicl.icl_inferencer.icl_ll_inferencer')
    m.pplonly = importlib.import_module('opencompass.openicl.icl_inferencer.icl_ppl_only_inferencer')
    m.sc = importlib.import_module('opencompass.openicl.icl_inferencer.icl_sc_inferencer')
    m.attack = importlib.import_module('opencompass.openicl.icl_inferencer.icl_attack_inferencer')
    sys.modules['opencompass.registry'].TOT_WRAPPER = FakeRegistry('tot_wrapper')
    _module('pandas')  # game24.py's loader reads a CSV with it; the prompt wrapper does not
    m.tot = importlib.import_module('opencompass.openicl.icl_inferencer.icl_tot_inferencer')
    m.game24 = importlib.import_module('opencompass.datasets.game24')
    sys.modules['opencompass.registry'].ICL_EVALUATORS.register_module(module=ZeroScore)
    clp = importlib.import_module('opencompass.openicl.icl_inferencer.icl_clp_inferencer')
    m.CLPInferencer = clp.CLPInferencer
    m.templates['OlympiadBenchTemplate'] = ob.OlympiadBenchTemplate
    m.templates['OlympiadBenchRawTemplate'] = ob.OlympiadBenchRawTemplate
    return m, oc_run


LM = {'round': [{'role': 'HUMAN', 'begin': '<|im_start|>user\n', 'end': '<|im_end|>\n'},
                {'role': 'BOT', 'begin': '<|im_start|>assistant\n', 'end': '<|im_end|>\n', 'generate': True}],
      'eos_token_id': 92542}
API = {'round': [{'role': 'HUMAN', 'api_role': 'HUMAN'}, {'role': 'BOT', 'api_role': 'BOT', 'generate': True}]}

OLY_READER = {'input_columns': ['problem', 'language', 'subject', 'question_type', 'answer_type',
                                'is_multiple_answer', 'unit', 'questions'], 'output_column': 'solution'}


def oly_row(problem, language, subject, qtype, atype, multiple, unit):
    return {'problem': problem, 'language': language, 'subject': subject, 'question_type': qtype,
            'answer_type': atype, 'is_multiple_answer': multiple, 'unit': unit, 'questions': {},
            'solution': ['$x=1$'], 'final_answer': ['1']}


OLY_ROWS = [
    oly_row('Find all $x$ with $x^2 = {x}$.', 'English', 'Math', 'Open-ended', 'Numerical', False, None),
    oly_row('Two masses $m_1$ and $m_2$ …', 'English', 'Physics', 'Open-ended', 'Expression,Numerical', True, 'm/s'),
    oly_row('Prove that $a+b \\geq 2\\sqrt{ab}$.', 'English', 'Math', 'Theorem proof', 'Need_human_evaluate', False, None),
    oly_row('求所有满足条件的正整数 $n$。', 'Chinese', 'Math', 'Open-ended', 'Interval', True, ''),
    oly_row('一个质点做匀速圆周运动……', 'Chinese', 'Physics', 'Open-ended', 'Equation-Tuple', False, '米'),
    oly_row('Compute $\\{1,2\\}$ and {solution}.', 'English', 'Math', 'Open-ended', 'Expression,Expression', True, None),
]


class Zeros(list):
    """What get_ppl / get_loglikelihood return: an array whose tolist() the inferencers call."""

    def tolist(self):
        return list(self)


def build_task(m, oc_run, inp, models, st, adapt=None):
    """OpenICLInferTask._inference's first steps, each in its stage: the dataset of the case's rows, the harness's LM
    or API model (`adapt(model)` then replaces what the inferencer asks of it), the templates and the retriever."""
    from common import Stage, build_from_cfg
    import copy
    HarnessLM, HarnessAPI = models
    infer_cfg = inp['infer_cfg']
    with Stage(st, 'dataset'):
        dataset = oc_run.build_dataset(m, inp['reader_cfg'], inp.get('train', []), inp['test'])
    with Stage(st, 'model'):
        cls = HarnessLM if inp['parser'] == 'lm' else HarnessAPI
        model = cls(copy.deepcopy(inp.get('meta_template')), inp.get('max_seq_len'))
        if adapt:
            adapt(model)
    with Stage(st, 'template'):
        ice_template = prompt_template = None
        if 'ice_template' in infer_cfg:
            ice_template = build_from_cfg(infer_cfg['ice_template'], m.templates)
        if 'prompt_template' in infer_cfg:
            prompt_template = build_from_cfg(infer_cfg['prompt_template'], m.templates)
    with Stage(st, 'retriever'):
        retriever = build_from_cfg(infer_cfg['retriever'], m.retrievers, dataset=dataset)
    return model, ice_template, prompt_template, retriever


def inferencer_kwargs(infer_cfg):
    """The inferencer config as its class takes it: values decoded, without `type`."""
    from common import decode_cfg_value
    import copy
    kw = decode_cfg_value(copy.deepcopy(infer_cfg['inferencer']))
    kw.pop('type')
    return kw


def run_clp_case(m, oc_run, inp, models):
    """OpenICLInferTask._inference with CLPInferencer: templates, retriever, inferencer, inference()."""
    from common import Stage, error_record, new_state, to_jsonable
    import tempfile
    st = new_state()
    infer_cfg = inp['infer_cfg']
    tmp = tempfile.mkdtemp(prefix='ocgold_')
    try:

        def adapt(model):
            model.tokenizer = type('Tok', (), {'encode': lambda self, *a: [1]})()

        model, ice_template, prompt_template, retriever = build_task(m, oc_run, inp, models, st, adapt)
        with Stage(st, 'inferencer'):
            inf_cfg = inferencer_kwargs(infer_cfg)
            inferencer = m.CLPInferencer(model=model, max_seq_len=inp.get('max_seq_len'), output_json_filepath=tmp, **inf_cfg)
        prompts, inputs = {}, []
        real_gen = retriever.generate_prompt_for_generate_task

        def gen(idx, *a, **k):
            p = real_gen(idx, *a, **k)
            prompts[idx] = p  # max_seq_len rebuilds a row's prompt: the last one is the row's
            return p
        retriever.generate_prompt_for_generate_task = gen

        def cond_prob(texts, pos, choice_ids):
            inputs.extend(texts)
            return [[1 / len(choice_ids)] * len(choice_ids) for _ in texts]
        inferencer._get_cond_prob = cond_prob
        with Stage(st, 'inferencer'):
            inferencer.inference(retriever, ice_template=ice_template, prompt_template=prompt_template)
        return {'ice_idx': [list(map(int, x)) for x in retriever.retrieve()],
                'items': [{'index': i, 'prompt_list': to_jsonable(prompts[i]), 'model_input': to_jsonable(t)}
                          for i, t in enumerate(inputs)]}
    except Exception as e:  # noqa
        return error_record(e, st.stage)


class _Stop(Exception):
    pass


class _Device:
    @property
    def device(self):
        raise _Stop()


def run_swce_case(m, oc_run, inp, models):
    """OpenICLInferTask._inference with SWCELossInferencer, up to the model's first forward pass."""
    from common import Stage, error_record, new_state, to_jsonable
    import tempfile
    st = new_state()
    infer_cfg = inp['infer_cfg']
    tmp = tempfile.mkdtemp(prefix='ocgold_')
    texts = []
    try:

        def adapt(model):
            if inp['parser'] == 'lm':
                model.tokenizer = type('Tok', (), {'vocab_size': 32000, 'encode': lambda self, t: texts.append(t) or [1, 2]})()
                model.model = _Device()
            else:
                model.tokenizer = None  # opencompass.models.OpenAI.__init__

        model, ice_template, prompt_template, retriever = build_task(m, oc_run, inp, models, st, adapt)
        with Stage(st, 'inferencer'):
            inf_cfg = inferencer_kwargs(infer_cfg)
            inferencer = m.swce.SWCELossInferencer(model=model, max_seq_len=inp.get('max_seq_len'), output_json_filepath=tmp, **inf_cfg)
        m.swce.HFDataset = type('HF', (), {'from_list': staticmethod(lambda rows: rows)})
        try:
            with Stage(st, 'inferencer'):
                inferencer.inference(retriever, ice_template=ice_template, prompt_template=prompt_template)
        except _Stop:
            pass
        return {'ice_idx': [list(map(int, x)) for x in retriever.retrieve()],
                'items': [{'index': i, 'prompt_list': to_jsonable(t), 'model_input': to_jsonable(t)} for i, t in enumerate(texts)]}
    except Exception as e:  # noqa
        return error_record(e, st.stage)


LLMC_READER = {'input_columns': ['content'], 'output_column': None}
LLMC_INFER = {'prompt_template': {'type': 'PromptTemplate', 'template': '{content}'}, 'retriever': {'type': 'ZeroRetriever'},
              'inferencer': {'type': 'SWCELossInferencer', 'block_size': 1900, 'stride': 512}}
LLMC_ROWS = [{'content': 'def f(x):\n    return {x}\n'}, {'content': '  $\\int_0^1 x\\,dx$ and 数学  '}]


def swce_cases():
    # configs/datasets/llm_compression/llm_compression.py
    out = []
    for mname, parser, meta in [('lm', 'lm', LM), ('api', 'api', API)]:
        out.append({'id': f'oc-extra-SWCELossInferencer-{mname}', 'category': 'swce-loss-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': LLMC_READER, 'infer_cfg': LLMC_INFER, 'train': LLMC_ROWS,
                              'test': LLMC_ROWS, 'mode': 'gen', 'parser': parser, 'meta_template': meta}})
    out.append({'id': 'oc-extra-SWCELossInferencer-output-column', 'category': 'swce-loss-inferencer',
                'input': {'kind': 'pipeline', 'reader_cfg': {'input_columns': ['content'], 'output_column': 'content'},
                          'infer_cfg': LLMC_INFER, 'train': LLMC_ROWS, 'test': LLMC_ROWS, 'mode': 'gen', 'parser': 'lm',
                          'meta_template': LM}})
    fixk = dict(LLMC_INFER, prompt_template={'type': 'PromptTemplate', 'template': '</E>{content}', 'ice_token': '</E>'},
                ice_template={'type': 'PromptTemplate', 'template': 'ex: {content}'},
                retriever={'type': 'FixKRetriever', 'fix_id_list': [1]})
    out.append({'id': 'oc-extra-SWCELossInferencer-examples-dropped', 'category': 'swce-loss-inferencer',
                'input': {'kind': 'pipeline', 'reader_cfg': LLMC_READER, 'infer_cfg': fixk, 'train': LLMC_ROWS,
                          'test': LLMC_ROWS, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    return out


def run_ll_case(m, oc_run, inp, models):
    """OpenICLInferTask._inference with LLInferencer, get_loglikelihood recorded."""
    from common import Stage, error_record, label_to_json, new_state, to_jsonable
    import tempfile
    st = new_state()
    infer_cfg = inp['infer_cfg']
    tmp = tempfile.mkdtemp(prefix='ocgold_')
    calls = []
    try:

        def adapt(model):
            model.get_loglikelihood = lambda inputs, conts: calls.append((list(inputs), list(conts))) or Zeros([0.0] * len(inputs))

        model, ice_template, prompt_template, retriever = build_task(m, oc_run, inp, models, st, adapt)
        with Stage(st, 'inferencer'):
            inf_cfg = inferencer_kwargs(infer_cfg)
            inferencer = m.ll.LLInferencer(model=model, max_seq_len=inp.get('max_seq_len'), output_json_filepath=tmp, **inf_cfg)
        labels = inferencer.labels if inferencer.labels is not None else retriever.get_labels(ice_template=ice_template, prompt_template=prompt_template)
        prompts = []
        real_label_prompt = retriever.generate_label_prompt

        def label_prompt(**kw):
            p = real_label_prompt(**kw)
            prompts.append(p)  # no max_seq_len: one call per (label, row), label-major
            return p
        retriever.generate_label_prompt = label_prompt
        with Stage(st, 'prompt'):
            inferencer.inference(retriever, ice_template=ice_template, prompt_template=prompt_template)
        texts = [t for inputs, _ in calls for t in inputs]
        conts = [c for _, cs in calls for c in cs]
        n = len(inp['test'])
        assert conts == [r['cont'] for r in inp['test']] * len(labels)  # the continuation scored is each row's `cont`
        items = [{'index': i, 'label': label_to_json(label), 'prompt_list': to_jsonable(prompts[k * n + i]), 'model_input': to_jsonable(texts[k * n + i])}
                 for k, label in enumerate(labels) for i in range(n)]
        return {'labels': [label_to_json(x) for x in labels], 'ice_idx': [list(map(int, x)) for x in retriever.retrieve()], 'items': items}
    except Exception as e:  # noqa
        return error_record(e, st.stage)


C3_READER = {'input_columns': ['question', 'content', 'choice0', 'choice1'], 'output_column': 'label'}
C3_LL = {'prompt_template': {'type': 'PromptTemplate', 'template': {'__label_dict__': [
    [0, {'round': [{'role': 'HUMAN', 'prompt': '文章：{content}\n问题：{question}'}, {'role': 'BOT', 'prompt': '答案：{choice0}'}]}],
    [1, {'round': [{'role': 'HUMAN', 'prompt': '文章：{content}\n问题：{question}'}, {'role': 'BOT', 'prompt': '答案：{choice1}'}]}]]}},
    'retriever': {'type': 'ZeroRetriever'}, 'inferencer': {'type': 'LLInferencer'}}
C3_ROWS = [{'question': 'Q1?', 'content': 'C1', 'choice0': 'a', 'choice1': 'b', 'label': 0, 'cont': 'a'},
           {'question': 'Q2?', 'content': 'C2', 'choice0': 'c', 'choice1': 'd', 'label': 1, 'cont': 'd'}]


def ll_cases():
    out = [{'id': 'oc-extra-LLInferencer-lm', 'category': 'll-inferencer',
            'input': {'kind': 'pipeline', 'reader_cfg': C3_READER, 'infer_cfg': C3_LL, 'train': C3_ROWS,
                      'test': C3_ROWS, 'mode': 'ppl', 'parser': 'lm', 'meta_template': LM}}]
    no_cont = [{k: v for k, v in r.items() if k != 'cont'} for r in C3_ROWS]
    out.append({'id': 'oc-extra-LLInferencer-no-cont', 'category': 'll-inferencer',
                'input': {'kind': 'pipeline', 'reader_cfg': C3_READER, 'infer_cfg': C3_LL, 'train': no_cont,
                          'test': no_cont, 'mode': 'ppl', 'parser': 'lm', 'meta_template': LM}})
    return out


CIVIL_READER = {'input_columns': ['text'], 'output_column': 'label', 'train_split': 'test', 'test_split': 'test'}
CIVIL_INFER = {'prompt_template': {'type': 'PromptTemplate', 'template': {'round': [{'role': 'HUMAN', 'prompt': (
    'Text: {text}\nQuestion: Does the above text contain rude, hateful, aggressive, disrespectful or unreasonable '
    'language?\nAnswer:')}]}}, 'retriever': {'type': 'ZeroRetriever'}, 'inferencer': {'type': 'CLPInferencer'}}
CIVIL_ROWS = [{'text': 'You are kind.', 'label': 0, 'choices': ['no', 'yes']},
              {'text': 'Go {away}, idiot.', 'label': 1, 'choices': ['no', 'yes']}]


def clp_cases():
    out = []
    reader = {k: v for k, v in CIVIL_READER.items() if k not in ('train_split', 'test_split')}
    for mname, parser, meta in [('lm', 'lm', LM), ('lm-nometa', 'lm', None), ('api', 'api', API)]:
        out.append({'id': f'oc-extra-CLPInferencer-{mname}', 'category': 'clp-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': reader, 'infer_cfg': CIVIL_INFER, 'train': CIVIL_ROWS,
                              'test': CIVIL_ROWS, 'mode': 'gen', 'parser': parser, 'meta_template': meta}})
    no_choices = [{k: v for k, v in r.items() if k != 'choices'} for r in CIVIL_ROWS]
    out.append({'id': 'oc-extra-CLPInferencer-no-choices', 'category': 'clp-inferencer',
                'input': {'kind': 'pipeline', 'reader_cfg': reader, 'infer_cfg': CIVIL_INFER, 'train': no_choices,
                          'test': no_choices, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    # max_seq_len: examples dropped, the rebuilt prompt sent unparsed (a string template), or measured unparsed and
    # failing (a dialogue: get_token_len's re.findall on a PromptList).
    ice = {'type': 'PromptTemplate', 'template': 'Text: {text}\nAnswer: {label}'}
    for name, tpl in [('string', 'Some examples:\n</E>\nText: {text}\nQuestion: Is it rude?\nAnswer:'),
                      ('dialogue', {'begin': '</E>', 'round': [{'role': 'HUMAN', 'prompt': 'Text: {text}\nQuestion: Is it rude?\nAnswer:'}]})]:
        fixk = dict(CIVIL_INFER, ice_template=ice, prompt_template={'type': 'PromptTemplate', 'template': tpl, 'ice_token': '</E>'},
                    retriever={'type': 'FixKRetriever', 'fix_id_list': [0, 1]})
        out.append({'id': f'oc-extra-CLPInferencer-max-seq-len-{name}', 'category': 'clp-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': reader, 'infer_cfg': fixk, 'train': CIVIL_ROWS,
                              'test': CIVIL_ROWS, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM, 'max_seq_len': 20}})
    multi = dict(CIVIL_INFER, inferencer={'type': 'CLPInferencer', 'single_token': False})
    out.append({'id': 'oc-extra-CLPInferencer-single-token-false', 'category': 'clp-inferencer',
                'input': {'kind': 'pipeline', 'reader_cfg': reader, 'infer_cfg': multi, 'train': CIVIL_ROWS,
                          'test': CIVIL_ROWS, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    return out


def xiezhi_row(q, labels, answer):
    return {'question': q, 'A': 'a', 'B': 'b', 'C': 'c', 'D': 'd', 'labels': labels, 'answer': answer}


XZ_TRAIN = [xiezhi_row('t0', ['Physics', 'Science'], 'A'), xiezhi_row('t1', ['Chemistry', 'Science'], 'B'),
            xiezhi_row('t2', ['Organic chemistry', 'Chemistry', 'Science'], 'C'), xiezhi_row('t3', ['Law'], 'D'),
            xiezhi_row('t4', ['Science'], 'A')]
XZ_TEST = [xiezhi_row('q0', ['Organic chemistry', 'Chemistry', 'Science'], 'B'), xiezhi_row('q1', ['Law', 'Science'], 'C'),
           xiezhi_row('q2', ['Physics'], 'D')]
XZ_READER = {'input_columns': ['question', 'A', 'B', 'C', 'D', 'labels'], 'output_column': 'answer'}


def xiezhi_cases():
    # configs/datasets/xiezhi/xiezhi_gen_b86cf5.py and xiezhi_ppl_ea6bd7.py (the English split's hints).
    gen = {'ice_template': {'type': 'PromptTemplate', 'template': {'begin': '</E>', 'round': [
        {'role': 'HUMAN', 'prompt': 'Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '},
        {'role': 'BOT', 'prompt': '{answer}'}]}, 'ice_token': '</E>'},
        'retriever': {'type': 'XiezhiRetriever', 'ice_num': 3}, 'inferencer': {'type': 'GenInferencer'}}
    ppl = {'ice_template': {'type': 'PromptTemplate', 'template': {
        k: {'begin': '</E>', 'round': [
            {'role': 'HUMAN', 'prompt': 'Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '},
            {'role': 'BOT', 'prompt': k}]} for k in 'ABCD'}, 'ice_token': '</E>'},
        'retriever': {'type': 'XiezhiRetriever', 'ice_num': 3}, 'inferencer': {'type': 'PPLInferencer'}}
    out = []
    for name, infer, mode in [('gen', gen, 'gen'), ('ppl', ppl, 'ppl')]:
        for mname, parser, meta in [('lm', 'lm', LM), ('api', 'api', API)]:
            out.append({'id': f'oc-extra-XiezhiRetriever-{name}-{mname}', 'category': 'xiezhi-retriever',
                        'input': {'kind': 'pipeline', 'reader_cfg': XZ_READER, 'infer_cfg': infer, 'train': XZ_TRAIN,
                                  'test': XZ_TEST, 'mode': mode, 'parser': parser, 'meta_template': meta}})
    one = dict(gen, retriever={'type': 'XiezhiRetriever'})
    out.append({'id': 'oc-extra-XiezhiRetriever-default-ice-num', 'category': 'xiezhi-retriever',
                'input': {'kind': 'pipeline', 'reader_cfg': XZ_READER, 'infer_cfg': one, 'train': XZ_TRAIN,
                          'test': XZ_TEST, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    unknown = XZ_TEST + [xiezhi_row('q3', ['Astronomy'], 'A')]
    out.append({'id': 'oc-extra-XiezhiRetriever-unknown-label', 'category': 'xiezhi-retriever',
                'input': {'kind': 'pipeline', 'reader_cfg': XZ_READER, 'infer_cfg': gen, 'train': XZ_TRAIN,
                          'test': unknown, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    return out


def cases():
    out = []
    for tname in ['OlympiadBenchTemplate', 'OlympiadBenchRawTemplate']:
        infer = {'prompt_template': {'type': tname}, 'retriever': {'type': 'ZeroRetriever'},
                 'inferencer': {'type': 'GenInferencer'}}
        for mname, parser, meta in [('lm', 'lm', LM), ('api', 'api', API)]:
            out.append({'id': f'oc-extra-{tname}-{mname}', 'category': 'olympiadbench',
                        'input': {'kind': 'pipeline', 'reader_cfg': OLY_READER, 'infer_cfg': infer, 'train': [],
                                  'test': OLY_ROWS, 'mode': 'gen', 'parser': parser, 'meta_template': meta}})
    # Upstream's own failures: an answer type it cannot parse, an argument its __init__ does not take.
    bad = [oly_row('p', 'English', 'Math', 'Open-ended', 'Boolean', False, None)]
    out.append({'id': 'oc-extra-OlympiadBenchTemplate-bad-answer-type', 'category': 'olympiadbench',
                'input': {'kind': 'pipeline', 'reader_cfg': OLY_READER,
                          'infer_cfg': {'prompt_template': {'type': 'OlympiadBenchTemplate'},
                                        'retriever': {'type': 'ZeroRetriever'}, 'inferencer': {'type': 'GenInferencer'}},
                          'train': [], 'test': bad, 'mode': 'gen', 'parser': 'api', 'meta_template': API}})
    out.append({'id': 'oc-extra-OlympiadBenchTemplate-kwarg', 'category': 'olympiadbench',
                'input': {'kind': 'pipeline', 'reader_cfg': OLY_READER,
                          'infer_cfg': {'prompt_template': {'type': 'OlympiadBenchTemplate', 'template': '{problem}'},
                                        'retriever': {'type': 'ZeroRetriever'}, 'inferencer': {'type': 'GenInferencer'}},
                          'train': [], 'test': OLY_ROWS[:1], 'mode': 'gen', 'parser': 'api', 'meta_template': API}})
    return out


def run_recorded_gen_case(m, oc_run, inp, models):
    """OpenICLInferTask._inference with PPLOnlyInferencer or SCInferencer: the real inference(), the model's calls
    recorded. PPLOnly scores get_ppl_from_template(entry), which parses with mode='ppl' (the text recorded is that
    parse); SC samples generate_from_template(entry) sc_size times, which parses with mode='gen'. Written in the
    shape of the harness's gen cases."""
    from common import Stage, error_record, new_state, to_jsonable
    import tempfile
    st = new_state()
    infer_cfg = inp['infer_cfg']
    kind = infer_cfg['inferencer']['type']
    tmp = tempfile.mkdtemp(prefix='ocgold_')
    seen = []
    try:

        def adapt(model):


            def ppl(entries, mask_length=None):
                seen.extend((e, model.parse_template(e, mode='ppl')) for e in entries)
                return Zeros([0.0] * len(entries))

            def generate(entries, max_out_len, **kw):
                seen.extend((e, model.parse_template(e, mode='gen')) for e in entries)
                return [''] * len(entries)
            model.get_ppl_from_template = ppl
            model.generate_from_template = generate

        model, ice_template, prompt_template, retriever = build_task(m, oc_run, inp, models, st, adapt)
        with Stage(st, 'inferencer'):
            inf_cfg = inferencer_kwargs(infer_cfg)
            cls = m.pplonly.PPLOnlyInferencer if kind == 'PPLOnlyInferencer' else m.sc.SCInferencer
            if kind == 'SCInferencer':
                inf_cfg.setdefault('max_out_len', 64)
            inferencer = cls(model=model, max_seq_len=inp.get('max_seq_len'), output_json_filepath=tmp, **inf_cfg)
            # torch's DataLoader(datalist, batch_size, collate_fn=lambda x: x): lists of batch_size items.
            inferencer.get_dataloader = lambda data, size: [data[i:i + (size or 1)] for i in range(0, len(data), size or 1)]
        with Stage(st, 'prompt'):
            inferencer.inference(retriever, ice_template=ice_template, prompt_template=prompt_template)
        sc = getattr(inferencer, 'sc_size', 1) if kind == 'SCInferencer' else 1
        n = len(inp['test'])
        items = []
        for i in range(n):
            entry, parsed = seen[i * sc] if kind == 'SCInferencer' else seen[i]
            item = {'index': i, 'prompt_list': to_jsonable(entry), 'model_input': to_jsonable(parsed)}
            if inp['parser'] == 'api' and kind == 'SCInferencer':
                item.update(oc_run.api_extras(m, parsed))
            items.append(item)
        return {'ice_idx': [list(map(int, x)) for x in retriever.retrieve()], 'items': items}
    except Exception as e:  # noqa
        return error_record(e, st.stage)


WIKI_READER = {'input_columns': ['text'], 'output_column': None}
WIKI_ROWS = [{'text': ' = Valkyria Chronicles III = \n'}, {'text': ' Senjō no Valkyria 3 : {Unrecorded} Chronicles '}]
DIALOGUE = {'round': [{'role': 'HUMAN', 'prompt': 'Continue: {text}'}, {'role': 'BOT', 'prompt': 'Sure.'}]}
GSM_READER = {'input_columns': ['question'], 'output_column': 'answer'}
GSM_ROWS = [{'question': 'Tom has 3 apples and buys 2. How many?', 'answer': '5'},
            {'question': 'What is 6 times 7?', 'answer': '42'}]
GSM_SC = {'ice_template': {'type': 'PromptTemplate', 'template': {'round': [
    {'role': 'HUMAN', 'prompt': 'Question: {question}\nLet\'s think step by step\nAnswer:'},
    {'role': 'BOT', 'prompt': '{answer}\n'}]}},
    'prompt_template': {'type': 'PromptTemplate', 'template': {'begin': '</E>', 'round': [
        {'role': 'HUMAN', 'prompt': 'Question: {question}\nLet\'s think step by step\nAnswer:'}]}, 'ice_token': '</E>'},
    'retriever': {'type': 'FixKRetriever', 'fix_id_list': [0, 1]},
    'inferencer': {'type': 'SCInferencer', 'max_out_len': 512, 'generation_kwargs': {'do_sample': True, 'temperature': 0.7}, 'sc_size': 3}}


def pplonly_sc_cases():
    """configs/datasets/wikitext/wikitext_2_raw_ppl_05247d.py (a string template; a dialogue one too) and
    configs/datasets/gsm8k/gsm8k_gen_a3e34a.py (SCInferencer, sc_size 3)."""
    out = []
    for tname, tpl in [('string', '{text}'), ('dialogue', DIALOGUE)]:
        infer = {'prompt_template': {'type': 'PromptTemplate', 'template': tpl}, 'retriever': {'type': 'ZeroRetriever'},
                 'inferencer': {'type': 'PPLOnlyInferencer'}}
        for mname, parser, meta in [('lm', 'lm', LM), ('lm-nometa', 'lm', None)]:
            out.append({'id': f'oc-extra-PPLOnlyInferencer-{tname}-{mname}', 'category': 'pplonly-inferencer',
                        'input': {'kind': 'pipeline', 'reader_cfg': WIKI_READER, 'infer_cfg': infer, 'train': WIKI_ROWS,
                                  'test': WIKI_ROWS, 'mode': 'gen', 'parser': parser, 'meta_template': meta}})
    with_output = [dict(r, label='x') for r in WIKI_ROWS]
    out.append({'id': 'oc-extra-PPLOnlyInferencer-output-column', 'category': 'pplonly-inferencer',
                'input': {'kind': 'pipeline', 'reader_cfg': {'input_columns': ['text'], 'output_column': 'label'},
                          'infer_cfg': {'prompt_template': {'type': 'PromptTemplate', 'template': '{text}'},
                                        'retriever': {'type': 'ZeroRetriever'}, 'inferencer': {'type': 'PPLOnlyInferencer'}},
                          'train': with_output, 'test': with_output, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    for mname, parser, meta in [('lm', 'lm', LM), ('api', 'api', API)]:
        out.append({'id': f'oc-extra-SCInferencer-{mname}', 'category': 'sc-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': GSM_READER, 'infer_cfg': GSM_SC, 'train': GSM_ROWS,
                              'test': GSM_ROWS, 'mode': 'gen', 'parser': parser, 'meta_template': meta}})
    return out


def run_attack_case(m, oc_run, inp, models):
    """OpenICLAttackTask._inference up to its prompt selection: the templates, the retriever and AttackInferencer
    built as the task builds them (dataset_cfg, the model's max_seq_len), then the real predict() for every prompt of
    original_prompt_list in order, the model's generate_from_template recorded (each entry parsed with mode='gen')
    and the evaluator a stand-in scoring 0. promptbench's Attack, which rewrites the prompt from those scores, is not
    run. Items are prompt-major, as the task calls predict once per prompt."""
    from common import Stage, decode_cfg_value, error_record, new_state, to_jsonable
    import tempfile
    st = new_state()
    infer_cfg = inp['infer_cfg']
    tmp = tempfile.mkdtemp(prefix='ocgold_')
    seen = []
    try:

        def adapt(model):

            def generate(entries, max_out_len, **kw):
                seen.extend((e, model.parse_template(e, mode='gen')) for e in entries)
                return [''] * len(entries)
            model.generate_from_template = generate

        model, ice_template, prompt_template, retriever = build_task(m, oc_run, inp, models, st, adapt)
        with Stage(st, 'inferencer'):
            inf_cfg = inferencer_kwargs(infer_cfg)
            inf_cfg.setdefault('max_out_len', 64)
            inf_cfg['max_seq_len'] = inp.get('max_seq_len')
            inf_cfg['dataset_cfg'] = {'reader_cfg': decode_cfg_value(inp['reader_cfg']), 'eval_cfg': {'evaluator': {'type': 'ZeroScore'}}}
            inferencer = m.attack.AttackInferencer(model=model, output_json_filepath=tmp, **inf_cfg)
            inferencer.get_dataloader = lambda data, size: [data[i:i + (size or 1)] for i in range(0, len(data), size or 1)]
            inferencer.retriever = retriever
            inferencer.prompt_template = prompt_template
            inferencer.ice_template = ice_template
            inferencer.output_json_filepath = tmp
            inferencer.output_json_filename = 'attack'
        prompts = infer_cfg['inferencer']['original_prompt_list']
        n = len(inp['test'])
        items = []
        for k, adv in enumerate(prompts):
            with Stage(st, 'prompt'):
                inferencer.predict(adv)
            for i in range(n):
                entry, parsed = seen[k * n + i]
                item = {'index': i, 'adv_prompt': adv, 'prompt_list': to_jsonable(entry), 'model_input': to_jsonable(parsed)}
                if inp['parser'] == 'api':
                    item.update(oc_run.api_extras(m, parsed))
                items.append(item)
        return {'ice_idx': [list(map(int, x)) for x in retriever.retrieve()], 'items': items}
    except Exception as e:  # noqa
        return error_record(e, st.stage)


class ZeroScore:
    """The evaluator predict() builds from eval_cfg: a score of 0 under whatever metric_key the config names."""

    class Scores(dict):
        def get(self, key, default=None):
            return 0

    def score(self, predictions, references):
        return ZeroScore.Scores()


def run_tot_case(m, oc_run, inp, models):
    """OpenICLInferTask._inference with ToTInferencer: the real inference(), every model call recorded. The model
    answers '' (num_return_sequences of them) so tot_solve runs its steps; the first request of each row's tot_solve
    is step 0's generation prompt (the prompt wrapper's propose / standard / cot wrap of the row's prompt), the only
    request that does not depend on the model's answers. Items: that request and its mode='gen' parse; origin_prompt
    is what the inferencer logs (the row's prompt parsed with mode='gen')."""
    from common import Stage, error_record, new_state, to_jsonable
    import tempfile
    st = new_state()
    infer_cfg = inp['infer_cfg']
    tmp = tempfile.mkdtemp(prefix='ocgold_')
    calls = []  # per row: its prompt x and the prompts of each generate_from_template call
    try:

        def adapt(model):

            def generate(entries, max_out_len, num_return_sequences=1, **kw):
                calls[-1][1].extend(entries)
                return [''] * num_return_sequences
            model.generate_from_template = generate

        model, ice_template, prompt_template, retriever = build_task(m, oc_run, inp, models, st, adapt)
        with Stage(st, 'inferencer'):
            inf_cfg = inferencer_kwargs(infer_cfg)
            inf_cfg.setdefault('max_out_len', 64)
            wrapper = inf_cfg.get('prompt_wrapper') or {}
            if isinstance(wrapper.get('type'), str):
                wrapper['type'] = getattr(m.game24, wrapper['type'].split('.')[-1])
            inferencer = m.tot.ToTInferencer(model=model, max_seq_len=inp.get('max_seq_len'), output_json_filepath=tmp, **inf_cfg)
            inferencer.get_dataloader = lambda data, size: [data[i:i + (size or 1)] for i in range(0, len(data), size or 1)]
            real_solve = inferencer.tot_solve

            def solve(x):
                calls.append((x, []))
                return real_solve(x)
            inferencer.tot_solve = solve
        with Stage(st, 'prompt'):
            inferencer.inference(retriever, ice_template=ice_template, prompt_template=prompt_template)
        items = []
        for i, (x, requests) in enumerate(calls):
            first = requests[0]
            parsed = model.parse_template(first, mode='gen')
            item = {'index': i, 'prompt_list': to_jsonable(x), 'request': first, 'model_input': to_jsonable(parsed)}
            if inp['parser'] == 'api':
                item.update(oc_run.api_extras(m, parsed))
            items.append(item)
        return {'ice_idx': [list(map(int, x)) for x in retriever.retrieve()], 'items': items}
    except Exception as e:  # noqa
        return error_record(e, st.stage)


GAME24_READER = {'input_columns': ['input'], 'output_column': 'output'}
GAME24_INFER = {'prompt_template': {'type': 'PromptTemplate', 'template': '{input}'}, 'retriever': {'type': 'ZeroRetriever'},
                'inferencer': {'type': 'ToTInferencer', 'generation_kwargs': {'do_sample': False, 'temperature': 0.7},
                               'method_generate': 'propose', 'method_evaluate': 'value', 'method_select': 'greedy',
                               'n_evaluate_sample': 3, 'n_select_sample': 5, 'prompt_wrapper': {'type': 'Game24PromptWrapper'}}}
GAME24_ROWS = [{'input': '4 5 6 10', 'output': '(5 * (10 - 4)) - 6'},
               {'input': '1 1 4 6\n2 + 22 = 24 (left: 24)', 'output': '1 * 1 * 4 * 6'}]


def tot_cases():
    """configs/datasets/game24/game24_gen_52a460.py on both parsers (the second row's last line has 24 left, so
    propose_prompt_wrap turns to the cot prompt), the standard and cot sample prompts, a dialogue template (propose
    calls .strip() on its PromptList) and a wrapper without type."""
    out = []
    for mname, parser, meta in [('lm', 'lm', LM), ('api', 'api', API)]:
        out.append({'id': f'oc-extra-ToTInferencer-propose-{mname}', 'category': 'tot-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': GAME24_READER, 'infer_cfg': GAME24_INFER, 'train': GAME24_ROWS,
                              'test': GAME24_ROWS, 'mode': 'gen', 'parser': parser, 'meta_template': meta}})
    for sample in ['standard', 'cot']:
        inf = dict(GAME24_INFER['inferencer'], method_generate='sample', prompt_sample=sample, n_generate_sample=2)
        out.append({'id': f'oc-extra-ToTInferencer-sample-{sample}', 'category': 'tot-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': GAME24_READER, 'infer_cfg': dict(GAME24_INFER, inferencer=inf),
                              'train': GAME24_ROWS, 'test': GAME24_ROWS, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    dialogue = {'type': 'PromptTemplate', 'template': {'round': [{'role': 'HUMAN', 'prompt': '{input}'}]}}
    for name, infer in [('dialogue-propose', dict(GAME24_INFER, prompt_template=dialogue)),
                        ('dialogue-sample', dict(GAME24_INFER, prompt_template=dialogue, inferencer=dict(GAME24_INFER['inferencer'], method_generate='sample'))),
                        ('no-wrapper', dict(GAME24_INFER, inferencer={k: v for k, v in GAME24_INFER['inferencer'].items() if k != 'prompt_wrapper'}))]:
        out.append({'id': f'oc-extra-ToTInferencer-{name}', 'category': 'tot-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': GAME24_READER, 'infer_cfg': infer, 'train': GAME24_ROWS,
                              'test': GAME24_ROWS, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    return out


WNLI_READER = {'input_columns': ['sentence1', 'sentence2'], 'output_column': 'label_option'}
WNLI_PROMPTS = ['Are the following two sentences entailment or not_entailment? Answer me with "A. entailment" or "B. not_entailment", just one word. ',
                "Does the relationship between the given sentences represent entailment or not_entailment? Respond with 'A. entailment' or 'B. not_entailment'.",
                "Assess the connection between the following {sentences} and classify it as 'A. entailment' or 'B. not_entailment'."]
WNLI_INFER = {'prompt_template': {'type': 'PromptTemplate', 'template': {'round': [
    {'role': 'HUMAN', 'prompt': '{adv_prompt}\nSentence 1: {sentence1}\nSentence 2: {sentence2}\nAnswer:'}]}},
    'retriever': {'type': 'ZeroRetriever'},
    'inferencer': {'type': 'AttackInferencer', 'original_prompt_list': WNLI_PROMPTS, 'adv_key': 'adv_prompt'}}
WNLI_ROWS = [{'sentence1': 'The cat sat on the mat.', 'sentence2': 'A cat sat.', 'label_option': 'A'},
             {'sentence1': 'It rained all {day}.', 'sentence2': 'The sun shone all day.', 'label_option': 'B'}]


def attack_cases():
    """configs/datasets/promptbench/promptbench_wnli_gen_50662f.py (its prompts cut to three), on both parsers; with
    in-context examples cut by max_seq_len; without adv_key and without original_prompt_list."""
    out = []
    for mname, parser, meta in [('lm', 'lm', LM), ('api', 'api', API)]:
        out.append({'id': f'oc-extra-AttackInferencer-{mname}', 'category': 'attack-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': WNLI_READER, 'infer_cfg': WNLI_INFER, 'train': WNLI_ROWS,
                              'test': WNLI_ROWS, 'mode': 'gen', 'parser': parser, 'meta_template': meta}})
    fixk = dict(WNLI_INFER, ice_template={'type': 'PromptTemplate', 'template': {'round': [
        {'role': 'HUMAN', 'prompt': 'Sentence 1: {sentence1}\nSentence 2: {sentence2}\nAnswer:'}, {'role': 'BOT', 'prompt': '{label_option}'}]}},
        prompt_template={'type': 'PromptTemplate', 'template': {'begin': '</E>', 'round': [
            {'role': 'HUMAN', 'prompt': '{adv_prompt}\nSentence 1: {sentence1}\nSentence 2: {sentence2}\nAnswer:'}]}, 'ice_token': '</E>'},
        retriever={'type': 'FixKRetriever', 'fix_id_list': [0, 1]})
    out.append({'id': 'oc-extra-AttackInferencer-max-seq-len', 'category': 'attack-inferencer',
                'input': {'kind': 'pipeline', 'reader_cfg': WNLI_READER, 'infer_cfg': fixk, 'train': WNLI_ROWS,
                          'test': WNLI_ROWS, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM, 'max_seq_len': 64}})
    for name, drop in [('no-adv-key', 'adv_key'), ('no-prompt-list', 'original_prompt_list')]:
        inf = {k: v for k, v in WNLI_INFER['inferencer'].items() if k != drop}
        out.append({'id': f'oc-extra-AttackInferencer-{name}', 'category': 'attack-inferencer',
                    'input': {'kind': 'pipeline', 'reader_cfg': WNLI_READER, 'infer_cfg': dict(WNLI_INFER, inferencer=inf),
                              'train': WNLI_ROWS, 'test': WNLI_ROWS, 'mode': 'gen', 'parser': 'lm', 'meta_template': LM}})
    return out


def main():
    tree, shared, out_file = sys.argv[1], sys.argv[2], sys.argv[3]
    m, oc_run = load(tree, shared)
    models = oc_run.make_models(m)
    recs = []
    for c in cases() + clp_cases() + xiezhi_cases() + swce_cases() + ll_cases() + pplonly_sc_cases() + attack_cases() + tot_cases():
        run = {'CLPInferencer': run_clp_case, 'SWCELossInferencer': run_swce_case, 'LLInferencer': run_ll_case,
               'PPLOnlyInferencer': run_recorded_gen_case, 'SCInferencer': run_recorded_gen_case,
               'AttackInferencer': run_attack_case, 'ToTInferencer': run_tot_case}.get(c['input']['infer_cfg']['inferencer']['type'])
        exp = run(m, oc_run, c['input'], models) if run else oc_run.run_pipeline_case(m, c['input'], models)
        recs.append({'id': c['id'], 'family': 'opencompass', 'upstream': 'open-compass/opencompass@a5acc4bba3b658f151617a3b393602110fb7a740',
                     'category': c['category'], 'input': c['input'], 'expected': exp})
    with open(out_file, 'w', encoding='utf-8') as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')
    print(f'wrote {len(recs)} cases to {out_file}', file=sys.stderr)


if __name__ == '__main__':
    main()
