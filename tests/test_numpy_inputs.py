"""numpy's and Python's own rules on what a cell gives them (facts/values.py): numpy's makers asked
with the cell's literals, math's functions of one number given an array, numpy's bitwise ufuncs
of floats, integer arrays to negative powers, a list written beside an array, linalg's square
matrices, a value stored into a part of another shape, an unpacking of another count, Python's %
of known values. Each claim held against the library running the same cell (the exception it
names, on its line, and a stop), and the cell a user means instead runs with no claim."""
from __future__ import annotations

import math
import traceback
import warnings

import numpy as np
import pytest
from numpy import linalg

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import kernel_facts


def namespace() -> dict:
    return {"np": np, "math": math, "linalg": linalg, "k": np.arange(6).reshape(2, 3), "X": np.linspace(0, 1, 10),
            "m3": np.array([[1, 2], [3, 4]]), "a": np.arange(10), "pts": [(1, 2), (3, 4)]}


def _raised(cell: str, ns: dict) -> tuple[str, int] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(cell, "<cell>", "exec"), ns)
    except Exception as e:  # noqa: BLE001 - whatever numpy raises is compared
        return type(e).__name__, [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


CLAIMED = [
    "z = np.zeros(3, 4)\n", "r = np.random.rand((3, 4))\n", "f = np.array([[1, 2], [1000, 2000]], dtype=np.int8)\n",
    "o = np.ones((2, 3), dtype='flaot')\n", "s = math.sin(X * 2)\n", "y = X ^ 2\n", "p = m3 ** -1\n",
    "t = k + [100, 200]\n", "c = np.array([[2, 6], [5, 3]])\nd = np.array([6, -9])\ns = linalg.solve(d, c)\n",
    "i = np.linalg.inv(k)\n", "a[2:5] = [997, 998]\n", "img = np.empty((20, 30, 3))\nimg[:, :10] = [0, 0, 0.6, 1]\n",
    "x, y, s = np.random.rand(100, 3)\n", 'px = 0.8\nt = "x = %0.2f, y = %0.2f" % (px)\n',
    "m = 100\nr = 2 * np.random.rand((m, 1))\n", "n = 3\no = np.ones((n, 2), dtype='flaot')\n",
    "b = np.bincount(k)\n",
]


@pytest.mark.parametrize("cell", CLAIMED)
def test_a_claim_is_the_librarys_own_error_and_a_stop(cell):
    ns = namespace()
    state = np.random.get_state()[1].copy()
    facts = [f for f in kernel_facts(cell, ns) if f.kind == "value"]
    assert (np.random.get_state()[1] == state).all()        # numpy's global random state left as it was
    raised = _raised(cell, namespace())
    assert raised is not None and [f.line for f in facts] == [raised[1]], (cell, raised, facts)
    assert f": {raised[0]}" in facts[0].message or f"{raised[0]} (" in facts[0].message, (raised, facts[0].message)
    assert [f.line for f in exact_check(cell, ns).certain] == [raised[1]], cell


MEANT = [
    "z = np.zeros((3, 4))\n", "r = np.random.rand(3, 4)\n", "f = np.array([[1, 2], [100, 120]], dtype=np.int8)\n",
    "s = np.sin(X * 2)\n", "s = math.sin(X[0])\n", "y = X ** 2\n", "y = np.arange(5) ^ 2\n", "p = m3 ** 2\n",
    "p = m3.astype(float) ** -1\n", "t = k + [100, 200, 300]\n", "l = [1, 2] + [3]\n",
    "c = np.array([[2, 6], [5, 3]])\nd = np.array([6, -9])\ns = linalg.solve(c, d)\n", "a[2:5] = [997, 998, 999]\n",
    "a[3] = 5\n", "img = np.empty((20, 30, 3))\nimg[:, :10] = [0, 0, 0.6]\n", "x, y, s = np.random.rand(3, 100)\n",
    'px = 0.8\nt = "x = %0.2f, y = %0.2f" % (px, px ** 2)\n', "z = np.zeros(100000, 100000)\n",
    "m = 100\nr = 2 * np.random.rand(m, 1)\n", "m = 100000\nz = np.zeros((m, m), dtype='flaot')\n",
]


@pytest.mark.parametrize("cell", MEANT)
def test_no_claim_where_the_library_takes_it_or_asking_would_cost(cell):
    assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == [], cell
    if "100000" not in cell:          # (numpy refuses it too, after it tries: not asked, so not claimed)
        assert _raised(cell, namespace()) is None, cell
