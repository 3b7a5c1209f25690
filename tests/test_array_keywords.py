"""A keyword an array method of numpy's own class refuses (facts/signatures.array_keyword_error):
a call fact exactly where numpy raises TypeError, whatever the other arguments, on a live array
and on one the cell makes; the names its documentation gives are taken; a subclass's methods
are not read. Every cell is run."""
from __future__ import annotations

import numpy as np
import pytest

from jupyter_codecheck.facts import kernel_facts
from jupyter_codecheck.facts.signatures import ARRAY_METHODS

A = np.arange(12.0).reshape(3, 4)


def raised(cell: str, ns: dict):
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - what numpy raises is compared
        return type(e)
    return None


def calls(cell: str, ns: dict) -> list:
    return [f for f in kernel_facts(cell, ns) if f.kind == "call"]


@pytest.mark.parametrize("method", sorted(ARRAY_METHODS))
def test_a_misspelt_keyword_of_an_array_method_is_what_numpy_raises(method):
    ns = {"np": np, "a": A.copy()}
    for cell in (f"a.{method}(axsi=1)", f"b = a * 2\nb.{method}(axsi=1)"):
        found = calls(cell, ns)
        assert len(found) == 1 and "'axsi'" in found[0].message, (cell, found)
        assert raised(cell, ns) is TypeError, cell


@pytest.mark.parametrize("cell", [
    "a.sum(axis=0, keepdims=True)", "a.mean(axis=1, dtype=np.float32)", "a.std(ddof=1)", "a.max(axis=0, initial=0)",
    "a.reshape(4, 3, order='F')", "a.astype(int, copy=False)", "a.round(decimals=1)", "a.argsort(axis=0, kind='stable')",
    "a.clip(min=0, max=5)", "a.cumsum(axis=1)", "a.take([0], axis=1)", "a.repeat(2, axis=0)", "a.copy(order='C')",
])
def test_the_keywords_numpy_takes_are_no_claim(cell):
    ns = {"np": np, "a": A.copy()}
    assert calls(cell, ns) == [] and raised(cell, ns) is None, cell


def test_the_fix_offered_is_a_keyword_numpy_takes():
    ns = {"np": np, "a": A.copy()}
    (fact,) = calls("a.sum(axsi=0)", ns)
    assert "axis" in fact.candidates
    assert raised("a.sum(axis=0)", ns) is None


class Mine(np.ndarray):
    def sum(self, *args, **kwargs):
        return 0.0


def test_a_subclass_of_the_array_is_not_read():
    ns = {"np": np, "a": A.view(Mine)}
    assert calls("a.sum(axsi=0)", ns) == [] and raised("a.sum(axsi=0)", ns) is None
    assert calls("a.mean(axsi=0)", ns) == []       # numpy's own, but on the user's class
