#!/usr/bin/env python3
# Writes str-method-tables.json: what CPython 3.11's str methods give for the cases shared/python/str-methods.ts
# is tested on. Run by hand (python3 gen-str-method-tables.py) when cases are added; the tests read only the JSON.
import json, sys
from pathlib import Path

strings = ['', 'abc', '  a b  c  ', '\t\n x \x1c\x85\u3000', '\ufeffx\ufeff', 'a,b,,c', ',a,', 'one two three', 'é😀x😀',
           'line1\nline2\r\nline3\rline4\x0bline5\x0c\x1c\x1d\x1e\x85\u2028\u2029end\n', 'Hello wORLD', "they're 1st", 'ǅungla ǆ', 'ᾀᾳ ß ﬁ',
           '-42', '+7', 'xyxzyx', 'aaaa', '12', '١٢', '½', 'ABC', 'abc1', 'Ab Cd', ' ', 'a\u00a0b']
calls = []
for s in strings:
    calls += [('strip', s, []), ('lstrip', s, []), ('rstrip', s, []), ('strip', s, ['xa ']), ('rstrip', s, ['x😀']),
              ('split', s, []), ('split', s, [None, 1]), ('split', s, [',']), ('split', s, [',', 1]), ('split', s, [' ', 2]),
              ('rsplit', s, []), ('rsplit', s, [None, 1]), ('rsplit', s, [',', 1]), ('splitlines', s, []),
              ('splitlines', s, [True]), ('replace', s, ['a', 'X']), ('replace', s, ['', '-']), ('replace', s, ['', '-', 2]),
              ('replace', s, ['a', '', 1]), ('replace', s, ['x', 'yy', 0]), ('find', s, ['x']), ('rfind', s, ['x']),
              ('find', s, ['']), ('index', s, ['b']), ('rindex', s, ['x']), ('count', s, ['a']), ('count', s, ['']), ('count', s, ['aa']),
              ('partition', s, [',']), ('rpartition', s, [',']), ('partition', s, ['']), ('title', s, []), ('capitalize', s, []),
              ('swapcase', s, []), ('upper', s, []), ('lower', s, []), ('zfill', s, [6]), ('ljust', s, [8]), ('rjust', s, [8, '*']),
              ('center', s, [7]), ('center', s, [8, '.']), ('center', s, [5, 'ab']), ('removeprefix', s, ['a']), ('removesuffix', s, ['c']),
              ('isdigit', s, []), ('isdecimal', s, []), ('isnumeric', s, []), ('isalpha', s, []), ('isalnum', s, []), ('isspace', s, []),
              ('isupper', s, []), ('islower', s, []), ('istitle', s, []), ('split', s, ['']), ('startswith', s, ['a']), ('endswith', s, ['c'])]
rows = []
for name, s, args in calls:
    try:
        r = getattr(s, name)(*args)
        out = {'ok': list(r) if isinstance(r, (list, tuple)) else r}
    except Exception as e:
        out = {'err': f'{type(e).__name__}: {e}'}
    rows.append({'method': name, 's': s, 'args': args, **out})
Path(__file__).with_name('str-method-tables.json').write_text(json.dumps({'python': sys.version.split()[0], 'rows': rows}, ensure_ascii=False, indent=0) + '\n')
print(len(rows))
