"""matplotlib's rules on the values a plotting call's keywords are given, where the value is
written in the cell: `plt.plot(x, y, marker="z")`, `ax.scatter(x, y, c=y, cmap="viridiss")`,
`plt.legend(loc="upper centre")`, `plt.hist(v, histtype="bars")`, and a line's format string
(`plt.plot(x, y, "gz")`). Each is the library's own check, asked of the library itself:

- a keyword the Axes method hands on to the artist it makes (matplotlib_properties.ARTISTS) is
  refused by that artist's `set_<name>` on a new artist of the class, and by the method itself
  called with small literal data of its kinds on a Figure of its own (never pyplot's). The two
  together say the artist refuses the value whatever the data: a setter alone is not enough (a
  `Text` stores `multialignment` unread; `step` sets `drawstyle` itself), the method alone is not
  either (a list of sizes is refused for the probe's data, not for the user's);
- a keyword the method names itself is asked of the method only where its code checks the value
  before it reads the data (`METHOD_CHECKED`, read from matplotlib's sources: `_api.check_in_list`
  at the top of `hist`, a colormap name made into a colormap however the data look);
- a legend's keywords are asked of a legend of an Axes or a Figure of its own, as the call's is;
- a format string is read by the function `plot` reads it with (`_process_plot_format`);
- a figure's layout call (`plt.subplots(2, 3, sharex="column")`, `plt.subplot`, `plt.axes`, a
  Figure's `add_subplot`, `add_axes`, `add_gridspec`, `GridSpec`) is asked of a new Figure with the
  cell's plain values (literals, a kernel's numbers and text): the grid, sharing, ratios and
  projection name are read from the arguments, not from the figure drawn on; a projection the
  registry holds must be matplotlib's own class, and the Axes made are few.

Only literal values are asked, and only matplotlib's code runs, on objects made here: nothing of
the user's runs. A value taken is kept (a cell's `color="r"` is asked once a session); a refusal
is asked again each time.
"""
from __future__ import annotations

import ast
import contextlib
import contextvars
import difflib
import re
import sys
import types
import warnings

from .abstract_value import _literal
from .namespace import UNRESOLVED, chain_root
from .read_policy import POLICY
from .claims import ValueClaim

# small literal data each Axes method is asked with: of the kinds it takes, enough for it to make
# its artist (a bar, a line, an image)
PROBE_DATA = {
    "plot": ([0, 1, 2], [0, 1, 2]), "semilogx": ([1, 2, 3], [1, 2, 3]), "semilogy": ([1, 2, 3], [1, 2, 3]),
    "loglog": ([1, 2, 3], [1, 2, 3]), "scatter": ([0, 1, 2], [0, 1, 2]), "bar": ([0, 1], [1, 2]),
    "barh": ([0, 1], [1, 2]), "hist": ([0, 1, 2, 3],), "axhline": (0.5,), "axvline": (0.5,),
    "set_xlabel": ("x",), "set_ylabel": ("y",), "set_title": ("t",), "text": (0, 0, "s"),
    "annotate": ("a", (0, 0)), "fill": ([0, 1, 1], [0, 0, 1]), "errorbar": ([0, 1], [0, 1]),
    "step": ([0, 1], [0, 1]), "imshow": ([[0, 1], [1, 0]],), "vlines": ([0, 1], 0, 1), "hlines": ([0, 1], 0, 1),
    "axvspan": (0, 1), "axhspan": (0, 1), "pcolormesh": ([[0, 1], [1, 0]],), "hexbin": ([0, 1, 2], [0, 1, 2]),
    "fill_between": ([0, 1, 2], [0, 1, 2]), "fill_betweenx": ([0, 1, 2], [0, 1, 2]),
    "matshow": ([[0, 1], [1, 0]],), "stairs": ([1, 2],),
}
# keywords a method names itself and checks before, or however, it reads the data (its sources:
# `_api.check_in_list` first in `hist` and `bar`, `MarkerStyle(marker)` and the sizes' dtype in
# `scatter`, the errors' signs in `errorbar`, the colormap handed to the image or mesh it always makes)
METHOD_CHECKED = {
    "hist": frozenset({"histtype", "align", "orientation", "bins", "color"}),
    "bar": frozenset({"align"}), "barh": frozenset({"align"}),
    "scatter": frozenset({"marker", "alpha", "s"}),
    "step": frozenset({"where"}), "errorbar": frozenset({"fmt", "ecolor", "xerr", "yerr"}),
    "vlines": frozenset({"colors", "linestyles"}), "hlines": frozenset({"colors", "linestyles"}),
    "fill_between": frozenset({"step"}), "fill_betweenx": frozenset({"step"}),
    "imshow": frozenset({"cmap", "origin", "interpolation"}), "matshow": frozenset({"cmap", "origin"}),
    "pcolormesh": frozenset({"cmap", "shading"}), "hexbin": frozenset({"cmap"}),
    "set_title": frozenset({"loc"}), "set_xlabel": frozenset({"loc"}), "set_ylabel": frozenset({"loc"}),
}
# keywords a method names itself and checks where another keyword's data is numbers (`scatter`
# maps `c` through `cmap` and `norm` only when `c` is numbers, not colours)
_CHECKED_WITH = {"scatter": {"cmap": "c"}}
# keywords a method reads itself where another is given (`scatter` takes its colours from `c`
# before the face and edge colour keywords: `_parse_scatter_color_args`)
_OVERRIDDEN = {"scatter": [(("c",), frozenset({"color", "facecolor", "facecolors", "fc", "edgecolor", "edgecolors",
                                                "ec"}))],
               # `bar` draws with `facecolor` where it is given, whatever `color` says
               "bar": [(("facecolor", "fc"), frozenset({"color"}))], "barh": [(("facecolor", "fc"), frozenset({"color"}))]}
# the keywords matplotlib's `_preprocess_data` takes out of every plotting call (a key container)
_PREPROCESSED = frozenset({"data"})
_SCALARS = (str, int, float, bool, type(None))
# methods whose positional strings after the data are format strings (`_process_plot_var_args`)
_FORMATTED = frozenset({"plot", "semilogx", "semilogy", "loglog", "step"})
_QUOTED = re.compile(r"'([^']+)'")
_TAKEN: set[tuple] = set()
# does the cell being read register a name with matplotlib (a colormap, a colour, a scale, a font
# size) before it may use it? Then nothing is asked (cell_registers)
_REGISTERS: contextvars.ContextVar[bool] = contextvars.ContextVar("registers", default=False)
_REGISTERING = re.compile(r"regist|font_scalings|weight_dict|colors_mapping|_colors_full_map|colormaps\[|cmap_d")


# _pristine's answer for the cell being read (None: not asked yet)
_PRISTINE: contextvars.ContextVar[list | None] = contextvars.ContextVar("pristine", default=None)


@contextlib.contextmanager
def cell_registers(source: str):
    """While a cell's facts are read: whether it may register names matplotlib's checks read,
    and _pristine's answer, asked once."""
    token, kept = _REGISTERS.set(bool(_REGISTERING.search(source))), _PRISTINE.set([])
    try:
        yield
    finally:
        _REGISTERS.reset(token)
        _PRISTINE.reset(kept)


def _pristine_now() -> bool:
    kept = _PRISTINE.get()
    if kept is None:                    # (outside a cell's read: asked each time)
        return _pristine()
    if not kept:
        kept.append(_pristine())
    return kept[0]


def keyword_value_claim(n: ast.Call, method: str, cls: type, functions: list, text,
                        numbers=lambda node: None, *, own_only: bool = False) -> ValueClaim | None:
    """The first literal keyword of an Axes method's call (or pyplot's on the current Axes) whose
    value matplotlib refuses, as the module says; `cls` the artist class the method makes,
    `functions[0]` the method; `numbers(node)`: the shape of the numbers `node` holds, or None.
    `own_only`: the artist may not be made (no data): only what the method checks itself."""
    own = _parameters(functions[0]) if method in PROBE_DATA else None
    if own is None or any(k.arg in _PREPROCESSED for k in n.keywords):
        return None                     # with `data=` a keyword's text may be one of its keys
    named = [(kw.arg, kw.value) for kw in n.keywords] + _placed(n, method, functions[0])
    for name, node in named:
        v = _literal(node) if name is not None else UNRESOLVED
        if type(v) not in _SCALARS or own_only and name not in METHOD_CHECKED.get(method, ()):
            continue                    # a sequence may be one value an item (`bar(color=[...])`)
        data = _CHECKED_WITH.get(method, {}).get(name)
        given = next((value for k, value in named if k == data), None) if data else None
        mapped = given is not None and n.args and _as_many(numbers(given), numbers(n.args[0]))
        refused = refused_value(method, cls, own, name, v, frozenset(k for k, _ in named), mapped)
        if refused is not None:
            return _claim(n, node, v, refused, text)
    return None


def _placed(n: ast.Call, method: str, function) -> list[tuple[str, ast.expr]]:
    """The call's positional arguments after the data PROBE_DATA gives, each with the name of the
    parameter Python binds it to (`plt.scatter(x, y, "o")`: s); none past a `*args` or a starred one."""
    sig = POLICY.signature(function)
    if sig is None or any(isinstance(a, ast.Starred) for a in n.args):
        return []
    params = [p for p in sig.parameters.values() if p.name != "self"]
    out = []
    for i, a in enumerate(n.args):
        if i >= len(params) or params[i].kind not in (params[i].POSITIONAL_ONLY, params[i].POSITIONAL_OR_KEYWORD):
            break
        if i >= len(PROBE_DATA[method]):
            out.append((params[i].name, a))
    return out


def _as_many(values, points) -> bool:
    """1-D numbers, as many as the points (`scatter` maps `c` through its colormap only then)."""
    return values is not None and points is not None and values.ndim == 1 and values.size is not None and \
        values.size == points.size


def refused_value(method: str, cls: type, own: frozenset[str], name: str, v, given: frozenset[str] = frozenset(),
                  numbers_given: bool = False) -> tuple[str, str] | None:
    """(exception, message) where matplotlib refuses `name=v` of the Axes `method` (its own
    parameters `own`) whatever the data, as the module says; `given`: the call's keywords;
    `numbers_given`: the keyword `_CHECKED_WITH` names is given numbers."""
    if any(set(triggers) & given and name in overridden for triggers, overridden in _OVERRIDDEN.get(method, ())):
        return None
    if name in own or name in _PREPROCESSED:
        data = _CHECKED_WITH.get(method, {}).get(name)
        if data is not None and numbers_given:
            return _asked(("axes", method, data, name, repr(v)), lambda: _probe(method, {name: v}, {data: [0, 1, 2]}))
        if name in METHOD_CHECKED.get(method, ()):
            return _asked(("axes", method, name, repr(v)), lambda: _probe(method, {name: v}))
        return None
    aliases = POLICY.static(cls, "_alias_to_prop", {})
    canonical = aliases.get(name, name) if type(aliases) is dict else name
    if _asked(("artist", cls.__module__, cls.__qualname__, canonical, repr(v)),
              lambda: _setter_refuses(cls, canonical, v)) is None:
        return None
    return _asked(("axes", method, name, repr(v)), lambda: _probe(method, {name: v}))


def format_claim(n: ast.Call, method: str, text, numbers=lambda node: None) -> ValueClaim | None:
    """A format string `plot` refuses (`plt.plot(x, y, "gz")`: ValueError), found where
    `_process_plot_var_args` finds one: the arguments taken two at a time, a string after them
    joining the group, whose last item is its format when a string. Every other positional
    argument must be known numbers (a name holding text would group otherwise)."""
    if method not in _FORMATTED or any(k.arg == "data" for k in n.keywords):
        return None                     # with `data=` a string may be a key
    base = sys.modules.get("matplotlib.axes._base")
    read = POLICY.static(base, "_process_plot_format", None) if base is not None else None
    if read is None or not POLICY.is_library(read) or \
            any(not _is_string(a) and numbers(a) is None for a in n.args):
        return None
    args = list(n.args)
    while args:
        group, args = args[:2], args[2:]
        if args and _is_string(args[0]):
            group, args = [*group, args[0]], args[1:]
        if len(group) < 2 or not _is_string(group[-1]):
            continue
        v = group[-1].value
        refused = _asked(("format", v), lambda v=v: _raised(lambda: read(v)))
        if refused is not None:
            return _claim(n, group[-1], v, refused, text)
    return None


def legend_value_claim(n: ast.Call, owner: str, text) -> ValueClaim | None:
    """A literal keyword a legend of an Axes or a Figure (`owner`) refuses (`loc="upper centre"`,
    `loc="best"` on a Figure): asked of a legend with no handles on an owner of its own, which
    checks its keywords as the call's legend does."""
    for kw in n.keywords:
        v = _literal(kw.value) if kw.arg not in (None, "handles", "labels") else UNRESOLVED
        if v is UNRESOLVED:
            continue
        refused = _asked(("legend", owner, kw.arg, repr(v)), lambda k=kw.arg, v=v: _probe_legend(owner, {k: v}))
        if refused is not None:
            return _claim(n, kw.value, v, refused, text)
    return None


def quoted_fixes(node: ast.expr, v, message: str, text) -> list[str]:
    """The value a refusal's message quotes nearest a refused text (matplotlib's `_api` lists the
    values it takes), quoted as the cell quotes it."""
    if type(v) is not str or text(node) not in (repr(v), f'"{v}"'):
        return []
    quote = text(node)[0]
    meant = [w for w in _QUOTED.findall(message) if w != v]
    return [f"{quote}{m}{quote}" for m in difflib.get_close_matches(v, meant, n=1, cutoff=0.6)]


def _claim(n: ast.Call, node: ast.expr, v, refused: tuple[str, str], text) -> ValueClaim:
    exception, message = refused
    fixes = quoted_fixes(node, v, message, text)
    root = chain_root(n.func)
    return ValueClaim(node, f"{ast.unparse(n.func)}(): {message.splitlines()[0] if message else exception}: {exception}",
                      exception, fixes, subjects=(root,) if root is not None else ())


# the classes whose code a probe runs (a new Figure, its Axes, the artists and the styles they
# read values with), held to be matplotlib's own before anything is asked
_PROBED = (("matplotlib.figure", "Figure"), ("matplotlib.axes", "Axes"), ("matplotlib.lines", "Line2D"),
           ("matplotlib.markers", "MarkerStyle"), ("matplotlib.legend", "Legend"), ("matplotlib.text", "Text"),
           ("matplotlib.patches", "Rectangle"), ("matplotlib.patches", "Polygon"),
           ("matplotlib.collections", "PathCollection"), ("matplotlib.collections", "QuadMesh"),
           ("matplotlib.image", "AxesImage"), ("matplotlib.colors", "Colormap"), ("matplotlib.colors", "Normalize"),
           ("matplotlib.colorbar", "Colorbar"), ("matplotlib.axis", "Axis"), ("matplotlib.axis", "XAxis"),
           ("matplotlib.axis", "YAxis"), ("matplotlib.gridspec", "GridSpec"), ("matplotlib.gridspec", "SubplotSpec"),
           ("seaborn.matrix", "_HeatMapper"))
# the module functions probes read values with
_PROBED_FUNCTIONS = (("matplotlib.colors", ("to_rgba", "to_rgba_array", "is_color_like", "_check_color_like")),
                     ("matplotlib.cm", ("_ensure_cmap",)), ("matplotlib.scale", ("scale_factory",)),
                     ("seaborn.matrix", None), ("seaborn.utils", None))


def _pristine() -> bool:
    """Is every function of the classes and modules a probe runs matplotlib's own (no method of
    the user's set on them), and does matplotlib's units registry hold only library converters
    (a converter of the user's would run on the probe's data)?"""
    for module_name, name in _PROBED:
        module = sys.modules.get(module_name)
        cls = POLICY.static(module, name, None) if module is not None else None
        if cls is None:
            continue
        if not isinstance(cls, type) or not POLICY.is_library(cls):
            return False
        for k in POLICY.mro(cls):
            if k is object:
                continue
            for v in POLICY.class_members(k).values():
                f = v.__func__ if type(v) in (staticmethod, classmethod) else v
                if isinstance(f, (types.FunctionType, types.MethodType)) and not POLICY.is_library(f):
                    return False
    for module_name, names in _PROBED_FUNCTIONS:      # None: every function of the module
        module = sys.modules.get(module_name)
        members = POLICY.module_members(module) if module is not None else {}
        if any((n in members if names is not None else type(members[n]) is types.FunctionType) and
               not POLICY.is_library(members[n]) for n in (names if names is not None else list(members))):
            return False
    scale = sys.modules.get("matplotlib.scale")
    scales = POLICY.module_members(scale).get("_scale_mapping") if scale is not None else None
    if type(scales) is dict and not all(isinstance(c, type) and POLICY.is_library(c) for c in scales.values()):
        return False                    # a scale of the user's: its class runs when an Axes is set to it
    cm = sys.modules.get("matplotlib.cm")
    registry = POLICY.module_members(cm).get("_colormaps") if cm is not None else None
    maps = POLICY.own_dict(registry).get("_cmaps") if registry is not None else None
    if type(maps) is dict and not all(POLICY.is_library(type(m)) for m in maps.values()):
        return False                    # a colormap of the user's class: its `copy` runs when it is looked up
    units = sys.modules.get("matplotlib.units")
    registry = POLICY.module_members(units).get("registry") if units is not None else None
    return registry is None or type(registry).__module__ == "matplotlib.units" and \
        all(POLICY.is_library(type(c)) for c in dict.values(registry))


def _is_string(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is str


def _parameters(function) -> frozenset[str] | None:
    sig = POLICY.signature(function)
    return None if sig is None else frozenset(p.name for p in sig.parameters.values()
                                              if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL))


def _asked(key: tuple, ask) -> tuple[str, str] | None:
    """An answer kept only where matplotlib took the value: a refusal is asked again each time,
    as the user may have registered the name since (a colormap, a colour, a scale)."""
    if key in _TAKEN:
        return None
    if _REGISTERS.get() or not _pristine_now():
        return None
    answer = ask()
    if answer is None:
        _TAKEN.add(key)
    return answer


def _raised(call, refusals: tuple = (ValueError, TypeError)) -> tuple[str, str] | None:
    """(the exception's name, its message) where `call` raises one of `refusals`; None where it
    returns (or raises anything else: not the rule asked)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call()
        except refusals as e:
            name = next(k.__name__ for k in refusals if isinstance(e, k))   # numpy's UFuncTypeError: TypeError
            said = e.args[0] if isinstance(e, KeyError) and len(e.args) == 1 and type(e.args[0]) is str else str(e)
            return name, said
        except Exception:       # noqa: BLE001 - another failure answers nothing
            return None
    return None


def _setter_refuses(cls: type, name: str, v) -> tuple[str, str] | None:
    """Does a new artist of `cls` refuse `v` through its `set_<name>` (matplotlib's own)?"""
    setter = POLICY.static(cls, f"set_{name}", None)
    make = _NEW_ARTISTS.get((cls.__module__, cls.__qualname__))
    if setter is None or make is None or not POLICY.is_library(setter):
        return None
    try:
        artist = make()
    except Exception:           # noqa: BLE001 - no new artist: nothing asked
        return None
    return _raised(lambda: setter(artist, v))


def _figure():
    module = sys.modules.get("matplotlib.figure")
    figure = POLICY.static(module, "Figure", None) if module is not None else None
    return figure() if isinstance(figure, type) and POLICY.is_library(figure) else None


def _probe(method: str, keywords: dict, data: dict | None = None) -> tuple[str, str] | None:
    """The Axes method called on an Axes of a Figure of its own (pyplot knows nothing of it)
    with the probe's data (and `data`'s keywords) and the keyword alone."""
    return _refused_anew(lambda figure, **k: getattr(figure.add_subplot(), method)(*PROBE_DATA[method],
                                                                                   **(data or {}), **k), keywords)


def _probe_legend(owner: str, keywords: dict) -> tuple[str, str] | None:
    return _refused_anew(lambda figure, **k: (figure.add_subplot() if owner == "Axes" else figure).legend(**k),
                         keywords)


def _refused_anew(draw, keywords: dict, refusals: tuple = (ValueError, TypeError)) -> tuple[str, str] | None:
    """`draw(figure, **keywords)` on a Figure of its own refuses `keywords` (one of `refusals`)
    where `draw(figure)` alone is taken."""
    def call(kw):
        figure = _figure()
        if figure is None:
            raise LookupError("no matplotlib")
        draw(figure, **kw)
    return _raised(lambda: call(keywords), refusals) if _raised(lambda: call({}), refusals) is None else None


def mappable_refused(keywords: dict) -> tuple[str, str] | None:
    """A new Figure's `colorbar` given an array (zeros) as its mappable, with the call's plain
    `keywords` (neither `ax` nor `cax`): matplotlib's refusal, where it refuses. The Axes to take
    space from is looked for on the mappable itself: an array has none."""
    np = sys.modules.get("numpy")
    if np is None or not all(_plain_value(v, [_MOST_ITEMS]) for v in keywords.values()):
        return None

    def call():
        figure = _figure()
        if figure is None:
            raise LookupError("no matplotlib")
        figure.colorbar(np.zeros((2, 2)), **keywords)
    return _asked(("colorbar", repr(sorted(keywords.items()))), lambda: _raised(call))


def _new(module: str, name: str, *args):
    def make():
        return POLICY.static(sys.modules[module], name)(*(a() if callable(a) else a for a in args))
    return make


def _corners():
    return sys.modules["numpy"].zeros((2, 2, 2))


def _pair():
    return sys.modules["numpy"].array([0.0, 1.0])


# a new artist of each class the table's methods make, for its setters to be asked
_NEW_ARTISTS = {
    ("matplotlib.lines", "Line2D"): _new("matplotlib.lines", "Line2D", [], []),
    ("matplotlib.collections", "PathCollection"): _new("matplotlib.collections", "PathCollection", []),
    ("matplotlib.patches", "Rectangle"): _new("matplotlib.patches", "Rectangle", (0, 0), 1, 1),
    ("matplotlib.text", "Text"): _new("matplotlib.text", "Text"),
    ("matplotlib.text", "Annotation"): _new("matplotlib.text", "Annotation", "", (0, 0)),
    ("matplotlib.patches", "Polygon"): _new("matplotlib.patches", "Polygon", [[0, 0]]),
    ("matplotlib.collections", "LineCollection"): _new("matplotlib.collections", "LineCollection", []),
    ("matplotlib.collections", "PolyCollection"): _new("matplotlib.collections", "PolyCollection", []),
    ("matplotlib.collections", "FillBetweenPolyCollection"):
        _new("matplotlib.collections", "FillBetweenPolyCollection", "x", _pair, _pair, _pair),
    ("matplotlib.collections", "QuadMesh"): _new("matplotlib.collections", "QuadMesh", _corners),
    ("matplotlib.image", "AxesImage"): _new("matplotlib.image", "AxesImage", None),
    ("matplotlib.patches", "StepPatch"): _new("matplotlib.patches", "StepPatch", [1], [0, 1]),
}


# matplotlib's `_api.check_in_list`/`check_getitem` refusal: a literal argument among none it takes
_API_REFUSAL = re.compile(r" is not a valid value for ")
# the Axes' settings asked with literal arguments: none draws (a probe never draws with them)
_SETTINGS = frozenset({"grid", "set_xscale", "set_yscale", "tick_params", "ticklabel_format", "locator_params",
                       "margins", "set_aspect", "minorticks_on", "minorticks_off", "set_xlim", "set_ylim",
                       "set_adjustable", "set_anchor", "set_axisbelow", "autoscale", "set_box_aspect",
                       "set_xmargin", "set_ymargin", "set_frame_on", "set_facecolor", "invert_xaxis", "invert_yaxis",
                       "axis"})
# a setting's own refusals besides `_api`'s that read its arguments alone (`axis("tigth")`)
_ARGUMENTS_REFUSED = {"axis": re.compile(r"^(Unrecognized string |The first argument to axis\(\) must be )")}
_NAMED = re.compile(r" is not a valid value for (\w+)")
# pyplot's functions that make a new Axes on a grid of the Figure: their grid arguments are checked
# before anything else is read (`SubplotSpec._from_subplot_args`)
_GRID_MAKERS = frozenset({"subplot", "add_subplot"})
# the keywords `add_subplot` reads before the grid (`_process_projection_requirements`); the
# others go to the new Axes after it
_PROJECTING = frozenset({"projection", "polar", "axes_class"})


def axes_call_claim(n: ast.Call, method: str, text) -> ValueClaim | None:
    """An Axes method called with literal arguments only (`ax.grid(which="mayor")`,
    `plt.xscale("logarithm")`, pyplot's on its current Axes) that refuses one of them by
    matplotlib's `_api` check whatever the Axes holds: asked of an Axes of a Figure of its own.
    `method`: the Axes method's name (the drawing ones are the artists' rules above)."""
    if method not in _SETTINGS or not all(_plain(a) for a in (*n.args, *(k.value for k in n.keywords))) \
            or any(k.arg is None for k in n.keywords):
        return None
    args = [_literal(a) for a in n.args]
    keywords = {k.arg: _literal(k.value) for k in n.keywords}
    refused = _asked(("call", method, repr(args), repr(sorted(keywords.items()))),
                     lambda: _probe_call(lambda fig: getattr(fig.add_subplot(), method), args, keywords))
    if refused is None or not _API_REFUSAL.search(refused[1]) and \
            not (method in _ARGUMENTS_REFUSED and _ARGUMENTS_REFUSED[method].search(refused[1])):
        return None
    named = _NAMED.search(refused[1])
    node = next((k.value for k in n.keywords if named and k.arg == named.group(1)), None) or \
        next((k.value for k in n.keywords if isinstance(k.value, ast.Constant) and repr(k.value.value) in refused[1]),
             n.func)
    return _claim(n, node, node.value if isinstance(node, ast.Constant) else None, refused, text)


def grid_claim(n: ast.Call, maker: str, text, positions=None) -> ValueClaim | None:
    """`plt.subplot(2, 2, 5)`, `fig.add_subplot(3, 3, 10, xticks=[])`: a grid position the Figure
    refuses (ValueError: num must be an integer with 1 <= num <= 4, not 5), asked of a Figure of
    its own with the literal grid (the Axes' keywords are read after it); `positions`: where the
    index is a loop's variable, the values it takes (each asked, in order)."""
    if maker not in _GRID_MAKERS or not 1 <= len(n.args) <= 3 or \
            any(k.arg is None or k.arg in _PROJECTING for k in n.keywords):
        return None                     # the projection's keywords are read first (its class may refuse)
    grid = [_literal(a) for a in n.args]
    if positions is not None and len(grid) in (1, 3):
        grid = [[*grid[:-1], p] for p in positions]
    else:
        grid = [grid]
    for args in grid:
        if any(type(a) is not int for a in args):
            return None
        refused = _asked(("grid", repr(args)), lambda a=args: _probe_call(lambda fig: fig.add_subplot, a, {}))
        if refused is not None and refused[0] in ("ValueError", "TypeError"):
            return _claim(n, n.args[-1], None, refused, text)      # (a position, or 2 numbers for 1 or 3)
    return None


def _plain(node: ast.expr) -> bool:
    v = _literal(node)
    return type(v) in _SCALARS or type(v) in (list, tuple) and all(type(x) in _SCALARS for x in v)


def _probe_call(callee, args: list, keywords: dict) -> tuple[str, str] | None:
    figure = _figure()
    return None if figure is None else _raised(lambda: callee(figure)(*args, **keywords))



def refused_on_new_axes(key: tuple, draw, keywords: dict) -> tuple[str, str] | None:
    """Another library's drawing call asked the same way (seaborn's `heatmap`): `draw(ax,
    **keywords)` on an Axes of a Figure of its own refuses `keywords` (ValueError, TypeError,
    KeyError or AttributeError, as the library raises it) where `draw(ax)` alone is taken."""
    return _asked(key, lambda: _refused_anew(lambda figure, **k: draw(figure.add_subplot(), **k), keywords,
                                             (ValueError, TypeError, KeyError, AttributeError)))


# a Figure's layout methods, as a new Figure is asked them
FIGURE_LAYOUT = {"subplots": "subplots", "add_subplot": "add_subplot", "add_axes": "add_axes",
                 "add_gridspec": "add_gridspec"}
_MOST_AXES = 6                  # Axes a layout probe may make (a few ms each)
_MOST_ITEMS = 64                # items of the plain values a layout probe reads
# pyplot.subplots' own keywords; the others make its Figure (pyplot.figure's `**fig_kw`)
_SUBPLOTS_KEYWORDS = frozenset({"nrows", "ncols", "sharex", "sharey", "squeeze", "width_ratios", "height_ratios",
                                "subplot_kw", "gridspec_kw"})
# pyplot.figure's keywords that choose the figure or its class: a figure that exists ignores the others
_CHOOSING = frozenset({"num", "clear", "FigureClass"})
_LAYOUT_REFUSALS = (ValueError, TypeError, AttributeError, IndexError, KeyError)
# the grid's place in its figure: checked against the figure's own subplot parameters (`subplots_adjust`)
_PLACING = frozenset({"left", "right", "bottom", "top", "wspace", "hspace"})
# an Axes' keywords that choose a class of a registry the user may add to (a scale's)
_REGISTERED = frozenset({"xscale", "yscale", "zscale", "projection", "polar", "axes_class"})


def layout_claim(n: ast.Call, target, live, made_figure: bool, first, current_figure_kept) -> ValueClaim | None:
    """What matplotlib raises on a new Figure for the layout call `n` (`target`: its callee's live
    object, matplotlib's own; `made_figure`: `n` calls a method of a Figure the cell made, as pyplot
    made it; `first()`: nothing but numbers and a new Figure are made before it in the cell, so
    rcParams are as the probe reads them (asked only where it matters); `current_figure_kept()`: is pyplot's current Figure matplotlib's own, its
    add_subplot and add_axes its class's)."""
    ask, of_module = _layout_asked(n, target, made_figure)
    if ask is None or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords) or \
            ask == "axes" and len(n.args) > 1:
        return None                     # (pyplot.axes' own signature refuses more: not a layout)
    budget = [_MOST_ITEMS]
    args = [_plain_data(a, live, budget) for a in n.args]
    keywords = {k.arg: _plain_data(k.value, live, budget) for k in n.keywords}
    if any(v is UNRESOLVED for v in (*args, *keywords.values())) or not _own_projection(keywords, ask) or \
            ask == "subplots" and (not _few_axes(args, keywords) or _CHOOSING & set(keywords)):
        return None
    inner = {k for key in ("subplot_kw", "gridspec_kw") if type(keywords.get(key)) is dict for k in keywords[key]}
    if (set(keywords) | inner) & _REGISTERED - {"projection", "polar"} or \
            (set(keywords) | inner) & _PLACING and (ask != "subplots" or not of_module or not first()):
        return None                     # (a scale's class may be the user's; another figure's own parameters,
                                        # or rcParams a style set first in the cell)
    if ask in ("add_subplot", "axes") and of_module and not current_figure_kept():
        return None                     # pyplot asks its current Figure: of the user's class, or unknown
    refused = _asked(("layout", ask, repr(args), repr(sorted(keywords.items()))),
                     lambda: _raised(lambda: _lay_out(ask, args, keywords), _LAYOUT_REFUSALS))
    if refused is None:
        return None
    exception, message = refused
    # pyplot's or gridspec's own function on literals alone, first in the cell, reads nothing the
    # cell may change (a style it sets first changes rcParams; a Figure's method reads its Figure)
    literal = of_module and \
        not any(isinstance(x, ast.Name) for a in (*n.args, *(k.value for k in n.keywords)) for x in ast.walk(a)) and first()
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {' '.join(message.split())[:200]}: {exception}", exception,
                      callee=True, literal=literal)


def _layout_asked(n: ast.Call, target, made_figure: bool) -> tuple[str | None, bool]:
    """Which of a new Figure's calls `n` is asked as ("subplots", "add_subplot", "add_axes",
    "add_gridspec", "axes": pyplot's, "gridspec": the class), and whether it is a module's
    function; None for another call."""
    pyplot, gridspec = sys.modules.get("matplotlib.pyplot"), sys.modules.get("matplotlib.gridspec")
    functions = POLICY.module_members(pyplot) if pyplot is not None else {}
    for name, ask in (("subplots", "subplots"), ("subplot", "add_subplot"), ("axes", "axes")):
        if target is functions.get(name) and target is not None:
            return ask, True
    if gridspec is not None and target is not None and target is POLICY.module_members(gridspec).get("GridSpec"):
        return "gridspec", True
    if not isinstance(n.func, ast.Attribute) or n.func.attr not in FIGURE_LAYOUT:
        return None, False
    figure = sys.modules.get("matplotlib.figure")
    kinds = tuple(POLICY.static(figure, k, None) for k in ("Figure", "SubFigure")) if figure is not None else ()
    receiver = target.__self__ if type(target) is types.MethodType else None
    own = receiver is not None and type(receiver) in kinds and \
        POLICY.static(type(receiver), n.func.attr, None) is POLICY.static(kinds[0], n.func.attr, UNRESOLVED)
    return (FIGURE_LAYOUT[n.func.attr] if own or made_figure else None), False


def _plain_data(node: ast.expr, live, budget: list):
    """The argument's value where it is plain data (a literal, or a name or attribute whose live
    value is Python's scalars and tuples, lists and dicts of them, within `budget` items);
    UNRESOLVED otherwise."""
    v = _literal(node)
    if v is UNRESOLVED and isinstance(node, (ast.Name, ast.Attribute)):
        v = live(node)
    return v if _plain_value(v, budget) else UNRESOLVED


def _plain_value(v, budget: list) -> bool:
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if type(v) in _SCALARS:
        return True
    if type(v) in (tuple, list):
        return all(_plain_value(x, budget) for x in v)
    return type(v) is dict and all(type(k) is str and _plain_value(x, budget) for k, x in v.items())


def _own_projection(keywords: dict, ask: str) -> bool:
    """A projection written (`projection`, `subplot_kw`'s) that matplotlib's registry holds is its
    plain Axes (another class's methods are not among those `_pristine` reads); a name it lacks is
    refused before any class is made."""
    kw = keywords.get("subplot_kw") if ask == "subplots" else None
    chosen = [keywords.get("projection"), kw.get("projection") if type(kw) is dict else None]
    projections = sys.modules.get("matplotlib.projections")
    registry = POLICY.static(projections, "projection_registry", None) if projections is not None else None
    own = POLICY.own_dict(registry).get("_all_projection_types") if registry is not None else None
    axes = sys.modules.get("matplotlib.axes")
    plain = POLICY.static(axes, "Axes", None) if axes is not None else None
    for name in chosen:
        if type(name) is not str:
            continue
        if type(own) is not dict:
            return False
        cls = own.get(name)
        if cls is not None and cls is not plain:
            return False
    return True


def _few_axes(args: list, keywords: dict) -> bool:
    rows = args[0] if args else keywords.get("nrows", 1)
    cols = args[1] if len(args) > 1 else keywords.get("ncols", 1)
    return not (type(rows) is int and type(cols) is int and rows * cols > _MOST_AXES)


def _lay_out(ask: str, args: list, keywords: dict) -> None:
    """The layout call on a new Figure of matplotlib's own (pyplot knows nothing of it)."""
    options = dict(keywords)
    if ask == "subplots":
        made = {k: options.pop(k) for k in list(options) if k not in _SUBPLOTS_KEYWORDS}
        figure = POLICY.static(sys.modules["matplotlib.figure"], "Figure")
        figure(**made).subplots(*args, **options)
        return
    if ask == "gridspec":
        POLICY.static(sys.modules["matplotlib.gridspec"], "GridSpec")(*args, **options)
        return
    figure = _figure()
    if ask == "axes":           # pyplot.axes(arg=None, **kwargs): a rectangle's Axes, else a subplot's
        arg = args[0] if args else options.pop("arg", None)
        ask = "add_subplot" if arg is None else "add_axes"
        args = [] if arg is None else [arg]
    getattr(figure, ask)(*args, **options)

