"""A certain value error stops the cell under `auto guard` as attribute, key and call errors do
(core/exact_findings.py, facts/certainty.py): the use runs whenever the cell runs, nothing of
the user's code runs before it, and none of the objects the fact reads (its subjects) may change
before the use. Each stop is held against the libraries (the cell raises); anything unsure is
shown and not stopped."""
from __future__ import annotations

import ast
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import KernelFact, kernel_facts

X = np.random.default_rng(0).normal(size=(40, 3))
Y = (X[:, 0] > 0).astype(int)


def refresh():
    globals()["A"] = np.ones((3, 2))


@pytest.fixture
def ns():
    return {"np": np, "pd": pd, "A": np.ones((3, 4)), "B": np.ones((3, 2)), "X": X, "y": Y,
            "df": pd.DataFrame(X, columns=["a", "b", "c"]), "model": LogisticRegression().fit(X, Y),
            "LinearRegression": LinearRegression, "Ridge": Ridge, "refresh": refresh, "frames": []}


def _stops(cell: str, ns) -> list[tuple[int, str]]:
    return [(f.line, f.kind) for f in exact_check(cell, ns).certain]


def _raises(cell: str, ns) -> None:
    with warnings.catch_warnings(), pytest.raises((ValueError, IndexError, AttributeError)):
        warnings.simplefilter("ignore")
        exec(cell, dict(ns))


@pytest.mark.parametrize("cell, stop", [
    ("C = A @ B", (1, "value")),
    ("print(A.shape)\nC = np.dot(A, B)", (2, "value")),
    ("p = model.predict([1.0, 2.0, 3.0])", (1, "value")),
    ("m = LinearRegression()\nm.fit(df['a'], y)", (2, "value")),
    ("C = A.reshape(5, 2)", (1, "value")),
    ("s = df['a'].str.lower()", (1, "value")),
    # made of Python's own numbers (a minus sign, `2 * np.pi`): library data, no code of the user's
    ("X_new = np.linspace(-3, 3, 100).reshape(100, 1)\nC = A @ X_new", (2, "value")),
    ("X_new = np.linspace(-2 * np.pi, 2 * np.pi, 5).reshape(5, 1)\nC = A @ X_new", (2, "value")),
    # the objects read: the array inside numpy's index trick, an estimator the cell made
    ("C = np.c_[np.ones(7), X]", (1, "value")),
    ("for _ in range(1):\n    C = A @ B", (2, "value")),         # a loop's sure first pass
    # an array the cell makes once before the use, bound again only after it
    ("T = np.ones((2, 1))\nC = A @ T\nT = T + 1", (2, "value")),
    ("T = np.ones((2, 1))\nfor _ in range(3):\n    G = A @ T\n    T = T - G", (3, "value")),
    ("r = Ridge(alpha=0.1, solver='choleski')\nr.fit(X, y)", (2, "value")),
    ("r = Ridge(alpha=-0.5 / 3)\nr.fit(X, y)", (2, "value")),               # Python's arithmetic of numbers
    # the items a library's call makes, unpacked; an operator of library data: new arrays
    ("u, v = np.meshgrid(np.ones(4), np.ones(3))\nC = np.c_[u.ravel(), v]", (2, "value")),
    ("T = np.ones((2, 1)) - 0.5\nS = T ** 2 + 0.1 * np.ones((2, 1))\nC = A @ S", (3, "value")),
    ("T = -np.ones((2, 1))\nC = A @ T", (2, "value")),
    # a comparison of library data and its methods; numpy's concatenation tricks: new arrays
    ("M = (np.random.rand(3, 4) < 0.5).astype(np.int32).cumsum(axis=0)\nC = M / np.arange(3)", (2, "value")),
    ("Z = np.c_[np.ones(3), np.zeros(3)]\nC = A @ Z", (2, "value")),
    ("n = 3\nC = A.reshape(n, 5)", (2, "value")),
    # a number handed to a call stays the number it was; a loop over a display of literal pairs
    ("m = len(X)\nw = np.ones(m) / m\nr = Ridge().fit(X[:20], y[:20], sample_weight=w * m)", (3, "value")),
    ("for i, k in ((0, 3), (1, 4)):\n    C = A.reshape(k, 5)", (2, "value")),
    # a `with` of numpy's errstate (its exit never suppresses)
    ("with np.errstate(all='ignore'):\n    C = A @ B", (2, "value")),
])
def test_a_value_error_nothing_can_prevent_stops_the_cell(cell, stop, ns):
    assert _stops(cell, ns) == [stop]
    _raises(cell, ns)


@pytest.mark.parametrize("cell", [
    "refresh()\nC = A @ B",                                  # the user's code runs first
    "import random\nif random.random() < 2:\n    C = A @ B",  # a branch
    "for _ in np.arange(1):\n    C = A @ B",                  # a loop's body, over an array
    "import contextlib\nwith contextlib.suppress(ValueError):\n    C = A @ B",   # inside a `with` that may suppress
    "D = B\nC = A @ D",                                        # another name for an operand
    "T = np.ones((2, 1))\nT = B\nC = A @ T",                  # bound twice before the use
    "frames.append(B)\nC = A @ B",                             # an operand handed to a call
    "k = -refresh()\nC = A @ B",                                # the user's code, its result negated
    "frames.append(X)\nC = np.c_[np.ones(7), X]",
    "r = Ridge(alpha=0.1, solver='choleski')\nfor _ in np.arange(1):\n    r.fit(X, y)",
    # items of a library's call, or an operator's new array, named again or handed on before the use
    "u, v = np.meshgrid(np.ones(4), np.ones(3))\nw = v\nC = np.c_[u.ravel(), v]",
    "u, v = np.meshgrid(np.ones(4), np.ones(3))\nframes.append(v)\nC = np.c_[u.ravel(), v]",
    "T = np.ones((2, 1)) - 0.5\nframes.append(T)\nC = A @ T",
    "Z = np.c_[np.ones(3), np.zeros(3)]\nW = Z\nC = A @ Z",
    "m = len(frames)\nw = np.ones(40)\nframes.append(w)\nr = Ridge().fit(X[:20], y[:20], sample_weight=w)",
])
def test_a_value_error_something_may_prevent_is_shown_not_stopped(cell, ns):
    found = exact_check(cell, ns)
    assert [f.kind for f in found.findings] == ["value"] and found.certain == []


@pytest.mark.parametrize("cell, stop", [
    # a pipeline only stores the steps it is given until it is fitted, and nothing names it after
    ("s = StandardScaler()\nm = LinearSVC()\npipe = make_pipeline(s, m)\nw = m.coef_", (4, "attribute")),
    ("pipe = make_pipeline(model)\np = model.predcit(X)", (2, "attribute")),
    ("pipe = make_pipeline(StandardScaler(), SVC(kernel='rbff'))\npipe.fit(X, y)", (2, "value")),
    ("pipe = make_pipeline(StandardScaler(), LinearSVC())\np = pipe.predict(X)", (2, "call")),
])
def test_a_pipeline_the_cell_makes_stops_as_its_steps_would(cell, stop, ns):
    objects = {**ns, "make_pipeline": make_pipeline, "StandardScaler": StandardScaler, "LinearSVC": LinearSVC,
               "SVC": SVC}
    assert _stops(cell, objects) == [stop]
    with warnings.catch_warnings(), pytest.raises((ValueError, AttributeError)):
        warnings.simplefilter("ignore")
        exec(cell, dict(objects))


def test_an_object_given_to_a_pipeline_named_again_is_shown_not_stopped(ns):
    """`pipe.fit(X, y)` between: the pipeline may change what it holds (here `model` is fitted
    again; the misspelt method still raises, but the stop is not sure of what runs first)."""
    objects = {**ns, "make_pipeline": make_pipeline}
    found = exact_check("pipe = make_pipeline(model)\npipe.fit(X, y)\np = model.predcit(X)", objects)
    assert [f.kind for f in found.findings] == ["attribute"] and found.certain == []


def test_a_fit_after_what_may_change_the_estimator_in_its_statement_is_no_claim(ns):
    """`print(r.set_params(alpha=1.0), r.fit(X, y))`: set_params runs first (found in review)."""
    cell = "r = Ridge(alpha=-1.0)\nprint(r.set_params(alpha=1.0), r.fit(X, y))"
    assert kernel_facts(cell, ns) == []
    exec(cell, dict(ns))


def test_a_value_fact_carries_its_subjects_and_one_without_them_is_no_stop(ns):
    (fact,) = kernel_facts("C = np.dot(A, B)\n", ns)
    assert fact.subjects == ("A", "B")                         # np is a module: code, not data
    assert KernelFact.from_dict(fact.to_dict()) == fact        # carried to the panel and back
    from jupyter_codecheck.facts.certainty import Certainty
    sure = Certainty(ast.parse("C = np.dot(A, B)\n"), ns, set())
    assert sure.crashes(1, 4, object_fact=True, subjects=("A", "B"))
    assert not sure.crashes(1, 4, object_fact=True, subjects=())


def test_the_guard_stops_a_sure_value_error_and_runs_the_cell_that_is_not_sure():
    """In a real IPython shell under `%codecheck auto guard`: the sure crash never runs (its
    first line's effect is missing), the cell with a user's function first runs and raises."""
    from IPython.core.interactiveshell import InteractiveShell

    from jupyter_codecheck.views.auto_mode import CellStopped
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "jupyter_codecheck")
    try:
        shell.run_cell("import numpy as np\nA = np.ones((3, 4))\nB = np.ones((3, 2))\n"
                       "def refresh():\n    pass\n", store_history=True)
        shell.run_line_magic("codecheck", "auto guard")
        stopped = shell.run_cell("side_v = 1\nC = A @ B", store_history=True)
        assert isinstance(stopped.error_before_exec, CellStopped)
        assert "side_v" not in shell.user_ns
        ran = shell.run_cell("refresh()\nside_w = 1\nC = A @ B", store_history=True)
        assert ran.error_before_exec is None and isinstance(ran.error_in_exec, ValueError)
        assert shell.user_ns["side_w"] == 1
    finally:
        shell.run_line_magic("codecheck", "auto off")
        shell.run_line_magic("unload_ext", "jupyter_codecheck")


def test_a_literal_list_the_cell_binds_is_its_own_object(ns):
    """`row = [1.0, 2.0]` then `model.predict(row)`: a new list no other name holds, a stop; the
    same list handed to a call first (which may keep or change it) is shown, not stopped."""
    assert _stops("row = [1.0, 2.0, 3.0]\np = model.predict(row)", ns) == [(2, "value")]
    _raises("row = [1.0, 2.0, 3.0]\np = model.predict(row)", ns)
    found = exact_check("row = [1.0, 2.0, 3.0]\nframes.append(row)\np = model.predict(row)", ns)
    assert [f.kind for f in found.findings] == ["value"] and found.certain == []


def test_an_operator_with_an_object_of_the_users_makes_no_sure_new_array(ns):
    """`T = np.ones((2, 1)) + w`: w's class answers the operator (it may hand back an object
    another name holds); the same operator of library data makes a new array."""
    from jupyter_codecheck.facts.certainty import Certainty

    class Wrapped:
        def __radd__(self, other):
            return ns["B"]

    objects = {**ns, "w": Wrapped()}
    for cell, sure in [("T = np.ones((2, 1)) + w\nC = A @ T\n", False), ("T = np.ones((2, 1)) + 1\nC = A @ T\n", True),
                       ("T = (np.ones((2, 1)) < w).astype(float)\nC = A @ T\n", False),
                       ("T = (np.ones((2, 1)) < 1).astype(float)\nC = A @ T\n", True)]:
        assert Certainty(ast.parse(cell), objects, set()).crashes(2, 4, object_fact=True, subjects=("A", "T")) is sure


def _fitted():
    from sklearn.multioutput import MultiOutputClassifier
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
    grid = np.c_[np.ones(100), np.zeros(100)]
    two = np.c_[Y, 1 - Y]
    return {"np": np, "grid": grid, "clf": DecisionTreeClassifier(max_depth=2).fit(X[:, :2], Y),
            "lr": LogisticRegression().fit(X[:, :2], Y), "reg": DecisionTreeRegressor().fit(X[:, :2], X[:, 0]),
            "multi": DecisionTreeClassifier().fit(X[:, :2], two), "wrapped": MultiOutputClassifier(
                LogisticRegression()).fit(X[:, :2], two), "pipe": make_pipeline(StandardScaler(copy=False),
                                                                                   LogisticRegression()).fit(X[:, :2], Y),
            "named": DecisionTreeClassifier().fit(X[:, :2], np.where(Y == 1, "yes", "no"))}


@pytest.mark.parametrize("cell", [
    "y_pred = clf.predict(grid).reshape(grid.shape)",          # one target: (n_samples,)
    "p = lr.predict_proba(grid).reshape(100, 3)",              # (n_samples, n_classes)
    "p = reg.predict(grid).reshape(50, 3)",
])
def test_a_fitted_estimators_predictions_of_one_target_have_its_documented_shape(cell):
    objects = _fitted()
    assert _stops(cell, objects) == [(1, "value")]
    _raises(cell, objects)


@pytest.mark.parametrize("cell", [
    "y_pred = multi.predict(grid).reshape(grid.shape)",        # two targets: (n_samples, 2), as asked
    "y_pred = wrapped.predict(grid).reshape(grid.shape)",
    "y_pred = pipe.predict(grid).reshape(100, 1)",             # a pipeline's classes are its last step's
    "y_pred = named.predict(grid).reshape(100, 1)",            # text labels: reshaped as they are
])
def test_predictions_of_unknown_shape_are_no_claim(cell):
    objects = _fitted()
    assert [f for f in exact_check(cell, objects).findings if f.kind == "value"] == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(cell, dict(objects))
