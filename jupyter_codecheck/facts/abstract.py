"""What a value the cell itself makes is, before the cell runs (in-cell propagation): its
library's kind, shape, dtype kind and columns, carried through the library calls whose result
follows from their inputs, as the libraries document them:

    numpy         np.zeros/ones/empty/full(shape), np.arange(ints, or literal numbers), np.array(a literal
                  nested list), np.random.rand/randn(*dims), np.random.random/standard_normal(size), a live
                  Generator's or np.random.default_rng(seed)'s
                  standard_normal/random/normal/uniform/integers(size=...), ufunc.outer(a, b),
                  np.linspace(a, b, n);
                  a.reshape(...) (with -1), a.T, a.transpose(), a.ravel(), a.flatten(), a.astype(t),
                  a.copy(); np.concatenate/vstack/hstack, `a @ b`, np.dot/matmul, `+ - * /`
                  (broadcast), `a < b` (booleans), a[:, None], a[None], np.expand_dims, a.sum(axis=k) and friends
    pandas        df[["a", "b"]], df["a"], .values, .to_numpy(), df.drop(columns=[...])
    scikit-learn  train_test_split(X, y, ...) (the rows as scikit-learn splits them); make_blobs,
                  make_classification, make_regression, make_moons, make_circles; an estimator
                  made with literal arguments, estimators made so, live ones of scikit-learn's
                  own classes or plain data, live or a literal the cell bound (its `fit`
                  returns it); fit_transform of StandardScaler, MinMaxScaler, PCA
                  (and transform of a live fitted one)
    matplotlib    plt.subplots(r, c): an ndarray of Axes of shape (r, c), squeezed as matplotlib
                  does ((c,) when r == 1, one Axes when r == c == 1)
                  confusion_matrix(y_true, y_pred): (n, n), n at least the distinct labels of
                  either; ConfusionMatrixDisplay(matrix, display_labels=...) (its rule: displays.py)

`shaped` is the one reading of "a shape and dtype" the value rules use (values.py), of a live
ndarray, Series or DataFrame or of an abstract value. A value is given only where the call surely
succeeds and its result surely is that; a size may be unknown (None). Anything else, a user's
function or object among them, is unknown: no value, so no claim. A name keeps its value only
while flow.py follows it unchanged (an `Abstract` is a `Made`: tracked by identity like a live
object).
"""
from __future__ import annotations

import ast
import builtins
import inspect
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

from .estimators import sklearn_classes
from .flow import PANDAS_MUTATING
from .libraries import is_library_object
from .namespace import UNRESOLVED, Made

_NUMERIC = "biufc"
# reductions that take `axis=` and drop that dimension: the result's dtype kind for the input's
# (a kind not listed: the input's own)
_REDUCTIONS = {"sum": {"b": "i"}, "prod": {"b": "i"}, "max": {}, "min": {}, "mean": {"b": "f", "i": "f", "u": "f"},
               "std": {"b": "f", "i": "f", "u": "f", "c": "f"}, "var": {"b": "f", "i": "f", "u": "f", "c": "f"},
               "any": {k: "b" for k in _NUMERIC}, "all": {k: "b" for k in _NUMERIC},
               "argmax": {k: "i" for k in _NUMERIC}, "argmin": {k: "i" for k in _NUMERIC}}
# ndarray methods that change the array's shape or dtype in place
_ARRAY_RESHAPING = frozenset({"resize", "__setstate__"})
# estimator methods that leave its class and parameters as they are
ESTIMATOR_KEEPING = frozenset({"fit", "partial_fit", "fit_transform", "transform", "fit_predict", "predict",
                                "predict_proba", "predict_log_proba", "decision_function", "score",
                                "inverse_transform", "get_params", "get_feature_names_out"})
# the methods propagated through (of an ndarray, a Series or a DataFrame)
_METHODS = frozenset({"reshape", "transpose", "ravel", "flatten", "copy", "astype", "to_numpy", "drop",
                      *_REDUCTIONS})
# a numpy Generator's draws propagated through: their parameters in order, and the dtype kind
_GENERATOR_DRAWS = {"standard_normal": (("size",), "f"), "random": (("size",), "f"),
                    "normal": (("loc", "scale", "size"), "f"), "uniform": (("low", "high", "size"), "f"),
                    "integers": (("low", "high", "size"), "i")}
# scikit-learn's sample generators whose (X, y) shapes follow from their arguments
_GENERATORS = ("make_blobs", "make_classification", "make_regression", "make_moons", "make_circles")
_SPLIT_OPTIONS = frozenset({"test_size", "train_size", "random_state", "shuffle"})
# plt.subplots' keywords taken (not the ratios and gridspec_kw: they must fit the grid)
_SUBPLOTS_OPTIONS = frozenset({"nrows", "ncols", "squeeze", "sharex", "sharey", "figsize", "dpi", "subplot_kw",
                               "layout", "constrained_layout", "tight_layout", "facecolor"})
_SHARE = (True, False, "all", "none", "row", "col")
_MAX_COLUMNS = 10_000


@dataclass(frozen=True, slots=True, eq=False)
class Abstract(Made):
    """A value known by its kind and shape only. Each is one object of the cell's (identity is
    what flow.py follows): a result that is a new object is a new Abstract."""
    library_parts = True
    like: str                          # "ndarray", "Series", "DataFrame", "Axes", "estimator" or "Generator"
    shape: tuple = ()                  # sizes, None where unknown; the number of dimensions is known
    kind: str | None = None            # numpy's dtype kind of the values (a frame's `.values`); None: unknown
    columns: tuple | None = None       # a DataFrame's (label, dtype kind) pairs in order; None: unknown
    holds: str | None = None           # what an object array holds ("Axes")
    estimator: type | None = None      # an estimator's class, made with the literal `arguments`
    arguments: tuple = ((), ())
    least: tuple = ()                  # where a size is unknown, the least it can be (0: nothing known)
    labels: int | None = None          # a ConfusionMatrixDisplay's display_labels, how many

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int | None:
        return None if None in self.shape else math.prod(self.shape)

    def keeps(self, method: str, inplace: bool) -> bool:
        if self.like == "ndarray":
            return method not in _ARRAY_RESHAPING
        if self.like in ("Series", "DataFrame"):
            return not inplace and method not in PANDAS_MUTATING
        if self.like == "estimator":
            return method in ESTIMATOR_KEEPING
        # drawing on an Axes keeps it one, a draw a Generator, and plot() a display
        return self.like in ("Axes", "Generator", "ConfusionMatrixDisplay")

    def is_data(self) -> bool:
        return self.like in ("ndarray", "Series", "DataFrame")

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


def _instantiated(v):
    """An argument with each estimator the cell makes in it made (`Pipeline([("s", SVC())])`)."""
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
        return Abstract("Series", v.shape, _numpy_kind(v.dtype))
    if type(v) is pd.DataFrame:
        dtypes = list(v.dtypes) if v.shape[1] <= _MAX_COLUMNS else None
        columns = None
        if dtypes is not None and type(v.columns) is pd.Index and \
                all(type(c) is str for c in v.columns) and v.columns.is_unique:    # hashes the labels
            columns = tuple(zip(v.columns, (_numpy_kind(d) for d in dtypes)))
        return Abstract("DataFrame", v.shape, _frame_kind(dtypes), columns)
    return None


def _numpy_kind(dtype) -> str | None:
    """A numpy dtype's kind; None for pandas' extension dtypes (their values are not an ndarray)."""
    np = sys.modules.get("numpy")
    return dtype.kind if np is not None and type(dtype).__module__.split(".")[0] == "numpy" else None


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


def _frame(rows, columns: tuple) -> Abstract:
    return Abstract("DataFrame", (rows, len(columns)), _values_kind([k for _, k in columns]), columns)


def numeric(kind: str | None) -> bool:
    return kind is not None and kind in _NUMERIC


# -- literals ---------------------------------------------------------------------------------------

def joining(name: str, arrays: list[Abstract], keywords: dict) -> tuple[int, list[tuple]] | None:
    """The axis `np.concatenate`/`vstack`/`hstack` joins along and the shapes it joins there
    (vstack makes 1-D arrays rows, hstack joins 1-D arrays end to end); None where a keyword
    or a non-literal axis leaves it unknown."""
    if name == "concatenate":
        if set(keywords) - {"axis"}:
            return None
        axis = literal_int(keywords["axis"]) if "axis" in keywords else 0
        return None if axis is None else (axis, [a.shape for a in arrays])
    if keywords:
        return None
    if name == "vstack":
        return 0, [a.shape if a.ndim >= 2 else (1,) * (2 - a.ndim) + a.shape for a in arrays]
    return (0 if arrays[0].ndim <= 1 else 1), [a.shape if a.ndim >= 1 else (1,) for a in arrays]


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


# -- shapes -----------------------------------------------------------------------------------------

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


# -- propagation ------------------------------------------------------------------------------------

Read = Callable[[ast.AST], object]


class Propagation:
    """The values of one expression's parts: a pure chain's live object or what the cell made
    (`read`, flow.py's answer), else the abstract value its library calls give. One instance
    reads one state of the cell (results are kept by node)."""

    def __init__(self, read: Read, *, made_first: bool = False, shapes: dict[int, tuple] | None = None):
        self.read = read
        self.made_first = made_first        # a step from a live object computed, not read (below)
        self._seen: dict[int, object] = {}
        # id -> (the object, its shape and dtype): a frame's read once; `shapes` shares them
        # between the propagations of one read (the objects do not change during it)
        self._shapes: dict[int, tuple] = {} if shapes is None else shapes

    def value(self, node: ast.AST):
        """`node`'s live object or abstract value (a tuple of them for a call that returns a
        tuple), else UNRESOLVED."""
        key = id(node)
        if key in self._seen:
            return self._seen[key]
        self._seen[key] = UNRESOLVED
        chain = isinstance(node, (ast.Name, ast.Attribute, ast.Subscript))
        # a value bound to a name is made here, not read (`X = df.values` would copy the data):
        # the name then stands for a new object the cell made
        obj = self.read(node) if chain and not self.made_first else UNRESOLVED
        if obj is UNRESOLVED and isinstance(node, (ast.Attribute, ast.Subscript, ast.Call, ast.BinOp,
                                                   ast.UnaryOp, ast.Compare)):
            try:
                made = self._evaluate(node)
            except Exception:  # noqa: BLE001 - a library that reads otherwise: unknown
                made = None
            obj = made if made is not None else UNRESOLVED
        if obj is UNRESOLVED and chain and self.made_first:
            obj = self.read(node)
        self._seen[key] = obj
        return obj

    def shaped(self, node: ast.AST) -> Abstract | None:
        return self.shape_of(self.value(node))

    def shape_of(self, v) -> Abstract | None:
        kept = self._shapes.get(id(v))
        if kept is None or kept[0] is not v:
            kept = self._shapes[id(v)] = (v, shaped(v))
        return kept[1]

    def array(self, node: ast.AST) -> Abstract | None:
        a = self.shaped(node)
        return a if a is not None and a.like == "ndarray" else None

    # -- expressions --------------------------------------------------------------------------

    def _evaluate(self, node: ast.AST):
        if isinstance(node, ast.Call):
            if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                return None
            if isinstance(node.func, ast.Attribute):
                made = self._method(node, node.func.attr)
                if made is not None:
                    return made
            return self._function(node)
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.Compare):
            return self._compared(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            a = self.array(node.operand)
            return replace(a) if a is not None and numeric(a.kind) and a.kind != "b" else None
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        return None

    def _attribute(self, node: ast.Attribute):
        base = self.shaped(node.value)
        if base is None:
            return None
        if base.like == "ndarray" and node.attr == "T":
            return replace(base, shape=base.shape[::-1])
        if node.attr == "values" and base.like == "DataFrame":
            return Abstract("ndarray", base.shape, base.kind)
        if node.attr == "values" and base.like == "Series" and base.kind is not None:
            return Abstract("ndarray", base.shape, base.kind)     # an extension dtype's is no ndarray
        if base.like == "DataFrame" and base.columns is not None and node.attr in dict(base.columns) and \
                not node.attr.startswith("_"):
            pd = sys.modules.get("pandas")
            if pd is not None and inspect.getattr_static(pd.DataFrame, node.attr, None) is None:
                return Abstract("Series", base.shape[:1], dict(base.columns)[node.attr])   # `df.price`
        return None

    def _subscript(self, node: ast.Subscript):
        value = self.value(node.value)
        if type(value) is tuple:                 # `plt.subplots(1, 3)[1]`
            k = literal_int(node.slice)
            return value[k] if k is not None and -len(value) <= k < len(value) else None
        columns = (isinstance(node.slice, ast.Constant) and type(node.slice.value) is str) or \
            isinstance(node.slice, ast.List)
        if not columns and _pandas(value):
            return None                          # `df[mask]`: not known, and the frame is not read
        base = self.shape_of(value)
        if base is None:
            return None
        if base.like == "DataFrame" and base.columns is not None:
            return self._columns(base, node.slice)
        if base.like == "ndarray":
            return _indexed(base, self.index(node.slice))
        return None

    def _columns(self, frame: Abstract, key: ast.expr):
        labels = dict(frame.columns)
        if isinstance(key, ast.Constant) and type(key.value) is str and key.value in labels:
            return Abstract("Series", frame.shape[:1], labels[key.value])
        if isinstance(key, ast.List) and key.elts and all(isinstance(e, ast.Constant) and type(e.value) is str
                                                            and e.value in labels for e in key.elts) and \
                len({e.value for e in key.elts}) == len(key.elts):
            return _frame(frame.shape[0], tuple((e.value, labels[e.value]) for e in key.elts))
        return None

    def index(self, key: ast.expr) -> list | None:
        """A basic index as entries: an int, a slice object, None (a new axis), Ellipsis."""
        out = []
        for e in key.elts if isinstance(key, ast.Tuple) else [key]:
            if isinstance(e, ast.Slice):
                parts = [None if p is None else literal_int(p) for p in (e.lower, e.upper, e.step)]
                if any(p is None and q is not None for p, q in zip(parts, (e.lower, e.upper, e.step))) or \
                        parts[2] == 0:
                    return None
                out.append(slice(*parts))
            elif isinstance(e, ast.Constant) and e.value is Ellipsis:
                out.append(Ellipsis)
            elif (k := literal_int(e)) is not None:
                out.append(k)
            elif (isinstance(e, ast.Constant) and e.value is None) or self.value(e) is None:   # np.newaxis
                out.append(None)
            else:
                return None
        return out

    def _binop(self, node: ast.BinOp):
        a, b = self.array(node.left), self.array(node.right)
        if isinstance(node.op, ast.MatMult):
            if a is None or b is None or not numeric(a.kind) or not numeric(b.kind):
                return None
            shape = _matmul(a.shape, b.shape)
            return None if shape is None else Abstract("ndarray", shape, a.kind if a.kind == b.kind else None)
        if not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            return None
        if a is None and b is None:
            return None
        scalar = None
        if a is None or b is None:
            other = node.left if a is None else node.right
            scalar = _literal(other)
            if _scalar_kind(scalar) is None:
                scalar = self.value(other)
                element = self._element(other, scalar)
                if element is not None:             # a numpy scalar: typed as a 0-d array of its dtype
                    a, b, scalar = a or element, b or element, None
                elif _scalar_kind(scalar) is None:
                    return None
        if scalar is not None:
            array = a or b
            if not numeric(array.kind) or (array.kind == "b" and isinstance(node.op, ast.Sub)) or \
                    (type(scalar) is int and array.kind in "iu" and not (0 if array.kind == "u" else -128) <= scalar < 128):
                return None                       # numpy refuses `-` on booleans, an int too wide for the array's
            return Abstract("ndarray", array.shape,
                            _arithmetic_kind(node.op, array.kind, _scalar_kind(scalar), scalar=True))
        if not numeric(a.kind) or not numeric(b.kind) or (a.kind == b.kind == "b" and
                                                          isinstance(node.op, ast.Sub)):
            return None
        shape = _broadcast(a.shape, b.shape)
        return None if shape is None else Abstract("ndarray", shape,
                                                   _arithmetic_kind(node.op, a.kind, b.kind, scalar=False))

    def _element(self, node: ast.expr, value) -> Abstract | None:
        """A numpy scalar of a number dtype as a 0-d array: a live one (`np.float64(2)`), or one
        element of a known array (`beta[1]`, every dimension indexed by an int in range)."""
        np = sys.modules.get("numpy")
        if np is not None and isinstance(value, np.generic) and type(value).__module__ == "numpy" and \
                numeric(value.dtype.kind):
            return Abstract("ndarray", (), value.dtype.kind)
        if not isinstance(node, ast.Subscript):
            return None
        base, index = self.array(node.value), self.index(node.slice)
        if base is None or not numeric(base.kind) or index is None or len(index) != base.ndim or \
                any(type(e) is not int or d is None or not -d <= e < d for e, d in zip(index, base.shape)):
            return None
        return Abstract("ndarray", (), base.kind)

    def _compared(self, node: ast.Compare):
        """`a < b`, `a == 0`: booleans of the broadcast shape (numbers on both sides)."""
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Lt, ast.Gt, ast.LtE, ast.GtE, ast.Eq, ast.NotEq)):
            return None
        a, b = self.array(node.left), self.array(node.comparators[0])
        if a is None and b is None:
            return None
        if a is None or b is None:
            scalar = _literal(node.left if a is None else node.comparators[0])
            array = a or b
            return Abstract("ndarray", array.shape, "b") if numeric(array.kind) and \
                _scalar_kind(scalar) in ("i", "f") else None
        shape = _broadcast(a.shape, b.shape) if numeric(a.kind) and numeric(b.kind) else None
        return None if shape is None else Abstract("ndarray", shape, "b")

    # -- integers -----------------------------------------------------------------------------

    def integer(self, node: ast.expr) -> int | None:
        """A literal int, a live one, `len(x)` or `x.shape[k]` of a known size, and + - * // of those."""
        k = literal_int(node)
        if k is not None:
            return k
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            a, b = self.integer(node.left), self.integer(node.right)
            if a is None or b is None or (isinstance(node.op, ast.FloorDiv) and b == 0):
                return None
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(node.op)) if \
                not isinstance(node.op, ast.FloorDiv) else a // b
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and \
                self.read(node.func) is builtins.len:
            x = self.shaped(node.args[0])
            return x.shape[0] if x is not None and x.ndim and x.like != "estimator" else None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
                node.value.attr == "shape" and (k := literal_int(node.slice)) is not None:
            x = self.shaped(node.value.value)
            if x is not None and x.like != "estimator" and -x.ndim <= k < x.ndim:
                return x.shape[k]
        v = self.read(node) if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) else UNRESOLVED
        return v if type(v) is int else None

    def _sizes(self, args: list[ast.expr]) -> tuple | None:
        """A shape argument: an int, or a tuple or list of ints; every size >= 0. A size
        `len(x)` of an unknown x is unknown (None) but valid: len() gives an int >= 0 or raises."""
        if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
            args = args[0].elts
        sizes = tuple(self.integer(a) for a in args)
        if not all(s is None or s >= 0 for s in sizes):
            return None
        return sizes if all(s is not None or self._length(a) for s, a in zip(sizes, args)) else None

    def _length(self, node: ast.expr) -> bool:
        """Is `node` a call of Python's own len() on one argument?"""
        return isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and \
            not isinstance(node.args[0], ast.Starred) and self.read(node.func) is builtins.len

    def _dtype(self, node: ast.expr | None, default: str | None) -> str | None:
        """The kind of a dtype argument: a builtin type, a numpy type or dtype, a dtype's name."""
        np = sys.modules.get("numpy")
        if node is None:
            return default
        if np is None:
            return None
        if isinstance(node, ast.Constant) and type(node.value) is str:
            try:
                return np.dtype(node.value).kind
            except TypeError:
                return None
        obj = self.read(node)
        if any(obj is t for t in (bool, int, float, complex, str, object)) or \
                (issubclass(type(obj), np.dtype) and type(obj).__module__.startswith("numpy")) or \
                (type(obj) is type and issubclass(obj, np.generic) and obj.__module__ == "numpy"):
            return np.dtype(obj).kind
        return None

    # -- calls ----------------------------------------------------------------------------------

    def _function(self, node: ast.Call):
        target = self.read(node.func) if isinstance(node.func, (ast.Name, ast.Attribute)) else UNRESOLVED
        if target is UNRESOLVED:
            return None
        name = _known(target)
        if name is None:
            return self._outer(node, target) or self._estimator(node, target) or self._confusion(node, target)
        args, keywords = node.args, {k.arg: k.value for k in node.keywords}
        if name in ("zeros", "ones", "empty") and 1 <= len(args) <= 2 and set(keywords) <= {"dtype", "order"}:
            shape = self._sizes(args[:1])
            dtype = args[1] if len(args) == 2 else keywords.get("dtype")
            return None if shape is None else Abstract("ndarray", shape, self._dtype(dtype, "f"))
        if name == "full" and len(args) == 2 and set(keywords) <= {"dtype", "order"}:
            shape, fill = self._sizes(args[:1]), _literal(args[1])
            if shape is None or _scalar_kind(fill) is None:
                return None
            return Abstract("ndarray", shape, self._dtype(keywords.get("dtype"), _scalar_kind(fill)))
        if name == "arange" and 1 <= len(args) <= 3 and set(keywords) <= {"dtype"}:
            bounds = [self.integer(a) for a in args]
            if None in bounds:
                return _float_range(args, self._dtype(keywords.get("dtype"), "f"))
            if len(bounds) == 3 and bounds[2] == 0:
                return None
            return Abstract("ndarray", (len(range(*bounds)),), self._dtype(keywords.get("dtype"), "i"))
        if name in ("array", "asarray") and len(args) == 1 and set(keywords) <= {"dtype"}:
            return self._array_of(args[0], keywords.get("dtype"), copies=name == "array")
        if name == "linspace" and 2 <= len(args) <= 3 and set(keywords) <= {"num", "endpoint", "dtype"}:
            count = self.integer(args[2]) if len(args) == 3 else \
                self.integer(keywords["num"]) if "num" in keywords else 50
            if count is None or count < 0 or any(_scalar_kind(_literal(a)) not in ("i", "f") for a in args[:2]):
                return None
            return Abstract("ndarray", (count,), self._dtype(keywords.get("dtype"), "f"))
        if name in ("rand", "randn") and args and not keywords:
            shape = self._sizes(args) if not isinstance(args[0], (ast.Tuple, ast.List)) else None
            return None if shape is None else Abstract("ndarray", shape, "f")
        if name in ("random", "random_sample", "standard_normal") and len(args) + len(keywords) == 1 and \
                set(keywords) <= {"size"}:
            shape = self._sizes([args[0] if args else keywords["size"]])
            return None if shape is None else Abstract("ndarray", shape, "f")
        if name in ("concatenate", "vstack", "hstack") and len(args) == 1:
            return self._joined(args[0], name, keywords)
        if name == "expand_dims" and len(args) == 2 and not keywords:
            a, axis = self.array(args[0]), literal_int(args[1])
            if a is None or axis is None or not -(a.ndim + 1) <= axis <= a.ndim:
                return None
            axis %= a.ndim + 1
            return replace(a, shape=a.shape[:axis] + (1,) + a.shape[axis:])
        if name == "reshape" and len(args) == 2 and set(keywords) <= {"order"}:
            a = self.array(args[0])
            shape = _reshaped(a.size, self._sizes_or_minus(args[1:])) if a is not None else None
            return None if shape is None else replace(a, shape=shape)
        if name == "transpose" and len(args) == 1 and not keywords:
            a = self.array(args[0])
            return None if a is None else replace(a, shape=a.shape[::-1])
        if name in ("matmul", "dot") and len(args) == 2 and not keywords:
            a, b = self.array(args[0]), self.array(args[1])
            if a is None or b is None or a.kind not in _NUMERIC or b.kind not in _NUMERIC or \
                    (name == "dot" and max(a.ndim, b.ndim) > 2):
                return None
            shape = _matmul(a.shape, b.shape)
            return None if shape is None else Abstract("ndarray", shape, a.kind if a.kind == b.kind else None)
        if name in _REDUCTIONS and len(args) == 1:
            return self._reduced(self.array(args[0]), name, keywords.get("axis"), keywords)
        if name == "default_rng" and len(args) + len(keywords) <= 1 and set(keywords) <= {"seed"} and \
                all(type(_literal(a)) in (int, type(None)) for a in [*args, *keywords.values()]):
            return Abstract("Generator")        # a seed of an int or None: numpy's Generator
        if name in _GENERATORS:
            return _generated(name, target, node)
        if name == "train_test_split":
            return self._split(node)
        if name == "subplots":
            return self._subplots(node)
        return None

    def _outer(self, node: ast.Call, target):
        """`np.multiply.outer(a, b)`: a numpy ufunc of two inputs over every pair, of shape
        a.shape + b.shape; its dtype kind the ufunc's own for the two kinds (asked of it on one
        element each)."""
        np = sys.modules.get("numpy")
        ufunc = getattr(target, "__self__", None) if type(target) is type(len) else None
        if np is None or type(ufunc) is not np.ufunc or target.__name__ != "outer" or ufunc.nin != 2 or \
                ufunc.nout != 1 or len(node.args) != 2 or node.keywords:
            return None
        a, b = self.array(node.args[0]), self.array(node.args[1])
        if a is None or b is None or not numeric(a.kind) or not numeric(b.kind):
            return None
        ones = [np.ones(1, dtype=bool if k == "b" else np.dtype(k + "8")) for k in (a.kind, b.kind)]
        with np.errstate(all="ignore"):
            kind = ufunc(*ones).dtype.kind
        return Abstract("ndarray", a.shape + b.shape, kind)

    def _sizes_or_minus(self, args: list[ast.expr]) -> tuple | None:
        if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
            args = args[0].elts
        sizes = tuple(self.integer(a) for a in args)
        return None if None in sizes else sizes

    def _array_of(self, arg: ast.expr, dtype: ast.expr | None, copies: bool):
        if isinstance(arg, (ast.List, ast.Tuple)):
            nested = _nested(_literal(arg))
            if nested is None:
                return None
            shape, kind = nested
            return Abstract("ndarray", shape, self._dtype(dtype, kind))
        value = self.value(arg)
        x = self.shape_of(value)
        if x is None or x.like not in ("ndarray", "Series", "DataFrame"):
            return None
        if x.like == "ndarray" and not copies and dtype is None:
            return value                           # the same object (np.asarray of an array)
        kind = x.kind if x.like != "DataFrame" or x.kind is not None else None
        return Abstract("ndarray", x.shape, self._dtype(dtype, kind))

    def _joined(self, seq: ast.expr, name: str, keywords: dict):
        if not isinstance(seq, (ast.List, ast.Tuple)) or not seq.elts or \
                any(isinstance(e, ast.Starred) for e in seq.elts):
            return None
        arrays = [self.array(e) for e in seq.elts]
        if any(a is None or not numeric(a.kind) for a in arrays):
            return None
        joined = joining(name, arrays, keywords)
        if joined is None:
            return None
        shape = _joined(joined[1], joined[0])
        return None if shape is None else Abstract("ndarray", shape, _join_kind([a.kind for a in arrays]))

    def _reduced(self, a: Abstract | None, name: str, axis_node: ast.expr | None, keywords: dict):
        """`a.sum(axis=k)`: the array without dimension k (of size 1 with keepdims=True)."""
        if a is None or not numeric(a.kind) or axis_node is None or set(keywords) - {"axis", "keepdims"}:
            return None
        axis = literal_int(axis_node)
        keep = _literal(keywords["keepdims"]) if "keepdims" in keywords else False
        if axis is None or type(keep) is not bool or not -a.ndim <= axis < a.ndim:
            return None
        axis %= a.ndim
        if name in ("max", "min", "argmax", "argmin") and not a.shape[axis]:
            return None                            # no identity: numpy refuses an empty (or unknown) axis
        shape = a.shape[:axis] + ((1,) if keep else ()) + a.shape[axis + 1:]
        if not shape:
            return None                            # a numpy scalar, not an array
        return Abstract("ndarray", shape, _REDUCTIONS[name].get(a.kind, a.kind))

    def _method(self, node: ast.Call, method: str):
        value = self.value(node.func.value)
        if method in ("fit_transform", "transform"):
            return self._transformed(node, value, method)
        if method in ("fit", "partial_fit") and issubclass(type(value), Abstract) and value.like == "estimator":
            return value                           # scikit-learn's fit returns the estimator itself
        np = sys.modules.get("numpy")
        if np is not None and (type(value) is np.random.Generator or
                               issubclass(type(value), Abstract) and value.like == "Generator") and \
                method in _GENERATOR_DRAWS:
            return self._drawn(node, method)
        if method not in _METHODS:
            return None
        base = self.shape_of(value)
        if base is None:
            return None
        args, keywords = node.args, {k.arg: k.value for k in node.keywords}
        if base.like == "ndarray":
            if method == "reshape" and args and set(keywords) <= {"order"}:
                shape = _reshaped(base.size, self._sizes_or_minus(args))
                return None if shape is None else replace(base, shape=shape)
            if method == "transpose" and not keywords:
                if not args:
                    return replace(base, shape=base.shape[::-1])
                axes = literal_shape(args)
                if axes is None or sorted(a % base.ndim if -base.ndim <= a < base.ndim else -1 for a in axes) != \
                        list(range(base.ndim)):
                    return None
                return replace(base, shape=tuple(base.shape[a] for a in axes))
            if method in ("ravel", "flatten") and not args and set(keywords) <= {"order"}:
                return replace(base, shape=(base.size,))
            if method == "copy" and not args and not keywords:
                return replace(base)
            if method == "astype" and len(args) == 1 and not keywords:
                return replace(base, kind=self._dtype(args[0], None), holds=None)
            if method in _REDUCTIONS:
                axis = args[0] if len(args) == 1 and "axis" not in keywords else \
                    keywords.get("axis") if not args else None
                return self._reduced(base, method, axis, {k: v for k, v in keywords.items()} | {"axis": axis})
            return None
        if base.like in ("Series", "DataFrame"):
            if method == "to_numpy" and not args and not keywords:
                return Abstract("ndarray", base.shape, base.kind)
            if method == "copy" and not args and not keywords:
                return replace(base)
            if method == "drop" and base.like == "DataFrame" and base.columns is not None:
                return self._dropped(base, args, keywords)
        return None

    def _drawn(self, node: ast.Call, method: str):
        """`rng.standard_normal((3, 4))`, `rng.normal(0, 1, size=5)`, `rng.integers(0, 10, 5)`: a
        numpy Generator's draws of `size`, their other parameters Python numbers (no broadcast)."""
        names, kind = _GENERATOR_DRAWS[method]
        if len(node.args) > len(names) or set(k.arg for k in node.keywords) - set(names):
            return None
        given = dict(zip(names, node.args)) | {k.arg: k.value for k in node.keywords}
        if "size" not in given or any(_scalar_kind(_literal(v)) not in ("i", "f") for k, v in given.items()
                                      if k != "size"):
            return None
        values = {k: _literal(v) for k, v in given.items() if k != "size"}
        if kind == "i" and (any(_scalar_kind(v) != "i" for v in values.values()) or
                            not (values.get("low", 0) < values["high"] if "high" in values else values.get("low", 0) > 0)):
            return None                            # numpy refuses an empty range of integers
        if values.get("scale", 0) < 0:
            return None
        shape = self._sizes([given["size"]])
        return None if shape is None else Abstract("ndarray", shape, kind)

    def _dropped(self, frame: Abstract, args: list, keywords: dict):
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

    # -- scikit-learn ---------------------------------------------------------------------------

    def _estimator(self, node: ast.Call, target):
        """`StandardScaler()`, `PCA(n_components=2)`, `GridSearchCV(SVC(), grid)`: scikit-learn's own
        class; arguments literal, estimators the cell makes so, or live plain data (a grid)."""
        base = sys.modules.get("sklearn.base")
        if base is None or not issubclass(type(target), type) or \
                not str(type.__dict__["__module__"].__get__(target, type)).startswith("sklearn.") or \
                not is_library_object(target) or not issubclass(target, base.BaseEstimator):
            return None
        args = tuple(self._argument(a) for a in node.args)
        keywords = tuple((k.arg, self._argument(k.value)) for k in node.keywords)
        if any(v is UNRESOLVED for v in args + tuple(v for _, v in keywords)):
            return None
        return Abstract("estimator", estimator=target, arguments=(args, keywords))

    def _confusion(self, node: ast.Call, target):
        """`confusion_matrix(y_true, y_pred)`: an (n, n) array of ints, n the labels of both (at
        least the distinct values either holds, `labels=` literal: exactly those);
        `ConfusionMatrixDisplay(matrix, display_labels=...)`: the matrix's size and the labels' count."""
        metrics = sys.modules.get("sklearn.metrics")
        if metrics is None:
            return None
        given = dict(zip(("y_true", "y_pred"), node.args)) | {k.arg: k.value for k in node.keywords}
        if target is getattr(metrics, "confusion_matrix", None) and len(node.args) <= 2 and \
                {"y_true", "y_pred"} <= set(given) <= {"y_true", "y_pred", "labels", "sample_weight"}:
            if "labels" in given:
                labels = _literal(given["labels"])
                if type(labels) not in (list, tuple) or not labels or len(set(labels)) != len(labels):
                    return None
                return Abstract("ndarray", (len(labels), len(labels)), "i")
            least = max(distinct_at_least(self.value(given["y_true"])), distinct_at_least(self.value(given["y_pred"])))
            return Abstract("ndarray", (None, None), "i", least=(least, least))
        if target is getattr(metrics, "ConfusionMatrixDisplay", None) and len(node.args) <= 2:
            given = dict(zip(("confusion_matrix", "display_labels"), node.args)) | {k.arg: k.value for k in node.keywords}
            if set(given) != {"confusion_matrix", "display_labels"}:
                return None
            matrix = self.shaped(given["confusion_matrix"])
            labels = self._count(given["display_labels"])
            if matrix is None or matrix.like != "ndarray" or matrix.ndim != 2 or labels is None:
                return None
            return Abstract("ConfusionMatrixDisplay", matrix.shape, matrix.kind, least=matrix.least, labels=labels)
        return None

    def _count(self, node: ast.expr) -> int | None:
        """How many labels a literal list or tuple, or a live list, tuple or 1-D array, holds."""
        if isinstance(node, (ast.List, ast.Tuple)):
            return None if any(isinstance(e, ast.Starred) for e in node.elts) else len(node.elts)
        v = self.value(node)
        if type(v) in (list, tuple):
            return len(v)
        a = shaped(v)
        return a.shape[0] if a is not None and a.like == "ndarray" and a.ndim == 1 else None

    def _argument(self, node: ast.expr):
        """An estimator's argument: a literal, an estimator made as above or a live one of
        scikit-learn's own classes (`GridSearchCV(pipe, ...)`), or plain data (live, or a literal
        the cell bound to a name)."""
        v = _literal(node)
        if v is not UNRESOLVED:
            return v
        if isinstance(node, (ast.List, ast.Tuple)):
            parts = [self._argument(e) for e in node.elts]
            return UNRESOLVED if any(p is UNRESOLVED for p in parts) else \
                (list if isinstance(node, ast.List) else tuple)(parts)
        v = self.value(node)
        if issubclass(type(v), Abstract) and v.like == "estimator" or _plain_data(v):
            return v
        if not issubclass(type(v), Made) and sklearn_classes(v):
            return v                               # a live estimator of scikit-learn's classes only
        if issubclass(type(v), Made) and _plain_data(v.literal()):
            return v.literal()                     # a literal the cell wrote (`grid = {"C": [1, 10]}`)
        return UNRESOLVED

    def _transformed(self, node: ast.Call, owner, method: str):
        """`fit_transform(X)` of StandardScaler, MinMaxScaler (X's shape) and PCA ((n, k)); their
        `transform(X)` when the live estimator was fitted on X's number of columns."""
        if method not in ("fit_transform", "transform") or not node.args or len(node.args) > 2 or \
                set(k.arg for k in node.keywords) - {"y"}:
            return None
        sklearn, pre, dec = (sys.modules.get(m) for m in ("sklearn", "sklearn.preprocessing", "sklearn.decomposition"))
        if sklearn is None or pre is None or sklearn.get_config().get("transform_output") != "default":
            return None
        live = not issubclass(type(owner), Abstract)
        est = owner if live else owner.instance()
        kinds = (pre.StandardScaler, pre.MinMaxScaler, getattr(dec, "PCA", None))
        if est is None or not any(type(est) is k for k in kinds):
            return None
        own = object.__getattribute__(est, "__dict__")
        if "_sklearn_output_config" in own:
            return None                       # set_output(...): another container
        x = self.shaped(node.args[0])
        if x is None or x.like not in ("ndarray", "DataFrame") or x.ndim != 2:
            return None
        if not (numeric(x.kind) if x.like == "ndarray" else
                x.columns is not None and all(numeric(k) for _, k in x.columns)) or x.kind == "c":
            return None                       # numbers only, or scikit-learn may refuse X
        n, p = x.shape
        if method == "transform":
            if not live or type(own.get("n_features_in_")) is not int or own["n_features_in_"] != p or \
                    (x.like == "DataFrame" and "feature_names_in_" in own and
                     list(own["feature_names_in_"]) != [c for c, _ in x.columns]):
                return None
            width = own.get("n_components_") if type(est) is kinds[2] else p
            return Abstract("ndarray", (n, width), "f") if type(width) is int else None
        if type(est) is kinds[2]:
            k, solver = own.get("n_components"), own.get("svd_solver")
            if n is None or p is None or type(solver) is not str or solver != "auto":
                return None
            k = min(n, p) if k is None else k
            return Abstract("ndarray", (n, k), "f") if type(k) is int and 1 <= k <= min(n, p) else None
        return Abstract("ndarray", (n, p), "f")

    def _split(self, node: ast.Call):
        """train_test_split(*arrays, test_size=..., ...): each array's train and test parts, of
        the same kind and columns, with the rows scikit-learn's own arithmetic gives."""
        keywords = {k.arg: _literal(k.value) for k in node.keywords}
        if not node.args or set(keywords) - _SPLIT_OPTIONS or any(v is UNRESOLVED for v in keywords.values()):
            return None
        parts = [self.shaped(a) for a in node.args]
        if any(p is None or p.like not in ("ndarray", "Series", "DataFrame") or not p.ndim for p in parts):
            return None
        rows = {p.shape[0] for p in parts}
        if len(rows) != 1 or None in rows:
            return None
        from sklearn.model_selection._split import _validate_shuffle_split
        n_train, n_test = _validate_shuffle_split(rows.pop(), keywords.get("test_size"), keywords.get("train_size"),
                                                  default_test_size=0.25)
        return tuple(replace(p, shape=(n,) + p.shape[1:]) for p in parts for n in (n_train, n_test))

    # -- matplotlib -------------------------------------------------------------------------------

    def _subplots(self, node: ast.Call):
        """plt.subplots(r, c): (the figure, unknown; the axes: an ndarray of Axes squeezed as
        matplotlib does, or one Axes)."""
        keywords = {k.arg: k.value for k in node.keywords}
        if len(node.args) > 2 or any(k in keywords for k in ("nrows", "ncols")[:len(node.args)]) or \
                set(keywords) - _SUBPLOTS_OPTIONS or any(_literal(keywords[k]) not in _SHARE for k in
                                                         ("sharex", "sharey") if k in keywords):
            return None
        given = dict(zip(("nrows", "ncols"), node.args)) | {k: v for k, v in keywords.items()
                                                            if k in ("nrows", "ncols")}
        r, c = (literal_int(given[k]) if k in given else 1 for k in ("nrows", "ncols"))
        squeeze = _literal(keywords["squeeze"]) if "squeeze" in keywords else True
        if r is None or c is None or r < 1 or c < 1 or type(squeeze) is not bool:
            return None
        if not squeeze:
            axes = Abstract("ndarray", (r, c), "O", holds="Axes")
        elif r == c == 1:
            axes = Abstract("Axes")
        else:
            axes = Abstract("ndarray", tuple(d for d in (r, c) if d != 1), "O", holds="Axes")
        return (None, axes)


def _generated(name: str, target, node: ast.Call) -> tuple | None:
    """scikit-learn's sample generators, their literal arguments bound to their signature:
    (X of shape (n_samples, n_features), y of (n_samples,)) as their documentation gives them
    (n_samples a sequence: its sum; make_moons and make_circles: 2 features); anything that
    changes what they return (centers given as points, coef=True, several targets) is unknown."""
    try:
        given = inspect.signature(target).bind(*(ast.literal_eval(a) for a in node.args),
                                               **{k.arg: ast.literal_eval(k.value) for k in node.keywords})
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    given.apply_defaults()
    arguments = given.arguments
    n = arguments["n_samples"]
    if type(n) in (list, tuple) and name in ("make_blobs", "make_moons", "make_circles") and \
            all(type(k) is int for k in n) and (name != "make_blobs" or arguments["centers"] is None) and \
            (name == "make_blobs" or len(n) == 2):
        n = sum(n)
    features = 2 if name in ("make_moons", "make_circles") else arguments["n_features"]
    if type(n) is not int or type(features) is not int or n < 1 or features < 1 or \
            type(arguments.get("centers")) not in (int, type(None)) or arguments.get("return_centers") or \
            arguments.get("return_X_y", True) is not True or arguments.get("coef") or arguments.get("n_targets", 1) != 1:
        return None
    return Abstract("ndarray", (n, features), "f"), Abstract("ndarray", (n,), "f" if name == "make_regression" else "i")


def _indexed(a: Abstract, index: list | None) -> Abstract | None:
    """numpy's basic indexing of `a` (ints, slices, None, one Ellipsis), where it surely succeeds."""
    if index is None or index.count(Ellipsis) > 1:
        return None
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
        elif e == slice(None):
            shape.append(size)
        elif size is None:
            return None
        else:
            shape.append(len(range(size)[e]))
    if not shape:
        return Abstract(a.holds) if a.holds else None       # one element
    return replace(a, shape=tuple(shape))


def _float_range(args: list[ast.expr], kind: str | None) -> Abstract | None:
    """`np.arange(12.)`, `np.arange(0, 1, 0.25)`: literal numbers, the length numpy computes,
    ceil((stop - start) / step) in floating point."""
    bounds = [_literal(a) for a in args]
    if any(_scalar_kind(b) not in ("i", "f") for b in bounds):
        return None
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds, 1)[:3]
    if step == 0 or not all(math.isfinite(b) for b in (start, stop, step)):
        return None
    return Abstract("ndarray", (max(0, math.ceil((stop - start) / step)),), kind)


def _nested(value) -> tuple[tuple, str] | None:
    """The shape and dtype kind of a literal nested list of numbers numpy makes rectangular (ints
    that fit int64)."""
    def walk(v):
        if type(v) in (list, tuple):
            parts = [walk(x) for x in v]
            if any(p is None for p in parts) or len({p[0] for p in parts}) > 1:
                return None
            return (len(v),) + (parts[0][0] if parts else ()), set().union(*(p[1] for p in parts))
        kind = _scalar_kind(v)
        if kind is None or (kind == "i" and not -2 ** 63 <= v < 2 ** 63):
            return None
        return (), {kind}
    out = walk(value) if type(value) in (list, tuple) else None
    if out is None:
        return None
    shape, kinds = out
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


def _known(target) -> str | None:
    """The name of the library function `target` is, among those propagated through."""
    for module, names in _KNOWN:
        mod = sys.modules.get(module)
        if mod is None:
            continue
        for name in names:
            if mod.__dict__.get(name) is target:
                return name
    return None


_KNOWN = (("numpy", ("zeros", "ones", "empty", "full", "arange", "array", "asarray", "linspace", "concatenate",
                     "vstack", "hstack", "expand_dims", "reshape", "transpose", "matmul", "dot", *_REDUCTIONS)),
          ("numpy.random", ("rand", "randn", "random", "random_sample", "standard_normal", "default_rng")),
          ("sklearn.model_selection", ("train_test_split",)),
          ("sklearn.datasets", _GENERATORS),
          ("matplotlib.pyplot", ("subplots",)))
