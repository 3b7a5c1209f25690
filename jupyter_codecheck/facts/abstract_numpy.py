"""In-cell propagation (abstract.py) through numpy's calls: a ufunc's outer, arrays of literals,
joins, reductions, a Generator's draws: the methods of Propagation that read them.
"""
from __future__ import annotations

import ast
import sys

from .abstract_value import (_GENERATOR_DRAWS, _REDUCTIONS, Abstract, _join_kind, _joined, _literal,
                             _nested, _scalar_kind, joining, literal_int, numeric)


class NumpyCalls:
    """Numpy's calls: a ufunc's outer, arrays of literals, joins, reductions, a Generator's draws
    (a part of abstract.Propagation)."""

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
