"""Golden cases for OpenCompass custom datasets (issue #12), made by running upstream's own code.

    python3 test/tools/config-bench/custom_goldens.py OC_TREE ../shared test/conformance/cases-local/opencompass-custom.jsonl

A dataset dict without `type` (configs/datasets/compassbench_20_v1_1*: `dict(path=…, abbr=…,
data_type='circular-mcq', infer_method='gen')`) is completed by the run: opencompass/utils/run.py
try_fill_in_custom_cfgs calls make_custom_dataset_config (opencompass/datasets/custom.py), which reads the data
file's first row and `<path>.meta.json`. Each case below writes its files into a fresh folder (TMPDIR), runs the
real make_custom_dataset_config there (the working directory, as a run's), and for a CircularCustomDataset the
real load() (CircularDatasetMeta from opencompass/datasets/circular.py over CustomDataset.load), with the
keyword arguments BaseDataset passes it. custom.py and circular.py are imported from the checkout; what they
import for evaluators and the other circular dataset classes are stand-in classes (never called here), and
get_data_path returns the path it is given (a local file).

The case input is {"kind": "custom-dataset", "entry": the config dict, "files": {relative path: text}}; the
expected output {"dataset": the completed dict, types as class names, "rows": the loaded rows (circular only)}
or {"error", "error_type"}.
"""
import importlib
import json
import os
import shutil
import sys
import tempfile
import types

UPSTREAM = 'open-compass/opencompass@a5acc4bba3b658f151617a3b393602110fb7a740'


def load(tree, shared):
    sys.path.insert(0, os.path.join(shared, 'upstream', 'opencompass', 'harness'))
    import oc_loader  # noqa: E402
    return import_custom(oc_loader.load_opencompass(tree))


def import_custom(m):
    """opencompass/datasets/custom.py (and circular.py) from the checkout the harness loaded (m)."""
    from stubs import package_stub  # noqa: E402

    def named(mod, *names):
        module = sys.modules.setdefault(mod, types.ModuleType(mod))
        for n in names:
            if not isinstance(getattr(module, n, None), type):
                setattr(module, n, type(n, (), {'__module__': mod}))

    if 'opencompass.datasets' not in sys.modules:
        package_stub('opencompass.datasets', os.path.join(m.root, 'opencompass', 'datasets'))
    named('opencompass.openicl.icl_evaluator', 'BaseEvaluator', 'AccEvaluator')
    named('opencompass.openicl.icl_inferencer', 'GenInferencer', 'PPLInferencer')
    named('opencompass.openicl.icl_prompt_template', 'PromptTemplate')
    named('opencompass.openicl.icl_retriever', 'ZeroRetriever')
    named('opencompass.datasets.base', 'BaseDataset')
    for mod, cls in [('arc', 'ARCDataset'), ('ceval', 'CEvalDataset'), ('cmmlu', 'CMMLUDataset'),
                     ('commonsenseqa', 'commonsenseqaDataset'), ('hellaswag', 'HellaswagDataset_V2'),
                     ('mmlu', 'MMLUDataset'), ('obqa', 'OBQADataset'), ('piqa', 'PIQADatasetV2'),
                     ('race', 'RaceDataset'), ('siqa', 'SiqaDatasetV3'), ('xiezhi', 'XiezhiDataset')]:
        named(f'opencompass.datasets.{mod}', cls)
    sys.modules['opencompass.utils'].get_data_path = lambda path, local_mode=False: path
    importlib.import_module('opencompass.datasets.circular')
    return importlib.import_module('opencompass.datasets.custom')


def class_names(v):
    """The completed dict as PromptLoom's conformance inputs hold configs: a class (or 'module.Class') as its name."""
    if isinstance(v, dict):
        return {k: (x.rsplit('.', 1)[-1] if k == 'type' and isinstance(x, str) else
                    x.__name__ if k == 'type' and isinstance(x, type) else class_names(x)) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [class_names(x) for x in v]
    return v


def with_classes(entry):
    """A config names evaluators by class: the JSON input's names become classes again (stand-ins)."""
    out = dict(entry)
    if isinstance(out.get('evaluator'), str):
        out['evaluator'] = type(out['evaluator'], (), {'__module__': 'opencompass.openicl.icl_evaluator'})
    return out


def run_case(custom, inp):
    root = tempfile.mkdtemp(prefix='pl-custom-')
    cwd = os.getcwd()
    try:
        for rel, text in inp['files'].items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)) or root, exist_ok=True)
            with open(os.path.join(root, rel), 'w', encoding='utf-8') as f:
                f.write(text)
        os.chdir(root)
        try:
            ds = custom.make_custom_dataset_config(with_classes(inp['entry']))
        except Exception as e:  # noqa: BLE001 - upstream's own failure is the expected output
            return {'error': f'{type(e).__name__}: {e}', 'error_type': type(e).__name__}
        out = {'dataset': class_names(ds)}
        if ds['type'].endswith('.CircularCustomDataset'):
            kwargs = {k: v for k, v in ds.items() if k not in ('abbr', 'type', 'reader_cfg', 'infer_cfg', 'eval_cfg')}
            try:
                out['rows'] = [dict(r) for r in custom.CircularCustomDataset.load(**kwargs)]
            except Exception as e:  # noqa: BLE001
                out['rows_error'] = f'{type(e).__name__}: {e}'
                out['error_type'] = type(e).__name__
        return json.loads(json.dumps(out, ensure_ascii=False))
    finally:
        os.chdir(cwd)
        shutil.rmtree(root)


def jsonl(*rows):
    return ''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in rows)


MCQ = [{'question': '下列哪个是哺乳动物？', 'A': '鲨鱼', 'B': '海豚', 'C': '金枪鱼', 'D': '海马', 'answer': 'B'},
       {'question': 'Which gas do plants take in?', 'A': 'oxygen', 'B': 'nitrogen', 'C': 'carbon dioxide',
        'D': 'helium', 'answer': 'C'}]
QA = [{'question': 'Translate to English: 你好', 'answer': 'Hello'}, {'question': 'Translate: 谢谢', 'answer': 'Thanks'}]
SUMMARY = [{'article': 'The city opened a new library on Monday.', 'summary': 'New library opens.'}]


def case(cid, entry, files):
    return {'id': f'oc-custom-{cid}', 'category': 'custom-dataset',
            'input': {'kind': 'custom-dataset', 'entry': entry, 'files': files}}


def cases():
    reason = 'data/compassbench_v1.1/reason/EN_Commonsense.jsonl'
    lang = 'data/compassbench_v1.1/language/'
    return [
        case('circular-mcq-gen', dict(path=reason, abbr='reasonbench_en_commonsense_circular', data_type='circular-mcq',
                                      infer_method='gen'), {reason: jsonl(*MCQ)}),
        case('circular-mcq-ppl', dict(path=reason, abbr='reasonbench_en_commonsense_circular', data_type='circular-mcq',
                                      infer_method='ppl'), {reason: jsonl(*MCQ)}),
        case('mcq-gen-inferred', dict(path=reason), {reason: jsonl(*MCQ)}),
        case('mcq-ppl', dict(path=reason, abbr='commonsense_ppl', data_type='mcq', infer_method='ppl'), {reason: jsonl(*MCQ)}),
        case('qa-gen-summary', dict(path=lang + 'content_summarization_en.jsonl', abbr='content_summarization_en',
                                    data_type='qa', infer_method='gen', output_column='summary',
                                    human_prompt='{article}\nSummary of the article is:\n', evaluator='RougeEvaluator'),
             {lang + 'content_summarization_en.jsonl': jsonl(*SUMMARY)}),
        case('qa-gen-translation', dict(path=lang + 'translation.jsonl', abbr='translation', data_type='qa',
                                        infer_method='gen', evaluator='BleuFloresEvaluator'),
             {lang + 'translation.jsonl': jsonl(*QA)}),
        case('qa-no-answer', dict(path='data/open.jsonl'), {'data/open.jsonl': jsonl({'question': 'Tell a story.'})}),
        case('meta-json', dict(path=reason, abbr='with_meta', data_type='circular-mcq', infer_method='gen'),
             {reason: jsonl(*MCQ), reason + '.meta.json': json.dumps({'human_prompt': '{question}\nA) {A}\nB) {B}\nC) {C}\nD) {D}',
                                                                       'bot_prompt': 'The answer is {answer}'})}),
        case('meta-path', dict(path=reason, meta_path='data/my_meta.json', infer_method='ppl'),
             {reason: jsonl(*MCQ), 'data/my_meta.json': json.dumps({'abbr': 'from_meta', 'options': ['A', 'B']})}),
        case('csv', dict(path='data/quiz.csv', abbr='quiz'),
             {'data/quiz.csv': 'question,A,B,answer\n"Is 7 prime, really?",yes,no,A\n"2, or 3?",2,3,B\n'}),
        case('test-range', dict(path=reason, abbr='first_two', test_range='[0:2]'), {reason: jsonl(*MCQ)}),
        case('answer-not-an-option', dict(path=reason, abbr='odd', data_type='circular-mcq'),
             {reason: jsonl(dict(MCQ[0], answer='E'), MCQ[1])}),
        case('template-given', dict(path=reason, abbr='own', template='{question}\nAnswer:'), {reason: jsonl(*MCQ)}),
        case('bad-ext', dict(path='data/items.json', abbr='items'), {'data/items.json': json.dumps(MCQ)}),
        case('unsupported-combination', dict(path=lang + 'translation.jsonl', data_type='qa', infer_method='ppl'),
             {lang + 'translation.jsonl': jsonl(*QA)}),
        case('ppl-bot-prompt-field', dict(path=reason, data_type='mcq', infer_method='ppl', bot_prompt='{question} -> {answer}'),
             {reason: jsonl(*MCQ)}),
        case('circular-missing-option', dict(path=reason, data_type='circular-mcq'),
             {reason: jsonl(MCQ[0], {'question': 'q', 'A': 'a', 'B': 'b', 'answer': 'A'})}),
    ]


def main():
    tree, shared, out_file = sys.argv[1], sys.argv[2], sys.argv[3]
    custom = load(tree, shared)
    with open(out_file, 'w', encoding='utf-8') as f:
        for c in cases():
            rec = {'id': c['id'], 'family': 'opencompass-custom', 'upstream': UPSTREAM, 'category': c['category'],
                   'input': c['input'], 'expected': run_case(custom, c['input'])}
            f.write(json.dumps(rec, ensure_ascii=False) + '\n')
    print(f'wrote {len(cases())} cases to {out_file}', file=sys.stderr)


if __name__ == '__main__':
    main()
