"""pandas' plotting keywords. `df.plot(...)`, `s.plot(kind=...)`, `df.plot.bar(...)` and
`df.hist(...)` draw with matplotlib (pandas' default plotting backend): the keywords pandas does
not take itself go on to the Axes method of the plot's kind and to the artist it makes, which
sets each through its `set_<name>` and raises AttributeError where there is none
("Line2D.set() got an unexpected keyword argument 'colr'").

    df.plot(kind="bar", colr="r")            the bars: Rectangle
    df["age"].plot(kind="hist", titel="x")   Rectangle

pandas takes its own keywords as its plot classes' parameters or out by name in its plotting
modules: a keyword that is a parameter name or a quoted word anywhere in them is taken as
pandas' (their sources are read, not imported: matplotlib_properties.refused_keyword).
The data: a live Series or DataFrame of pandas' own classes holding a row at least and numbers
to plot (a plot of none raises TypeError first); the kinds whose artists are made for any such
data alone (a density needs two distinct values, a pie positive ones: not read). No `ax` (the
Axes is a new one of matplotlib's class, or pyplot's current one: `axes_kept`), the kind a
literal, and pandas' plotting backend matplotlib.
"""
from __future__ import annotations

import ast
import sys
import types

from .matplotlib_properties import refused_on_the_way
from .read_policy import POLICY
from .values import Live, ValueClaim

# a plot's kind -> (the Axes method pandas draws it with, the module and class of its artist)
KINDS = {"line": ("plot", "matplotlib.lines", "Line2D"), "bar": ("bar", "matplotlib.patches", "Rectangle"),
         "barh": ("barh", "matplotlib.patches", "Rectangle"), "hist": ("hist", "matplotlib.patches", "Rectangle"),
         "area": ("plot", "matplotlib.lines", "Line2D")}
# keywords that name columns: a name pandas lacks, or one of text, raises first
_COLUMNS_NAMED = frozenset({"x", "y", "xerr", "yerr", "column", "by", "weights"})
# pandas' plotting modules: where its code reads its own keywords out by name
_PANDAS_ON_THE_WAY = ("pandas.plotting._core", "pandas.plotting._matplotlib.core", "pandas.plotting._matplotlib.hist",
                      "pandas.plotting._matplotlib.style", "pandas.plotting._matplotlib.tools",
                      "pandas.plotting._matplotlib.timeseries", "pandas.plotting._matplotlib.misc",
                      "pandas.plotting._matplotlib.converter", "pandas.plotting._matplotlib.groupby")


def plot_keyword_claim(n: ast.Call, live: Live, text, axes_kept: bool) -> ValueClaim | None:
    """The first keyword of a pandas plot call that its artist refuses."""
    pd = sys.modules.get("pandas")
    func = n.func
    if pd is None or not axes_kept or not isinstance(func, ast.Attribute) or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    keywords = {k.arg: k.value for k in n.keywords}
    if func.attr == "plot":                                  # `df.plot(kind="bar", ...)`
        receiver, kind = func.value, _literal_text(keywords.get("kind"), "line")
        if n.args:
            return None                                      # data or kind given by position: not read
    elif func.attr == "hist":                                # `df.hist(...)`
        receiver, kind = func.value, "hist"
    elif isinstance(func.value, ast.Attribute) and func.value.attr == "plot":     # `df.plot.bar(...)`
        receiver, kind = func.value.value, func.attr
        if n.args or "kind" in keywords:
            return None
    else:
        return None
    if kind not in KINDS or "ax" in keywords or "backend" in keywords or _COLUMNS_NAMED & keywords.keys() or \
            not all(isinstance(keywords[k], ast.Constant) and type(keywords[k].value) is bool
                    for k in ("subplots", "stacked") if k in keywords):
        return None                     # columns named (or a layout of them): pandas looks them up first
    data = live(receiver)
    counted = _counted(receiver, live, pd)      # `s.value_counts().plot(...)`: a Series of counts
    kind_of = pd.Series if counted else type(data)
    if not (counted or _plottable(data, pd)) or not _matplotlib_backend(pd) or \
            not _pandas_own(kind_of, func.attr if func.attr in ("plot", "hist") else "plot"):
        return None
    if func.attr == "hist" and "layout" in keywords:
        return None
    method, module, class_name = KINDS[kind]
    refused = refused_on_the_way(n, method, module, class_name, [], _PANDAS_ON_THE_WAY, text)
    if refused is None:
        return None
    kw, fixes = refused
    return ValueClaim(kw, f"{ast.unparse(func)}(): the {class_name} pandas draws has no property {kw.arg!r}: "
                          "AttributeError", "AttributeError", fixes)


def _counted(receiver: ast.expr, live: Live, pd) -> bool:
    """`s.value_counts()` of a live Series of pandas' own class holding a value at least (counted
    when not missing, unless `dropna=False`): a Series of counts, a row each value."""
    if not (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute) and
            receiver.func.attr == "value_counts" and not receiver.args and
            all(k.arg in ("normalize", "sort", "ascending", "dropna") and isinstance(k.value, ast.Constant) and
                type(k.value.value) is bool for k in receiver.keywords)):
        return False
    base = live(receiver.func.value)
    if type(base) is not pd.Series or frame_arrays(base) is None or not _pandas_own(pd.Series, "value_counts"):
        return False
    keep_missing = any(k.arg == "dropna" and k.value.value is False for k in receiver.keywords)
    return base.shape[0] > 0 and (keep_missing or int(base.count()) > 0)


def frame_arrays(data) -> list | None:
    """The arrays a live Series or DataFrame of pandas' own class holds, read from its manager's
    blocks (no dtype or length of an array of the user's class is asked: its code could run),
    when each is numpy's ndarray or an array of pandas' own; else None."""
    np = sys.modules.get("numpy")
    manager = POLICY.own_dict(data).get("_mgr")
    if np is None or manager is None or str(POLICY.class_module(type(manager))).split(".")[0] != "pandas":
        return None
    blocks = manager.blocks
    if type(blocks) is not tuple:
        return None
    arrays = [b.values for b in blocks]
    return arrays if all(type(a) is np.ndarray or str(POLICY.class_module(type(a))).split(".")[0] == "pandas"
                         for a in arrays) else None


def _numbers(array) -> bool:
    np = sys.modules.get("numpy")
    return type(array) is np.ndarray and array.dtype.kind in "iuf" and array.size > 0


def _literal_text(node: ast.expr | None, default: str) -> str | None:
    if node is None:
        return default
    return node.value if isinstance(node, ast.Constant) and type(node.value) is str else None


def _plottable(data, pd) -> bool:
    """A live Series of numbers, or DataFrame with a column of numbers, of a row at least (pandas
    plots numeric columns; booleans and text alone leave nothing to plot: TypeError)."""
    if type(data) not in (pd.Series, pd.DataFrame):
        return False
    arrays = frame_arrays(data)
    return arrays is not None and any(_numbers(a) for a in arrays)


def _pandas_own(cls: type, name: str) -> bool:
    """Is `cls.<name>` pandas' own plotting (its accessor, its hist function), as pandas set it?"""
    member = POLICY.static(cls, name, None)
    if member is None:
        return False
    owner = POLICY.module_of(member) if type(member) is types.FunctionType else POLICY.class_module(type(member))
    return str(owner).split(".")[0] == "pandas"


def _matplotlib_backend(pd) -> bool:
    try:
        return pd.get_option("plotting.backend") == "matplotlib"
    except Exception:  # noqa: BLE001 - an option pandas lacks: not read
        return False
