"""In-cell propagation (abstract.py) through matplotlib's calls, as matplotlib documents them:
plt.subplots' grid of Axes and its Figure, plt.axes' one Axes, plt.figure's Figure, and the
Axes such a Figure adds or such an Axes twins (`added_axes`). Functions of the call's literal arguments:
Propagation calls them. An Axes so made is of matplotlib's `Axes` class exactly (no projection
chose another): `axes_names` gives what its instance holds of its own; a Figure so made is of
matplotlib's `Figure` class exactly, `figure_names` what it holds. An Axes whose literal
`projection` keyword chose another class of matplotlib's registry (`subplot_kw=dict(projection="3d")`,
`fig.add_subplot(projection="polar")`) is a "projection" Abstract carrying that class
(`projection_names`: what its instance holds).
"""
from __future__ import annotations

import ast
import functools
import math
import os
import re
import sys
import types

from .abstract_value import _SHARE, _SUBPLOTS_OPTIONS, Abstract, _literal, literal_int
from .libraries import own_classes, own_function
from .read_policy import POLICY

# matplotlib's 3-D toolkit, whose Axes3D its registry holds as the "3d" projection
_TOOLKIT = "mpl_toolkits.mplot3d"
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
    if r is None or c is None or r < 1 or c < 1 or type(squeeze) is not bool or not _grid_taken(keywords, r, c):
        return None
    chosen = None if _plain_axes(keywords.get("subplot_kw")) else _subplot_kw_projection(keywords["subplot_kw"])
    if chosen is None and not _plain_axes(keywords.get("subplot_kw")):
        return None
    one = Abstract("projection", axes=chosen) if chosen is not None else Abstract("Axes")
    if not squeeze:
        axes = Abstract("ndarray", (r, c), "O", holds=one.like, axes=chosen)
    elif r == c == 1:
        axes = one
    else:
        axes = Abstract("ndarray", tuple(d for d in (r, c) if d != 1), "O", holds=one.like, axes=chosen)
    return (Abstract("Figure"), axes)       # no FigureClass, no num: a new Figure of that class


def _subplot_kw_projection(subplot_kw: ast.expr) -> type | None:
    """The class of the Axes subplots makes where `subplot_kw` is a literal dict of `projection`
    or `polar` alone (`dict(projection="3d")`), each Axes made by `add_subplot(**subplot_kw)`."""
    if isinstance(subplot_kw, ast.Call) and isinstance(subplot_kw.func, ast.Name) and subplot_kw.func.id == "dict" \
            and not subplot_kw.args and all(k.arg is not None for k in subplot_kw.keywords):
        given = {k.arg: k.value for k in subplot_kw.keywords}
    elif isinstance(subplot_kw, ast.Dict) and all(isinstance(k, ast.Constant) and type(k.value) is str
                                                  for k in subplot_kw.keys):
        given = {k.value: v for k, v in zip(subplot_kw.keys, subplot_kw.values)}
    else:
        return None
    return projection_axes(given)


def projection_axes(keywords: dict) -> type | None:
    """The class of a new Axes made of these keywords alone (name -> expression), where they are
    literal `projection`/`polar` keywords choosing a class other than matplotlib's `Axes`
    (`Figure._process_projection_requirements`: the class matplotlib's registry holds under that
    name) and making it runs the library's code alone: that class's and its bases' functions are
    matplotlib's (or its mpl_toolkits'), so are the Figure's (plain_making). None otherwise, or
    for matplotlib's `Axes` itself (Abstract("Axes") stands for that one)."""
    projections = sys.modules.get("matplotlib.projections")
    if not keywords or set(keywords) - {"projection", "polar"} or projections is None or not plain_making():
        return None
    cls = projection_class(keywords)
    if cls is None or cls is axes_class() or not _registered_own(cls):
        return None
    return cls


def projection_class(keywords: dict) -> type | None:
    """The Axes class literal `projection`/`polar` keywords choose in matplotlib's registry."""
    projection = _literal(keywords["projection"]) if "projection" in keywords else None
    polar = _literal(keywords["polar"]) if "polar" in keywords else False
    if type(polar) is not bool or projection is not None and type(projection) is not str:
        return None
    if polar:
        if projection not in (None, "polar"):
            return None                 # ValueError first
        projection = "polar"
    cls = _registry().get(projection or "rectilinear")
    return cls if isinstance(cls, type) else None


def _registry() -> dict:
    """matplotlib's projection registry, name -> class, read as it is ({} where it, or the class
    holding it, is not matplotlib's own: its `get_projection_class` replaced answers anything)."""
    projections = sys.modules.get("matplotlib.projections")
    registry = POLICY.static(projections, "projection_registry", None) if projections is not None else None
    if registry is None or not POLICY.is_library(type(registry)) or not own_classes(type(registry), "matplotlib"):
        return {}
    try:
        own = POLICY.own_dict(registry)
    except (AttributeError, TypeError):
        return {}
    table = own.get("_all_projection_types") if type(own) is dict else None
    return table if type(table) is dict else {}


def _registered_own(cls: type) -> bool:
    """Is `cls` a subclass of matplotlib's Axes whose classes are all matplotlib's or its 3-D
    toolkit's, each holding their own functions alone (a method of the user's set on one runs)?"""
    base, toolkit = axes_class(), _TOOLKIT
    modules = [POLICY.class_module(k) for k in POLICY.mro(cls) if k is not object]
    if base is None or not issubclass(cls, base) or not POLICY.is_library(cls) or \
            any(type(m) is not str or not (m.startswith("matplotlib.") or m.startswith(toolkit + ".")) for m in modules):
        return False
    return own_classes(cls, "matplotlib") and \
        (not any(m.startswith(toolkit + ".") for m in modules) or own_classes(cls, toolkit))


def added_axes(node: ast.Call, owner, method: str):
    """A new Axes of matplotlib's own class added by what the cell made, with no keyword (a
    keyword's value may raise before the Axes is made) but literal projection ones, which choose
    its class (projection_axes: `fig.add_subplot(projection="polar")`): `fig.add_subplot()`, `(2, 2, 1)` or
    `(221)` at a position the grid holds, `fig.add_axes([l, b, w, h])` of a Figure the cell
    made (Figure.add_subplot makes a new Axes each call), `ax.twinx()` and `ax.twiny()` of an
    Axes it made on a Figure it made (the twin is added to the Axes' Figure by add_subplot or
    add_axes, of the default projection as `axes_class` is not given; plt.axes' Figure is
    pyplot's current one, of a class not known).
    Where the methods on the way are matplotlib's own, no figure hook may change what pyplot
    makes, and the default projection is matplotlib's Axes (its registry, read as it is)."""
    chosen = projection_axes({k.arg: k.value for k in node.keywords}) if method in ("add_subplot", "add_axes") and \
        all(k.arg is not None for k in node.keywords) else None
    if node.keywords and chosen is None or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    args, on_current, owner = [_literal(a) for a in node.args], owner.on_current, owner.like
    if owner == "Axes" and method in ("twinx", "twiny") and not args and not on_current:
        on_the_way = (("Axes", method), ("Figure", "add_subplot"), ("Figure", "add_axes"))
    elif owner == "Figure" and method == "add_axes" and len(args) == 1 and type(args[0]) in (list, tuple) and \
            len(args[0]) == 4 and all(type(x) in (int, float) for x in args[0]):
        on_the_way = (("Figure", method),)
    elif owner == "Figure" and method == "add_subplot" and (not args or subplot_position(args)):
        on_the_way = (("Figure", method),)
    else:
        return None
    classes = {"Axes": axes_class(), "Figure": figure_class()}
    if None in classes.values() or figure_hooks() or not plain_making() or \
            not all(_matplotlib_function(POLICY.static(classes[c], m, None)) for c, m in on_the_way):
        return None
    if method == "add_axes" and not (all(math.isfinite(x) for x in args[0]) and args[0][2] >= 0 and args[0][3] >= 0):
        return None                     # matplotlib refuses a rect not finite or of negative size
    return Abstract("projection", axes=chosen) if chosen is not None else Abstract("Axes")


def subplot_position(args: list) -> bool:
    """add_subplot's position: three ints (rows, columns, index within them), or their digits."""
    if len(args) == 1 and type(args[0]) is int:
        args = [int(d) for d in str(args[0])] if 111 <= args[0] <= 999 else []
    return len(args) == 3 and all(type(a) is int and a >= 1 for a in args) and args[2] <= args[0] * args[1]


def _matplotlib_function(f) -> bool:
    """A plain function matplotlib defines (not one of the user's set on its class, nor a wrapper
    of the user's over matplotlib's)."""
    return own_function(f, "matplotlib")


def plain_making() -> bool:
    """Is what makes a new Axes or Figure matplotlib's own code through and through: every
    function of matplotlib's Axes and Figure classes, and `get_projection_class`, matplotlib's
    (a method of the user's set on them, `_make_twin_axes` or `__init__`, runs in each), and the
    default projection still Axes?"""
    axes, figure = axes_class(), figure_class()
    projections = sys.modules.get("matplotlib.projections")
    return axes is not None and figure is not None and projections is not None and \
        own_classes(axes, "matplotlib") and own_classes(figure, "matplotlib") and \
        own_function(POLICY.static(projections, "get_projection_class", None), "matplotlib") and \
        _rectilinear_is(axes)


def _rectilinear_is(cls: type) -> bool:
    """Does matplotlib's projection registry give `cls` for the default projection ("rectilinear":
    `get_projection_class(None)`)? A class the user registered under that name would be made."""
    return dict.get(_registry(), "rectilinear") is cls


def figure(node: ast.Call):
    """plt.figure() with no `num` (a new figure, never one pyplot holds), no FigureClass, and
    keywords its signature or Figure's takes: a new Figure of matplotlib's own class."""
    cls, pyplot = figure_class(), sys.modules.get("matplotlib.pyplot")
    made_by = POLICY.signature(POLICY.static(pyplot, "figure", None)) if pyplot is not None else None
    init = POLICY.signature(cls) if cls is not None else None
    if made_by is None or init is None or node.args:
        return None
    taken = (set(made_by.parameters) | set(init.parameters)) - {"num", "FigureClass", "clear", "kwargs", "args"}
    if any(k.arg is None or k.arg not in taken for k in node.keywords):
        return None
    return Abstract("Figure")


def axes(node: ast.Call):
    """plt.axes() or plt.axes([left, bottom, width, height]), with keywords that are properties of
    matplotlib's Axes (each has its `set_` method): a new Axes of that class; with literal
    projection keywords alone (`plt.axes(projection="3d")`), one of the class they choose
    (projection_axes), which the current Figure's `add_subplot` or `add_axes` makes."""
    cls = axes_class()
    chosen = projection_axes({k.arg: k.value for k in node.keywords}) \
        if node.keywords and all(k.arg is not None for k in node.keywords) else None
    if chosen is not None and len(node.args) <= 1:
        rect = _literal(node.args[0]) if node.args else None
        if node.args and not (type(rect) in (list, tuple) and len(rect) == 4 and
                              all(type(x) in (int, float) and math.isfinite(x) for x in rect) and min(rect[2:]) >= 0):
            return None
        return Abstract("projection", axes=chosen, on_current=True)
    if cls is None or len(node.args) > 1 or any(k.arg is None or k.arg in _OTHER_CLASS or
                                                 POLICY.static(cls, f"set_{k.arg}", None) is None
                                                 for k in node.keywords):
        return None
    if node.args:
        rect = _literal(node.args[0])
        if type(rect) not in (list, tuple) or len(rect) != 4 or \
                any(type(x) not in (int, float) for x in rect):
            return None
    return Abstract("Axes", on_current=True)


def _grid_taken(keywords: dict, r: int, c: int) -> bool:
    """Does the GridSpec surely take subplots' grid keywords: ratios, literal positive numbers,
    one for each column (row); `gridspec_kw` a literal dict of spaces only (its other keys may
    repeat a ratio or a count, a TypeError or ValueError first)?"""
    for k, n in (("width_ratios", c), ("height_ratios", r)):
        given = keywords.get(k)
        v = [_arithmetic(e) for e in given.elts] if isinstance(given, (ast.List, ast.Tuple)) else \
            _literal(given) if given is not None else [1] * n
        if type(v) not in (list, tuple) or len(v) != n or any(type(x) not in (int, float) or x <= 0 for x in v):
            return False
    kw = _literal(keywords["gridspec_kw"]) if "gridspec_kw" in keywords else {}
    return type(kw) is dict and set(kw) <= {"wspace", "hspace"} and all(type(x) in (int, float) for x in kw.values())


def _arithmetic(node: ast.expr, depth: int = 0):
    """A number written with literal numbers and `+ - * /` (`300 / 200`), as Python computes it;
    None for anything else (a name, a call, a division by zero)."""
    if depth > 10:
        return None
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _arithmetic(node.operand, depth + 1)
        return None if v is None else -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        a, b = _arithmetic(node.left, depth + 1), _arithmetic(node.right, depth + 1)
        if a is None or b is None or isinstance(node.op, ast.Div) and b == 0:
            return None
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.Div: lambda: a / b}
        v = ops[type(node.op)]()
        return v if math.isfinite(v) else None
    return None


def _plain_axes(subplot_kw: ast.expr | None) -> bool:
    """Does subplots' `subplot_kw` (not given, or a literal dict) leave the Axes' class alone?"""
    if subplot_kw is None:
        return True
    if isinstance(subplot_kw, ast.Call) and isinstance(subplot_kw.func, ast.Name) and subplot_kw.func.id == "dict" \
            and not subplot_kw.args:
        return all(k.arg is not None and k.arg not in _OTHER_CLASS for k in subplot_kw.keywords)
    given = _literal(subplot_kw)
    return type(given) is dict and not set(given) & _OTHER_CLASS


def _own_class(module_name: str, name: str, cls=None) -> type | None:
    """`module.name` (or `cls`) where it is matplotlib's own class of that name (a class of the
    user's set there is not)."""
    mod = sys.modules.get(module_name)
    cls = cls or (POLICY.static(mod, name, None) if mod is not None else None)
    if not isinstance(cls, type) or not POLICY.is_library(cls):
        return None
    home = POLICY.class_module(cls)           # the module that defines it holds it by that name
    defined = sys.modules.get(home) if type(home) is str and home.startswith("matplotlib.") else None
    return cls if defined is not None and POLICY.static(defined, name, None) is cls else None


def axes_class() -> type | None:
    return _own_class("matplotlib.axes", "Axes")


def figure_class() -> type | None:
    """matplotlib's own Figure class: the one pyplot's `figure` makes by default (its
    `FigureClass` default, bound when pyplot was imported), where pyplot is loaded."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return _own_class("matplotlib.figure", "Figure")
    made_by = POLICY.signature(POLICY.static(pyplot, "figure", None))
    given = made_by.parameters.get("FigureClass") if made_by is not None else None
    return _own_class("matplotlib.figure", "Figure", given.default) if given is not None else None


def figure_names() -> tuple[type, frozenset[str]] | None:
    """matplotlib's Figure class and the public names its instance holds of its own, read from
    a stand-in Figure (no pyplot: pyplot's figure adds private names alone), where making one
    runs matplotlib's code alone (plain_making)."""
    cls = figure_class()
    return _figure_names(cls) if cls is not None and plain_making() else None


# the names a stand-in instance holds, by its class: kept once made with matplotlib's code alone
_STAND_INS: dict[tuple, tuple[type, frozenset[str]] | None] = {}


def _figure_names(cls: type) -> tuple[type, frozenset[str]] | None:
    return _stand_in(("Figure", cls), lambda: cls())


def _stand_in(key: tuple, make) -> tuple[type, frozenset[str]] | None:
    """The class and public own names of a new object `make` gives, made once where every class
    of matplotlib's loaded modules holds matplotlib's functions alone (making one runs many: a
    Text, a Spine, a Tick...; a method the user set on any of them would run here)."""
    if key not in _STAND_INS:
        if not _matplotlib_untouched():
            return None
        made = make()
        _STAND_INS[key] = (key[1], frozenset(k for k in POLICY.own_dict(made) if type(k) is str and
                                             not k.startswith("_"))) if made is not None else None
    return _STAND_INS[key]


def _matplotlib_untouched() -> bool:
    """Does every class matplotlib's loaded modules (and its 3-D toolkit's) define hold their own
    functions alone?"""
    for name, module in list(sys.modules.items()):
        package = next((p for p in ("matplotlib", _TOOLKIT) if name == p or name.startswith(p + ".")), None)
        if package is None or module is None:
            continue
        for value in list(POLICY.module_members(module).values()):
            if isinstance(value, type) and POLICY.class_module(value) == name and not own_classes(value, package):
                return False
    return True


def figure_hooks() -> bool:
    """May pyplot run the user's code on a figure it makes (rcParams["figure.hooks"] not empty,
    or not readable)?"""
    mpl = sys.modules.get("matplotlib")
    params = POLICY.static(mpl, "rcParams", None) if mpl is not None else None
    if not isinstance(params, dict) or not POLICY.is_library(type(params)):
        return True
    hooks = dict.get(params, "figure.hooks", None)
    return type(hooks) is not list or bool(hooks)


def axes_names() -> tuple[type, frozenset[str]] | None:
    """matplotlib's Axes class and the public names its instance holds of its own, read from a
    stand-in Axes on a figure of its own (no pyplot: no figure of the user's is touched), where
    making one runs matplotlib's code alone (plain_making)."""
    cls, figure = axes_class(), figure_class()
    if cls is None or figure is None or not plain_making():
        return None
    return _stand_in(("Axes", cls, figure), lambda: _new_axes(cls, figure))


def _new_axes(cls: type, figure: type):
    made = figure().add_subplot()
    return made if type(made) is cls else None


def projection_names(cls: type) -> tuple[type, frozenset[str]] | None:
    """A projection's Axes class (projection_axes) and the public names its instance holds of its
    own, read from a stand-in made as the cell makes one (`add_subplot(projection=name)`) on a
    Figure of its own."""
    figure = figure_class()
    name = next((k for k, v in _registry().items() if v is cls and type(k) is str), None)
    if figure is None or not projection_axes_class(cls):
        return None
    return _stand_in(("projection", cls, figure), lambda: _new_projection(cls, figure, name))


def _new_projection(cls: type, figure: type, name: str):
    made = figure().add_subplot(projection=name)
    return made if type(made) is cls else None


def projection_axes_class(cls: type) -> bool:
    """Is `cls` a class projection_axes gives (the class matplotlib's registry holds for a
    projection, other than `Axes`, of the library's own code)?"""
    name = next((k for k, v in _registry().items() if v is cls and type(k) is str), None)
    return name is not None and projection_axes({"projection": ast.Constant(name)}) is cls


# the words of matplotlib's (and its toolkits') Python files, read once: None where one could not be
_SPELLED: dict[str, frozenset[str] | None] = {}
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def spelled_by_matplotlib(name: str) -> bool:
    """Does any Python file of matplotlib's package or its toolkits (mpl_toolkits) spell `name`
    (an attribute stored, a name `setattr` is given or one of the literal lists it walks)? The
    public names its code sets on an object it made are spelled so, in modules loaded or not yet
    (a backend, a layout engine); True where a file cannot be read (it may set any). Its compiled
    helpers (paths, images, fonts) take arrays."""
    mpl = sys.modules.get("matplotlib")
    path = POLICY.module_members(mpl).get("__file__") if isinstance(mpl, types.ModuleType) else None
    if type(path) is not str:
        return True
    home = os.path.dirname(os.path.dirname(path))
    for package in ("matplotlib", "mpl_toolkits"):
        if package not in _SPELLED:
            _SPELLED[package] = _words_of(os.path.join(home, package))
        if _SPELLED[package] is None or name in _SPELLED[package]:
            return True
    return False


def _words_of(folder: str) -> frozenset[str] | None:
    words: set[str] = set()
    try:
        for root, _dirs, files in os.walk(folder):
            for f in files:
                if f.endswith(".py"):
                    with open(os.path.join(root, f), encoding="utf-8") as text:
                        words.update(_TOKEN.findall(text.read()))
    except (OSError, UnicodeDecodeError):
        return None
    return frozenset(words)


def drawn_class(cls: type) -> bool:
    """A class of matplotlib's drawn objects (an Artist's or a Colorbar's) other than an Axes or a
    Figure (what they hold is read otherwise), matplotlib's own code throughout (its toolkit's)."""
    artist, colorbar, axes = (sys.modules.get(m) for m in ("matplotlib.artist", "matplotlib.colorbar", "matplotlib.axes"))
    bases = [POLICY.static(m, n, None) for m, n in ((artist, "Artist"), (colorbar, "Colorbar")) if m is not None]
    holders = [c for c in (POLICY.static(axes, "Axes", None) if axes is not None else None, figure_class(),
                           POLICY.static(sys.modules.get("matplotlib.figure"), "FigureBase", None)
                           if "matplotlib.figure" in sys.modules else None) if isinstance(c, type)]
    if not isinstance(cls, type) or not POLICY.is_library(cls) or \
            not any(isinstance(b, type) and b in POLICY.mro(cls) for b in bases) or \
            any(h in POLICY.mro(cls) for h in holders) or len(holders) < 2:
        return False
    modules = [POLICY.class_module(k) for k in POLICY.mro(cls) if k is not object]
    if any(type(m) is not str or not (m.startswith("matplotlib.") or m.startswith(_TOOLKIT + ".")) for m in modules):
        return False
    return own_classes(cls, "matplotlib") and \
        (not any(m.startswith(_TOOLKIT + ".") for m in modules) or own_classes(cls, _TOOLKIT))
