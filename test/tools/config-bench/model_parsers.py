"""Which template parser, and which default meta template, each model class of OpenCompass / AISBench uses.

    python3 model_parsers.py OC_ROOT AIS_ROOT > shared/models/model-classes.json

Read from the classes themselves (their __init__ and their base classes), not from their names: a class sets
`self.template_parser = LMTemplateParser(…)` or `APITemplateParser(…)` (or `_get_meta_template(…)`, an
APITemplateParser over a default meta template); a default is the dict a class falls back to when
`meta_template` is None (`self.meta_template = meta_template if meta_template else dict(…)`). Classes that
set neither inherit from their bases. `ppl` is whether the get_ppl the class resolves to scores (False: its body
is only `raise NotImplementedError(…)`, as BaseModel's and BaseAPIModel's are — PPLInferencer then fails on the
model whatever parser it uses); `is_api` the class attribute it resolves to (BaseModel False, BaseAPIModel True:
CLPInferencer refuses such a model); `loglikelihood` whether it has a get_loglikelihood at all (LLInferencer's
AttributeError otherwise). The output is checked in and read by main/services/models.
"""
import ast
import json
import os
import sys


def literal(node):
    """dict(...)/{...}/[...]/constants as values; anything else None."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [literal(x) for x in node.elts]
    if isinstance(node, ast.Dict):
        return {literal(k): literal(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'dict' and not node.args:
        return {k.arg: literal(k.value) for k in node.keywords}
    raise ValueError(ast.dump(node)[:80])


def default_of(expr):
    """`meta_template if meta_template else D`, `D if not meta_template else meta_template`, `meta_template or D`."""
    try:
        if isinstance(expr, ast.IfExp):
            for side in (expr.body, expr.orelse):
                if not (isinstance(side, ast.Name) and side.id == 'meta_template'):
                    return literal(side)
        if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.Or):
            return literal(expr.values[-1])
    except ValueError:
        return None
    return None


def scan(root, package):
    classes = {}
    helper_defaults = {}
    files = []
    for d, _, names in os.walk(os.path.join(root, *package.split('.'))):
        files += [os.path.join(d, n) for n in names if n.endswith('.py')]
    trees = {}
    for f in sorted(files):
        try:
            trees[f] = ast.parse(open(f, encoding='utf-8').read())
        except SyntaxError:
            continue
    # _get_meta_template(meta_template) helpers: APITemplateParser(meta_template or default_meta_template)
    for f, tree in trees.items():
        for fn in [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == '_get_meta_template']:
            local = {}
            for st in fn.body:
                if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
                    try:
                        local[st.targets[0].id] = literal(st.value)
                    except ValueError:
                        pass
            helper_defaults[f] = local.get('default_meta_template')
    for f, tree in trees.items():
        for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            info = {'bases': [b.id if isinstance(b, ast.Name) else getattr(b, 'attr', '') for b in cls.bases], 'file': os.path.relpath(f, root)}
            get_ppl = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == 'get_ppl'), None)
            if get_ppl:
                body = [st for st in get_ppl.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
                info['ppl'] = not (len(body) == 1 and isinstance(body[0], ast.Raise))
            if any(isinstance(n, ast.FunctionDef) and n.name == 'get_loglikelihood' for n in cls.body):
                info['loglikelihood'] = True
            for st in cls.body:
                target = st.target if isinstance(st, ast.AnnAssign) else st.targets[0] if isinstance(st, ast.Assign) else None
                if isinstance(target, ast.Name) and target.id == 'is_api' and isinstance(st.value, ast.Constant):
                    info['is_api'] = bool(st.value.value)
            init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == '__init__'), None)
            if init:
                self_meta = None
                for st in ast.walk(init):
                    if not isinstance(st, ast.Assign) or not isinstance(st.targets[0], ast.Attribute):
                        continue
                    attr = st.targets[0].attr
                    if attr == 'meta_template':
                        d = default_of(st.value)
                        if d is not None:
                            self_meta = d
                    if attr == 'template_parser' and isinstance(st.value, ast.Call):
                        fname = getattr(st.value.func, 'id', getattr(st.value.func, 'attr', ''))
                        if fname == 'LMTemplateParser':
                            info['parser'] = 'lm'
                        elif fname == 'APITemplateParser':
                            info['parser'] = 'api'
                            arg = st.value.args[0] if st.value.args else None
                            if arg is not None and default_of(arg) is not None:
                                self_meta = default_of(arg)
                        elif fname == '_get_meta_template':
                            info['parser'] = 'api'
                            self_meta = next((v for v in helper_defaults.values() if v), None)
                if self_meta is not None:
                    info['default_meta_template'] = self_meta
            classes.setdefault(cls.name, info)
    out = {}

    def inherited(name, key, seen=()):
        c = classes.get(name)
        if not c or name in seen:
            return None
        if key in c:
            return c[key]
        for b in c['bases']:
            r = inherited(b, key, seen + (name,))
            if r is not None:
                return r
        return None

    def resolve(name, seen=()):
        c = classes.get(name)
        if not c or name in seen:
            return {}
        if 'parser' in c:
            return {k: c[k] for k in ('parser', 'default_meta_template') if k in c}
        for b in c['bases']:
            r = resolve(b, seen + (name,))
            if r:
                # A subclass that sets only a default keeps its base's parser.
                return {**r, **({'default_meta_template': c['default_meta_template']} if 'default_meta_template' in c else {})}
        return {}
    for name in sorted(classes):
        r = resolve(name)
        if r:
            found = {k: inherited(name, k) for k in ('ppl', 'is_api', 'loglikelihood')}
            out[name] = {**r, **{k: v for k, v in found.items() if v is not None}}
    return out


def main():
    oc, ais = sys.argv[1], sys.argv[2]
    json.dump({'opencompass': scan(oc, 'opencompass.models'), 'aisbench': scan(ais, 'ais_bench.benchmark.models')}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
