"""What a value the cell itself makes is, before the cell runs (in-cell propagation): its
library's kind, shape, dtype kind and columns, carried through the library calls whose result
follows from their inputs, as the libraries document them:

    numpy         np.zeros/ones/empty/full(shape), np.arange(ints, or literal numbers), np.array(a literal
                  nested list), np.random.rand/randn(*dims), np.random.random/standard_normal(size), a live
                  Generator's or np.random.default_rng(seed)'s
                  standard_normal/random/normal/uniform/integers(size=...), a RandomState's (live, or
                  np.random.RandomState(seed)) standard_normal/random_sample/normal/uniform/randint(size=...),
                  np.random.normal/uniform/randint(..., size) (the global RandomState's), size=a.shape,
                  ufunc.outer(a, b), a ufunc of one array (np.sin(a)), np.linspace(a, b, n) (by keyword too),
                  np.meshgrid(x, y, ...) (indexing "xy" or "ij"), np.mgrid[a:b:n, ...] and np.ogrid[...],
                  np.random.randn(*a.shape), np.convolve(a, v[, mode]), np.histogram(a, bins=int),
                  scikit-learn's add_dummy_feature(X) (one column more);
                  Python numbers written, bound or live (`2 * np.pi`), computed and bound
                  (`dt = np.pi / 100`), complex()/float()/int() of them, as scalars and bounds;
                  a.reshape(...) (with -1), a.T, a.transpose(), a.ravel(), a.flatten(), a.astype(t),
                  a.copy(); np.concatenate/vstack/hstack/column_stack, np.c_[...], np.r_[...] (abstract_value.JOINS),
                  `a @ b`, np.dot/matmul, `+ - * / **`
                  (broadcast; `**` only where numpy surely computes it), `a < b` (booleans), a[:, None], a[None], np.expand_dims, a.sum(axis=k) and friends
    pandas        pd.DataFrame({"a": [...], ...}) and pd.DataFrame(<2-D array>, columns=[...]),
                  pd.Series(<a list written>, index=[...]) and pd.Series({...}) (their labels),
                  df[["a", "b"]], df["a"], .values, .to_numpy(), df.drop(columns=[...]), the methods
                  that keep, rename, move or add columns (abstract_pandas.FRAME_METHODS),
                  pd.get_dummies(data) (data's rows; its columns where nothing is encoded)
    scikit-learn  train_test_split(X, y, ...) (the rows as scikit-learn splits them); make_blobs,
                  make_classification, make_regression, make_moons, make_circles; an estimator
                  made with literal arguments (numpy's grids of literal numbers, `**d` of a dict
                  of them among them), estimators made so, live ones of scikit-learn's
                  own classes or plain data, live or a literal the cell bound (its `fit`
                  returns it); make_pipeline, make_union, make_column_transformer (the
                  composite they make, steps named by scikit-learn's rule); fit_transform of
                  StandardScaler, MinMaxScaler, PCA
                  (and transform of a live fitted one)
    matplotlib    plt.subplots(r, c): a Figure and an ndarray of Axes of shape (r, c), squeezed as
                  matplotlib does ((c,) when r == 1, one Axes when r == c == 1); plt.axes(): one
                  Axes; plt.figure() (no num): a Figure; such a Figure's add_subplot() or at a
                  position, add_axes(rect), and such an Axes' twinx()/twiny(): one Axes
                  confusion_matrix(y_true, y_pred): (n, n), n at least the distinct labels of
                  either; ConfusionMatrixDisplay(matrix, display_labels=...) (its rule: displays.py)

Propagation reads numpy's calls itself (its arrays, sizes, dtypes and integers are what the other
libraries' rules read too); pandas', scikit-learn's and matplotlib's rules are functions of their
own files (abstract_pandas.py, abstract_sklearn.py, abstract_matplotlib.py) that Propagation calls
with what it read, explicitly; the values and their shape rules are in abstract_value.py. `shaped` is the one reading of "a shape and dtype" the value rules use (values.py), of a live
ndarray, Series or DataFrame or of an abstract value. A value is given only where the call surely
succeeds and its result surely is that; a size may be unknown (None). Anything else, a user's
function or object among them, is unknown: no value, so no claim. A name keeps its value only
while flow.py follows it unchanged (an `Abstract` is a `Made`: tracked by identity like a live
object).
"""
from __future__ import annotations

import ast
import builtins
import math
import operator
import sys
import types
from dataclasses import replace

from .abstract_matplotlib import added_axes, axes, figure, subplots
from .abstract_pandas import FRAME_METHODS, constructed, dropped, dummies, frame_method, picked, series_constructed
from .abstract_sklearn import (PREDICTING, confusion, generated, made_estimator, made_shorthand, predicted, split,
                              transformed)
from .abstract_value import (_GENERATOR_DRAWS, _accumulated, _GENERATORS, _METHODS, _NUMERIC, _REDUCTIONS,
                             Abstract, Read, _arithmetic_kind, _broadcast, _float_range, _indexed,
                             CONCATENATORS, JOIN_FUNCTIONS, _join_kind, _joined, _literal, _matmul, _nested, _pandas, _reshaped,
                             _scalar_kind, joining, literal_int, literal_shape, numeric, random_state_value, shaped)
from .dataset_loaders import loaded
from .namespace import UNRESOLVED, Made
from .libraries import library_code
from .read_policy import POLICY


class Fields(tuple):
    """A named tuple a library returns (scipy's ModeResult), of abstract values: its items by
    index and by name."""

    def __new__(cls, items, names: tuple[str, ...]):
        made = super().__new__(cls, items)
        made.names = names
        return made


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
            if any(isinstance(a, ast.Starred) for a in node.args) and \
                    not (isinstance(node.func, ast.Attribute) and node.func.attr in ("rand", "randn")):
                return None                  # (`np.random.randn(*t.shape)`: _dims reads it)
            if any(k.arg is None for k in node.keywords):      # `**d`: an estimator's keywords alone
                target = self.read(node.func) if isinstance(node.func, (ast.Name, ast.Attribute)) else UNRESOLVED
                return made_estimator(node, target, self.value, self.scalar) if target is not UNRESOLVED else None
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
        fields = self.value(node.value)
        if type(fields) is Fields and node.attr in fields.names:     # `mode(a).mode`
            return fields[fields.names.index(node.attr)]
        base = self.shaped(node.value)
        if base is None:
            return None
        if base.like == "ndarray" and node.attr == "T":
            return replace(base, shape=base.shape[::-1])
        if base.like == "ndarray" and node.attr == "flat" and base.holds is not None:
            return replace(base, shape=(base.size,))     # iterated as a 1-D array of the same items
        if node.attr == "values" and base.like == "DataFrame":
            return Abstract("ndarray", base.shape, base.kind)
        if node.attr == "values" and base.like == "Series" and base.kind is not None:
            return Abstract("ndarray", base.shape, base.kind)     # an extension dtype's is no ndarray
        if base.like == "DataFrame" and base.columns is not None and node.attr in dict(base.columns) and \
                not node.attr.startswith("_"):
            pd = sys.modules.get("pandas")
            if pd is not None and POLICY.static(pd.DataFrame, node.attr, None) is None:
                return Abstract("Series", base.shape[:1], dict(base.columns)[node.attr],     # `df.price`
                                index_words=base.index_words)
        return None

    def _subscript(self, node: ast.Subscript):
        value = self.value(node.value)
        if (name := concatenator(value)) is not None:       # `np.c_[a, b]`, `np.r_[a, b]`
            return self._joined(node.slice, name, {})
        if value is not UNRESOLVED and value is _numpy_member("mgrid") and _grid_as_made(value, sparse=False):
            return self._mgrid(node.slice)
        if value is not UNRESOLVED and value is _numpy_member("ogrid") and _grid_as_made(value, sparse=True):
            return self._ogrid(node.slice)
        if type(value) in (tuple, Fields):       # `plt.subplots(1, 3)[1]`
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
            return picked(base, node.slice)
        if base.like == "ndarray" and isinstance(node.slice, ast.Compare):
            return self._masked(base, node.slice)
        mask = self.array(node.slice) if base.like == "ndarray" and isinstance(node.slice, ast.Name) else None
        if mask is not None and mask.kind == "b" and mask.ndim == 1 and base.ndim >= 1 and \
                mask.shape[0] == base.shape[0] and mask.shape[0] is not None:
            # `a[mask]` of a mask of a's rows (numpy's boolean index): the rows kept, how many not known
            return Abstract("ndarray", (None, *base.shape[1:]), base.kind)
        if base.like == "ndarray":
            return _indexed(base, self.index(node.slice))
        return None

    def _masked(self, base: Abstract, key: ast.Compare) -> Abstract | None:
        """`X[y == 1]`: numpy's boolean indexing keeps the rows where the mask is True, as many as
        it holds; known where the mask compares a live 1-D array of numbers (read unchanged: the
        flow gives no live object the cell may have changed) with a number, as long as X's rows."""
        np = sys.modules.get("numpy")
        if np is None or len(key.ops) != 1 or type(key.ops[0]) not in _COMPARISONS or not base.shape or \
                type(base.shape[0]) is not int:
            return None
        left, right = key.left, key.comparators[0]
        array, number = self.value(left), self.scalar(right)
        if type(array) is not np.ndarray:       # `0 < y`: the number first
            array, number, swapped = self.value(right), self.scalar(left), True
        else:
            swapped = False
        if type(array) is not np.ndarray or array.ndim != 1 or array.dtype.kind not in "biuf" or \
                array.shape[0] != base.shape[0] or array.size > _MASK_MAX or type(number) not in (int, float):
            return None
        compare = _COMPARISONS[type(key.ops[0])]
        count = int(np.count_nonzero(compare(number, array) if swapped else compare(array, number)))
        return replace(base, shape=(count, *base.shape[1:]))

    def _mgrid(self, key: ast.expr):
        """`np.mgrid[0:5, -w:w:100j]`: numpy's dense grid, of shape (slices, sizes...) or (size,)
        for one slice."""
        grid = self._grid_sizes(key)
        if grid is None:
            return None
        sizes, kind = grid
        shape = tuple(sizes) if not isinstance(key, ast.Tuple) else (len(sizes), *sizes)
        return Abstract("ndarray", shape, kind)

    def _ogrid(self, key: ast.expr):
        """`y, x = np.ogrid[-8:8:0.25, -5:5:0.1]`: numpy's open grid, a tuple of one array per
        slice, each of its size along its own axis and 1 along the others; one array (size,)
        for one slice."""
        grid = self._grid_sizes(key)
        if grid is None:
            return None
        sizes, kind = grid
        if not isinstance(key, ast.Tuple):
            return Abstract("ndarray", tuple(sizes), kind)
        return tuple(Abstract("ndarray", tuple(n if k == j else 1 for j in range(len(sizes))), kind)
                     for k, n in enumerate(sizes))

    def _grid_sizes(self, key: ast.expr) -> tuple[list[int], str] | None:
        """The sizes of numpy's nd_grid along each slice: ceil((stop - start) / step), or
        |step| points for a complex step; and its dtype kind, numpy's result type of the numbers."""
        np = sys.modules.get("numpy")
        slices = key.elts if isinstance(key, ast.Tuple) else [key]
        if np is None or not slices or not all(isinstance(e, ast.Slice) and e.upper is not None for e in slices):
            return None
        sizes, numbers = [], []
        for e in slices:
            start, stop, step = (self.scalar(p) if p is not None else d for p, d in
                                 ((e.lower, 0), (e.upper, None), (e.step, 1)))
            if any(_scalar_kind(v) not in ("i", "f", "c") for v in (start, stop, step)) or \
                    _scalar_kind(start) == "c" or _scalar_kind(stop) == "c":
                return None
            if type(step) is complex:
                size = int(abs(step))
            elif step == 0 or not all(math.isfinite(v) for v in (start, stop, step)):
                return None
            else:
                size = math.ceil((stop - start) / step)
            if size < 0:
                return None
            sizes.append(size)
            numbers += [start, stop, step]
        if math.prod(sizes) * len(sizes) > _MAX_GRID:
            return None                          # numpy may refuse the memory, or the size itself
        kind = np.result_type(*numbers).kind
        return sizes, "f" if kind == "c" else kind      # a complex step counts points: the grid is real

    def index(self, key: ast.expr) -> list | None:
        """A basic index as entries: an int, a slice object, None (a new axis), Ellipsis."""
        out = []
        for e in key.elts if isinstance(key, ast.Tuple) else [key]:
            if isinstance(e, ast.Slice):
                parts = [None if p is None else self.integer(p) for p in (e.lower, e.upper, e.step)]
                if any(p is None and q is not None for p, q in zip(parts, (e.lower, e.upper, e.step))) or \
                        parts[2] == 0:
                    return None
                out.append(slice(*parts))
            elif isinstance(e, ast.Constant) and e.value is Ellipsis:
                out.append(Ellipsis)
            elif (k := self.integer(e)) is not None:
                out.append(k)
            elif (isinstance(e, ast.Constant) and e.value is None) or self.value(e) is None:   # np.newaxis
                out.append(None)
            elif (ints := self._int_list(e)) is not None:
                out.append(ints)
            else:
                return None
        return out

    def _int_list(self, node: ast.expr) -> list[int] | None:
        """A list of Python ints (never bools: a mask) written, or one the cell bound or the kernel
        holds: an index array of numpy's advanced indexing."""
        if isinstance(node, ast.List):
            v = self._numbers(node)
        else:
            v = self.value(node) if isinstance(node, ast.Name) else UNRESOLVED
            v = v.literal() if issubclass(type(v), Made) else v
        return list(v) if type(v) is list and len(v) <= 10_000 and all(type(k) is int for k in v) else None

    def _binop(self, node: ast.BinOp):
        a, b = self.array(node.left), self.array(node.right)
        if isinstance(node.op, ast.MatMult):
            if a is None or b is None or not numeric(a.kind) or not numeric(b.kind):
                return None
            shape = _matmul(a.shape, b.shape)
            return None if shape is None else Abstract("ndarray", shape, a.kind if a.kind == b.kind else None)
        if isinstance(node.op, ast.Pow):
            return self._power(node, a, b)
        if isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):     # two masks, or two arrays of ints
            if a is None or b is None or a.kind != b.kind or a.kind not in ("b", "i"):
                return None
            shape = _broadcast(a.shape, b.shape)
            return None if shape is None else Abstract("ndarray", shape, a.kind)
        if not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            return None
        if a is None and b is None:
            return None
        scalar = None
        if a is None or b is None:
            other = node.left if a is None else node.right
            scalar = self.scalar(other)
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

    def _power(self, node: ast.BinOp, a: Abstract | None, b: Abstract | None) -> Abstract | None:
        """`a ** 2`, `2.0 ** a`, `a ** b`: numbers of the broadcast shape where numpy surely
        computes them: an integer array to a power only of a Python int >= 0 (numpy refuses
        negative integer powers of integers), never booleans."""
        if a is not None and b is not None:
            if not numeric(a.kind) or not numeric(b.kind) or "b" in (a.kind, b.kind) or \
                    not {a.kind, b.kind} & {"f", "c"}:
                return None
            shape = _broadcast(a.shape, b.shape)
            return None if shape is None else Abstract("ndarray", shape, "c" if "c" in (a.kind, b.kind) else "f")
        array = a or b
        if array is None or not numeric(array.kind) or array.kind == "b":
            return None
        scalar = self.scalar(node.right if a is not None else node.left)
        kind = _scalar_kind(scalar)
        if kind not in ("i", "f", "c"):
            return None
        if a is not None and array.kind in "iu":
            if kind == "i" and not 0 <= scalar < 128:
                return None                      # negative powers, or a power numpy may refuse for the dtype
            return Abstract("ndarray", array.shape, array.kind if kind == "i" else kind)
        if a is None and array.kind in "iu":
            return None                          # a number to integer powers that may be negative
        return Abstract("ndarray", array.shape, "c" if "c" in (array.kind, kind) else array.kind)

    def _element(self, node: ast.expr, value) -> Abstract | None:
        """A numpy scalar of a number dtype as a 0-d array: a live one (`np.float64(2)`), one
        element of a known array (`beta[1]`, every dimension indexed by an int in range), or a
        whole known array's reduction (`y.mean()`)."""
        np = sys.modules.get("numpy")
        if np is not None and isinstance(value, np.generic) and type(value).__module__ == "numpy" and \
                numeric(value.dtype.kind):
            return Abstract("ndarray", (), value.dtype.kind)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _REDUCTIONS and \
                not node.args and not node.keywords:
            a = self.array(node.func.value)         # `y.mean()`: the whole array's, one number of its kind
            if a is None or not numeric(a.kind) or a.size is None or not a.size:
                return None                         # (numpy refuses max() of none; mean() of none warns)
            return Abstract("ndarray", (), _REDUCTIONS[node.func.attr].get(a.kind, a.kind))
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
            scalar = self.scalar(node.left if a is None else node.comparators[0])
            array = a or b
            return Abstract("ndarray", array.shape, "b") if numeric(array.kind) and \
                _scalar_kind(scalar) in ("i", "f") else None
        shape = _broadcast(a.shape, b.shape) if numeric(a.kind) and numeric(b.kind) else None
        return None if shape is None else Abstract("ndarray", shape, "b")

    # -- Python numbers -------------------------------------------------------------------------

    def scalar(self, node: ast.expr):
        """A Python number (bool, int, float or complex) the expression surely is: a literal, one
        the cell bound to a name as a literal, a live one (`np.pi`), and + - * / of those (`2 * np.pi`);
        else UNRESOLVED."""
        v = _literal(node)
        if _scalar_kind(v) is not None:
            return _fits(v)
        if isinstance(node, (ast.Name, ast.Attribute)):
            v = self.read(node)
            if issubclass(type(v), Made):
                v = v.literal()
            return _fits(v) if _scalar_kind(v) is not None else UNRESOLVED
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.scalar(node.operand)
            return (-v if isinstance(node.op, ast.USub) else v) if _scalar_kind(v) not in (None, "b") else UNRESOLVED
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            a, b = self.scalar(node.left), self.scalar(node.right)
            if _scalar_kind(a) in (None, "b") or _scalar_kind(b) in (None, "b") or \
                    (isinstance(node.op, ast.Div) and b == 0):
                return UNRESOLVED              # Python raises on a zero divisor
            op = type(node.op)
            try:
                return _fits(a + b if op is ast.Add else a - b if op is ast.Sub else a * b if op is ast.Mult else a / b)
            except OverflowError:                  # an int too large for a float: Python raises
                return UNRESOLVED
        if isinstance(node, ast.Call):
            return self._number_made(node)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                type(_literal(node.slice)) is int:
            items = self.read(node.value)          # `axes[0]` of `axes = [-0.5, 0.5]`: Python's own item
            if issubclass(type(items), Made):
                items = items.literal()
            at = _literal(node.slice)
            if type(items) in (list, tuple) and -len(items) <= at < len(items):
                v = items[at]
                return _fits(v) if _scalar_kind(v) is not None else UNRESOLVED
        return UNRESOLVED

    def _number_made(self, node: ast.Call):
        """`complex(0, n)`, `float(n)`, `int(x)`: Python's own number types called on numbers
        known here (ints and floats; an int() of a float not finite raises: not read)."""
        if node.keywords or not 1 <= len(node.args) <= 2 or any(isinstance(a, ast.Starred) for a in node.args) or \
                not isinstance(node.func, ast.Name):
            return UNRESOLVED
        make = self.read(node.func)
        if not any(make is t for t in (builtins.complex, builtins.float, builtins.int)) or \
                (len(node.args) == 2 and make is not builtins.complex):
            return UNRESOLVED
        args = [self.scalar(a) for a in node.args]
        if any(_scalar_kind(a) not in ("i", "f") for a in args) or (make is builtins.int and not math.isfinite(args[0])):
            return UNRESOLVED
        try:
            return _fits(make(*args))
        except OverflowError:                      # float() of an int beyond a float's range
            return UNRESOLVED

    # -- integers -----------------------------------------------------------------------------

    def integer(self, node: ast.expr) -> int | None:
        """A literal int, a live one, `len(x)` or `x.shape[k]` of a known size, `int(x)` of a known
        number, and + - * // of those."""
        k = literal_int(node)
        if k is not None:
            return k
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            a, b = self.integer(node.left), self.integer(node.right)
            if a is None or b is None or (isinstance(node.op, ast.FloorDiv) and b == 0):
                return None
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(node.op)) if \
                not isinstance(node.op, ast.FloorDiv) else a // b
        if isinstance(node, ast.Call) and type(made := self._number_made(node)) is int:
            return made                     # `int(n / 2)`
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
        if issubclass(type(v), Made):
            v = v.literal()                 # `n = 20` earlier in the cell
        return v if type(v) is int else None

    def _sizes(self, args: list[ast.expr]) -> tuple | None:
        """A shape argument: an int, or a tuple or list of ints; every size >= 0. A size
        `len(x)` of an unknown x is unknown (None) but valid: len() gives an int >= 0 or raises."""
        if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
            args = args[0].elts
        elif len(args) == 1 and isinstance(args[0], ast.Attribute) and args[0].attr == "shape":
            x = self.shaped(args[0].value)          # `size=r.shape`: another array's shape, every size known
            return x.shape if x is not None and x.like != "estimator" and None not in x.shape else None
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
            pair = loaded(target, node)         # `X, y = load_iris(return_X_y=True)`
            return self._outer(node, target) or self._ufunc(node, target) or self._mode(node, target) or \
                (pair if type(pair) is tuple else None) or made_estimator(node, target, self.value, self.scalar) or \
                made_shorthand(node, target, self.value) or confusion(node, target, self.value, self.shaped)
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
                return _float_range([self.scalar(a) for a in args], self._dtype(keywords.get("dtype"), "f"))
            if len(bounds) == 3 and bounds[2] == 0:
                return None
            return Abstract("ndarray", (len(range(*bounds)),), self._dtype(keywords.get("dtype"), "i"))
        if name in ("array", "asarray") and len(args) == 1 and set(keywords) <= {"dtype"}:
            return self._array_of(args[0], keywords.get("dtype"), copies=name == "array")
        if name == "linspace" and len(args) <= 3 and set(keywords) <= {"start", "stop", "num", "endpoint", "dtype"}:
            given = dict(zip(("start", "stop", "num"), args))       # `np.linspace(start=0, stop=10, num=5)`
            if set(given) & set(keywords) or not {"start", "stop"} <= set(given) | set(keywords):
                return None                        # a parameter given twice, or missing: TypeError
            given |= keywords
            count = self.integer(given["num"]) if "num" in given else 50
            if count is None or count < 0 or any(_scalar_kind(self.scalar(given[k])) not in ("i", "f")
                                                 for k in ("start", "stop")):
                return None
            return Abstract("ndarray", (count,), self._dtype(keywords.get("dtype"), "f"))
        if name in ("rand", "randn") and args and not keywords:
            return self._dims(args)
        if name in ("random", "random_sample", "standard_normal") and len(args) + len(keywords) == 1 and \
                set(keywords) <= {"size"}:
            shape = self._sizes([args[0] if args else keywords["size"]])
            return None if shape is None else Abstract("ndarray", shape, "f")
        if name in ("normal", "uniform", "randint"):     # the legacy global RandomState's, as a RandomState's
            return self._drawn(node, _RANDOM_STATE_DRAWS[name])
        if name == "multivariate_normal":
            return self._multivariate(node)
        if name == "meshgrid":
            return self._meshgrid(node)
        if name == "convolve":
            return self._convolved(node)
        if name == "add_dummy_feature" and len(args) == 1 and set(keywords) <= {"value"} and \
                all(_scalar_kind(self.scalar(v)) in ("i", "f") for v in keywords.values()):
            a = self.array(args[0])              # scikit-learn's: a column of `value` before X's (2-D, numbers)
            if a is None or a.ndim != 2 or a.shape[1] is None or a.kind not in ("b", "i", "u", "f"):
                return None
            return Abstract("ndarray", (a.shape[0], a.shape[1] + 1), "f")
        if name == "histogram":
            return self._histogram(node)
        if name in JOIN_FUNCTIONS and len(args) == 1:
            return self._joined(args[0], name, keywords)
        if name == "expand_dims" and len(args) == 2 and not keywords:
            a, axis = self.array(args[0]), literal_int(args[1])
            if a is None or axis is None or not -(a.ndim + 1) <= axis <= a.ndim:
                return None
            axis %= a.ndim + 1
            return replace(a, shape=a.shape[:axis] + (1,) + a.shape[axis:])
        if name == "reshape" and len(args) == 2 and set(keywords) <= {"order"}:
            a = self.array(args[0])
            shape = _reshaped(a.size, self.sizes_or_minus(args[1:])) if a is not None else None
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
            return generated(name, target, node, self.value, self.scalar)
        if name == "train_test_split":
            return split(node, self.shaped, self.value)
        if name in ("hist", "histogram2d"):
            return (None, None, None)           # (counts, bins, patches), (counts, x edges, y edges): three, always
        if name in _SPLITS and len(args) == 2 and set(keywords) <= ({"axis"} if name in ("split", "array_split") else set()):
            return self._parts(name, args, keywords)
        if name == "subplots":
            return subplots(node)
        if name == "axes":
            return axes(node)
        if name == "figure":
            return figure(node)
        if name == "get_dummies":
            return dummies(node, self.shaped)
        if name == "DataFrame":
            return constructed(node, self.value, self.shaped)
        if name == "Series":
            return series_constructed(node)
        return None

    def _parts(self, name: str, args: list, keywords: dict):
        """`np.split(x, [3, 5])`: as many parts as the indices plus one; `np.vsplit(grid, 3)`: the
        sections where they divide the axis (else numpy refuses first), any for `array_split`."""
        parts = _literal(args[1])
        if type(parts) in (list, tuple) and all(type(i) is int for i in parts):
            return (None,) * (len(parts) + 1)
        if type(parts) is not int or not 0 < parts <= 1000:
            return None
        if name == "array_split":
            return (None,) * parts
        a = self.array(args[0])
        axis = literal_int(keywords["axis"]) if "axis" in keywords else \
            {"vsplit": 0, "dsplit": 2, "hsplit": 0 if a is not None and a.ndim == 1 else 1}.get(name, 0)
        if a is None or axis is None or not -a.ndim <= axis < a.ndim or type(a.shape[axis]) is not int or \
                name == "vsplit" and a.ndim < 2 or name == "dsplit" and a.ndim < 3 or a.shape[axis] % parts:
            return None
        return (None,) * parts

    def _method(self, node: ast.Call, method: str):
        value = self.value(node.func.value)
        if method in ("fit_transform", "transform"):
            return transformed(node, value, method, self.shaped)
        if method in PREDICTING:
            return predicted(node, value, self.shaped)
        if method in ("fit", "partial_fit") and issubclass(type(value), Abstract) and value.like == "estimator":
            return value                           # scikit-learn's fit returns the estimator itself
        np = sys.modules.get("numpy")
        generator = np is not None and (type(value) is np.random.Generator or
                                        issubclass(type(value), Abstract) and value.like == "Generator")
        if generator and method in _GENERATOR_DRAWS:
            return self._drawn(node, method)
        random_state = random_state_value(value)
        if method == "multivariate_normal" and (random_state or generator):
            return self._multivariate(node)
        if random_state and method in _RANDOM_STATE_DRAWS:
            return self._drawn(node, _RANDOM_STATE_DRAWS[method])     # the legacy RandomState's draws
        if random_state and method in ("rand", "randn") and node.args and not node.keywords:
            return self._dims(node.args)
        if issubclass(type(value), Abstract) and value.like in ("Figure", "Axes"):
            return added_axes(node, value, method)
        if method not in _METHODS and method not in FRAME_METHODS:
            return None
        base = self.shape_of(value)
        if base is None:
            return None
        args, keywords = node.args, {k.arg: k.value for k in node.keywords}
        if base.like == "ndarray":
            if method == "reshape" and args and set(keywords) <= {"order"}:
                shape = _reshaped(base.size, self.sizes_or_minus(args))
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
            if method in ("cumsum", "cumprod") and len(args) + len(keywords) <= 1 and set(keywords) <= {"axis"}:
                return _accumulated(base, args[0] if args else keywords.get("axis"))
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
                return dropped(base, args, keywords)
            if method in FRAME_METHODS and base.like == "DataFrame" and base.columns is not None:
                return frame_method(base, method, args, keywords)
        return None

    # -- numpy: a ufunc's outer, arrays of literals, joins, reductions, a Generator's draws --------

    def _mode(self, node: ast.Call, target):
        """`scipy.stats.mode(a)` of a 1-D array of numbers: since scipy 1.11 (`keepdims=False`)
        a ModeResult of two numpy scalars, the mode and its count, where older code indexed
        arrays (`mode(a)[0][0]`: IndexError)."""
        stats = sys.modules.get("scipy.stats")
        mode = POLICY.static(stats, "mode", None) if stats is not None else None
        if mode is None or target is not mode or not POLICY.is_library(target) or len(node.args) != 1 or \
                any(k.arg != "nan_policy" for k in node.keywords):
            return None
        a = self.array(node.args[0])
        if a is None or a.ndim != 1 or not numeric(a.kind):
            return None
        return Fields((Abstract("ndarray", (), a.kind), Abstract("ndarray", (), "i")), ("mode", "count"))

    def _outer(self, node: ast.Call, target):
        """`np.multiply.outer(a, b)`: a numpy ufunc of two inputs over every pair, of shape
        a.shape + b.shape; its dtype kind the ufunc's own for the two kinds (asked of it on one
        element each)."""
        np = sys.modules.get("numpy")
        ufunc = numpy_ufunc(getattr(target, "__self__", None)) if type(target) is type(len) else None
        if np is None or ufunc is None or target.__name__ != "outer" or ufunc.nin != 2 or \
                ufunc.nout != 1 or len(node.args) != 2 or node.keywords:
            return None
        a, b = self.array(node.args[0]), self.array(node.args[1])
        kind = _ufunc_kind(ufunc, a, b) if a is not None and b is not None else None
        return None if kind is None else Abstract("ndarray", a.shape + b.shape, kind)

    def _ufunc(self, node: ast.Call, target):
        """`np.sin(a)`, `np.exp(-a)`: a numpy ufunc of one input, element by element, on an array
        of at least one dimension: an array of its shape (numpy gives a scalar for a 0-d one),
        of the dtype kind the ufunc's own loop gives for the input's (asked of it on one element)."""
        ufunc = numpy_ufunc(target)
        if ufunc is None or ufunc.nin != 1 or ufunc.nout != 1 or len(node.args) != 1 or node.keywords:
            return None
        a = self.array(node.args[0])
        kind = _ufunc_kind(ufunc, a) if a is not None and a.ndim else None
        return None if kind is None else Abstract("ndarray", a.shape, kind)

    def _meshgrid(self, node: ast.Call):
        """`X, Y = np.meshgrid(x, y)`: numpy flattens each input; with two or more and
        indexing="xy" (the default) every output is of shape (len(y), len(x), ...), with "ij"
        (len(x), len(y), ...); each keeps its input's dtype kind (sparse=False, the default)."""
        keywords = {k.arg: _literal(k.value) for k in node.keywords}
        if not node.args or set(keywords) - {"indexing", "copy"} or keywords.get("indexing", "xy") not in ("xy", "ij") or \
                type(keywords.get("copy", True)) is not bool:
            return None
        arrays = [self.shaped(a) for a in node.args]
        if any(a is None or a.like not in ("ndarray", "Series") or a.size is None for a in arrays):
            return None
        sizes = [a.size for a in arrays]
        if keywords.get("indexing", "xy") == "xy" and len(sizes) > 1:
            sizes[0], sizes[1] = sizes[1], sizes[0]
        return tuple(Abstract("ndarray", tuple(sizes), a.kind) for a in arrays)

    def _convolved(self, node: ast.Call):
        """`np.convolve(a, v)`: numpy's discrete convolution of two 1-D arrays of numbers, none
        empty (numpy refuses one), of length n + m - 1 ("full", the default), max(n, m)
        ("same") or max(n, m) - min(n, m) + 1 ("valid")."""
        given = dict(zip(("a", "v", "mode"), node.args)) | {k.arg: k.value for k in node.keywords}
        if len(node.args) > 3 or set(given) - {"a", "v", "mode"} or not {"a", "v"} <= set(given) or \
                len(given) != len(node.args) + len(node.keywords):
            return None
        a, v = self.array(given["a"]), self.array(given["v"])
        mode = _literal(given["mode"]) if "mode" in given else "full"
        if a is None or v is None or a.ndim != 1 or v.ndim != 1 or not a.shape[0] or not v.shape[0] or \
                not numeric(a.kind) or not numeric(v.kind) or mode not in ("full", "same", "valid"):
            return None
        n, m = a.shape[0], v.shape[0]
        size = n + m - 1 if mode == "full" else max(n, m) if mode == "same" else max(n, m) - min(n, m) + 1
        return Abstract("ndarray", (size,), a.kind if a.kind == v.kind else None)

    def _histogram(self, node: ast.Call):
        """`counts, edges = np.histogram(data, 100)`: numpy's counts in `bins` equal bins (an
        int, 10 by default) and their bins + 1 edges, of a live array of real numbers all finite
        or one the cell makes of integers (numpy refuses a range it cannot find; weights or
        density change the counts' dtype: not read)."""
        given = dict(zip(("a", "bins"), node.args)) | {k.arg: k.value for k in node.keywords}
        if len(node.args) > 2 or set(given) - {"a", "bins", "range"} or "a" not in given or \
                len(given) != len(node.args) + len(node.keywords):
            return None
        np = sys.modules.get("numpy")
        data = self.value(given["a"]) if "range" not in given else None
        bins = self.integer(given["bins"]) if "bins" in given else 10
        if np is None or bins is None or bins < 1:
            return None
        if type(data) is np.ndarray:
            finite = data.dtype.kind in ("b", "i", "u") or data.dtype.kind == "f" and bool(np.isfinite(data).all())
        else:                           # one the cell makes: of integers (every one finite), its size known
            made = self.shape_of(data) if issubclass(type(data), Abstract) else None
            finite = made is not None and made.like == "ndarray" and made.size is not None and \
                made.kind in ("b", "i", "u")
        if not finite:
            return None                 # a value not finite (NaN) or a range: numpy may refuse them first
        return Abstract("ndarray", (bins,), "i"), Abstract("ndarray", (bins + 1,), "f")

    def _dims(self, args: list[ast.expr]) -> Abstract | None:
        """`np.random.randn(3, 4)`, `rs.rand(*t.shape)`: draws of these dimensions, one argument
        each (no tuple), or another array's shape unpacked (not a 0-d one's: the call then
        returns a float)."""
        if len(args) == 1 and isinstance(args[0], ast.Starred):
            given = args[0].value
            if not (isinstance(given, ast.Attribute) and given.attr == "shape"):
                return None
            shape = self._sizes([given])
            return Abstract("ndarray", shape, "f") if shape else None
        if any(isinstance(a, (ast.Tuple, ast.List, ast.Starred)) for a in args):
            return None
        shape = self._sizes(args)
        return None if shape is None else Abstract("ndarray", shape, "f")

    def sizes_or_minus(self, args: list[ast.expr]) -> tuple | None:
        """reshape's sizes (`-1` among them), each an integer as `integer` reads it."""
        if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
            args = args[0].elts
        sizes = tuple(self.integer(a) for a in args)
        return None if None in sizes else sizes

    def _array_of(self, arg: ast.expr, dtype: ast.expr | None, copies: bool):
        value = self.value(arg) if not isinstance(arg, (ast.List, ast.Tuple)) else UNRESOLVED
        written = issubclass(type(value), Made) and type(value.literal()) in (list, tuple)
        if isinstance(arg, (ast.List, ast.Tuple)) or written:
            # a display, or one the cell bound to a name (`cov = [[3, 3], [3, 4]]`)
            numbers = value.literal() if written else self._numbers(arg)
            nested = _nested(numbers)
            if nested is None:
                return None
            shape, kind = nested
            made = self._dtype(dtype, kind)
            if made in ("i", "u", "b") and kind == "f" and not all(math.isfinite(v) for v in _flat(numbers)):
                return None                            # numpy refuses NaN or inf as integers (ValueError)
            return Abstract("ndarray", shape, made)
        x = self.shape_of(value)
        if x is None or x.like not in ("ndarray", "Series", "DataFrame"):
            return None
        if x.like == "ndarray" and not copies and dtype is None:
            return value                           # the same object (np.asarray of an array)
        kind = x.kind if x.like != "DataFrame" or x.kind is not None else None
        return Abstract("ndarray", x.shape, self._dtype(dtype, kind))

    def _numbers(self, node: ast.expr):
        """A display of Python numbers written in the cell, nested lists and tuples of them, its
        items literals or numbers known here (`[0, 1, np.nan]`, `[-x, 2 * np.pi]`); else UNRESOLVED."""
        v = _literal(node)
        if v is not UNRESOLVED or not isinstance(node, (ast.List, ast.Tuple)):
            return v if v is not UNRESOLVED else self.scalar(node)
        items = [self._numbers(e) for e in node.elts]
        return UNRESOLVED if any(x is UNRESOLVED for x in items) or any(isinstance(e, ast.Starred) for e in node.elts) \
            else items

    def _joined(self, seq: ast.expr, name: str, keywords: dict):
        """A join of JOINS: `np.hstack([a, b])`, or the items of `np.c_[a, b]` (`seq` the index)."""
        items = [seq] if name in CONCATENATORS and not isinstance(seq, ast.Tuple) else \
            seq.elts if isinstance(seq, (ast.List, ast.Tuple)) else None
        if not items or any(isinstance(e, ast.Starred) for e in items):
            return None
        arrays = [self.array(e) for e in items]
        if any(a is None or not numeric(a.kind) or (name in CONCATENATORS and not a.ndim) for a in arrays):
            return None                 # np.c_ takes a 0-d array as a scalar: another rule
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

    def _multivariate(self, node: ast.Call):
        """`rng.multivariate_normal(mean, cov, size=n)` (a Generator's, a RandomState's, numpy's
        global one's): draws of shape size + (N,), N the length of a 1-D mean of numbers whose
        cov is N by N (numpy refuses any other pair); no `check_valid="raise"` (it may refuse a
        cov that is not positive semi-definite)."""
        names = ("mean", "cov", "size", "check_valid", "tol")
        if len(node.args) > 3 or any(isinstance(a, ast.Starred) for a in node.args) or \
                {k.arg for k in node.keywords} - set(names) - {"method"}:
            return None
        given = dict(zip(names, node.args)) | {k.arg: k.value for k in node.keywords}
        if "tol" in given and _scalar_kind(self.scalar(given["tol"])) not in ("i", "f"):
            return None                                # numpy refuses a tolerance of another kind (TypeError)
        if not {"mean", "cov"} <= set(given) or _literal(given.get("check_valid", ast.Constant("warn"))) not in \
                ("warn", "ignore") or _literal(given.get("method", ast.Constant("svd"))) not in ("svd", "eigh", "cholesky"):
            return None
        mean, cov = (self._array_of(given[k], None, copies=True) for k in ("mean", "cov"))
        if mean is None or cov is None or not numeric(mean.kind) or not numeric(cov.kind) or mean.ndim != 1 or \
                mean.shape[0] is None or cov.shape != (mean.shape[0], mean.shape[0]):
            return None
        size = given.get("size")
        shape = () if size is None or _literal(size) is None else self._sizes([size])
        return None if shape is None else Abstract("ndarray", shape + mean.shape, "f")

    def _drawn(self, node: ast.Call, method: str):
        """`rng.standard_normal((3, 4))`, `rng.normal(0, 1, size=5)`, `rng.integers(0, 10, 5)`: a
        numpy Generator's draws of `size`, their other parameters Python numbers (no broadcast)."""
        names, kind = _GENERATOR_DRAWS[method]
        if len(node.args) > len(names) or set(k.arg for k in node.keywords) - set(names):
            return None
        given = dict(zip(names, node.args)) | {k.arg: k.value for k in node.keywords}
        values = {k: self.scalar(v) for k, v in given.items() if k != "size"}
        if "size" not in given or any(_scalar_kind(v) not in ("i", "f") or not math.isfinite(v) for v in values.values()) or \
                not math.isfinite(values.get("high", 1.0) - values.get("low", 0.0)):
            return None                            # numpy refuses a range it cannot hold (`uniform(-1e308, 1e308)`)
        if kind == "i" and (any(_scalar_kind(v) != "i" for v in values.values()) or
                            not (values.get("low", 0) < values["high"] if "high" in values else values.get("low", 0) > 0)):
            return None                            # numpy refuses an empty range of integers
        if values.get("scale", 0) < 0:
            return None
        shape = self._sizes([given["size"]])
        return None if shape is None else Abstract("ndarray", shape, kind)


# the comparisons a mask is made with, as numpy's operators run them
_COMPARISONS = {ast.Lt: operator.lt, ast.Gt: operator.gt, ast.LtE: operator.le, ast.GtE: operator.ge,
                ast.Eq: operator.eq, ast.NotEq: operator.ne}
_MASK_MAX = 1_000_000


def _flat(v):
    """The numbers of a nested list or tuple, in order."""
    return [x for e in v for x in _flat(e)] if type(v) in (list, tuple) else [v]


def _fits(v):
    """`v` where numpy takes it as a scalar of an array's arithmetic: an int within int64 (numpy
    raises OverflowError beyond it); else UNRESOLVED."""
    return v if type(v) is not int or -(1 << 63) <= v < (1 << 63) else UNRESOLVED


def numpy_ufunc(value):
    """`value` when it is one of numpy's own ufuncs (`np.sin`, read from numpy's globals), never
    one `np.frompyfunc` made of the user's function; else None."""
    np = sys.modules.get("numpy")
    if np is None or type(value) is not np.ufunc:
        return None
    return value if POLICY.module_members(np).get(value.__name__) is value else None


def _ufunc_kind(ufunc, *arrays: Abstract) -> str | None:
    """The dtype kind numpy's `ufunc` gives for inputs of these kinds (run on one element of
    each); None where a kind is not a number's or numpy has no loop for them."""
    np = sys.modules.get("numpy")
    if any(not numeric(a.kind) for a in arrays):
        return None
    ones = [np.ones(1, dtype=bool if a.kind == "b" else np.dtype(a.kind + "8")) for a in arrays]
    try:
        with np.errstate(all="ignore"):
            return ufunc(*ones).dtype.kind
    except TypeError:                   # no loop for these dtypes: numpy raises, another rule
        return None


# the most values of an np.mgrid the cell makes that are read (a grid beyond may not fit in memory)
_MAX_GRID = 1_000_000


def _grid_as_made(grid, *, sparse: bool) -> bool:
    """Is numpy's own `np.mgrid` (`np.ogrid`) still as numpy made it: dense (open), its
    `sparse` slot False (True), and of its own class, whose `__getitem__` is numpy's (read
    statically)?"""
    getitem = POLICY.static(type(grid), "__getitem__", None)
    if getitem is None or not POLICY.is_library(getitem):
        return False
    return POLICY.attribute(grid, "sparse") is sparse         # a slot: read by its C descriptor


def _numpy_member(name: str):
    """numpy's own module-level object of that name (np.mgrid), read from numpy's globals."""
    np = sys.modules.get("numpy")
    return POLICY.module_members(np).get(name) if np is not None else None


def concatenator(value) -> str | None:
    """"c_" or "r_" when `value` is numpy's own `np.c_` or `np.r_` (read from numpy's globals)."""
    return next((name for name in CONCATENATORS if _numpy_member(name) is value), None)


def _known(target) -> str | None:
    """The name of the library function `target` is, among those propagated through."""
    for module, names in _KNOWN:
        mod = sys.modules.get(module)
        if mod is None:
            continue
        for name in names:
            # the module's own function: one of the user's set there is not the library's
            if POLICY.module_members(mod).get(name) is target and POLICY.is_library(target) and \
                    (type(target) is not types.FunctionType or library_code(target)):
                return name             # (a wrapper of the user's copies `__module__`: its code's file)
    return None


# numpy's legacy RandomState's draws that take `size` as its Generator's do: the Generator draw
# whose parameters and dtype kind they share (`randint(low, high, size)` as `integers`)
_SPLITS = frozenset({"split", "array_split", "vsplit", "hsplit", "dsplit"})
_RANDOM_STATE_DRAWS = {"standard_normal": "standard_normal", "random_sample": "random", "random": "random",
                       "normal": "normal", "uniform": "uniform", "randint": "integers"}


_KNOWN = (("numpy", ("zeros", "ones", "empty", "full", "arange", "array", "asarray", "linspace", "meshgrid",
                     "convolve", "histogram", "histogram2d", "split", "array_split", "vsplit", "hsplit", "dsplit",
                     *JOIN_FUNCTIONS,
                     "expand_dims", "reshape", "transpose", "matmul", "dot", *_REDUCTIONS)),
          ("numpy.random", ("rand", "randn", "random", "random_sample", "standard_normal", "default_rng",
                            "normal", "uniform", "randint", "multivariate_normal")),
          ("pandas", ("get_dummies", "DataFrame", "Series")),
          ("sklearn.model_selection", ("train_test_split",)),
          ("sklearn.preprocessing", ("add_dummy_feature",)),
          ("sklearn.datasets", _GENERATORS),
          ("matplotlib.pyplot", ("subplots", "axes", "figure", "hist")))
