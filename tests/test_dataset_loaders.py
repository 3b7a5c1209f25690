"""scikit-learn's dataset loaders (facts/dataset_loaders.py): the keys read from a loader's
source are exactly those of the Bunch it returns, and a name of none of them after a loader the
cell calls is the AttributeError scikit-learn raises; a tuple (return_X_y) is not read."""
from __future__ import annotations

import ast
import traceback

import pytest
from sklearn import datasets

from jupyter_codecheck.facts import kernel_facts
from jupyter_codecheck.facts.dataset_loaders import loader_keys

LOCAL = ["load_iris", "load_digits", "load_wine", "load_breast_cancer", "load_diabetes", "load_linnerud"]


@pytest.mark.parametrize("name", LOCAL)
@pytest.mark.parametrize("arguments", ["", "as_frame=True", "return_X_y=False"])
def test_the_keys_read_are_the_bunchs_own(name, arguments):
    call = ast.parse(f"{name}({arguments})", mode="eval").body
    assert loader_keys(getattr(datasets, name), call) == frozenset(getattr(datasets, name)(**eval(f"dict({arguments})")))


def test_a_tuple_or_anything_else_is_not_read():
    for code in ("load_iris(return_X_y=True)", "load_iris(True)", "load_iris(return_X_y=flag)", "load_iris(**kw)"):
        assert loader_keys(datasets.load_iris, ast.parse(code, mode="eval").body) is None, code
    assert loader_keys(datasets.make_blobs, ast.parse("make_blobs()", mode="eval").body) is None
    assert loader_keys(len, ast.parse("len()", mode="eval").body) is None


def _run(cell: str, ns: dict):
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - compared with the claim
        return type(e), [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


@pytest.mark.parametrize("cell", [
    "iris = load_iris()\ny = iris.traget\n",
    "iris = datasets.load_iris()\nnames = iris.target_names\nprint(iris.kesy())\n",
    "digits = load_digits()\nfor i in range(3):\n    print(digits.imags[i])\n",
    "X = load_iris(as_frame=True).fram\n",
])
def test_a_name_the_bunch_lacks_is_claimed_where_it_raises(cell):
    ns = {"datasets": datasets, "load_iris": datasets.load_iris, "load_digits": datasets.load_digits}
    facts = kernel_facts(cell, ns)
    assert len(facts) == 1 and facts[0].kind == "attribute", facts
    assert _run(cell, ns) == (AttributeError, facts[0].line)
    fixed = cell.replace("traget", "target").replace("kesy", "keys").replace("imags", "images").replace("fram\n", "frame\n")
    assert kernel_facts(fixed, ns) == [] and _run(fixed, ns) is None


def test_keys_the_cell_adds_are_the_bunchs():
    ns = {"load_iris": datasets.load_iris}
    for cell in ("iris = load_iris()\niris.extra = 1\nprint(iris.extra)\n",
                 "iris = load_iris()\niris['x'] = 1\nprint(iris.x)\n",
                 "X, y = load_iris(return_X_y=True)\nprint(X.shape)\n"):
        assert kernel_facts(cell, ns) == [] and _run(cell, ns) is None, cell


def _loader_ns() -> dict:
    import numpy as np
    import pandas as pd
    from sklearn.svm import SVC
    return {"np": np, "pd": pd, "datasets": datasets, "load_iris": datasets.load_iris,
            "load_wine": datasets.load_wine, "load_digits": datasets.load_digits, "SVC": SVC}


@pytest.mark.parametrize("cell, claimed", [
    # a bundled loader's values, as it makes them: the frame's columns, the arrays' shapes
    ('iris = datasets.load_iris(as_frame=True)\nX = iris.data[["petal length (cm)", "petal width(cm)"]].values\n'
     'y = iris.target', ("key", 2)),
    ('iris = load_iris(as_frame=True)\nX = iris["data"][["petal length (cm)", "petal width (cm)"]].values\n'
     'y = iris["target"]\nm = SVC().fit(X[:, 0], y)', ("value", 4)),
    ("X, y = load_iris(return_X_y=True)\nm = SVC().fit(X, y[:3])", ("call", 2)),
    ('X, y = load_iris(return_X_y=True, as_frame=True)\nc = X["petal lenght (cm)"]', ("key", 2)),
    ('wine = load_wine(as_frame=True)\nt = wine.frame["targt"]', ("key", 2)),
    ("digits = load_digits()\nX = digits.data.reshape(7, -1)", ("value", 2)),
    # the names it has, and a frame or Bunch the cell changes first
    ('iris = load_iris(as_frame=True)\nX = iris.data[["petal length (cm)", "petal width (cm)"]].values\n'
     'm = SVC().fit(X, iris.target)', None),
    ('iris = load_iris(as_frame=True)\niris.data.columns = list("abcd")\nX = iris.data["a"]', None),
    ('iris = load_iris(as_frame=True)\niris.data.rename(columns={"sepal length (cm)": "a"}, inplace=True)\n'
     'X = iris.data["a"]', None),
    ('iris = load_iris(as_frame=True)\niris.data = iris.frame\nX = iris.data["target"]', None),
    ('iris = load_iris(as_frame=True)\niris["data"] = iris.frame\nX = iris.data["target"]', None),
    ('iris = load_iris(as_frame=True)\nd = iris.data\nd["x"] = 1\nX = iris.data["x"]', None),
    ('iris = load_iris(as_frame=True)\nX = iris.data\nX.insert(0, "x", 1)\nX2 = iris.data["x"]', None),
])
def test_what_a_bundled_loader_returns_is_known_by_its_shapes(cell, claimed):
    ns = _loader_ns()
    got = [(f.kind, f.line) for f in kernel_facts(cell, ns, libraries="leading")]
    assert got == ([claimed] if claimed else []), (cell, got)
    outcome = _run(cell, ns)
    if claimed is None:
        assert outcome is None, (cell, outcome)
    else:
        exception = {"key": KeyError, "value": ValueError, "call": ValueError}[claimed[0]]
        assert outcome is not None and issubclass(outcome[0], exception) and outcome[1] == claimed[1], (cell, outcome)
