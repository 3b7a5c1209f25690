"""scikit-learn's encoders given labels they were not fitted on: `le.transform(test["city"])` with
a city the fit never saw (LabelEncoder: ValueError, y contains previously unseen labels), and
`enc.transform(X_test)` with an unknown category where the encoder's `handle_unknown` is "error"
(OneHotEncoder, OrdinalEncoder: ValueError, Found unknown categories).

Judged by the fitted encoder itself: its own `transform` runs on the input's first `SAMPLE_ROWS`
rows, and a label unknown there is unknown in the whole input (the encoders look each value up
among the fit's categories). The encoder is live, of scikit-learn's own class, holding no other
estimator; the input a live list, numpy ndarray, or pandas Series or DataFrame of their own
classes holding plain values only (str, int, float, bool, None), or a list written in the call
(of rows, lists or tuples of such values, for the 2-D encoders), so that no code of the user's runs.
"""
from __future__ import annotations

import ast
import sys
import types
import warnings

from .abstract_value import _literal
from .estimators import sklearn_estimator
from .values import Live, ValueClaim

SAMPLE_ROWS = 1000
_ENCODERS = ("LabelEncoder", "OneHotEncoder", "OrdinalEncoder")
_PLAIN = (str, int, float, bool, type(None))
# what the encoders say of a label the fit never saw (sklearn.utils._encode, the encoders' _transform)
_UNKNOWN = ("previously unseen labels", "Found unknown categories")


def encoder_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    """`encoder.transform(values)` where a value among the first rows is one the fit never saw."""
    pre = sys.modules.get("sklearn.preprocessing")
    if pre is None or type(target) is not types.MethodType or not isinstance(n.func, ast.Attribute) or \
            n.func.attr != "transform" or len(n.args) != 1 or n.keywords or isinstance(n.args[0], ast.Starred):
        return None
    encoder = target.__self__
    if not any(type(encoder) is getattr(pre, name, None) for name in _ENCODERS) or \
            target.__func__ is not getattr(type(encoder), "transform", None) or not sklearn_estimator(encoder, alone=True):
        return None
    try:
        given = n.args[0]
        head = _head(list(_literal(given)) if isinstance(given, (ast.List, ast.Tuple)) else live(given))
        if head is None:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target(head)
    except ValueError as e:
        said = str(e)
        if not any(u in said for u in _UNKNOWN):
            return None
        return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {said.splitlines()[0][:160]}: ValueError "
                                  f"(this {type(encoder).__name__} was not fitted on it)", "ValueError", callee=True)
    except Exception:  # noqa: BLE001 - another failure: not this rule's
        return None
    return None


def _head(x):
    """The first rows of a live list, ndarray, Series or DataFrame of plain values; else None."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if type(x) is list:
        head = x[:SAMPLE_ROWS]
        # rows as lists or tuples: the 2-D X OneHotEncoder and OrdinalEncoder take
        if all(type(v) in _PLAIN or (type(v) in (list, tuple) and all(type(e) in _PLAIN for e in v)) for v in head):
            return head
        return None
    if np is not None and type(x) is np.ndarray:
        head = x[:SAMPLE_ROWS]
        if head.dtype.kind == "O" and any(type(v) not in _PLAIN for v in head.ravel().tolist()):
            return None
        return head if head.dtype.kind in "biufUSO" else None
    if pd is None or type(x) not in (pd.Series, pd.DataFrame) or x.attrs:
        return None
    head = x.iloc[:SAMPLE_ROWS]
    frames = [head] if type(head) is pd.Series else [head.iloc[:, k] for k in range(head.shape[1])]
    for s in frames:
        dtype = s.dtype
        if type(dtype) is not pd.StringDtype and (type(dtype).__module__.split(".")[0] != "numpy" or
                                                  dtype.kind not in "biufO"):
            return None             # categories, nullable and arrow dtypes: the encoder's own reading
        if dtype.kind == "O" and any(type(v) not in _PLAIN for v in s.tolist()):
            return None
    if type(head) is pd.DataFrame and any(type(c) is not str for c in head.columns):
        return None                 # feature names compared with the fit's: plain text only
    return head
