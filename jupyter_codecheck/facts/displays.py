"""scikit-learn's ConfusionMatrixDisplay given `display_labels` of another count than its matrix's
classes: `plot()` sets one tick per class and the labels on them, and matplotlib refuses a count
of labels other than of ticks (ValueError: "The number of FixedLocator locations (3) ... does
not match the number of labels (2)"). `from_predictions(y_true, y_pred, display_labels=...)`
plots at once, so raises there.

The classes: a live matrix's size, or that of `confusion_matrix(y_true, y_pred)` made in the
cell (abstract.py), which holds at least the distinct labels either input holds: fewer labels
than those is a claim; more only where the size is known.

scikit-learn's partial dependence, `PartialDependenceDisplay.from_estimator(est, X, features)` and
`partial_dependence(est, X, features)`: a feature named by text that is not one of X's columns
raises ValueError ("Feature 'aeg' not in feature_names"; "A given column is not a column of the
dataframe"), and so does every check before it. X a live DataFrame whose labels are all text
(scikit-learn then takes them as the feature names), no `feature_names` given; the features a
literal list of names, positions and pairs of them.
"""
from __future__ import annotations

import ast
import sys
import types

from .abstract import Propagation
from .abstract_sklearn import label_count
from .abstract_value import Abstract, _literal, distinct_at_least
from .column_selection import frame_labels
from .read_policy import POLICY
from .values import Live, ValueClaim


def feature_name_claim(n: ast.Call, target, value: Live) -> ValueClaim | None:
    """The first feature named by text that X's columns lack, in a partial dependence call."""
    inspection = sys.modules.get("sklearn.inspection")
    if inspection is None or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    display = POLICY.module_members(inspection).get("PartialDependenceDisplay")
    function = POLICY.module_members(inspection).get("partial_dependence")
    bound = POLICY.static(display, "from_estimator", None) if display is not None else None
    made = type(target) is types.MethodType and target.__self__ is display and \
        type(bound) is classmethod and target.__func__ is bound.__func__
    if not made and (function is None or target is not function):
        return None
    signature = POLICY.signature(target)
    try:
        given = signature.bind(*n.args, **{k.arg: k.value for k in n.keywords}).arguments if signature else None
    except TypeError:
        return None                     # Python refuses the call first (`X` given twice)
    if given is None or "feature_names" in given or not {"X", "features"} <= set(given):
        return None
    labels = frame_labels(value(given["X"]))
    features = _literal(given["features"])
    if labels is None or not labels or not all(type(c) is str for c in labels) or type(features) not in (list, tuple):
        return None
    names = [f for x in features for f in (x if type(x) in (list, tuple) else (x,))]
    if not all(type(f) in (str, int) for f in names):
        return None
    missing = next((f for f in names if type(f) is str and f not in labels), None)
    if missing is None:
        return None
    return ValueClaim(given["features"], f"{ast.unparse(n.func)}(): feature {missing!r} is not a column of "
                                         f"{ast.unparse(given['X'])}: ValueError", "ValueError")


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

