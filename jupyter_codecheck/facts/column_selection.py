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
from .abstract_value import Abstract, Held, array_like
from .estimators import sklearn_class
from .read_policy import POLICY
from .values import Live, ValueClaim

_FITTING = frozenset({"fit", "fit_transform"})
_NOT_ESTIMATORS = frozenset({"drop", "passthrough"})
# ColumnTransformer's parameters besides its transformers
_OPTIONS = ("remainder", "sparse_threshold", "n_jobs", "transformer_weights", "verbose",
            "verbose_feature_names_out", "force_int_remainder_cols")


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


def column_transformer_parts(est) -> tuple[list, dict] | None:
    """The transformers and other parameters of the ColumnTransformer an estimator the cell makes
    is, or begins with (a Pipeline's first step), as the cell gives them: its arguments (a
    transformer may be a live estimator holding the user's code, never made here), or a live
    ColumnTransformer's own parameters (scikit-learn's class: read from its own dict)."""
    compose, pipeline = sys.modules.get("sklearn.compose"), sys.modules.get("sklearn.pipeline")
    if compose is None or not (issubclass(type(est), Abstract) and est.like == "estimator"):
        return None
    args, keywords = est.arguments
    given = dict(keywords)
    if pipeline is not None and est.estimator is pipeline.Pipeline:
        steps = args[0] if args else given.get("steps")
        if type(steps) is not list or not steps or type(steps[0]) is not tuple or len(steps[0]) != 2:
            return None
        first = steps[0][1]
        if type(first) is Held:
            first = first.obj
        if issubclass(type(first), Abstract):
            return column_transformer_parts(first)
        if type(first) is not compose.ColumnTransformer:
            return None
        own = POLICY.own_dict(first)
        transformers = own.get("transformers")
        return (transformers, {k: own[k] for k in _OPTIONS if k in own}) if type(transformers) is list else None
    if est.estimator is not compose.ColumnTransformer or len(args) > 1:
        return None
    transformers = args[0] if args else given.pop("transformers", None)
    return (transformers, given) if type(transformers) is list else None


def column_selection_claim(n: ast.Call, value: Live) -> ValueClaim | None:
    """`ct.fit_transform(X)`: X lacks a column a transformer names."""
    compose = sys.modules.get("sklearn.compose")
    if compose is None or not isinstance(n.func, ast.Attribute) or n.func.attr not in _FITTING or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    x_node = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "X"), None)
    parts = column_transformer_parts(value(n.func.value)) if x_node is not None else None
    if parts is None:
        return None
    transformers, options = parts
    stand_in = []
    for part in transformers:
        if type(part) is not tuple or len(part) != 3 or type(part[0]) is not str:
            return None
        _, transformer, columns = part
        if type(transformer) is str and transformer not in _NOT_ESTIMATORS or \
                type(transformer) is not str and not _transforms(transformer):
            return None
        stand_in.append((part[0], "passthrough", columns))
    try:                                 # a refused parameter raises first (parameters.py's rule)
        compose.ColumnTransformer(stand_in, **options)._validate_params()
    except Exception:  # noqa: BLE001 - scikit-learn refuses it: not this rule's claim
        return None
    x = array_like(x_node, value)
    if x is None or x.like != "DataFrame" or x.columns is None:
        return None
    have = [c for c, _ in x.columns]
    if not all(type(c) is str for c in have):
        return None          # names select only among text labels; otherwise another error
    missing = []
    for _, _, columns in transformers:
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


def _transforms(transformer) -> bool:
    """Has the transformer fit (or fit_transform) and transform, as ColumnTransformer asks:
    an estimator the cell makes, or a live one of scikit-learn's classes (whatever it holds)?"""
    if type(transformer) is Held:
        transformer = transformer.obj
    if issubclass(type(transformer), Abstract):
        cls = transformer.estimator
    elif sklearn_class(transformer):
        cls = type(transformer)
    else:
        return False
    members = set().union(*(POLICY.class_members(k) for k in POLICY.mro(cls)))
    return ("fit" in members or "fit_transform" in members) and "transform" in members
