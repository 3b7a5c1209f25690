"""Does a scikit-learn estimator take a call now? `model.predict(X)` on an estimator never fitted
raises NotFittedError; on one fitted with other columns, or another number of them, ValueError.
Read as scikit-learn reads them: fitted means an attribute of its own ending in `_`
(`check_is_fitted`), and X must match `n_features_in_` and `feature_names_in_`.

Only an estimator whose classes all come from scikit-learn, whose parameters hold no estimator
of the user's and that does not answer `__sklearn_is_fitted__` itself; its tags are scikit-learn's
own code on its own object (some estimators need no fit). Classes whose methods do not check X
are left out (`UNCHECKED_INPUT`, held against the installed library by bench/sklearn_facts.py).
"""
from __future__ import annotations

import abc
import inspect
import sys

# the methods that check the estimator is fitted and take X first
NEEDS_FIT = frozenset({"predict", "predict_proba", "predict_log_proba", "decision_function",
                       "transform", "score"})
# fitted estimators whose methods take any X (bench/sklearn_facts.py finds them)
UNCHECKED_INPUT = frozenset({"DummyClassifier", "DummyRegressor", "MultiLabelBinarizer"})


def estimator_problem(est, method: str, X=None, *, has_x: bool = False, x_name: str = "X") -> str | None:
    """What scikit-learn raises at `est.method(X, ...)`, in a line; None when nothing surely
    does. `has_x`: X is the live value of the call's first argument, written `x_name`."""
    if method not in NEEDS_FIT or not _plain_sklearn(est):
        return None
    own = object.__getattribute__(est, "__dict__")
    name = type(est).__name__
    if not _requires_fit(est):
        return None
    if not any(k.endswith("_") and not k.startswith("__") for k in own):
        return (f"this {name} is not fitted yet: {method}() raises NotFittedError "
                "(call fit first)")
    if not has_x or name in UNCHECKED_INPUT:
        return None
    return _input_problem(name, own, X, x_name)


def _input_problem(name: str, own: dict, X, x_name: str) -> str | None:
    n = own.get("n_features_in_")
    if type(n) is not int:
        return None
    pd = sys.modules.get("pandas")
    np = sys.modules.get("numpy")
    if pd is not None and type(X) is pd.DataFrame:
        columns = list(X.columns)
        fitted = own.get("feature_names_in_")
        if fitted is not None and columns and all(type(c) is str for c in columns):
            fitted = [str(c) for c in fitted]
            if columns == fitted:
                return None
            unseen = [c for c in columns if c not in fitted]
            missing = [c for c in fitted if c not in columns]
            if not unseen and not missing:
                return f"{x_name} has the columns {name} was fitted with, in another order: ValueError"
            return (f"{x_name}'s columns are not those {name} was fitted with: ValueError"
                    + (f"; not seen at fit: {_few(unseen)}" if unseen else "")
                    + (f"; missing: {_few(missing)}" if missing else ""))
        width = len(columns)
    elif np is not None and type(X) is np.ndarray and X.ndim == 2:
        width = X.shape[1]
    else:
        return None
    if width == n:
        return None
    return f"{x_name} has {width} features, but {name} is expecting {n} features as input: ValueError"


def _few(labels: list[str], most: int = 3) -> str:
    shown = ", ".join(repr(x) for x in labels[:most])
    return shown + (f" and {len(labels) - most} more" if len(labels) > most else "")


def _plain_sklearn(est) -> bool:
    """Are the estimator's classes all scikit-learn's, with no `__sklearn_is_fitted__`, and do
    its parameters hold no estimator but such plain ones (a pipeline's steps, a search's
    estimator)?"""
    params = _parameters(est)
    return params is not None and _plain_class(type(est)) and all(
        _plain_sklearn(v) for v in params if _estimator_like(v))


def _plain_class(cls) -> bool:
    if "sklearn" not in sys.modules:
        return False
    for k in cls.__mro__:
        module = type.__dict__["__module__"].__get__(k, type)
        if k not in (object, abc.ABC) and not (isinstance(module, str) and module.split(".")[0] == "sklearn"):
            return False
        if "__sklearn_is_fitted__" in k.__dict__:
            return False
    return True


def _parameters(est) -> list | None:
    """The values of the estimator's constructor parameters, read from its own attributes; a
    list of steps gives each step's estimator (None: no signature to read)."""
    own = object.__getattribute__(est, "__dict__")
    try:
        names = [p for p in inspect.signature(type(est).__init__).parameters if p != "self"]
    except (TypeError, ValueError):
        return None
    out = []
    for v in (own.get(p) for p in names):
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            out.append(x[-1] if isinstance(x, tuple) and x else x)
    return out


def _estimator_like(v) -> bool:
    return v is not None and not isinstance(v, (str, int, float, bool, dict)) and hasattr(type(v), "fit")


def _requires_fit(est) -> bool:
    try:
        from sklearn.utils import get_tags
        return bool(get_tags(est).requires_fit)
    except Exception:  # noqa: BLE001 - a library's tags failing: no claim
        return False
