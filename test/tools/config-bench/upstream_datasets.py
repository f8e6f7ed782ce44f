"""Upstream's dataset list for every dataset config of an OpenCompass / AISBench tree, by running the config.

    python3 upstream_datasets.py TREE_ROOT CONFIGS_DIR OUT.jsonl

CONFIGS_DIR opencompass/configs/chatml_datasets is read as the `chatml_datasets` of a run config: each file's
`datasets` entries go through upstream's consturct_chatml_datasets (chatml_goldens.py), as the run builds them.

TREE_ROOT is the checkout (the folder holding `opencompass/` or `ais_bench/`), CONFIGS_DIR the folder of
dataset configs under it (opencompass/configs/datasets, ais_bench/benchmark/configs/datasets). For each .py
file below CONFIGS_DIR it writes one line: {"file", "datasets": [...], "error"}.

The config is executed by CPython, as `opencompass run --datasets NAME` / `ais_bench --datasets NAME` do
(Config.fromfile, then every key ending in `_datasets`, in key order, concatenated: a dataset reached through
two such variables is listed twice). mmengine's `with read_base():` imports are reproduced by importing the
base config files as modules (the same namespace and order mmengine builds); library classes (PromptTemplate,
dataset classes, evaluators …) are replaced by stand-in classes that keep their name, and other third-party
modules (datasets, numpy, sympy …) by stand-in modules. The environment is emptied, as PromptLoom never reads
it. Values are written as JSON the way PromptLoom's conformance inputs hold them: a class becomes its name, a
dict with non-str keys {"__label_dict__": [[k, v], …]}.
"""
import builtins
import contextlib
import json
import os
import sys
import types

STDLIB = {'os', 'os.path', 'math', 'copy', 'itertools', 'json', 're', 'random', 'typing', 'string',
          'collections', 'functools', 'pathlib', 'glob', 'csv', 'enum', 'dataclasses', 'heapq'}
REAL_IMPORT = builtins.__import__


class StubModule(types.ModuleType):
    """A library module: any attribute is a stand-in class named like the real one."""

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        cls = type(name, (), {'__module__': self.__name__, '__init__': lambda s, *a, **k: None,
                              '__call__': lambda s, *a, **k: None})
        setattr(self, name, cls)
        return cls


READ_BASE_DEPTH = [0]


@contextlib.contextmanager
def read_base():
    """Inside it, an absolute import of a file under the tree is a config import, as mmengine's read_base makes it."""
    READ_BASE_DEPTH[0] += 1
    try:
        yield
    finally:
        READ_BASE_DEPTH[0] -= 1


class CfgDict(dict):
    """mmengine hands base-config values over as ConfigDict (addict): `.deepcopy()` and attribute access work."""

    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k)

    def deepcopy(self):
        import copy
        return copy.deepcopy(self)


def as_cfg(v):
    if isinstance(v, dict) and not isinstance(v, type):
        return CfgDict({k: as_cfg(x) for k, x in v.items()})
    if isinstance(v, list):
        return [as_cfg(x) for x in v]
    if isinstance(v, tuple):
        return tuple(as_cfg(x) for x in v)
    return v


def base_view(mod):
    """What `from base import …` binds under mmengine: converted copies of the base's variables."""
    view = types.ModuleType(os.path.splitext(os.path.basename(mod.__dict__.get('__file__', 'config')))[0])
    for k, v in vars(mod).items():
        if k.startswith('__') or isinstance(v, types.ModuleType):
            continue
        setattr(view, k, as_cfg(v))
    return view


class Loader:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.cache = {}

    def module_file(self, base, parts):
        p = os.path.join(base, *parts)
        for cand in (p + '.py', os.path.join(p, '__init__.py')):
            if os.path.isfile(cand):
                return cand
        return None

    def config_file(self, name, level, importer):
        parts = name.split('.') if name else []
        if level:
            base = os.path.dirname(importer)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            return self.module_file(base, parts)
        for prefix in ('opencompass.configs.', 'ais_bench.benchmark.configs.'):
            if name.startswith(prefix):
                return self.module_file(self.root, parts)
        if READ_BASE_DEPTH[0]:
            return self.module_file(self.root, parts)
        return None

    def load(self, path):
        path = os.path.abspath(path)
        if path in self.cache:
            return self.cache[path]
        mod = types.ModuleType(os.path.splitext(os.path.basename(path))[0])
        mod.__file__ = path
        self.cache[path] = mod
        g = mod.__dict__
        g['__builtins__'] = dict(vars(builtins), __import__=self.make_import(path))
        with open(path, encoding='utf-8') as f:
            code = compile(f.read(), path, 'exec')
        depth, READ_BASE_DEPTH[0] = READ_BASE_DEPTH[0], 0
        try:
            exec(code, g)
        finally:
            READ_BASE_DEPTH[0] = depth
        return mod

    def make_import(self, importer):
        def imp(name, globals=None, locals=None, fromlist=(), level=0):
            if name in ('mmengine', 'mmengine.config'):
                m = types.ModuleType(name)
                m.read_base = read_base
                m.config = m
                return m
            cfg = self.config_file(name, level, importer)
            if cfg is None and level and fromlist:
                # `from . import x`: x is a sibling config module.
                base = os.path.dirname(importer)
                pkg = types.ModuleType(name or '.')
                for n in fromlist:
                    f = self.module_file(base if not name else os.path.join(base, *name.split('.')), [n])
                    if f:
                        setattr(pkg, n, base_view(self.load(f)))
                return pkg
            if cfg is not None:
                return base_view(self.load(cfg))
            if level:
                raise ImportError(f'no config module {"." * level}{name} from {importer}')
            top = name.split('.')[0]
            if name in STDLIB or top in STDLIB:
                return REAL_IMPORT(name, globals, locals, fromlist, level)
            m = StubModule(name)
            if not fromlist:
                # `import a.b` binds `a`; attributes along the path are stand-in modules.
                root = StubModule(top)
                cur = root
                for part in name.split('.')[1:]:
                    nxt = StubModule(f'{cur.__name__}.{part}')
                    setattr(cur, part, nxt)
                    cur = nxt
                return root
            return m
        return imp


def to_json(v):
    if isinstance(v, type):
        return v.__name__
    if isinstance(v, types.FunctionType):
        return v.__name__
    if isinstance(v, dict):
        if all(isinstance(k, str) for k in v):
            return {k: to_json(x) for k, x in v.items()}
        return {'__label_dict__': [[to_json(k), to_json(x)] for k, x in v.items()]}
    if isinstance(v, (list, tuple, set)):
        return [to_json(x) for x in v]
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    return type(v).__name__


def main():
    root, configs_dir, out = sys.argv[1], sys.argv[2], sys.argv[3]
    configs_dir = os.path.join(root, configs_dir)  # "under" TREE_ROOT (an absolute path stays as it is)
    for k in list(os.environ):
        if k not in ('PATH', 'HOME', 'PYTHONPATH', 'LANG', 'LC_ALL'):
            del os.environ[k]
    files = []
    for d, _, names in os.walk(configs_dir):
        files += [os.path.join(d, n) for n in names if n.endswith('.py') and n != '__init__.py']
    files.sort()
    chatml = None
    if os.path.basename(os.path.normpath(configs_dir)) == 'chatml_datasets':
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import chatml_goldens  # noqa: E402
        chatml = chatml_goldens.construct_function(root)
    with open(out, 'w', encoding='utf-8') as fo:
        for path in files:
            rec = {'file': os.path.relpath(path, root)}
            try:
                mod = Loader(root).load(path)
                if chatml:
                    # A chatml_datasets config is read by a run config (`chatml_datasets = …datasets`, with
                    # `datasets = []`): the run's datasets are what consturct_chatml_datasets builds from it.
                    rec['datasets'] = json.loads(json.dumps(chatml(to_json(vars(mod)['datasets']))))
                    fo.write(json.dumps(rec, ensure_ascii=False) + '\n')
                    continue
                datasets = []
                for k, v in vars(mod).items():
                    # mmengine leaves functions, modules and classes out of the config.
                    if isinstance(v, (types.ModuleType, types.FunctionType, type)):
                        continue
                    if k.endswith('_datasets') and not k.startswith('__'):
                        datasets += list(v)
                rec['datasets'] = [to_json(d) for d in datasets]
                # A `*_datasets` dict adds its keys (str) to the list: the run fails on the first one, in
                # dataset_abbr_from_cfg (`cfg['path']` of a str).
                bad = [d for d in datasets if not isinstance(d, dict)]
                if bad:
                    try:
                        bad[0]['path']
                    except Exception as e:  # noqa: the error upstream's run would raise
                        rec['error'] = f'{type(e).__name__}: {e}'
            except BaseException as e:  # noqa: configs may raise anything, even SystemExit
                rec['error'] = f'{type(e).__name__}: {e}'
            fo.write(json.dumps(rec, ensure_ascii=False) + '\n')
    print(f'wrote {len(files)} configs to {out}', file=sys.stderr)


if __name__ == '__main__':
    main()
