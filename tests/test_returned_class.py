"""The class of what a library call returns (facts/returns.py), where the library declares
exactly one: a library class called (whatever its arguments), or a function whose return
annotation names one class. The attribute and keyword facts then hold on values the cell makes
that way; each claim is held against the library (the cell raises it on the fact's line), and
written right the cell runs unclaimed. A union, a subclass of the user's, `inplace=`: silence."""
from __future__ import annotations

import traceback

import numpy as np
import pandas as pd
import pytest
from sklearn.svm import SVC

from jupyter_codecheck.facts import kernel_facts

FRAME = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [4.0, 5.0, 6.0]})


def namespace(**objects) -> dict:
    return {"np": np, "pd": pd, "SVC": SVC, "df": FRAME, "params": {"C": 0.5}, "c": 0.5,
            "X": np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 2.0], [2.0, 0.0]]), "y": np.array([0, 1, 0, 1]), **objects}


def raised(cell: str, ns: dict) -> tuple[str, int] | None:
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - whatever the library raises is compared
        return type(e).__name__, [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


# each: a cell with a typo on a value a library call made, the typo, the right name
TYPOS = [
    ("obj = pd.Series(['blue', 'red'], index=[0, 2])\nobj.reindex(np.arange(4), methdo='ffill')\n", "methdo", "method"),
    ("frame = pd.DataFrame(np.arange(9).reshape((3, 3)), index=['a', 'c', 'd'])\n"
     "frame.reindex(idex=['a', 'b', 'c', 'd'])\n", "idex", "index"),
    ("top = df.head(2)\ntop.reindex(columns=['a'], fill_vlaue=0)\n", "fill_vlaue", "fill_value"),      # -> Self
    ("part = df['a'].head(2)\npart.reindex([0], fill_vlaue=0.0)\n", "fill_vlaue", "fill_value"),      # -> Self
    ("rng = np.random.default_rng(1)\nw = rng.uniform(0, 4, sizv=3)\n", "sizv", "size"),               # compiled
    ("svm = SVC(**params)\nsvm.fiv(X, y)\n", "fiv", "fit"),                 # an estimator, whatever its arguments
    ("svm = SVC(C=c, gamma=c * 2)\nsvm.fit(X, y)\nsvm.preedict(X)\n", "preedict", "predict"),
    ("m = SVC(**params).fitt(X, y)\n", "fitt", "fit"),
]


@pytest.mark.parametrize("cell, typo, right", TYPOS)
def test_a_typo_on_a_value_whose_class_the_library_declares(cell, typo, right):
    ns = namespace()
    (fact,) = kernel_facts(cell, ns)
    assert fact.kind in ("attribute", "call") and typo in fact.message, fact
    assert raised(cell, ns) == ({"attribute": "AttributeError", "call": "TypeError"}[fact.kind], fact.line)
    assert right in fact.candidates, fact
    fixed = cell.replace(typo, right)
    assert kernel_facts(fixed, ns) == [] and raised(fixed, ns) is None, fixed


class Frame(pd.DataFrame):
    """A user's DataFrame whose `head` takes another keyword."""

    @property
    def _constructor(self):
        return Frame

    def head(self, n=5, nn=0):
        return super().head(n + nn)


@pytest.mark.parametrize("cell", [
    "mine = Frame(df)\nmine.head(nn=1)\n",                       # the user's class called
    "got = live.copy()\ngot.head(nn=1)\n",                       # -> Self of the user's subclass
    "s = pd.Series([1.0], index=['indeex'])\ns.indeex\n",        # a Series answers its labels
    "svm = SVC(**params)\nsvm.fit(X, y)\nsvm.support_\nsvm.C\nsvm.shape_fit_\n",   # what fit sets, a parameter
    "svm = SVC(**params)\nsvm.tag = 1\nsvm.tag\n",               # an instance with a dict: set by the cell
    "rng = np.random.default_rng(1)\nrng.bit_generator\n",
])
def test_no_claim_where_the_object_may_have_it(cell):
    ns = namespace(Frame=Frame, live=Frame(FRAME))
    assert kernel_facts(cell, ns) == [], cell
    assert raised(cell, ns) is None, cell


def test_only_one_declared_class_is_a_class():
    from jupyter_codecheck.facts.returns import called_class, method_class
    assert called_class(pd.DataFrame, None, []) is pd.DataFrame and called_class(SVC, None, ["C"]) is SVC
    assert method_class(pd.DataFrame, "head", []) is pd.DataFrame            # -> Self
    assert method_class(pd.DataFrame, "reindex", []) is None                 # -> DataFrame: Frame below may be it
    assert method_class(pd.DataFrame, "dropna", []) is None                  # -> DataFrame | None
    assert method_class(pd.DataFrame, "fillna", ["inplace"]) is None         # None in place, whatever it says
    assert method_class(pd.DataFrame, "rolling", []) is None                 # -> Window | Rolling
    assert method_class(pd.Series, "count", []) is None                      # -> int: numpy's int64
    assert method_class(pd.Index, "view", []) is None                        # -> Index: its subclasses too
    assert called_class(np.ndarray, None, []) is None                        # a __new__ of its own
    assert method_class(Frame, "head", []) is None and called_class(Frame, None, []) is None


def test_a_class_imported_for_type_checkers_or_documented_for_the_arguments_given():
    from pandas.api.typing import DataFrameGroupBy, Rolling, SeriesGroupBy, Window

    from jupyter_codecheck.facts.returns import method_class
    frame = pd.DataFrame({"a": [1.0, 2.0], "k": ["x", "y"]})
    # `-> DataFrameGroupBy`, a name pandas' module imports under TYPE_CHECKING only
    assert method_class(pd.DataFrame, "groupby", ["by"]) is DataFrameGroupBy is type(frame.groupby(by="k"))
    assert method_class(pd.Series, "groupby", [], 1) is SeriesGroupBy is type(frame["a"].groupby(frame["k"]))
    # `-> Window | Rolling`: "Rolling, unless win_type is passed"
    assert method_class(pd.Series, "rolling", [], 1) is Rolling is type(frame["a"].rolling(2))
    assert method_class(pd.DataFrame, "rolling", ["min_periods"], 1) is Rolling is type(frame.rolling(2, min_periods=1))
    assert type(frame["a"].rolling(2, win_type="boxcar")) is Window
    assert method_class(pd.Series, "rolling", ["win_type"], 1) is None
    assert method_class(pd.Series, "rolling", [], 4) is None                 # win_type given by position
    assert method_class(pd.Series, "rolling", []) is None                    # the arguments not known
