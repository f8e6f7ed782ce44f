#!/usr/bin/env python3
# Writes cpython-tables.json: what CPython prints for the values the shared/python tests feed the TypeScript
# port. Run by hand (python3 gen-cpython-tables.py) when cases are added; the tests read only the JSON, so they
# need no Python. Floats travel as their IEEE-754 bit patterns (JSON has no nan, inf or -0.0).
import json, random, struct, sys
from pathlib import Path

from tagged import bits, tag

random.seed(20240601)
floats = [0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1.0, -1.0, 0.1, 0.2, 0.1 + 0.2, 0.3, 1 / 3, 2 / 3,
          100.0, 2.5, 123456789.125, 1e-4, 1.5e-4, 9.999e-5, 1e-5, 1.2345e-5, -2.5e-7, 1e-7, 5e-324, 2.2250738585072014e-308,
          1e15, 1e16, 9999999999999998.0, 1.2345678901234567e16, 12345678901234567.0, 1e17, 1e21, 1e22, 2.5e20,
          1.7976931348623157e308, -1.5e300, float(2 ** 53), float(2 ** 53 + 2), float(2 ** 60), 0.5, 1e-323, 3.14159,
          123.456, 1e100, 4.35, 0.000123, 99999999999999.99]
for _ in range(200):
    floats.append(struct.unpack('>d', random.getrandbits(64).to_bytes(8, 'big'))[0])
for _ in range(200):
    floats.append(round(random.uniform(-1, 1) * 10 ** random.randint(-12, 20), random.randint(0, 17)))
float_rows = [{'bits': bits(f), 'repr': repr(f)} for f in floats]

# Integral doubles read as Python ints (what a bare integral JS number means in the value models).
int_doubles = [0.0, -0.0, 1.0, -7.0, 42.0, float(2 ** 53), float(2 ** 56), float(2 ** 60), 1e16, 1e20, 1e21,
               float(-(2 ** 70)), 1.2345e25, float(10 ** 22)]
int_rows = [{'bits': bits(f), 'repr': repr(int(f))} for f in int_doubles]
bigint_rows = [{'dec': str(n), 'repr': repr(n)} for n in [0, -1, 2 ** 64, -(10 ** 30) - 7, 3 ** 100]]

strings = ['', 'abc', "it's", 'say "hi"', 'both \' and "', 'back\\slash', "'", '"', '\'"', 'a\nb', '\r\n', '\t',
           '\v\f\b\0\x1b', '\x7f', '\x80', '\x9f', '\xa0', '\xad', 'é', 'ÿ', '中文', '\u200b', '\u200e', '\u2028',
           '\u2029', '\u3000', '\ufeff', '\ue000', '\U000f0000', '\U0010fffd', '\ud800', '\udfff', 'x\udc00y',
           '\U0001F600', '\U0001F1FA\U0001F1F8', '\u0378', '\uffff', '\U000E0001', '\u0600', '\u061c', '\u1680',
           '\u202f', '\u205f', 'Ω≈ç', 'ﬁ', '\\n', 'tab\there', "mixed 'single' and \"double\" \\ \n end"]
strings += [chr(c) for c in range(0x370)]  # every code point up to the Greek block, one by one
str_rows = [{'s': s, 'repr': repr(s)} for s in strings]

# Containers, as tagged trees the test rebuilds with the shared joiners: ints, floats (bits), strs, None, bools,
# lists, tuples, sets (items in CPython's iteration order) and dicts.
containers = [[], (), set(), {}, [1], (1,), {1}, {'a': 1}, [1, 'a', None, True, False, 2.0], (1, 2), ('x', (1,), ()),
              {1, 2, 3}, {'k': [1, (2,), {3}], 'n': None}, {0: 'no', 1: 'yes'}, {(1, 2): "it's", 1.5: -0.0},
              [['nested', ['deep', ('t',)]]], {'q': 'say "hi"', 'e': '\n\xa0'}, [float('inf'), float('nan'), 1e16]]
container_rows = [{'value': tag(v), 'repr': repr(v), 'str': str(v)} for v in containers]

# JSON text through json.loads, then str() and repr(): what parsePyJson + pyStr/pyRepr must print.
json_texts = ['1', '-0', '-0.0', '1.0', '1E5', '1e16', '2.5e-7', '1e400', '123456789012345678901', '-9007199254740993',
              '9007199254740991', '"it\'s"', '"\\u00a0\\n"', 'true', 'false', 'null', '[]', '{}', '[1, 1.0, "1"]',
              '{"a": [1, {"b": null}], "c": "x\'y"}', '{"\\u00e9": 0.1}', '[[], [[]], {"": ""}]', '[3.0e0, 0.5]']
json_rows = [{'json': t, 'str': str(json.loads(t)), 'repr': repr(json.loads(t))} for t in json_texts]

space_code_points = [c for c in range(0x10000) if chr(c).isspace()]
strip_rows = [{'s': s, 'strip': s.strip()} for s in
              ['  a b  ', '\x1c\x1d\x1e\x1fx\x85', '\ufeffx\ufeff', '\u3000全角\u3000', '\xa0nb\xa0', '\u200bzw\u200b', '', ' \t\n ']]
rstrip_rows = [{'s': s, 'chars': c, 'rstrip': s.rstrip(c)} for s, c in
               [('abc</s>', '</s>'), ('x\n\n', '\n'), ('a😀😀', '😀'), ('keep', ''), ('ssss', 's')]]

out = {'python': sys.version.split()[0], 'floats': float_rows, 'intDoubles': int_rows, 'bigints': bigint_rows,
       'strings': str_rows, 'containers': container_rows, 'json': json_rows, 'spaceCodePoints': space_code_points,
       'strip': strip_rows, 'rstrip': rstrip_rows}
Path(__file__).with_name('cpython-tables.json').write_text(json.dumps(out, indent=1) + '\n')
