"""Does a library's rule on its inputs' shapes reject a call with the live inputs? Computed from
shapes and dtypes only, as the library computes them before it touches the data:

    numpy         `a @ b`, `np.dot`, `np.matmul`: the inner dimensions; `+ - * /` between two
                  arrays: broadcasting; `a.reshape(...)`, `np.reshape`: the sizes; `np.concatenate`,
                  `np.vstack`, `np.hstack`, `np.column_stack` of a literal list and `np.c_[...]`,
                  `np.r_[...]`: the other dimensions, the arrays lifted as each join lifts them
                  (abstract_value.JOINS); `axis=` beyond
                  the array's dimensions (numpy.exceptions.AxisError; `np.expand_dims`: the
                  result's) for numpy's functions whose signature takes the array first and
                  an optional `axis`, ndarray's methods of those names and a ufunc's
                  reduce/accumulate/reduceat, where the installed numpy raises it first on a
                  one-element array of that dtype with the call's literal arguments; a literal
                  index beyond a dimension, or more indices than dimensions (IndexError)
    scikit-learn  `est.fit(X, ...)`, `predict(X)`, ...: X a 1-D array or a Series where the
                  estimator's tags say it takes 2-D X only; X a DataFrame with a text column
                  where they say it takes numbers only (no encoder in front); a NaN in X where
                  they do not take missing values (`allow_nan`), and in y at an estimator that
                  needs y (check_X_y's `_check_y`), among the first values; PCA's and
                  TruncatedSVD's n_components and the k-means' n_clusters beyond X's shape
                  (estimators.size_problem); the estimator
                  that reads X first for a Pipeline, GridSearchCV, RandomizedSearchCV and
                  cross_val_score / cross_validate / cross_val_predict; their arrays, and
                  train_test_split's, of different numbers of samples
    pandas        `s.str` on a Series of numbers, booleans or datetimes, `s.dt` on one that holds
                  no datetimes, `s.cat` on one that is not categorical: AttributeError; `axis=`
                  an axis a DataFrame or Series does not have, or pd.concat (ValueError: No axis named)

pandas' rules on a column's values (conversions, arithmetic) are in column_values.py, its row
labels and group names in labels.py, positions (iloc, matplotlib's grid of Axes) in positions.py.

scikit-learn's X is also read from a literal (`model.predict([1, 2, 3])`, a row of text), as
the array its `check_array` makes of it (abstract_value.array_like).

The inputs are read as "a shape and dtype" (abstract.shaped): of a live object whose class is
numpy's `ndarray` or pandas' `Series`/`DataFrame` itself (never a subclass), only its `shape`,
`ndim`, `dtype` and `size` (C slots, or pandas' own properties), or of a value the cell itself
makes, carried through known library calls (abstract.py; a size it leaves unknown is no claim).
Numeric dtypes only, where the shape check surely comes first; of a value the cell makes, also
matplotlib's axes: `axes[3]` on those of `plt.subplots(1, 3)` (IndexError), one Axes subscripted
(TypeError). Anything else, or any doubt, is no claim.
"""
from __future__ import annotations

import ast
import builtins
import functools
import inspect
import math
import sys
import types
import warnings
from collections.abc import Callable

from .abstract import Fields, Propagation, concatenator
from .abstract_value import (CONCATENATORS, JOIN_FUNCTIONS, Abstract, _literal, array_like, distinct_at_least, joining,
                             literal_int as _literal_int, numeric, shaped)
from .claims import Live, Text, ValueClaim
from .parameters import mapping_x_problem
from .python_types import unpacking_claim
from .estimators import (SIZED_FITS, UNCHECKED_INPUT, WITH_Y, _requires_y, _samples, holds_2d_only, size_problem, sklearn_classes,
                         sklearn_estimator)
from .instances import Instance, estimator_class
from .items import plain_labels
from .namespace import PYTHON_TYPES, UNRESOLVED, Made, chain_root, written_literal
from .read_policy import POLICY

# the estimator methods whose X scikit-learn validates as 2-D first
TAKES_X = frozenset({"fit", "partial_fit", "fit_transform", "fit_predict", "predict", "predict_proba",
                     "predict_log_proba", "decision_function", "transform", "score"})
# the names of an array's parameter first in numpy's signatures (not a sequence of arrays, a
# start value or a function)
_ARRAY_PARAMETERS = frozenset({"a", "arr", "ary", "ar", "m", "x", "y", "f", "p", "filt"})
# a ufunc's methods whose `axis=` names a dimension of the array given first
_UFUNC_AXIS_METHODS = frozenset({"reduce", "accumulate", "reduceat"})
# scikit-learn's helpers that fit clones of an estimator on X (estimator, X, y, ...): when every
# fit fails they raise ValueError (cross_val_predict: the fit's own)
_CROSS_VALIDATION = ("cross_val_score", "cross_validate", "cross_val_predict")
# parameters of scikit-learn's meta-estimators that hold other estimators
_HOLDERS = frozenset({"estimator", "estimators", "base_estimator", "final_estimator", "regressor", "classifier",
                      "transformer", "transformers", "transformer_list", "steps"})
# a text column's values read to find one that is not a number (scikit-learn converts X to floats)
TEXT_SCAN_ROWS = 1000
# X's values read for a NaN, at most (a NaN past them is no claim)
NAN_SCAN_VALUES = 1_000_000
# pandas' accessors and the dtype kinds each refuses (numpy's kind letters; "O" is object)
_ACCESSORS = {"str": ("biufcmM", "Can only use .str accessor with string values!"),
              "dt": ("biufcO", "Can only use .dt accessor with datetimelike values"),
              "cat": ("biufcmMO", "Can only use .cat accessor with a 'category' dtype")}
_ARITHMETIC = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}




def _np():
    return sys.modules.get("numpy")


def _array(v) -> Abstract | None:
    """The shape and dtype of `v` when it is a numpy ndarray (live, or one the cell makes) of a
    numeric dtype; else None."""
    np = _np()
    if not issubclass(type(v), Abstract) and (np is None or type(v) is not np.ndarray):
        return None                 # a frame's columns are not read for nothing
    a = shaped(v)
    return a if a is not None and a.like == "ndarray" and numeric(a.kind) else None


def _shape(a) -> str:
    return "(" + ",".join("?" if d is None else str(d) for d in a.shape) + ("," if a.ndim == 1 else "") + ")"


# -- numpy ------------------------------------------------------------------------------------------

_BITWISE = {ast.BitAnd: "bitwise_and", ast.BitOr: "bitwise_or", ast.BitXor: "bitwise_xor",
            ast.LShift: "left_shift", ast.RShift: "right_shift"}


def binop_claim(n: ast.BinOp, live: Live) -> ValueClaim | None:
    """`a @ b` with inner dimensions that differ; `a + b` (- * /) with shapes that do not broadcast;
    `x ^ 2` (& | << >>) of an array of floats (numpy's bitwise ufuncs take ints and bools only)."""
    if type(n.op) in _BITWISE:
        return _bitwise_claim(n, live)
    if isinstance(n.op, ast.Mod) and isinstance(n.left, ast.Constant) and type(n.left.value) is str:
        return _percent_claim(n, live)
    if not isinstance(n.op, (ast.MatMult, *_ARITHMETIC)):
        return None
    a, b = _array(live(n.left)), _array(live(n.right))
    if isinstance(n.op, ast.Pow) and a is not None and a.kind == "i" and a.is_data() and \
            None not in a.shape and math.prod(a.shape) > 0 and type(power := _literal_int(n.right)) is int and power < 0:
        return ValueClaim(n, f"{ast.unparse(n)}: an array of integers to a negative integer power: ValueError "
                             "(Integers to negative integer powers are not allowed; np.linalg.inv inverts a "
                             "matrix)", "ValueError")
    # a list written out beside an array: numpy makes it an array (two lists: Python's own +)
    if a is not None and b is None and isinstance(n.right, ast.List):
        b = _list_array(n.right, live)
    elif b is not None and a is None and isinstance(n.left, ast.List):
        a = _list_array(n.left, live)
    if a is None or b is None:
        return None
    if isinstance(n.op, ast.MatMult):
        message = _matmul_problem(a, b)
    else:
        message = _broadcast_problem(a, b)
    return ValueClaim(n, message, "ValueError") if message else None


def store_claim(s: ast.Assign, live: Live) -> ValueClaim | None:
    """`a[2:5] = [997, 998]`, `img[:, :10] = [0, 0, 0.6, 1]`: numpy copies the value into the
    part the index picks (basic indexing of an array, live or made by the cell, its shape known),
    broadcasting it there: a value of a shape that does not broadcast to the part's is ValueError."""
    from .abstract_value import _indexed
    if len(s.targets) != 1 or not isinstance(s.targets[0], ast.Subscript):
        return None
    target = s.targets[0]
    base = _array(live(target.value))
    if base is None or None in base.shape:
        return None
    part = _indexed(base, Propagation(live).index(target.slice))
    value = _list_array(s.value, live) if isinstance(s.value, ast.List) else _array(live(s.value))
    if part is None or part.like != "ndarray" or value is None or None in part.shape or None in value.shape:
        return None
    if len(value.shape) > len(part.shape) and any(d != 1 for d in value.shape[:len(value.shape) - len(part.shape)]) or \
            any(v not in (1, p) for v, p in zip(value.shape[::-1], part.shape[::-1])):
        return ValueClaim(s.value, f"{ast.unparse(target)} = {ast.unparse(s.value)}: ValueError (could not broadcast "
                                   f"input array from shape {_shape(value)} into shape {_shape(part)})", "ValueError",
                          subjects=tuple(dict.fromkeys(x.id for x in (*ast.walk(target), *ast.walk(s.value))
                                                       if isinstance(x, ast.Name))))
    return None


def _list_array(node: ast.List, live: Live) -> Abstract | None:
    """The array numpy makes of a list written out of numbers (rectangular): its shape and kind."""
    a = array_like(node, live)
    return a if a is not None and a.like == "ndarray" and numeric(a.kind) else None


# the objects whose truth Python asks where the cell writes `and`, `or`, `not`, `if`, `while`, `assert`
_TRUTH_ADVICE = {"BoolOp": "combine conditions with & or | (each in parentheses)",
                 "UnaryOp": "use ~ for elementwise not", "test": "use .any(), .all() or .empty"}


def truth_claim(node: ast.expr, where: str, live: Live) -> ValueClaim | None:
    """`s > 0 and t > 0`, `if df:`, `not arr`: Python asks the object's truth (`where`: a BoolOp's
    first operand, a `not`'s operand, or a test). pandas' Series, DataFrame and Index refuse it
    whatever they hold, as numpy's array does for two elements or more: ValueError. The object
    live (of the library's own class), made by the cell, or a comparison of a live Series of
    numbers with a Python number (a Series of bools)."""
    pd = sys.modules.get("pandas")
    v = live(node)
    kind = None
    if pd is not None and type(v) in (pd.Series, pd.DataFrame, pd.Index):
        kind = type(v).__name__
    elif issubclass(type(v), Abstract) and v.like in ("Series", "DataFrame"):
        kind = v.like
    elif pd is not None and isinstance(node, ast.Compare) and _series_compared(node, live, pd):
        kind = "Series"
    else:
        a = _array(v)
        if a is not None and a.ndim >= 1 and None not in a.shape and math.prod(a.shape) >= 2:
            kind = "array"
    if kind is None or kind != "array" and not _pandas_truth(getattr(pd, kind)):
        return None
    said = "an array with more than one element" if kind == "array" else f"a {kind}"
    return ValueClaim(node, f"{ast.unparse(node)} is {said}: its truth is ambiguous: ValueError "
                            f"({_TRUTH_ADVICE[where]})", "ValueError")


def extremes_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    """`min(big_array, max(big_array))`: Python's `min` or `max` of two values or more compares
    them and asks each comparison's truth; with numpy's array of two elements or more among them
    (the others Python's or numpy's numbers, or arrays of its shape), the comparison is an array:
    its truth is ambiguous, ValueError."""
    np = _np()
    if np is None or not any(target is f for f in _EXTREMES) or n.keywords or \
            len(n.args) < 2 or any(isinstance(a, ast.Starred) for a in n.args):
        return None
    values = [live(a) for a in n.args]
    arrays = [_array(v) for v in values]
    shapes = {tuple(a.shape) for a in arrays if a is not None}
    if len(shapes) != 1 or any(None in s or math.prod(s) < 2 or not s for s in shapes):
        return None
    if not all(a is not None or _number(node, v, live, np) for node, a, v in zip(n.args, arrays, values)):
        return None
    names = tuple(dict.fromkeys(x.id for a in n.args for x in ast.walk(a) if isinstance(x, ast.Name) and
                                not (hasattr(builtins, x.id) and live(x) is getattr(builtins, x.id))))
    return ValueClaim(n.func, f"{target.__name__}() compares an array with more than one element: its truth is "
                              f"ambiguous: ValueError (np.{target.__name__}imum of two, or np.{target.__name__} "
                              "of one array)", "ValueError", callee=True, subjects=names)


_EXTREMES = (builtins.min, builtins.max)     # Python's own, as this module found them (not a patched builtins')


def _number(node: ast.expr, v, live: Live, np) -> bool:
    """Is the argument a number: Python's or numpy's (live or written), `len(...)`, or Python's
    `min`, `max` or `sum` of one 1-D array (its item, numpy's number)?"""
    if type(v) in (int, float, bool) or type(_literal(node)) in (int, float):
        return True
    if issubclass(type(v), np.number) and type(v).__module__ == "numpy":
        return True
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 and
            not node.keywords and not isinstance(node.args[0], ast.Starred)):
        return False
    f = live(node.func)
    if f is builtins.len:
        return True
    a = _array(live(node.args[0])) if any(f is g for g in (builtins.min, builtins.max, builtins.sum)) else None
    return a is not None and a.ndim == 1 and a.shape[0] is not None and a.shape[0] >= 1


def _pandas_truth(cls) -> bool:
    """Is the class's `__bool__` pandas' own (the one that refuses), not one the user set on it?"""
    from .libraries import own_function
    return own_function(POLICY.static(cls, "__bool__", None), "pandas")


def _series_compared(node: ast.Compare, live: Live, pd) -> bool:
    """`df["age"] < 30`: one comparison of a live Series of numbers (numpy's numeric dtype) with a
    Python int or float: pandas makes a Series of bools."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Lt, ast.Gt, ast.LtE, ast.GtE, ast.Eq, ast.NotEq)):
        return False
    for series, number in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
        s, x = live(series), _literal(number)
        if x is UNRESOLVED and isinstance(number, ast.Name):
            x = live(number)
        if type(s) is pd.Series and type(s.dtype).__module__.split(".")[0] == "numpy" and \
                s.dtype.kind in "biuf" and type(x) in (int, float):
            return True
    return False


def _percent_claim(n: ast.BinOp, live: Live) -> ValueClaim | None:
    """`"x = %0.2f, y = %0.2f" % (px)`: Python's printf-style formatting of a literal with values
    known exactly (literals, or names the cell bound to Python's numbers and strings); a tuple
    written out is its items, anything else one value. What Python's `%` raises on them
    (too few or too many values, a number for %d of text) is the cell's."""
    def known(node):
        v = _literal(node)
        if v is UNRESOLVED:
            v = live(node)
            v = v.literal() if issubclass(type(v), Made) else v
        return v if type(v) in (int, float, str, bool) else UNRESOLVED
    items = n.right.elts if isinstance(n.right, ast.Tuple) else [n.right]
    if any(isinstance(e, ast.Starred) for e in items) or len(n.left.value) > 2000:
        return None
    values = [known(e) for e in items]
    if UNRESOLVED in values or any(type(v) is str and len(v) > 2000 for v in values):
        return None
    try:
        n.left.value % (tuple(values) if isinstance(n.right, ast.Tuple) else values[0])
    except (TypeError, ValueError, KeyError) as e:
        exception = type(e).__name__
        return ValueClaim(n, f"{ast.unparse(n)}: {e}: {exception}", exception)
    return None


def _bitwise_claim(n: ast.BinOp, live: Live) -> ValueClaim | None:
    """A numpy array (live, or one the cell makes) and another array or a Python number, one of
    them floats or complex: numpy finds no loop of its bitwise ufunc for them (TypeError), before
    it broadcasts. `x^2` is the usual slip for `x**2`."""
    kinds = []
    for side in (n.left, n.right):
        v = live(side)
        a = _array(v)
        if a is not None and a.kind is not None:
            kinds.append(("array", a.kind))
            continue
        x = _literal(side)
        x = v if x is UNRESOLVED else x
        if type(x) in (bool, int, float, complex):
            kinds.append(("number", {bool: "b", int: "i", float: "f", complex: "c"}[type(x)]))
        else:
            return None
    if kinds == [("array", "b")] * 2 or kinds == [("array", "i")] * 2:     # two masks: they broadcast first
        message = _broadcast_problem(_array(live(n.left)), _array(live(n.right)))
        return ValueClaim(n, message, "ValueError") if message else None
    if not any(k == "array" for k, _ in kinds) or not any(c in "fc" for _, c in kinds):
        return None
    ufunc = _BITWISE[type(n.op)]
    return ValueClaim(n, f"{ast.unparse(n)}: numpy's {ufunc} takes ints and bools, not floats: TypeError (ufunc "
                         f"{ufunc!r} not supported for the input types)" +
                         ("; ** raises to a power" if isinstance(n.op, ast.BitXor) else ""), "TypeError")


def unpack_claim(s: ast.Assign, live: Live) -> ValueClaim | None:
    """`fig, ax1, ax2 = plt.subplots(2, 1)`, `x, y, s = np.random.rand(100, 3)`: Python unpacks as
    many values as the value holds, known exactly: a tuple a known call makes (its items), an
    array's rows (live, or one the cell makes), a live list or tuple of Python's own. Other than
    the targets (no starred one): ValueError; a value Python cannot iterate: TypeError."""
    if len(s.targets) != 1 or not isinstance(s.targets[0], (ast.Tuple, ast.List)) or \
            any(isinstance(t, ast.Starred) for t in s.targets[0].elts):
        return None
    expected = len(s.targets[0].elts)
    v = live(s.value)
    np = _np()
    if type(v) in (tuple, list, Fields):
        got = len(v)
    elif issubclass(type(v), Abstract) and v.like == "ndarray" or np is not None and type(v) is np.ndarray:
        a = shaped(v)
        if a is None or a.ndim < 1 or type(a.shape[0]) is not int:
            return None
        got = a.shape[0]
    else:
        return unpacking_claim(s, live)
    if got == expected:
        return None
    said = f"not enough values to unpack (expected {expected}, got {got})" if got < expected else \
        f"too many values to unpack (expected {expected}, got {got})"
    # the value's names, its library's module too (`np.random.rand(100, 3)` reads nothing else)
    return ValueClaim(s.value, f"{ast.unparse(s.targets[0])} = {ast.unparse(s.value)}: {got} values for "
                               f"{expected} names: ValueError ({said})", "ValueError",
                      subjects=tuple(dict.fromkeys(x.id for x in ast.walk(s.value) if isinstance(x, ast.Name))))


# numpy.linalg's functions of square matrices (a stack of them): the first array is checked first
_SQUARE = ("solve", "inv", "det", "slogdet", "eig", "eigvals", "eigh", "eigvalsh", "cholesky", "matrix_power")


def _square_claim(n: ast.Call, name: str, a: Abstract | None) -> ValueClaim | None:
    """`np.linalg.solve(b, A)` of a 1-D first array, `np.linalg.inv(X)` of a non-square one:
    numpy's LinAlgError (a ValueError) before it computes."""
    if a is None or a.ndim is None or a.ndim >= 2 and (None in a.shape[-2:] or a.shape[-1] == a.shape[-2]):
        return None
    said = f"{a.ndim}-dimensional array given. Array must be at least two-dimensional" if a.ndim < 2 else \
        "Last 2 dimensions of the array must be square"
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {ast.unparse(n.args[0])} has shape {_shape(a)}: LinAlgError "
                              f"({said})", "LinAlgError", callee=True)


def _lstsq_claim(n: ast.Call, a: Abstract | None, b: Abstract | None) -> ValueClaim | None:
    """`np.linalg.lstsq(a, b)`: a 2-D `a` and a 1-D or 2-D `b` of another number of rows:
    numpy's LinAlgError ("Incompatible dimensions"; a ValueError)."""
    if a is None or b is None or a.ndim != 2 or b.ndim not in (1, 2) or None in (a.shape[0], b.shape[0]) or \
            a.shape[0] == b.shape[0]:
        return None
    return ValueClaim(n.func, f"np.linalg.lstsq: a has {a.shape[0]} rows but b has {b.shape[0]}: LinAlgError "
                              "(Incompatible dimensions)", "LinAlgError", callee=True)


def _matmul_problem(a, b) -> str | None:
    if a.ndim == 0 or b.ndim == 0:
        return None             # numpy's own ValueError, but of another kind: left alone
    k_a = a.shape[-1]
    k_b = b.shape[-2] if b.ndim >= 2 else b.shape[0]
    if k_a == k_b or None in (k_a, k_b):
        return None
    return (f"matmul of shapes {_shape(a)} and {_shape(b)}: Input operand 1 has a mismatch in its core "
            f"dimension 0 (size {k_b} is different from {k_a}): ValueError")


def _dot_problem(a, b) -> str | None:
    if a.ndim == 0 or b.ndim == 0:
        return None             # a scalar: multiplication
    k_b_dim = b.ndim - 2 if b.ndim >= 2 else 0
    k_a, k_b = a.shape[-1], b.shape[k_b_dim]
    if k_a == k_b or None in (k_a, k_b):
        return None
    return (f"shapes {_shape(a)} and {_shape(b)} not aligned: {k_a} (dim {a.ndim - 1}) != {k_b} "
            f"(dim {k_b_dim}): ValueError")


def _broadcast_problem(a, b) -> str | None:
    for x, y in zip(reversed(a.shape), reversed(b.shape)):
        if x != y and x != 1 and y != 1 and None not in (x, y):
            return f"operands could not be broadcast together with shapes {_shape(a)} {_shape(b)}: ValueError"
    return None


def call_claim(n: ast.Call, target, live: Live, live_unchanged: Live, text: Text, *,
               fitted_here: Callable[[object], bool] = lambda est: False) -> ValueClaim | None:
    """The numpy or scikit-learn call `n` (its callee's object `target`) that the inputs break.
    `live` gives an argument's object while the cell has not changed it; `live_unchanged` the
    object whose class alone matters (an estimator); `text` a node's text, for the fixes;
    `fitted_here`, is an estimator the cell made fitted by the cell before `n`."""
    if any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    try:
        if isinstance(n.func, ast.Attribute):
            claim = _method_claim(n, live, live_unchanged, text, fitted_here)
            if claim is not None:
                return claim
        return _function_claim(n, target, live, text)
    except Exception:  # noqa: BLE001 - a library that reads otherwise: no claim
        return None


def _function_claim(n: ast.Call, target, live: Live, text: Text) -> ValueClaim | None:
    if target is builtins.round and type(target) is types.BuiltinFunctionType:
        return _round_claim(n, live, text)
    if (claim := _made_from_literals(n, target, live)) is not None or (claim := _math_claim(n, target, live)) is not None:
        return claim
    selection = sys.modules.get("sklearn.model_selection")
    if selection is not None and any(getattr(selection, f, None) is target for f in _CROSS_VALIDATION):
        given = dict(zip(("estimator", "X", "y"), n.args)) | {k.arg: k.value for k in n.keywords}
        if "estimator" not in given:
            return None
        return _x_claim_of(n, given.get("X"), live(given["estimator"]), "fit", live, text, y_node=given.get("y")) or \
            _lengths_claim(n, [given.get("X"), given.get("y")], live)
    if selection is not None and target is getattr(selection, "train_test_split", None):
        return _lengths_claim(n, list(n.args), live)
    datasets = sys.modules.get("sklearn.datasets")
    if datasets is not None and target is POLICY.module_members(datasets).get("make_blobs"):
        return _blobs_claim(n, target, live)
    np = _np()
    if np is None or not n.args:
        return None
    keywords = {k.arg: k.value for k in n.keywords}
    linalg = sys.modules.get("numpy.linalg")
    if linalg is not None and POLICY.module_members(linalg).get("lstsq") is target and len(n.args) == 2 and \
            set(keywords) <= {"rcond"}:
        return _lstsq_claim(n, _array(live(n.args[0])), _array(live(n.args[1])))
    square = next((f for f in _SQUARE if linalg is not None and POLICY.module_members(linalg).get(f) is target), None)
    if square is not None and n.args and not n.keywords and POLICY.is_library(target) and \
            str(getattr(target, "__module__", "")).startswith("numpy"):
        return _square_claim(n, square, _array(live(n.args[0])))
    if "axis" in keywords and _ufunc_axis_method(target, np):
        return _axis_claim(keywords["axis"], _array(live(n.args[0])), probe=(target, _given(n.args[1:])))
    # numpy's own names only: its module __getattr__ warns on removed ones (`np.str`); a callable
    # of the user's is not asked its name (its `__getattr__` would run)
    name = getattr(target, "__name__", None) if POLICY.is_library(target) else None
    if type(name) is not str or POLICY.module_members(np).get(name) is not target:
        return None
    if name in ("dot", "matmul") and len(n.args) == 2 and not keywords:
        a, b = _array(live(n.args[0])), _array(live(n.args[1]))
        if a is None or b is None:
            return None
        message = (_dot_problem if name == "dot" else _matmul_problem)(a, b)
        if message is None:
            return None
        return ValueClaim(n.func, ("np.dot: " if name == "dot" else "np.") + message, "ValueError", callee=True)
    if name in _QUANTILES and len(n.args) >= 2 and (claim := _quantile_claim(n, name, live)) is not None:
        return claim                        # (numpy checks q before the axis)
    if name == "reshape" and len(n.args) == 2 and set(keywords) <= {"order"}:
        a = _array(live(n.args[0]))
        return _reshape_claim(n.func, a, _sizes_given([n.args[1]], live))
    if name in JOIN_FUNCTIONS and len(n.args) == 1:
        return _join_claim(n.func, n.args[0], name, live, keywords)
    if "axis" in keywords and name in axis_functions():
        return _axis_claim(keywords["axis"], _array(live(n.args[0])), probe=(target, _given(n.args[1:])))
    if name == "expand_dims" and len(n.args) + len(keywords) == 2 and set(keywords) <= {"axis"}:
        return _axis_claim(n.args[1] if len(n.args) == 2 else keywords["axis"], _array(live(n.args[0])), added=1)
    return None


def _method_claim(n: ast.Call, live: Live, live_unchanged: Live, text: Text,
                  fitted_here: Callable[[object], bool]) -> ValueClaim | None:
    method = n.func.attr
    keywords = {k.arg: k.value for k in n.keywords}
    owner = live(n.func.value)
    a = _array(owner)
    if a is not None:
        if method == "reshape" and n.args and set(keywords) <= {"order"}:
            return _reshape_claim(n.func, a, _sizes_given(n.args, live))
        if "axis" in keywords and method in axis_functions() and method in _ndarray_methods():
            return _axis_claim(keywords["axis"], a, probe=(method, _given(n.args)))
        return None
    if "axis" in keywords:      # a frame the cell changed is still a frame: its axes are its class's
        claim = pandas_axis_claim(n, owner if owner is not UNRESOLVED else live_unchanged(n.func.value))
        if claim is not None:
            return claim
    if method in TAKES_X:
        est = owner if owner is not UNRESOLVED else live_unchanged(n.func.value)
        return _x_claim(n, est, live, text, fitted=fitted_here(est))
    return None


# numpy's functions that make an array of their literal arguments alone; the legacy random ones are
# asked of a RandomState of their own (the global one's state is the user's)
_MAKERS = frozenset({"zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "geomspace", "eye",
                     "identity", "array", "asarray", "tri", "datetime64", "timedelta64", "dtype"})
_DRAWS = frozenset({"rand", "randn", "randint", "random_sample", "normal", "uniform", "standard_normal",
                    "binomial", "poisson", "permutation", "choice"})
# how many numbers, and how large a product of the ints, a literal call is asked with
_MOST_NUMBERS, _MOST_SIZE = 10_000, 1_000_000


def _made_from_literals(n: ast.Call, target, live: Live) -> ValueClaim | None:
    """`np.zeros(3, 4)`, `np.random.rand((3, 4))`, `np.array([[1, 1000]], dtype=np.int8)`: numpy's
    own function given literals alone (and numpy's scalar types) is asked with them, small
    (TypeError, ValueError, OverflowError as numpy raises it)."""
    np = _np()
    if np is None or not POLICY.is_library(target):
        return None
    name = getattr(target, "__name__", None)
    members = POLICY.module_members(np)
    random = POLICY.module_members(members["random"]) if "random" in members else {}
    if name in _MAKERS and members.get(name) is target:
        ask = members[name]
    elif name in _DRAWS and random.get(name) is target and POLICY.is_library(random.get("RandomState")) and \
            str(getattr(random.get("RandomState"), "__module__", "")).startswith("numpy"):
        ask = getattr(random["RandomState"](0), name)
    else:
        return None
    try:
        args = [_small_literal(a, live, np) for a in n.args]
        keywords = {k.arg: _small_literal(k.value, live, np) for k in n.keywords}
    except ValueError:
        return None
    numbers = [x for x in _flat_numbers([*args, *keywords.values()])]
    # (the numbers np.array is given are its values, each one element; elsewhere ints may be sizes)
    ints = [x for x in numbers if type(x) is int] if name not in ("array", "asarray") else []
    if len(numbers) > _MOST_NUMBERS or any(abs(x) > _MOST_SIZE for x in ints) or \
            functools.reduce(lambda a, b: a * max(abs(b), 1), ints, 1) > _MOST_SIZE or \
            name == "arange" and any(type(x) is float for x in numbers):
        return None                         # (a float step may make many elements of few numbers)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ask(*args, **keywords)
    except (TypeError, ValueError, OverflowError) as e:
        exception = type(e).__name__
        # what is read: numpy (its module's name) and the names of the values given (a type given,
        # `dtype=int`, is code, not data)
        written = [x.id for a in [*n.args, *(k.value for k in n.keywords)] for x in ast.walk(a)
                   if isinstance(x, ast.Name) and type(live(x)) is not type]
        root = chain_root(n.func)
        return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {' '.join(str(e).split())[:160]}: {exception}",
                          exception, callee=True, subjects=tuple(dict.fromkeys([root, *written])) if root else None)
    except Exception:  # noqa: BLE001 - anything else: not claimed
        return None
    return None


def _small_literal(node: ast.expr, live: Live, np):
    """A literal (numbers, text, None, lists and tuples of them), one the cell wrote into a name
    before (`x = [1, None]`), numpy's own scalar type (`np.int8`) or Python's (`dtype=int`, the
    name left as Python's), a tuple or list display of those (`(m, 1)`); ValueError otherwise."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        pass
    if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        items = [_small_literal(e, live, np) for e in node.elts]     # `(m, 1)`: each item so read
        return tuple(items) if isinstance(node, ast.Tuple) else items
    v = live(node)
    if (written := written_literal(v)) is not UNRESOLVED:
        return written
    if type(v) in (int, float):         # a number the kernel holds or the cell computed (`X.shape[1]`)
        return v
    if issubclass(type(v), Made) and type(v.literal()) in (int, float):
        return v.literal()
    if type(v) is type and (issubclass(v, np.generic) and POLICY.is_library(v) or any(v is t for t in PYTHON_TYPES)):
        return v
    raise ValueError(ast.unparse(node))


def _flat_numbers(values):
    for v in values:
        if type(v) in (list, tuple):
            yield from _flat_numbers(v)
        elif type(v) in (int, float, bool):
            yield v


# the math module's functions of one number (numpy's arrays of more than one element are none)
_MATH_OF_ONE = frozenset({"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log",
                          "log10", "log2", "sqrt", "floor", "ceil", "fabs", "degrees", "radians", "trunc", "expm1",
                          "log1p", "erf", "erfc", "gamma", "lgamma"})


def _math_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    """`math.sin(X * Y / 40.5)` of a numpy array of two or more elements (live, or one the cell
    makes): math converts its argument to one float: TypeError (numpy's own `np.sin` takes arrays)."""
    members = POLICY.module_members(math)
    name = next((f for f in _MATH_OF_ONE if members.get(f) is target), None)     # (no name asked of `target`)
    if name is None or type(target) is not types.BuiltinFunctionType or len(n.args) != 1 or n.keywords:
        return None                         # (a function the user set on math: theirs)
    a = _array(live(n.args[0]))
    if a is None or None in a.shape or math.prod(a.shape) < 2:
        return None
    return ValueClaim(n.func, f"math.{name}(): {ast.unparse(n.args[0])} is an array of shape {_shape(a)}: TypeError "
                              "(only 0-dimensional arrays can be converted to Python scalars; numpy's "
                              f"np.{name} takes arrays)", "TypeError", callee=True)


def _round_claim(n: ast.Call, live: Live, text: Text) -> ValueClaim | None:
    """`round(probs, 3)` of a numpy array (live, or one the cell makes): Python's round asks the
    type for `__round__`, which numpy's ndarray lacks (its scalars and pandas' objects have one):
    TypeError. The fix: the array's own, `probs.round(3)`."""
    np = _np()
    if np is None or n.keywords or not 1 <= len(n.args) <= 2 or isinstance(n.args[0], ast.Starred):
        return None
    v = live(n.args[0])
    if not (type(v) is np.ndarray or issubclass(type(v), Abstract) and v.like == "ndarray"):
        return None
    written = [text(a) for a in n.args]
    if None not in written and not isinstance(n.args[0], (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
        written[0] = f"({written[0]})"
    fixes = [f"{written[0]}.round({written[1] if len(written) > 1 else ''})"] if None not in written else []
    return ValueClaim(n, f"round(): {ast.unparse(n.args[0])} is a numpy array, which has no __round__: "
                         "TypeError (use np.round or the array's .round)", "TypeError", fixes,
                      subjects=tuple(dict.fromkeys(x.id for x in ast.walk(n.args[0]) if isinstance(x, ast.Name))))


# numpy's quantiles and percentiles, and the range each takes q in
_QUANTILES = {"quantile": (1, "Quantiles must be in the range [0, 1]"),
              "nanquantile": (1, "Quantiles must be in the range [0, 1]"),
              "percentile": (100, "Percentiles must be in the range [0, 100]"),
              "nanpercentile": (100, "Percentiles must be in the range [0, 100]")}


def _quantile_claim(n: ast.Call, name: str, live: Live) -> ValueClaim | None:
    """`np.quantile(a, 95)`: numpy checks q against its range once it has the array (a complex
    array is its TypeError first): ValueError for a number, or a list of them, outside it. `a`
    numbers (not complex), live or made by the cell; q a literal or a Python number it holds."""
    a = _array(live(n.args[0]))
    q = _literal(n.args[1])
    if q is UNRESOLVED:
        v = live(n.args[1])
        q = v.literal() if issubclass(type(v), Made) else v
    values = list(q) if type(q) in (list, tuple) else [q]
    if a is None or a.kind == "c" or not values or \
            not all(type(v) in (int, float) for v in values):
        return None
    top, said = _QUANTILES[name]
    if all(0 <= v <= top for v in values):
        return None
    return ValueClaim(n.args[1], f"np.{name}(): q={ast.unparse(n.args[1])}: {said}: ValueError", "ValueError")


def _blobs_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    """`make_blobs(centers=points, cluster_std=stds)` with as many centers as n_samples an int
    makes (an int, or the rows of an array-like of points) and a cluster_std of another length:
    scikit-learn's ValueError (its parameters' own checks pass first: numbers, literal or made)."""
    try:
        given = inspect.signature(target).bind(*n.args, **{k.arg: k.value for k in n.keywords if k.arg}).arguments
    except TypeError:
        return None
    if any(k.arg is None for k in n.keywords) or "cluster_std" not in given:
        return None
    integer = Propagation(live).integer
    samples = integer(given["n_samples"]) if "n_samples" in given else 100
    centers = integer(given["centers"]) if "centers" in given else 3
    if type(samples) is not int or samples < 1:
        return None
    if type(centers) is not int:
        points = array_like(given["centers"], live) if "centers" in given else None
        if points is None or points.like != "ndarray" or points.ndim != 2 or not numeric(points.kind) or \
                type(points.shape[0]) is not int:
            return None
        centers = points.shape[0]
    spread = array_like(given["cluster_std"], live)
    if centers < 1 or spread is None or spread.like != "ndarray" or spread.ndim != 1 or not numeric(spread.kind) or \
            type(spread.shape[0]) is not int or spread.shape[0] == centers:
        return None
    return ValueClaim(given["cluster_std"], f"make_blobs(): cluster_std={ast.unparse(given['cluster_std'])} has "
                      f"{spread.shape[0]} values for {centers} centers: ValueError (Length of `clusters_std` not "
                      "consistent with number of centers)", "ValueError")


def _sizes_given(args: list[ast.expr], live: Live) -> tuple[int, ...] | None:
    """reshape's sizes as the propagation reads them (Propagation.sizes_or_minus: literals, ints
    the cell or the kernel holds, `X.shape[0]`, `len(x)`), or a whole shape given as one argument:
    an array's `.shape` where every size is known, a tuple of ints the cell or the kernel holds."""
    propagation = Propagation(live)
    if len(args) == 1 and not isinstance(args[0], (ast.Tuple, ast.List)) and \
            (whole := _whole_shape(args[0], live)) is not None:
        return whole
    return propagation.sizes_or_minus(args)


def _whole_shape(node: ast.expr, live: Live) -> tuple[int, ...] | None:
    if isinstance(node, ast.Attribute) and node.attr == "shape":
        a = _array(live(node.value))
        return a.shape if a is not None and None not in a.shape else None
    v = live(node)
    v = v.literal() if issubclass(type(v), Made) else v
    return v if type(v) is tuple and v and all(type(d) is int for d in v) else None


def _reshape_claim(node: ast.AST, a, shape) -> ValueClaim | None:
    if a is not None and shape and shape.count(-1) > 1 and all(d >= -1 for d in shape):
        return ValueClaim(node, f"reshape{tuple(shape)}: can only specify one unknown dimension: ValueError",
                          "ValueError", callee=True)
    if a is None or a.size is None or not shape or any(d < -1 for d in shape) or shape.count(-1) > 1:
        return None
    known = 1
    for d in shape:
        known *= d if d != -1 else 1
    if -1 in shape:
        if known == 0 or a.size % known == 0:
            return None
    elif known == a.size:
        return None
    wanted = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    return ValueClaim(node, f"cannot reshape array of size {a.size} into shape {wanted}: ValueError", "ValueError",
                      callee=True)


def concatenator_claim(n: ast.Subscript, live: Live) -> ValueClaim | None:
    """`np.c_[a, b]`, `np.r_[a, b]`: numpy's concatenation of the items as JOINS lifts them (np.c_
    makes 1-D arrays columns and joins along the last axis, np.r_ along the first)."""
    name = concatenator(live(n.value)) if not isinstance(n.ctx, ast.Store) else None
    return None if name is None else _join_claim(n.value, n.slice, name, live, {})


def _join_claim(callee: ast.expr, seq: ast.expr, name: str, live: Live, keywords: dict) -> ValueClaim | None:
    """`np.concatenate([a, b], axis=k)`, `np.vstack([a, b])`, `np.hstack((a, b))`,
    `np.column_stack([a, b])`, `np.c_[a, b]`: every dimension but the joined one must agree, after
    each array is lifted as the join lifts it (abstract_value.JOINS). Placed on `callee`."""
    if not isinstance(seq, (ast.List, ast.Tuple)) or len(seq.elts) < 2 or \
            any(isinstance(e, ast.Starred) for e in seq.elts) or (name in CONCATENATORS and not isinstance(seq, ast.Tuple)):
        return None
    arrays = [_array(live(e)) for e in seq.elts]
    if any(a is None or (name in CONCATENATORS and not a.ndim) for a in arrays):
        return None                 # np.c_ takes a 0-d array as a scalar: another rule
    joined = joining(name, arrays, keywords)
    if joined is None:
        return None
    axis, shapes = joined
    ndim = len(shapes[0])
    label = f"np.{name}[...]" if name in CONCATENATORS else f"np.{name}"
    if ndim == 0:
        return None
    if not -ndim <= axis < ndim:        # numpy checks the axis on the first array first
        return _axis_claim(keywords["axis"], arrays[0]) if "axis" in keywords else None
    if any(len(s) != ndim for s in shapes):
        return ValueClaim(callee, f"{label}: the arrays have different numbers of dimensions "
                                  f"({', '.join(str(len(s)) for s in shapes)}): ValueError", "ValueError", callee=True)
    axis %= ndim
    for k, s in enumerate(shapes[1:], 1):
        for d in range(ndim):
            if d != axis and s[d] != shapes[0][d] and None not in (s[d], shapes[0][d]):
                return ValueClaim(callee, f"{label}: all the input array dimensions except for the "
                                          f"concatenation axis must match exactly, but along dimension {d}, "
                                          f"the array at index 0 has size {shapes[0][d]} and the array at "
                                          f"index {k} has size {s[d]}: ValueError", "ValueError", callee=True)
    return None


def _axis_claim(node: ast.expr, a, added: int = 0, probe=None) -> ValueClaim | None:
    """`axis=` beyond the array's dimensions (with `added`: those of the result, np.expand_dims).
    `probe`: the numpy callable (a method's name) that must raise AxisError for that axis on an
    array of the same dimensions and dtype kind before anything else (_raises_axis_error)."""
    axis = _literal_int(node)
    ndim = a.ndim + added if a is not None else 0
    if a is None or axis is None or a.ndim == 0 or -ndim <= axis < ndim:
        return None             # a 0-d array: some functions refuse it with a ValueError of their own
    if probe is not None and not _raises_axis_error(*probe, a.kind, a.ndim, axis):
        return None
    return ValueClaim(node, f"axis {axis} is out of bounds for array of dimension {ndim}: AxisError",
                      "AxisError")


@functools.cache
def axis_functions() -> frozenset[str]:
    """numpy's functions whose signature takes the array first and an optional `axis`: read from
    the installed numpy, so the rule is its own."""
    np = _np()
    if np is None:
        return frozenset()
    out = set()
    for name in dir(np):
        f = getattr(np, name, None)
        if name.startswith("_") or not callable(f) or isinstance(f, (type, np.ufunc)) or \
                type(f).__module__.split(".")[0] != "numpy" and not inspect.isfunction(f):
            continue
        try:
            parameters = list(inspect.signature(f).parameters.values())
        except (TypeError, ValueError):
            continue
        axis = next((p for p in parameters if p.name == "axis"), None)
        if parameters and parameters[0].name in _ARRAY_PARAMETERS and axis is not None and \
                axis.default is not inspect.Parameter.empty:
            out.add(name)
    return frozenset(out)


@functools.cache
def _ndarray_methods() -> frozenset[str]:
    np = _np()
    return frozenset(m for m in dir(np.ndarray) if not m.startswith("_")) if np is not None else frozenset()


def _ufunc_axis_method(target, np) -> bool:
    """`np.add.reduce`, `np.multiply.accumulate`: a method of a numpy ufunc of two inputs."""
    if type(target) is not types.BuiltinMethodType:
        return False
    owner = target.__self__
    return type(owner) is np.ufunc and owner.nin == 2 and owner.nout == 1 and \
        getattr(target, "__name__", None) in _UFUNC_AXIS_METHODS


def _given(args: list[ast.expr]) -> tuple:
    """The call's other positional arguments for the probe: a literal's value, else 0."""
    out = []
    for a in args:
        v = _literal_or_none(a)
        out.append(0 if v is None else v)
    return tuple(out)


def _raises_axis_error(probe, given: tuple, kind: str, ndim: int, axis: int) -> bool:
    """Does numpy raise AxisError for `axis` on an array of `ndim` ones of dtype kind `kind`
    (with the call's literal arguments, the missing required ones 0) before anything else?
    numpy normalizes the axis first in the functions where it does; one where it does not
    (`np.split` indexes the shape) is no claim."""
    np = _np()
    try:
        stand_in = np.zeros((1,) * ndim, dtype=bool if kind == "b" else np.dtype(kind + "8"))
        if type(probe) is str:
            method = getattr(stand_in, probe)
            extra = list(given) + [0] * (_required(getattr(np, probe)) - 1 - len(given))
            call = lambda: method(*extra, axis=axis)           # noqa: E731
        elif _ufunc_axis_method(probe, np):
            extra = list(given) or ([[0]] if probe.__name__ == "reduceat" else [])
            call = lambda: probe(stand_in, *extra, axis=axis)  # noqa: E731
        else:
            extra = list(given) + [0] * (_required(probe) - 1 - len(given))
            call = lambda: probe(stand_in, *extra, axis=axis)  # noqa: E731
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except np.exceptions.AxisError:
        return True
    except Exception:  # noqa: BLE001 - another error first, or no answer: no claim
        return False
    return False


def _required(f) -> int:
    return sum(1 for p in inspect.signature(f).parameters.values()
               if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


# -- scikit-learn -----------------------------------------------------------------------------------

def _x_claim(n: ast.Call, est, live: Live, text: Text, fitted: bool = False) -> ValueClaim | None:
    """`model.fit(df["price"], y)`: a 1-D X where the estimator validates X as 2-D; a DataFrame
    with a text column where it converts X to numbers."""
    x_node = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "X"), None)
    y_node = n.args[1] if len(n.args) > 1 else next((k.value for k in n.keywords if k.arg == "y"), None)
    return _x_claim_of(n, x_node, est, n.func.attr, live, text, fitted, y_node) or _y_claim(n, x_node, est, live) or \
        (_size_claim(n, x_node, est, live) if live(n.func.value) is not UNRESOLVED else None) or \
        _weights_claim(n, x_node, est, live) or _no_y_claim(n, x_node, y_node, est, live)


def _no_y_claim(n: ast.Call, x_node: ast.expr | None, y_node: ast.expr | None, est, live: Live) -> ValueClaim | None:
    """`SelectPercentile(f_regression).fit(X)`: a univariate feature selector (its fit is
    scikit-learn's `_BaseFilter.fit`) fitted with no y, whose score function is one of
    scikit-learn's own (each checks X and y together first, or reads y as an array): ValueError,
    whatever X holds (numbers in 2-D here, so nothing else is refused first). Nothing is run."""
    if n.func.attr not in ("fit", "fit_transform") or x_node is None or y_node is not None or len(n.args) > 1 or \
            any(k.arg != "X" for k in n.keywords):
        return None
    est = _tagged(est)
    selection = sys.modules.get("sklearn.feature_selection._univariate_selection")
    if est is None or selection is None or not sklearn_estimator(est, alone=True) or \
            not _numbers_in_2d(live(x_node)):
        return None
    base = POLICY.module_members(selection).get("_BaseFilter")
    fit = POLICY.static(type(est), "fit", None)
    package = sys.modules.get("sklearn.feature_selection")
    members = POLICY.module_members(package) if package is not None else {}
    score = POLICY.own_dict(est).get("score_func")
    if base is None or fit is not POLICY.class_members(base).get("fit") or score is None or \
            not any(score is members.get(f) for f in _SCORE_FUNCTIONS):
        return None
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {type(est).__name__} scores the features against y, and no y "
                              "is given: ValueError", "ValueError", callee=True)


# scikit-learn's univariate score functions, each of which refuses a y of None (tests/test_exact.py)
_SCORE_FUNCTIONS = ("f_classif", "f_regression", "r_regression", "chi2", "mutual_info_classif",
                    "mutual_info_regression")


def _weights_claim(n: ast.Call, x_node: ast.expr | None, est, live: Live) -> ValueClaim | None:
    """`model.fit(X, y, sample_weight=w)` with w of another length than X's rows: every
    estimator of scikit-learn's own whose fit takes sample_weight checks it has one per sample
    (`_check_sample_weight`, or its solver's own check): ValueError. X numbers in 2-D, w numbers in
    1-D, both lengths known, y given; an estimator alone (a meta-estimator routes the weights)."""
    w_node = next((k.value for k in n.keywords if k.arg == "sample_weight"), None)
    given_y = len(n.args) >= 2 or any(k.arg == "y" for k in n.keywords)
    est = _tagged(est)
    if n.func.attr != "fit" or w_node is None or x_node is None or not given_y or est is None or \
            not sklearn_estimator(est, alone=True) or "fit" in POLICY.own_dict(est):
        return None                         # (no y: fit's TypeError first; `est.fit = f`: theirs)
    fit = POLICY.static(type(est), "fit", None)
    try:
        if fit is None or "sample_weight" not in inspect.signature(fit).parameters:
            return None
    except (TypeError, ValueError):
        return None
    x, w = array_like(x_node, live), array_like(w_node, live)
    if x is None or w is None or not (x.is_data() and w.is_data()) or x.ndim != 2 or w.ndim != 1 or \
            not numeric(x.kind) or not numeric(w.kind):
        return None
    nx, nw = _samples(x), _samples(w)
    if nx is None or nw is None or nx == nw:
        return None
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): sample_weight={ast.unparse(w_node)} has {nw} values but "
                              f"X={ast.unparse(x_node)} has {nx} samples: ValueError (one weight per sample)",
                      "ValueError", callee=True)


def _size_claim(n: ast.Call, x_node: ast.expr | None, est, live: Live) -> ValueClaim | None:
    """`PCA(n_components=5).fit(X)` of X too small for it (estimators.size_problem): an estimator
    alone, of scikit-learn's own class, X numbers live, written or made by the cell."""
    made = issubclass(type(est), Abstract)
    est = _tagged(est)
    if est is None or x_node is None:
        return None
    # a Pipeline the cell makes of steps it makes there (a live one's step may be changed by another name)
    steps = _shape_keeping_steps(est, n.func.attr) if made else None
    if steps is None and not sklearn_estimator(est, alone=True):
        return None
    x = array_like(x_node, live)
    if x is None or x.kind is None or x.kind not in "biuf":
        return None
    if steps is not None:                   # a Pipeline: the first step X reaches with its shape
        name, step = steps
        problem = size_problem(step, "fit_transform", x)
        problem = problem and f"step {name!r}: {problem}"
    else:
        problem = size_problem(est, n.func.attr, x)
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {problem}", "ValueError", callee=True) if problem else None


# scikit-learn's scalers: their fit_transform keeps X's shape (a column of NaN stays a column)
_SHAPE_KEEPING = ("StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler")


def _shape_keeping_steps(pipe, method: str):
    """`make_pipeline(StandardScaler(), PCA(n_components=3)).fit_transform(X)`: a Pipeline of
    scikit-learn's own classes, no cache, whose fit hands X's shape, through scalers alone, to a
    step that fits: (its name, it) when that step is not the last or the method fits; else None."""
    pipeline = sys.modules.get("sklearn.pipeline")
    if pipeline is None or type(pipe) is not pipeline.Pipeline or method not in SIZED_FITS or \
            not sklearn_classes(pipe):
        return None
    own = POLICY.own_dict(pipe)
    steps = own.get("steps")
    if own.get("memory") is not None or type(steps) is not list:
        return None
    for step in steps:
        if type(step) is not tuple or len(step) != 2 or step[1] is None or type(step[1]) is str:
            return None
        if type(step[1]).__name__ not in _SHAPE_KEEPING or POLICY.class_module(type(step[1])) != \
                "sklearn.preprocessing._data":
            return step if sklearn_estimator(step[1], alone=True) else None
    return None


def _mapping_of_parts(x) -> bool:
    """A live dict of Python's own, or scikit-learn's Bunch (a dataset's `data`, `target`, ...),
    exactly: check_array reads it as one object, never as rows."""
    bunch = POLICY.static(sys.modules.get("sklearn.utils._bunch"), "Bunch", None) \
        if sys.modules.get("sklearn.utils._bunch") is not None else None
    return type(x) is dict or bunch is not None and type(x) is bunch


def _some_not_a_number(x, x_node: ast.expr) -> bool:
    """Does the text array X (live, or a literal written in the call) hold a value that is no
    number as float() reads it? Unknown values: no."""
    np = _np()
    values = x if np is not None and type(x) is np.ndarray else _literal(x_node)
    if np is None or values is UNRESOLVED or issubclass(type(values), Made):
        return False
    try:
        np.asarray(values, dtype=float)
    except (ValueError, TypeError):
        return True
    return False


def _x_claim_of(n: ast.Call, x_node: ast.expr | None, est, method: str, live: Live, text: Text,
                fitted: bool = False, y_node: ast.expr | None = None) -> ValueClaim | None:
    """The X claim of `est.method(X)` (`method` "fit" for the model-selection helpers, which fit
    clones of `est`): whichever estimator reads X first must take it (`fitted`: `est` was made
    and fitted by the cell, so what its fit made is known by its class only). A meta-estimator
    (estimators.holds_2d_only) hands X on to what it holds (y: how many labels it holds)."""
    est = _tagged(est)
    if x_node is None or est is None:
        return None
    est = _x_reader(est, method, fitted=fitted)
    if est is None:
        return None
    alone = _takes_2d_only(est)
    if not alone and not holds_2d_only(est, method, distinct_at_least(live(y_node)) if y_node is not None else 0):
        return None
    x = live(x_node)
    pd = sys.modules.get("pandas")
    a = array_like(x_node, live)            # a literal as the array check_array makes of it
    # of a value the cell makes or writes: numbers only (no other error first)
    made = issubclass(type(x), Made) or isinstance(x_node, (ast.List, ast.Tuple))
    if a is not None and a.like == "ndarray" and a.ndim == 1 and (not made or numeric(a.kind)):
        what = f"a 1-D array of shape {_shape(a)}"
    elif a is not None and a.like == "Series" and (not made or numeric(a.kind)):
        what = f"a Series (1-D, {a.shape[0]} rows)" if a.shape[0] is not None else "a Series (1-D)"
    elif a is not None and a.like == "ndarray" and a.ndim >= 3 and numeric(a.kind):
        # check_array refuses more than 2 dimensions too (allow_nd off), before it reads the values
        return ValueClaim(x_node, f"{ast.unparse(n.func)}(): X={ast.unparse(x_node)} is a {a.ndim}-D array of shape "
                                  f"{_shape(a)}; {type(est).__name__} takes 2-D X only: ValueError (Found array "
                                  f"with dim {a.ndim})", "ValueError")
    elif a is not None and a.like == "ndarray" and a.kind in ("U", "S") and a.ndim == 2 \
            and not _takes_text(est) and _some_not_a_number(x, x_node):
        # scikit-learn's check_array refuses an array of str or bytes (dtype "numeric"), or reads
        # it as floats (FLOAT_DTYPES: numbers written as text convert): one that is no number fails both
        return ValueClaim(x_node, f"{ast.unparse(n.func)}(): X={ast.unparse(x_node)} is an array of "
                                  f"{'text' if a.kind == 'U' else 'bytes'} (dtype kind {a.kind!r}); "
                                  f"{type(est).__name__} takes numbers only: ValueError (its input "
                                  "check refuses strings)", "ValueError")
    elif alone and _mapping_of_parts(x) and isinstance(n.func, ast.Attribute) and n.func.attr == method and \
            (y_node is not None or not _requires_y(est)) and \
            (raised := mapping_x_problem(est, method, type(x))) is not None:
        # (the estimator's own method: a model-selection helper picks rows of X first)
        # check_array makes one 0-d object array of a dict, which its dtype rule refuses
        kind = type(x).__name__
        fixes = [f"{text(x_node)}.data"] if kind == "Bunch" and "data" in x and text(x_node) else []
        return ValueClaim(x_node, f"{ast.unparse(n.func)}(): X={ast.unparse(x_node)} is a {kind} (a dict of "
                                  f"{len(x)} parts), not the data; {type(est).__name__} takes 2-D numbers: {raised}",
                          raised, fixes)
    elif pd is not None and type(x) is pd.DataFrame and not _takes_text(est) and _text_column(x, pd) is not None:
        column, value = _text_column(x, pd)
        return ValueClaim(x_node, f"{ast.unparse(n.func)}(): X={ast.unparse(x_node)} has a text column "
                                  f"{column!r} ({value!r}); {type(est).__name__} takes numbers only: ValueError "
                                  "(could not convert string to float)", "ValueError")
    else:           # a meta-estimator's own tags do not say which missing values it takes
        return _missing_values_claim(n, x_node, x, est) if alone else None
    written = text(x_node)
    message = (f"{ast.unparse(n.func)}(): X={ast.unparse(x_node)} is {what}; {type(est).__name__} takes "
               "2-D X only: ValueError (Expected 2D array, got 1D array instead)")
    fixes = _two_d_alternatives(x_node, a, written) if written and (not made or issubclass(type(x), Abstract)) else []
    return ValueClaim(x_node, message, "ValueError", fixes)


def _lengths_claim(n: ast.Call, nodes: list, live: Live) -> ValueClaim | None:
    """`train_test_split(X, y_other)`, `cross_val_score(model, X, y_other)`: scikit-learn's
    `indexable` checks first that the arrays hold as many samples (check_consistent_length):
    ValueError where two of them, live, literal or made by the cell, surely differ."""
    sizes = [(node, _samples(array_like(node, live))) for node in nodes if node is not None]
    known = [(node, k) for node, k in sizes if k is not None]
    if len({k for _, k in known}) < 2:
        return None
    shown = ", ".join(f"{ast.unparse(node)}: {k}" for node, k in known)
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): the arrays hold different numbers of samples ({shown}): "
                              "ValueError (Found input variables with inconsistent numbers of samples)",
                      "ValueError", callee=True)


def _tagged(est):
    """The estimator whose tags stand for `est`: itself when live, the instance of its class made
    with the cell's literal arguments (`Abstract`) or with the defaults (`Instance`, arguments not
    known); None unless its classes are scikit-learn's."""
    if issubclass(type(est), Abstract):
        est = est.instance()                # made in the cell: its class's tags
    elif type(est) is Instance:
        est = _with_defaults(est.cls)       # made with arguments not known (`SVC(**params)`)
    return None if est is UNRESOLVED or est is None or not sklearn_classes(est) else est


def _y_claim(n: ast.Call, x_node: ast.expr | None, est, live: Live) -> ValueClaim | None:
    """`model.fit(X, y)` with a NaN in y, live, at an estimator that needs y: scikit-learn's
    check_X_y validates X, then asserts y is finite whatever the tags say of X (`_check_y`). X must
    be numbers in 2-D, which check_array takes or refuses with a ValueError of its own."""
    y_node = n.args[1] if len(n.args) > 1 else next((k.value for k in n.keywords if k.arg == "y"), None)
    est = _tagged(est) if n.func.attr in WITH_Y else None
    if est is None or x_node is None or y_node is None or not _takes_2d_only(est) or not _requires_y(est) or \
            not _numbers_in_2d(live(x_node)):
        return None
    from sklearn import get_config
    place = None if get_config().get("assume_finite") else _first_nan(live(y_node))
    if place is None:
        return None
    return ValueClaim(y_node, f"{ast.unparse(n.func)}(): y={ast.unparse(y_node)} holds NaN ({place}); "
                              f"{type(est).__name__} needs every target: ValueError (Input y contains NaN)",
                      "ValueError")


def _numbers_in_2d(x) -> bool:
    """A live 2-D ndarray of numbers, a DataFrame of pandas' own of numpy's numbers, or a 2-D
    array of numbers the cell makes."""
    np, pd = _np(), sys.modules.get("pandas")
    if type(x) is np.ndarray:
        return x.ndim == 2 and x.dtype.kind in "biuf"
    if pd is not None and type(x) is pd.DataFrame:
        return all(type(t).__module__.split(".")[0] == "numpy" and t.kind in "biuf" for t in x.dtypes)
    return issubclass(type(x), Abstract) and x.like == "ndarray" and x.ndim == 2 and x.kind is not None and \
        x.kind in "biuf"


def _missing_values_claim(n: ast.Call, x_node: ast.expr, x, est) -> ValueClaim | None:
    """`model.fit(X, y)` with a NaN in X, live, where the estimator reading X first does not take
    missing values (its tags' `allow_nan`): scikit-learn's check_array, once X is a 2-D array of
    numbers, asserts every value is finite (`ensure_all_finite`) unless its config assumes so."""
    from sklearn import get_config
    from sklearn.utils import get_tags
    if get_tags(est).input_tags.allow_nan or get_config().get("assume_finite"):
        return None
    place = _first_nan(x) if _numbers_in_2d(x) else None
    if place is None:
        return None
    return ValueClaim(x_node, f"{ast.unparse(n.func)}(): X={ast.unparse(x_node)} holds NaN ({place}); "
                              f"{type(est).__name__} does not accept missing values: ValueError (Input X "
                              "contains NaN)", "ValueError")


def _first_nan(x) -> str | None:
    """Where a live ndarray of floats (1-D or 2-D), a Series of pandas' own of numpy's floats, or
    a DataFrame of pandas' own whose columns are all of numpy's numbers or booleans (so that
    check_array makes floats of it without another error), holds its first NaN among the first
    `NAN_SCAN_VALUES` values; None when none is found there."""
    np, pd = _np(), sys.modules.get("pandas")
    if type(x) is np.ndarray:
        if x.ndim not in (1, 2) or x.dtype.kind != "f":
            return None
        width = x.shape[1] if x.ndim == 2 else 1
        found = np.argwhere(np.isnan(x[:max(1, NAN_SCAN_VALUES // max(1, width))]))
        if not len(found):
            return None
        return f"row {found[0][0]}, column {found[0][1]}" if x.ndim == 2 else f"position {found[0][0]}"
    if pd is not None and type(x) is pd.Series:
        if type(x.dtype).__module__.split(".")[0] != "numpy" or x.dtype.kind != "f":
            return None
        found = np.flatnonzero(np.isnan(x.iloc[:NAN_SCAN_VALUES].to_numpy()))
        return f"the row at position {found[0]}" if len(found) else None
    if pd is None or type(x) is not pd.DataFrame or not plain_labels(x.columns, pd):
        return None
    dtypes = list(x.dtypes)
    if not all(type(t).__module__.split(".")[0] == "numpy" and t.kind in "biuf" for t in dtypes):
        return None                     # objects, categories, nullable numbers: converted otherwise
    rows = max(1, NAN_SCAN_VALUES // max(1, len(dtypes)))
    for k, dtype in enumerate(dtypes):
        if dtype.kind == "f":
            found = np.flatnonzero(np.isnan(x.iloc[:rows, k].to_numpy()))
            if len(found):
                return f"column {x.columns[k]!r}, the row at position {found[0]}"
    return None


def _with_defaults(cls: type):
    """An estimator of scikit-learn's class `cls` made with arguments not known stands for the
    class's tags: its instance with the defaults, when no parameter may hold another estimator
    (a meta-estimator's, named as scikit-learn names them). scikit-learn's own input tags of X's
    dimensions and types are its classes' (but FeatureHasher's, 1-D whatever its input_type)."""
    if not estimator_class(cls) or not str(POLICY.class_module(cls)).startswith("sklearn."):
        return None
    try:
        if _HOLDERS & set(cls._get_param_names()):
            return None
        return cls()                        # scikit-learn's `__init__` stores its parameters only
    except Exception:  # noqa: BLE001 - a class that needs its arguments: no claim
        return None


def _x_reader(est, method: str, depth: int = 0, fitted: bool = False):
    """The estimator that validates X first when `est.method(X)` runs: a Pipeline's first step
    that is not "passthrough"; a GridSearchCV's or RandomizedSearchCV's estimator (fit: its
    clones fit on each split, and when every fit fails scikit-learn raises ValueError; after a
    fit: its best_estimator_, a clone of that estimator with some of the grid's values set, so
    of its class when the cell made and fitted the search, `fitted`, with refit=True); else
    `est` itself. None where that is not sure (a search whose grid may swap a step)."""
    if depth > 4:
        return None
    pipeline, selection = sys.modules.get("sklearn.pipeline"), sys.modules.get("sklearn.model_selection")
    own = POLICY.own_dict(est)
    if pipeline is not None and type(est) is pipeline.Pipeline:
        steps = own.get("steps")
        if type(steps) is not list:
            return None
        if any(type(s) is not tuple or len(s) != 2 or type(s[0]) is not str or "__" in s[0] for s in steps) or \
                len({name for name, _ in steps}) != len(steps) or \
                not all(step is None or type(step) is str or _has_method(step, "transform") for _, step in steps[:-1]):
            return None                     # steps scikit-learn refuses before it reads X
        first = next((step for _, step in steps if not (step is None or type(step) is str)), None)
        return None if first is None else _x_reader(first, method, depth + 1)
    searches = tuple(getattr(selection, c, None) for c in ("GridSearchCV", "RandomizedSearchCV")) if selection else ()
    if type(est) in searches:
        if method != "fit":
            best = own.get("best_estimator_")
            if best is not None:
                return _x_reader(best, method, depth + 1)
            if not fitted or own.get("refit") is not True:
                return None                 # not fitted: NotFittedError; refit=False: no best_estimator_
        inner = own.get("estimator")
        grid = own.get("param_grid", own.get("param_distributions"))
        grids = grid if type(grid) is list else [grid]
        if inner is None or not all(type(g) is dict and all(
                type(k) is str and ("__" in k or _x_reader(inner, method, depth + 1) is inner) and
                _plain_candidates(v) for k, v in g.items()) for g in grids):
            return None                     # a grid that may set a step, or values other than plain ones
        return _x_reader(inner, method, depth + 1)
    return est


def _plain_candidates(v) -> bool:
    """A grid's values that can set no estimator: a list of None and Python's plain scalars, or
    a 1-D numpy array of numbers (`np.logspace(-2, 2, 5)`)."""
    np = sys.modules.get("numpy")
    if np is not None and type(v) is np.ndarray:
        return v.ndim == 1 and v.dtype.kind in "biuf"
    return type(v) is list and all(x is None or type(x) in (int, float, str, bool) for x in v)


def _has_method(est, name: str) -> bool:
    return any(name in POLICY.class_members(k) for k in POLICY.mro(type(est)))


def _takes_2d_only(est) -> bool:
    """Is the estimator scikit-learn's own, holding no other (estimators.sklearn_estimator), and
    do its tags say it reads X as a 2-D array and nothing else (no text, no dicts, no 1-D X)?"""
    if not sklearn_estimator(est, alone=True) or type(est).__name__ in UNCHECKED_INPUT:
        return False
    from sklearn.utils import get_tags
    tags = get_tags(est).input_tags
    return bool(tags.two_d_array and not tags.one_d_array and not tags.string and not tags.dict)


def _takes_text(est) -> bool:
    """Categorical input (HistGradientBoosting's) may be read by the estimator itself."""
    from sklearn.utils import get_tags
    return bool(get_tags(est).input_tags.categorical)


def _text_column(x, pd) -> tuple[str, str] | None:
    """The first column of DataFrame `x` (object or string dtype) whose first values are plain
    str, int, float or bool, one of them a str that is not a number: (its name, that str).
    Numbers in text (`"1.5"`) convert, so they are no claim; any other object, no claim."""
    if not plain_labels(x.columns, pd):
        return None                     # `x[column]` would compare the name with a user's label
    for column, dtype in zip(x.columns, x.dtypes):
        if not (_numpy_object(dtype) or type(dtype) is pd.StringDtype) or type(column) is not str:
            continue
        values = x[column].iloc[:TEXT_SCAN_ROWS].tolist()
        if any(type(v) not in (str, int, float, bool) for v in values):
            return None
        for v in values:
            if type(v) is str and not _is_number(v):
                return column, v
    return None


def _numpy_object(dtype) -> bool:
    """numpy's object dtype (a dtype of the user's is never compared: its `__eq__` is its own)."""
    return type(dtype).__module__.split(".")[0] == "numpy" and dtype.kind == "O"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def index_claim(n: ast.Subscript, live: Live) -> ValueClaim | None:
    """`axes[3]` on the axes of `plt.subplots(1, 3)`, `axes[0, 0]` on a 1-D array, `ax[0]` on
    one Axes: numpy's IndexError, or the TypeError of an object that takes no index. Of values
    the cell makes (abstract.py) and of live arrays of numbers (a live array of objects, such as
    Axes, is the live axes rule's)."""
    if isinstance(n.ctx, ast.Store):
        return None
    value = live(n.value)
    base = value if issubclass(type(value), Abstract) else _array(value)
    if base is None or base.like not in ("ndarray", "Axes"):
        return None
    if base.like == "Axes":
        return ValueClaim(n, f"{ast.unparse(n.value)} is one Axes: 'Axes' object is not subscriptable: TypeError",
                          "TypeError")
    mask = _mask_of(n.slice.elts[0] if isinstance(n.slice, ast.Tuple) and n.slice.elts else n.slice, live)
    if mask and base.ndim >= 1 and type(base.shape[0]) is int and mask != base.shape[0]:
        # (an empty mask numpy reads as an empty index: no error)
        # numpy's boolean index selects along the axes it stands for: their sizes must match
        return ValueClaim(n, f"{ast.unparse(n.value)} of shape {_shape(base)}: boolean index did not match indexed "
                             f"array along axis 0; size of axis is {base.shape[0]} but size of corresponding boolean "
                             f"axis is {mask}: IndexError", "IndexError")
    index = Propagation(live).index(n.slice)
    if index is None:
        return None
    used = [e for e in index if e is not None and e is not Ellipsis]
    if len(used) > base.ndim and base.ndim == 0:
        return ValueClaim(n, f"{ast.unparse(n.value)} is one number (0-dimensional): invalid index to scalar "
                             "variable: IndexError", "IndexError")
    if len(used) > base.ndim:
        return ValueClaim(n, f"{ast.unparse(n.value)} of shape {_shape(base)}: too many indices for array: "
                                   f"array is {base.ndim}-dimensional, but {len(used)} were indexed: IndexError",
                          "IndexError")
    if Ellipsis in index:
        return None
    axis = 0
    for e in index:
        if e is None:
            continue
        size = base.shape[axis]
        if type(e) is int and size is not None and not -size <= e < size:
            return ValueClaim(n, f"{ast.unparse(n.value)} of shape {_shape(base)}: index {e} is out of "
                                       f"bounds for axis {axis} with size {size}: IndexError", "IndexError")
        axis += 1
    return None


def _mask_of(node: ast.expr, live: Live) -> int | None:
    """The length of a 1-D numpy array of booleans `node` is (live, or one the cell makes: `y == 0`)."""
    if isinstance(node, (ast.Slice, ast.Constant)):
        return None
    a = Propagation(live).shaped(node)
    if a is None or a.like != "ndarray" or a.kind != "b" or a.ndim != 1 or type(a.shape[0]) is not int:
        return None
    return a.shape[0]


def text_index_claim(n: ast.Subscript, live: Live) -> ValueClaim | None:
    """`a["id"]` read or set on an ndarray (live, or one the cell makes) whose dtype has
    no fields: numpy takes a string only as a structured array's field name (IndexError). Placed
    on the key."""
    if not (isinstance(n.slice, ast.Constant) and type(n.slice.value) is str) or isinstance(n.ctx, ast.Del):
        return None                 # `del a[...]` is numpy's ValueError whatever the key
    value = live(n.value)
    np = _np()
    if issubclass(type(value), Abstract):
        kind = value.kind if value.like == "ndarray" else None
    else:
        kind = value.dtype.kind if np is not None and type(value) is np.ndarray else None
    if kind is None or kind == "V":
        return None
    return ValueClaim(n.slice, f"{ast.unparse(n.value)} is an ndarray without named fields: only integers, slices (`:`), "
                         "ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid "
                         "indices: IndexError", "IndexError")


def field_claim(n: ast.Subscript, live: Live, text: Text) -> ValueClaim | None:
    """`data["nmae"]`, `data[["name", "aeg"]]` of a live structured array (numpy's own class, its
    dtype's fields named): asked of an empty array of the same dtype, which refuses a name none
    of its fields has as the user's does. The fields meant are the fixes."""
    import difflib
    np = _np()
    key = _literal(n.slice)
    names = [key] if type(key) is str else key if type(key) is list and key and all(type(k) is str for k in key) \
        else None
    array = live(n.value)
    if np is None or names is None or type(array) is not np.ndarray or array.dtype.names is None or \
            isinstance(n.ctx, ast.Del):
        return None
    try:
        np.empty((0,), dtype=array.dtype)[key]
    except (ValueError, KeyError, IndexError) as e:
        missing = next((k for k in names if k not in array.dtype.names), None)
        meant = difflib.get_close_matches(missing, list(array.dtype.names), n=1, cutoff=0.6) if missing else []
        written = text(n.slice)
        quote = '"' if written is not None and written.startswith('"') else "'"
        fixes = [f"{quote}{meant[0]}{quote}"] if meant and type(key) is str else []
        return ValueClaim(n.slice, f"{ast.unparse(n.value)} has the fields {', '.join(array.dtype.names)}: "
                                   f"{' '.join(str(e).split())[:160]}: {type(e).__name__}", type(e).__name__, fixes,
                          subjects=tuple(dict.fromkeys(x.id for x in ast.walk(n.value) if isinstance(x, ast.Name))))
    return None


# -- pandas -----------------------------------------------------------------------------------------

def accessor_claim(n: ast.Attribute, live: Live) -> ValueClaim | None:
    """`s.str` on a Series whose dtype pandas refuses for that accessor (its own check, made on
    the dtype before any value is read)."""
    pd = sys.modules.get("pandas")
    if pd is None or n.attr not in _ACCESSORS:
        return None
    s = live(n.value)
    if type(s) is not pd.Series:
        return None
    kinds, reason = _ACCESSORS[n.attr]
    dtype = s.dtype
    if type(dtype).__module__.split(".")[0] != "numpy" or dtype.kind not in kinds:
        return None             # extension dtypes (string, category, nullable, arrow): pandas decides
    return ValueClaim(n, f"{ast.unparse(n.value)} is a Series of {dtype}: .{n.attr} refuses it: "
                         f"AttributeError ({reason.rstrip('!')})", "AttributeError", callee=True)


def pandas_axis_claim(n: ast.Call, owner) -> ValueClaim | None:
    """`df.sum(axis=2)`, `s.dropna(axis=1)`: an axis a DataFrame (0, 1, "index", "columns",
    "rows") or a Series (0, "index", "rows") does not have, given to a method whose signature
    takes `axis`. pandas' `_get_axis_number` refuses it: ValueError. The method is asked on a
    one-row frame of the same class with the call's literal arguments: it must raise that error
    (pandas reads the axis before the data or the other arguments)."""
    pd = sys.modules.get("pandas")
    a = shaped(owner)
    if pd is None or a is None or a.like not in ("DataFrame", "Series"):
        return None
    cls = pd.DataFrame if a.like == "DataFrame" else pd.Series
    keywords = {k.arg: _literal_or_none(k.value) for k in n.keywords}
    axis = keywords["axis"]
    valid = {0, "index", "rows"} | ({1, "columns"} if a.like == "DataFrame" else set())
    if type(axis) not in (int, str) or axis in valid or not inspect.isfunction(
            POLICY.static(cls, n.func.attr, None)) or \
            "axis" not in inspect.signature(getattr(cls, n.func.attr)).parameters:
        return None
    stand_in = cls({"a": [1.0]}) if a.like == "DataFrame" else cls([1.0])
    args = [_literal_or_none(x) for x in n.args]
    if not _refuses_axis(getattr(stand_in, n.func.attr), args, {k: v for k, v in keywords.items() if v is not None},
                         axis):
        return None
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(axis={axis!r}): No axis named {axis} for object type "
                              f"{a.like}: ValueError", "ValueError", callee=True)


def _refuses_axis(call, args: list, keywords: dict, axis) -> bool:
    """Does pandas' `call(*args, **keywords)` on one-row stand-ins raise its "No axis named"
    ValueError (nothing else first)?"""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(*args, **keywords)
    except ValueError as e:
        return f"No axis named {axis}" in str(e)
    except Exception:  # noqa: BLE001 - another error first: no claim
        return False
    return False


def concat_axis_claim(n: ast.Call, target, value) -> ValueClaim | None:
    """`pd.concat([df1, df2], axis=2)`: concat reads its axis as a DataFrame's (0, 1, "index",
    "columns", "rows"), whatever it joins. Each item of the list written is a DataFrame or Series
    (live, or made in the cell); pandas' concat is asked on one-row stand-ins of those classes with
    the call's literal keywords, and must raise that ValueError."""
    pd = sys.modules.get("pandas")
    if pd is None or target is not POLICY.static(pd, "concat", None) or len(n.args) != 1 or \
            not isinstance(n.args[0], (ast.List, ast.Tuple)) or not n.args[0].elts or \
            any(k.arg is None for k in n.keywords):
        return None
    keywords = {k.arg: _literal_or_none(k.value) for k in n.keywords}
    axis = keywords.get("axis")
    if type(axis) not in (int, str) or axis in (0, 1, "index", "columns", "rows") or \
            any(v is None for v in keywords.values()):
        return None
    kinds = [shaped(value(e)) for e in n.args[0].elts]
    if any(a is None or a.like not in ("DataFrame", "Series") for a in kinds):
        return None
    stand_ins = [pd.DataFrame({"a": [1.0]}) if a.like == "DataFrame" else pd.Series([1.0]) for a in kinds]
    if not _refuses_axis(pd.concat, [stand_ins], keywords, axis):
        return None
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(axis={axis!r}): No axis named {axis} for object type "
                              "DataFrame: ValueError", "ValueError", callee=True)


def _literal_or_none(node: ast.expr):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _two_d_alternatives(x_node: ast.expr, a: Abstract, written: str) -> list[str]:
    """The 2-D X a fix may write instead of `written`: the one column as a DataFrame
    (`df[["price"]]`, quoted as written), or the values as one column."""
    if isinstance(x_node, ast.Subscript) and isinstance(x_node.slice, ast.Constant) and \
            isinstance(x_node.slice.value, str) and written.endswith("]"):
        opening = written.rfind("[", 0, len(written) - len(ast.unparse(x_node.slice)))
        if opening > 0:
            return [f"{written[:opening + 1]}[{written[opening + 1:-1]}]]", f"{written}.to_numpy().reshape(-1, 1)"]
    if a.like == "ndarray":
        return [f"{written}.reshape(-1, 1)"]
    return [f"{written}.to_frame()", f"{written}.to_numpy().reshape(-1, 1)"]
