#!/usr/bin/env python3
# Writes format-tables.json: what CPython 3.11 gives for format(value, spec), str.format and printf-style %
# on the values shared/python/format.ts formats. Run by hand (python3 gen-format-tables.py) when cases are added;
# the tests read only the JSON. Values are tagged trees as in cpython-tables (floats as IEEE-754 bits).
import json, random, sys
from pathlib import Path

from tagged import tag

def outcome(f):
    try: return {'ok': f()}
    except Exception as e: return {'err': f'{type(e).__name__}: {e}'}

random.seed(20261125)
values = [0, 1, -1, 7, 255, -255, 1234, 1234567, -9876543210, 2 ** 64, True, False, None, 'abc', '', 'é中', 'a\U0001f600b',
          0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 1.0, 100.0, 1234.5678, -0.0001, 1e-5, 1.5e-7, 1e16, 1e20, 1e22, 123456789.0,
          3.14159265358979, 2 / 3, float('inf'), float('-inf'), float('nan'), 1.7976931348623157e308, 5e-324, [1, 'a'], {'k': 1}]
specs = ['', 's', 'd', 'x', 'X', 'o', 'b', 'c', 'n', 'e', 'E', 'f', 'F', 'g', 'G', '%', '5', '<5', '>5', '^5', '^6', '=8',
         '*^9', '0', '05', '08', '010', '+', '-', ' ', '+5', ' 5', '#x', '#o', '#b', '#X', '#010x', '+#x', ',', '_', ',d', '_x',
         '_b', ',x', '010,', '012,.2f', '09_', '.0', '.1', '.2', '.3', '.10', '.17', '.20', '.0f', '.1f', '.2f', '.3f',
         '.10f', '.25f', '.0e', '.3e', '.10e', '.0g', '.1g', '.3g', '.10g', '#.0f', '#.0e', '#g', '#.3g', '#', 'z', 'z.2f',
         'z.0f', '+.2e', ' .3f', '>10.3f', '<10.2e', '^12.4g', '=+10.2f', 'x<10', '0<6', 'é>4', '\U0001f600^5', '.2s', '>5.1s',
         '10.4%', '.0%', '#.0%', '15,.3f', ',.2f', '_.2f', ',g', ',e', ',%', '.3n', 'ss', 'd5', '.', ',_', '_,', '=5',
         '99999999999999999999', '+c', '#c', '.2c', '5c', 'z5', '#s', ',s', 'q', '\x00']
for _ in range(150):
    s = ''
    if random.random() < .3: s += random.choice(['', 'x', '0', '*']) + random.choice('<>=^')
    if random.random() < .3: s += random.choice('+- ')
    if random.random() < .1: s += 'z'
    if random.random() < .2: s += '#'
    if random.random() < .2: s += '0'
    if random.random() < .5: s += str(random.randint(0, 25))
    if random.random() < .2: s += random.choice(',_')
    if random.random() < .5: s += '.' + str(random.randint(0, 20))
    if random.random() < .7: s += random.choice('bcdeEfFgGnosxX%')
    specs.append(s)

fmt_rows = [{'value': tag(v), 'spec': s, **outcome(lambda: format(v, s))} for v in values for s in specs]

A = (1, 'two', 3.5, [4, 5], {'k': 'v', '0': 'zero', 'n': [1, 2]})
K = {'a': 1, 'b': 'bee', 'c': 2.5, 'd': {'x': 'ex', 'y': [10, 20]}, 'e': [1, 2, 3], 'w': 6, 'p': '.2f', 'é': 'e'}
templates = ['', 'plain', '{{}}', '{{x}}', '}}{{', '{', '}', '{{}', 'a}b', '{0}', '{}', '{} {}', '{}{}{}', '{}{}{}{}{}{}',
             '{1}{0}', '{5}', '{0}{}', '{}{0}', '{a}', '{b!r}', '{b!s}', '{b!a}', '{é!a}', '{é}', '{b!x}', '{b!}', '{b!',
             '{b!r', '{b!rx}', '{b!r:>8}', '{a:>5}', '{a:{w}}', '{c:{p}}', '{c:{w}.{a}f}', '{a:{w}{p}}', '{a:{{}}}',
             '{:{}}', '{:{:{}}}', '{d[x]}', '{d[y]}', '{d[y][1]}', '{d[y][5]}', '{d[z]}', '{e[0]}', '{e[x]}', '{e[-1]}',
             '{d.x}', '{a.real}', '{b[0]}', '{b[9]}', '{b[x]}', '{a[0]}', '{0[0]}', '{3[1]}', '{4[k]}', '{4[0]}',
             '{4[n][0]}', '{3[0]x}', '{3[]}', '{0.}', '{a[}', '{a[}]}', '{a', '{a:', '{a{}', '{a:{b}', '{missing}',
             '{ a}', '{a }', '{0x}', '{00}', '{01}', '{99999999999999999999}', '{a:99999999999999999999}',
             '{a}{b}{c}', 'x{a}y{b}z', '{a:}', '{!r}', '{:}', '{:>{w}}', '{0:{1}}', '{a}{', '}{a}', '{z}{',
             '{a:x<{w}d}', '{b:^{w}}', '{c:e}', '{c:%}', '{a:c}', '{b:d}', '{a:s}', '{e:>5}', '{e}', '{d}', '{e!r:>20}']
str_rows = [{'template': t, **outcome(lambda: t.format(*A, **K))} for t in templates]
str_args = {'args': tag(A), 'kwargs': tag(K)}

pct = [('%s', 'x'), ('%s', (1, 2)), ('%s', ((1, 2),)), ('%r', 'x'), ('%a', 'é'), ('%d', 3), ('%d', 3.9), ('%d', -3.9),
       ('%d', True), ('%i', 7), ('%u', 7), ('%d', 'x'), ('%d', None), ('%d', float('nan')), ('%d', float('inf')),
       ('%d', 1e30), ('%x', 255), ('%X', 255), ('%o', 8), ('%#x', 255), ('%#X', 255), ('%#o', 8), ('%x', 1.5),
       ('%x', -255), ('%5d', 42), ('%-5d|', 42), ('%05d', -42), ('%+d', 42), ('% d', 42), ('%+05d', 42), ('%.3d', 7),
       ('%5.3d', -7), ('%#08x', 255), ('%f', 1.5), ('%f', 2), ('%f', True), ('%f', 'x'), ('%.2f', 2.675),
       ('%.0f', 2.5), ('%.0f', 3.5), ('%#.0f', 3.0), ('%e', 12345.678), ('%.2E', 0.000123), ('%g', 1e-5),
       ('%g', 123456789.0), ('%#g', 1.0), ('%G', 1e300), ('%10.3f|', -1.5), ('%-10.3f|', 1.5), ('%010.3f', -1.5),
       ('%f', float('inf')), ('%010f', float('nan')), ('%+f', float('nan')), ('%c', 65), ('%c', 'é'), ('%c', 'ab'),
       ('%c', -1), ('%c', 1.5), ('%5c|', 'x'), ('%-5c|', 'x'), ('%%', ()), ('100%%', ()), ('%', ()), ('%s %', (1,)),
       ('%5%', ()), ('%5%', (1,)), ('%q', 1), ('%é', 1), ('%s', ()), ('%s %s', (1,)), ('%s', (1, 2)), ('abc', 1),
       ('abc', ()), ('abc', [1]), ('abc', {'a': 1}), ('%s', [1]), ('%s', {'a': 1}), ('%(a)s', {'a': 1}),
       ('%(a)s %(b)r', {'a': 1, 'b': 'x'}), ('%(a)s', 1), ('%(a)s', (1,)), ('%(z)s', {'a': 1}), ('%(a', {'a': 1}),
       ('%(a)s %s', {'a': 1}), ('%(a)*d', {'a': 1}), ('%(a)5.1f', {'a': 2.25}), ('%((a))s', {'(a)': 1}),
       ('%*d', (5, 1)), ('%-*d|', (5, 1)), ('%*d|', (-5, 1)), ('%.*f', (2, 1.5)), ('%*.*f|', (8, 3, 3.14159)),
       ('%*d', ('a', 1)), ('%ld', 1), ('%hd', 2), ('%Lf', 1.5), ('%5.1s|', 'abc'), ('%.0s|', 'abc'), ('%-6s|', 'ab'),
       ('%05s', 'a'), ('%s and %r', ('a', 'b')), ('%(a)s', [1]), ('%s', None), ('%s', 2 ** 70), ('%d', 2 ** 70),
       ('%x', 2 ** 70), ('%.3s', 'é中文x'), ('%s|%d', ('a', 2.5))]
pct_rows = [{'template': t, 'values': tag(v), **outcome(lambda: t % v)} for t, v in pct]

out = {'python': sys.version.split()[0], 'format': fmt_rows, 'strFormat': {**str_args, 'rows': str_rows}, 'percent': pct_rows}
Path(__file__).with_name('format-tables.json').write_text(json.dumps(out, ensure_ascii=False, indent=0) + '\n')
print(len(fmt_rows), len(str_rows), len(pct_rows))
