"""The names a pandas object the cell makes answers beyond its class, where they are known exactly:

    Series, DataFrame        pandas' `NDFrame.__getattr__` answers the labels of the info axis (a
                             Series' index, a DataFrame's columns), and only where that axis may
                             hold identifiers (object, string, categorical)
    GroupBy, Rolling, ...    pandas' `GroupBy.__getattr__` and `BaseWindow.__getattr__` answer
                             `attr in self.obj`: the labels of the data they were made from (a
                             DataFrame's columns, a Series' index)

and each instance holds what pandas' `__init__` sets on it (read from a stand-in pandas makes
itself on a one-row frame: `level`, `keys`, `obj` of a GroupBy, `window` of a Rolling).

`made_labels` gives the string labels such a lookup may answer for an object a call in the cell
makes: a Series or DataFrame pandas' constructor makes of literal, array, dict or pandas data (a
RangeIndex, numbers, the keys, or the labels given), a method that keeps some of its receiver's
labels and adds none (`head`, `dropna`, `sort_index`, ...), and `groupby`/`rolling`/`expanding`/
`ewm` of a live frame or Series, or of one made so. Anything else: None, no claim. Nothing of the user's runs: live
labels are read only of pandas' own classes among plain labels (items.plain_labels).
"""
from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Callable

from .attributes import grouped_data
from .items import plain_labels
from .namespace import Made
from .read_policy import POLICY

# where pandas defines the `__getattr__` that answers labels: (module, qualname) -> what it reads
_LOOKUPS = {("pandas.core.generic", "NDFrame.__getattr__"): "axis",
            ("pandas.core.groupby.groupby", "GroupBy.__getattr__"): "data",
            ("pandas.core.window.rolling", "BaseWindow.__getattr__"): "data"}
# the methods whose result's `obj` is the receiver itself
_OVER_RECEIVER = frozenset({"groupby", "rolling", "expanding", "ewm"})
# a Series' or DataFrame's methods whose result, of the receiver's class, has some of the
# receiver's info-axis labels and no other, whatever the arguments
_KEEPING_LABELS = frozenset({"head", "tail", "copy", "astype", "fillna", "ffill", "bfill", "dropna", "drop",
                             "drop_duplicates", "sort_index", "sort_values", "abs", "round", "sample",
                             "isna", "notna", "isnull", "notnull", "clip", "rank", "diff", "shift", "pct_change",
                             "cumsum", "cumprod", "cummax", "cummin", "nlargest", "nsmallest"})
_LITERALS = (str, int, float, bool, type(None))
MAX_READ = 10_000               # labels read of a live index; more: not known


def lookup(cls: type) -> str | None:
    """"axis" or "data" when `cls`'s `__getattr__` is one of pandas' that answers labels (found
    in the classes' own dictionaries: nothing runs); else None."""
    for k in POLICY.mro(cls):
        found = POLICY.class_members(k).get("__getattr__")
        if found is not None:
            key = (getattr(found, "__module__", None), getattr(found, "__qualname__", None))
            return _LOOKUPS.get(key) if type(key[0]) is str and type(key[1]) is str else None
    return None


def instance_names(cls: type) -> frozenset[str] | None:
    """The public names an instance of exactly `cls` holds of its own, read from pandas' own
    stand-in of that class; None when no stand-in is of that class."""
    return _stand_in_names().get(cls)


@functools.cache
def _stand_in_names() -> dict[type, frozenset[str]]:
    pd = sys.modules.get("pandas")
    if pd is None:
        return {}
    frame = pd.DataFrame({"a": [1.0], "b": [1.0]})
    series = frame["a"]
    made = [frame, series, frame.groupby("a"), series.groupby(series), frame.rolling(1), series.rolling(1),
            frame.expanding(), series.expanding(), frame.ewm(span=2), series.ewm(span=2)]
    return {type(m): frozenset(k for k in POLICY.own_dict(m) if type(k) is str and not k.startswith("_")) for m in made}


def made_labels(call: ast.Call, cls: type, value: Callable[[ast.AST], object]) -> frozenset[str] | None:
    """The string labels the lookup of `cls` answers on what `call` makes (`value`: a node's live
    object or what the cell made); None where they are not known exactly."""
    pd = sys.modules.get("pandas")
    kind = lookup(cls)
    if pd is None or kind is None or any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    if kind == "axis" and cls in (pd.Series, pd.DataFrame) and value(call.func) is cls:
        return _constructed(call, cls is pd.DataFrame, value, pd)
    if kind == "axis" and cls in (pd.Series, pd.DataFrame) and isinstance(call.func, ast.Attribute) and \
            (call.func.attr in _KEEPING_LABELS or cls is pd.DataFrame and _swaps_rows(call)):
        receiver = value(call.func.value)
        of = receiver.of_class() if issubclass(type(receiver), Made) else type(receiver)
        return _answered_in(receiver, pd) if of is cls else None
    if kind == "data" and isinstance(call.func, ast.Attribute) and call.func.attr in _OVER_RECEIVER:
        return _answered_in(value(call.func.value), pd)
    return None


def grouped_columns(g) -> frozenset[str] | None:
    """The string labels `g[key]` selects among on a DataFrameGroupBy of pandas' own class (a live
    one, or one the cell made whose labels are known): pandas' `key in self.obj`, the grouped
    frame's columns, else KeyError ("Column not found"); None when `g` is not one or they are not known."""
    generic = sys.modules.get("pandas.core.groupby.generic")
    pd = sys.modules.get("pandas")
    if generic is None or pd is None:
        return None
    if issubclass(type(g), Made):
        return g.labels() if g.of_class() is generic.DataFrameGroupBy else None
    if type(g) is not generic.DataFrameGroupBy:
        return None
    return _answered_in(grouped_data(g), pd)


def selected(node: ast.Subscript, value: Callable[[ast.AST], object]) -> tuple[type, frozenset[str] | None] | None:
    """`g["col"]` or `g[["a", "b"]]` of a DataFrameGroupBy `g` (`value`: a node's live object or
    what the cell made), a column it holds: pandas makes a SeriesGroupBy over that column (its
    attributes answered from the frame's index) or a DataFrameGroupBy over the frame (from its
    columns). The class and those labels (None where not known); None for anything else."""
    generic = sys.modules.get("pandas.core.groupby.generic")
    pd = sys.modules.get("pandas")
    key = node.slice
    if generic is None or pd is None:
        return None
    if isinstance(key, ast.Constant) and type(key.value) is str:
        keys, cls = [key.value], generic.SeriesGroupBy
    elif isinstance(key, ast.List) and key.elts and all(isinstance(k, ast.Constant) and type(k.value) is str
                                                          for k in key.elts):
        keys, cls = [k.value for k in key.elts], generic.DataFrameGroupBy
    else:
        return None
    g = value(node.value)
    columns = grouped_columns(g)
    if columns is None or not set(keys) <= columns:
        return None
    if cls is generic.DataFrameGroupBy:
        return cls, columns
    frame = None if issubclass(type(g), Made) else grouped_data(g)
    if frame is None and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) and \
            node.value.func.attr == "groupby":
        frame = value(node.value.func.value)       # `df.groupby(k)["col"]`: df's index
    return cls, _strings(frame.index, pd) if type(frame) is pd.DataFrame else None


def _swaps_rows(call: ast.Call) -> bool:
    """`df.swaplevel(i, j)`: the index's levels swapped, the columns as they are (axis=1, given
    by keyword or third, swaps the columns' levels)."""
    return call.func.attr == "swaplevel" and len(call.args) <= 2 and all(k.arg in ("i", "j") for k in call.keywords)


def _answered_in(obj, pd) -> frozenset[str] | None:
    """The string labels `attr in obj` finds: a DataFrame's columns, a Series' index."""
    if issubclass(type(obj), Made):
        return obj.labels() if obj.of_class() in (pd.Series, pd.DataFrame) else None
    if type(obj) is pd.DataFrame:
        return _strings(obj.columns, pd)
    if type(obj) is pd.Series:
        return _strings(obj.index, pd)
    return None


def _strings(index, pd) -> frozenset[str] | None:
    """The str labels of a pandas Index (numbers, booleans: none that a name could be)."""
    if type(index) is pd.RangeIndex:
        return frozenset()
    if type(index) is pd.MultiIndex:    # a name is looked up among the first level's labels
        return _strings(index.levels[0], pd) if plain_labels(index, pd) else None
    if type(index) is not pd.Index or len(index) > MAX_READ or not plain_labels(index, pd):
        return None                     # datetimes parse some names ("now"): not known
    dtype = index.dtype
    kind = dtype.kind if type(dtype).__module__.split(".")[0] == "numpy" else None
    if kind is not None and kind in "biuf":
        return frozenset()
    if kind != "O" and type(dtype) is not pd.StringDtype:
        return None
    labels = list(index)
    return frozenset(x for x in labels if type(x) is str) if all(type(x) in _LITERALS or x is pd.NA
                                                                 for x in labels) else None


def _constructed(call: ast.Call, frame: bool, value, pd) -> frozenset[str] | None:
    """`pd.Series(data, index=...)`, `pd.DataFrame(data, columns=...)`: the info axis' labels."""
    names = ("data", "index", "columns", "dtype", "copy") if frame else ("data", "index", "dtype", "name", "copy")
    if len(call.args) > len(names) or set(k.arg for k in call.keywords) - set(names):
        return None
    given = dict(zip(names, call.args)) | {k.arg: k.value for k in call.keywords}
    axis = given.get("columns" if frame else "index")
    if axis is not None:
        return _given_labels(axis, value, pd)
    data = given.get("data")
    if data is None:
        return frozenset()
    live = value(data)
    if type(live) is dict:              # the keys are the labels
        return frozenset(k for k in live if type(k) is str) if len(live) <= MAX_READ and \
            all(type(k) in _LITERALS for k in live) else None
    if type(live) is (pd.DataFrame if frame else pd.Series):
        return _answered_in(live, pd)   # its own labels
    if isinstance(data, ast.Dict):
        keys = [k.value if isinstance(k, ast.Constant) else None for k in data.keys]
        return frozenset(k for k in keys if type(k) is str) if None not in data.keys and \
            all(type(k) in _LITERALS for k in keys) else None
    if not frame and isinstance(data, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in data.elts):
        return frozenset()              # a RangeIndex
    return frozenset() if _array(live, 1 if not frame else 2) or frame and _array(live, 1) else None


def _given_labels(node: ast.expr, value, pd) -> frozenset[str] | None:
    """Labels given as a literal list or tuple, or as a numeric array or Index."""
    if isinstance(node, (ast.List, ast.Tuple)):
        if not all(isinstance(e, ast.Constant) and type(e.value) in _LITERALS for e in node.elts):
            return None
        return frozenset(e.value for e in node.elts if type(e.value) is str)
    v = value(node)
    if type(v) in (pd.Index, pd.RangeIndex):
        return _strings(v, pd)
    return frozenset() if _array(v, 1, numbers=True) else None


def _array(v, ndim: int, numbers: bool = False) -> bool:
    """A numpy ndarray of `ndim` dimensions (live, or one the cell made), or for 1-D a live list,
    tuple or range: pandas gives it a RangeIndex. `numbers`: of a number dtype."""
    np = sys.modules.get("numpy")
    if not numbers and ndim == 1 and type(v) in (list, tuple, range):
        return True
    from .abstract_value import shaped
    a = shaped(v) if np is not None and (type(v) is np.ndarray or issubclass(type(v), Made)) else None
    return a is not None and a.like == "ndarray" and a.ndim == ndim and a.kind is not None and \
        a.kind in ("biuf" if numbers else "biufcmMOUS")       # a structured array's fields name columns
