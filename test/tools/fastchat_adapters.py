#!/usr/bin/env python3
"""Writes test/unit/fastchat/model-adapters.json: which adapter and conversation template FastChat's
get_conversation_template(model_path) picks — what OpenCompass's `fastchat_template=NAME` renders through — at
FastChat HEAD (0e6d3e4b) and at v0.2.36 (b21d0f78, the last PyPI release), for every string literal the HEAD
adapters test (as itself, as `org/<it>-7b` and upper-cased).

    git -C FASTCHAT archive 0e6d3e4b fastchat | tar -x -C /tmp/fc-head
    git -C FASTCHAT archive v0.2.36 fastchat | tar -x -C /tmp/fc-v0236
    python3 test/tools/fastchat_adapters.py /tmp/fc-head /tmp/fc-v0236 test/unit/fastchat/model-adapters.json

Runs in a fresh process per tree (the module caches get_model_adapter). torch, transformers, accelerate, psutil,
peft, huggingface_hub, tqdm and FastChat's model loaders and stream generators are stubbed (harness-goldens/stubs.py):
the adapters' match() and get_default_conv_template() use none of them.
PeftModelAdapter is left out: it reads adapter_config.json from the model folder.
"""
import contextlib, io, json, re, subprocess, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def resolve(tree, paths):
    sys.path.insert(0, str(HERE / 'harness-goldens'))
    sys.path.insert(0, tree)
    import stubs
    # The model loaders' and stream generators' modules run torch code at import; the adapters never call them.
    loaders = [f'fastchat.model.{m}' for m in ('compression', 'llama_condense_monkey_patch', 'model_chatglm', 'model_codet5p', 'model_falcon',
                                               'model_yuan2', 'model_exllama', 'model_xfastertransformer', 'model_cllm', 'monkey_patch_non_inplace')]
    stubs.install(['torch', 'transformers', 'accelerate', 'psutil', 'peft', 'huggingface_hub', 'tqdm', 'fastchat.modules', 'fastchat.utils', *loaders])
    from fastchat.model import model_adapter as ma
    rows = []
    for p in paths:
        with contextlib.redirect_stdout(io.StringIO()):  # MPT's adapter prints a warning
            adapter = ma.get_model_adapter(p)
            if type(adapter).__name__ == 'PeftModelAdapter':
                continue
            rows.append({'path': p, 'adapter': type(adapter).__name__, 'template': adapter.get_default_conv_template(p).name})
    return rows


if __name__ == '__main__':
    if sys.argv[1] == '--one':
        print(json.dumps(resolve(sys.argv[2], json.loads(sys.stdin.read()))))
        sys.exit()
    head, v0236, out = sys.argv[1:4]
    src = (Path(head) / 'fastchat/model/model_adapter.py').read_text()
    literals = sorted(set(re.findall(r'"([^"\s]{2,48})"', src[src.index('class BaseModelAdapter'):])))
    literals = [s for s in literals if not s.startswith(('.', '/', '<', '{', '%')) and '\\' not in s]
    paths = [q for s in literals for q in (s, f'org/{s}-7b', s.upper())]
    table = {}
    for version, tree in (('head', head), ('v0.2.36', v0236)):
        r = subprocess.run([sys.executable, __file__, '--one', tree], input=json.dumps(paths), capture_output=True, text=True, check=True)
        table[version] = json.loads(r.stdout)
    rows = ',\n'.join(json.dumps(r) for r in table['head'])
    text = '{"head": [\n%s\n],\n"v0.2.36": [\n%s\n]}\n' % (rows, ',\n'.join(json.dumps(r) for r in table['v0.2.36']))
    Path(out).write_text(text)
    print({k: len(v) for k, v in table.items()})
