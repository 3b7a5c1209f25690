"""The silent-slip operators of bench/notebook_slips.py on a small real notebook state (pandas,
numpy): each makes the change its kind names, and the benchmark's forked copies of a real shell
tell a slip that computes something else from one that changes nothing."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from bench_modules import bench_module

slips = bench_module("slips")

STATE = """
import numpy as np
import pandas as pd
df = pd.DataFrame({"price": [1.0, 2.0, 3.0, 4.0], "cost": [0.5, 1.0, 1.5, 2.0], "rooms": [1, 2, 3, 4]})
a = np.arange(5.0)
b = np.ones(5)
n = 3
k = 2
"""

# (kind, cell, the changed text that must appear in every slip of that kind)
CASES = [
    ("comparison", "big = df[df.price > 2]\n", ("df.price >= 2", "df.price < 2")),
    ("arithmetic", "margin = df.price - df.cost\n", ("df.price + df.cost",)),
    ("off-by-one", "first = a[:3]\n", ("a[:2]", "a[:4]")),
    ("swapped-arguments", "d = np.subtract(a, b)\n", ("np.subtract(b, a)",)),
    ("other-variable", "total = a.sum() * n\n", ("b.sum() * n", "a.sum() * k")),
    ("other-column", 'mean = df["price"].mean()\n', ('df["cost"].mean()',)),
    ("dropped-negation", "cheap = df[~(df.price > 2)]\n", ("df[(df.price > 2)]",)),
]


def state() -> dict:
    ns: dict = {}
    exec(STATE, ns)
    ns.pop("__builtins__")
    return ns


@pytest.mark.parametrize("kind, cell, changed", CASES)
def test_each_operator_makes_the_slip_its_kind_names(kind, cell, changed):
    made = slips.OPERATORS[kind](slips._Cell.read(cell, state(), ()), random.Random(0))
    assert made, kind
    for m in made:
        assert m.kind == kind and m.line == 1 and m.source != cell
        assert any(c in m.source for c in changed), (kind, m.source)


def test_code_in_a_function_is_not_changed():
    assert slips.slips("def f(x):\n    return x > 2\n", state(), random.Random(0)) == []


def test_the_truth_comes_from_running_the_original_and_the_slip_in_forked_shells():
    bench = bench_module("notebook_slips")
    cells = ["import numpy as np\na = np.arange(6.0)\nb = a * 10\nx = [1, 2]\ny = [1, 2]\n",
             "top = a[a > 2]\nprint(top.sum())\n",
             "same = len(x)\n",
             "open('missing.csv')\n"]
    recs = bench.run_notebook("tiny", cells, SimpleNamespace(seed=0, per_cell=3, cell_timeout=20))
    assert [r["error"] and r["error"][0] for r in recs] == [None, None, None, "FileNotFoundError"]
    assert all(r["deterministic"] for r in recs)
    changed = recs[1]["slips"]
    assert changed and all(s["error"] is None and s["differs"] and s["output_differs"] for s in changed)
    # `x` and `y` hold the same list: `len(x)` -> `len(y)` computes the same thing
    assert [(s["kind"], s["differs"]) for s in recs[2]["slips"]] == [("other-variable", False)]
    assert recs[3]["slips"] == []
