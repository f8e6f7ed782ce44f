"""The shared harness's oc_run.py with the upstream classes extra_goldens.py adds (OlympiadBench templates,
XiezhiRetriever, CLP / LL / SWCELoss inferencers), for measure-renders.ts on OpenCompass trees. Same arguments as oc_run.py:

    python3 oc_run_extra.py CHECKOUT OUT.jsonl --cases MODULE --commit ID      (SHARED env: ../shared)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extra_goldens  # noqa: E402

m, oc_run = extra_goldens.load(sys.argv[1], os.environ.get('SHARED', os.path.join(os.path.dirname(__file__), '../../../../shared')))
oc_run.load_opencompass = lambda root: m
real_case = oc_run.run_pipeline_case


def run_case(m_, inp, models):
    run = {'CLPInferencer': extra_goldens.run_clp_case, 'LLInferencer': extra_goldens.run_ll_case,
           'SWCELossInferencer': extra_goldens.run_swce_case}.get(inp['infer_cfg'].get('inferencer', {}).get('type'))
    return run(m_, oc_run, inp, models) if run else real_case(m_, inp, models)


oc_run.run_pipeline_case = run_case
oc_run.main()
