"""pandas and numpy asked themselves, where no other rule speaks: the call or lookup the cell makes,
run on a stand-in of the user's object (the same axes, no values of its own) or on the cell's own
plain values, few; what the library raises there it raises on the user's object, for reasons of
axes, dtypes and arguments alone.

    lookups      `s["California":"Texas"]` on an index of tuples, `df.loc[:2, :2]` on text labels,
                 `s.iloc["a":"b"]`, `df[idx[:, 1], idx[:, "HR"]]`, `s["a":"b"]` on an unsorted
                 MultiIndex, `x.iloc[5] = v` past the end: on a Series or DataFrame holding the
                 object's own index and columns and a read-only view of one zero as its values
    label        `s.unstack(level=2)`, `df.set_index("a", "b")`, `df.dropna(how="some")`: pandas'
    methods      methods whose checks read labels and arguments, on the same stand-in
    makers       `pd.MultiIndex(index)`, `pd.Series(range(2), dtype="integer")`, `pd.to_datetime([...])`,
                 `pd.cut(s, 3, labels=names)`: asked on the cell's literals and the kernel's plain values
    numpy        `b[rows, cols]`, `t.transpose(1, 2)`, `np.swapaxes(a, 0, 2)`: on an array of the same
                 shape whose items are of size 0 (`np.empty(shape, dtype=[])`: no memory);
                 `np.sort(X, axis="columns")`, `np.partition(x, 7)`: the data as zeros of its shape and
                 dtype; `X += Y` that does not broadcast to X's shape (np.broadcast_shapes);
                 `rng.integers(0, 10, 3, 4)`: on a new generator of numpy's (the user's keeps its state)

Keys and arguments are literals, slices of them, `pd.IndexSlice[...]` and the kernel's plain values;
the objects are of the libraries' own classes with labels and values of plain types: nothing of the
user's runs. Python's own rules on its values' types are python_types.py's.
"""
from __future__ import annotations

import ast
import builtins
import math
import operator
import sys
import types
import warnings

from .abstract_value import Abstract, random_state_value
from .claims import Live, Text, ValueClaim, read_otherwise_no_claim
from .items import library_zone, plain_labels
from .libraries import own_classes, own_function
from .namespace import UNRESOLVED, Made, written_literal
from .python_types import not_subscriptable_claim, operator_sign, sequence_index_claim
from .read_policy import POLICY

_NO_KEY = object()
# sizes beyond which no stand-in is made (its lookups' results are of the key's size, the labels' hash
# table of the index's: bounded for the guard's time)
_MAX_ROWS = 1_000_000
_MAX_CELLS = 20_000_000
# a method runs whole on the stand-in (`stack`, `sort_index`): smaller objects only
_MAX_METHOD_CELLS = 100_000
_MAX_INDEX_ARRAY = 1_000_000
_PANDAS_INDEXERS = ("loc", "iloc", "at", "iat")
# what pandas' lookups raise of the labels and the key (anything else is not claimed)
_PANDAS_RAISES = frozenset({"KeyError", "TypeError", "IndexError", "ValueError", "InvalidIndexError",
                            "IndexingError", "UnsortedIndexError"})
_NUMPY_RAISES = frozenset({"IndexError", "ValueError", "TypeError", "AxisError"})
# numpy's methods and functions that only rearrange axes: their checks read the shape alone
_SHAPE_METHODS = frozenset({"reshape", "transpose", "swapaxes", "squeeze"})
_SHAPE_FUNCTIONS = frozenset({"reshape", "transpose", "swapaxes", "squeeze", "expand_dims", "moveaxis"})


@read_otherwise_no_claim
def lookup_claim(n: ast.Subscript, live: Live, value: Live, text: Text) -> ValueClaim | None:
    """A subscript read that pandas or numpy refuses on a stand-in, or Python on a number or a
    function; of a store, an iloc/iat position past the end, or a list's. `live`: the live object of a pure
    chain as the cell finds it; `value`: that or what the cell made (abstract.py)."""
    if isinstance(n.ctx, ast.Store):
        return _pandas_lookup(n, live, store=True) or sequence_index_claim(n, live)
    if not isinstance(n.ctx, ast.Load):
        return None
    return _pandas_lookup(n, live) or _numpy_lookup(n, live, value) or not_subscriptable_claim(n, live, text) or \
        sequence_index_claim(n, live)


@read_otherwise_no_claim
def shape_method_claim(n: ast.Call, live: Live, value: Live) -> ValueClaim | None:
    """`t.transpose(1, 2)`, `a.reshape(5, 5)`, `np.swapaxes(a, 0, 2)`, `np.expand_dims(a, 3)` of an
    array of known shape with literal arguments, asked of numpy on a stand-in of that shape."""
    np = sys.modules.get("numpy")
    if np is None or not isinstance(n.func, ast.Attribute) or any(isinstance(a, ast.Starred) for a in n.args) or \
            any(k.arg is None for k in n.keywords):
        return None
    name, receiver = n.func.attr, n.func.value
    function = None
    if name in _SHAPE_FUNCTIONS and live(receiver) is np:
        function = POLICY.module_members(np).get(name)
        if not n.args or function is None or not POLICY.is_library(function):
            return None
        array_node, args = n.args[0], n.args[1:]
    elif name in _SHAPE_METHODS:
        array_node, args = receiver, n.args
    else:
        return None
    shape = _known_shape(value(array_node), np)
    if shape is None:
        return None
    given = _literals(args, n.keywords)
    if given is None:
        return None
    given, options = given
    stand_in = np.empty(shape, dtype=_void(np))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if function is not None:
                function(stand_in, *given, **options)
            else:
                getattr(stand_in, name)(*given, **options)
    except Exception as e:  # noqa: BLE001 - only numpy's own refusals below are claimed
        return _claim(n.func, e, _NUMPY_RAISES, f"{ast.unparse(n.func)}() of shape {shape}", callee=True)
    return None


# -- pandas -------------------------------------------------------------------------------------------

def _pandas_lookup(n: ast.Subscript, live: Live, store: bool = False) -> ValueClaim | None:
    """`store`: `s.iloc[5] = x`, whose positions pandas checks as a lookup's (iloc cannot enlarge
    its target object: IndexError, the one failure claimed of a store)."""
    pd, np = sys.modules.get("pandas"), sys.modules.get("numpy")
    if pd is None or np is None:
        return None
    base, indexer = n.value, None
    if isinstance(base, ast.Attribute) and base.attr in _PANDAS_INDEXERS:
        base, indexer = base.value, base.attr
    if store and indexer not in ("iloc", "iat"):
        return None
    key = _key(n.slice, live, pd, None)
    if key is _NO_KEY and isinstance(n.slice, (ast.Name, ast.Attribute)):
        key = _labels_key(live(n.slice), pd)
    if key is _NO_KEY:
        return None
    obj = live(base)
    stand_in = _pandas_stand_in(obj, pd, np)
    if stand_in is None:
        return None
    target = stand_in if indexer is None else getattr(stand_in, indexer)
    if not own_classes(type(target), "pandas"):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target[key]
    except Exception as e:  # noqa: BLE001 - only pandas' own refusals below are claimed
        if store:                       # (placed on the key: the target's text reads as a load)
            return _claim(n.slice, e, frozenset({"IndexError"}), f"{ast.unparse(n)} = ...: a position beyond its shape "
                                                            f"{stand_in.shape} (iloc cannot enlarge its target object)")
        return _claim(n, e, _PANDAS_RAISES, ast.unparse(n))
    return None


def _labels_key(v, pd):
    """A live Series or Index of pandas' own class as a key (`states[area]`): itself, where its
    values and labels are plain and few (pandas reads them as a list of labels, or a mask aligned
    on its labels); _NO_KEY otherwise."""
    if type(v) not in (pd.Series, pd.Index) or len(v) > _MAX_ITEMS or not _plain_values(v.dtype, pd) or \
            not plain_labels(v.index if type(v) is pd.Series else v, pd):
        return _NO_KEY
    return v


# pandas' methods whose checks read the labels, the levels and the arguments, never the values (on the
# stand-in they run on its zeros; `insert` and `inplace=True` change the stand-in alone). Not `sample`
# (it draws from numpy's global generator, the user's)
_AXIS_METHODS = frozenset({"unstack", "stack", "swaplevel", "reorder_levels", "droplevel", "xs", "sort_index",
                           "set_index", "insert", "rename_axis", "drop", "dropna", "sort_values", "rename", "reindex",
                           "melt", "explode", "filter", "isin", "duplicated", "drop_duplicates", "head", "tail",
                           "set_axis", "transpose", "add_prefix", "add_suffix"})
# keywords that would make the check read the values (set_index's verify_integrity counts them)
_VALUE_KEYWORDS = frozenset({"verify_integrity", "fill_value", "key"})


@read_otherwise_no_claim
def axis_method_claim(n: ast.Call, live: Live, value: Live) -> ValueClaim | None:
    """`s.unstack(level=2)`, `df.stack(dropna=False)`, `df.set_index("state", "year")`,
    `people.insert("height", 1, [...])`, `df.dropna(how="some")` of a live Series or DataFrame with
    literal arguments: the same call on a stand-in with its index and columns (_pandas_stand_in)."""
    pd, np = sys.modules.get("pandas"), sys.modules.get("numpy")
    if pd is None or np is None or not isinstance(n.func, ast.Attribute) or n.func.attr not in _AXIS_METHODS or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None or k.arg in _VALUE_KEYWORDS
                                                                   for k in n.keywords):
        return None
    given = _written(n.args, n.keywords, value)
    if given is None:
        return None
    obj = live(n.func.value)
    stand_in = _pandas_stand_in(obj, pd, np)
    # (a method may read the values before its arguments: duplicated's `keep` after hashing them, so the
    # user's values must be of a kind the stand-in's zeros answer alike)
    if stand_in is None or not own_classes(type(stand_in), "pandas") or stand_in.size > _MAX_METHOD_CELLS or \
            not all(_plain_values(d, pd) for d in (obj.dtypes if type(obj) is pd.DataFrame else [obj.dtype])):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(stand_in, n.func.attr)(*given[0], **given[1])
    except Exception as e:  # noqa: BLE001 - only pandas' own refusals below are claimed
        return _claim(n.func, e, _PANDAS_RAISES, f"{ast.unparse(n.func)}()", callee=True)
    return None


@read_otherwise_no_claim
def frame_operator_claim(n: ast.BinOp, live: Live, value: Live) -> ValueClaim | None:
    """`df - halfrow.values`, `A + B.values`: pandas' arithmetic of a live DataFrame or Series of
    numbers with numpy's array of numbers (live, or made with every size known), whose shapes
    pandas must match (ValueError: "Unable to coerce to DataFrame, shape must be ..."): asked on a
    stand-in of the object (its own labels, zeros) and zeros of the array's shape."""
    pd, np = sys.modules.get("pandas"), sys.modules.get("numpy")
    name = _FRAME_OPERATORS.get(type(n.op))
    if pd is None or np is None or name is None:
        return None
    sides = [live(n.left), live(n.right)]
    at = next((i for i, v in enumerate(sides) if type(v) in (pd.Series, pd.DataFrame)), None)
    if at is None or not all(own_function(POLICY.static(type(sides[at]), f"__{p}{name}__", None), "pandas")
                             for p in ("", "r")):
        return None
    obj = sides[at]
    if not all(type(d).__module__.split(".")[0] == "numpy" and d.kind in "biuf"
               for d in (obj.dtypes if type(obj) is pd.DataFrame else [obj.dtype])):
        return None
    other = (n.right, n.left)[at]
    v = value(other)
    shape = _known_shape(v, np)
    kind = v.dtype.kind if type(v) is np.ndarray else getattr(v, "kind", None)
    if shape is None or kind not in tuple("biuf") or math.prod(shape) > _MOST_DATA:
        return None
    stand_in = _pandas_stand_in(obj, pd, np)
    if stand_in is None:
        return None
    zeros = np.zeros(shape, dtype=v.dtype if type(v) is np.ndarray else bool if kind == "b" else np.dtype(kind + "8"))
    operands = (stand_in, zeros) if at == 0 else (zeros, stand_in)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(operator, name)(*operands)
    except ValueError as e:
        what = type(obj).__name__
        return _claim(n, e, frozenset({"ValueError"}), f"{what} {operator_sign(n.op)} an array of shape {shape}")
    return None


_FRAME_OPERATORS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
                    ast.Mod: "mod", ast.Pow: "pow"}


def _pandas_stand_in(obj, pd, np):
    """A Series or DataFrame of pandas' own class with `obj`'s own index and columns (plain labels)
    and a read-only view of one zero as its values; None for anything else or too large."""
    if type(obj) not in (pd.Series, pd.DataFrame):
        return None
    axes = [obj.index] + ([obj.columns] if type(obj) is pd.DataFrame else [])
    rows, width = len(obj.index), (len(obj.columns) if type(obj) is pd.DataFrame else 1)
    if rows > _MAX_ROWS or rows * width > _MAX_CELLS or \
            not all(own_classes(c, "pandas") for c in (type(obj), *map(type, axes))) or \
            not all(_plain_axis(a, pd) for a in axes):
        return None
    zero = np.zeros((), dtype=np.int8)
    if type(obj) is pd.Series:
        return pd.Series(np.broadcast_to(zero, (rows,)), index=obj.index, copy=False)
    return pd.DataFrame(np.broadcast_to(zero, (rows, width)), index=obj.index, columns=obj.columns, copy=False)


def _plain_axis(index, pd) -> bool:
    """An index of plain labels and plain level names (a name is compared too: `sort_values(by=)`)."""
    return plain_labels(index, pd) and all(_plain_literal(x) for x in index.names)


def _literals(args: list[ast.expr], keywords: list[ast.keyword]) -> tuple[list, dict] | None:
    """Positional and keyword arguments when every one is a plain literal; else None."""
    try:
        given = [ast.literal_eval(a) for a in args]
        options = {k.arg: ast.literal_eval(k.value) for k in keywords}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return (given, options) if all(_plain_literal(v) for v in [*given, *options.values()]) else None


# pandas' functions asked with the cell's own values (besides its classes and their `from_*` makers)
_MAKER_FUNCTIONS = frozenset({"to_datetime", "to_timedelta", "to_numeric", "cut", "qcut", "date_range",
                              "period_range", "timedelta_range", "interval_range"})
# pandas' classes whose constructors (and `from_*` makers) are asked
_MAKER_CLASSES = ("DataFrame", "Series", "Index", "MultiIndex", "Categorical", "CategoricalIndex", "DatetimeIndex",
                  "TimedeltaIndex", "PeriodIndex", "IntervalIndex", "Timestamp", "Timedelta", "Period", "Interval")
_MAX_ITEMS = 2_000
_MAX_SIZE = 1_000      # a size an argument writes out (bins, periods)


@read_otherwise_no_claim
def string_method_claim(n: ast.Call, live: Live) -> ValueClaim | None:
    """`names.str.startswith(["T", "G"])`, `names.str.extract("[a-z]+")`: one of pandas' string methods
    of a live Series or Index of text (few), with literal arguments, asked on a copy of its own
    values (`str.cat` and `str.repeat` compare lengths with them)."""
    pd = sys.modules.get("pandas")
    f = n.func
    if pd is None or not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Attribute) and
                          f.value.attr == "str") or f.attr.startswith("_"):
        return None
    obj = live(f.value.value)
    accessor = POLICY.static(pd.Series, "str", None)
    methods = POLICY.own_dict(accessor).get("_accessor") if accessor is not None else None
    if type(obj) not in (pd.Series, pd.Index) or not isinstance(methods, type) or not POLICY.is_library(methods) or \
            not POLICY.is_library(POLICY.static(methods, f.attr, None)) or not _text(obj, pd):
        return None
    given = _literals(n.args, n.keywords)
    if given is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(methods(type(obj)(list(obj.array), dtype=obj.dtype)), f.attr)(*given[0], **given[1])
    except Exception as e:  # noqa: BLE001 - only pandas' own refusals below are claimed
        return _claim(n.func, e, frozenset({"TypeError", "ValueError"}), f"{ast.unparse(n.func)}()", callee=True)
    return None


def _text(obj, pd) -> bool:
    """pandas' text dtype, or numpy's objects all text or missing; few (each is read by its type)."""
    if len(obj) > _MAX_ITEMS:
        return False
    if type(obj.dtype) is pd.StringDtype:
        return True
    if obj.dtype != object:
        return False
    return all(type(v) is str or v is None or type(v) is float and math.isnan(v) for v in obj.array)


@read_otherwise_no_claim
def maker_claim(n: ast.Call, target, live: Live, live_data: bool = True,
                value: Live = lambda node: UNRESOLVED) -> ValueClaim | None:
    """`pd.MultiIndex(index)`, `pd.MultiIndex.from_arrays(["a", "b"], [1, 2])`,
    `pd.DataFrame({"total": pop, "under18": [...]})`, `pd.to_datetime(["2024-13-01"])`: one of
    pandas' classes or makers called with literals and live values of plain data alone (builtin
    containers of plain scalars, numpy arrays of numbers or text, pandas objects of plain labels and
    dtypes): the call itself is asked, on those very values (small: bounded by _MAX_ITEMS).
    `live_data`: may a live list, dict, array or pandas object be read as the kernel holds it (nothing
    before in the cell may have changed what it holds); else only immutable live values are."""
    pd = sys.modules.get("pandas")
    if pd is None or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords) or \
            not _pandas_maker(target, pd):
        return None
    budget = [_MAX_ITEMS if live_data else 0]
    given = [_data(a, live, pd, budget, value) for a in n.args]
    options = {k.arg: _data(k.value, live, pd, budget, value) for k in n.keywords}
    values = [*given, *options.values()]
    if any(v is _NO_KEY for v in values) or any(type(x) is int and abs(x) > _MAX_SIZE for x in values) or \
            any(type(x) is str for x in _flat(values)) and not _own_dtype_names(pd):
        return None         # a size written out (bins, periods); a dtype's name a dtype of the user's may answer
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target(*given, **options)
    except Exception as e:  # noqa: BLE001 - only the library's own refusals below are claimed
        claim = _claim(n.func, e, _MAKER_RAISES, f"{ast.unparse(n.func)}()", callee=True)
        if claim is not None:           # what is read: pandas (its module's name) and the values named
            claim.subjects = tuple(dict.fromkeys(x.id for x in ast.walk(n) if isinstance(x, ast.Name) and
                                                 _builtin_maker(live(x)) is None))
        return claim
    return None


_MAKER_RAISES = frozenset({"TypeError", "ValueError", "KeyError", "IndexError", "OutOfBoundsDatetime",
                           "DateParseError", "ParserError", "OutOfBoundsTimedelta"})


def _own_dtype_names(pd) -> bool:
    """Are the dtypes pandas looks a name up among (`dtype="money"`) all pandas' own? A registered
    ExtensionDtype of the user's answers names with its code."""
    registry = POLICY.module_members(sys.modules.get("pandas.core.dtypes.base") or pd).get("_registry")
    kinds = getattr(registry, "dtypes", None) if registry is not None and own_classes(type(registry), "pandas") else None
    return type(kinds) is list and all(str(POLICY.class_module(k)).startswith("pandas") for k in kinds)


def _pandas_maker(target, pd) -> bool:
    """One of _MAKER_CLASSES reached from pandas' module, a `from_*` class method of one, or one of
    _MAKER_FUNCTIONS: the checks of pandas' code alone."""
    members = POLICY.module_members(pd)
    classes = [members.get(name) for name in _MAKER_CLASSES]
    if any(target is c for c in classes):
        return own_classes(target, "pandas")
    if type(target) is types.MethodType:
        owner, function = target.__self__, target.__func__     # C members of the method: no code runs
        return any(owner is c for c in classes) and type(function) is types.FunctionType and \
            function.__name__.startswith("from_") and own_classes(owner, "pandas") and own_function(function, "pandas")
    return any(target is members.get(name) for name in _MAKER_FUNCTIONS) and own_function(target, "pandas")


def _data(node: ast.expr, live: Live, pd, budget: list, value: Live = lambda node: UNRESOLVED):
    """The value of an argument of plain data: literals and containers of them, a display the
    cell wrote (`value`: what the cell made), and live values of plain data (_plain_data);
    _NO_KEY for anything else."""
    if isinstance(node, ast.Constant):
        return node.value if _plain_literal(node.value) else _NO_KEY
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return -node.operand.value
    if isinstance(node, (ast.List, ast.Tuple)):
        if len(node.elts) > _MAX_ITEMS:
            return _NO_KEY
        items = [_data(e, live, pd, budget) for e in node.elts]
        return _NO_KEY if _missing(items) else (list(items) if isinstance(node, ast.List)
                                                                   else tuple(items))
    if isinstance(node, ast.Dict):
        if None in node.keys:
            return _NO_KEY
        keys = [_data(k, live, pd, budget) for k in node.keys]
        values = [_data(v, live, pd, budget) for v in node.values]
        if _missing(keys) or _missing(values) or not all(type(k) in (str, int, float, bool, tuple) for k in keys):
            return _NO_KEY
        return dict(zip(keys, values))
    if isinstance(node, ast.Name) and (written := written_literal(value(node), dicts=True)) is not UNRESOLVED:
        return written                  # `data = {"Name": [...], "Age": [...]}` earlier in the cell
    if isinstance(node, (ast.Name, ast.Attribute)):
        v = live(node)
        return v if _immutable(v, pd) or _plain_data(v, pd, budget) else _NO_KEY
    if isinstance(node, ast.Call) and (made := _made_by_maker(node, live, pd, budget)) is not _NO_KEY:
        return made                     # `index=pd.DatetimeIndex([...])`: pandas' maker of plain data, asked
    maker = _builtin_maker(live(node.func)) if isinstance(node, ast.Call) and not node.keywords else None
    if maker is not None:
        # `range(2)`, `list("abcd")`: Python's own, of plain data, few
        given = [_data(a, live, pd, budget) for a in node.args]
        if _missing(given) or not all(type(g) in (int, str, tuple, range) for g in given):
            return _NO_KEY
        made = maker(*given) if maker is not range or all(type(g) is int and abs(g) <= _MAX_ITEMS for g in given) \
            else _NO_KEY
        return _NO_KEY if made is _NO_KEY or len(made) > _MAX_ITEMS else made
    return _NO_KEY


def _made_by_maker(node: ast.Call, live: Live, pd, budget: list):
    """What one of pandas' makers (_pandas_maker) makes of plain data the call is written with (few,
    no size written out beyond _MAX_SIZE, no dtype's name a dtype of the user's may answer), where
    it makes plain data; _NO_KEY otherwise (a refusal too: the outer call is not asked)."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords) or \
            not _pandas_maker(live(node.func), pd):
        return _NO_KEY
    given = [_data(a, live, pd, budget) for a in node.args]
    options = {k.arg: _data(k.value, live, pd, budget) for k in node.keywords}
    values = [*given, *options.values()]
    if _missing(values) or any(type(x) is int and abs(x) > _MAX_SIZE for x in _flat(values)) or \
            any(type(x) is str for x in _flat(values)) and not _own_dtype_names(pd):
        return _NO_KEY
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            made = live(node.func)(*given, **options)
    except Exception:  # noqa: BLE001 - refused: the outer call is not asked
        return _NO_KEY
    return made if _plain_data(made, pd, budget) else _NO_KEY


def _builtin_maker(v):
    """Python's `range`, `list` or `tuple` (compared by identity: `==` would ask a Series'); else None."""
    return next((f for f in (range, list, tuple) if v is f), None)


def _missing(items: list) -> bool:
    """Is any item no value (compared by identity: `in` would ask a Series' `==`)?"""
    return any(x is _NO_KEY for x in items)


def _immutable(v, pd) -> bool:
    """A plain value no call can change: a number, text, None, pandas' NA or NaT, a tuple of them."""
    if type(v) is tuple:
        return len(v) <= _MAX_ITEMS and all(_immutable(x, pd) for x in v)
    return type(v) in (int, float, str, bool, type(None)) or v is pd.NA or v is pd.NaT


def _plain_values(dtype, pd) -> bool:
    """A dtype whose values are numbers, booleans, dates or text of numpy's or pandas' own (not numpy's
    objects, a Sparse or Arrow dtype, a category of objects, a time zone of the user's)."""
    if type(dtype).__module__.split(".")[0] == "numpy":
        return dtype.kind in "biufcmMUS"
    if type(dtype) is pd.CategoricalDtype:
        return plain_labels(dtype.categories, pd)
    if type(dtype) is pd.DatetimeTZDtype:
        return library_zone(dtype.tz)
    return type(dtype) in (pd.StringDtype, pd.PeriodDtype, pd.BooleanDtype, pd.Float32Dtype, pd.Float64Dtype,
                           pd.Int8Dtype, pd.Int16Dtype, pd.Int32Dtype, pd.Int64Dtype, pd.UInt8Dtype, pd.UInt16Dtype,
                           pd.UInt32Dtype, pd.UInt64Dtype)


def _plain_data(v, pd, budget: list) -> bool:
    """Data whose reading runs no code of the user's: plain scalars, builtin containers of them,
    numpy arrays of numbers, booleans, dates or text, pandas objects of plain labels and dtypes
    (no numpy objects: they may be the user's), within the budget of items."""
    np = sys.modules.get("numpy")
    if type(v) in (int, float, str, bool, type(None)) or v is pd.NA or v is pd.NaT:
        return True
    if type(v) in (list, tuple):
        budget[0] -= len(v)
        return budget[0] >= 0 and all(_plain_data(x, pd, budget) for x in v)
    if type(v) is dict:
        budget[0] -= len(v)
        return budget[0] >= 0 and all(type(k) in (str, int, float, bool) and _plain_data(x, pd, budget)
                                      for k, x in v.items())
    if np is not None and type(v) is np.ndarray:
        budget[0] -= v.size
        return budget[0] >= 0 and v.dtype.kind in "biufcmMU"
    indexes = (pd.Index, pd.RangeIndex, pd.MultiIndex, pd.DatetimeIndex, pd.TimedeltaIndex, pd.PeriodIndex)
    if type(v) in (pd.Series, pd.DataFrame, *indexes):
        budget[0] -= v.size
        if budget[0] < 0 or not own_classes(type(v), "pandas"):
            return False
        if type(v) in (pd.Series, pd.DataFrame) and not (type(v.attrs) is dict and not v.attrs):
            return False                # (pandas deep-copies what attrs hold)
        if type(v) in indexes:
            return _plain_axis(v, pd)
        dtypes = list(v.dtypes) if type(v) is pd.DataFrame else [v.dtype]
        return _plain_axis(v.index, pd) and (type(v) is pd.Series or _plain_axis(v.columns, pd)) and \
            all(_plain_values(d, pd) for d in dtypes) and \
            (type(v) is pd.DataFrame or type(v.name) in (str, int, float, type(None)))
    return False


# -- numpy --------------------------------------------------------------------------------------------

_MOST_DRAWN = 1_000_000
# numpy's functions and ndarray methods whose checks read the data's shape and dtype and the other
# arguments, never the data's values: asked with the data replaced by zeros of its shape and dtype
_DATA_FUNCTIONS = frozenset({"sort", "argsort", "partition", "argpartition", "concatenate", "stack", "vstack",
                             "hstack", "column_stack", "max", "min", "amax", "amin", "sum", "mean", "std", "var",
                             "prod", "cumsum", "cumprod", "argmax", "argmin", "median", "percentile", "quantile",
                             "histogram", "ptp", "round", "diff", "flip", "roll", "split", "array_split",
                             "count_nonzero", "average", "nanmean", "nansum", "all", "any", "zeros", "ones", "empty",
                             "bincount", "dot", "matmul", "inner"})
# the makers among them take a shape: only an array the kernel holds or the cell made is read for it
_SHAPE_MAKERS = frozenset({"zeros", "ones", "empty"})
_DATA_METHODS = frozenset({"sort", "argsort", "partition", "argpartition", "max", "min", "sum", "mean", "std", "var",
                           "prod", "cumsum", "cumprod", "argmax", "argmin", "round", "flatten", "ravel", "all", "any"})
_MOST_DATA = 100_000
_MOST_ARGUMENT = 10_000


@read_otherwise_no_claim
def data_call_claim(n: ast.Call, target, live: Live, value: Live, live_data: bool = True) -> ValueClaim | None:
    """`np.sort(X, axis="columns")`, `M.max(axis="columns")`, `np.partition(x, 7)`, `np.concatenate(x, y,
    z)`, `np.histogram(x, bins, normed=True)`: one of numpy's functions (or an array's methods) whose
    checks read the data's shape and dtype alone, asked with the data (the first argument, or each
    array of a sequence of them) as zeros of the same shape and dtype; the other arguments as written
    (literals) or as the kernel holds them (numbers, small arrays of numbers). `live_data`: may a live
    list or array be read by its values (maker_claim's)."""
    np = sys.modules.get("numpy")
    if np is None or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    members = POLICY.module_members(np)
    name = n.func.attr if isinstance(n.func, ast.Attribute) else None
    if name in _DATA_FUNCTIONS and live(n.func.value) is np and members.get(name) is target and \
            POLICY.is_library(target) and n.args:
        data, rest, call = n.args[0], n.args[1:], lambda *a, **k: target(*a, **k)
    elif name in _DATA_METHODS and type(target) is types.BuiltinMethodType and \
            type(target.__self__) is np.ndarray:
        data, rest, call = n.func.value, n.args, lambda d, *a, **k: getattr(d, name)(*a, **k)
    else:
        return None
    if name in _SHAPE_MAKERS and not isinstance(data, (ast.Name, ast.Attribute)):
        return None                     # (a shape written out is _made_from_literals')
    zeros = _zeros_of(data, value, np, live_data)
    if zeros is _NO_KEY or name in _SHAPE_MAKERS and type(zeros) in (list, tuple) and (
            not all(type(d) is int for d in _flat(zeros)) or math.prod(max(d, 1) for d in _flat(zeros)) > _MOST_DATA):
        return None                     # (a shape written out in a list: numpy would make it)
    given = [_argument(a, live, value, np, live_data) for a in rest]
    options = {k.arg: _argument(k.value, live, value, np, live_data) for k in n.keywords}
    if _missing([*given, *options.values()]) or any(k in ("out", "where") for k in options) or \
            any(type(x) is int and abs(x) > _MOST_ARGUMENT for x in _flat([*given, *options.values()])):
        return None                     # (a count written out may make the work large: `np.diff(a, n=10**9)`)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(zeros, *given, **options)
    except Exception as e:  # noqa: BLE001 - only numpy's own refusals below are claimed
        claim = _claim(n.func, e, _NUMPY_RAISES, f"{ast.unparse(n.func)}()", callee=True)
        if claim is not None:
            claim.subjects = tuple(dict.fromkeys(x.id for x in ast.walk(n) if isinstance(x, ast.Name)))
        return claim
    return None


def _zeros_of(node: ast.expr, value: Live, np, live_data: bool):
    """The data as zeros of its shape and dtype: an array (live, or made with every size known) or a
    list or tuple written of such arrays or of numbers; _NO_KEY otherwise."""
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_zeros_of(e, value, np, live_data) for e in node.elts]
        if _missing(items) or len(items) > _MOST_ARGUMENT:
            return _NO_KEY
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
        return node.value
    v = value(node)
    if (written := written_literal(v)) is not UNRESOLVED and len(written) <= _MOST_ARGUMENT and \
            all(type(x) in (int, float, bool, list, tuple) for x in _flat(written)):
        return written                  # numbers the cell wrote into a name (`x = [1, 2, 3]`)
    if live_data and type(v) in (list, tuple) and len(v) <= _MOST_ARGUMENT and _plain_literal(v) and \
            all(type(x) in (int, float, bool, list, tuple) for x in _flat(v)):
        return v                        # numbers the kernel or the cell holds in a list: numpy reads them
    shape = _known_shape(v, np)
    if shape is None or math.prod(shape) > _MOST_DATA:
        return _NO_KEY
    if type(v) is np.ndarray:
        return np.zeros(shape, dtype=v.dtype) if v.dtype.kind in "biufcmM" else _NO_KEY
    return np.zeros(shape, dtype=bool if v.kind == "b" else np.dtype(v.kind + "8")) \
        if v.kind in tuple("biufc") else _NO_KEY


def _argument(node: ast.expr, live: Live, value: Live, np, live_data: bool):
    """Another argument: a literal or one the cell wrote into a name, a live number or text, or a
    live array of numbers (small)."""
    try:
        v = ast.literal_eval(node)
        return v if _plain_literal(v) else _NO_KEY
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Name) and (written := written_literal(value(node))) is not UNRESOLVED:
        return written
    v = live(node)
    if type(v) in (int, float, str, bool, type(None)) or \
            live_data and type(v) in (list, tuple) and len(v) <= _MOST_ARGUMENT and _plain_literal(v):
        return v
    if live_data and type(v) is np.ndarray and v.dtype.kind in "biuf" and v.size <= _MOST_ARGUMENT:
        return v
    return _NO_KEY


@read_otherwise_no_claim
def draw_claim(n: ast.Call, target, value: Live) -> ValueClaim | None:
    """`rng.integers(0, 10, 3, 4)`, `rng.normal(0, 1, size=(3, -4))` of a live numpy Generator or
    RandomState, or of one the cell made (`np.random.default_rng(1701)`, `np.random.RandomState(1)`),
    with literal arguments: the same method of a new generator of numpy's (the user's keeps its
    state), asked with them when what it would draw is small."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    random = POLICY.module_members(np.random)
    if type(target) in (types.BuiltinMethodType, types.MethodType):
        kind = type(target.__self__)        # C members of the method: no code runs
        name = (target.__func__ if type(target) is types.MethodType else target).__name__
    elif isinstance(n.func, ast.Attribute):     # one the cell made (its class has no instance dict)
        made = value(n.func.value)
        kind = random.get("Generator") if issubclass(type(made), Abstract) and made.like == "Generator" else \
            random.get("RandomState") if issubclass(type(made), Made) and random_state_value(made) else None
        name = n.func.attr
        if kind is None or not callable(getattr(kind, name, None)):
            return None
    else:
        return None
    if not isinstance(name, str):
        return None
    if kind not in (random.get("Generator"), random.get("RandomState")) or name.startswith("_") or \
            not own_classes(kind, "numpy"):
        return None
    given = _written(n.args, n.keywords, value)
    if given is None:
        return None
    ints = [x for x in _flat([*given[0], *given[1].values()]) if type(x) is int]
    if math.prod(max(abs(x), 1) for x in ints) > _MOST_DRAWN:
        return None
    fresh = random["Generator"](random["PCG64"](0)) if kind is random.get("Generator") \
        else random["RandomState"](0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(fresh, name)(*given[0], **given[1])
    except Exception as e:  # noqa: BLE001 - only numpy's own refusals below are claimed
        return _claim(n.func, e, frozenset({"TypeError", "ValueError"}), f"{ast.unparse(n.func)}()", callee=True)
    return None


def _written(args: list[ast.expr], keywords: list[ast.keyword], value: Live) -> tuple[list, dict] | None:
    """Positional and keyword arguments when each is a plain literal, one the cell wrote into a
    name before (`cov = [[1, 2], [2, 5]]`) or Python's own type or function (`dtype=int`,
    `how=all`); else None."""
    def one(node):
        try:
            v = ast.literal_eval(node)
            return v if _plain_literal(v) else _NO_KEY
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        v = value(node) if isinstance(node, ast.Name) else UNRESOLVED
        if (written := written_literal(v)) is not UNRESOLVED:
            return written
        # Python's own types and a few functions of plain values by their names (`dtype=int`, `how=all`),
        # the names left as Python's (never one that reads input, prints or runs text: a probe may call it)
        python = type(v) in (type, types.BuiltinFunctionType) and v.__name__ in _PYTHON_WORDS and \
            getattr(builtins, v.__name__, None) is v
        return v if python else _NO_KEY
    given = [one(a) for a in args]
    options = {k.arg: one(k.value) for k in keywords}
    return None if _missing([*given, *options.values()]) else (given, options)


_PYTHON_WORDS = frozenset({"int", "float", "complex", "bool", "str", "bytes", "object", "all", "any", "len", "sum",
                           "min", "max", "abs", "round", "sorted", "list", "tuple", "dict", "set"})


def _flat(values):
    for v in values:
        if type(v) in (list, tuple):
            yield from _flat(v)
        else:
            yield v


@read_otherwise_no_claim
def inplace_operator_claim(n: ast.AugAssign, value: Live) -> ValueClaim | None:
    """`X += 0.28 * np.random.randn(m, 2)` on an array of shape (60, 3): numpy's in-place operator
    writes into the target, so the other operand must broadcast to the target's own shape
    (np.broadcast_shapes, numpy's own rule), both shapes known in full."""
    np = sys.modules.get("numpy")
    if np is None or not isinstance(n.target, ast.Name) or \
            not isinstance(n.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)):
        return None
    target, other = _known_shape(value(n.target), np), _known_shape(value(n.value), np)
    if target is None or other is None:
        return None
    try:
        shape = np.broadcast_shapes(target, other)
    except ValueError:
        shape = None
    if shape == target:
        return None
    said = f"operands could not be broadcast together with shapes {target} {other}" if shape is None else \
        f"non-broadcastable output operand with shape {target} doesn't match the broadcast shape {shape}"
    return ValueClaim(n, f"{ast.unparse(n.target)} {operator_sign(n.op)}= an array of shape {other}: {said}: "
                         "ValueError", "ValueError")


@read_otherwise_no_claim
def augmented_lookup_claim(n: ast.AugAssign, live: Live, value: Live) -> ValueClaim | None:
    """`x[f * N:] += 5`: an augmented store into an item of an array reads that item first; numpy
    refuses the key as for a read."""
    if not isinstance(n.target, ast.Subscript):
        return None
    read = ast.Subscript(n.target.value, n.target.slice, ast.Load())     # the item as it is read, in place
    return _numpy_lookup(ast.copy_location(read, n.target), live, value)


def _numpy_lookup(n: ast.Subscript, live: Live, value: Live) -> ValueClaim | None:
    np = sys.modules.get("numpy")
    if np is None:
        return None
    shape = _known_shape(value(n.value), np)
    if shape is None:
        return None
    key = _key(n.slice, live, None, np, value)
    if key is _NO_KEY:
        key = _made_mask(value(n.slice), np)
    if key is _NO_KEY or any(type(k) is str for k in (key if type(key) is tuple else (key,))):
        return None                     # a field's name: text_index_claim's
    try:
        np.empty(shape, dtype=_void(np))[key]
    except Exception as e:  # noqa: BLE001 - only numpy's own refusals below are claimed
        return _claim(n, e, _NUMPY_RAISES, f"{ast.unparse(n.value)} of shape {shape}")
    return None


def _known_shape(v, np) -> tuple[int, ...] | None:
    """The shape of a live ndarray of numpy's own class, or of one the cell made whose every size is
    known; None otherwise (a structured array's fields are looked up by name)."""
    if type(v) is np.ndarray:           # (an array of objects, such as Axes, is the live axes rule's)
        return v.shape if v.dtype.names is None and v.dtype.kind != "O" else None
    if issubclass(type(v), Abstract) and v.like == "ndarray" and v.kind not in (None, "V", "O") and \
            all(type(d) is int and d >= 0 for d in v.shape):
        return tuple(v.shape)
    return None


def _made_mask(v, np):
    """A boolean array the cell made, the whole key (`rainfall[summer]`, `summer = (days > 172) & ...`):
    zeros of its shape, all a mask's refusal reads (its length against the axis); _NO_KEY otherwise."""
    shape = _known_shape(v, np) if issubclass(type(v), Abstract) and v.kind == "b" else None
    if shape is None or math.prod(shape) > _MAX_INDEX_ARRAY:
        return _NO_KEY
    return np.zeros(shape, dtype=bool)


def _void(np):
    """numpy's dtype of items of size 0 (a structured dtype without fields)."""
    return np.dtype([])


# -- keys -----------------------------------------------------------------------------------------------

def _key(node: ast.expr, live: Live, pd, np, value: Live | None = None):
    """The value of a key written with literals, slices, `pd.IndexSlice[...]` (with `pd`) and live
    numbers (with `np`: and live arrays of integers or booleans; with `value`, a number the cell
    computed into a name: `n = 0.3 * 10`); _NO_KEY for anything else."""
    if isinstance(node, ast.Constant):
        v = node.value
        return v if type(v) in (int, float, str, bool, type(None)) or (v is Ellipsis and np is not None) else _NO_KEY
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return -node.operand.value
    if isinstance(node, ast.Slice):
        parts = [None if p is None else _key(p, live, pd, np, value) for p in (node.lower, node.upper, node.step)]
        if any(p is _NO_KEY or type(p) in (list, tuple, slice) for p in parts):
            return _NO_KEY
        return slice(*parts)
    if isinstance(node, (ast.Tuple, ast.List)):
        items = [_key(e, live, pd, np, value) for e in node.elts]
        if _missing(items) or isinstance(node, ast.List) and \
                any(np is not None and type(i) is np.ndarray for i in items):
            return _NO_KEY
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.Set) and all(isinstance(e, ast.Constant) and type(e.value) in (int, str) for e in node.elts):
        return {e.value for e in node.elts}     # (pandas and numpy refuse a set as a key)
    if pd is not None and isinstance(node, ast.Subscript) and live(node.value) is pd.IndexSlice:
        return _key(node.slice, live, pd, np)
    if isinstance(node, (ast.Name, ast.Attribute)):
        v = live(node)
        if v is UNRESOLVED and value is not None and isinstance(node, ast.Name):
            made = value(node)
            v = made.literal() if issubclass(type(made), Made) and type(made.literal()) in (int, float) else v
            written = written_literal(made)     # `i = (2, 3, 3)`: a tuple or list of ints the cell wrote
            if written is not UNRESOLVED and all(type(x) is int for x in written):
                return written
        if type(v) in (int, float, bool) or type(v) is str and np is None:
            return v
        if np is not None and type(v) is np.ndarray and v.dtype.kind in "biu" and v.ndim >= 1 and \
                v.size <= _MAX_INDEX_ARRAY:
            return v
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC and value is not None:
        a, b = _key(node.left, live, pd, np, value), _key(node.right, live, pd, np, value)
        if type(a) in (int, float) and type(b) in (int, float):
            try:                        # `f * N` of numbers: the number Python computes
                return _ARITHMETIC[type(node.op)](a, b)
            except ArithmeticError:
                return _NO_KEY
    return _NO_KEY


_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
               ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}


def _plain_literal(v) -> bool:
    if type(v) in (tuple, list):
        return all(_plain_literal(x) for x in v)
    return type(v) in (int, float, str, bool, type(None))


def _claim(node: ast.AST, e: Exception, raises: frozenset, said: str, callee: bool = False) -> ValueClaim | None:
    """The claim of a library's own refusal: an exception of numpy's, pandas' or Python's whose
    name is one of `raises`."""
    cls = type(e)
    home = cls.__module__.split(".")[0]
    if cls.__name__ not in raises or home not in ("builtins", "numpy", "pandas"):
        return None
    said_key = len(e.args) == 1 and not (type(e.args[0]) is str and " " in e.args[0].strip())
    if isinstance(e, KeyError) and said_key:         # pandas' KeyError holds the key alone
        reason = f"no label {e.args[0]!r} among its labels"
    elif cls.__name__ == "InvalidIndexError" and said_key:
        reason = "a key pandas cannot look up on these labels (one part per axis goes through .loc)"
    else:
        reason = " ".join(str(e).split())[:200]
    return ValueClaim(node, f"{said}: {reason}: {cls.__name__}", cls.__name__, callee=callee)
