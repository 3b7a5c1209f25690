"""A literal position the live object does not have, or a label where positions are taken:

    pandas      `df.iloc["a"]` (TypeError), `df.iloc[:, "col"]` (ValueError): iloc takes
                positions; `df.iloc[7]`, `s.iloc[-9]`, `df.iloc[0, 5]` beyond the rows or
                columns (IndexError)
    matplotlib  `axes[2, 0]`, `axes[4]`, `axes[0][3]` beyond the grid of Axes `plt.subplots`
                returned (IndexError); `ax[0]` on a single Axes (TypeError: not subscriptable)

Read: the length and shape of a DataFrame or Series whose class is pandas' own, and of a numpy
ndarray of Axes whose every element's class is matplotlib's `Axes` itself; nothing else.
"""
from __future__ import annotations

import ast
import sys

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
