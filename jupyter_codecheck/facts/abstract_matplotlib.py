"""In-cell propagation (abstract.py) through matplotlib's calls, as matplotlib documents them:
plt.subplots' grid of Axes, plt.axes' one Axes. Functions of the call's literal arguments:
Propagation calls them. An Axes so made is of matplotlib's `Axes` class exactly (no projection
chose another): `axes_names` gives what its instance holds of its own.
"""
from __future__ import annotations

import ast
import functools
import sys

from .abstract_value import _SHARE, _SUBPLOTS_OPTIONS, Abstract, _literal, literal_int
from .read_policy import POLICY

# the keywords by which an Axes of another class is made (a 3-D or polar one, the user's class)
_OTHER_CLASS = frozenset({"projection", "polar", "axes_class"})


def subplots(node: ast.Call):
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
    if r is None or c is None or r < 1 or c < 1 or type(squeeze) is not bool or \
            not _plain_axes(keywords.get("subplot_kw")):
        return None
    if not squeeze:
        axes = Abstract("ndarray", (r, c), "O", holds="Axes")
    elif r == c == 1:
        axes = Abstract("Axes")
    else:
        axes = Abstract("ndarray", tuple(d for d in (r, c) if d != 1), "O", holds="Axes")
    return (None, axes)


def axes(node: ast.Call):
    """plt.axes() or plt.axes([left, bottom, width, height]), with keywords that are properties of
    matplotlib's Axes (each has its `set_` method): a new Axes of that class."""
    cls = axes_class()
    if cls is None or len(node.args) > 1 or any(k.arg is None or k.arg in _OTHER_CLASS or
                                                 POLICY.static(cls, f"set_{k.arg}", None) is None
                                                 for k in node.keywords):
        return None
    if node.args:
        rect = _literal(node.args[0])
        if type(rect) not in (list, tuple) or len(rect) != 4 or \
                any(type(x) not in (int, float) for x in rect):
            return None
    return Abstract("Axes")


def _plain_axes(subplot_kw: ast.expr | None) -> bool:
    """Does subplots' `subplot_kw` (not given, or a literal dict) leave the Axes' class alone?"""
    if subplot_kw is None:
        return True
    if isinstance(subplot_kw, ast.Call) and isinstance(subplot_kw.func, ast.Name) and subplot_kw.func.id == "dict" \
            and not subplot_kw.args:
        return all(k.arg is not None and k.arg not in _OTHER_CLASS for k in subplot_kw.keywords)
    given = _literal(subplot_kw)
    return type(given) is dict and not set(given) & _OTHER_CLASS


def axes_class() -> type | None:
    mod = sys.modules.get("matplotlib.axes")
    cls = POLICY.static(mod, "Axes", None) if mod is not None else None
    return cls if isinstance(cls, type) else None


def figure_class() -> type | None:
    mod = sys.modules.get("matplotlib.figure")
    cls = POLICY.static(mod, "Figure", None) if mod is not None else None
    return cls if isinstance(cls, type) else None


@functools.cache
def axes_names() -> tuple[type, frozenset[str]] | None:
    """matplotlib's Axes class and the public names its instance holds of its own, read from a
    stand-in Axes on a figure of its own (no pyplot: no figure of the user's is touched)."""
    cls, figure = axes_class(), sys.modules.get("matplotlib.figure")
    if cls is None or figure is None:
        return None
    made = figure.Figure().add_subplot()
    if type(made) is not cls:
        return None
    return cls, frozenset(k for k in POLICY.own_dict(made) if type(k) is str and not k.startswith("_"))
