"""Does a live dict, DataFrame or Series have a literal key? `d["k"]`, `df["col"]`,
`df[["a", "b"]]`, `df.loc[:, "col"]`, `s["label"]`: read from the object's keys or labels, with
no `__getitem__`, `__missing__` or `__eq__` of the user's running.

`missing_key` answers the list of labels a fix may use when the key is surely absent, else None
(present, or no way to tell: a defaultdict, a subclass with its own lookup, a date index that
reads "2020-01" as a range).
"""
from __future__ import annotations

import sys

from .items import plain_labels
from .read_policy import POLICY

_MAX_KEYS = 100_000


def missing_key(obj, key, *, columns: bool = False) -> list[str] | None:
    """`obj[key]` (or, with `columns`, the column part of `obj.loc[rows, key]`) would raise
    KeyError: the labels there instead; None if it would not, or cannot be told."""
    if not isinstance(key, (str, int)) or isinstance(key, bool):
        return None
    if (type(obj) is dict or _bunch(obj)) and not columns:
        if len(obj) > _MAX_KEYS:
            return None
        labels = [k for k in obj if type(k) in (str, int)]
        if len(labels) != len(obj):
            return None                      # a key of another type could compare equal
        return None if key in labels else [k for k in labels if isinstance(k, str)]
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    if issubclass(type(obj), pd.DataFrame) and _own_getitem(obj, pd.DataFrame):
        return _absent(obj.columns, key, pd) if isinstance(key, str) else None
    if issubclass(type(obj), pd.Series) and _own_getitem(obj, pd.Series) and not columns:
        index = obj.index
        if not isinstance(key, str) or not _labels_are_text(index, pd) or len(index) > _MAX_KEYS:
            return None                      # a number may be a position; dates read as ranges
        return _absent(index, key, pd)
    return None


def _bunch(obj) -> bool:
    """scikit-learn's Bunch (a loader's result): a dict whose `__getitem__` only warns of a
    deprecated key before dict's own lookup; no `__missing__`."""
    module = sys.modules.get("sklearn.utils._bunch")
    cls = POLICY.module_members(module).get("Bunch") if module is not None else None
    return cls is not None and type(obj) is cls and "__missing__" not in POLICY.class_members(cls)


def missing_numbered_column(obj, key: int) -> bool:
    """`df[5]` (or `df.loc[:, 5]`, `df[[5]]`) on a DataFrame of pandas' own lookup: `[]` reads
    columns by label, never by position, so a number no column is labelled raises KeyError. Told
    only where no label can equal the number but an integer one: a RangeIndex, an integer
    Index, or text labels alone."""
    pd = sys.modules.get("pandas")
    if pd is None or type(key) is not int or not issubclass(type(obj), pd.DataFrame) or \
            not _own_getitem(obj, pd.DataFrame):
        return False
    columns = obj.columns
    if type(columns) is pd.RangeIndex:
        return key not in columns
    if type(columns) is not pd.Index or len(columns) > _MAX_KEYS:
        return False
    dtype = columns.dtype
    if type(dtype).__module__.split(".")[0] == "numpy" and dtype.kind in "iu":
        return key not in set(columns.tolist())
    return _labels_are_text(columns, pd) and all(type(v) is str for v in columns)


def _own_getitem(obj, base) -> bool:
    """Does the object's class keep pandas' own item lookup (no user override)?"""
    return all(POLICY.static(type(obj), n, None) is POLICY.static(base, n, None)
               for n in ("__getitem__", "_get_item_cache", "__getattr__", "columns", "index"))


def _absent(labels, key: str, pd) -> list[str] | None:
    if len(labels) > _MAX_KEYS or not plain_labels(labels, pd):
        return None                  # a label of the user's might equal the key: its `__eq__` says
    if issubclass(type(labels), pd.MultiIndex):
        labels = labels.get_level_values(0)
    if issubclass(type(labels), (pd.DatetimeIndex, pd.PeriodIndex, pd.TimedeltaIndex)):
        return None
    texts = [v for v in labels if type(v) is str]
    if key in set(texts):
        return None
    return list(dict.fromkeys(texts))


def _labels_are_text(index, pd) -> bool:
    """An index of text labels (object or string dtype): a str key there is a label, never a
    position or a date range."""
    dtype = index.dtype             # a dtype of the user's is not compared: its `__eq__` is its own
    return type(dtype) is pd.StringDtype or (type(dtype).__module__.split(".")[0] == "numpy" and dtype.kind == "O")
