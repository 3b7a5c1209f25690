"""A figure's layout calls asked of a new Figure of matplotlib's own (no pyplot, no window):

    plt.subplots(2, 3, sharex="column")      Figure().subplots(2, 3, sharex="column")
    fig.add_subplot((2, 3, i)), i = 1        Figure().add_subplot((2, 3, 1))
    plt.subplot(2, 3, 0)                     Figure().add_subplot(2, 3, 0)
    fig.add_subplot(111, projection="3D")    Figure().add_subplot(111, projection="3D")
    plt.GridSpec(2, 3, wspace=-1)            GridSpec(2, 3, wspace=-1)

with the cell's literals and the kernel's plain values (numbers, text, booleans and their tuples,
lists and dicts) alone. The grid, the sharing, the ratios, the projection's name and the figure's
own keywords are read from the arguments, not from the figure the user's call draws on, so what
matplotlib raises on the new one (an exception of its own code) it raises on the user's. A
projection the registry holds must be a class of matplotlib's (a class of the user's would run);
the number of Axes made is bounded (each costs), and a call asked once is not asked again.
"""
from __future__ import annotations

import ast
import functools
import sys
import types
import warnings

from .claims import Live, ValueClaim, read_otherwise_no_claim

_NO = object()
_MOST_AXES = 12                 # Axes a probe may make (a few ms each)
_MOST_ITEMS = 64                # items of the plain values read
# pyplot.figure's keywords a new Figure takes as they are (num and clear choose which figure: not read)
_FIGURE_KEYWORDS = frozenset({"figsize", "dpi", "facecolor", "edgecolor", "linewidth", "frameon", "subplotpars",
                              "tight_layout", "constrained_layout", "layout"})
_RAISES = frozenset({"ValueError", "TypeError", "AttributeError", "IndexError", "KeyError"})


# a Figure's layout methods, as the new Figure is asked them
FIGURE_METHODS = {"subplots": "subplots", "add_subplot": "add_subplot", "add_axes": "add_axes",
                  "add_gridspec": "gridspec"}


@read_otherwise_no_claim
def layout_claim(n: ast.Call, target, live: Live, made_figure: bool) -> ValueClaim | None:
    """What matplotlib raises on a new Figure for the layout call `n` (`target`: its callee's live
    object, matplotlib's own; `made_figure`: `n` calls a method of a Figure the cell made, as pyplot
    made it)."""
    if "matplotlib.figure" not in sys.modules or "matplotlib.gridspec" not in sys.modules or \
            "matplotlib.pyplot" not in sys.modules:
        return None
    ask, of_module = _asked(n, target, made_figure)
    if ask is None:
        return None
    budget = [_MOST_ITEMS]
    args = tuple(_plain(a, live, budget) for a in n.args)
    keywords = {k.arg: _plain(k.value, live, budget) for k in n.keywords}
    if any(v is _NO for v in (*args, *keywords.values())) or not _own_projection(keywords, ask):
        return None
    if ask == "subplots" and not _few_axes(args, keywords):
        return None
    refused = _refusal(ask, _frozen(args), _frozen(tuple(sorted(keywords.items()))))
    if refused is None:
        return None
    kind, reason = refused
    # pyplot's or gridspec's own function on literals alone reads nothing the cell may change (a
    # Figure's method reads its Figure: the fact's subjects)
    literal = of_module and not any(isinstance(x, ast.Name) for a in (*n.args, *(k.value for k in n.keywords))
                                    for x in ast.walk(a))
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {reason}: {kind}", kind, callee=True, literal=literal)


def _asked(n: ast.Call, target, made_figure: bool) -> tuple[str | None, bool]:
    """Which of the new Figure's calls `n` is asked as: "subplots" (pyplot's or a Figure's),
    "add_subplot" (pyplot's subplot too), "add_axes", "gridspec" (the class, pyplot's name for
    it, a Figure's add_gridspec); None for any other call. And whether it is a module's function."""
    from matplotlib import figure, gridspec, pyplot
    if target is pyplot.subplots:
        return "subplots", True
    if target is pyplot.subplot:
        return "add_subplot", True
    if target is gridspec.GridSpec:
        return "gridspec", True
    if not isinstance(n.func, ast.Attribute) or n.func.attr not in FIGURE_METHODS:
        return None, False
    method = n.func.attr
    receiver = getattr(target, "__self__", None) if type(target) is types.MethodType else None
    own = type(receiver) in (figure.Figure, figure.SubFigure) and \
        getattr(type(receiver), method, None) is getattr(figure.FigureBase, method, _NO)
    return (FIGURE_METHODS[method] if own or made_figure else None), False


def _plain(node: ast.expr, live: Live, budget: list):
    """The argument's value where it is plain data: a literal, or a name or attribute whose live
    value is one (_plain_value); _NO otherwise."""
    try:
        v = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        if not isinstance(node, (ast.Name, ast.Attribute)):
            return _NO
        v = live(node)
    return v if _plain_value(v, budget) else _NO


def _plain_value(v, budget: list) -> bool:
    """Python's own scalars, and tuples, lists and dicts of them, within `budget` items."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if type(v) in (int, float, str, bool, type(None)):
        return True
    if type(v) in (tuple, list):
        return all(_plain_value(x, budget) for x in v)
    if type(v) is dict:
        return all(type(k) is str and _plain_value(x, budget) for k, x in v.items())
    return False


def _own_projection(keywords: dict, ask: str) -> bool:
    """A projection written (`projection`, `subplot_kw`'s) that matplotlib's registry holds is a
    class of matplotlib's own; a name it does not hold is refused before any class is made."""
    from matplotlib import projections
    chosen = [keywords.get("projection")]
    if ask == "subplots" and type(keywords.get("subplot_kw")) is dict:
        chosen.append(keywords["subplot_kw"].get("projection"))
    if "axes_class" in keywords or ask == "subplots" and type(keywords.get("subplot_kw")) is dict and \
            "axes_class" in keywords["subplot_kw"]:
        return False
    for name in chosen:
        if name is None or type(name) is not str:
            continue
        if name not in projections.get_projection_names():
            continue                    # refused by name
        cls = projections.get_projection_class(name)
        if not getattr(cls, "__module__", "").startswith(("matplotlib.", "mpl_toolkits.")):
            return False
    return True


def _few_axes(args: tuple, keywords: dict) -> bool:
    rows = args[0] if args else keywords.get("nrows", 1)
    cols = args[1] if len(args) > 1 else keywords.get("ncols", 1)
    return not (type(rows) is int and type(cols) is int and rows * cols > _MOST_AXES)


def _frozen(v):
    """A hashable form of plain data (the memo's key), lists and dicts told apart from tuples."""
    if type(v) is list:
        return ("list", tuple(_frozen(x) for x in v))
    if type(v) is dict:
        return ("dict", tuple((k, _frozen(x)) for k, x in v.items()))
    if type(v) is tuple:
        return tuple(_frozen(x) for x in v)
    return v


def _thawed(v):
    if type(v) is tuple and len(v) == 2 and v[0] == "list" and type(v[1]) is tuple:
        return [_thawed(x) for x in v[1]]
    if type(v) is tuple and len(v) == 2 and v[0] == "dict" and type(v[1]) is tuple:
        return {k: _thawed(x) for k, x in v[1]}
    if type(v) is tuple:
        return tuple(_thawed(x) for x in v)
    return v


@functools.lru_cache(maxsize=256)
def _refusal(ask: str, args: tuple, keywords: tuple) -> tuple[str, str] | None:
    """The exception's name and message matplotlib raises for the call on a new Figure (None: it
    succeeds, or fails otherwise than by its own refusal)."""
    from matplotlib.figure import Figure
    from matplotlib.gridspec import GridSpec
    args, options = _thawed(args), {k: _thawed(v) for k, v in keywords}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if ask == "subplots":
                figure = {k: options.pop(k) for k in list(options) if k in _FIGURE_KEYWORDS}
                options.pop("num", None)
                options.pop("clear", None)
                Figure(**figure).subplots(*args, **options)
            elif ask == "add_subplot":
                Figure().add_subplot(*args, **options)
            elif ask == "add_axes":
                Figure().add_axes(*args, **options)
            else:
                GridSpec(*args, **options)
    except Exception as e:  # noqa: BLE001 - only matplotlib's own refusals are claimed
        frames = _frames(e)
        if type(e).__name__ not in _RAISES or not frames or not frames[-1].startswith("matplotlib"):
            return None
        return type(e).__name__, " ".join(str(e).split())[:200]
    return None


def _frames(e: BaseException) -> list[str]:
    """The modules of the traceback's frames, innermost last."""
    out, tb = [], e.__traceback__
    while tb is not None:
        out.append(tb.tb_frame.f_globals.get("__name__", ""))
        tb = tb.tb_next
    return out[1:]          # (the first is this module's own)
