"""The shared harness's oc_run.py with the upstream classes extra_goldens.py adds (OlympiadBench templates,
XiezhiRetriever, CLP / LL / SWCELoss / PPLOnly / SC / Attack / ToT inferencers), for measure-renders.ts on OpenCompass trees. A case whose input
has `custom_entry` (a custom dataset dict, without type) and `custom_cwd` gets its reader_cfg and infer_cfg from
upstream's make_custom_dataset_config run in that folder (custom_goldens.py), as the run fills it in before
anything else. Same arguments as oc_run.py:

    python3 oc_run_extra.py CHECKOUT OUT.jsonl --cases MODULE --commit ID      (SHARED env: ../shared)
"""
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import custom_goldens  # noqa: E402
import extra_goldens  # noqa: E402

m, oc_run = extra_goldens.load(sys.argv[1], os.environ.get('SHARED', os.path.join(os.path.dirname(__file__), '../../../../shared')))
oc_run.load_opencompass = lambda root: m
real_case = oc_run.run_pipeline_case


def run_case(m_, inp, models):
    run = {'CLPInferencer': extra_goldens.run_clp_case, 'LLInferencer': extra_goldens.run_ll_case,
           'SWCELossInferencer': extra_goldens.run_swce_case, 'PPLOnlyInferencer': extra_goldens.run_recorded_gen_case,
           'SCInferencer': extra_goldens.run_recorded_gen_case,
           'AttackInferencer': extra_goldens.run_attack_case, 'ToTInferencer': extra_goldens.run_tot_case}.get(inp['infer_cfg'].get('inferencer', {}).get('type'))
    return run(m_, oc_run, inp, models) if run else real_case(m_, inp, models)


def fill_custom(cases, custom):
    """The completed reader_cfg / infer_cfg of every custom case, from the real make_custom_dataset_config."""
    for c in cases:
        inp = c['input']
        entry = inp.pop('custom_entry', None)
        if entry is None:
            continue
        cwd = os.getcwd()
        os.chdir(inp.pop('custom_cwd'))
        try:
            ds = custom.make_custom_dataset_config(custom_goldens.with_classes(entry))
            inp['reader_cfg'], inp['infer_cfg'] = custom_goldens.class_names(ds['reader_cfg']), custom_goldens.class_names(ds['infer_cfg'])
        except Exception as e:  # noqa: BLE001 - upstream fails before the dataset; the render fails on it
            inp['reader_cfg'], inp['infer_cfg'] = {}, {'custom_error': f'{type(e).__name__}: {e}'}
        finally:
            os.chdir(cwd)


oc_run.run_pipeline_case = run_case
fill_custom(importlib.import_module(sys.argv[sys.argv.index('--cases') + 1]).CASES, custom_goldens.import_custom(m))
oc_run.main()
