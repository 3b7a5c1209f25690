"""scikit-learn's selection of a frame's columns by name, as ColumnTransformer does it:

    `ct.fit(X)`, `ct.fit_transform(X)` of a ColumnTransformer the cell makes (or a Pipeline whose
    first step is one), X a DataFrame: a column named in a transformer's columns that X lacks
    raises ValueError (Some column names are not columns of the dataframe), before any
    transformer is fitted. Named columns only (a name, or a list of names); positions, masks,
    slices and selectors are not judged, and a transformer's other columns need not be known.

and the labels `list(df)` gives (iterating a DataFrame gives its column labels), so a list of
columns the cell makes from a frame (`num_attribs = list(housing_num)`) is known.
"""
from __future__ import annotations

import ast
import sys

from ..pytext.pycheck import near_typo
from .abstract_value import Abstract, array_like
from .values import Live, ValueClaim

_FITTING = frozenset({"fit", "fit_transform"})
_NOT_ESTIMATORS = frozenset({"drop", "passthrough"})


def frame_labels(obj):
    """The column labels of a live pandas DataFrame, or the labels of a live pandas Index, as a
    list, when each is plain text or a number (pandas' own classes: reading them runs no code of
    the user's); else None."""
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    if type(obj) is pd.DataFrame:
        labels = obj.columns
    elif type(obj) is pd.Index:
        labels = obj
    else:
        return None
    out = list(labels.array) if type(labels) is pd.Index else None
    return out if out is not None and all(type(v) in (str, int, float) for v in out) else None


def column_selection_claim(n: ast.Call, value: Live) -> ValueClaim | None:
    """`ct.fit_transform(X)`: X lacks a column a transformer names."""
    compose, pipeline = sys.modules.get("sklearn.compose"), sys.modules.get("sklearn.pipeline")
    if compose is None or not isinstance(n.func, ast.Attribute) or n.func.attr not in _FITTING or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    x_node = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "X"), None)
    est = value(n.func.value)
    if x_node is None or not (issubclass(type(est), Abstract) and est.like == "estimator"):
        return None
    made = est.instance()
    if pipeline is not None and type(made) is pipeline.Pipeline and type(made.steps) is list and made.steps:
        made = made.steps[0][1] if type(made.steps[0]) is tuple and len(made.steps[0]) == 2 else None
    if type(made) is not compose.ColumnTransformer:
        return None
    try:
        made._validate_params()          # a refused parameter raises first (parameters.py's rule)
    except Exception:  # noqa: BLE001 - scikit-learn refuses it: not this rule's claim
        return None
    x = array_like(x_node, value)
    if x is None or x.like != "DataFrame" or x.columns is None:
        return None
    have = [c for c, _ in x.columns]
    if not all(type(c) is str for c in have):
        return None          # names select only among text labels; otherwise another error
    missing = []
    for part in made.transformers if type(made.transformers) is list else ():
        if type(part) is not tuple or len(part) != 3:
            return None
        _, transformer, columns = part
        if type(transformer) is str and transformer not in _NOT_ESTIMATORS:
            return None
        names = [columns] if type(columns) is str else list(columns) if type(columns) in (list, tuple) else None
        if names and all(type(c) is str for c in names):
            missing += [c for c in names if c not in have and c not in missing]
    if not missing:
        return None
    near = [m for c in missing for m in [h for h in have if near_typo(c, h) or near_typo(c.lower(), h.lower())][:1]]
    hint = f"; did you mean {', '.join(repr(m) for m in near)}?" if len(near) == len(missing) else ""
    shown = "{" + ", ".join(repr(c) for c in missing) + "}"
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {ast.unparse(x_node)} has no column "
                              f"{', '.join(repr(c) for c in missing)}{hint}: ValueError (Some column names are "
                              f"not columns of the dataframe: {shown})", "ValueError", callee=True)
