"""matplotlib's artist properties as keywords. The plotting functions pass the keywords they do
not name themselves to the artist they make (`plt.plot(x, y, colr="r")` to a Line2D), which
sets each through its `set_<name>` method and raises AttributeError ("Line2D.set() got an
unexpected keyword argument 'colr'", "'Text' object has no property ...") where there is none. The table says which artist each
function makes, as its documentation does ("**kwargs : `.Line2D` properties"); the artist's
setters, the function's own parameters and the names matplotlib's own code reads out of the
keywords before the artist sees them (any quoted word of the modules on the way) are read
statically. A word found in none of them is no property.

An artist's own `set` and `plt.setp` the same way, a Figure's texts, a colorbar's keywords
(`Colorbar.__init__` names all it takes) and `tick_params`' (matplotlib.axis' lists). A claim
takes the other keywords' values as their setters take them: where one refuses its value too,
that error may come first; the keyword claimed is refused either way.

A Figure's `savefig` hands what it does not name to the print method of the file's format
(`fig.savefig("f.png", di=200)`: TypeError from `print_png`).

A new Axes likewise (`fig.add_subplot(111, projecton="3d")`, `plt.subplot`, `plt.axes`,
`add_axes`): its class is the one the literal projection keywords choose in matplotlib's
registry. A legend's keywords go to `Legend.__init__`, which names all it takes (TypeError).
"""
from __future__ import annotations

import ast
import collections
import difflib
import inspect
import os
import re
import sys
import types

from .namespace import Made, chain_root
from .abstract_matplotlib import figure_class as matplotlib_figure, projection_class
from .abstract_value import _literal
from .read_policy import POLICY
from .libraries import own_classes, own_function
from .plots import plotted_numbers
from .matplotlib_values import format_claim, keyword_value_claim, legend_value_claim, mappable_refused
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
    "fill_betweenx": ("matplotlib.collections", "FillBetweenPolyCollection", 2),
    "hist2d": ("matplotlib.collections", "QuadMesh", 2),
    "secondary_xaxis": ("matplotlib.axes._secondary_axes", "SecondaryAxis", 1),
    "secondary_yaxis": ("matplotlib.axes._secondary_axes", "SecondaryAxis", 1),
    "annotate": ("matplotlib.text", "Annotation", 2),
    "vlines": ("matplotlib.collections", "LineCollection", 3), "hlines": ("matplotlib.collections", "LineCollection", 3),
    "axvspan": ("matplotlib.patches", "Rectangle", 2), "axhspan": ("matplotlib.patches", "Rectangle", 2),
    "fill": ("matplotlib.patches", "Polygon", 2), "pcolormesh": ("matplotlib.collections", "QuadMesh", 1),
    "pcolor": ("matplotlib.collections", "PolyQuadMesh", 1),
    "contour": ("matplotlib.contour", "QuadContourSet", 1), "contourf": ("matplotlib.contour", "QuadContourSet", 1),
    # "**kwargs: Any remaining keyword arguments are passed through to Axes.annotate", once a bar
    "bar_label": ("matplotlib.text", "Annotation", 1),
    "axline": ("matplotlib.lines", "AxLine", 1), "stairs": ("matplotlib.patches", "StepPatch", 1),
    "arrow": ("matplotlib.patches", "FancyArrow", 4), "broken_barh": ("matplotlib.collections", "PolyCollection", 2),
    "hexbin": ("matplotlib.collections", "PolyCollection", 2),
    # "**kwargs: `~matplotlib.axes.Axes.imshow` arguments"; ecdf draws with `plot`
    "matshow": ("matplotlib.image", "AxesImage", 1), "ecdf": ("matplotlib.lines", "Line2D", 1),
}
# methods that hand their keywords to another Axes method, which names some itself: `hist2d`
# calls `pcolormesh(xedges, yedges, h.T, **kwargs)` (`vmin`, `cmap`, `shading` are its own)
VIA = {"hist2d": "pcolormesh", "bar_label": "annotate", "matshow": "imshow", "ecdf": "plot"}
# methods whose first argument is checked before the artist is made: a number or one of these
# literal names (`secondary_xaxis("middle")` is a ValueError first)
PLACED = {"secondary_xaxis": ("top", "bottom"), "secondary_yaxis": ("left", "right")}
# methods that make one artist an item of their data (no item: no artist, and no keyword is read)
PER_ITEM = frozenset({"bar", "barh"})
# methods whose artist depends on a keyword: (the keyword, the class for each literal value; the
# table's class where it is not given). `hist`: bars for histtype "bar" and "barstacked" (the
# default), a Polygon for "step" and "stepfilled"; another value, or one not written, no claim
BY_KEYWORD = {"hist": ("histtype", {"bar": "Rectangle", "barstacked": "Rectangle", "step": "Polygon",
                                    "stepfilled": "Polygon"})}
# pyplot's functions that make a new Figure of the keywords they do not name (`plt.figure(**kwargs)`
# first: `subplot_mosaic` lays its mosaic out after), with the least arguments they need
_NEW_FIGURE = {"figure": 0, "subplots": 0, "subplot_mosaic": 1}
# pyplot's functions that call an Axes method of another name
PYPLOT = {"xlabel": "set_xlabel", "ylabel": "set_ylabel", "title": "set_title"}
# Figure method -> the same for the Figure's own texts ("Additional kwargs are `matplotlib.text.Text`
# properties"), which `FigureBase.text` makes; pyplot's functions that call them on the current Figure
FIGURE_ARTISTS = {"suptitle": ("matplotlib.text", "Text", 1), "supxlabel": ("matplotlib.text", "Text", 1),
                  "supylabel": ("matplotlib.text", "Text", 1), "text": ("matplotlib.text", "Text", 3)}
PYPLOT_FIGURE = {"suptitle": "suptitle", "supxlabel": "supxlabel", "supylabel": "supylabel", "figtext": "text"}
# keywords the call passes on by name itself: given again, a TypeError ("multiple values") first
_PASSED_ON = {"suptitle": {"s", "text"}, "supxlabel": {"s", "text"}, "supylabel": {"s", "text"}, "text": {"text"}}
# where matplotlib's code may read a keyword out before the artist sees it
ON_THE_WAY = ("matplotlib.pyplot", "matplotlib.axes._axes", "matplotlib.axes._base", "matplotlib.artist")
_WORD = re.compile(r"""['"]([A-Za-z_]\w*)['"]""")
_WORDS: dict[str, frozenset[str] | None] = {}
# `@_api.make_keyword_only("3.10", "normed")`: names the decorated function's own parameter (its
# signature holds it), after which its callers must name it; no keyword is read out by it
_KEYWORD_ONLY = re.compile(r"@_api\.make_keyword_only\(\s*(?:'[^']*'|\"[^\"]*\")\s*,\s*(?:'\w+'|\"\w+\")\s*\)")


def property_claim(n: ast.Call, target, text, *, made_axes: bool = False,
                   made_figure: bool = False, value=None, pyplot_kept: bool = False,
                   bars=lambda node: False) -> ValueClaim | None:
    """The first keyword of a plotting call that is neither the function's parameter nor a
    property of the artist it makes (AttributeError), with the properties meant as fixes.
    `made_axes`: `target` is matplotlib's Axes method called on an Axes the cell made;
    `made_figure`: matplotlib's Figure method called on a Figure the cell made. `value` reads
    the data (a bar chart of no bars makes no artist: its data must be known not empty);
    `bars(node)`: is the container `bar_label` is given surely a BarContainer of a bar at least?"""
    if any(isinstance(a, ast.Starred) for a in n.args):
        return None
    made = _new_axes(n, target, made_figure) if made_figure or not made_axes else None
    made = made or (_made(target, made_axes, pyplot_kept) if not made_figure else None) or \
        (_figure_made(target, made_figure, pyplot_kept) if not made_axes else None)
    if made is None:
        return None
    method, cls, functions, modules, least = made
    keywords = {k.arg for k in n.keywords}
    if method in FIGURE_ARTISTS and functions[0] is _figure_text(method) and \
            (_PASSED_ON[method] & {k.arg for k in n.keywords} or not _binds(functions[0], n, receiver=True)):
        return None                     # a keyword passed on twice, or one Python does not bind
    if method in BY_KEYWORD:
        chosen = _chosen_class(n, cls, *BY_KEYWORD[method])
        if chosen is None:              # a value that chooses no class: the method's own check
            return keyword_value_claim(n, method, cls, functions, text, own_only=True)
        cls = chosen
    if method in _NEW_FIGURE and ("num" in keywords or "FigureClass" in keywords or method == "figure" and n.args):
        return None                     # an existing figure's number ignores the keywords; the user's class takes any
    if _given(n, functions[0], least) < least:
        return None
    if method in PLACED:
        place = _literal(n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "location"), None))
        if not (type(place) in (int, float) or type(place) is str and place in PLACED[method]):
            return None
    if method in PER_ITEM and not bars_made(n, least, value):
        # no bar surely made: only what the method checks itself (`align`)
        return keyword_value_claim(n, method, cls, functions, text, own_only=True)
    if method == "bar_label" and not (len(n.args) == 1 and _bar_label_taken(n) and bars(n.args[0])):
        return None
    named = keyword_names(functions)
    if named is None or not aliases_distinct(n, cls):
        return None
    for kw in n.keywords:
        fixes = refused_keyword(kw, cls, named, modules, text)
        if fixes is None:
            continue
        root = chain_root(n.func)
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): the {cls.__name__} it makes has no property {kw.arg!r}: "
                              "AttributeError", "AttributeError", fixes,
                          subjects=(root,) if root is not None else ())
    if method in ("subplots", "subplot_mosaic"):
        return subplot_kw_claim(n, text)
    if method in _NEW_FIGURE or made_figure:
        return None

    def numbers(node):
        return plotted_numbers(node, value) if value is not None else None
    return keyword_value_claim(n, method, cls, functions, text, numbers) or format_claim(n, method, text, numbers)


def refused_on_the_way(n: ast.Call, method: str, module: str, class_name: str, callers: list,
                       own_modules: tuple, text) -> tuple[ast.keyword, list[str]] | None:
    """The first keyword of a call another library hands on to the Axes' `method` on pyplot's
    current Axes (matplotlib's own, _made's rule), which makes an artist of `module.class_name`
    that refuses it: neither a parameter of `callers`, of the Axes method or of the artist's
    constructors, nor a parameter or quoted word of `own_modules` (the caller's library) or of
    matplotlib's modules on the way. With the properties meant, as fixes."""
    axes_module = sys.modules.get("matplotlib.axes")
    axes = POLICY.static(axes_module, "Axes", None) if axes_module is not None else None
    cls = POLICY.static(sys.modules.get(module), class_name, None) if module in sys.modules else None
    if not isinstance(cls, type) or not isinstance(axes, type) or not current_axes_plain(method) or \
            not aliases_distinct(n, cls):
        return None
    functions = [f for f in (*callers, POLICY.static(axes, method, None), *artist_constructors(cls)) if f is not None]
    named, own = keyword_names(functions), [parameter_names(m) for m in own_modules]
    if named is None or any(o is None for o in own):
        return None
    named |= frozenset().union(*own)
    for kw in n.keywords:
        fixes = refused_keyword(kw, cls, named, (*own_modules, *ON_THE_WAY, module), text)
        if fixes is not None:
            return kw, fixes
    return None


def aliases_distinct(n: ast.Call, cls: type) -> bool:
    """No two keywords of the call are aliases of one property of `cls` (`fontsize=3, size=4`:
    a TypeError first)."""
    aliases = POLICY.static(cls, "_alias_to_prop", {})
    canonical = [aliases.get(k.arg, k.arg) for k in n.keywords] if type(aliases) is dict else None
    return canonical is not None and len(set(canonical)) == len(canonical)


def keyword_names(functions: list) -> set[str] | None:
    """The keyword names the functions' signatures take (None where one cannot be read)."""
    named: set[str] = set()
    for f in functions:
        sig = POLICY.signature(f)
        if sig is None:
            return None
        named |= {p.name for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD}
    return named


def refused_keyword(kw: ast.keyword, cls: type, named: set[str], modules: tuple, text) -> list[str] | None:
    """Is the keyword, handed on to an artist of `cls`, refused there (none of the `named`
    parameters, no setter of the class, never read out by name in `modules` on the way)? The
    properties meant, as fixes; None where it is taken."""
    if kw.arg is None or kw.arg in named or POLICY.static(cls, f"set_{kw.arg}", None) is not None or \
            any(kw.arg in _words(m) or _formed(kw.arg, m) for m in modules):
        return None
    setters = {a[4:] for k in POLICY.mro(cls) for a in POLICY.class_members(k) if a.startswith("set_")}
    # the closest name alone: another property near it may refuse the value (fontstyle=3)
    return _keyword_fixes(kw, difflib.get_close_matches(kw.arg, sorted(setters | named), n=1, cutoff=0.75), text)


def _given(n: ast.Call, function, least: int) -> int:
    """How many of the function's first `least` parameters the call gives, by position or by
    name (`plt.annotate("max", xy=(2, 1))` gives both of annotate's `text` and `xy`); -1 where
    Python binds the arguments to none (`ax.annotate("a", xy, text="b")`: a TypeError first)."""
    sig = POLICY.signature(function)
    if sig is None:
        return len(n.args)
    if not _binds(function, n, receiver=type(function) is types.FunctionType and "." in function.__qualname__):
        return -1
    first = [p.name for p in sig.parameters.values()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.POSITIONAL_ONLY) and p.name != "self"][len(n.args):least]
    return len(n.args) + sum(k.arg in first for k in n.keywords)


def bars_made(n: ast.Call, least: int, value, *, returned: bool = False) -> bool:
    """Does `ax.bar(x, height, ...)` surely make a bar before any other check refuses the call:
    x and height, alone, each a number or 1-D data known not to be empty, every keyword a literal
    number, text, bool or None (a list of widths, bottoms or labels may broadcast to nothing or
    not fit), `align` one matplotlib takes? `returned`: does it hold a bar at least where it
    returns (categories' names too: x of text, which an Axes' units may refuse first)?"""
    sizes = [_some(a, value, returned) for a in n.args] if value is not None and len(n.args) == least else [None]
    if None in sizes or len({k for k in sizes if k != 1}) > 1:
        return False                    # no data, or x and height that do not broadcast
    for kw in n.keywords:
        v = _literal(kw.value)
        if kw.arg is None or kw.arg == "data":
            return False                # keywords unpacked; names looked up in `data`
        if returned and kw.arg not in _BAR_COUNT:
            continue                    # where it returns, the bars are as many as those broadcast
        if type(v) not in (int, float, str, bool, type(None)) or (kw.arg == "align" and v not in ("center", "edge")):
            return False
    return True


# the keywords `bar` broadcasts with x and height to as many bars (barh's `left` and `height` are
# bar's `bottom` and `width`); `lw` is linewidth's alias
_BAR_COUNT = frozenset({"width", "height", "bottom", "left", "linewidth", "lw", "hatch"})


# bar_label refuses these keywords first (ValueError: it sets the alignment itself)
_ALIGNMENTS = frozenset({"horizontalalignment", "ha", "verticalalignment", "va"})


def _bar_label_taken(n: ast.Call) -> bool:
    """Does `ax.bar_label(container, ...)` surely reach its first `annotate` (each bar's label
    is annotated with the other keywords): no alignment keyword, `label_type` a literal it takes,
    `padding` a literal number, `labels` a literal list or tuple of text (or None), `fmt` not
    given (a format of the user's may fail on a value first)?"""
    given = {k.arg: k.value for k in n.keywords}
    labels = _literal(given["labels"]) if "labels" in given else None
    return not _ALIGNMENTS & given.keys() and "fmt" not in given and \
        ("label_type" not in given or _literal(given["label_type"]) in ("edge", "center")) and \
        ("padding" not in given or type(_literal(given["padding"])) in (int, float)) and \
        (labels is None or type(labels) in (list, tuple) and len(labels) > 0 and all(type(x) is str for x in labels))


def _some(node: ast.expr, value, text: bool = False) -> int | None:
    """How many items the data surely has, at least one, in one dimension: a number (1), or a
    flat list, tuple, array or series of numbers (`text`: or of text) known not to be empty; else None."""
    v = _literal(node)
    if type(v) not in (int, float, list, tuple):
        from .abstract_value import shaped
        v = value(node)
        if isinstance(v, Made) and type(v.literal()) in (list, tuple):
            v = v.literal()             # a display the cell wrote, as it still is (`names = ["a", "b"]`)
        if type(v) not in (int, float, list, tuple):
            a = shaped(v)
            ok = a is not None and a.like in ("ndarray", "Series") and a.ndim == 1 and a.size is not None and \
                a.size > 0 and a.kind is not None and a.kind in "biuf"
            return a.size if ok else None
    if type(v) in (int, float):
        return 1
    return len(v) if len(v) > 0 and all(type(x) in ((int, float, str) if text else (int, float)) for x in v) else None


def legend_claim(n: ast.Call, target, text, *, made_axes: bool = False, made_figure: bool = False,
                 pyplot_kept: bool = False) -> ValueClaim | None:
    """`ax.legend(handles, labels, titel="...")`, `fig.legend(lco="upper right")`: `Axes.legend` and `Figure.legend` take the
    handles and labels out of the keywords (`legend._parse_legend_args`) and make a
    `Legend(parent, handles, labels, **kwargs)`, whose `__init__` names every keyword it takes
    (no `**kwargs`): any other is a TypeError. Positional arguments of any number (the parsing
    refuses a wrong count with a TypeError too); none with `handles=` or `labels=`, which the
    parsing reads first (an empty pair of them is a ValueError). `made_axes`/`made_figure`: `target` is the
    method of an Axes or a Figure the cell made; `pyplot_kept`: `plt.legend` is read, on the
    current Axes (the cell changes it to no other class)."""
    pyplot, legend, axes, figure = (sys.modules.get(m) for m in ("matplotlib.pyplot", "matplotlib.legend",
                                                                  "matplotlib.axes", "matplotlib.figure"))
    if pyplot is None or legend is None or axes is None or figure is None or \
            not (isinstance(n.func, ast.Attribute) and n.func.attr == "legend"):
        return None
    owners = [c for c in (POLICY.static(axes, "Axes", None), POLICY.static(figure, "Figure", None)) if isinstance(c, type)]
    methods = [POLICY.static(c, "legend", None) for c in owners]
    if made_axes or made_figure:
        ours = target in methods
    elif type(target) is types.FunctionType:       # pyplot's: on the current Axes, of its class
        ours = pyplot_kept and target is POLICY.static(pyplot, "legend", None) and POLICY.is_library(target) and \
            current_axes_plain("legend")
    else:
        ours = type(target) is types.MethodType and target.__func__ in methods and \
            POLICY.is_library(type(target.__self__))
    cls = POLICY.static(legend, "Legend", None)
    parse = POLICY.static(legend, "_parse_legend_args", None)
    if not ours or not isinstance(cls, type) or parse is None or {"handles", "labels"} & {k.arg for k in n.keywords}:
        return None                     # handles or labels as keywords: read (zipped, labelled) first
    named: set[str] = set()
    for f in (POLICY.class_members(cls).get("__init__"), parse):
        sig = POLICY.signature(f) if f is not None else None
        if sig is None or f is not parse and any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
            return None
        named |= {p.name for p in sig.parameters.values() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    for kw in n.keywords:
        if kw.arg is None:
            return None
        if kw.arg in named:
            continue
        meant = difflib.get_close_matches(kw.arg, sorted(named - {"self", "parent", "axs"}), n=3, cutoff=0.6)
        root = chain_root(n.func)
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): Legend.__init__() got an unexpected keyword argument "
                              f"{kw.arg!r}: TypeError", "TypeError", _keyword_fixes(kw, meant, text),
                          subjects=(root,) if root is not None else ())
    on_figure = made_figure or type(target) is types.MethodType and target.__func__ is methods[-1] and \
        len(owners) == 2 or not made_axes and target is methods[-1] and len(owners) == 2
    return legend_value_claim(n, "Figure" if on_figure else "Axes", text)


def _keyword_fixes(kw: ast.keyword, meant: list[str], text) -> list[str]:
    """The keyword written again with each name meant, its value as written."""
    written = text(kw)
    return [m + written[len(kw.arg):] for m in meant] if written is not None and written.startswith(kw.arg) else []


def _chosen_class(n: ast.Call, default: type, keyword: str, classes: dict):
    """The artist class a keyword's literal value chooses (the default where it is not given)."""
    given = next((k.value for k in n.keywords if k.arg == keyword), None)
    if given is None:
        return default
    if not (isinstance(given, ast.Constant) and given.value in classes):
        return None
    cls = POLICY.static(sys.modules.get(default.__module__), classes[given.value], None)
    return cls if isinstance(cls, type) else None


def _made(target, made_axes: bool = False, pyplot_kept: bool = True):
    """(the Axes method, the artist class, the functions whose parameters the call may name, the
    modules on the way, the least positional arguments) for a pyplot function or an Axes method
    of the table (pyplot's: on its current Axes, where `pyplot_kept`, the cell changes it to
    no other class); `plt.figure` and `plt.subplots`: the Figure, whose keywords its constructor
    names or sets."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    axes = sys.modules.get("matplotlib.axes")
    axes_class = POLICY.static(axes, "Axes", None) if axes is not None else None
    if pyplot is None or axes_class is None:
        return None
    figure = sys.modules.get("matplotlib.figure")
    for name, least in _NEW_FIGURE.items():
        if figure is not None and target is POLICY.static(pyplot, name, None) and POLICY.is_library(target):
            cls = POLICY.static(figure, "Figure", None)
            init = POLICY.static(cls, "__init__", None) if cls is not None else None
            # subplots and subplot_mosaic hand their other keywords to plt.figure first, which names
            # some itself (FigureClass)
            via = POLICY.static(pyplot, "figure", None) if name != "figure" else None
            return (name, cls, [f for f in (target, via, init) if f is not None],
                    ("matplotlib.pyplot", "matplotlib.figure", "matplotlib.axes._base", "matplotlib.projections",
                     "matplotlib.artist"), least) if init is not None else None
    method = None
    if made_axes:
        method = next((name for name in ARTISTS if target is POLICY.static(axes_class, name, None)), None)
    elif type(target) is types.MethodType and issubclass(type(target.__self__), axes_class):
        method = next((name for name in ARTISTS if target.__func__ is POLICY.static(axes_class, name, None)), None)
    elif type(target) is types.FunctionType and POLICY.is_library(target) and pyplot_kept:   # not the user's set there
        for name in ARTISTS.keys() | PYPLOT.keys():
            if target is POLICY.static(pyplot, name, None):
                method = PYPLOT.get(name, name) if current_axes_plain(PYPLOT.get(name, name)) else None
                break
    if method is None:
        return None
    module, cls_name, least = ARTISTS[method]
    cls = POLICY.static(sys.modules.get(module), cls_name, None) if module in sys.modules else None
    if not isinstance(cls, type):
        return None
    function = POLICY.static(axes_class, method, None)
    via = POLICY.static(axes_class, VIA[method], None) if method in VIA else None
    functions = [f for f in (function, target if type(target) is types.FunctionType else None, via) if f is not None]
    return method, cls, functions + artist_constructors(cls), (*ON_THE_WAY, module), least


def artist_constructors(cls: type) -> list:
    """The functions of matplotlib's own code through which an artist class is made of the
    keywords it is handed: each `__init__` along its classes (Collection's names `edgecolors`),
    and a contour set's `_process_args` (QuadContourSet's names `corner_mask`)."""
    found = []
    for k in POLICY.mro(cls):
        own = POLICY.class_members(k)
        for name in ("__init__", "_process_args"):
            f = own.get(name)
            if type(f) is types.FunctionType and POLICY.is_library(f) and \
                    type(f.__module__) is str and f.__module__.startswith("matplotlib."):
                found.append(f)
    return found


def _figure_made(target, made_figure: bool = False, pyplot_kept: bool = False):
    """_made's answer for a Figure's method of FIGURE_ARTISTS, on a live Figure of matplotlib's
    own classes, one the cell made (`made_figure`: `target` is the class's function), or through
    pyplot's function of it."""
    figure, pyplot = sys.modules.get("matplotlib.figure"), sys.modules.get("matplotlib.pyplot")
    base = POLICY.static(figure, "FigureBase", None) if figure is not None else None
    if not isinstance(base, type) or pyplot is None:
        return None
    method = via = None
    if made_figure:
        method = next((m for m in FIGURE_ARTISTS if target is POLICY.static(base, m, None)), None)
    elif type(target) is types.MethodType and plain_subclass(type(target.__self__), base):
        method = next((m for m in FIGURE_ARTISTS if target.__func__ is POLICY.static(base, m, None)), None)
    elif type(target) is types.FunctionType and POLICY.is_library(target):
        name = next((f for f in PYPLOT_FIGURE if target is POLICY.static(pyplot, f, None)), None)
        if name is not None and pyplot_kept and current_figure_plain(PYPLOT_FIGURE[name]):
            method, via = PYPLOT_FIGURE[name], target
    if method is None:
        return None
    module, cls_name, least = FIGURE_ARTISTS[method]
    cls = POLICY.static(sys.modules.get(module), cls_name, None) if module in sys.modules else None
    if not isinstance(cls, type):
        return None
    functions = [f for f in (POLICY.static(base, method, None), _figure_text("text"), via) if f is not None]
    return method, cls, functions, ("matplotlib.pyplot", "matplotlib.figure", "matplotlib.artist", module), least


def _figure_text(method: str):
    figure = sys.modules.get("matplotlib.figure")
    base = POLICY.static(figure, "FigureBase", None) if figure is not None else None
    return POLICY.static(base, method, None) if isinstance(base, type) else None


def _binds(function, n: ast.Call, *, receiver: bool) -> bool:
    """Does Python bind the call's arguments to the function (`fig.text(0, 0, "s", x=1)`: not)?"""
    sig = POLICY.signature(function)
    if sig is None:
        return False
    try:
        sig.bind(*[None] * (len(n.args) + receiver), **{k.arg: None for k in n.keywords if k.arg is not None})
    except TypeError:
        return False
    return True


def plain_subclass(cls: type, base: type) -> bool:
    """Is `cls` a subclass of `base` and matplotlib's (or another library's) through and through?
    Read on the type alone: `isinstance` would ask the object its `__class__`."""
    return issubclass(cls, base) and POLICY.library_through(cls)


_NO_FIGURE = object()


# pyplot's functions by which its calls find the current Figure and Axes
_PYPLOT_STATE = ("gcf", "gca")


def current_figure_kept(methods: tuple[str, ...]) -> bool:
    """Is pyplot's current Figure (or the one `gcf()` would make) matplotlib's, none of `methods` its own?"""
    return _current_figure(methods) is not None


def _current_figure(methods: tuple[str, ...] = ()):
    """pyplot's current Figure (`gcf()`'s) where it is of matplotlib's classes and holds none of
    `methods` (nor `gca`) of its own, read from pyplot's own register of figures statically;
    _NO_FIGURE where there is none (`gcf()` makes one of matplotlib's class); None where it is
    not known: pyplot's `gcf`/`gca` replaced, figure hooks set (the user's code runs on a new
    Figure), anything on the way not matplotlib's."""
    helpers, figure = sys.modules.get("matplotlib._pylab_helpers"), sys.modules.get("matplotlib.figure")
    pyplot, mpl = sys.modules.get("matplotlib.pyplot"), sys.modules.get("matplotlib")
    gcf = POLICY.static(helpers, "Gcf", None) if helpers is not None else None
    base = POLICY.static(figure, "FigureBase", None) if figure is not None else None
    figs = POLICY.static(gcf, "figs", None) if gcf is not None else None
    rc = POLICY.static(mpl, "rcParams", None) if mpl is not None else None
    if not isinstance(base, type) or type(figs) is not collections.OrderedDict or pyplot is None or \
            not isinstance(rc, dict) or dict.get(rc, "figure.hooks", None) != [] or \
            any(POLICY.module_of(POLICY.static(pyplot, f, None)) != "matplotlib.pyplot" for f in _PYPLOT_STATE):
        return None
    if not figs:
        return _NO_FIGURE
    manager = list(figs.values())[-1]
    canvas = (plain_own_dict(manager) or {}).get("canvas") if matplotlib_object(manager) else None
    fig = (plain_own_dict(canvas) or {}).get("figure") if canvas is not None and matplotlib_object(canvas) else None
    own = plain_own_dict(fig) if fig is not None else None
    if fig is None or own is None or not plain_subclass(type(fig), base) or {"gca", *methods} & own.keys():
        return None
    return fig


def plain_own_dict(obj) -> dict | None:
    """An object's own attributes, read through its dict slot: {} where it has none (nothing can
    shadow its class there), None where that dict is not a plain dict (a subclass's methods are
    the user's code)."""
    try:
        own = POLICY.own_dict(obj)
    except AttributeError:
        return {}
    return own if type(own) is dict else None


def matplotlib_object(obj) -> bool:
    """Is it an object of matplotlib's own classes through and through?"""
    cls = type(obj)
    module = POLICY.module_of(cls)
    return type(module) is str and module.startswith("matplotlib.") and plain_subclass(cls, object)


def no_pyplot_figures() -> bool:
    """Does pyplot hold no Figure at all (read from its register statically), its `gcf` and `gca`
    its own and no figure hooks set?"""
    return _current_figure() is _NO_FIGURE


def current_figure_empty() -> bool:
    """Does pyplot's `gcf()` give a Figure holding no Axes: none yet (it makes a new one of
    matplotlib's class), or a current one of matplotlib's own `Figure` class exactly whose stack
    of Axes is empty (`plt.subplot` then finds none to return and adds a new one)?"""
    fig = _current_figure(("add_subplot", "sca", "axes"))
    if fig is None or fig is _NO_FIGURE:
        return fig is _NO_FIGURE
    stack = (plain_own_dict(fig) or {}).get("_axstack")
    axes = (plain_own_dict(stack) or {}).get("_axes") if stack is not None and matplotlib_object(stack) else None
    return type(fig) is matplotlib_figure() and type(axes) is dict and not axes


def pyplot_figures_plain(method: str) -> bool:
    """Is every Figure pyplot holds (any may be made current) of matplotlib's own `Figure` class
    exactly, with no `method` of its own, and a new one (where there is none) of that class too?"""
    helpers = sys.modules.get("matplotlib._pylab_helpers")
    gcf = POLICY.static(helpers, "Gcf", None) if helpers is not None else None
    figs = POLICY.static(gcf, "figs", None) if gcf is not None else None
    if _current_figure((method,)) is None or type(figs) is not collections.OrderedDict:
        return False
    for manager in list(figs.values()):
        canvas = (plain_own_dict(manager) or {}).get("canvas") if matplotlib_object(manager) else None
        fig = (plain_own_dict(canvas) or {}).get("figure") if canvas is not None and matplotlib_object(canvas) else None
        if fig is None or type(fig) is not matplotlib_figure() or method in (plain_own_dict(fig) or {method: 0}):
            return False
    return True


def current_figure_plain(method: str) -> bool:
    """Is pyplot's current Figure of matplotlib's classes (or none yet), with no `method` of its own?"""
    return _current_figure((method,)) is not None


def current_axes_exact(name: str) -> bool:
    """current_axes_plain, every Axes of the current Figure of matplotlib's `Axes` class itself
    (a 3-D or polar Axes keeps `Axes`' methods but answers them on other axes and scales)."""
    if not current_axes_plain(name):
        return False
    fig = _current_figure()
    if fig is _NO_FIGURE:
        return True
    cls = POLICY.static(sys.modules.get("matplotlib.axes"), "Axes", None)
    stack = plain_own_dict(fig).get("_axstack")
    axes = (plain_own_dict(stack) or {}).get("_axes") if stack is not None else None
    return type(axes) is dict and all(type(a) is cls for a in axes)


def current_axes_plain(name: str) -> bool:
    """Does pyplot's current Axes (`gca()`: the current Figure's, a new one of matplotlib's class
    where there is none) have matplotlib's `Axes.<name>`: every Axes of the current Figure of
    library classes that keep it, none with its own?"""
    fig = _current_figure()
    if fig is None or fig is _NO_FIGURE:
        return fig is _NO_FIGURE
    axes_module = sys.modules.get("matplotlib.axes")
    cls = POLICY.static(axes_module, "Axes", None) if axes_module is not None else None
    stack = plain_own_dict(fig).get("_axstack")
    axes = (plain_own_dict(stack) or {}).get("_axes") if stack is not None and matplotlib_object(stack) else None
    method = POLICY.static(cls, name, None) if isinstance(cls, type) else None
    return type(axes) is dict and method is not None and all(
        plain_subclass(type(a), cls) and POLICY.static(type(a), name, None) is method and name not in (plain_own_dict(a) or {name: 0})
        for a in axes)


# the functions that make one new Axes of the keywords they do not name themselves: pyplot's
# `subplot` and `axes` (`plt.axes(rect)` by `add_axes`, else by `add_subplot`) and the Figure's
# methods, each `Figure.add_subplot`/`add_axes` at last: the projection's class made with them
_NEW_AXES = {"subplot": "add_subplot", "axes": None, "add_subplot": "add_subplot", "add_axes": "add_axes"}


def _new_axes(n: ast.Call, target, made_figure: bool = False):
    """_made's answer for a call that makes a new Axes of its keywords (_NEW_AXES): the class
    the projection keywords choose (`Figure._process_projection_requirements`: `axes_class`, or
    `polar`, or the `projection` name in matplotlib's registry, 'rectilinear' where none is
    given), whose constructors' parameters and setters take the other keywords
    (`_AxesBase.__init__` ends in `self._internal_update(kwargs)`: "Axes.set() got an unexpected
    keyword argument"). Only literal projection keywords and a class of matplotlib's own (a
    projection the user registered may take anything), and positions that make a new Axes
    (`add_subplot(ax)`, `add_axes(ax)` of an Axes take no keywords)."""
    pyplot, figure = sys.modules.get("matplotlib.pyplot"), sys.modules.get("matplotlib.figure")
    projections = sys.modules.get("matplotlib.projections")
    figure_class = POLICY.static(figure, "Figure", None) if figure is not None else None
    if pyplot is None or projections is None or not isinstance(figure_class, type):
        return None
    name = None
    if type(target) is types.FunctionType and not made_figure and POLICY.is_library(target):
        name = next((f for f in ("subplot", "axes", "subplot2grid") if target is POLICY.static(pyplot, f, None)), None)
        if name is not None and not current_figure_plain("add_subplot"):
            return None                 # pyplot's current Figure, of the user's class or with its own method
    elif made_figure or type(target) is types.MethodType and POLICY.is_library(type(target.__self__)) and \
            issubclass(type(target.__self__), figure_class):
        function = target if made_figure else target.__func__
        name = next((f for f in ("add_subplot", "add_axes") if function is POLICY.static(figure_class, f, None)), None)
    if name is None:
        return None
    keywords = {k.arg: k.value for k in n.keywords}
    if None in keywords or "axes_class" in keywords or "figure" in keywords:
        return None                     # the user's class, or another error first
    if name == "subplot2grid":
        if "fig" in keywords or not _grid_place(n, keywords):
            return None                 # another Figure's, or a place the grid refuses first
    way = "add_axes" if name == "add_axes" or name == "axes" and (n.args or "position" in keywords) else "add_subplot"
    if way == "add_subplot" and name != "subplot2grid" and \
            not (len(n.args) in (0, 3) or len(n.args) == 1 and type(_literal(n.args[0])) is int):
        return None                     # a single position may be an Axes or a SubplotSpec's
    if way == "add_axes":
        rect = n.args[0] if n.args else keywords.get("rect", keywords.get("position"))
        if len(n.args) > 1 or type(_literal(rect)) not in (list, tuple):
            return None                 # an Axes given: its keywords are not read
    cls = _projection_class(projections, keywords)
    if cls is None:
        return None
    process = POLICY.static(figure_class, "_process_projection_requirements", None)
    inits = [POLICY.class_members(k).get("__init__") for k in POLICY.mro(cls)]
    functions = [f for f in (target if type(target) is types.FunctionType else target.__func__, process,
                             *inits) if type(f) is types.FunctionType]
    if process is None:
        return None
    modules = ("matplotlib.pyplot", "matplotlib.figure", "matplotlib.projections", "matplotlib.artist",
               *{m for m in map(POLICY.module_of, POLICY.mro(cls)) if m is not None and m != "builtins"})
    return name, cls, functions, modules, 0


def subplot_kw_claim(n: ast.Call, text) -> ValueClaim | None:
    """`plt.subplots(1, 2, subplot_kw=dict(xticks=[], ytick=[]))`: subplots hands `subplot_kw` to
    each `add_subplot`, whose new Axes (of the class the projection keywords choose) sets the others
    through its setters (_new_axes' rule): a key no constructor names and no setter takes is
    AttributeError ("Axes.set() got an unexpected keyword argument 'ytick'"). The keys written,
    in `dict(...)` (Python's own) or a display of literal keys."""
    given = next((k.value for k in n.keywords if k.arg == "subplot_kw"), None)
    figure = sys.modules.get("matplotlib.figure")
    figure_class = POLICY.static(figure, "Figure", None) if figure is not None else None
    if given is None or not isinstance(figure_class, type):
        return None
    if isinstance(given, ast.Call) and isinstance(given.func, ast.Name) and given.func.id == "dict" and \
            not given.args and all(k.arg is not None for k in given.keywords):
        keywords = list(given.keywords)
    elif isinstance(given, ast.Dict) and all(isinstance(k, ast.Constant) and type(k.value) is str for k in given.keys):
        keywords = [ast.copy_location(ast.keyword(k.value, v), k) for k, v in zip(given.keys, given.values)]
    else:
        return None
    call = ast.Call(ast.Name("fig", ast.Load()), [], keywords)
    made = _new_axes(call, POLICY.static(figure_class, "add_subplot", None), made_figure=True)
    if made is None:
        return None
    _, cls, functions, modules, _ = made
    modules = tuple(m for m in modules if m != "matplotlib.pyplot")     # add_subplot's way: pyplot reads none
    named = keyword_names(functions)
    if named is None or not aliases_distinct(call, cls):
        return None
    for kw, written in zip(keywords, given.keywords if isinstance(given, ast.Call) else given.keys):
        if isinstance(given, ast.Call):
            fixes = refused_keyword(kw, cls, named, modules, text)
            if fixes is None:
                continue
        else:
            if refused_keyword(kw, cls, named, modules, lambda node: None) is None:
                continue
            setters = {a[4:] for k in POLICY.mro(cls) for a in POLICY.class_members(k) if a.startswith("set_")}
            quote = (text(written) or "'")[0]
            fixes = [f"{quote}{m}{quote}" for m in difflib.get_close_matches(kw.arg, sorted(setters | named), n=1,
                                                                              cutoff=0.75)]
        root = chain_root(n.func)
        return ValueClaim(written, f"{ast.unparse(n.func)}(): subplot_kw {kw.arg!r}: the {cls.__name__} add_subplot "
                                   f"makes has no property {kw.arg!r}: AttributeError", "AttributeError", fixes,
                          subjects=(root,) if root is not None else ())
    return None


def _grid_place(n: ast.Call, keywords: dict) -> bool:
    """`plt.subplot2grid((3, 3), (1, 0), colspan=2)`: a literal grid shape and place, its spans
    literal and inside the grid (`GridSpec.new_subplotspec` refuses others first)."""
    if len(n.args) != 2:
        return False
    shape, loc = _literal(n.args[0]), _literal(n.args[1])
    spans = [_literal(keywords[k]) if k in keywords else 1 for k in ("rowspan", "colspan")]
    if not all(type(v) is tuple and len(v) == 2 and all(type(x) is int for x in v) for v in (shape, loc)) or \
            any(type(x) is not int for x in spans):
        return False
    return all(d >= 1 and 0 <= at and span >= 1 and at + span <= d for d, at, span in zip(shape, loc, spans))


def _projection_class(projections, keywords: dict) -> type | None:
    """The Axes class literal `projection`/`polar` keywords choose, if matplotlib's own."""
    cls = projection_class(keywords)
    return cls if cls is not None and plain_subclass(cls, object) else None


def _words(module_name: str) -> frozenset[str]:
    """The quoted words of a module's source (read once): the names its code may look up."""
    if module_name not in _WORDS:
        source = _module_source(module_name)
        if source is not None:      # (a decorator making a function's own parameter keyword-only reads no keyword)
            source = _KEYWORD_ONLY.sub("", source)
        # a module whose source cannot be read could read any name: every word is its
        _WORDS[module_name] = frozenset(_WORD.findall(source)) if source is not None else None
    words = _WORDS[module_name]
    return words if words is not None else _Everything()


_FORMS: dict[str, tuple[frozenset[str], frozenset[str]] | None] = {}


_PARAMETERS: dict[str, frozenset[str] | None] = {}


def parameter_names(module_name: str) -> frozenset[str] | None:
    """Every parameter name of every function a module's source defines (read once, not
    imported); None where the source cannot be read."""
    if module_name not in _PARAMETERS:
        _PARAMETERS[module_name] = _parameters(module_name)
    return _PARAMETERS[module_name]


def _parameters(module_name: str) -> frozenset[str] | None:
    tree = _module_tree(module_name)
    if tree is None:
        return None
    return frozenset(a.arg for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                     for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs))


_TREES: dict[str, ast.Module | None] = {}


def _module_tree(module_name: str) -> ast.Module | None:
    """A module's source parsed, once (`_formed` and `parameter_names` both read it)."""
    if module_name not in _TREES:
        source = _module_source(module_name)
        try:
            _TREES[module_name] = ast.parse(source) if source is not None else None
        except (SyntaxError, ValueError):
            _TREES[module_name] = None
    return _TREES[module_name]


def _module_source(module_name: str) -> str | None:
    """A module's source: of a loaded one, or read from the file under its nearest loaded
    package's folder (`pandas.plotting._matplotlib.core` before pandas' first plot imports it:
    the file is read, nothing is imported); None where it cannot be read."""
    module = sys.modules.get(module_name)
    if module is not None:
        try:
            return inspect.getsource(module)
        except (OSError, TypeError):
            return None
    parts = module_name.split(".")
    for k in range(len(parts) - 1, 0, -1):
        package = sys.modules.get(".".join(parts[:k]))
        if package is None:
            continue
        folders = POLICY.module_members(package).get("__path__")
        if type(folders) is not list or len(folders) != 1 or type(folders[0]) is not str:
            return None
        base = os.path.join(folders[0], *parts[k:])
        for path in (base + ".py", os.path.join(base, "__init__.py")):
            try:
                with open(path, encoding="utf-8") as f:
                    return f.read()
            except OSError:
                continue
        return None
    return None


def _formed(word: str, module_name: str) -> bool:
    """May the module's code read `word` by a name it builds: an f-string of one formatted part
    and one literal (`f"{axis_name}units"` pops `xunits=` in `_process_unit_info`, `f"share{name}"`)
    whose literal ends or begins the word?"""
    if module_name not in _FORMS:
        tree = _module_tree(module_name)
        heads, tails = set(), set()
        for n in ast.walk(tree) if tree is not None else ():
            if isinstance(n, ast.JoinedStr) and len(n.values) == 2:
                first, second = n.values
                if isinstance(first, ast.Constant) and isinstance(second, ast.FormattedValue) and type(first.value) is str:
                    heads.add(first.value)
                elif isinstance(first, ast.FormattedValue) and isinstance(second, ast.Constant) and type(second.value) is str:
                    tails.add(second.value)
        _FORMS[module_name] = (frozenset(heads), frozenset(tails)) if tree is not None else None
    forms = _FORMS[module_name]
    if forms is None:
        return True                     # a source that cannot be read may build any name
    heads, tails = forms
    return any(word.startswith(h) and len(word) > len(h) for h in heads) or \
        any(word.endswith(t) and len(word) > len(t) for t in tails)


class _Everything(frozenset):
    def __contains__(self, item) -> bool:
        return True


def is_artist_set(function) -> bool:
    """Is it the `set` `Artist.__init_subclass__` writes for each artist class? The signature
    written on it names the properties, not their aliases (`fc=`): set_claim reads its keywords."""
    return type(function) is types.FunctionType and POLICY.module_of(function) == "matplotlib.artist" and \
        POLICY.own_dict(function).get("_autogenerated_signature") is True


def set_claim(n: ast.Call, cls, text, obj=None, stored=lambda name: False) -> ValueClaim | None:
    """`ax.set(xlabl="x")`, `fig.set(figsiz=...)`, `line.set(colr="r")`: every artist's `set`
    (the one `Artist.__init_subclass__` writes for each class) sets its keywords in order through
    their `set_<name>` methods (aliases made canonical first) and raises AttributeError ("Axes.set()
    got an unexpected keyword argument") at the first with none. `cls`: the receiver's class,
    matplotlib's own through and through; `obj`: the live receiver, whose own attributes Python
    would find first; `stored(name)`: may the cell set an attribute of that name before (an
    instance's `set_colr = ...`)? A claim takes the earlier keywords' values as their setters do."""
    if not (isinstance(n.func, ast.Attribute) and n.func.attr == "set") or n.args or \
            any(k.arg is None for k in n.keywords):
        return None
    refused = _first_refused(cls, [k.arg for k in n.keywords], obj, stored)
    if refused is None:
        return None
    kw = n.keywords[refused]
    return _no_property(n, kw, cls, text, f"{cls.__name__}.set() got an unexpected keyword argument {kw.arg!r}")


def setp_claim(n: ast.Call, target, items, text, stored=lambda name: False) -> ValueClaim | None:
    """`plt.setp(labels, rotaton=45)`: matplotlib's `setp` calls `set(**kwargs)` on each artist
    of the (flattened) first argument, so the first artist's refusal raises. `items`: that
    argument read live, an artist of matplotlib's or a list or tuple of such, not empty (an empty
    one returns at once); a keyword only (name and value pairs are `update`d before); setp's
    own keywords (`file`) are its own."""
    artist = sys.modules.get("matplotlib.artist")
    pyplot = sys.modules.get("matplotlib.pyplot")
    setps = {POLICY.static(m, "setp", None) for m in (artist, pyplot) if m is not None} - {None}
    if target not in setps or not POLICY.is_library(target) or len(n.args) != 1 or not n.keywords or \
            any(k.arg is None for k in n.keywords):
        return None
    sig = POLICY.signature(POLICY.static(artist, "setp", None))        # pyplot's passes all on to it
    own = {p.name for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY} if sig is not None else None
    objs = [items] if type(items) not in (list, tuple) else list(items)
    base = POLICY.static(artist, "Artist", None)
    if own is None or not objs or not isinstance(base, type) or \
            any(not issubclass(type(o), base) or _iterable(type(o)) for o in objs):   # flatten would open it
        return None
    keywords = [k for k in n.keywords if k.arg not in own]
    refused = _first_refused(type(objs[0]), [k.arg for k in keywords], objs[0], stored)
    if refused is None:
        return None
    kw = keywords[refused]
    return _no_property(n, kw, type(objs[0]), text,
                        f"{type(objs[0]).__name__}.set() got an unexpected keyword argument {kw.arg!r}")


def _first_refused(cls, keywords: list[str], obj=None, stored=lambda name: False) -> int | None:
    """The index of the first keyword `cls.set` refuses, where its `set` is matplotlib's own and
    nothing else answers first; None where every one is taken or that is not known."""
    artist = sys.modules.get("matplotlib.artist")
    base = POLICY.static(artist, "Artist", None) if artist is not None else None
    if not isinstance(cls, type) or not isinstance(base, type) or not plain_subclass(cls, base) or \
            any("__getattr__" in POLICY.class_members(k) for k in POLICY.mro(cls) if k is not object):
        return None
    if not is_artist_set(POLICY.static(cls, "set", None)):
        return None                     # a class's own `set` (or none written by Artist)
    own = plain_own_dict(obj) if obj is not None else {}
    aliases = POLICY.static(cls, "_alias_to_prop", {})
    if own is None or "set" in own or type(aliases) is not dict:
        return None
    canonical = [aliases.get(k, k) for k in keywords]
    if len(set(canonical)) < len(canonical) or "axes" in canonical:
        return None                     # TypeError for two aliases of one; `axes` is set, not called
    for i, name in enumerate(canonical):
        if f"set_{name}" in own or stored(f"set_{name}"):
            return None
        if POLICY.static(cls, f"set_{name}", None) is None:
            return i
    return None


def _iterable(cls: type) -> bool:
    return any("__iter__" in POLICY.class_members(k) or "__getitem__" in POLICY.class_members(k)
               for k in POLICY.mro(cls) if k is not object)


def _no_property(n: ast.Call, kw: ast.keyword, cls: type, text, message: str) -> ValueClaim:
    """The claim on a keyword `cls`'s `set` refuses, the nearest setter its fix."""
    setters = {a[4:] for k in POLICY.mro(cls) for a in POLICY.class_members(k) if a.startswith("set_")}
    fixes = _keyword_fixes(kw, difflib.get_close_matches(kw.arg, sorted(setters), n=1, cutoff=0.75), text)
    root = chain_root(n.func)
    return ValueClaim(kw, f"{ast.unparse(n.func)}(): {message}: AttributeError", "AttributeError", fixes,
                      subjects=(root,) if root is not None else ())


_LOCATIONS = {None: None, "left": "vertical", "right": "vertical", "top": "horizontal", "bottom": "horizontal"}


def _taken_by_make_axes(keywords: dict) -> bool:
    """Do `make_axes`/`make_axes_gridspec` surely take the layout keywords given (literal numbers,
    anchors of two numbers, a location or orientation it knows, consistent)?"""
    location, orientation = (_literal(keywords[k]) if k in keywords else None for k in ("location", "orientation"))
    if type(location) not in (str, type(None)) or location not in _LOCATIONS or \
            orientation not in (None, "vertical", "horizontal") or \
            location is not None and orientation is not None and _LOCATIONS[location] != orientation:
        return False
    for k in ("fraction", "shrink", "aspect", "pad"):
        if k in keywords and type(_literal(keywords[k])) not in (int, float):
            return False
    for k in ("anchor", "panchor"):
        v = _literal(keywords[k]) if k in keywords else (0, 0)
        if not (type(v) is tuple and len(v) == 2 and all(type(x) in (int, float) for x in v) or
                k == "panchor" and v is False):
            return False
    return "use_gridspec" not in keywords or type(_literal(keywords["use_gridspec"])) is bool


def colorbar_claim(n: ast.Call, target, text, axes_known, *, made_figure: bool = False,
                   pyplot_kept: bool = False) -> ValueClaim | None:
    """`fig.colorbar(im, ax=ax, shrinkk=0.8)`, `plt.colorbar(im, cax=cax, exted="both")`: the
    Figure's `colorbar` makes the colorbar's Axes out of `ax` (`make_axes` or
    `make_axes_gridspec`, which take the layout keywords) and ends in `Colorbar(cax, mappable,
    **the others)`, whose `__init__` names every keyword it takes: any other is a TypeError.
    Only with the mappable given and the Axes known (`cax`, or `ax` an Axes or a grid of them
    that `axes_known` knows, or neither and the mappable's own Axes, `mappable.axes`, that
    `axes_known(None)` knows; a mappable of no Axes is a ValueError first), and a literal
    `location`/`orientation` that `make_axes` takes. `made_figure`: `target` is the method of a
    Figure the cell made."""
    figure, colorbar = sys.modules.get("matplotlib.figure"), sys.modules.get("matplotlib.colorbar")
    pyplot = sys.modules.get("matplotlib.pyplot")
    base = POLICY.static(figure, "FigureBase", None) if figure is not None else None
    if not isinstance(base, type) or colorbar is None or pyplot is None or \
            not (isinstance(n.func, ast.Attribute) and n.func.attr == "colorbar" or isinstance(n.func, ast.Name)):
        return None
    method = POLICY.static(base, "colorbar", None)
    via = None
    if made_figure:
        ours = target is method
    elif type(target) is types.MethodType:
        ours = target.__func__ is method and plain_subclass(type(target.__self__), base)
    else:
        via = POLICY.static(pyplot, "colorbar", None)
        ours = type(target) is types.FunctionType and target is via and POLICY.is_library(target) and \
            pyplot_kept and current_figure_plain("colorbar")
    keywords = {k.arg: k.value for k in n.keywords}
    if not ours or len(n.args) != 1 or None in keywords or isinstance(n.args[0], ast.Constant):
        return None
    cax, ax = (keywords.get(k) for k in ("cax", "ax"))
    if not (cax is not None and axes_known(cax) or cax is None and ax is not None and axes_known(ax) or
            cax is None and ax is None and axes_known(None)):
        return None                     # no Axes known to draw in or steal from: a ValueError may come first
    if cax is None and not _taken_by_make_axes(keywords):
        return None                     # make_axes refuses these first
    cls = POLICY.static(colorbar, "Colorbar", None)
    init = POLICY.class_members(cls).get("__init__") if isinstance(cls, type) else None
    functions = [method, POLICY.static(colorbar, "make_axes", None), POLICY.static(colorbar, "make_axes_gridspec", None),
                 init] + ([via] if via is not None else [])
    signatures = [POLICY.signature(f) if f is not None else None for f in functions]
    if None in signatures or any(p.kind is p.VAR_KEYWORD for p in signatures[3].parameters.values()):
        return None                     # not read, or Colorbar takes any keyword
    named = {p.name for sig in signatures for p in sig.parameters.values() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    for kw in n.keywords:
        if kw.arg in named or any(kw.arg in _words(m) for m in ("matplotlib.figure", "matplotlib.colorbar",
                                                                "matplotlib.pyplot")):
            continue
        meant = difflib.get_close_matches(kw.arg, sorted(named - {"self", "ax", "parent", "parents"}), n=1, cutoff=0.6)
        root = chain_root(n.func)
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): Colorbar.__init__() got an unexpected keyword argument "
                              f"{kw.arg!r}: TypeError", "TypeError", _keyword_fixes(kw, meant, text),
                          subjects=(root,) if root is not None else ())
    return None


def colorbar_mappable_claim(n: ast.Call, target, mappable, *, made_figure: bool = False, pyplot_kept: bool = False,
                            first: bool = False) -> ValueClaim | None:
    """`plt.colorbar(I)`, `fig.colorbar(Z)` of an array (`mappable`: an ndarray, live or the
    cell's, or Python's numbers) and neither `ax` nor `cax`: the Figure's colorbar looks for the
    Axes to take space from on the mappable, which has none (ValueError, asked of a new Figure:
    matplotlib_values.mappable_refused). `plt.colorbar()` with no mappable, first in the cell,
    where pyplot holds no Figure yet (an inline backend closes them after each cell): the new
    Figure `gci()` makes holds no image (RuntimeError, as pyplot's source raises it)."""
    figure, pyplot = sys.modules.get("matplotlib.figure"), sys.modules.get("matplotlib.pyplot")
    base = POLICY.static(figure, "FigureBase", None) if figure is not None else None
    if not isinstance(base, type) or pyplot is None or any(k.arg is None for k in n.keywords) or \
            any(isinstance(a, ast.Starred) for a in n.args):
        return None
    method, via = POLICY.static(base, "colorbar", None), POLICY.static(pyplot, "colorbar", None)
    if made_figure:
        ours = target is method
    elif type(target) is types.MethodType:
        ours = target.__func__ is method and plain_subclass(type(target.__self__), base)
    else:
        ours = type(target) is types.FunctionType and target is via and POLICY.is_library(target) and \
            pyplot_kept and current_figure_plain("colorbar")
    keywords = {k.arg: _literal(k.value) for k in n.keywords}
    if not ours or {"ax", "cax", "mappable"} & set(keywords) or len(n.args) > 1:
        return None
    root = chain_root(n.func)
    if not n.args:
        said = _no_mappable(target, via, first)
        return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {said}: RuntimeError", "RuntimeError", callee=True,
                          literal=True) if said is not None else None
    if not _no_axes(mappable):
        return None
    refused = mappable_refused(keywords)
    if refused is None:
        return None
    exception, message = refused
    # what is read: the Figure the method is of (not pyplot's module), and the mappable's class
    # alone where it is an array (no call changes an ndarray's class: only a name bound again,
    # which the flow follows), else the names it is written of
    owner = (root,) if root and target is not via else ()
    names = () if _array(mappable) else tuple(dict.fromkeys(x.id for x in ast.walk(n.args[0]) if isinstance(x, ast.Name)))
    subjects = owner + names
    return ValueClaim(n.args[0], f"{ast.unparse(n.func)}() of {ast.unparse(n.args[0])}, an array: "
                                 f"{' '.join(message.split())[:200]}: {exception}", exception,
                      subjects=subjects, literal=not subjects)


def _no_axes(mappable) -> bool:
    """An object with no `axes` to read: numpy's array (live, or one the cell made), Python's
    numbers or a list of them."""
    if _array(mappable):
        return True
    if issubclass(type(mappable), Made):
        return type(mappable.literal()) in (list, tuple)
    return type(mappable) in (int, float, list, tuple)


def _array(v) -> bool:
    """numpy's own ndarray, live or one the cell made (abstract.py)."""
    np = sys.modules.get("numpy")
    return np is not None and type(v) is np.ndarray or issubclass(type(v), Made) and getattr(v, "like", None) == "ndarray"


_NO_MAPPABLE = re.compile(r"if mappable is None:\s+mappable = gci\(\)\s+if mappable is None:\s+"
                          r"raise RuntimeError\(((?:\s*'[^']*')+)\)")


def _no_mappable(target, via, first: bool) -> str | None:
    """What pyplot's `colorbar()` raises with no mappable, first in the cell and pyplot holding no
    Figure (its `gcf()` makes a new one, which holds no image): the message its source raises
    where `gci()` finds none; None where any of this is not so."""
    if target is not via or not first or _current_figure(("colorbar", "_gci")) is not _NO_FIGURE:
        return None
    pyplot = sys.modules.get("matplotlib.pyplot")
    if POLICY.module_of(POLICY.static(pyplot, "gci", None)) != "matplotlib.pyplot":
        return None
    try:
        source = inspect.getsource(via)
    except (OSError, TypeError):
        return None
    found = _NO_MAPPABLE.search(source)
    return "".join(re.findall(r"'([^']*)'", found.group(1))) if found else None


def tick_params_claim(n: ast.Call, target, text, *, made_axes: bool = False,
                      pyplot_kept: bool = False) -> ValueClaim | None:
    """`ax.tick_params(labelsiz=8)`, `ax.xaxis.set_tick_params(rotaton=40)`, `plt.tick_params(...)`:
    `Axis._translate_tick_params` takes the keywords its own lists name (the tick keywords, the
    names it maps, `grid_` and a Line2D property) and raises ValueError ("keyword X is not
    recognized") at any other. Every name it takes is a quoted word of matplotlib.axis or begins
    with `grid_`: a keyword that is neither is refused. `made_axes`: `target` is the method of an
    Axes the cell made."""
    axis, axes_base, pyplot = (sys.modules.get(m) for m in ("matplotlib.axis", "matplotlib.axes._base",
                                                             "matplotlib.pyplot"))
    base = POLICY.static(axes_base, "_AxesBase", None) if axes_base is not None else None
    axis_class = POLICY.static(axis, "Axis", None) if axis is not None else None
    if not isinstance(base, type) or not isinstance(axis_class, type) or pyplot is None or n.args or \
            any(k.arg is None for k in n.keywords):
        return None
    ours = False
    if made_axes:
        ours = target is POLICY.static(base, "tick_params", None) or \
            target is POLICY.static(axis_class, "set_tick_params", None) and own_function(target, "matplotlib")
    elif type(target) is types.MethodType:
        owner = type(target.__self__)
        ours = plain_subclass(owner, base) and target.__func__ is POLICY.static(base, "tick_params", None) or \
            plain_subclass(owner, axis_class) and target.__func__ is POLICY.static(axis_class, "set_tick_params", None)
    elif type(target) is types.FunctionType:       # pyplot's: on the current Axes, of its class
        ours = pyplot_kept and target is POLICY.static(pyplot, "tick_params", None) and POLICY.is_library(target) and \
            current_axes_plain("tick_params")
    if not ours:
        return None
    given = {k.arg: k.value for k in n.keywords}
    for name, allowed in (("axis", ("x", "y", "both")), ("which", ("major", "minor", "both"))):
        if name in given and _literal(given[name]) not in allowed:
            return None                 # checked first, a ValueError of its own
    words = _words("matplotlib.axis")
    grid = POLICY.static(axis, "_gridline_param_names", None)      # grid_ and each Line2D property
    grid = set(grid) if type(grid) is list and all(type(w) is str for w in grid) else None
    for kw in n.keywords:
        if kw.arg in ("axis", "which", "reset") or kw.arg in words or \
                kw.arg.startswith("grid_") and (grid is None or kw.arg in grid):
            continue
        taken = sorted({w for w in words if w.islower() and not w.startswith("_")} | {"axis", "which", "reset"} |
                       (grid or set()))
        meant = difflib.get_close_matches(kw.arg, taken, n=1, cutoff=0.8)
        root = chain_root(n.func)
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): keyword {kw.arg} is not recognized: ValueError", "ValueError",
                          _keyword_fixes(kw, meant, text), subjects=(root,) if root is not None else ())
    return None


# what print_figure hands every print method, dropped by matplotlib's wrapper where the method
# does not name it (`_switch_canvas_and_return_print_method`)
_PRINT_OPTIONAL = frozenset({"dpi", "facecolor", "edgecolor", "orientation", "bbox_inches_restore"})


# savefig's and print_figure's options a claim allows beside the keyword claimed, each a literal of
# these types; any other named option (a colour, bbox_inches, pad_inches: checked or drawn first) none
_SAVEFIG_PLAIN = {"dpi": (int, float), "transparent": bool, "format": str, "metadata": dict, "pil_kwargs": dict,
                  "orientation": str}
_SAVEFIG_OPTIONS = frozenset({"dpi", "facecolor", "edgecolor", "orientation", "format", "bbox_inches", "pad_inches",
                              "bbox_extra_artists", "backend", "transparent", "metadata", "pil_kwargs"})


def savefig_claim(n: ast.Call, target, text, *, pyplot_kept: bool = False) -> ValueClaim | None:
    """`fig.savefig("f.png", di=200)`, `plt.savefig(...)`: `Figure.savefig` hands its keywords to
    the canvas' `print_figure`, which hands what it does not name to the print method of the
    file's format (`print_png`, the canvas' own where it has one, else the one matplotlib
    registers for the format), through a wrapper that drops only the options it passes itself:
    a keyword none of them names is a TypeError. Only for a literal file name whose format is
    known (its extension, a literal `format=`, or `savefig.format`), no `backend=`, on a live
    Figure of matplotlib's own classes (pyplot's: its current one) whose print method is
    matplotlib's and names all it takes. Nowhere a draw comes first (`bbox_inches`,
    `savefig.bbox`, a layout engine) or another option may be refused first."""
    figure_module = sys.modules.get("matplotlib.figure")
    base = POLICY.static(figure_module, "FigureBase", None) if figure_module is not None else None
    pyplot = sys.modules.get("matplotlib.pyplot")
    if not isinstance(base, type) or pyplot is None or not n.args or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    figure_class = POLICY.static(figure_module, "Figure", None)
    if type(target) is types.MethodType and isinstance(figure_class, type) and \
            target.__func__ is POLICY.static(figure_class, "savefig", None):
        fig = target.__self__          # (the method's own slots: nothing of an object of the user's is read)
        if not plain_subclass(type(fig), base) or target.__func__ is not POLICY.static(type(fig), "savefig", None):
            return None
    elif type(target) is types.FunctionType and target is POLICY.static(pyplot, "savefig", None) and \
            POLICY.is_library(target) and pyplot_kept:
        fig = _current_figure(("savefig",))
        if fig is None or fig is _NO_FIGURE:
            return None
    else:
        return None
    keywords = {k.arg: k.value for k in n.keywords}
    fname = _literal(n.args[0])
    fmt = _literal(keywords["format"]) if "format" in keywords else None
    if "backend" in keywords or type(fname) is not str or fmt is not None and type(fmt) is not str or len(n.args) != 1:
        return None
    for k, v in keywords.items():       # an option's value refused first (`dpi="high"`), or a draw first
        if k in _SAVEFIG_PLAIN and not isinstance(_literal(v), _SAVEFIG_PLAIN[k]) or \
                k in _SAVEFIG_OPTIONS and k not in _SAVEFIG_PLAIN:
            return None
    rc = POLICY.static(sys.modules.get("matplotlib"), "rcParams", None)
    own = plain_own_dict(fig) or {}
    if not isinstance(rc, dict) or dict.get(rc, "savefig.bbox", None) is not None or own.get("_layout_engine") is not None:
        return None                     # print_figure draws the figure first (its errors, formatters)
    if fmt is None:
        fmt = os.path.splitext(fname)[1][1:]
    if not fmt:
        rc = POLICY.static(sys.modules.get("matplotlib"), "rcParams", None)
        fmt = dict.get(rc, "savefig.format", None) if isinstance(rc, dict) else None
        if type(fmt) is not str:
            return None
    fmt = fmt.lower()
    canvas = (plain_own_dict(fig) or {}).get("canvas")
    if canvas is None or not matplotlib_object(canvas):
        return None
    printer = _print_method(type(canvas), fmt)
    functions = [POLICY.static(type(fig), "savefig", None), POLICY.static(type(canvas), "print_figure", None), printer]
    if any(type(f) is not types.FunctionType or not POLICY.is_library(f) or
           not (type(f.__module__) is str and f.__module__.startswith("matplotlib.")) for f in functions):
        return None
    signatures = [POLICY.signature(f) for f in functions]
    if None in signatures or any(p.kind is p.VAR_KEYWORD for p in signatures[2].parameters.values()):
        return None                     # a print method that takes any keyword
    named = _PRINT_OPTIONAL | {p.name for sig in signatures for p in sig.parameters.values()
                               if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    for kw in n.keywords:
        if kw.arg in named:
            continue
        meant = difflib.get_close_matches(kw.arg, sorted(x for x in named if not x.startswith("_") and x != "self"),
                                          n=1, cutoff=0.6)
        root = chain_root(n.func)
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): {printer.__qualname__}() got an unexpected keyword "
                              f"argument {kw.arg!r}: TypeError", "TypeError", _keyword_fixes(kw, meant, text),
                          subjects=(root,) if root is not None else ())
    return None


def _print_method(canvas_class: type, fmt: str):
    """The print method `print_figure` uses for `fmt`: the canvas class' own `print_<fmt>`, else
    the `FigureCanvas` of the backend matplotlib registers for the format, where that module is
    loaded (`get_registered_canvas_class` imports it otherwise); None where neither is known."""
    own = POLICY.static(canvas_class, f"print_{fmt}", None)
    if own is not None:
        return own
    bases = sys.modules.get("matplotlib.backend_bases")
    registry = POLICY.static(bases, "_default_backends", None) if bases is not None else None
    entry = dict.get(registry, fmt, None) if type(registry) is dict else None
    if type(entry) is str:
        module = sys.modules.get(entry)
        entry = POLICY.static(module, "FigureCanvas", None) if module is not None else None
    if not isinstance(entry, type) or not POLICY.is_library(entry):
        return None
    return POLICY.static(entry, f"print_{fmt}", None)


def artist_call_claim(n: ast.Call, target, text) -> ValueClaim | None:
    """`Ellipse((0, 0), 4, 2, alphha=0.1)`, `lines.Line2D(x, y, figuure=fig)`: a class of
    matplotlib's artists called, whose `__init__`s pass `**kwargs` up by `super().__init__` until
    one hands them to `self._internal_update` (or `update`), which sets each as a property:
    a keyword no `__init__` on the way names and no setter takes is an AttributeError
    ("Ellipse.set() got an unexpected keyword argument 'alphha'"). Read from the classes' own
    source (signatures.kwargs_route); only for classes of matplotlib's own code throughout."""
    from .signatures import kwargs_route
    artist = sys.modules.get("matplotlib.artist")
    base = POLICY.static(artist, "Artist", None) if artist is not None else None
    if not isinstance(base, type) or type(target) is not type or not plain_subclass(target, base) or \
            not own_classes(target, "matplotlib") or POLICY.static(target, "__new__", None) is not object.__new__ or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    named: set[str] = set()
    sink = None
    for owner in [k for k in POLICY.mro(target) if "__init__" in POLICY.class_members(k)][:8]:
        init = POLICY.class_members(owner)["__init__"]
        sig = POLICY.signature(init) if own_function(init, "matplotlib") else None
        var = next((p.name for p in sig.parameters.values() if p.kind is p.VAR_KEYWORD), None) if sig else None
        if var is None:
            return None                 # no `**kwargs`: the signature's own TypeError (call_claim)
        named |= {p.name for p in sig.parameters.values() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
        route = kwargs_route(init, var)
        if route is None:
            return None
        named |= route[1]
        if route[0] != "up":
            sink = route[0]
            break
    if sink is None:
        return None
    aliases = POLICY.static(target, "_alias_to_prop", {})
    canonical = [aliases.get(k.arg, k.arg) for k in n.keywords] if type(aliases) is dict else None
    if canonical is None or len(set(canonical)) < len(canonical):
        return None                     # two aliases of one property: a TypeError first
    modules = ("matplotlib.artist", POLICY.module_of(target) or "")
    for kw in n.keywords:
        if kw.arg in named or POLICY.static(target, f"set_{aliases.get(kw.arg, kw.arg)}", None) is not None or \
                any(kw.arg in _words(m) or _formed(kw.arg, m) for m in modules):
            continue
        setters = {a[4:] for k in POLICY.mro(target) for a in POLICY.class_members(k) if a.startswith("set_")}
        fixes = _keyword_fixes(kw, difflib.get_close_matches(kw.arg, sorted(setters | named - {"self"}), n=1,
                                                             cutoff=0.75), text)
        root = chain_root(n.func)
        message = f"{target.__name__}.set() got an unexpected keyword argument {kw.arg!r}" if sink == "set" else \
            f"{target.__name__!r} object has no property {kw.arg!r}"
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): {message}: AttributeError", "AttributeError", fixes,
                          subjects=(root,) if root is not None else ())
    return None


def clabel_claim(n: ast.Call, method, contours: type, text) -> ValueClaim | None:
    """`ax.clabel(CS, fontsiz=10)`: `Axes.clabel(CS, levels=None, **kwargs)` returns
    `CS.clabel(levels, **kwargs)`, whose signature names every keyword it takes (ContourLabeler's):
    any other is its TypeError. `method` is matplotlib's own Axes.clabel, `contours` the class of
    the contour set given (matplotlib's own throughout)."""
    axes_module = sys.modules.get("matplotlib.axes")
    axes = POLICY.static(axes_module, "Axes", None) if axes_module is not None else None
    if not isinstance(axes, type) or method is not POLICY.static(axes, "clabel", None) or \
            not own_function(method, "matplotlib") or not isinstance(contours, type) or \
            not own_classes(contours, "matplotlib") or not plain_subclass(contours, object) or \
            not 1 <= len(n.args) <= 2 or any(isinstance(a, ast.Starred) for a in n.args) or \
            any(k.arg is None or k.arg in ("CS", "levels") for k in n.keywords):
        return None
    inner = POLICY.static(contours, "clabel", None)
    sig = POLICY.signature(inner) if own_function(inner, "matplotlib") else None
    if sig is None or any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return None
    named = [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    for kw in n.keywords:
        if kw.arg in named:
            continue
        meant = difflib.get_close_matches(kw.arg, [x for x in named if x != "self"], n=1, cutoff=0.6)
        root = chain_root(n.func)
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): {inner.__qualname__}() got an unexpected keyword argument "
                              f"{kw.arg!r}: TypeError", "TypeError", _keyword_fixes(kw, meant, text),
                          subjects=(root,) if root is not None else ())
    return None


def scale_claim(n: ast.Call, method, text) -> ValueClaim | None:
    """`ax.set_xscale("symlog", linthrsh=0.015)`: the Axis' `_set_axes_scale` makes the scale
    `scale_factory` names (matplotlib's registry, `_scale_mapping`) of the keywords, and the
    scale class' `__init__` names every keyword it takes: any other is its TypeError. `method`:
    matplotlib's own Axes.set_xscale or set_yscale; a literal scale name of a class of
    matplotlib's own in the registry, read as it is."""
    axes_module, scale = sys.modules.get("matplotlib.axes"), sys.modules.get("matplotlib.scale")
    axes = POLICY.static(axes_module, "Axes", None) if axes_module is not None else None
    if not isinstance(axes, type) or scale is None or len(n.args) != 1 or any(k.arg is None for k in n.keywords) or \
            method not in (POLICY.static(axes, "set_xscale", None), POLICY.static(axes, "set_yscale", None)) or \
            not own_classes(axes, "matplotlib"):
        return None
    name = _literal(n.args[0])
    mapping = POLICY.static(scale, "_scale_mapping", None)
    factory = POLICY.static(scale, "scale_factory", None)
    cls = dict.get(mapping, name, None) if type(mapping) is dict and type(name) is str else None
    if not isinstance(cls, type) or not own_classes(cls, "matplotlib") or not own_function(factory, "matplotlib"):
        return None
    sig = POLICY.signature(POLICY.class_members(cls).get("__init__") or POLICY.static(cls, "__init__", None))
    if sig is None or any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return None
    named = [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    for kw in n.keywords:
        if kw.arg in named and kw.arg not in ("self", "axis"):
            continue
        if kw.arg in ("self", "axis"):
            return None                 # given twice: another TypeError
        meant = difflib.get_close_matches(kw.arg, [x for x in named if x not in ("self", "axis")], n=1, cutoff=0.6)
        root = chain_root(n.func)
        return ValueClaim(kw, f"{ast.unparse(n.func)}(): {cls.__name__}.__init__() got an unexpected keyword argument "
                              f"{kw.arg!r}: TypeError", "TypeError", _keyword_fixes(kw, meant, text),
                          subjects=(root,) if root is not None else ())
    return None


# the Axes' shortcuts to their Axis' `set_ticks` (`_axis_method_wrapper`), by the axis they call
_TICKS = {"set_xticks": "XAxis", "set_yticks": "YAxis"}


def ticks_claim(n: ast.Call, target, text, *, made_axes: bool = False) -> ValueClaim | None:
    """`ax.set_yticks([0.5], laebls=["a"])`, `ax.xaxis.set_ticks(t, fontsize=8)`: `Axis.set_ticks(ticks,
    labels=None, *, minor=False, **kwargs)` takes other keywords as the labels' Text properties
    only where labels are given: without them it raises ValueError ("Incorrect use of keyword
    argument ...") at the first, before it sets anything. On a live Axis or Axes of matplotlib's
    own classes whose method is matplotlib's, or on an Axes the cell made (`made_axes`: `target`
    is Axes' function), whose axes `_init_axis` makes of matplotlib's XAxis and YAxis."""
    axis_module, axes_base = sys.modules.get("matplotlib.axis"), sys.modules.get("matplotlib.axes._base")
    axis_class = POLICY.static(axis_module, "Axis", None) if axis_module is not None else None
    base = POLICY.static(axes_base, "_AxesBase", None) if axes_base is not None else None
    if not isinstance(axis_class, type) or not isinstance(base, type) or not isinstance(n.func, ast.Attribute) or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    set_ticks = POLICY.static(axis_class, "set_ticks", None)
    name = n.func.attr
    if not own_function(set_ticks, "matplotlib"):
        return None
    if made_axes and name == "set_ticks":         # of an Axis a made Axes holds (made_axis_class)
        ours = target is set_ticks
    elif made_axes:
        cls = POLICY.static(axis_module, _TICKS.get(name, ""), None)
        ours = name in _TICKS and own_function(target, "matplotlib") and target is POLICY.static(base, name, None) and \
            isinstance(cls, type) and own_classes(cls, "matplotlib") and POLICY.static(cls, "set_ticks", None) is set_ticks
    elif type(target) is types.MethodType and name == "set_ticks":
        owner = type(target.__self__)
        ours = target.__func__ is set_ticks and plain_subclass(owner, axis_class) and own_classes(owner, "matplotlib")
    elif type(target) is types.MethodType and name in _TICKS:
        axes = target.__self__
        axis = (plain_own_dict(axes) or {}).get(name[4] + "axis")
        ours = target.__func__ is POLICY.static(base, name, None) and own_function(target.__func__, "matplotlib") and \
            plain_subclass(type(axes), base) and own_classes(type(axes), "matplotlib") and axis is not None and \
            plain_subclass(type(axis), axis_class) and own_classes(type(axis), "matplotlib") and \
            POLICY.static(type(axis), "set_ticks", None) is set_ticks and "set_ticks" not in (plain_own_dict(axis) or {"set_ticks": 0})
    else:
        ours = False
    if not ours or not _binds(set_ticks, n, receiver=True):
        return None
    given = {k.arg: k.value for k in n.keywords}
    if len(n.args) > 1 or "labels" in given and not (isinstance(given["labels"], ast.Constant) and given["labels"].value is None):
        return None                     # labels given: the other keywords are their Text properties
    kw = next((k for k in n.keywords if k.arg not in ("ticks", "labels", "minor")), None)
    if kw is None:
        return None
    meant = difflib.get_close_matches(kw.arg, ["labels", "minor"], n=1, cutoff=0.6)
    root = chain_root(n.func)
    return ValueClaim(kw, f"{ast.unparse(n.func)}(): Incorrect use of keyword argument {kw.arg!r}: keywords other "
                          "than 'minor' modify the text labels and can only be used if 'labels' are passed as well: "
                          "ValueError", "ValueError", _keyword_fixes(kw, meant, text),
                      subjects=(root,) if root is not None else ())


def made_axis_class(name: str) -> type | None:
    """The class of `ax.xaxis` (`ax.yaxis`) of an Axes of matplotlib's own `Axes` class the cell
    made: its `_init_axis` makes `maxis.XAxis(self)` (`YAxis`), read from matplotlib.axis as that
    code reads it; None where that class holds a function not matplotlib's."""
    axis_module = sys.modules.get("matplotlib.axis")
    cls = POLICY.static(axis_module, {"xaxis": "XAxis", "yaxis": "YAxis"}[name], None) if axis_module is not None else None
    return cls if isinstance(cls, type) and plain_subclass(cls, object) and own_classes(cls, "matplotlib") else None


def pyplot_axes_method(function) -> str | None:
    """The Axes method a pyplot function calls on the current Axes with its own arguments (its
    source one `return gca().<name>(...)`, as pyplot's generated wrappers are); None otherwise."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    name = getattr(function, "__name__", None)
    if pyplot is None or type(name) is not str or POLICY.static(pyplot, name, None) is not function or \
            not POLICY.is_library(function):
        return None
    if name not in _WRAPPED:
        _WRAPPED[name] = _wrapped(name)
    return _WRAPPED[name]


_WRAPPED: dict[str, str | None] = {}


def _wrapped(name: str) -> str | None:
    tree = _module_tree("matplotlib.pyplot")
    define = next((d for d in (tree.body if tree else ()) if isinstance(d, ast.FunctionDef) and d.name == name), None)
    body = [s for s in define.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))] if define else []
    if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Expr)) or not isinstance(body[0].value, ast.Call):
        return None
    call = body[0].value.func
    if isinstance(call, ast.Attribute) and isinstance(call.value, ast.Call) and isinstance(call.value.func, ast.Name) \
            and call.value.func.id == "gca" and not call.value.args:
        return call.attr
    return None
