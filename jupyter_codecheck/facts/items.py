"""An item read of a live object that runs no user code: `d["k"]`, `a[0, 1:3]`, `df["col"]`,
`df.loc["r", "c"]`, `s.iloc[2]`, `t[-1]`.

Read only when every part is a library's own, never a subclass (its `_constructor`,
`__finalize__`, `__array_finalize__` or `__getitem__` is the user's):
    container  exactly a dict, list, tuple, str or bytes; a numpy ndarray; a pandas DataFrame,
               Series or Index, or pandas' `.loc`/`.iloc`/`.at`/`.iat` of one; scikit-learn's
               Bunch, and its Pipeline's step by place or name (`pipe[-1]`, `pipe["svc"]`)
    key        literals of built-in types (`"a"`, `-1`, `1:3`, `("r", "c")`, `["a", "b"]`)
    labels     what the lookup hashes or compares the key with: a dict's keys, a pandas object's
               index and columns, all of built-in, numpy or pandas types (a user's label there
               would have its `__eq__` called); an object index of more than `MAX_LABELS`
               labels is not scanned. A DataFrame's columns by name (`df["c"]`, `df[["a", "b"]]`)
               are looked up among the columns alone, the row index carried into the result
               unread: there the row labels may be anything (what reads them later checks them)
    values     a pandas object's dtypes numpy's or pandas' own (a categorical's categories as
               plain as labels), and no `attrs` (pandas deep-copies them into the result)
Anything else is UNREADABLE: no fact reads through it.
"""
from __future__ import annotations

import ast
import datetime
import functools
import sys
import weakref

UNREADABLE = object()
MAX_LABELS = 100_000
_SCALARS = frozenset({str, int, float, bool, complex, bytes, type(None), datetime.date, datetime.datetime,
                      datetime.time, datetime.timedelta})
_BASIC = (dict, list, tuple, str, bytes)
_SCANS: dict[int, tuple] = {}       # id(index) -> (a weak reference to it, its labels are plain)
_MAX_SCANS = 64


def literal_key(node: ast.AST):
    """The key a literal subscript stands for, built here (nothing of the user's is evaluated);
    UNREADABLE for anything but literals of built-in types."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) in _SCALARS or node.value is Ellipsis else UNREADABLE
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and \
            isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float, complex):
        return -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
    if isinstance(node, ast.Slice):
        parts = [None if p is None else literal_key(p) for p in (node.lower, node.upper, node.step)]
        return UNREADABLE if any(p is UNREADABLE for p in parts) else slice(*parts)
    if isinstance(node, (ast.Tuple, ast.List)):
        parts = [literal_key(e) for e in node.elts]
        if any(p is UNREADABLE for p in parts):
            return UNREADABLE
        return tuple(parts) if isinstance(node, ast.Tuple) else parts
    return UNREADABLE


def read_item(obj, node: ast.AST):
    """`obj[<node>]` when reading it runs no user code (see the module's doc); else, or when the
    read raises, UNREADABLE."""
    key = literal_key(node)
    if key is UNREADABLE:
        return UNREADABLE
    step = _pipeline_step(obj, key)
    if step is not UNREADABLE:
        return step
    if not (_readable(obj) or _column_read(obj, key) or _bunch_read(obj, key)):
        return UNREADABLE
    try:
        return obj[key]
    except Exception:  # noqa: BLE001 - the key is not there: the key facts say so, not this
        return UNREADABLE


def _readable(obj) -> bool:
    cls = type(obj)
    if cls in _BASIC:
        return cls is not dict or plain_keys(obj)
    np = sys.modules.get("numpy")
    if np is not None and cls is np.ndarray:
        return True
    pd = sys.modules.get("pandas")
    if pd is None:
        return False
    if cls in _indexers(pd):
        obj, cls = obj.obj, type(obj.obj)             # a C member of pandas' indexer: no code runs
    if cls in (pd.DataFrame, pd.Series):
        return plain_pandas(obj, pd)
    return plain_labels(obj, pd)


def _column_read(obj, key) -> bool:
    """`df["c"]` or `df[["a", "b"]]` on a DataFrame of pandas' own with plain columns and dtypes:
    pandas compares the key with the column labels only (any other key, a slice or booleans,
    selects rows)."""
    pd = sys.modules.get("pandas")
    if pd is None or type(obj) is not pd.DataFrame or obj.attrs:
        return False
    keys = key if type(key) is list else [key]
    if not keys or any(type(k) not in (str, int) for k in keys):      # type(): a bool is no int here
        return False
    return plain_labels(obj.columns, pd) and all(_plain_dtype(t, pd) for t in _column_dtypes(obj))


def _pipeline_step(obj, key):
    """`pipe[-1]`, `pipe["svc"]` of a scikit-learn Pipeline of its own class: its `__getitem__`
    takes the step of that position in `steps`, or of that name (the last so named, as the dict
    `named_steps` builds keeps it), read here from the instance's own list; UNREADABLE otherwise
    (a slice makes a new Pipeline)."""
    from .libraries import is_library_object
    pipeline = sys.modules.get("sklearn.pipeline")
    cls = getattr(pipeline, "Pipeline", None) if pipeline is not None else None
    if cls is None or type(obj) is not cls or type(key) not in (int, str) or \
            not is_library_object(type.__dict__["__dict__"].__get__(cls, type).get("__getitem__")):
        return UNREADABLE
    # the class is exactly the library's: its instance dict is Python's own slot
    steps = object.__getattribute__(obj, "__dict__").get("steps")
    if type(steps) is not list or not all(type(s) is tuple and len(s) == 2 and type(s[0]) is str for s in steps):
        return UNREADABLE
    if type(key) is int:
        return steps[key][1] if -len(steps) <= key < len(steps) else UNREADABLE
    named = [est for name, est in steps if name == key]
    return named[-1] if named else UNREADABLE


def _bunch_read(obj, key) -> bool:
    """`pipe.named_steps["svc"]`, `data["frame"]`: scikit-learn's Bunch (a dict of its own class
    whose `__getitem__` only warns of a deprecated key first: not read), its keys plain."""
    bunch = sys.modules.get("sklearn.utils._bunch")
    cls = getattr(bunch, "Bunch", None) if bunch is not None else None
    if cls is None or type(obj) is not cls or type(key) is not str or not plain_keys(obj):
        return False
    deprecated = object.__getattribute__(obj, "__dict__").get("_deprecated_key_to_warnings", {})
    return type(deprecated) is dict and key not in deprecated


@functools.lru_cache(maxsize=2)
def _indexers(pd) -> tuple:
    """pandas' `.loc`, `.iloc`, `.at` and `.iat` classes (private names: none if they move)."""
    from pandas.core import indexing
    return tuple(c for c in (getattr(indexing, n, None) for n in ("_LocIndexer", "_iLocIndexer", "_AtIndexer",
                                                                  "_iAtIndexer")) if c is not None)


def plain_keys(d: dict) -> bool:
    """Are a dict's keys all of built-in, numpy or pandas types (tuples of such), so that a
    lookup compares no key of the user's?"""
    if len(d) > MAX_LABELS:
        return False
    kinds = set(map(type, d))
    if not all(_plain_type(t) for t in kinds - {tuple}):
        return False
    return tuple not in kinds or all(_plain_value(k) for k in d if type(k) is tuple)


def plain_pandas(obj, pd) -> bool:
    """A DataFrame or Series of pandas' own class whose item reads run pandas' code only."""
    if type(obj) not in (pd.DataFrame, pd.Series) or obj.attrs:
        return False
    if type(obj) is pd.Series:
        return plain_labels(obj.index, pd) and _plain_dtype(obj.dtype, pd)
    return plain_labels(obj.index, pd) and plain_labels(obj.columns, pd) and \
        all(_plain_dtype(t, pd) for t in _column_dtypes(obj))


def _column_dtypes(frame) -> list:
    """A DataFrame's column dtypes from pandas' block manager where it has one: `.dtypes` builds
    a Series each time, and a cell's chains read the same frame dozens of times."""
    get_dtypes = getattr(getattr(frame, "_mgr", None), "get_dtypes", None)
    return list(get_dtypes()) if get_dtypes is not None else frame.dtypes.tolist()


def holds_identifiers(index, pd) -> bool:
    """pandas' own `Index._can_hold_identifiers_and_holds_name`: `__getattr__` looks a name up
    only in an index of objects, strings or categories; any other (a range, numbers, dates) of
    pandas' own classes answers no name, however long it is."""
    if type(index) not in (pd.Index, pd.RangeIndex, pd.DatetimeIndex, pd.TimedeltaIndex, pd.PeriodIndex):
        return True
    dtype = index.dtype
    if type(dtype).__module__.split(".")[0] == "numpy":
        return dtype.kind not in "biufcmM"
    return not (type(dtype).__module__.startswith("pandas.") and dtype.kind in "biufcmM")


def plain_labels(index, pd) -> bool:
    """Is `index` a pandas Index whose labels are all of built-in, numpy or pandas types?"""
    cls = type(index)
    if cls is pd.MultiIndex:
        return all(plain_labels(level, pd) for level in index.levels)
    if cls is pd.CategoricalIndex:
        return plain_labels(index.categories, pd)
    if cls not in (pd.Index, pd.RangeIndex, pd.DatetimeIndex, pd.TimedeltaIndex, pd.PeriodIndex):
        return False
    dtype = index.dtype
    if type(dtype).__module__.split(".")[0] == "numpy":
        if dtype.kind in "biufcmM":
            return True
        if dtype.kind != "O" or len(index) > MAX_LABELS:
            return False
        return _scanned(index)
    if type(dtype) is pd.DatetimeTZDtype:         # a tzinfo of the user's answers comparisons with its code
        return library_zone(dtype.tz)
    return type(dtype) in (pd.StringDtype, pd.PeriodDtype) or \
        (type(dtype).__module__.startswith("pandas.") and dtype.kind in "biuf")


def library_zone(tz) -> bool:
    """A time zone of Python's (`datetime.timezone`, `zoneinfo`), pytz's or dateutil's classes."""
    module = type.__dict__["__module__"].__get__(type(tz), type)     # the type's own slot: no metaclass runs
    return type(module) is str and module.split(".")[0] in ("datetime", "zoneinfo", "pytz", "dateutil")


def _scanned(index) -> bool:
    """Are an object index's labels all plain? Remembered by identity while the index lives (an
    Index never changes; a cell's chains read the same one many times)."""
    kept = _SCANS.get(id(index))
    if kept is not None and kept[0]() is index:
        return kept[1]
    # type() of each label is read from the object itself: pandas' infer_dtype instead may test
    # isinstance against Python classes, which reads a label's own `__class__`
    values = index.to_numpy()
    kinds = set(map(type, values))
    # a tuple hashes and compares by its items (an index of tuples, before a MultiIndex is made of it)
    plain = all(_plain_type(t) for t in kinds - {tuple}) and \
        (tuple not in kinds or all(_plain_value(v) for v in values if type(v) is tuple))
    try:
        if len(_SCANS) >= _MAX_SCANS:
            _SCANS.pop(next(iter(_SCANS)), None)
        _SCANS[id(index)] = (weakref.ref(index), plain)
    except (TypeError, RuntimeError, StopIteration):
        pass                        # no weak reference to it, or another thread's turn: scanned again
    return plain


def _plain_dtype(dtype, pd) -> bool:
    if type(dtype) is pd.CategoricalDtype:
        return plain_labels(dtype.categories, pd)
    return type(dtype).__module__.split(".")[0] in ("numpy", "pandas")


def _plain_type(t: type) -> bool:
    """A label type whose hash and comparison are Python's, numpy's or pandas' own code."""
    return t in _SCALARS or t in _library_labels(sys.modules.get("numpy"), sys.modules.get("pandas"))


@functools.lru_cache(maxsize=4)
def _library_labels(np, pd) -> frozenset:
    """numpy's scalar types and pandas' own label types (a subclass of the user's is neither)."""
    kinds = set(np.sctypeDict.values()) if np is not None else set()
    if pd is not None:
        kinds |= {pd.Timestamp, pd.Timedelta, pd.Period, type(pd.NaT), type(pd.NA)}
    return frozenset(kinds)


def _plain_value(v) -> bool:
    if type(v) is tuple:
        return all(_plain_value(x) for x in v)
    return _plain_type(type(v))
