#!/usr/bin/env python3
# Writes order-tables.json: what CPython 3.11 gives for < <= > >=, sorted() (with reverse), min(), max(), len(),
# list(iter(v)), `in`, `a, b = v` / `a, *rest, b = v` and dict-key identity (hash and ==) on the values shared/python/values.ts (PyRuntime) is tested on. Run by hand
# (python3 gen-order-tables.py) when cases are added; the tests read only the JSON.
import json, sys
from pathlib import Path

from tagged import tag

def outcome(f):
    try:
        return {'ok': tag(f())}
    except Exception as e:
        return {'err': f'{type(e).__name__}: {e}'}

# Scalars and containers (no NaN inside a container: CPython's identity shortcut would decide those items).
scalars = [None, False, True, 0, 1, -1, 2, 2 ** 53, 2 ** 53 + 1, 2 ** 64, 0.5, 1.0, -0.0, float(2 ** 53), float(2 ** 64), float('inf'),
           float('nan'), '', 'a', 'ab', 'b', 'B', 'é', '\uffff', '\U0001F600', '\ue000', '\ud800', 'a\ud800', 'a\U0001F600', '\U0001F601']
containers = [[], [1], [1, 2], [1, 'a'], [2], [1, 2.5], ['a', 'b'], (), (1,), (1, 2), (1, 'a'), (2, 'a'), set(), {1}, {1, 2}, {2, 3},
              {}, {'a': 1}, {1: 'x', 'k': None}, [[1, 2], [1]], [(1,)], ([1],)]
values = scalars + containers
ops = {'<': lambda a, b: a < b, '<=': lambda a, b: a <= b, '>': lambda a, b: a > b, '>=': lambda a, b: a >= b}
compare = [{'a': tag(a), 'b': tag(b), **{op: outcome(lambda: f(a, b)) for op, f in ops.items()}} for a in values for b in values]

lengths = [{'v': tag(v), **outcome(lambda: len(v))} for v in values]
iters = [{'v': tag(v), **outcome(lambda: list(iter(v)))} for v in values]

def unpack(v, starred):
    if starred:
        a, *rest, b = v
        return [a, b]
    a, b = v
    return [a, b]
unpacks = [{'v': tag(v), 'starred': st, **outcome(lambda: unpack(v, st))} for v in values for st in (False, True)]

# Dict keys: whether two hashable values are one key (len({a, b}) == 1), and which values hash() refuses. NaN is
# left out: each NaN object is its own key, which no family's keys model.
def hashable(v):
    try:
        hash(v)
        return True
    except TypeError:
        return False
keyed = [v for v in values if hashable(v) and v == v]
keys = [{'a': tag(a), 'b': tag(b), 'same': len({a, b}) == 1} for a in keyed for b in keyed]
hashes = [{'v': tag(v), **({'ok': True} if hashable(v) else outcome(lambda: hash(v)))} for v in values if v == v]

items = [None, 1, 1.0, True, 'a', 'é', '\U0001F600', '', 'ab', [1], (1,), (1, [2]), {}, 2]
holders = ['abc', 'a\U0001F600b', '', [1, 'a', (1,)], (True, 'ab'), {1, 'a'}, {'a': 1, 1: 2, (1,): 3}, {}, [], 1, None, [[1]]]
contains = [{'item': tag(x), 'container': tag(c), **outcome(lambda: x in c)} for x in items for c in holders]

lists = [[3, 1, 2], [1, True, 1.0, 0, False], ['b', 'A', 'a', 'B', '\U0001F600', '\uffff'], [[2], [1, 2], [1], []],
         [(1, 'b'), (1, 'a'), (0, 'z')], [1, 'a'], ['a', 1], [2, 1, 'a'], [1, 2, None], [0.5, 2 ** 53 + 1, float(2 ** 53), -1],
         [{1}, {1, 2}, {3}], [2.5, 2, float('inf'), -float('inf')], [{'a': 1}, {'a': 1}], [{'a': 1}, {'b': 2}]]
sorts = [{'items': tag(l), 'reverse': r, **outcome(lambda: sorted(l, reverse=r))} for l in lists for r in (False, True)]
extremes = [{'fn': fn.__name__, 'items': tag(l), **outcome(lambda: fn(l))} for l in lists for fn in (min, max)]

out = {'python': sys.version.split()[0], 'compare': compare, 'len': lengths, 'iter': iters, 'contains': contains,
       'sorted': sorts, 'extreme': extremes, 'unpack': unpacks, 'keys': keys,
       'hash': hashes}
# One row a line: the file stays readable in a diff without an indented tree's hundred thousand lines.
text = '{"python": %s,\n' % json.dumps(out.pop('python'))
text += ',\n'.join('"%s": [\n%s\n]' % (k, ',\n'.join(json.dumps(r, separators=(',', ':')) for r in rows)) for k, rows in out.items())
Path(__file__).with_name('order-tables.json').write_text(text + '\n}\n')
print(len(compare) * 4, len(lengths), len(iters), len(contains), len(sorts), len(extremes), len(unpacks), len(keys), len(hashes))
