"""In-cell propagation (abstract.py) through pandas' calls, as pandas documents them: a frame
built by `pd.DataFrame(...)` from a dict of columns or a 2-D array with labels, its columns
picked (`df["a"]`, `df[["a", "b"]]`) or dropped (`df.drop(columns=[...])`), the methods that keep,
rename, move or add columns (FRAME_METHODS), and `pd.get_dummies`. Functions of the frame's
abstract value and the call's arguments: Propagation calls them with what it read.
"""
from __future__ import annotations

import ast
import builtins
import sys
from collections.abc import Callable

from .abstract_value import Abstract, _frame, _literal, array_like


def picked(frame: Abstract, key: ast.expr) -> Abstract | None:
    """`df["a"]`: a Series of that column's dtype kind; `df[["a", "b"]]`: a frame of those columns
    (each label once, every one a column the frame has); anything else unknown."""
    labels = dict(frame.columns)
    if isinstance(key, ast.Constant) and type(key.value) is str and key.value in labels:
        return Abstract("Series", frame.shape[:1], labels[key.value], index_words=frame.index_words)
    if isinstance(key, ast.List) and key.elts and all(isinstance(e, ast.Constant) and type(e.value) is str
                                                        and e.value in labels for e in key.elts) and \
            len({e.value for e in key.elts}) == len(key.elts):
        return _frame(frame.shape[0], tuple((e.value, labels[e.value]) for e in key.elts), frame.index_names,
                      frame.index_words)
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
    return _frame(frame.shape[0], tuple(c for c in frame.columns if c[0] not in labels), frame.index_names,
                  frame.index_words)


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
        return _frame(data.shape[0], data.columns, data.index_names, data.index_words)
    return Abstract("DataFrame", (data.shape[0], None))


_CONSTRUCTOR_OPTIONS = frozenset({"index", "columns"})


def constructed(node: ast.Call, value: Callable[[ast.AST], object],
                shaped: Callable[[ast.AST], Abstract | None]) -> Abstract | None:
    """`pd.DataFrame({"a": [1, 2], "b": "x"})`: pandas makes a column of each key, in order, its
    rows the lists' common length (a scalar repeats); `pd.DataFrame(<2-D array>, columns=[...])`:
    the array's rows under those labels. Given only where pandas surely builds it (lists of one
    length, labels as many as the array's columns) and its columns are strings; the index made
    so has no level name."""
    keywords = {k.arg: k.value for k in node.keywords}
    if len(node.args) != 1 or set(keywords) - _CONSTRUCTOR_OPTIONS:
        return None
    data = node.args[0]
    if isinstance(data, ast.Dict):
        made = _from_columns(data, value, shaped) if "columns" not in keywords else None
    else:
        made = _from_array(array_like(data, value), keywords.get("columns"))     # a nested list too
    if made is None:
        return None
    rows, columns = made
    words = False                         # no index given: pandas numbers the rows (a RangeIndex)
    if "index" in keywords:
        words = None
        index = keywords["index"]
        if not isinstance(index, (ast.List, ast.Tuple)) or any(isinstance(e, ast.Starred) for e in index.elts) or \
                rows is None or len(index.elts) != rows:
            return None                   # pandas refuses an index of another length
    return _frame(rows, columns, (), words)


_SERIES_OPTIONS = frozenset({"index", "name", "dtype"})
# the most labels a Series written in the cell is followed with (its index, read by value)
_MAX_LABELS = 10_000


def series_constructed(node: ast.Call) -> Abstract | None:
    """`pd.Series([4, 7], index=["d", "b"])`, `pd.Series({"a": 1})`, `pd.Series([1, 2])`: a Series
    whose index pandas takes from what the cell wrote (the labels given, the dict's keys, or a
    range), of literals, and of one length; `dtype=` leaves its kind unknown."""
    keywords = {k.arg: k.value for k in node.keywords}
    if len(node.args) != 1 or set(keywords) - _SERIES_OPTIONS:
        return None
    data = node.args[0]
    if isinstance(data, ast.Dict):
        if "index" in keywords or None in data.keys:
            return None               # `index=` picks among the keys: labels it lacks become NaN rows
        labels = [_literal(k) for k in data.keys]
        values = data.values
    elif isinstance(data, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in data.elts):
        values = data.elts
        labels = _literal(keywords["index"]) if "index" in keywords else list(range(len(values)))
    else:
        return None
    if type(labels) not in (list, tuple) or len(labels) != len(values) or len(labels) > _MAX_LABELS or \
            any(type(x) not in (str, int, float, bool) for x in labels) or len(set(labels)) != len(labels):
        return None
    items = _literal(ast.List(list(values), ast.Load()))
    kind = None if "dtype" in keywords else _column_kind(items)
    return Abstract("Series", (len(labels),), kind, index_labels=tuple(labels),
                    index_words=False if "index" not in keywords and not isinstance(data, ast.Dict) else None)


def _from_columns(data: ast.Dict, value, shaped) -> tuple | None:
    labels = [_literal(k) if k is not None else None for k in data.keys]
    if not data.keys or any(type(x) is not str for x in labels) or len(set(labels)) != len(labels):
        return None
    lengths, columns = set(), []
    for label, v in zip(labels, data.values):
        column = _column(v, value, shaped)
        if column is None:
            return None
        length, kind = column
        if length is not None:
            lengths.add(length)
        columns.append((label, kind))
    if len(lengths) != 1:
        return None               # all scalars (pandas asks for an index), or lists of other lengths
    return lengths.pop(), tuple(columns)


def _column(v: ast.expr, value, shaped) -> tuple | None:
    """A dict value as pandas' constructor takes it: (its length, None for a scalar; its dtype
    kind, None where unsure), or None when it may be anything else (an array of 2 dimensions)."""
    a = shaped(v) if isinstance(v, (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.BinOp)) else None
    if a is not None and a.like == "ndarray":
        if a.ndim != 1 or a.shape[0] is None:
            return None
        return a.shape[0], a.kind if a.kind is not None and a.kind in "biuf" else None
    if isinstance(v, (ast.List, ast.Tuple)):
        if any(isinstance(e, ast.Starred) for e in v.elts):
            return None
        items = _literal(v)
        return len(v.elts), _column_kind(items)
    if isinstance(v, ast.Constant) and type(v.value) in (bool, int, float, str):
        return None, _scalar(v.value)
    pd = sys.modules.get("pandas")
    if isinstance(v, ast.Call) and pd is not None and value(v.func) is pd.Series and len(v.args) == 1 and \
            {k.arg for k in v.keywords} <= {"dtype", "name"}:
        inner = _column(v.args[0], value, shaped) if isinstance(v.args[0], (ast.List, ast.Tuple)) else \
            (_range_length(v.args[0], value), None)
        return None if inner is None or inner[0] is None else (inner[0], None)
    return (_range_length(v, value), "i") if _range_length(v, value) is not None else None


def _range_length(v: ast.expr, value) -> int | None:
    """`range(7)`, `range(1, 8)`: its length, from literal ints."""
    if not (isinstance(v, ast.Call) and value(v.func) is builtins.range and 1 <= len(v.args) <= 3 and
            not v.keywords):
        return None
    bounds = [_literal(a) for a in v.args]
    if any(type(b) is not int for b in bounds) or (len(bounds) == 3 and bounds[2] == 0):
        return None
    return len(range(*bounds))


def _column_kind(items) -> str | None:
    """The dtype kind of a column of these literal values (ints and floats: floats); None where
    not one kind, or not literals."""
    kinds = {_scalar(x) for x in items} if type(items) in (list, tuple) else {None}
    return kinds.pop() if len(kinds) == 1 else "f" if kinds == {"i", "f"} else None


def _scalar(x) -> str | None:
    """numpy's dtype kind of a column of such values alone; None for text (its dtype is pandas'
    choice, which changed in 3.0) and anything else."""
    if type(x) is int and not -2 ** 63 <= x < 2 ** 63:
        return None
    return {bool: "b", int: "i", float: "f"}.get(type(x))


def _from_array(a: Abstract | None, columns: ast.expr | None) -> tuple | None:
    if a is None or a.like != "ndarray" or a.ndim != 2 or columns is None:
        return None
    labels = _literal(columns)
    if type(labels) not in (list, tuple) or any(type(x) is not str for x in labels) or \
            len(set(labels)) != len(labels) or a.shape[1] != len(labels):
        return None
    kind = a.kind if a.kind is not None and a.kind in "biuf" else None
    return a.shape[0], tuple((x, kind) for x in labels)


# DataFrame methods whose result holds the frame's columns, as pandas documents them: the
# keywords each takes here (no `inplace`: it returns None; no `axis`: it may act on columns), and
# the dtype kinds of the result's columns ("kept", "b" for a mask, None where the values may
# change them)
_KEEPING = {"head": ({"n"}, "kept"), "tail": ({"n"}, "kept"), "copy": ({"deep"}, "kept"),
            "sort_index": ({"ascending"}, "kept"), "dropna": ({"how", "subset", "thresh"}, "kept"),
            "drop_duplicates": ({"subset", "keep", "ignore_index"}, "kept"), "sample": ({"n", "random_state"}, "kept"),
            "isna": (set(), "b"), "notna": (set(), "b"), "isnull": (set(), "b"), "notnull": (set(), "b"),
            "fillna": ({"value"}, None)}
FRAME_METHODS = frozenset({*_KEEPING, "rename", "set_index", "reset_index", "assign"})


def frame_method(frame: Abstract, method: str, args: list, keywords: dict) -> Abstract | None:
    """A DataFrame method's result whose columns follow from the frame's (FRAME_METHODS): rows
    selected, sorted or filled keep them; `rename(columns={...})` maps them, `set_index("a")`
    moves one into the index, `reset_index(drop=True)` keeps them, `assign(c=...)` adds."""
    rows = frame.shape[0]
    if method in _KEEPING:
        taken, kinds = _KEEPING[method]
        if set(keywords) - taken or len(args) > (1 if method in ("head", "tail", "fillna") else 0):
            return None
        if method in ("head", "tail", "sample"):
            n = _literal(args[0]) if args else _literal(keywords["n"]) if "n" in keywords else \
                (5 if method != "sample" else 1)
            if type(n) is not int:
                return None
            rows = None if rows is None else min(n, rows) if n >= 0 else max(rows + n, 0)
        elif method in ("dropna", "drop_duplicates"):
            rows = None
        columns = frame.columns if kinds == "kept" else tuple((c, kinds) for c, _ in frame.columns)
        return _frame(rows, columns, frame.index_names, frame.index_words)
    if method == "rename":
        mapping = _literal(keywords.get("columns")) if set(keywords) == {"columns"} and not args else None
        if type(mapping) is not dict or any(type(v) is not str for v in mapping.values()):
            return None
        columns = tuple((mapping.get(c, c), k) for c, k in frame.columns)
        return _frame(rows, columns, frame.index_names, frame.index_words) \
            if len({c for c, _ in columns}) == len(columns) else None
    if method == "set_index":
        key = _literal(args[0]) if len(args) == 1 and not keywords else None
        labels = dict(frame.columns)
        if type(key) is not str or key not in labels:
            return None
        return _frame(rows, tuple(c for c in frame.columns if c[0] != key), (key,))
    if method == "reset_index":
        if args or set(keywords) != {"drop"} or _literal(keywords["drop"]) is not True:
            return None
        return _frame(rows, frame.columns, (), False)
    if method == "assign" and not args and keywords:
        kept = tuple(c for c in frame.columns if c[0] not in keywords)
        return _frame(rows, kept + tuple((k, None) for k in keywords), frame.index_names, frame.index_words)
    return None
