"""Findings the README promises that a trial on a real notebook missed: a cell run twice whose
first run deleted a column it then shows (kernel and command line, where the frame is shown
bare), and a fitted classifier's `score` given X and y of different lengths. Real pandas and
scikit-learn; the command line runs for real."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd

from jupyter_codecheck.core.exact_findings import exact_check

BUILD = 'import pandas as pd\ndf = pd.DataFrame({"size": ["S", "M"], "price": [2.0, 3.0]})\ndf'
DROP = 'del df["size"]\ndf'


def test_a_cell_run_again_says_its_first_run_removed_the_column_in_the_kernel():
    ns = {}
    exec(BUILD, ns)
    exec(DROP, ns)
    (finding,) = exact_check(DROP, ns, history=[BUILD, DROP]).findings
    assert "this cell already ran" in finding.message and "removed it" in finding.message
    # a live fact on the same label, before the drop, says why too
    cell = 'X = df.drop(columns=["size"])\ndel df["size"]'
    ns = {}
    exec(BUILD, ns)
    exec(cell, ns)
    first = exact_check(cell, ns, history=[BUILD, cell]).findings[0]
    assert first.line == 1 and "this cell already ran" in first.message, first


def test_the_command_line_finds_the_rerun_of_a_cell_that_deletes_a_column_and_shows_the_frame(tmp_path, model_path):
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in (BUILD, DROP, DROP)]
    nbformat.write(nb, tmp_path / "twice.ipynb")
    proc = subprocess.run([sys.executable, "-m", "jupyter_codecheck.views.cli", "--format", "json", "twice.ipynb"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    report = json.loads(proc.stdout)
    text = json.dumps(report)
    assert "this cell already ran" in text and "'size'" in text, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_score_with_x_and_y_of_different_lengths_is_a_fact():
    from sklearn.cluster import KMeans
    from sklearn.neighbors import KNeighborsClassifier
    X, y = np.random.default_rng(0).random((20, 2)), np.arange(20) % 2
    ns = {"knn": KNeighborsClassifier().fit(X, y), "km": KMeans(2, n_init=1, random_state=0).fit(X),
          "X_test": X[:5], "y_test": y[:5], "y_train": y}
    (finding,) = exact_check("acc = knn.score(X_test, y_train)", ns).findings
    assert "X_test has 5 samples but y_train has 20" in finding.message
    try:
        exec("acc = knn.score(X_test, y_train)", dict(ns))
        raise AssertionError("scikit-learn accepted it")
    except ValueError:
        pass
    assert exact_check("acc = knn.score(X_test, y_test)", ns).findings == []
    assert exact_check("s = km.score(X_test, y_train)", ns).findings == []    # a clusterer's score ignores y


def test_dropping_a_row_label_the_frame_lacks_is_a_certain_crash():
    data = pd.DataFrame(np.arange(8).reshape((2, 4)), index=["Ohio", "Utah"], columns=list("abcd"))
    ns = {"data": data, "s": pd.Series([1, 2, 3])}
    for cell, fix in (('data.drop(index=["Utah", "Ohoi"])', '"Ohio"'), ('data.drop("Utha")', '"Utah"'),
                      ("s.drop(5)", None)):
        exact = exact_check(cell, ns)
        (finding,) = exact.certain
        assert "no row label" in finding.message and (fix is None or fix in finding.message), finding
        try:
            eval(cell, dict(ns))
            raise AssertionError(f"{cell} ran")
        except KeyError:
            pass
    for cell in ('data.drop(["Utah"])', 'data.drop("a", axis=1)', 'data.drop(["Ohoi"], errors="ignore")', "s.drop([0, 1])"):
        assert exact_check(cell, ns).findings == [], cell


def test_a_slip_on_an_object_the_cell_makes_is_stopped():
    cell = 'ser3 = pd.Series(np.arange(3.), index=["a", "b", "c"])\nser3.iloc[-1]\nser3.ilco[0]'
    exact = exact_check(cell, {"pd": pd, "np": np})
    assert [f.line for f in exact.certain] == [3]
    # another name for it, or a call of the user's code first: not sure
    assert exact_check(cell.replace("ser3.iloc[-1]", "other = ser3"), {"pd": pd, "np": np}).certain == []


def test_a_method_given_a_builtin_that_only_reads_still_stops():
    people = pd.DataFrame(np.ones((3, 2)), columns=list("ab"), index=["Joe", "Ann", "Bo"])
    ns = {"pd": pd, "people": people}
    assert [f.line for f in exact_check("people.groupby(len).summ()", ns).certain] == [1]
    # a function of the user's given to it may change the frame: shown, not stopped
    assert exact_check("def key(x):\n    return x\npeople.groupby(key).summ()", ns).certain == []


def test_text_dropped_from_an_index_of_integers_is_a_certain_crash_and_a_column_is_dropped_as_one():
    """No text is a row label of an index of integers, however long (pandas' KeyError); a
    column's name given to drop() as a row is fixed by naming it a column."""
    data = pd.DataFrame({"rooms": np.arange(200_001.0), "income_cat": 1}, index=np.arange(200_001) * 2)
    ns = {"data": data, "s": data["rooms"]}
    for cell, fix in (('data.drop("income_cat", inplace=True)', 'columns="income_cat"'),
                      ('data.drop(["rooms", "income_cat"])', None), ('s.drop("rooms")', None),
                      ('data.drop(index="incme")', None)):
        (finding,) = exact_check(cell, ns).certain
        assert "no row label" in finding.message, finding
        assert (fix in finding.message) if fix else "did you mean" not in finding.message, finding
        try:
            exec(cell, {"data": data.copy(), "s": data["rooms"].copy()})
            raise AssertionError(f"{cell} ran")
        except KeyError:
            pass
        if fix:
            exec(cell.replace('"income_cat"', fix), {"data": data.copy()})
    for cell in ('data.drop("rooms", axis=1)', 'data.drop(columns="rooms")', "data.drop([0, 2])",
                 'data.drop("x", errors="ignore")'):
        assert exact_check(cell, ns).findings == [], cell
