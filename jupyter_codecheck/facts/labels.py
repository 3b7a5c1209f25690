"""A row label or group name the live object does not hold (KeyError):

    `s.loc[5]`, `df.loc[5]`, `df.loc[5, "c"]`, `df.at[5, "c"]`, `s[5]`  an integer label an index
                                    of integers lacks (pandas reads an integer there as a label)
    `df.loc["Rome"]`, `s.loc["Rome"]`  a text label an index of integers or of text lacks
    `df.groupby("k").get_group("x")`, `g.get_group("x")`  a value column "k" does not hold (for
                                    `g`, an earlier cell's groupby: the values it grouped by)

Read: the index of a DataFrame or Series whose class is pandas' own, when it is a RangeIndex, an
index of numpy integers or of text (of at most `_INDEX_ROWS` labels); the values of a column of numbers or pandas' `str` dtype, for a frame of
at most `GROUP_ROWS` rows (its distinct values cost a pass over it).
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field

from .column_selection import frame_labels
from .items import plain_pandas
from .read_policy import POLICY
from .values import Live, _literal_int

GROUP_ROWS = 100_000
_INDEX_ROWS = 100_000             # an index of integers not a range: its lookup table costs a pass
_GROUPBY_KEYWORDS = {"sort", "observed", "as_index", "group_keys", "dropna"}


@dataclass
class MissingLabel:
    key: ast.expr                 # the literal asked for
    message: str
    labels: list[str] = field(default_factory=list)     # text labels a fix may use instead
    keyword: str | None = None    # the fix gives the literal to this keyword instead (`columns=`)


def row_label_missing(n: ast.Subscript, live: Live) -> MissingLabel | None:
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    base, key = n.value, n.slice
    through = isinstance(base, ast.Attribute) and base.attr in ("loc", "at")
    if through:
        base = base.value
        if isinstance(key, ast.Tuple):
            key = key.elts[0] if len(key.elts) == 2 else None
    k = _literal_int(key) if key is not None else None
    if k is None and through and isinstance(key, ast.Constant) and type(key.value) is str:
        k = key.value               # `s["x"]` without .loc: keys.py's
    if k is None:
        return None
    try:
        obj = live(base)
        if type(obj) is not pd.Series and not (through and type(obj) is pd.DataFrame):
            return None             # df[5] is a column
        index = obj.index
        if type(index) is pd.MultiIndex:
            return _first_level_missing(n, base, index, k, pd) if through else None
        kind = _index_kind(index, pd)
        if kind is None or (kind == "text" and type(k) is not str):
            return None             # an integer into text labels: a position before pandas 3
        present = k in index
    except Exception:  # noqa: BLE001
        return None
    if present:
        return None
    held = f"its RangeIndex(start={index.start}, stop={index.stop}, step={index.step})" \
        if type(index) is pd.RangeIndex else f"its index of {len(index)} {'integers' if kind == 'integers' else 'labels'}"
    labels = [x for x in index.tolist()[:_INDEX_ROWS] if type(x) is str] if kind == "text" else []
    return MissingLabel(key, f"{ast.unparse(n)}: no row label {k!r} in {ast.unparse(base)} ({held}): KeyError", labels)


def _first_level_missing(n: ast.Subscript, base: ast.expr, index, k, pd) -> MissingLabel | None:
    """`df.loc["public"]` on rows of a MultiIndex: one label is looked up in the first level (the
    labels its rows use, not the level's unused values); text labels only, a str key."""
    if type(k) is not str or len(index) > _INDEX_ROWS:
        return None
    first = index.get_level_values(0)
    dtype = first.dtype
    if not (type(dtype) is pd.StringDtype or type(dtype).__module__.split(".")[0] == "numpy" and dtype.kind == "O"):
        return None
    labels = first.tolist()
    if not all(type(x) is str for x in labels) or k in set(labels):
        return None
    return MissingLabel(n.slice if not isinstance(n.slice, ast.Tuple) else n.slice.elts[0],
                        f"{ast.unparse(n)}: no row label {k!r} in the first level of {ast.unparse(base)}'s "
                        f"MultiIndex of {len(index)} rows: KeyError", list(dict.fromkeys(labels)))


def dropped_row_label(n: ast.Call, live: Live) -> MissingLabel | None:
    """`df.drop(index=["Ohoi"])`, `df.drop("Ohoi")`, `s.drop(["x"])`: a row label the live frame
    or Series lacks raises KeyError (pandas' default `errors="raise"`); columns are columns.py's."""
    pd = sys.modules.get("pandas")
    func = n.func
    if pd is None or not (isinstance(func, ast.Attribute) and func.attr == "drop"):
        return None
    kw = {k.arg: k.value for k in n.keywords}
    if any(k in kw for k in ("columns", "level", "labels")) or \
            (isinstance(kw.get("errors"), ast.Constant) and kw["errors"].value == "ignore") or \
            "errors" in kw and not isinstance(kw["errors"], ast.Constant):
        return None
    axis = kw.get("axis")
    if axis is not None and not (isinstance(axis, ast.Constant) and axis.value in (0, "index", "rows")):
        return None
    named = kw.get("index", n.args[0] if n.args and "index" not in kw else None)
    if named is None or len(n.args) > 1:
        return None
    keys = list(named.elts) if isinstance(named, (ast.List, ast.Tuple)) else [named]
    if not keys or not all(isinstance(k, ast.Constant) and type(k.value) in (str, int) for k in keys):
        return None
    try:
        obj = live(func.value)
        if type(obj) not in (pd.DataFrame, pd.Series):
            return None
        index = obj.index
        kind = _index_kind(index, pd)
        if kind is None and all(type(k.value) is str for k in keys) and _numpy_integers(index, pd):
            kind = "integers"       # no text is a label of it, however long: nothing to look up
        if kind is None:
            return None
        missing = next((k for k in keys if (kind == "text") != (type(k.value) is str) or k.value not in index), None)
    except Exception:  # noqa: BLE001
        return None
    if missing is None or kind == "text" and type(missing.value) is not str:
        return None             # an integer among text labels: left to pandas
    if type(missing.value) is str and kind == "integers":
        return _column_as_row(n, func, obj, missing, pd)
    labels = [x for x in index.tolist()[:_INDEX_ROWS] if type(x) is str] if kind == "text" else []
    return MissingLabel(missing, f"{ast.unparse(func.value)}.drop(): no row label {missing.value!r} in "
                                 f"{ast.unparse(func.value)}'s index: KeyError", labels)


def _column_as_row(n: ast.Call, func: ast.Attribute, obj, missing: ast.Constant, pd) -> MissingLabel:
    """`df.drop("c")` on an index of integers: no text is a row label there (KeyError); when "c"
    is one of the frame's columns, the fix drops it as a column (`columns="c"`, for a label
    given alone as the first argument)."""
    column = type(obj) is pd.DataFrame and missing.value in (frame_labels(obj) or ())
    said = f"{ast.unparse(func.value)}.drop(): no row label {missing.value!r} in {ast.unparse(func.value)}'s index"
    if not column:
        return MissingLabel(missing, f"{said}: KeyError")
    alone = bool(n.args) and n.args[0] is missing
    return MissingLabel(missing, f"{said}; {missing.value!r} is a column: drop it with columns= (or axis=1): KeyError",
                        keyword="columns" if alone else None)


def _numpy_integers(index, pd) -> bool:
    """Is it pandas' own Index of numpy integers (its length aside)?"""
    dtype = index.dtype if type(index) is pd.Index else None
    return dtype is not None and type(dtype).__module__.split(".")[0] == "numpy" and dtype.kind in "iu"


def _index_kind(index, pd) -> str | None:
    """"integers" (a RangeIndex, numpy's integers), "text" (pandas' str, or objects that are all
    plain str), or None: an index whose lookup the facts leave to pandas (dates read "2020-01" as a
    range, floats, a MultiIndex, objects of the user's)."""
    if type(index) is pd.RangeIndex:
        return "integers"
    if type(index) is not pd.Index or len(index) > _INDEX_ROWS:
        return None
    if _numpy_integers(index, pd):
        return "integers"
    dtype = index.dtype
    numpy_objects = type(dtype).__module__.split(".")[0] == "numpy" and dtype.kind == "O"
    if type(dtype) is pd.StringDtype or (numpy_objects and all(type(x) is str for x in index.tolist())):
        return "text"
    return None


def missing_group(n: ast.Call, live: Live) -> MissingLabel | None:
    """`df.groupby("k").get_group(v)`, or `g.get_group(v)` on a groupby object an earlier cell
    made: v among the grouping's values (as get_group's dict lookup compares them), the NaN
    group aside."""
    pd = sys.modules.get("pandas")
    func = n.func
    if pd is None or not isinstance(func, ast.Attribute) or func.attr != "get_group" or len(n.args) != 1 or n.keywords:
        return None
    key = n.args[0]
    value = _literal_int(key)
    if value is None:
        if not isinstance(key, ast.Constant) or type(key.value) not in (str, float, bool):
            return None
        value = key.value
    owner = func.value
    try:
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Attribute) and owner.func.attr == "groupby":
            found = _inline_grouping(owner, live, pd)
        else:
            found = _live_grouping(live(owner), pd)
        if found is None:
            return None
        by, values = found
        dtype = values.dtype
        if len(values) > GROUP_ROWS or not (type(dtype) is pd.StringDtype or (
                type(dtype).__module__.split(".")[0] == "numpy" and dtype.kind in "biuf")):
            return None
        groups = pd.Series(values).dropna().unique().tolist()
    except Exception:  # noqa: BLE001
        return None
    if value in set(groups):
        return None
    shown = groups[:8]
    return MissingLabel(key, f"{ast.unparse(n)}: no group {value!r} in column {by!r} "
                             f"(groups: {', '.join(repr(g) for g in shown)}{', ...' if len(groups) > 8 else ''}): KeyError",
                        [g for g in groups if type(g) is str])


def _inline_grouping(owner: ast.Call, live: Live, pd):
    """`df.groupby("k")`: ("k", the column), for a frame whose class is pandas' own."""
    by = owner.args[0] if len(owner.args) == 1 else next((k.value for k in owner.keywords if k.arg == "by"), None)
    if not isinstance(by, ast.Constant) or type(by.value) is not str or len(owner.args) > 1 or \
            {k.arg for k in owner.keywords} - _GROUPBY_KEYWORDS - {"by"}:
        return None
    frame = live(owner.func.value)
    if not plain_pandas(frame, pd) or len(frame) > GROUP_ROWS or _text_columns(frame).count(by.value) != 1 or \
            any(type(x) is str and x == by.value for x in frame.index.names):
        return None
    return by.value, frame[by.value]


def _live_grouping(g, pd):
    """A groupby object of one column key: (the key, the values it grouped by when it was made;
    a later change of the frame's column does not regroup it). Read from pandas' own instance
    dicts (`_grouper`, its one `Grouping`); another layout of them: None."""
    from pandas.core.groupby import generic, grouper, ops
    if type(g) not in (generic.DataFrameGroupBy, generic.SeriesGroupBy):
        return None
    state = POLICY.own_dict(g)
    by, made = state.get("keys"), state.get("_grouper", state.get("grouper"))
    if type(by) is not str or state.get("level") is not None or type(made) is not ops.BaseGrouper:
        return None
    groupings = POLICY.own_dict(made).get("_groupings")
    if type(groupings) is not list or len(groupings) != 1 or type(groupings[0]) is not grouper.Grouping:
        return None
    values = POLICY.own_dict(groupings[0]).get("grouping_vector")
    kinds = (sys.modules["numpy"].ndarray, pd.arrays.StringArray, getattr(pd.arrays, "ArrowStringArray", None))
    return (by, values) if type(values) in kinds else None


def _text_columns(frame) -> list[str]:
    """The frame's column names that are plain str, when every name is a plain value (a flat
    column index; nothing of the user's compared)."""
    names = frame.columns.tolist()
    if any(type(c) not in (str, int, float, bool) for c in names):
        return []
    return [c for c in names if type(c) is str]
