"""ConfusionMatrixDisplay given display_labels of another count than its matrix's classes
(facts/displays.py): held against scikit-learn and matplotlib, each claimed cell raises the
ValueError on the claimed line, the same cell with the right count runs and gets no claim."""
from __future__ import annotations

import traceback

import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn import metrics

from jupyter_codecheck.facts import kernel_facts

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def namespace() -> dict:
    return {"metrics": metrics, "plt": plt, "np": np, "ConfusionMatrixDisplay": metrics.ConfusionMatrixDisplay,
            "y_test": pd.Series(["setosa", "versicolor", "virginica", "setosa"]),
            "y_pred": np.array(["setosa", "versicolor", "versicolor", "setosa"], dtype=object),
            "cm": np.array([[2, 0], [1, 1]]), "names": ["no", "yes"]}


def run(cell: str) -> tuple[str, int] | None:
    try:
        exec(compile(cell, "<cell>", "exec"), namespace())
    except Exception as e:  # noqa: BLE001 - whatever the libraries raise is compared
        return type(e).__name__, [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    finally:
        plt.close("all")
    return None


@pytest.mark.parametrize("cell, fitting", [
    ("matrix = metrics.confusion_matrix(y_test, y_pred)\n"
     "disp = metrics.ConfusionMatrixDisplay(confusion_matrix=matrix, display_labels=[False, True])\ndisp.plot()\n",
     "matrix = metrics.confusion_matrix(y_test, y_pred)\n"
     "disp = metrics.ConfusionMatrixDisplay(confusion_matrix=matrix, display_labels=['a', 'b', 'c'])\ndisp.plot()\n"),
    ("ConfusionMatrixDisplay(cm, display_labels=['a', 'b', 'c']).plot()\n",
     "ConfusionMatrixDisplay(cm, display_labels=names).plot()\n"),
    ("m = metrics.confusion_matrix(y_test, y_pred, labels=['setosa', 'versicolor'])\n"
     "metrics.ConfusionMatrixDisplay(m, display_labels=['s', 'v', 'x']).plot()\n",
     "m = metrics.confusion_matrix(y_test, y_pred, labels=['setosa', 'versicolor'])\n"
     "metrics.ConfusionMatrixDisplay(m, display_labels=['s', 'v']).plot()\n"),
    ("ConfusionMatrixDisplay.from_predictions(y_test, y_pred, display_labels=['a', 'b'])\n",
     "ConfusionMatrixDisplay.from_predictions(y_test, y_pred, display_labels=['a', 'b', 'c'])\n"),
])
def test_display_labels_of_another_count_than_the_classes(cell, fitting):
    facts = [f for f in kernel_facts(cell, namespace()) if f.kind == "value"]
    assert len(facts) == 1, (cell, facts)
    assert run(cell) == ("ValueError", facts[0].line), (cell, facts[0].message, run(cell))
    assert [f for f in kernel_facts(fitting, namespace()) if f.kind == "value"] == [], fitting
    assert run(fitting) is None, fitting


def test_more_labels_than_a_lower_bound_is_no_claim():
    # three classes at least, perhaps more: four labels may fit
    cell = ("matrix = metrics.confusion_matrix(y_test, y_pred)\n"
            "metrics.ConfusionMatrixDisplay(matrix, display_labels=['a', 'b', 'c', 'd']).plot()\n")
    assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == []
    # labels the cell changes before plot(): no claim
    cell = ("matrix = metrics.confusion_matrix(y_test, y_pred)\n"
            "disp = metrics.ConfusionMatrixDisplay(matrix, display_labels=['a', 'b'])\n"
            "disp.display_labels = ['a', 'b', 'c']\ndisp.plot()\n")
    assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == []
    assert run(cell) is None
    assert len(kernel_facts("ConfusionMatrixDisplay(cm, display_labels=['a']).plot()\n", namespace())) == 1


def _partial_dependence_namespace():
    import pandas as pd
    from sklearn.inspection import PartialDependenceDisplay, partial_dependence
    from sklearn.tree import DecisionTreeRegressor
    X = pd.DataFrame({"age": np.arange(20.0), "bmi": np.arange(20.0)[::-1]})
    return {"X": X, "Xn": X.to_numpy(), "tree": DecisionTreeRegressor().fit(X, np.arange(20.0)),
            "PartialDependenceDisplay": PartialDependenceDisplay, "partial_dependence": partial_dependence}


@pytest.mark.parametrize("cell", [
    'd = PartialDependenceDisplay.from_estimator(tree, X, ["aeg", "bmi"])\n',
    'd = PartialDependenceDisplay.from_estimator(tree, X, [("age", "bmy")], kind="average")\n',
    'd = PartialDependenceDisplay.from_estimator(tree, X, features=["age", "bim"])\n',
    'r = partial_dependence(tree, X, ["ag"])\n',
])
def test_a_partial_dependence_feature_named_by_text_that_x_lacks_is_a_value_error(cell):
    ns = _partial_dependence_namespace()
    facts = kernel_facts(cell, ns)
    assert [f.message.rsplit(": ", 1)[1] for f in facts] == ["ValueError"], facts
    with pytest.raises(ValueError):
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    plt.close("all")


@pytest.mark.parametrize("cell", [
    'd = PartialDependenceDisplay.from_estimator(tree, X, ["age", ("age", "bmi"), 1])\n',
    'd = PartialDependenceDisplay.from_estimator(tree, Xn, [0], feature_names=["a", "b"])\n',
    'r = partial_dependence(tree, X, ["bmi"])\n',
])
def test_no_partial_dependence_claim_where_the_features_are_xs(cell):
    ns = _partial_dependence_namespace()
    assert kernel_facts(cell, ns) == []
    exec(compile(cell, "<cell>", "exec"), dict(ns))
    plt.close("all")
