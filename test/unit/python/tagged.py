# The tagged-tree encoding the Python-runtime tables share (cpython-tables.ts decodes it): ints as decimal strings,
# floats as their IEEE-754 bits (JSON has no nan, inf or -0.0), containers with their kind.
import struct

def bits(f): return struct.pack('>d', f).hex()

def tag(v):
    if v is None or isinstance(v, bool): return v
    if isinstance(v, int): return {'int': str(v)}
    if isinstance(v, float): return {'float': bits(v)}
    if isinstance(v, str): return {'str': v}
    if isinstance(v, list): return {'list': [tag(x) for x in v]}
    if isinstance(v, tuple): return {'tuple': [tag(x) for x in v]}
    if isinstance(v, (set, frozenset)): return {'set': [tag(x) for x in v]}
    if isinstance(v, dict): return {'dict': [[tag(k), tag(x)] for k, x in v.items()]}
    raise TypeError(v)
