"""scikit-learn's ConfusionMatrixDisplay given `display_labels` of another count than its matrix's
classes: `plot()` sets one tick per class and the labels on them, and matplotlib refuses a count
of labels other than of ticks (ValueError: "The number of FixedLocator locations (3) ... does
not match the number of labels (2)"). `from_predictions(y_true, y_pred, display_labels=...)`
plots at once, so raises there.

The classes: a live matrix's size, or that of `confusion_matrix(y_true, y_pred)` made in the
cell (abstract.py), which holds at least the distinct labels either input holds: fewer labels
than those is a claim; more only where the size is known.
"""
from __future__ import annotations

import ast
import sys

from .abstract import Propagation
from .abstract_sklearn import label_count
from .abstract_value import Abstract, distinct_at_least
from .values import Live, ValueClaim


def display_claim(n: ast.Call, target, value: Live) -> ValueClaim | None:
    """`disp.plot()` of a display the cell made, or `ConfusionMatrixDisplay.from_predictions`."""
    if not isinstance(n.func, ast.Attribute):
        return None
    if n.func.attr == "plot":
        display = value(n.func.value)
        if not (issubclass(type(display), Abstract) and display.like == "ConfusionMatrixDisplay"):
            return None
        return _mismatch(n, display.shape[0], display.least[0] if display.least else 0, display.labels)
    metrics = sys.modules.get("sklearn.metrics")
    shown = getattr(metrics, "ConfusionMatrixDisplay", None) if metrics is not None else None
    if n.func.attr != "from_predictions" or shown is None or getattr(target, "__func__", None) is not \
            getattr(shown.from_predictions, "__func__", ()):
        return None
    given = dict(zip(("y_true", "y_pred"), n.args)) | {k.arg: k.value for k in n.keywords}
    if len(n.args) > 2 or "display_labels" not in given or "labels" in given:
        return None
    labels = label_count(given["display_labels"], Propagation(value).value)
    least = max(distinct_at_least(value(given.get("y_true"))) if "y_true" in given else 0,
                distinct_at_least(value(given.get("y_pred"))) if "y_pred" in given else 0)
    return _mismatch(n, None, least, labels)


def _mismatch(n: ast.Call, classes: int | None, least: int, labels: int | None) -> ValueClaim | None:
    if labels is None or (classes is not None and labels == classes) or (classes is None and labels >= least):
        return None
    size = f"{classes} classes" if classes is not None else f"at least {least} classes (the distinct labels it is given)"
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): display_labels has {labels} labels for a confusion matrix "
                              f"of {size}: matplotlib refuses a label count other than the ticks': ValueError",
                      "ValueError", callee=True)

