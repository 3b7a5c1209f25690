"""matplotlib's rule on the data a plot is given, which it checks before it draws anything:

    plot     `plt.plot(x, y)`, `ax.plot(x, y, "o-")`: x and y of different first dimensions
             (ValueError: x and y must have same first dimension)
    scatter  `plt.scatter(x, y)`: x and y of different sizes (ValueError: x and y must be the
             same size)
    semilogx, semilogy, loglog: plot's rule (they set a log scale, then call plot), with none of
             the scale's own keywords
    fill_between, fill_betweenx: `ax.fill_between(x, y1)`, `(x, y1, y2)`: a y of more than one
             value whose size is not x's, x of more than one (ValueError: 'x' has size 200, but
             'y1' has an unequal size of 199); every one 1-D, or a number for y2

Only the keywords' aliases (a TypeError for two of one property) and the format string come
first, so neither may be in doubt: the format a literal, the keywords' names those matplotlib
normalises without an error, and no `data=` (then x and y are keys). x and y are numbers, live
(a numpy ndarray or pandas Series of their own classes, a list), written in the call or made by
the cell (abstract.py). The callee is pyplot's own function, the Axes method of a live Axes of
matplotlib's own class, or of an Axes `plt.subplots` made in the cell (plot and scatter: of a
projection's too, where its class keeps the Axes' own method).
"""
from __future__ import annotations

import ast
import sys
import types

from .abstract_value import Abstract, _literal, _nested, array_like
from .namespace import Made
from .read_policy import POLICY
from .values import Live, ValueClaim

# plot and the functions that set a log scale and then call it (with none of the scale's keywords)
_LINES = ("plot", "semilogx", "semilogy", "loglog")
_SCALE_KEYWORDS = frozenset({"base", "subs", "nonpositive", "basex", "basey", "subsx", "subsy", "nonposx",
                             "nonposy"})
_FILLS = {"fill_between": ("x", "y"), "fill_betweenx": ("y", "x")}
_PLOTS = (*_LINES, "scatter", *_FILLS)


def plot_claim(n: ast.Call, target, value: Live, current_plain=lambda method: False) -> ValueClaim | None:
    """`plt.plot(x, y)`, `ax.scatter(x, y)` or `ax.fill_between(x, y1)` whose data matplotlib
    refuses together. `current_plain(method)`: does pyplot's current Axes keep matplotlib's own
    `method` (pyplot's function calls it there)?"""
    func = n.func
    if not isinstance(func, ast.Attribute) or func.attr not in _PLOTS or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    keywords = {k.arg for k in n.keywords}
    if "data" in keywords or (func.attr in _LINES and keywords & _SCALE_KEYWORDS):
        return None
    if func.attr not in ("plot", "scatter") and not _plain_axes_method(func, target, value):
        return None                      # a polar, geographic or 3-D Axes refuses a log scale, fills otherwise
    if func.attr in _FILLS:
        return _fill_claim(n, target, value, current_plain)
    args = list(n.args)
    if func.attr in _LINES and len(args) == 3 and isinstance(args[2], ast.Constant) and type(args[2].value) is str:
        args = args[:2]                 # the format: a literal (a bad one is a ValueError too)
    if len(args) != 2:
        return None
    try:
        if not _matplotlib_callee(func, target, value, current_plain) or not _plain_keywords(func.attr, n.keywords):
            return None
        x, y = (plotted_numbers(a, value) for a in args)
    except Exception:  # noqa: BLE001 - read otherwise: no claim
        return None
    if x is None or y is None:
        return None
    if func.attr in _LINES:
        if x.shape[0] is None or y.shape[0] is None or x.shape[0] == y.shape[0]:
            return None
        return ValueClaim(func, f"{ast.unparse(func)}(): x has {x.shape[0]} rows and y {y.shape[0]}: ValueError (x and "
                                "y must have same first dimension)", "ValueError", callee=True)
    if x.size is None or y.size is None:
        return None
    if x.size != y.size:
        return ValueClaim(func, f"{ast.unparse(func)}(): x has {x.size} values and y {y.size}: ValueError (x and y must "
                                "be the same size)", "ValueError", callee=True)
    return _scatter_sizes_claim(n, x.size, value)


def _scatter_sizes_claim(n: ast.Call, size: int, value: Live) -> ValueClaim | None:
    """`scatter(x, y, s=sizes, c=values)`, x and y of `size` points: numbers for `s` of another
    count than one or `size` (ValueError: s must be a scalar, or float array-like with the same
    size as x and y), then 1-D numbers for `c` of another count than `size` that are no colour
    either (three or four are read as one RGB(A) colour; none as no colour): ValueError ('c'
    argument has 5 elements, which is inconsistent with 'x' and 'y' with size 10)."""
    given = {k.arg: k.value for k in n.keywords}
    for name in ("s", "c"):
        node = given.get(name)
        numbers = plotted_numbers(node, value) if node is not None and _number(node, value) is None else None
        if numbers is None or numbers.size is None or numbers.size == size or \
                name == "s" and numbers.size == 1 or name == "c" and (numbers.ndim != 1 or numbers.size in (0, 3, 4)):
            if numbers is None and node is not None and name == "s" and _number(node, value) is None:
                return None             # sizes not known: the colours' rule comes after theirs
            continue
        func = n.func
        if name == "s":
            return ValueClaim(node, f"{ast.unparse(func)}(): s has {numbers.size} values and x and y {size}: ValueError (s "
                                    "must be a scalar, or float array-like with the same size as x and y)", "ValueError")
        return ValueClaim(node, f"{ast.unparse(func)}(): c has {numbers.size} values and x and y {size}: ValueError ('c' "
                                f"argument has {numbers.size} elements, which is inconsistent with 'x' and 'y' with size "
                                f"{size})", "ValueError")
    return None


def _fill_claim(n: ast.Call, target, value: Live, current_plain=lambda method: False) -> ValueClaim | None:
    """`ax.fill_between(x, y1, y2)`: matplotlib's FillBetweenPolyCollection refuses a y of more
    than one value whose size is not x's (x of more than one), each checked in turn, after the
    keywords' aliases (a TypeError first) and before `where` is read."""
    t_dir, f_dir = _FILLS[n.func.attr]
    given = {k.arg: k.value for k in n.keywords}
    if len(n.args) not in (2, 3) or (len(n.args) == 3 and "y2" in given and t_dir == "x") or \
            (len(n.args) == 3 and "x2" in given and t_dir == "y") or set(given) & {t_dir, f_dir + "1"}:
        return None
    nodes = [*n.args, *([given[f_dir + "2"]] if f_dir + "2" in given else [])]
    try:
        if not _matplotlib_callee(n.func, target, value, current_plain) or not _plain_keywords("fill", n.keywords):
            return None
        # x an array; y1 and y2 each an array or a number (broadcast)
        arrays = [plotted_numbers(nodes[0], value),
                  *(plotted_numbers(a, value) if _number(a, value) is None else "number" for a in nodes[1:])]
    except Exception:  # noqa: BLE001 - read otherwise: no claim
        return None
    if any(a is None or (a != "number" and (a.ndim != 1 or a.size is None)) for a in arrays):
        return None
    t = arrays[0]
    for name, a in zip((f_dir + "1", f_dir + "2"), arrays[1:]):
        if a != "number" and t.size > 1 and a.size > 1 and a.size != t.size:
            return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {t_dir} has {t.size} values and {name} {a.size}: "
                                      f"ValueError ('{t_dir}' has size {t.size}, but '{name}' has an unequal size)",
                              "ValueError", callee=True)
    return None


def _plain_axes_method(func: ast.Attribute, target, value: Live) -> bool:
    """The method of an Axes of matplotlib's `Axes` class exactly (live, or one the cell made
    without a projection), never pyplot's form (its current Axes may be of any class)."""
    from .abstract_matplotlib import axes_class
    cls = axes_class()
    if cls is None:
        return False
    if type(target) is types.MethodType:
        return type(target.__self__) is cls
    made = value(func.value)
    return issubclass(type(made), Abstract) and made.like == "Axes"


def _number(node: ast.expr, value: Live):
    """A Python number written or held (y2=0, y2=base): broadcast against x."""
    v = _literal(node)
    if type(v) not in (int, float):
        v = value(node)
        v = v.literal() if issubclass(type(v), Made) else v
    return v if type(v) in (int, float) else None


def _matplotlib_callee(func: ast.Attribute, target, value: Live, current_plain=lambda method: False) -> bool:
    """Is the callee pyplot's own function on a current Axes that keeps the method
    (`current_plain`), or matplotlib's Axes method of an Axes of its own?"""
    pyplot, axes = sys.modules.get("matplotlib.pyplot"), sys.modules.get("matplotlib.axes")
    if pyplot is None or axes is None:
        return False
    method = POLICY.class_members(axes.Axes).get(func.attr)
    if target is not None and POLICY.module_members(pyplot).get(func.attr) is target:
        return current_plain(func.attr)
    if type(target) is types.MethodType and target.__func__ is method:
        owner = target.__self__
        return POLICY.is_library(type(owner)) and str(POLICY.class_module(type(owner))).startswith("matplotlib.")
    made = value(func.value)
    if issubclass(type(made), Abstract) and made.like == "projection" and isinstance(made.axes, type):
        # a projection's Axes (`subplot_kw={"projection": "polar"}`) whose method is the Axes' own
        own = POLICY.static(axes.Axes, func.attr, None)
        return own is not None and POLICY.static(made.axes, func.attr, None) is own
    return issubclass(type(made), Abstract) and made.like == "Axes"


def _plain_keywords(name: str, keywords: list[ast.keyword]) -> bool:
    """Do the keywords' names pass matplotlib's alias check (two names of one property raise
    TypeError before the data is read)?"""
    from matplotlib import cbook, collections, lines
    try:
        cbook.normalize_kwargs({k.arg: None for k in keywords}, lines.Line2D if name in _LINES else collections.Collection)
    except TypeError:
        return False
    return True


def plotted_numbers(node: ast.expr, value: Live) -> Abstract | None:
    """The shape of numbers, 1-D or 2-D: live, written or made by the cell."""
    a = array_like(node, value)
    if a is None and type(v := value(node)) in (list, tuple):
        nested = _nested(v)             # a live list: the array numpy makes of it
        a = Abstract("ndarray", *nested) if nested is not None else None
    if a is None or a.like not in ("ndarray", "Series") or a.ndim not in (1, 2) or a.kind is None or \
            a.kind not in "biuf":
        return None
    return a
