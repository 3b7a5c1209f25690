"""scipy's `stats.mode` of a 1-D array (facts/abstract.py, `Propagation._mode`): since scipy 1.11
a ModeResult of two numpy scalars, so code written for arrays (`mode(a)[0][0]`, `.mode[0]`)
raises IndexError; a 2-D array's mode is still arrays. And a boolean mask of an array's rows
keeps rows of its shape. Each claim held against scipy running, both ways."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from scipy.stats import mode

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import kernel_facts

NS = {"np": np, "mode": mode, "stats": stats, "a": np.array([1, 2, 2, 3]), "X2": np.ones((4, 3)),
      "clusters": np.array([0, 1, 1, 0, 2]), "target": np.array([5, 6, 6, 5, 7])}


def _raised(cell: str):
    try:
        exec(cell, dict(NS))
    except Exception as e:  # noqa: BLE001 - compared with the claim
        return e
    return None


@pytest.mark.parametrize("cell, crashes", [
    ("m = mode(a)[0][0]\n", True),
    ("m = stats.mode(a).mode[0]\n", True),
    ("labels = np.zeros_like(clusters)\nfor i in range(3):\n    mask = (clusters == i)\n"
     "    labels[mask] = mode(target[mask])[0][0]\n", True),
    ("m = mode(a)[0]\n", False),
    ("m = mode(X2)[0][0]\n", False),                     # a 2-D array's mode: an array per column
    ("m = mode(a, keepdims=True)[0][0]\n", False),
    ("m = mode(a).count\n", False),
])
def test_a_modes_scalars_indexed_as_arrays(cell, crashes):
    raised = _raised(cell)
    assert (raised is not None) == crashes, raised
    got = kernel_facts(cell, NS)
    assert bool(got) == crashes, got
    if crashes:
        assert type(raised) is IndexError and got[0].message.endswith(": IndexError")
        assert [f.line for f in exact_check(cell, NS).certain] == [got[0].line]
