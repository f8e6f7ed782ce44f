#!/usr/bin/env python3
"""Writes test/fixtures/numpy-argsort-x86.json: float64 arrays full of ties and the order np.argsort gives them.

Run it with numpy 2.x on an x86-64 CPU with AVX-512 (numpy then sorts with x86-simd-sort); the file records the
numpy version and the SIMD extensions it found, and the test checks x86SimdArgsort against it.
    python3 test/tools/numpy_argsort_cases.py > test/fixtures/numpy-argsort-x86.json
"""
import json
import random

import numpy as np

random.seed(20261124)
cases = []
for t in range(100):
    n = random.choice([random.randint(2, 40), random.randint(2, 300), random.randint(250, 1000)])
    mode = t % 4
    if mode == 0:
        vals = [float(random.randint(0, random.choice([1, 2, 5, 30]))) for _ in range(n)]
    elif mode == 1:
        vals = [0.0 if random.random() < 0.8 else float(random.randint(1, 9)) / 4 for _ in range(n)]
    elif mode == 2:
        vals = [random.choice([-1.0, -0.0, 0.0, 2.5]) for _ in range(n)]
    else:
        vals = [round(random.random() * 8, 1) for _ in range(n)]
    cases.append({"values": vals, "argsort": np.argsort(np.array(vals, dtype=np.float64)).tolist()})
config = np.show_runtime.__module__ and __import__("numpy._core._multiarray_umath", fromlist=["__cpu_features__"]).__cpu_features__
print(json.dumps({
    "numpy": np.__version__,
    "cpu_features": sorted(k for k, v in config.items() if v and k.startswith("AVX512")),
    "cases": cases,
}, separators=(",", ":")))
