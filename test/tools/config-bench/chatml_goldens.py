"""Golden cases for OpenCompass run configs with `chatml_datasets` (issue #12), made by running upstream's code.

    python3 test/tools/config-bench/chatml_goldens.py OC_TREE test/conformance/cases-local/opencompass-chatml.jsonl

Two kinds of case, family `opencompass-chatml`:

- `construct`: the datasets the run appends for a config's `chatml_datasets`, from the real
  consturct_chatml_datasets (opencompass/utils/run.py; the function's own source is taken from the file and run,
  since importing run.py needs mmengine) with the real template module
  opencompass/configs/datasets/chatobj_custom/chatobj_custom_gen.py, whose text the case carries (PromptLoom's
  runner imports it through its config reader, as the app does from a checkout).
- `load`: the rows of the real ChatMLDataset.load (opencompass/datasets/chatml/chatml.py) over a JSONL the case
  carries. `datasets.Dataset` is a list-backed stand-in with from_list / rename_column / add_column (what load()
  calls) whose columns take the shape pyarrow gives them (struct fields unified across rows), and VerifyDataset
  (pydantic, absent here) accepts every row: the cases below are valid ChatML.

The entries are in the style of configs/chatml_datasets/* and examples/eval_chatml_datasets.py.
"""
import ast
import copy
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import types
import typing

UPSTREAM = 'open-compass/opencompass@a5acc4bba3b658f151617a3b393602110fb7a740'
TEMPLATE = 'opencompass/configs/datasets/chatobj_custom/chatobj_custom_gen.py'


def construct_function(tree):
    """consturct_chatml_datasets from run.py's source, run in a namespace that imports the template module from the tree."""
    src = open(os.path.join(tree, 'opencompass/utils/run.py'), encoding='utf-8').read()
    fn = next(n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == 'consturct_chatml_datasets')
    spec = importlib.util.spec_from_file_location('opencompass.configs.datasets.chatobj_custom.chatobj_custom_gen',
                                                  os.path.join(tree, TEMPLATE))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name in ['opencompass', 'opencompass.configs', 'opencompass.configs.datasets',
                 'opencompass.configs.datasets.chatobj_custom']:
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules[spec.name] = mod
    ns = {'deepcopy': copy.deepcopy, 'List': typing.List, 'Dict': typing.Dict, 'Any': typing.Any}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), 'opencompass/utils/run.py', 'exec'), ns)
    return ns['consturct_chatml_datasets']


def struct_shape(values):
    """The Arrow type pyarrow infers for a column, as far as the shape of dicts goes: a struct's fields are every
    key seen, in first-seen order, at every depth (a missing one reads back as None)."""
    dicts = [v for v in values if isinstance(v, dict)]
    lists = [v for v in values if isinstance(v, list)]
    if dicts:
        keys = list(dict.fromkeys(k for d in dicts for k in d))
        return ('struct', {k: struct_shape([d.get(k) for d in dicts]) for k in keys})
    if lists:
        return ('list', struct_shape([x for v in lists for x in v]))
    return None


def conform(v, shape):
    if shape is None or v is None:
        return v
    if shape[0] == 'struct':
        return {k: conform(v.get(k), t) for k, t in shape[1].items()}
    return [conform(x, shape[1]) for x in v]


def column(values):
    shape = struct_shape(values)
    return [conform(v, shape) for v in values]


class ListDataset:
    """What ChatMLDataset.load calls on datasets.Dataset, with Arrow's shapes: from_list keeps the first row's keys,
    and every column (add_column's too) gets one struct shape."""

    def __init__(self, columns, rows):
        self.columns, self.rows = columns, rows

    @classmethod
    def from_list(cls, rows):
        cols = list(rows[0].keys()) if rows else []
        data = {c: column([r.get(c) for r in rows]) for c in cols}
        return cls(cols, [{c: data[c][i] for c in cols} for i in range(len(rows))])

    def rename_column(self, old, new):
        cols = [new if c == old else c for c in self.columns]
        return ListDataset(cols, [{(new if k == old else k): v for k, v in r.items()} for r in self.rows])

    def add_column(self, name, values):
        if len(values) != len(self.rows):
            raise ValueError(f'Failed to concatenate on axis=1 because tables don\'t have the same number of rows')
        return ListDataset(self.columns + [name], [{**r, name: v} for r, v in zip(self.rows, column(values))])


def chatml_load(tree):
    sys.modules['datasets'] = types.SimpleNamespace(Dataset=ListDataset)
    reg = types.ModuleType('opencompass.registry')
    reg.LOAD_DATASET = types.SimpleNamespace(register_module=lambda *a, **k: (lambda c: c))
    sys.modules['opencompass.registry'] = reg
    utils = types.ModuleType('opencompass.utils')
    utils.get_data_path = lambda path, local_mode=False: path
    sys.modules['opencompass.utils'] = utils
    dpkg = types.ModuleType('opencompass.datasets')
    dpkg.__path__ = [os.path.join(tree, 'opencompass', 'datasets')]
    sys.modules['opencompass.datasets'] = dpkg
    base = types.ModuleType('opencompass.datasets.base')
    base.BaseDataset = type('BaseDataset', (), {})
    sys.modules['opencompass.datasets.base'] = base
    cpkg = types.ModuleType('opencompass.datasets.chatml')
    cpkg.__path__ = [os.path.join(tree, 'opencompass', 'datasets', 'chatml')]
    sys.modules['opencompass.datasets.chatml'] = cpkg
    ver = types.ModuleType('opencompass.datasets.chatml.verification')
    ver.VerifyDataset = lambda **row: None
    sys.modules['opencompass.datasets.chatml.verification'] = ver
    spec = importlib.util.spec_from_file_location('opencompass.datasets.chatml.chatml',
                                                  os.path.join(tree, 'opencompass/datasets/chatml/chatml.py'))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod.ChatMLDataset.load


def failure(e):
    return {'error': f'{type(e).__name__}: {e}', 'error_type': type(e).__name__}


def llm(**kw):
    return dict(type='llm_evaluator', judge_cfg=dict(), **kw)


CONSTRUCT = {
    'llm-judge': [dict(abbr='MaScQA', path='./data/MaScQA/MaScQA.jsonl', evaluator=llm(), n=1)],
    'two-with-n': [dict(abbr='HMMT2025', path='./data/hmmt2025.jsonl', evaluator=llm(), n=1),
                   dict(abbr='HMMT2025_repeat_32', path='./data/hmmt2025.jsonl', evaluator=llm(), n=32)],
    'math': [dict(abbr='amo', path='./data/amo-bench.jsonl', evaluator=dict(type='math_evaluator'))],
    'mcq-pattern': [dict(abbr='mcq', path='./data/mcq.jsonl',
                         evaluator=dict(type='mcq_rule_evaluator', answer_pattern=r'(?i)Answer\s*:\s*([A-E])'))],
    'llm-prompt-test-range': [dict(abbr='cs', path='./data/cs.jsonl', test_range='[0:8]',
                                   evaluator=llm(prompt='Judge: {question} / {answer} / {prediction}'))],
    'cascade': [dict(abbr='casc', path='./data/casc.jsonl', test_range='[0:4]',
                     evaluator=dict(type='cascade_evaluator', rule_evaluator=dict(type='math_evaluator'),
                                    llm_evaluator=llm()))],
    'missing-evaluator': [dict(abbr='x', path='./data/x.jsonl')],
    'unknown-evaluator': [dict(abbr='x', path='./data/x.jsonl', evaluator=dict(type='rouge_evaluator'))],
    'llm-without-judge': [dict(abbr='x', path='./data/x.jsonl', evaluator=dict(type='llm_evaluator'))],
}

Q = [{'role': 'system', 'content': 'You are a careful chemist.'},
     {'role': 'user', 'content': 'What is the molar mass of water?'}]
MM = [{'role': 'user', 'content': [{'type': 'image', 'image_url': 'figs/cell.png'},
                                   {'type': 'text', 'text': 'Name the organelle.'}]}]
TURNS = [{'role': 'user', 'content': 'First step?'}, {'role': 'assistant', 'content': 'Heat it.'},
         {'role': 'user', 'content': 'Then?'}]


def jsonl(*rows):
    return ''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows)


LOAD = {
    'system-and-user': jsonl({'question': Q, 'answer': ['18 g/mol'], 'id': 7, 'source': 'MaScQA'}),
    'multimodal-user': jsonl({'answer': ['mitochondrion'], 'question': MM}),
    'turns-and-answers': jsonl({'question': TURNS, 'answer': ['heat', 'cool']}),
    'no-user-content': jsonl({'question': Q, 'answer': ['x']}, {'question': [{'role': 'user', 'content': ''}], 'answer': ['y']}),
}


def main():
    tree, out_file = sys.argv[1], sys.argv[2]
    construct = construct_function(tree)
    template_source = open(os.path.join(tree, TEMPLATE), encoding='utf-8').read()
    load = chatml_load(tree)
    recs = []
    for cid, entries in CONSTRUCT.items():
        try:
            exp = {'datasets': json.loads(json.dumps(construct(copy.deepcopy(entries))))}
        except Exception as e:  # noqa: BLE001 - upstream's own failure is the expected output
            exp = failure(e)
        recs.append({'id': f'oc-chatml-construct-{cid}', 'category': 'chatml-construct',
                     'input': {'kind': 'construct', 'chatml_datasets': entries, 'template_source': template_source},
                     'expected': exp})
    for cid, text in LOAD.items():
        root = tempfile.mkdtemp(prefix='pl-chatml-')
        try:
            path = os.path.join(root, 'data.jsonl')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
            try:
                ds = load(path)
                exp = {'columns': ds.columns, 'rows': ds.rows}
            except Exception as e:  # noqa: BLE001
                exp = failure(e)
        finally:
            shutil.rmtree(root)
        recs.append({'id': f'oc-chatml-load-{cid}', 'category': 'chatml-load',
                     'input': {'kind': 'load', 'text': text}, 'expected': exp})
    with open(out_file, 'w', encoding='utf-8') as f:
        for r in recs:
            f.write(json.dumps({'id': r['id'], 'family': 'opencompass-chatml', 'upstream': UPSTREAM, 'category': r['category'],
                                'input': r['input'], 'expected': r['expected']}, ensure_ascii=False) + '\n')
    print(f'wrote {len(recs)} cases to {out_file}', file=sys.stderr)


if __name__ == '__main__':
    main()
