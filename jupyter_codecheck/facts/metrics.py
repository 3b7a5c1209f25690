"""scikit-learn's classification metrics given a continuous target: `accuracy_score(y_test,
preds)` where preds holds probabilities or regression outputs. Each metric checks its targets
first (`_check_targets`): a continuous y_true or y_pred, beside any other sequence of targets, is
a ValueError ("Classification metrics can't handle a mix of binary and continuous targets",
"continuous is not supported", or the targets' lengths differing, checked first).

The targets' kind is scikit-learn's own `type_of_target`, run on a live numpy ndarray or pandas
Series of their own classes holding numbers (no user code runs), of at most `_MOST` values; the
metrics are held against the installed library by tests/test_value_facts.py.
"""
from __future__ import annotations

import ast
import inspect
import sys

from .read_policy import POLICY
from .values import Live, ValueClaim

CLASSIFICATION_METRICS = ("accuracy_score", "balanced_accuracy_score", "classification_report", "confusion_matrix",
                          "f1_score", "hamming_loss", "jaccard_score", "matthews_corrcoef",
                          "multilabel_confusion_matrix", "precision_recall_fscore_support", "precision_score",
                          "recall_score", "zero_one_loss", "cohen_kappa_score")
_MOST = 100_000


def metric_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    """`balanced_accuracy_score(y_test, preds)` with preds continuous: ValueError."""
    metrics = sys.modules.get("sklearn.metrics")
    if metrics is None or not any(POLICY.module_members(metrics).get(m) is target for m in CLASSIFICATION_METRICS):
        return None
    try:
        roles = tuple(inspect.signature(target).parameters)[:2]      # y_true, y_pred (or y1, y2)
    except (TypeError, ValueError):
        return None
    if any(isinstance(a, ast.Starred) for a in n.args) or len(n.args) > 2 or \
            any(k.arg not in roles for k in n.keywords):
        return None
    given = dict(zip(roles, n.args)) | {k.arg: k.value for k in n.keywords}
    if len(given) != 2 or len(n.args) + len(n.keywords) != 2:
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
