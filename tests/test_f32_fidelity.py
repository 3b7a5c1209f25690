"""The checker's arithmetic against the model file's exact function in f32 (issue 49's item 5):
the log-probability of every next token of a few cells, under `checker_settings` for the default
model's layer type and under the engine's f32 reference (`F32_REFERENCE`: the layer matrices
dequantized exactly to f32 copies, f32 activations and K,V), built by the code
bench/f32_fidelity.py runs (jupyter_codecheck/engine/fidelity.py).

The mean |difference| must stay under MEAN_TOL nats. `make test-isa` runs this file on ggml built
for AVX2 (the packed product capped to AVX2) and on ggml's generic build (no packed product: the
checker's settings there are FAST's f16 copies). ggml's generic products take ~0.2 s a token for
each of the two arithmetics on one thread (measured: 31 s for the first cell's 84 tokens, 135 s for
all 385), so on that build the test reads the first cell only; elsewhere all four (6.8 s on
AVX-512, 11 s on the AVX2 build, on a loaded 2-core Xeon). The issue's other target, 99 % of tokens within
0.25 nats, is not met (by llama.cpp's arithmetic either: bench/reports/f32-fidelity/): the share
is reported in the message, not held.
"""
from __future__ import annotations

from bench_modules import bench_module
from jupyter_codecheck.engine.fidelity import F32_REFERENCE, cell_tokens, distance, next_token_logprobs
from jupyter_codecheck.engine.session import checker_settings, packed_isa

MEAN_TOL = 0.1  # nats, the target for the mean

# cells as a notebook holds them, written here so the test needs no data set (~500 tokens)
CELLS = [
    '''import csv
from collections import defaultdict


def read_scores(path):
    """Map each student's name to the list of their scores."""
    scores = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            scores[row["name"]].append(float(row["score"]))
    return dict(scores)
''',
    '''def summarize(scores):
    rows = []
    for name, values in sorted(scores.items()):
        mean = sum(values) / len(values)
        best = max(values)
        rows.append((name, round(mean, 2), best))
    rows.sort(key=lambda r: r[1], reverse=True)
    return rows


for name, mean, best in summarize(read_scores("grades.csv"))[:5]:
    print(f"{name:<12} {mean:6.2f} {best:6.1f}")
''',
    '''import numpy as np
import pandas as pd

df = pd.DataFrame({"x": np.linspace(0, 1, 50), "y": np.random.default_rng(0).normal(size=50)})
df["y_smooth"] = df["y"].rolling(window=5, center=True).mean()
df = df.dropna()
print(df.describe())
''',
    '''class Stack:
    def __init__(self):
        self._items = []

    def push(self, item):
        self._items.append(item)

    def pop(self):
        if not self._items:
            raise IndexError("pop from an empty stack")
        return self._items.pop()

    def __len__(self):
        return len(self._items)
''',
]


# ggml built without SIMD (`native/isa/build_ggml.sh generic`): none of the vector instructions
SIMD = {"avx2", "fma", "f16c", "neon", "sse3"}


def test_checker_within_a_tenth_of_a_nat_of_the_f32_reference(model):
    ggml_features = bench_module("instruction_sets").instruction_sets()["ggml_features"]
    cells = [cell_tokens(model, c) for c in (CELLS if SIMD & set(ggml_features) else CELLS[:1])]
    settings = checker_settings(model.info.layer_type)
    reference = next_token_logprobs(model, cells, F32_REFERENCE)
    d = distance(next_token_logprobs(model, cells, settings), reference)
    assert d["tokens"] >= (300 if len(cells) > 1 else 80)
    assert d["mean_nats"] < MEAN_TOL, (
        f"the checker's arithmetic ({settings}, packed ISA {packed_isa()}) is {d['mean_nats']:.3f} nats "
        f"from the f32 reference on average (target < {MEAN_TOL}); {d['within_0.25']:.1%} of "
        f"{d['tokens']} tokens within 0.25 (the issue's 99 % is not held), max {d['max_nats']:.2f}")
