"""A literal position the live object does not have, or a label where positions are taken:

    pandas      `df.iloc["a"]` (TypeError), `df.iloc[:, "col"]` (ValueError): iloc takes
                positions; `df.iloc[7]`, `s.iloc[-9]`, `df.iloc[0, 5]` beyond the rows or
                columns (IndexError)
    matplotlib  `axes[2, 0]`, `axes[4]`, `axes[0][3]` beyond the grid of Axes `plt.subplots`
                returned (IndexError); `ax[0]` on a single Axes (TypeError: not subscriptable)
    a loop      `for i, col in enumerate(df.columns): ax[i]`, `for i in range(n): a[i]`: every
                iteration runs the index (no break or continue, the index a statement of the
                loop's own body), so the last count indexes an array too short (IndexError)

Read: the length and shape of a DataFrame or Series whose class is pandas' own, and of a numpy
ndarray of Axes whose every element's class is matplotlib's `Axes` itself; nothing else.
"""
from __future__ import annotations

import ast
import sys

from ..pytext.pycheck import walk_skipping
from .abstract import Propagation
from .abstract_value import Abstract
from .read_policy import POLICY
from .values import Live, ValueClaim, _literal_int


def position_claim(n: ast.Subscript, live: Live, text) -> ValueClaim | None:
    try:
        base = n.value
        if isinstance(base, ast.Attribute) and base.attr == "iloc":
            return _iloc_claim(n, live(base.value), text)
        axes_class = _axes_class()
        if axes_class is None or _literal_positions(n.slice) is None:
            return None
        obj = live(base)
        if type(obj) is axes_class:
            return ValueClaim(n, f"{ast.unparse(base)} is one Axes: 'Axes' object is not subscriptable: TypeError",
                              "TypeError")
        return _grid_claim(n, obj, axes_class)
    except Exception:  # noqa: BLE001 - read otherwise: no claim
        return None


def _axes_class():
    mod = sys.modules.get("matplotlib.axes")
    return getattr(mod, "Axes", None) if mod is not None else None


# -- pandas' iloc -----------------------------------------------------------------------------------

def _iloc_claim(n: ast.Subscript, obj, text) -> ValueClaim | None:
    pd = sys.modules.get("pandas")
    if pd is None or type(obj) not in (pd.DataFrame, pd.Series):
        return None
    parts = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
    if len(parts) > obj.ndim:
        return None                     # too many indexers: pandas' IndexingError, left alone
    labels = [p for p in parts if isinstance(p, ast.Constant) and type(p.value) is str]
    if labels:
        return _label_claim(n, parts, labels[0], text)
    for axis, part in enumerate(parts):
        sizes = obj.shape[axis]
        for k in _positions(part):
            if not -sizes <= k < sizes:
                what = "rows" if axis == 0 else "columns"
                return ValueClaim(n, f"{ast.unparse(n)}: position {k} is beyond the {sizes} {what} of "
                                     f"{ast.unparse(n.value.value)}: IndexError (positional indexer is out-of-bounds)",
                                  "IndexError")
    return None


def _label_claim(n: ast.Subscript, parts: list, label: ast.Constant, text) -> ValueClaim:
    """iloc given a label: pandas refuses a lone one with TypeError, one in a tuple with ValueError;
    `.loc` is the fix where the other parts are whole slices."""
    exception = "ValueError" if isinstance(n.slice, ast.Tuple) else "TypeError"
    written = text(n.value)
    whole = all(p is label or (isinstance(p, ast.Slice) and p.lower is p.upper is p.step is None) for p in parts)
    candidates = [written[:-len("iloc")] + "loc"] if written and written.endswith("iloc") and whole else []
    return ValueClaim(n.value, f"{ast.unparse(n)}: iloc takes positions, not the label {label.value!r}: "
                               f"{exception} (use .loc for labels)", exception, candidates)


def _positions(part: ast.expr) -> list[int]:
    """The literal positions an index part names: `3`, `-1`, `[0, 5]`; none for a slice."""
    if isinstance(part, ast.List):
        got = [_literal_int(e) for e in part.elts]
        return [] if any(k is None for k in got) else got
    k = _literal_int(part)
    return [] if k is None else [k]


# -- matplotlib's grid of Axes ----------------------------------------------------------------------

def _literal_positions(index: ast.expr) -> list[int] | None:
    """`3`, `-1`, `(2, 0)`: the literal integers an index names; None for anything else."""
    ks = [_literal_int(p) for p in (index.elts if isinstance(index, ast.Tuple) else [index])]
    return None if not ks or any(k is None for k in ks) else ks


def _grid_claim(n: ast.Subscript, grid, axes_class) -> ValueClaim | None:
    np = sys.modules.get("numpy")
    if np is None or type(grid) is not np.ndarray or grid.dtype != object or grid.size == 0 or grid.size > 1000:
        return None
    if any(type(a) is not axes_class for a in grid.flat):
        return None
    ks = _literal_positions(n.slice)
    shape = "(" + ", ".join(str(d) for d in grid.shape) + ("," if grid.ndim == 1 else "") + ")"
    where = f"{ast.unparse(n.value)} is a grid of Axes of shape {shape}"
    if len(ks) > grid.ndim:
        return ValueClaim(n, f"{ast.unparse(n)}: {where}; {len(ks)} indices are too many: IndexError", "IndexError")
    for axis, k in enumerate(ks):
        if not -grid.shape[axis] <= k < grid.shape[axis]:
            return ValueClaim(n, f"{ast.unparse(n)}: {where}; index {k} is out of bounds for axis {axis} with "
                                 f"size {grid.shape[axis]}: IndexError", "IndexError")
    return None


# -- a loop's counter ---------------------------------------------------------------------------------

def loop_index_claim(loop: ast.For, read: Live) -> ValueClaim | None:
    """`for i, col in enumerate(cols): ax[i]...` where the loop counts past an array's first axis
    (a numpy array, live or made in the cell: an array of Axes from `plt.subplots` among them)."""
    try:
        counted = _counted(loop, read)
        if counted is None:
            return None
        name, count, what = counted
        if any(isinstance(n, (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Await))
               for n in ast.walk(ast.Module(body=loop.body, type_ignores=[]))):
            return None
        stored = {n.id for n in ast.walk(ast.Module(body=loop.body, type_ignores=[]))
                  if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        if name in stored:
            return None
        for stmt in loop.body:          # the loop's own statements: each runs in every iteration
            if isinstance(stmt, (ast.If, ast.While, ast.For, ast.AsyncFor, ast.Try, ast.With, ast.AsyncWith,
                                 ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match)) or \
                    getattr(ast, "TryStar", None) and isinstance(stmt, ast.TryStar):
                continue
            for n in _outside_lambdas(stmt):
                if not (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and
                        isinstance(n.slice, ast.Name) and n.slice.id == name and n.value.id not in stored):
                    continue
                if any(isinstance(m, ast.Attribute) and isinstance(m.value, ast.Name) and m.value.id == n.value.id
                       for b in loop.body for m in ast.walk(b)):
                    continue            # `a.resize(...)` in the loop: its length may change
                size = _first_axis(read(n.value))
                if size is not None and count > size:
                    if not isinstance(n.ctx, ast.Load):     # `out[i] = v`: placed on its text as read
                        n = ast.copy_location(ast.Subscript(n.value, n.slice, ast.Load()), n)
                    return ValueClaim(n, f"{ast.unparse(n)}: the loop counts {name} up to {count - 1} ({what}); "
                                         f"{n.value.id} has {size} along axis 0: IndexError", "IndexError")
        return None
    except Exception:  # noqa: BLE001 - read otherwise: no claim
        return None


def _outside_lambdas(node: ast.AST):
    """The nodes of a statement that run when it runs (not a lambda's or comprehension's body)."""
    return walk_skipping(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))


def _counted(loop: ast.For, read: Live) -> tuple[str, int, str] | None:
    """The loop's counter, how many times the loop runs and how that was read: `for i in
    range(n)`, `range(a, b)`, `for i, x in enumerate(items)` (items of a known length)."""
    it, target = loop.iter, loop.target
    if not isinstance(it, ast.Call) or not isinstance(it.func, ast.Name) or it.keywords or \
            any(isinstance(a, ast.Starred) for a in it.args):
        return None
    func = read(it.func)
    import builtins
    if func is builtins.range and isinstance(target, ast.Name) and 1 <= len(it.args) <= 2:
        bounds = [_length(a.args[0], read) if isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and
                  len(a.args) == 1 and not a.keywords and read(a.func) is builtins.len else Propagation(read).integer(a)
                  for a in it.args]
        if any(b is None for b in bounds):
            return None
        start, stop = (0, bounds[0]) if len(bounds) == 1 else bounds
        if start < 0 or stop <= start:
            return None
        return target.id, stop, f"range({ast.unparse(it.args[-1]) if len(bounds) == 1 else ', '.join(map(str, bounds))})"
    if func is builtins.enumerate and len(it.args) == 1 and isinstance(target, ast.Tuple) and \
            len(target.elts) == 2 and isinstance(target.elts[0], ast.Name):
        items = it.args[0]
        copied = isinstance(items, ast.Call)        # `list(x)`, `x.tolist()`: a new sequence
        used = {n.id for b in loop.body for n in ast.walk(b) if isinstance(n, ast.Name)}
        if not copied and {n.id for n in ast.walk(items) if isinstance(n, ast.Name)} & used and \
                type(read(items)) is list:
            return None                 # a list the loop may grow or shrink as it goes
        n = _length(items, read)
        return None if not n else (target.elts[0].id, n, f"enumerate over {n} items")
    return None


def _length(node: ast.expr, read: Live) -> int | None:
    """How many items iterating `node` gives: a live list, tuple, ndarray, pandas Index, Series,
    DataFrame (its columns) or array of the libraries' own classes, an array the cell made, `list(x)`."""
    import builtins
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 and \
            not node.keywords and read(node.func) in (builtins.list, builtins.tuple):
        return _length(node.args[0], read)
    v = Propagation(read).value(node)
    if type(v) in (list, tuple):
        return len(v)
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if issubclass(type(v), Abstract):
        if v.like == "DataFrame":
            return v.shape[1] if type(v.shape[1]) is int else None
        return v.shape[0] if v.like in ("ndarray", "Series") and v.ndim and type(v.shape[0]) is int else None
    if np is not None and type(v) is np.ndarray:
        return v.shape[0] if v.ndim else None
    if pd is not None and type(v) in (pd.Index, pd.Series):
        return len(v)
    if pd is not None and type(v) is pd.DataFrame:
        return v.shape[1]
    module = POLICY.module_of(v)
    if pd is not None and issubclass(type(v), pd.api.extensions.ExtensionArray) and type(module) is str and \
            module.split(".")[0] == "pandas":
        return len(v)                   # `df.columns.values` of text labels: pandas' own array
    return None


def _first_axis(v) -> int | None:
    """The length of an array's first axis: an array the cell made (plt.subplots' Axes too) or
    a live numpy ndarray of numpy's own class."""
    np = sys.modules.get("numpy")
    if issubclass(type(v), Abstract):
        return v.shape[0] if v.like == "ndarray" and v.ndim and type(v.shape[0]) is int else None
    if np is not None and type(v) is np.ndarray and v.ndim:
        return v.shape[0]
    return None
