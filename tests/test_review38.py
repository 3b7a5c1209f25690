"""Cells a review of the thirty-eighth session's rules found claimed or stopped wrongly (or whose
reading ran the user's code): each runs, or raises otherwise, against the libraries here, and the
facts claim nothing wrong of it (facts/called_functions.py, first_pass.py, certainty.py,
values.py, abstract_sklearn.py)."""
from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression, LogisticRegression, RidgeClassifier
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from jupyter_codecheck.core.exact_findings import exact_check

X = np.random.default_rng(4).random((40, 3))
YB = np.array([0, 1] * 20)
Y3 = np.c_[YB, 1 - YB, YB]


def fitted(est, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y)


def runs(cell: str, ns: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(cell, "<cell>", "exec"), ns)


@pytest.mark.parametrize("cell, objects", [
    # predictions of several labels a row, and a method the estimator has not got now
    ("pred = ovr.predict(X)\nfirst = pred[:, 0]\n", {"ovr": fitted(OneVsRestClassifier(LogisticRegression()), Y3)}),
    ("pred = ridge.predict(X)\nr = pred.reshape(40, 3)\n", {"ridge": fitted(RidgeClassifier(), Y3)}),
    # a dict display's value name bound again, a key written twice, a key equal to another
    ("d = {'a': x}\nx = 5\nfor k, v in d.items():\n    w = v + 1\n", {"x": np.arange(6.0)}),
    ("d = {'a': x4, 'b': y6, 'a': y6}\nfor k, v in d.items():\n    w = v.reshape(3, 2)\n",
     {"x4": np.arange(4.0), "y6": np.arange(6.0)}),
    ("d = {1: x4, True: y6}\nfor k, v in d.items():\n    w = v.reshape(3, 2)\n", {"x4": np.arange(4.0), "y6": np.arange(6.0)}),
    ("d = {'a': x4}\nfor k, v in d.items():\n    x4 = np.arange(6.0)\n    w = v.reshape(2, 2)\n", {"x4": np.arange(4.0)}),
    # a comprehension over a list bound before whose first item's name is bound again
    ("arrs = [x]\nx = 3\nw = [a.reshape(3, 2) for a in arrs]\n", {"x": np.arange(6.0)}),
    # a walrus in an `if` test binds the name whichever branch runs
    ("if (n := 6) > 0:\n    pass\nb = a.reshape(n, 2)\n", {"a": np.arange(12.0), "n": 5}),
    # an estimator the cell changes before its fit
    ("pca.set_params(n_components=2)\np = pca.fit(X)\n", {"pca": PCA(n_components=5)}),
    ("pipe.set_params(pca__n_components=2)\np = pipe.fit(X)\n",
     {"pipe": make_pipeline(StandardScaler(), PCA(n_components=5))}),
    ("pca.n_components = 2\np = pipe.fit(X)\n", {"pca": (pca := PCA(n_components=5)),
                                                 "pipe": make_pipeline(StandardScaler(), pca)}),
    # an import in a function's body binds its parameter's name
    ("def f(a):\n    import numpy as a\n    return a.arange(4.0).reshape(2, 2)\n\nr = f(X)\n", {}),
    # an empty boolean mask: numpy's empty index
    ("r = a[np.zeros(0, bool)]\n", {"a": np.arange(10)}),
])
def test_a_cell_that_runs_is_neither_claimed_nor_stopped(cell, objects):
    ns = {"np": np, "X": X, "__name__": "__main__", **objects}
    found = exact_check(cell, ns)
    assert found.certain == [] and [f for f in found.findings if f.kind == "value"] == [], found.findings
    runs(cell, dict(ns))


def test_a_kernel_number_bound_again_through_the_module_is_no_stop():
    """`__main__.n = 6` rebinds the notebook's n: whatever the facts read of the kernel's n, no stop."""
    ns = {"np": np, "a": np.arange(12.0), "n": 5, "__name__": "__main__"}
    assert exact_check("import __main__\n__main__.n = 6\nb = a.reshape(n, 2)\n", ns).certain == []


def test_a_missing_method_or_argument_is_not_read_as_another_error():
    """`SVC().predict_proba` (no probability): AttributeError, no shape of it; sample_weight
    with no y: fit's TypeError; an instance's own `fit`: the user's."""
    ns = {"np": np, "X": X, "svc": fitted(SVC(), YB), "lr": LinearRegression(), "own": LinearRegression()}
    ns["own"].fit = lambda *a, **k: None
    for cell, raised in [("p = svc.predict_proba(X)\nq = p[:, 5]\n", AttributeError),
                         ("m = lr.fit(X, sample_weight=np.ones(30))\n", TypeError),
                         ("m = own.fit(X, YB, sample_weight=np.ones(30))\n", None)]:
        ns["YB"] = YB
        found = exact_check(cell, ns)
        assert [f for f in found.findings if f.kind == "value"] == [], (cell, found.findings)
        assert [f.kind for f in found.certain] in ([], ["call"]), found.certain      # (fit's missing y: a call's)
        if raised is None:
            runs(cell, dict(ns))
        else:
            with pytest.raises(raised):
                runs(cell, dict(ns))


def test_a_function_of_a_modules_file_or_with_a_default_of_the_users_is_not_read(tmp_path, monkeypatch):
    """A module's function (its file may have changed since it was imported), and a kernel
    function whose default holds an object of the user's: not read, and its `__eq__` never runs."""
    from IPython.core.interactiveshell import InteractiveShell
    (tmp_path / "mod38.py").write_text("def helper(a):\n    return a.reshape(4, 3)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import mod38
    (tmp_path / "mod38.py").write_text("def helper(a):\n    return a.reshape(2, 3)\n")    # edited, not reloaded
    sh = InteractiveShell.instance()
    sh.run_cell("import numpy as np\nA = np.arange(6.0)\nclass Loud:\n    def __eq__(self, other):\n"
                "        raise AssertionError('ran')\n    __hash__ = object.__hash__\n"
                "def keep(a, seen=[None]):\n    seen[0] = a\n    return a.reshape(4, 3)\n"
                "_ = keep(np.arange(12.0))\nseen_loud = keep.__defaults__[0].__setitem__(0, Loud())\n")
    ns = dict(sh.user_ns, helper=mod38.helper)
    assert exact_check("r = helper(A)\n", ns).findings == []
    assert exact_check("r = keep(A)\n", ns).findings == []
    sys.modules.pop("mod38", None)
