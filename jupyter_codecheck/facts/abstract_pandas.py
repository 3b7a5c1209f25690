"""In-cell propagation (abstract.py) through pandas' calls, as pandas documents them: a frame's
columns picked (`df["a"]`, `df[["a", "b"]]`) or dropped (`df.drop(columns=[...])`), and
`pd.get_dummies`. Functions of the frame's abstract value and the call's arguments: Propagation
calls them with what it read.
"""
from __future__ import annotations

import ast
from collections.abc import Callable

from .abstract_value import Abstract, _frame, _literal


def picked(frame: Abstract, key: ast.expr) -> Abstract | None:
    """`df["a"]`: a Series of that column's dtype kind; `df[["a", "b"]]`: a frame of those columns
    (each label once, every one a column the frame has); anything else unknown."""
    labels = dict(frame.columns)
    if isinstance(key, ast.Constant) and type(key.value) is str and key.value in labels:
        return Abstract("Series", frame.shape[:1], labels[key.value])
    if isinstance(key, ast.List) and key.elts and all(isinstance(e, ast.Constant) and type(e.value) is str
                                                        and e.value in labels for e in key.elts) and \
            len({e.value for e in key.elts}) == len(key.elts):
        return _frame(frame.shape[0], tuple((e.value, labels[e.value]) for e in key.elts))
    return None


def dropped(frame: Abstract, args: list, keywords: dict) -> Abstract | None:
    """`df.drop(columns=[...])`, `df.drop([...], axis=1)`: the frame without those columns."""
    if "columns" in keywords and not args and set(keywords) == {"columns"}:
        named = keywords["columns"]
    elif len(args) + ("labels" in keywords) == 1 and set(keywords) - {"labels"} == {"axis"} and \
            _literal(keywords["axis"]) in (1, "columns"):
        named = args[0] if args else keywords["labels"]
    else:
        return None
    labels = _literal(named)
    labels = [labels] if type(labels) is str else labels
    present = dict(frame.columns)
    if type(labels) not in (list, tuple) or not labels or any(type(x) is not str or x not in present
                                                                for x in labels):
        return None
    return _frame(frame.shape[0], tuple(c for c in frame.columns if c[0] not in labels))


_DUMMIES_OPTIONS = frozenset({"prefix", "prefix_sep", "dummy_na", "columns", "sparse", "drop_first", "dtype"})


def dummies(node: ast.Call, shaped: Callable[[ast.AST], Abstract | None]) -> Abstract | None:
    """`pd.get_dummies(data, ...)`: a DataFrame of data's rows. pandas encodes a DataFrame's
    object, string and category columns (those `columns=` names, when given) and a Series
    whole; a frame with none of those (every column of a numpy dtype but object) comes back as
    it is. The encoded columns come from the data's values: the width is then unknown."""
    keywords = {k.arg for k in node.keywords}
    if len(node.args) != 1 or keywords - _DUMMIES_OPTIONS:
        return None
    data = shaped(node.args[0])
    if data is None or data.like not in ("DataFrame", "Series") or type(data.shape[0]) is not int:
        return None
    if data.like == "DataFrame" and data.columns is not None and "columns" not in keywords and \
            all(k is not None and k != "O" for _, k in data.columns):
        return _frame(data.shape[0], data.columns)
    return Abstract("DataFrame", (data.shape[0], None))
