"""scikit-learn's classification metrics given a continuous target: `accuracy_score(y_test,
preds)` where preds holds probabilities or regression outputs. Each metric checks its targets
first (`_check_targets`): a continuous y_true or y_pred, beside any other sequence of targets, is
a ValueError ("Classification metrics can't handle a mix of binary and continuous targets",
"continuous is not supported", or the targets' lengths differing, checked first).

The targets' kind is scikit-learn's own `type_of_target`, run on a live numpy ndarray or pandas
Series of their own classes holding numbers (no user code runs), of at most `_MOST` values; the
metrics are held against the installed library by tests/test_value_facts.py.

Any metric of scikit-learn's given two targets of different lengths, numbers live, written or
made by the cell: `mean_squared_error(y_test, model_preds_on_train)`. Its first check of them is
`check_consistent_length` (ValueError: inconsistent numbers of samples); which metrics do so is
asked of the installed library, once a metric, on two short targets of its own.
"""
from __future__ import annotations

import ast
import functools
import inspect
import sys
import warnings

from .abstract_value import Abstract, _nested, array_like
from .estimators import _samples
from .read_policy import POLICY
from .values import Live, ValueClaim

CLASSIFICATION_METRICS = ("accuracy_score", "balanced_accuracy_score", "classification_report", "confusion_matrix",
                          "f1_score", "hamming_loss", "jaccard_score", "matthews_corrcoef",
                          "multilabel_confusion_matrix", "precision_recall_fscore_support", "precision_score",
                          "recall_score", "zero_one_loss", "cohen_kappa_score")
_MOST = 100_000


# the names scikit-learn's metrics give their two targets, first in their signatures
_TARGETS = frozenset({("y_true", "y_pred"), ("y_true", "y_score"), ("y_true", "y_proba"), ("y_true", "y_prob"),
                      ("labels_true", "labels_pred"), ("y1", "y2")})


def metric_claim(n: ast.Call, target, live: Live, value: Live | None = None) -> ValueClaim | None:
    """`balanced_accuracy_score(y_test, preds)` with preds continuous: ValueError; any metric of
    two targets of different lengths (`value` reads a value the cell makes or writes)."""
    return (_lengths_claim(n, target, value) if value is not None else None) or _continuous_claim(n, target, live)


def _lengths_claim(n: ast.Call, target, value: Live) -> ValueClaim | None:
    """`r2_score(y_test, y_train)`: two targets of numbers whose lengths surely differ, at a metric
    of scikit-learn's whose first check of them is their lengths (`_checks_lengths_first`)."""
    metrics = sys.modules.get("sklearn.metrics")
    name = getattr(target, "__name__", None) if metrics is not None and POLICY.is_library(target) else None
    if type(name) is not str or name.startswith("_") or POLICY.module_members(metrics).get(name) is not target:
        return None
    given = _given(n, target)
    if given is None or tuple(given) not in _TARGETS and tuple(reversed(given)) not in _TARGETS:
        return None
    try:
        lengths = {role: _length(node, value) for role, node in given.items()}
    except Exception:  # noqa: BLE001 - read otherwise: no claim
        return None
    if None in lengths.values() or len(set(lengths.values())) == 1 or not _checks_lengths_first(target):
        return None
    said = ", ".join(f"{role}={ast.unparse(node)} has {lengths[role]}" for role, node in given.items())
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {said} samples: ValueError (Found input variables with "
                              "inconsistent numbers of samples)", "ValueError", callee=True)


def _given(n: ast.Call, target) -> dict | None:
    """The call's two targets by their parameters' names, when it passes exactly those two."""
    try:
        roles = tuple(inspect.signature(target).parameters)[:2]
    except (TypeError, ValueError):
        return None
    if any(isinstance(a, ast.Starred) for a in n.args) or len(n.args) > 2 or \
            any(k.arg not in roles for k in n.keywords):
        return None
    given = dict(zip(roles, n.args)) | {k.arg: k.value for k in n.keywords}
    if len(given) != 2 or len(n.args) + len(n.keywords) != 2:
        return None
    return {role: given[role] for role in roles}


def _length(node: ast.expr, value: Live) -> int | None:
    """The samples of a target of numbers in 1-D, live, a literal, or made by the cell; or of an
    estimator's predictions (1-D or 2-D)."""
    a = array_like(node, value)
    if a is None and type(v := value(node)) in (list, tuple) and len(v) <= _MOST:
        nested = _nested(v)             # a live list: the array numpy makes of it
        a = Abstract("ndarray", *nested) if nested is not None else None
    if a is not None and a.like == "predictions":
        return a.shape[0]               # an estimator's output: its rows
    if a is None or not a.is_data() or a.ndim != 1 or a.kind is None or a.kind not in "biuf":
        return None
    return _samples(a)


# the targets a metric is asked about: class labels (two classes, three), numbers, and for the
# predictions a score per class; of four samples against three, as arrays and as lists
_TRUE_PROBES = ([0, 1, 1, 0], [0, 1, 2, 1], [0.5, 1.5, 2.5, 0.1])
_PRED_PROBES = ([0, 1, 0], [0, 2, 1], [0.4, 1.2, 2.0], [[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]])


@functools.cache
def _checks_lengths_first(metric) -> bool:
    """Does the installed `metric` refuse two targets of different lengths with ValueError,
    whatever they hold? Asked of it, once, on every pair of `_TRUE_PROBES` and `_PRED_PROBES`,
    either one the longer, as arrays and as lists."""
    np = sys.modules["numpy"]
    for y_true in _TRUE_PROBES:
        for y_pred in _PRED_PROBES:
            for a, b in ((y_true, y_pred), (y_true[:2], y_pred + y_pred[:1])):
                for make in (np.array, list):
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            metric(make(a), make(b))
                    except Exception as e:  # noqa: BLE001 - only a ValueError of its own is the rule
                        if type(e) is not ValueError:
                            return False
                    else:
                        return False
    return True


def _continuous_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    metrics = sys.modules.get("sklearn.metrics")
    if metrics is None or not any(POLICY.module_members(metrics).get(m) is target for m in CLASSIFICATION_METRICS):
        return None
    given = _given(n, target)                   # y_true, y_pred (or y1, y2)
    if given is None:
        return None
    try:
        objects = {role: live(node) for role, node in given.items()}
        kinds = {role: _target_kind(v) for role, v in objects.items()}
    except Exception:  # noqa: BLE001 - read otherwise: no claim
        return None
    which = [role for role, k in kinds.items() if k is not None and k.startswith("continuous")]
    # the other target: any array-like (its length or its kind fails too), read by its class alone
    if not which or not all(kinds[r] is not None or _array_like(objects[r]) for r in given):
        return None
    said = ", ".join(f"{r}={ast.unparse(given[r])} is {kinds[r]}" for r in which)
    others = [f"{r} is {kinds[r]}" for r in given if r not in which and kinds[r] is not None]
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {said}" + (f" and {others[0]}" if others else "") +
                      "; a classification metric takes class labels: ValueError", "ValueError", callee=True)


def _target_kind(v) -> str | None:
    """scikit-learn's `type_of_target` of a live ndarray or Series of numbers (their own classes)."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if np is not None and type(v) is np.ndarray:
        values = v
    elif pd is not None and type(v) is pd.Series and not v.attrs and \
            type(v.dtype).__module__.split(".")[0] == "numpy":
        values = v.to_numpy()
    else:
        return None
    if values.dtype.kind not in "biuf" or values.size > _MOST or values.size == 0 or values.ndim > 2:
        return None
    from sklearn.utils.multiclass import type_of_target
    return str(type_of_target(values))


def _array_like(v) -> bool:
    """Is `v` of a class scikit-learn takes as a sequence of targets (an ndarray, a pandas Series
    or DataFrame, a list or tuple, or a subclass of one)? Read from its class only."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    kinds = (list, tuple) + ((np.ndarray,) if np is not None else ()) + ((pd.Series, pd.DataFrame) if pd is not None else ())
    return issubclass(type(v), kinds)
