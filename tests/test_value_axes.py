"""`axis=` beyond what the object has: numpy's functions read from their own signatures (the
array first, an optional `axis`), ndarray's methods of the same names and a ufunc's
reduce/accumulate/reduceat (AxisError); pandas' methods that take `axis` on a DataFrame or a
Series (ValueError: No axis named). Each claim is held against the libraries by running the
cell; an axis in range, or a function that fails otherwise first, is no claim."""
from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts
from jupyter_codecheck.facts.values import axis_functions
from test_value_propagation import holds, named, namespace, run, runs_unclaimed, value_facts

ARR = np.arange(12.0).reshape(3, 4)
FRAME = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [4, 5, 6]})


def ns(**objects) -> dict:
    return namespace(arr=ARR.copy(), frame=FRAME.copy(), s=FRAME["a"].copy(), **objects)


@pytest.mark.parametrize("cell", [
    "r = arr.repeat(2, axis=2)\n", "r = arr.take([0, 1], axis=2)\n", "arr.sort(axis=-3)\n",
    "r = np.delete(arr, 0, axis=2)\n", "r = np.add.accumulate(arr, axis=2)\n",
    "r = np.add.reduceat(arr, [0, 2], axis=2)\n", "r = np.logical_and.reduce(arr > 1, axis=2)\n",
    "r = np.percentile(arr, 50, axis=3)\n", "r = np.unique(arr, axis=2)\n",
    "a = np.arange(15).reshape((3, 5))\nr = np.cumsum(a, axis=2)\n",
    "a = rng.standard_normal((2, 2))\nr = a.repeat(2, axis=2)\n",
    "a = rng.integers(0, 9, size=(2, 3))\nr = a.sort(axis=2)\n",
])
def test_a_numpy_axis_beyond_the_array(cell):
    fact = holds(cell, ns(rng=np.random.default_rng(0)))
    assert "AxisError" in fact.message


@pytest.mark.parametrize("cell", [
    "r = frame.sum(axis=2)\n", "r = frame.drop('a', axis=2)\n", "r = frame.dropna(axis=2)\n",
    "r = frame.mean(axis='colums')\n", "r = s.cumsum(axis=1)\n", "r = frame[['a', 'b']].max(axis=2)\n",
])
def test_an_axis_a_dataframe_or_series_does_not_have(cell):
    fact = holds(cell, ns())
    assert "No axis named" in fact.message and fact.message.endswith("ValueError")


@pytest.mark.parametrize("cell", [
    "r = np.split(arr, 2, axis=2)\n",            # numpy indexes the shape first: IndexError
    "r = np.array_split(arr, 2, axis=2)\n",
    "r = np.trapezoid(arr, axis=2)\n",
    "r = frame.apply(len, axis=2)\n",            # pandas asks for the function first
])
def test_no_claim_where_the_library_fails_otherwise_first(cell):
    # no AxisError claim; numpy's own call asked on zeros of the data's shape may name what it raises
    # first (stand_ins.data_call_claim)
    raised = run(cell, ns())
    assert raised is not None
    assert all(f.message.endswith(f": {raised[0]}") for f in value_facts(cell, ns())), cell


def test_axes_in_range_are_no_claim():
    for cell in ("r = arr.repeat(2, axis=1)\n", "r = np.add.accumulate(arr, axis=-1)\n", "r = frame.sum(axis=1)\n",
                 "r = frame.sum(axis='columns')\n", "r = s.sum(axis=0)\n", "r = np.delete(arr, 0, axis=-2)\n"):
        runs_unclaimed(cell, ns())


def _numpy_call(rnd: random.Random, name: str, ndim: int) -> str:
    import inspect
    f = getattr(np, name)
    required = sum(1 for p in inspect.signature(f).parameters.values()
                   if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
    extra = "".join(f", {rnd.choice([0, 1])}" for _ in range(required - 1))
    axis = rnd.randint(-ndim - 2, ndim + 1)
    shape = tuple(rnd.randint(1, 4) for _ in range(ndim))
    dtype = rnd.choice(["float", "int", "bool"])
    made = f"a = np.ones({shape}, dtype={dtype})\n"
    if rnd.random() < 0.5 and hasattr(np.ndarray, name):
        return made + f"r = a.{name}({extra.lstrip(', ')}, axis={axis})\n".replace("(, ", "(")
    return made + f"r = np.{name}(a{extra}, axis={axis})\n"


def test_random_numpy_axes_against_numpy_every_claim_raised_no_claim_on_a_cell_that_runs():
    rnd = random.Random(7)
    names = sorted(axis_functions())
    claimed = ran = 0
    for _ in range(600):
        cell = _numpy_call(rnd, rnd.choice(names), rnd.randint(1, 3))
        facts = value_facts(cell, ns())
        raised = run(cell, ns())
        if facts:
            claimed += 1
            assert raised == (named(facts[0]), facts[0].line), (cell, facts[0].message, raised)
        ran += raised is None
    assert claimed > 100 and ran > 100, (claimed, ran)


def test_random_pandas_axes_against_pandas():
    import inspect
    rnd = random.Random(11)
    methods = {owner: sorted(m for m in dir(cls) if not m.startswith("_") and
                             inspect.isfunction(inspect.getattr_static(cls, m, None)) and
                             "axis" in inspect.signature(getattr(cls, m)).parameters)
               for owner, cls in (("frame", pd.DataFrame), ("s", pd.Series))}
    claimed = 0
    for _ in range(300):
        owner = rnd.choice(["frame", "s"])
        axis = rnd.choice([0, 1, 2, -1, 3, "'index'", "'columns'", "'rows'", "'colums'"])
        cell = f"r = {owner}.{rnd.choice(methods[owner])}(axis={axis})\n"
        facts = value_facts(cell, ns())
        raised = run(cell, ns())
        if facts:
            claimed += 1
            # an axis pandas lacks (ValueError), or another refusal its own code finds first (stand_ins.py)
            assert raised is not None and raised[1] == 1 and facts[0].message.endswith(f": {raised[0]}"), \
                (cell, facts[0].message, raised)
    assert claimed > 50, claimed


def test_random_concat_axes_against_pandas():
    """pd.concat reads its axis as a DataFrame's whatever it joins: a claim exactly where pandas
    raises, on lists of live and made frames and series; a list holding anything else first
    fails otherwise (no axis claim)."""
    rnd = random.Random(5)
    items = ["frame", "s", "frame[['a']]", "pd.DataFrame({'c': [1, 2]})", "{'a': 1}", "frame.a", "mystery"]
    claimed = 0
    for _ in range(300):
        parts = ", ".join(rnd.choice(items) for _ in range(rnd.randint(1, 3)))
        axis = rnd.choice([0, 1, 2, -1, "'index'", "'columns'", "'rows'", "'colums'"])
        extra = rnd.choice(["", ", ignore_index=True", ", join='inner'", ", sort=True"])
        cell = f"r = pd.concat([{parts}], axis={axis}{extra})\n"
        objects = ns(mystery=[1, 2])
        facts = [f for f in value_facts(cell, objects) if "No axis named" in f.message]
        raised = run(cell, ns(mystery=[1, 2]))
        if facts:
            claimed += 1
            assert raised == ("ValueError", 1), (cell, facts[0].message, raised)
    assert claimed > 60, claimed


def test_no_user_code_runs_for_an_axis():
    calls = []

    class Frame(pd.DataFrame):
        def sum(self, *a, **k):
            calls.append("sum")
            return super().sum(*a, **k)

    class Array(np.ndarray):
        def repeat(self, *a, **k):
            calls.append("repeat")
            return super().repeat(*a, **k)

    objects = ns(mine=Frame({"a": [1.0]}), marr=np.zeros((2, 2)).view(Array))
    for cell in ("r = mine.sum(axis=2)\n", "r = marr.repeat(2, axis=2)\n"):
        assert [f for f in kernel_facts(cell, objects) if f.kind == "value"] == []
    assert calls == []


def test_a_percentile_out_of_range_is_claimed_before_the_axis():
    """numpy checks q before the axis: the claim is the percentile's ValueError, not the axis'."""
    fact = holds("r = np.percentile(arr, 150, axis=2)\n", ns())
    assert "Percentiles must be in the range" in fact.message and fact.message.endswith("ValueError")
