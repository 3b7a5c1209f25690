"""The column names a DataFrame method call is given: `df.sort_values("pirce")`,
`df.groupby(by="regoin")` (a list too, unless as long as the frame), `df.drop(columns=["nmae"])`,
`df.dropna(subset=["age"])`, `a.join(b, on="k")`, `df.astype({"pirce": float})`, and the
keys of `df.groupby(...).agg({"col": ...})` / `.agg(out=("col", "sum"))`, `pd.merge(a, b,
on="k")` / `a.merge(b, left_on=..., right_on=...)` (each side; not a side joined on its index),
`df.pivot(index=..., columns=..., values=...)`, `df.pivot_table(...)`, `df.melt(id_vars, value_vars)`
and `pd.melt(df, ...)`, the labels a plot reads (`df.plot(x=..., y=...)`, `df.plot.scatter("a", "b")`,
`df.hist(column=...)`, `df.boxplot(column=...)`). A name the DataFrame lacks is a KeyError there (each method
is held against the installed pandas by tests/test_kernel_facts.py and tests/test_frame_facts.py).

`column_uses(call)` answers, for each DataFrame the call reads, the string literals that must be
its columns (or, where pandas also takes them, index level names), and whether index level names
count; nothing where the call names none for sure (another axis, `errors="ignore"`, a `level=`,
not a literal).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

# method: (position of the argument, its keyword, index level names count too, a list is labels)
_TAKES = {
    "sort_values": (0, "by", True, True),
    "groupby": (0, "by", True, "rows"),     # a list as long as the frame is group keys, not labels
    "set_index": (0, "keys", False, True),
    "dropna": (None, "subset", False, True),
    "drop_duplicates": (0, "subset", False, True),
    "duplicated": (0, "subset", False, True),
    "nlargest": (1, "columns", False, True),
    "nsmallest": (1, "columns", False, True),
    "explode": (0, "column", False, True),
    "value_counts": (0, "subset", True, False),   # it groups: as groupby
    "pop": (0, "item", False, False),
    "join": (1, "on", True, True),
    "hist": (0, "column", False, True),
    "boxplot": (0, "column", False, True),
}
# DataFrame.plot's kinds (`df.plot(kind=...)`, `df.plot.<kind>(...)`) and the labels pandas reads
# with `data[...]` before it draws: x and y of a plane (scatter, hexbin), y of a pie, x then y of
# the others (its PlotAccessor.__call__; x and y are also the first two positional arguments)
_PLANE_KINDS = frozenset({"scatter", "hexbin"})
_PLOT_KINDS = frozenset({"line", "bar", "barh", "hist", "box", "kde", "density", "area", "pie", *_PLANE_KINDS})
_XY_KINDS = frozenset({"line", "bar", "barh", "area", *_PLANE_KINDS})
# pandas' functions that take the frame first: their column parameters after it, by position
# (pivot's are keyword-only), and whether index level names count
_FUNCTIONS = {"merge": None,
              "pivot": ((None, "index"), (None, "columns"), (None, "values"), False),
              "pivot_table": ((1, "values"), (2, "index"), (3, "columns"), True),
              "melt": ((1, "id_vars"), (2, "value_vars"), False)}


# DataFrame methods whose result is a DataFrame holding some of the frame's columns and no other
# (rows selected, sorted or filled; columns dropped or selected; values converted): a column
# the frame lacks, the result lacks too
SUBSET_METHODS = frozenset({"head", "tail", "sample", "sort_values", "sort_index", "dropna", "drop_duplicates",
                            "drop", "copy", "fillna", "ffill", "bfill", "query", "nlargest", "nsmallest",
                            "filter", "select_dtypes", "replace", "astype", "round", "isna", "notna", "isnull",
                            "notnull", "where", "mask"})


@dataclass
class ColumnUse:
    """String literals that must be columns of the DataFrame `frame` stands for."""
    frame: ast.expr
    keys: list[ast.Constant]
    index_names: bool            # an index level name of that name does too
    what: str                    # the use, for the message: "to drop", "for merge() (right)"
    function: str | None = None  # pandas' own function the callee must be (`pd.merge`); None: a method
    receiver: ast.expr | None = None    # a method's receiver that must be a DataFrame too (`a` of `a.merge(b)`)
    moved: frozenset = frozenset()      # labels pandas has moved into the index before it reads these keys
    unless_rows: int | None = None      # a list of this many keys: labels only where the frame has another
                                        # number of rows (-1: a list of keys not known how long: never sure)


def column_uses(n: ast.Call) -> list[ColumnUse]:
    func = n.func
    if not isinstance(func, ast.Attribute):
        return []
    kw = {k.arg: k.value for k in n.keywords}
    if func.attr in ("agg", "aggregate"):
        return _aggregated(n, kw)
    if func.attr == "merge":
        return _merged(n, kw)
    if func.attr in ("pivot", "pivot_table", "melt"):
        return _pivoted(n, kw)
    if func.attr == "plot" or func.attr in _PLOT_KINDS and isinstance(func.value, ast.Attribute) and \
            func.value.attr == "plot":
        return _plotted(n, kw)
    if func.attr == "astype" and len(n.args) == 1 and isinstance(n.args[0], ast.Dict) and not kw:
        keys = [k for k in n.args[0].keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        return [ColumnUse(func.value, keys, False, "for astype()")] if keys else []
    named = column_literals(n)
    if named is None:
        return []
    what = "to drop" if func.attr == "drop" else f"for {func.attr}()"
    given = _given(n, kw) if func.attr in _TAKES else None
    rows = len(given.elts) if isinstance(given, (ast.List, ast.Tuple)) and _TAKES[func.attr][3] == "rows" else None
    return [ColumnUse(func.value, named[0], named[1], what, unless_rows=rows)]


def _aggregated(n: ast.Call, kw: dict) -> list[ColumnUse]:
    """`df.groupby(...).agg({"col": "sum"})`, `.agg(total=("col", "sum"))`, `df.agg({"col": ...})`:
    the columns aggregated (never index levels). A selection (`df.groupby(k)[["a"]]`) is not read."""
    owner = n.func.value
    grouped = isinstance(owner, ast.Call) and isinstance(owner.func, ast.Attribute) and \
        owner.func.attr == "groupby" and "axis" not in {k.arg for k in owner.keywords}
    if "axis" in kw:
        return []
    keys = []
    if len(n.args) == 1 and isinstance(n.args[0], ast.Dict) and not n.keywords:
        keys = [k for k in n.args[0].keys if k is not None]
    elif grouped and not n.args and n.keywords:
        keys = [v.elts[0] for v in kw.values() if isinstance(v, ast.Tuple) and len(v.elts) == 2]
    keys = [k for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    if not keys:
        return []
    return [ColumnUse(owner.func.value if grouped else owner, keys, False, f"for {n.func.attr}()")]


def _merged(n: ast.Call, kw: dict) -> list[ColumnUse]:
    """`left.merge(right, on=...)`, `pd.merge(left, right, left_on=..., right_on=...)`: `on` names
    a column (or index level) of both, `left_on` of the left, `right_on` of the right. Both
    readings are given; facts.py keeps the one the callee is."""
    indexed = {side for side in ("left", "right") if f"{side}_index" in kw}
    if indexed and ("on" in kw or any(not (isinstance(kw[f"{s}_index"], ast.Constant) and
                                           kw[f"{s}_index"].value is True) for s in indexed)):
        return []
    args = n.args
    readings = ((None, n.func.value, args[0] if args else kw.get("right")),
                ("merge", args[0] if args else kw.get("left"), args[1] if len(args) > 1 else kw.get("right")))
    uses = []
    for function, left, right in readings:
        for side, frame in (("left", left), ("right", right)):
            if side in indexed:
                continue                    # joined on its index: `{side}_on` names the other's columns
            keys = _literals(kw.get("on"), True) + _literals(kw.get(f"{side}_on"), True)
            if keys and frame is not None:
                uses.append(ColumnUse(frame, keys, True, f"for merge() ({side})", function,
                                      None if function else n.func.value))
    return uses


def _pivoted(n: ast.Call, kw: dict) -> list[ColumnUse]:
    """`df.pivot(index=, columns=, values=)` (columns only), `df.pivot_table(values, index,
    columns)` (index level names count), and pandas' functions of the same names (the frame
    first): both readings, as for merge."""
    method = n.func.attr
    *params, index_names = _FUNCTIONS[method]
    uses = []
    for function, frame, shift in ((None, n.func.value, 1), (method, n.args[0] if n.args else kw.get("data"), 0)):
        given = {}
        for at, name in params:
            named = kw.get(name)
            if named is None and at is not None and 0 <= at - shift < len(n.args):
                named = n.args[at - shift]
            given[name] = named
        if frame is None:
            continue
        # pivot_table groups by its index and columns as one list: as groupby's, a list as long
        # as the frame is group keys, not labels
        grouped = ("index", "columns") if method == "pivot_table" else ()
        counts = [_count(given.get(p)) for p in grouped]
        for names, rows in (([p for _, p in params if p not in grouped], None),
                            (list(grouped), -1 if None in counts else sum(counts))):
            keys = [k for p in names for k in _literals(given.get(p), True)]
            if keys:
                uses.append(ColumnUse(frame, keys, index_names, f"for {method}()", function,
                                      None if function else n.func.value, unless_rows=rows))
    return uses


def _plotted(n: ast.Call, kw: dict) -> list[ColumnUse]:
    """`df.plot(x="a", y=["b", "c"])`, `df.plot.scatter("a", "b")`: the labels pandas looks up
    among the columns before drawing (a KeyError when one is missing; never an index level)."""
    func = n.func
    accessor = func.attr != "plot"
    frame = func.value.value if accessor else func.value
    kind = func.attr if accessor else kw.get("kind", ast.Constant("line"))
    kind = kind if type(kind) is str else kind.value if isinstance(kind, ast.Constant) else None
    # the positional arguments: x and y of plot() and of the accessor's x-y kinds, y of its pie
    positional = ("x", "y") if not accessor or kind in _XY_KINDS else ("y",) if kind == "pie" else ()
    if kind not in _PLOT_KINDS or len(n.args) > len(positional):
        return []
    given = {name: kw.get(name) for name in ("x", "y")} | dict(zip(positional, n.args))
    read = ("y",) if kind == "pie" else ("x", "y")
    keys = [k for name in read for k in _literals(given[name], name == "y")]
    # but for a plane's, x becomes the index before y is read: y == x is missing then
    moved = frozenset(k.value for k in _literals(given["x"], False)) if kind not in (*_PLANE_KINDS, "pie") \
        else frozenset()
    ys = [k for k in _literals(given["y"], True) if k.value in moved]
    uses = [ColumnUse(frame, keys, False, f"for plot({kind!r})", receiver=frame)] if keys else []
    return uses + ([ColumnUse(frame, ys, False, f"for plot({kind!r})", receiver=frame, moved=moved)] if ys else [])


def _count(node: ast.expr | None) -> int | None:
    """How many keys pandas makes of a key argument: none, one, a list's length; None if unknown."""
    if node is None:
        return 0
    if isinstance(node, (ast.List, ast.Tuple)):
        return None if any(isinstance(e, ast.Starred) for e in node.elts) else len(node.elts)
    return 1 if isinstance(node, ast.Constant) else None


def subset_source(frame: ast.expr) -> ast.expr:
    """The expression whose columns hold every column `frame` can have: `df` for
    `df.dropna().head()` or `df.groupby("k").get_group("g")` (a group's rows, every column of the
    frame), and `frame` itself when it is no such chain. The caller checks that `df` is a DataFrame."""
    while isinstance(frame, ast.Call) and isinstance(frame.func, ast.Attribute) and \
            not any(isinstance(a, ast.Starred) for a in frame.args) and \
            all(k.arg is not None and (k.arg != "inplace" or isinstance(k.value, ast.Constant) and
                                       k.value.value is False) for k in frame.keywords):
        owner, method = frame.func.value, frame.func.attr
        if method == "get_group" and isinstance(owner, ast.Call) and isinstance(owner.func, ast.Attribute) and \
                owner.func.attr == "groupby" and all(k.arg not in ("axis", "level") for k in owner.keywords):
            frame = owner.func.value
        elif method in SUBSET_METHODS:
            frame = owner
        else:
            break
    return frame


def column_literals(n: ast.Call) -> tuple[list[ast.Constant], bool] | None:
    func = n.func
    if not isinstance(func, ast.Attribute):
        return None
    kw = {k.arg: k.value for k in n.keywords}
    if func.attr == "drop":
        return _dropped(n, kw)
    if func.attr not in _TAKES or "axis" in kw or "level" in kw:
        return None
    keys = _literals(_given(n, kw), bool(_TAKES[func.attr][3]))
    return (keys, _TAKES[func.attr][2]) if keys else None


def _given(n: ast.Call, kw: dict) -> ast.expr | None:
    """The argument a method of _TAKES names its columns with."""
    at, name, _, _ = _TAKES[n.func.attr]
    named = kw.get(name)
    if named is None and at is not None and len(n.args) > at:
        named = n.args[at]
    return named



def _dropped(n: ast.Call, kw: dict) -> tuple[list[ast.Constant], bool] | None:
    """`df.drop(columns="a")`, `df.drop(["a"], axis=1)` (unless errors="ignore")."""
    if isinstance(kw.get("errors"), ast.Constant) and kw["errors"].value == "ignore":
        return None
    if "columns" in kw:
        named = kw["columns"]
    elif n.args and isinstance(kw.get("axis"), ast.Constant) and kw["axis"].value in (1, "columns"):
        named = n.args[0]
    else:
        return None
    keys = _literals(named, True)
    return (keys, False) if keys else None


def _literals(node, lists: bool) -> list[ast.Constant]:
    if node is None:
        return []
    if isinstance(node, ast.Constant):
        keys = [node]
    elif lists and isinstance(node, (ast.List, ast.Tuple)):
        keys = list(node.elts)
    else:
        return []
    return [k for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
