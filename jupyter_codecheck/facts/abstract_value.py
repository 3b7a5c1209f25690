"""The abstract values in-cell propagation (abstract.py) makes: `Abstract` (a value known by its
kind and shape only), `shaped` (the one reading of an input's shape and dtype, live or abstract),
and the rules on shapes and dtype kinds the libraries' calls follow (broadcasting, products, joins,
reshapes, indexing).
"""
from __future__ import annotations

import ast
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

from .items import holds_identifiers
from .namespace import UNRESOLVED, Made

_NUMERIC = "biufc"


# reductions that take `axis=` and drop that dimension: the result's dtype kind for the input's
# (a kind not listed: the input's own)
_REDUCTIONS = {"sum": {"b": "i"}, "prod": {"b": "i"}, "max": {}, "min": {}, "mean": {"b": "f", "i": "f", "u": "f"},
               "std": {"b": "f", "i": "f", "u": "f", "c": "f"}, "var": {"b": "f", "i": "f", "u": "f", "c": "f"},
               "any": {k: "b" for k in _NUMERIC}, "all": {k: "b" for k in _NUMERIC},
               "argmax": {k: "i" for k in _NUMERIC}, "argmin": {k: "i" for k in _NUMERIC}}


# ndarray methods that change the array's shape or dtype in place (numpy's other in-place
# methods, flow.ARRAY_MUTATING, change its values only)
ARRAY_RESHAPING = frozenset({"resize", "__setstate__"})
# methods that change a pandas object (others return a new one unless inplace=True)
PANDAS_MUTATING = frozenset({"insert", "pop", "update", "set_axis", "__setitem__", "__delitem__"})


# estimator methods that leave its class and parameters as they are
ESTIMATOR_KEEPING = frozenset({"fit", "partial_fit", "fit_transform", "transform", "fit_predict", "predict",
                                "predict_proba", "predict_log_proba", "decision_function", "score",
                                "inverse_transform", "get_params", "get_feature_names_out"})


# the methods propagated through (of an ndarray, a Series or a DataFrame)
_METHODS = frozenset({"reshape", "transpose", "ravel", "flatten", "copy", "astype", "to_numpy", "drop",
                      "cumsum", "cumprod", *_REDUCTIONS})


# a numpy Generator's draws propagated through: their parameters in order, and the dtype kind
_GENERATOR_DRAWS = {"standard_normal": (("size",), "f"), "random": (("size",), "f"),
                    "normal": (("loc", "scale", "size"), "f"), "uniform": (("low", "high", "size"), "f"),
                    "integers": (("low", "high", "size"), "i")}


def random_generator_draw(cls: type, method: str) -> bool:
    """A draw of numpy's RandomState or Generator (exactly those compiled classes): it changes
    only the generator's state, never its class or methods."""
    np = sys.modules.get("numpy")
    return np is not None and cls in (np.random.RandomState, np.random.Generator) and not method.startswith("_") and \
        method not in ("seed", "set_state", "bit_generator")     # (these refuse an argument of another kind)


def random_state_value(v) -> bool:
    """numpy's legacy RandomState: a live one of exactly that class, or one the cell makes."""
    np = sys.modules.get("numpy")
    return np is not None and (type(v) is np.random.RandomState or
                               issubclass(type(v), Made) and v.of_class() is np.random.RandomState)


# scikit-learn's sample generators whose (X, y) shapes follow from their arguments
_GENERATORS = ("make_blobs", "make_classification", "make_regression", "make_moons", "make_circles")


_SPLIT_OPTIONS = frozenset({"test_size", "train_size", "random_state", "shuffle"})


# plt.subplots' keywords taken (the ratios and gridspec_kw only where they fit the grid: abstract_matplotlib)
_SUBPLOTS_OPTIONS = frozenset({"nrows", "ncols", "squeeze", "sharex", "sharey", "figsize", "dpi", "subplot_kw",
                               "layout", "constrained_layout", "tight_layout", "facecolor", "width_ratios",
                               "height_ratios", "gridspec_kw"})


_SHARE = (True, False, "all", "none", "row", "col")


_MAX_COLUMNS = 10_000


@dataclass(frozen=True, slots=True, eq=False)
class Abstract(Made):
    """A value known by its kind and shape only. Each is one object of the cell's (identity is
    what flow.py follows): a result that is a new object is a new Abstract."""
    library_parts = True
    like: str                          # "ndarray", "Series", "DataFrame", "Axes", "Figure", "estimator", "Generator" or
                                       # "predictions" (an estimator's output, known by its rows alone)
    shape: tuple = ()                  # sizes, None where unknown; the number of dimensions is known
                                       # (predictions: (rows,), the dimensions not known)
    kind: str | None = None            # numpy's dtype kind of the values (a frame's `.values`); None: unknown
    columns: tuple | None = None       # a DataFrame's (label, dtype kind) pairs in order; None: unknown
    holds: str | None = None           # what an object array holds ("Axes")
    estimator: type | None = None      # an estimator's class, made with the literal `arguments`
    arguments: tuple = ((), ())
    least: tuple = ()                  # where a size is unknown, the least it can be (0: nothing known)
    labels: int | None = None          # a ConfusionMatrixDisplay's display_labels, how many
    index_names: tuple | None = None   # a frame's index level names that are strings; None: unknown
    index_words: bool | None = None    # may a pandas object's index labels answer `obj.name`
                                       # (False: an index of numbers, dates or a range; None: unknown)
    index_labels: tuple | None = None  # a Series' index labels, where known exactly (written in the cell)
    on_current: bool = False           # an Axes pyplot added to its current Figure (plt.axes): that
                                       # Figure's class is not known
    axes: type | None = None           # like "projection" (an array holding them: holds "projection"):
                                       # an Axes of the class a projection chose, not matplotlib's `Axes`

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int | None:
        return None if None in self.shape else math.prod(self.shape)

    def keeps(self, method: str, inplace: bool) -> bool:
        if self.like == "ndarray":       # (`axes[1].remove()`: a method of an Axes it holds)
            return method not in ARRAY_RESHAPING and not (self.holds in ("Axes", "projection") and method == "remove")
        if self.like in ("Series", "DataFrame"):
            return not inplace and method not in PANDAS_MUTATING and not method.startswith("_")
        if self.like == "estimator":
            return method in ESTIMATOR_KEEPING
        # drawing on an Axes or a Figure keeps it one (`remove` takes it off its Figure), a draw a
        # Generator, and plot() a display
        return self.like in ("Axes", "projection", "Figure", "Generator", "ConfusionMatrixDisplay") and \
            method != "remove"

    def of_class(self) -> type | None:
        return self.axes if self.like == "projection" else None

    def is_data(self) -> bool:
        return self.like in ("ndarray", "Series", "DataFrame")

    def made_whole(self) -> bool:
        """Is every estimator it holds, at any depth, made by the cell (none of the kernel's: a
        method run on the instance, such as set_params, then changes nothing of the user's)?"""
        return _made_whole(self)

    def instance(self):
        """The estimator made as the cell makes it (scikit-learn's own class, literal arguments:
        only its `__init__` runs), for its tags; None if it cannot be."""
        if self.estimator is None:
            return None
        args, keywords = self.arguments
        try:
            args = _instantiated(args)
            keywords = {k: _instantiated(v) for k, v in keywords}
            return self.estimator(*args, **keywords)
        except Exception:  # noqa: BLE001 - refused arguments: the cell raises there
            return None


class Held:
    """A live estimator of a scikit-learn class that holds one of the user's (a Pipeline with a
    transformer of theirs), given to an estimator the cell makes: that estimator is never made
    (its tags or parameters would reach the user's code), but what it is given can be read
    (column_selection.py)."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


def _made_whole(v) -> bool:
    if issubclass(type(v), Abstract):
        args, keywords = v.arguments
        return all(_made_whole(a) for a in args) and all(_made_whole(x) for _, x in keywords)
    if type(v) in (list, tuple):
        return all(_made_whole(x) for x in v)
    if type(v) is dict:
        return all(_made_whole(x) for x in v.values())
    np = sys.modules.get("numpy")
    return v is None or type(v) in (str, int, float, bool) or \
        (np is not None and (type(v) is np.ndarray or issubclass(type(v), np.generic)))


def _instantiated(v):
    """An argument with each estimator the cell makes in it made (`Pipeline([("s", SVC())])`)."""
    if type(v) is Held:
        raise ValueError("holds the user's code")
    if issubclass(type(v), Abstract):
        made = v.instance()
        if made is None:
            raise ValueError("not made")
        return made
    if type(v) in (list, tuple):
        return type(v)(_instantiated(x) for x in v)
    return v


def shaped(v) -> Abstract | None:
    """The shape and dtype of `v`: a live numpy ndarray, pandas Series or DataFrame (their own
    classes, never a subclass, read through their own properties), or an abstract value as it is."""
    if issubclass(type(v), Abstract):
        return v
    np = sys.modules.get("numpy")
    if np is not None and type(v) is np.ndarray:
        return Abstract("ndarray", v.shape, v.dtype.kind)
    pd = sys.modules.get("pandas")
    if pd is None or type(v) in (pd.Series, pd.DataFrame) and v.attrs:
        return None         # pandas deep-copies `attrs` into every result: the user's objects may run
    if type(v) is pd.Series:
        return Abstract("Series", v.shape, _numpy_kind(v.dtype), index_words=_index_words(v.index, pd))
    if type(v) is pd.DataFrame:
        dtypes = list(v.dtypes) if v.shape[1] <= _MAX_COLUMNS else None
        columns = None
        if dtypes is not None and type(v.columns) is pd.Index and \
                all(type(c) is str for c in v.columns) and v.columns.is_unique:    # hashes the labels
            columns = tuple(zip(v.columns, (_numpy_kind(d) for d in dtypes)))
        # an index of pandas' own classes only (a subclass's `names` could be the user's property);
        # `type`: a label's `__class__` never runs
        index = v.index
        names = tuple(n for n in index.names if type(n) is str) if type(index).__module__.split(".")[0] == "pandas" \
            else None
        return Abstract("DataFrame", v.shape, _frame_kind(dtypes), columns, index_names=names,
                        index_words=_index_words(v.index, pd))
    return None


def array_like(node: ast.expr | None, value: Read) -> Abstract | None:
    """An input as a library that takes "array-like" data sees it (scikit-learn's `check_array`,
    numpy's `asarray`): a literal nested list or tuple of numbers or text, written in the call or
    bound to a name by the cell (`value` gives the name's literal), as the array numpy makes of it;
    else the shape and dtype of the live or abstract value (`shaped`); None where not known."""
    if node is None:
        return None
    if isinstance(node, (ast.List, ast.Tuple)):
        written = _literal(node)
        if written is UNRESOLVED:
            written = _numbers_display(node, value)     # `[[x1, 1]]`, x1 a number the cell bound
    else:
        v = value(node)
        if not issubclass(type(v), Made) or issubclass(type(v), Abstract):
            return shaped(v)
        written = v.literal()
    if type(written) not in (list, tuple):
        return None
    nested = _nested(written, text=True)
    return None if nested is None else Abstract("ndarray", nested[0], nested[1])


def _numbers_display(node: ast.expr, value: Read, depth: int = 0):
    """A list or tuple display of numbers, literal or names of Python numbers (the kernel's, or
    bound by the cell to one: its literal), as the nested list it makes; else UNRESOLVED."""
    if isinstance(node, (ast.List, ast.Tuple)) and depth < 8:
        parts = [_numbers_display(e, value, depth + 1) for e in node.elts]
        return UNRESOLVED if any(p is UNRESOLVED for p in parts) else parts
    v = _literal(node)
    if v is UNRESOLVED and isinstance(node, ast.Name):
        v = value(node)
        v = v.literal() if issubclass(type(v), Made) else v
    return v if type(v) in (int, float, bool) else UNRESOLVED


def _numpy_kind(dtype) -> str | None:
    """A numpy dtype's kind; None for pandas' extension dtypes (their values are not an ndarray)."""
    np = sys.modules.get("numpy")
    return dtype.kind if np is not None and type(dtype).__module__.split(".")[0] == "numpy" else None


def _index_words(index, pd) -> bool | None:
    """False when pandas' `__getattr__` surely finds no name among the index's labels (items.py)."""
    return None if holds_identifiers(index, pd) else False


def _frame_kind(dtypes: list | None) -> str | None:
    return None if dtypes is None else _values_kind([_numpy_kind(d) for d in dtypes])


def _values_kind(kinds: list) -> str | None:
    """The kind of a frame's `.values` from its columns' kinds, where pandas' common type is
    sure from the kinds alone (it makes booleans beside numbers objects)."""
    kinds = set(kinds)
    if None in kinds or not kinds:
        return None
    if len(kinds) == 1:
        return kinds.pop()
    return "f" if "f" in kinds and kinds <= set("iuf") else None


def _frame(rows, columns: tuple, index_names: tuple | None = None, index_words: bool | None = None) -> Abstract:
    return Abstract("DataFrame", (rows, len(columns)), _values_kind([k for _, k in columns]), columns,
                    index_names=index_names, index_words=index_words)


def numeric(kind: str | None) -> bool:
    return kind is not None and kind in _NUMERIC


# numpy's joins, as its documentation and its AxisConcatenator give them: name -> (ndmin,
# trans1d, axis). An array of fewer dimensions than ndmin is lifted first (ones put before its
# shape, then its own axes moved to position trans1d; -1: left last), then all are concatenated
# along axis ("axis": the call's `axis=`, 0 without one; "hstack": 0 when the first array is
# 1-D, else 1). np.c_[...] and np.r_[...] are the index forms.
JOINS = {
    "concatenate": (0, -1, "axis"),
    "vstack": (2, -1, 0),               # atleast_2d: (N,) -> (1, N)
    "hstack": (1, -1, "hstack"),        # atleast_1d
    "column_stack": (2, 0, 1),          # (N,) -> (N, 1)
    "c_": (2, 0, -1),                   # (N,) -> (N, 1), joined along the last axis
    "r_": (1, -1, 0),
}
JOIN_FUNCTIONS = ("concatenate", "vstack", "hstack", "column_stack")
CONCATENATORS = ("c_", "r_")


def lifted(shape: tuple, ndmin: int, trans1d: int) -> tuple:
    """The shape numpy's `array(a, ndmin=ndmin)` gives, its own axes then moved to `trans1d`
    (numpy's AxisConcatenator)."""
    if len(shape) >= ndmin:
        return shape
    k2 = ndmin - len(shape)
    out = (1,) * k2 + shape
    if trans1d == -1:
        return out
    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
    axes = list(range(ndmin))
    return tuple(out[i] for i in axes[:k1] + axes[k2:] + axes[k1:k2])


def joining(name: str, arrays: list[Abstract], keywords: dict) -> tuple[int, list[tuple]] | None:
    """The axis a join of JOINS concatenates along and the shapes it concatenates there; None
    where a keyword or a non-literal axis leaves it unknown."""
    ndmin, trans1d, axis = JOINS[name]
    if axis == "axis":
        if set(keywords) - {"axis"}:
            return None
        axis = literal_int(keywords["axis"]) if "axis" in keywords else 0
        if axis is None:
            return None
    elif keywords:
        return None
    elif axis == "hstack":
        axis = 0 if arrays[0].ndim <= 1 else 1
    return axis, [lifted(a.shape, ndmin, trans1d) for a in arrays]


def literal_int(x: ast.expr) -> int | None:
    if isinstance(x, ast.UnaryOp) and isinstance(x.op, ast.USub):
        v = literal_int(x.operand)
        return -v if v is not None else None
    if isinstance(x, ast.Constant) and type(x.value) is int:
        return x.value
    return None


def literal_shape(args: list[ast.expr]) -> tuple[int, ...] | None:
    """`reshape(3, 4)`, `reshape((3, 4))`, `reshape([3, -1])`, `reshape(12)`: the literal sizes."""
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        args = args[0].elts
    out = []
    for x in args:
        v = literal_int(x)
        if v is None:
            return None
        out.append(v)
    return tuple(out)


def _literal(node: ast.expr):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNRESOLVED


def _scalar_kind(v) -> str | None:
    return {bool: "b", int: "i", float: "f", complex: "c"}.get(type(v))


_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def _broadcast(a: tuple, b: tuple) -> tuple | None:
    """numpy's broadcast of two shapes, where it surely succeeds; else None."""
    out = []
    for k in range(1, max(len(a), len(b)) + 1):
        x = a[-k] if k <= len(a) else 1
        y = b[-k] if k <= len(b) else 1
        if x == 1:
            out.append(y)
        elif y == 1 or (x == y and x is not None):
            out.append(x)
        else:
            return None
    return tuple(reversed(out))


def _matmul(a: tuple, b: tuple) -> tuple | None:
    if not a or not b or (len(a) == 1 and len(b) == 1):
        return None                       # a scalar, or the scalar result of two vectors
    k_a = a[-1]
    k_b = b[-2] if len(b) >= 2 else b[0]
    if k_a is None or k_a != k_b:
        return None
    if len(a) == 1:
        return b[:-2] + b[-1:]
    if len(b) == 1:
        return a[:-1]
    batch = _broadcast(a[:-2], b[:-2])
    return None if batch is None else batch + (a[-2], b[-1])


def _joined(shapes: list[tuple], axis: int) -> tuple | None:
    """The shape of numpy's concatenation along `axis`, where it surely succeeds."""
    ndim = len(shapes[0])
    if ndim == 0 or not -ndim <= axis < ndim or any(len(s) != ndim for s in shapes):
        return None
    axis %= ndim
    for d in range(ndim):
        if d != axis and any(s[d] is None or s[d] != shapes[0][d] for s in shapes):
            return None
    sizes = [s[axis] for s in shapes]
    return shapes[0][:axis] + (None if None in sizes else sum(sizes),) + shapes[0][axis + 1:]


def _reshaped(size: int | None, shape: tuple | None) -> tuple | None:
    if size is None or shape is None or not shape or any(d < -1 for d in shape) or shape.count(-1) > 1:
        return None
    known = math.prod(d for d in shape if d != -1)
    if -1 in shape:
        if known == 0 or size % known:
            return None
        return tuple(size // known if d == -1 else d for d in shape)
    return shape if known == size else None


def _join_kind(kinds: list) -> str | None:
    kinds = set(kinds)
    if len(kinds) == 1:
        return kinds.pop()
    return "f" if "f" in kinds and kinds <= set("bif") else None


def _arithmetic_kind(op: ast.operator, a: str | None, b: str | None, scalar: bool) -> str | None:
    """The dtype kind of `a op b` for numeric kinds (`scalar`: b is a Python number, which takes
    the array's kind where it fits); None where numpy's promotion needs the sizes."""
    if not numeric(a) or not numeric(b):
        return None
    if isinstance(op, ast.Div):
        return "c" if "c" in (a, b) else "f"
    if scalar:
        return a if _RANK[b] <= _RANK[a] else b
    if a == b:
        return a
    kinds = {a, b}
    if "c" in kinds:
        return "c"
    if "f" in kinds:
        return "f"
    return (kinds - {"b"}).pop() if "b" in kinds else None


Read = Callable[[ast.AST], object]


def _indexed(a: Abstract, index: list | None) -> Abstract | None:
    """numpy's basic indexing of `a` (ints, slices, None, one Ellipsis), where it surely succeeds;
    also one list of ints among slices alone (`X[:, [0, 2]]`: numpy's one advanced index takes
    its axis's place, as long as the list)."""
    if index is None or index.count(Ellipsis) > 1:
        return None
    lists = sum(1 for e in index if type(e) is list)
    if lists > 1 or lists and any(type(e) is int for e in index):
        return None                              # advanced indices broadcast together: not read
    used = sum(1 for e in index if e is not None and e is not Ellipsis)
    if used > a.ndim:
        return None
    if Ellipsis in index:
        at = index.index(Ellipsis)
        index = index[:at] + [slice(None)] * (a.ndim - used) + index[at + 1:]
    else:
        index = index + [slice(None)] * (a.ndim - used)
    shape, axis = [], 0
    for e in index:
        if e is None:
            shape.append(1)
            continue
        size = a.shape[axis]
        axis += 1
        if type(e) is int:
            if size is None or not -size <= e < size:
                return None
        elif type(e) is list:
            if size is None or not all(-size <= k < size for k in e):
                return None                      # IndexError
            shape.append(len(e))
        elif e == slice(None):
            shape.append(size)
        elif size is None:
            return None
        else:
            shape.append(len(range(size)[e]))
    if not shape:
        return Abstract(a.holds, axes=a.axes) if a.holds else None       # one element
    return replace(a, shape=tuple(shape))


def _float_range(bounds: list, kind: str | None) -> Abstract | None:
    """`np.arange(12.)`, `np.arange(0, 1, 0.25)`: Python numbers (Propagation.scalar), the length
    numpy computes, ceil((stop - start) / step) in floating point."""
    if any(_scalar_kind(b) not in ("i", "f") for b in bounds):
        return None
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds, 1)[:3]
    if step == 0 or not all(math.isfinite(b) for b in (start, stop, step)):
        return None
    return Abstract("ndarray", (max(0, math.ceil((stop - start) / step)),), kind)


def _nested(value, text: bool = False) -> tuple[tuple, str] | None:
    """The shape and dtype kind of a literal nested list of numbers numpy makes rectangular (ints
    that fit int64); with `text`, str among them too (numpy makes the whole array str, kind "U")."""
    def walk(v):
        if type(v) in (list, tuple):
            parts = [walk(x) for x in v]
            if any(p is None for p in parts) or len({p[0] for p in parts}) > 1:
                return None
            return (len(v),) + (parts[0][0] if parts else ()), set().union(*(p[1] for p in parts))
        kind = "U" if text and type(v) is str else _scalar_kind(v)
        if kind is None or (kind == "i" and not -2 ** 63 <= v < 2 ** 63):
            return None
        return (), {kind}
    out = walk(value) if type(value) in (list, tuple) else None
    if out is None:
        return None
    shape, kinds = out
    if "U" in kinds:
        return shape, "U"
    return shape, (max(kinds, key="bifc".index) if kinds else "f")


_DISTINCT_ROWS = 10_000          # the values read for a count of distinct labels (a prefix: a lower bound)


def distinct_at_least(v) -> int:
    """How many distinct labels a live 1-D ndarray or Series (numpy's or pandas' own class, a
    numpy dtype or pandas' str) holds at least, from its first values: numbers or plain str, int,
    float and bool objects, missing values aside; 0 when it cannot be told without running
    anything of the user's."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if pd is not None and type(v) is pd.Series and not v.attrs and \
            (type(v.dtype).__module__.split(".")[0] == "numpy" or type(v.dtype) is pd.StringDtype):
        v = v.iloc[:_DISTINCT_ROWS].to_numpy()        # pandas' str: its values as objects
    if np is None or type(v) is not np.ndarray or v.ndim != 1:
        return 0
    head = v[:_DISTINCT_ROWS]
    if head.dtype.kind in "biuUS":
        return len(np.unique(head))
    if head.dtype.kind == "f":
        return len(np.unique(head[~np.isnan(head)]))
    if head.dtype.kind == "O":
        missing = getattr(pd, "NA", None)
        items = [x for x in head.tolist() if not (x is None or x is missing or (type(x) is float and x != x))]
        if not all(type(x) in (str, int, bool, float) for x in items):
            return 0
        return len(set(items))
    return 0


def _plain_data(v, depth: int = 0) -> bool:
    """Python's own numbers, strings and None, in lists, tuples and dicts (type-exact)."""
    if v is None or type(v) in (str, int, float, bool):
        return True
    if depth > 4 or type(v) not in (list, tuple, dict) or len(v) > 10_000:
        return False
    items = [*v.keys(), *v.values()] if type(v) is dict else v
    return all(_plain_data(x, depth + 1) for x in items)


def _pandas(v) -> bool:
    pd = sys.modules.get("pandas")
    return pd is not None and (type(v) is pd.DataFrame or type(v) is pd.Series)


def _accumulated(base: Abstract, axis: ast.expr | None) -> Abstract | None:
    """`a.cumsum(axis=k)`, `a.cumprod()`: numpy's running sums keep the array's shape along an
    axis, and run over the flat array without one (`axis=None`); booleans add up as integers."""
    kind = {"b": "i", "i": "i", "u": "u", "f": "f", "c": "c"}.get(base.kind)
    if axis is None or isinstance(axis, ast.Constant) and axis.value is None:
        return replace(base, shape=(base.size,), kind=kind, holds=None)
    k = literal_int(axis)
    if k is None or not -base.ndim <= k < base.ndim:
        return None                         # numpy's AxisError: the axis rules' claim
    return replace(base, kind=kind, holds=None)
