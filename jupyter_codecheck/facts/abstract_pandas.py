"""In-cell propagation (abstract.py) through pandas' calls, as pandas documents them: a frame's
columns picked (`df["a"]`, `df[["a", "b"]]`) or dropped (`df.drop(columns=[...])`). Functions of
the frame's abstract value and the call's arguments: Propagation calls them with what it read.
"""
from __future__ import annotations

import ast

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
