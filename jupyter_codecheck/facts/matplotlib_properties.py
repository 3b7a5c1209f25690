"""matplotlib's artist properties as keywords. The plotting functions pass the keywords they do
not name themselves to the artist they make (`plt.plot(x, y, colr="r")` to a Line2D), which
sets each through its `set_<name>` method and raises AttributeError ("Line2D.set() got an
unexpected keyword argument 'colr'", "'Text' object has no property ...") where there is none. The table says which artist each
function makes, as its documentation does ("**kwargs : `.Line2D` properties"); the artist's
setters, the function's own parameters and the names matplotlib's own code reads out of the
keywords before the artist sees them (any quoted word of the modules on the way) are read
statically. A word found in none of them is no property.
"""
from __future__ import annotations

import ast
import difflib
import inspect
import re
import sys
import types

from .namespace import chain_root
from .read_policy import POLICY
from .values import ValueClaim

# Axes method -> (the module and class of the artist it makes from its keywords, the least
# positional arguments for it to make one: `plot()` with no data makes no line)
ARTISTS = {
    "plot": ("matplotlib.lines", "Line2D", 1), "loglog": ("matplotlib.lines", "Line2D", 1),
    "semilogx": ("matplotlib.lines", "Line2D", 1), "semilogy": ("matplotlib.lines", "Line2D", 1),
    "axhline": ("matplotlib.lines", "Line2D", 0), "axvline": ("matplotlib.lines", "Line2D", 0),
    "scatter": ("matplotlib.collections", "PathCollection", 2),
    "bar": ("matplotlib.patches", "Rectangle", 2), "barh": ("matplotlib.patches", "Rectangle", 2),
    "imshow": ("matplotlib.image", "AxesImage", 1),
    "set_xlabel": ("matplotlib.text", "Text", 1), "set_ylabel": ("matplotlib.text", "Text", 1),
    "set_title": ("matplotlib.text", "Text", 1), "text": ("matplotlib.text", "Text", 3),
    "hist": ("matplotlib.patches", "Rectangle", 1),
    "errorbar": ("matplotlib.lines", "Line2D", 2), "step": ("matplotlib.lines", "Line2D", 2),
    "fill_between": ("matplotlib.collections", "FillBetweenPolyCollection", 2),
    "annotate": ("matplotlib.text", "Annotation", 2),
    "vlines": ("matplotlib.collections", "LineCollection", 3), "hlines": ("matplotlib.collections", "LineCollection", 3),
    "axvspan": ("matplotlib.patches", "Rectangle", 2), "axhspan": ("matplotlib.patches", "Rectangle", 2),
    "fill": ("matplotlib.patches", "Polygon", 2), "pcolormesh": ("matplotlib.collections", "QuadMesh", 1),
}
# methods whose artist depends on a keyword: (the keyword, the class for each literal value; the
# table's class where it is not given). `hist`: bars for histtype "bar" and "barstacked" (the
# default), a Polygon for "step" and "stepfilled"; another value, or one not written, no claim
BY_KEYWORD = {"hist": ("histtype", {"bar": "Rectangle", "barstacked": "Rectangle", "step": "Polygon",
                                    "stepfilled": "Polygon"})}
# pyplot's functions that call an Axes method of another name
PYPLOT = {"xlabel": "set_xlabel", "ylabel": "set_ylabel", "title": "set_title"}
# where matplotlib's code may read a keyword out before the artist sees it
_ON_THE_WAY = ("matplotlib.pyplot", "matplotlib.axes._axes", "matplotlib.axes._base", "matplotlib.artist")
_WORD = re.compile(r"""['"]([A-Za-z_]\w*)['"]""")
_WORDS: dict[str, frozenset[str] | None] = {}


def property_claim(n: ast.Call, target, text, *, made_axes: bool = False) -> ValueClaim | None:
    """The first keyword of a plotting call that is neither the function's parameter nor a
    property of the artist it makes (AttributeError), with the properties meant as fixes.
    `made_axes`: `target` is matplotlib's Axes method called on an Axes the cell made."""
    made = _made(target, made_axes)
    if made is None or any(isinstance(a, ast.Starred) for a in n.args):
        return None
    method, cls, functions, modules, least = made
    if method == "axes" and any(k.arg in ("projection", "polar", "axes_class") for k in n.keywords):
        return None                     # another class's Axes, with properties of its own
    if method in BY_KEYWORD:
        cls = _chosen_class(n, cls, *BY_KEYWORD[method])
        if cls is None:
            return None
    if len(n.args) < least:
        return None
    named: set[str] = set()
    for f in functions:
        sig = POLICY.signature(f)
        if sig is None:
            return None
        named |= {p.name for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD}
    for kw in n.keywords:
        if kw.arg is None or kw.arg in named or POLICY.static(cls, f"set_{kw.arg}", None) is not None:
            continue
        if any(kw.arg in _words(m) for m in modules):
            continue            # read out by name somewhere on the way: not a property's fault
        setters = {a[4:] for k in POLICY.mro(cls) for a in POLICY.class_members(k) if a.startswith("set_")}
        written = text(kw)
        # the closest name alone: another property near it may refuse the value (fontstyle=3)
        meant = difflib.get_close_matches(kw.arg, sorted(setters | named), n=1, cutoff=0.75)
        fixes = [m + written[len(kw.arg):] for m in meant] if written is not None and written.startswith(kw.arg) else []
        root = chain_root(n.func)
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): the {cls.__name__} it makes has no property {kw.arg!r}: "
                              "AttributeError", "AttributeError", fixes,
                          subjects=(root,) if root is not None else ())
    return None


def _chosen_class(n: ast.Call, default: type, keyword: str, classes: dict):
    """The artist class a keyword's literal value chooses (the default where it is not given)."""
    given = next((k.value for k in n.keywords if k.arg == keyword), None)
    if given is None:
        return default
    if not (isinstance(given, ast.Constant) and given.value in classes):
        return None
    cls = POLICY.static(sys.modules.get(default.__module__), classes[given.value], None)
    return cls if isinstance(cls, type) else None


def _made(target, made_axes: bool = False):
    """(the Axes method, the artist class, the functions whose parameters the call may name, the
    modules on the way, the least positional arguments) for a pyplot function or an Axes method
    of the table; `plt.figure` and `plt.subplots`: the Figure, whose keywords its constructor
    names or sets; `plt.axes`: the Axes, likewise."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    axes = sys.modules.get("matplotlib.axes")
    axes_class = POLICY.static(axes, "Axes", None) if axes is not None else None
    if pyplot is None or axes_class is None:
        return None
    figure = sys.modules.get("matplotlib.figure")
    for name, module, cls_name in (("figure", figure, "Figure"), ("subplots", figure, "Figure"),
                                   ("axes", axes, "Axes")):
        if module is not None and target is POLICY.static(pyplot, name, None):
            cls = POLICY.static(module, cls_name, None)
            init = POLICY.static(cls, "__init__", None) if cls is not None else None
            # subplots hands its other keywords to plt.figure, which names some itself (FigureClass)
            via = POLICY.static(pyplot, "figure", None) if name == "subplots" else None
            return (name, cls, [f for f in (target, via, init) if f is not None],
                    ("matplotlib.pyplot", "matplotlib.figure", "matplotlib.axes._base", "matplotlib.projections",
                     "matplotlib.artist"), 0) if init is not None else None
    method = None
    if made_axes:
        method = next((name for name in ARTISTS if target is POLICY.static(axes_class, name, None)), None)
    elif type(target) is types.MethodType and issubclass(type(target.__self__), axes_class):
        method = next((name for name in ARTISTS if target.__func__ is POLICY.static(axes_class, name, None)), None)
    elif type(target) is types.FunctionType:
        for name in ARTISTS.keys() | PYPLOT.keys():
            if target is POLICY.static(pyplot, name, None):
                method = PYPLOT.get(name, name)
                break
    if method is None:
        return None
    module, cls_name, least = ARTISTS[method]
    cls = POLICY.static(sys.modules.get(module), cls_name, None) if module in sys.modules else None
    if not isinstance(cls, type):
        return None
    function = POLICY.static(axes_class, method, None)
    functions = [f for f in (function, target if type(target) is types.FunctionType else None) if f is not None]
    return method, cls, functions, (*_ON_THE_WAY, module), least


def _words(module_name: str) -> frozenset[str]:
    """The quoted words of a module's source (read once): the names its code may look up."""
    if module_name not in _WORDS:
        module = sys.modules.get(module_name)
        try:
            source = inspect.getsource(module) if module is not None else ""
        except (OSError, TypeError):
            source = None
        # a module whose source cannot be read could read any name: every word is its
        _WORDS[module_name] = frozenset(_WORD.findall(source)) if source is not None else None
    words = _WORDS[module_name]
    return words if words is not None else _Everything()


class _Everything(frozenset):
    def __contains__(self, item) -> bool:
        return True
