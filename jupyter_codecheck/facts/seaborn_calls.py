"""seaborn's rules on what its plotting functions are given.

Plot variables named by text. The functions that assign their variables through
seaborn's `VectorPlotter` (seaborn._base: `x=`, `y=`, `hue=`, ... each a vector or the name of
one of `data`'s columns) take a str as such a name: a name that is neither one of data's column
labels nor one of its index's level names raises ValueError ("Could not interpret value `cc` for
`x`. An entry with this name does not appear in `data`."), and a str with no data at all raises
it too ("Value is a string, but `data` was not passed."). Its regression functions index data
with the name themselves: KeyError.

    sns.countplot(x="Survivd", data=df)      ValueError: no column "Survivd" in df
    sns.regplot(x="ag", y="fare", data=df)   KeyError: 'ag'

Keywords its plotting functions do not name themselves: they hand them to the matplotlib artist
they draw with (`countplot`'s bars: "Rectangle.set() got an unexpected keyword argument
'palete'", AttributeError), which sets each through its `set_<name>` (matplotlib_properties.py
reads them so). The artist is made whenever data holds a row, for the functions of KEYWORDS,
given the variables they need as data's columns.

`data` is read where it is a live DataFrame of pandas' own class whose column labels and index
names are plain (read, never looked up through the user's labels), as the cell has it at the
call; a variable is judged where it is a str written in the call. The tables are the library's
own, held by tests/test_seaborn_calls.py against seaborn running.
"""
from __future__ import annotations

import ast
import difflib
import inspect
import sys

from .column_selection import frame_labels
from .pandas_plots import frame_arrays
from .abstract_value import _literal
from .matplotlib_properties import refused_on_the_way
from .matplotlib_values import quoted_fixes, refused_on_new_axes
from .namespace import chain_root
from .read_policy import POLICY
from .values import Live, ValueClaim

# function -> (the variables it assigns from data, the exception a missing name raises)
VARIABLES = {
    "scatterplot": (("x", "y", "hue", "size", "style"), "ValueError"),
    "lineplot": (("x", "y", "hue", "size", "style", "units", "weights"), "ValueError"),
    "relplot": (("x", "y", "hue", "size", "style", "row", "col"), "ValueError"),
    "histplot": (("x", "y", "hue", "weights"), "ValueError"),
    "kdeplot": (("x", "y", "hue", "weights"), "ValueError"),
    "ecdfplot": (("x", "y", "hue", "weights"), "ValueError"),
    "rugplot": (("x", "y", "hue"), "ValueError"),
    "displot": (("x", "y", "hue", "weights", "row", "col"), "ValueError"),
    "jointplot": (("x", "y", "hue"), "ValueError"),
    "stripplot": (("x", "y", "hue"), "ValueError"),
    "swarmplot": (("x", "y", "hue"), "ValueError"),
    "boxplot": (("x", "y", "hue"), "ValueError"),
    "violinplot": (("x", "y", "hue"), "ValueError"),
    "boxenplot": (("x", "y", "hue"), "ValueError"),
    "pointplot": (("x", "y", "hue", "units", "weights"), "ValueError"),
    "barplot": (("x", "y", "hue", "units", "weights"), "ValueError"),
    "countplot": (("x", "y", "hue"), "ValueError"),
    "catplot": (("x", "y", "hue", "units", "weights", "row", "col"), "ValueError"),
    "regplot": (("x", "y"), "KeyError"),
    "residplot": (("x", "y"), "KeyError"),
    "lmplot": (("x", "y", "hue", "row", "col"), "KeyError"),
}
# given together, these refuse the call first (countplot counts one of them: TypeError)
_EXCLUSIVE = {"countplot": ("x", "y")}
# function -> (the Axes method it draws with, the artist class its other keywords go to): the
# artist is made for data of a row at least, whatever its values
KEYWORDS = {
    "countplot": ("bar", "matplotlib.patches", "Rectangle"), "barplot": ("bar", "matplotlib.patches", "Rectangle"),
    "histplot": ("bar", "matplotlib.patches", "Rectangle"),
    "scatterplot": ("scatter", "matplotlib.collections", "PathCollection"),
    "stripplot": ("scatter", "matplotlib.collections", "PathCollection"),
    "swarmplot": ("scatter", "matplotlib.collections", "PathCollection"),
    "lineplot": ("plot", "matplotlib.lines", "Line2D"), "pointplot": ("plot", "matplotlib.lines", "Line2D"),
    "rugplot": ("add_collection", "matplotlib.collections", "LineCollection"),
}
# the variables a function needs to draw from data in long form (lineplot: both, else KeyError)
_NEEDS = {"lineplot": ("x", "y")}
# keywords that choose another artist or another check first (histplot's element="step" fills a
# polygon; lineplot's units need estimator=None: ValueError)
_CHOOSING = {"histplot": ("element",), "lineplot": ("units",)}
# functions that draw their artist of one of x and y alone (histplot of both draws a QuadMesh)
_ONE_OF_XY = ("histplot",)
# where seaborn's code may read a keyword out by name before the artist sees it
_SEABORN_ON_THE_WAY = ("seaborn._base", "seaborn.utils", "seaborn._compat")


def seaborn_claim(n: ast.Call, target, live: Live, text=None, axes_kept: bool = False) -> ValueClaim | None:
    """The first variable of a call of VARIABLES' that names no column of its data; else, where
    every variable names one (`axes_kept`: pyplot's current Axes is read as matplotlib's own),
    the first keyword of a call of KEYWORDS' that its artist refuses."""
    sns = sys.modules.get("seaborn")
    members = POLICY.module_members(sns) if sns is not None else {}
    name = next((f for f in VARIABLES if members.get(f) is target), None)     # identity alone: nothing runs
    if name is None or not POLICY.is_library(target) or any(isinstance(a, ast.Starred) for a in n.args) or \
            any(k.arg is None for k in n.keywords):
        return None
    try:
        given = inspect.signature(target).bind(*n.args, **{k.arg: k.value for k in n.keywords}).arguments
    except TypeError:
        return None                                      # Python refuses the call first
    names, exception = VARIABLES[name]
    if name in _EXCLUSIVE and all(v in given for v in _EXCLUSIVE[name]):
        return None
    texts = [(v, given[v]) for v in names if isinstance(given.get(v), ast.Constant) and type(given[v].value) is str]
    if not texts:
        return None
    data = given.get("data")
    if data is None:
        if exception != "ValueError":
            return None
        v, node = texts[0]
        return ValueClaim(node, f"{name}(): {v}={node.value!r} names a column, but no data is given: "
                                f"ValueError", "ValueError")
    frame = live(data)
    labels, index = frame_labels(frame), _index_names(frame)
    if labels is None or index is None:
        return None
    for v, node in texts:
        if node.value not in labels and node.value not in index:
            near = difflib.get_close_matches(node.value, [c for c in labels if type(c) is str], n=3, cutoff=0.6)
            return ValueClaim(node, f"{name}(): {v}={node.value!r} is not a column of {ast.unparse(data)}: "
                                    f"{exception}", exception, candidates=[repr(c) for c in near])
    if name in KEYWORDS and axes_kept and text is not None and len(texts) == sum(v in given for v in names) and \
            all(v in given for v in _NEEDS.get(name, ())) and ({"x", "y"} & set(given)) and \
            not set(_CHOOSING.get(name, ())) & set(given) and "ax" not in given and \
            not (name in _ONE_OF_XY and {"x", "y"} <= set(given)) and \
            _complete_row(frame, labels, [node.value for _, node in texts]):
        return _keyword_claim(n, name, target, text)
    return None


# heatmap's keywords whose effect depends on the data's shape or values (tick labels of a count,
# a mask, a format for the annotations): not asked of stand-in data
_HEATMAP_SHAPED = frozenset({"data", "ax", "cbar_ax", "mask", "xticklabels", "yticklabels", "fmt", "annot",
                             "annot_kws", "vmin", "vmax", "robust", "norm"})
_SCALARS = (str, int, float, bool, type(None))


def heatmap_claim(n: ast.Call, target, text, axes_plain=lambda node: False) -> ValueClaim | None:
    """`sns.heatmap(mat, cmap="blues")`, `sns.heatmap(mat, anot=True)`: a literal keyword seaborn's
    heatmap refuses whatever the data (a colormap name: KeyError; a keyword it hands to its
    QuadMesh that has no such property: AttributeError), asked of heatmap itself drawing a 2x2
    grid of numbers on an Axes of a Figure of its own (matplotlib_values.refused_on_new_axes).
    `axes_plain(node)`: is the Axes it draws on (`ax=`'s, or pyplot's current one for None)
    of matplotlib's `Axes` class itself, whose `pcolormesh` the probe's is?"""
    sns = sys.modules.get("seaborn")
    draw = POLICY.module_members(sns).get("heatmap") if sns is not None else None
    if draw is None or draw is not target or not POLICY.is_library(target) or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    if not axes_plain(next((k.value for k in n.keywords if k.arg == "ax"), None)):
        return None
    for kw in n.keywords:
        v = _literal(kw.value)
        if kw.arg in _HEATMAP_SHAPED or type(v) not in _SCALARS:
            continue
        refused = refused_on_new_axes(("heatmap", kw.arg, repr(v)),
                                      lambda ax, **k: draw([[0, 1], [1, 0]], ax=ax, **k), {kw.arg: v})
        if refused is None:
            continue
        exception, message = refused
        written = type(v) is str and text(kw.value) in (repr(v), f'"{v}"')
        meant = quoted_fixes(kw.value, v, message, text) if written else \
            _named_fixes(kw, target, text) if exception == "AttributeError" else []
        root = chain_root(n.func)       # the function read: the keyword's literal has no other name
        return ValueClaim(kw.value if exception != "AttributeError" else kw,
                          f"heatmap(): {message.splitlines()[0]}: {exception}", exception, meant,
                          subjects=(root,) if root is not None else None)
    return None


def _named_fixes(kw: ast.keyword, target, text) -> list[str]:
    """The keyword written again with heatmap's own parameter nearest its name."""
    sig = POLICY.signature(target)
    names = [p for p in sig.parameters if p not in ("kwargs", "data")] if sig is not None else []
    written = text(kw)
    return [m + written[len(kw.arg):] for m in difflib.get_close_matches(kw.arg, names, n=1, cutoff=0.75)] \
        if written is not None and written.startswith(kw.arg) else []


def _keyword_claim(n: ast.Call, name: str, target, text) -> ValueClaim | None:
    method, module, class_name = KEYWORDS[name]
    refused = refused_on_the_way(n, method, module, class_name, [target],
                                 (POLICY.module_of(target), *_SEABORN_ON_THE_WAY), text)
    if refused is None:
        return None
    kw, fixes = refused
    return ValueClaim(kw, f"{name}(): the {class_name} it draws has no property {kw.arg!r}: AttributeError",
                      "AttributeError", fixes)


def _complete_row(frame, labels: list, columns: list) -> bool:
    """Does a live DataFrame of pandas' own class (arrays of numpy's or pandas' own; `labels` its
    plain column labels) hold a row where each of `columns` has a value (seaborn drops the rows
    missing one: no row, no artist)?"""
    if frame_arrays(frame) is None or frame.shape[0] == 0 or not all(c in labels for c in columns):
        return False                    # (a variable naming an index level: not read)
    return bool(frame[list(dict.fromkeys(columns))].notna().all(axis=1).any())


def _index_names(frame) -> list | None:
    """The level names of a live DataFrame's index (None each where unnamed), when plain."""
    pd = sys.modules.get("pandas")
    if pd is None or type(frame) is not pd.DataFrame:
        return None
    index = frame.index
    if not POLICY.is_library(type(index)) or str(POLICY.class_module(type(index))).split(".")[0] != "pandas":
        return None                     # an index of the user's class may answer `names` otherwise
    names = list(index.names)
    return names if all(x is None or type(x) in (str, int, float) for x in names) else None
