"""pandas' shape rules on what a DataFrame is made of, checked before any value is stored:

    a column   `df["pred"] = model.predict(X_train)`: an array or a list of another length than
               the frame's rows (ValueError: Length of values does not match length of index);
               not a Series or a frame (pandas aligns those on their labels), nor a frame with
               no rows (pandas then takes the values' length for its index)
    a frame    `pd.DataFrame(X_scaled, columns=df.columns, index=idx)`: an ndarray of (n, k)
               given k' != k columns or n' != n row labels (ValueError: Shape of passed values
               is (n, k), indices imply (n', k'))
    bins       `pd.cut(s, bins=[0, 1.5, 3, np.inf], labels=[1, 2])`, `pd.qcut(s, 4, labels=[...])`:
               labels not one fewer than the bin edges (ValueError: Bin labels must be one fewer
               than the number of bin edges), judged by pandas' own cut on the first rows of a
               live 1-D array or Series of numbers with the call's literal bins, labels and options

The frame is live (pandas' own class) or made by the cell, its rows known; the values an
ndarray, a list or an estimator's predictions, live, written or made by the cell (abstract.py);
the labels a literal list of single labels, or a live list or tuple of them, a range or a
pandas Index (a list of lists gives a MultiIndex's levels, not labels).
"""
from __future__ import annotations

import ast
import sys
import warnings

from .abstract_value import Abstract, _literal, _nested, array_like, shaped
from .namespace import UNRESOLVED, chain_root
from .read_policy import POLICY
from .values import Live, ValueClaim

# the keywords pd.DataFrame takes besides its data and labels, none of which is read before them
_FRAME_OPTIONS = frozenset({"dtype", "copy"})
# labels counted one by one in a live list (a list of lists or arrays is a MultiIndex's levels)
_LABELS = (str, int, float, bool, tuple)


def column_assignment_claim(s: ast.Assign, value: Live) -> ValueClaim | None:
    """`df["c"] = values` of another length than the frame's rows."""
    pd = sys.modules.get("pandas")
    if pd is None or len(s.targets) != 1 or not isinstance(s.targets[0], ast.Subscript) or \
            not (isinstance(s.targets[0].slice, ast.Constant) and type(s.targets[0].slice.value) in (str, int)):
        return None
    target = s.targets[0]
    try:
        frame = value(target.value)
        rows = _rows(frame, pd)
        given = _length(s.value, value)
    except Exception:  # noqa: BLE001 - read otherwise: no claim
        return None
    if not rows or given is None or given == rows:
        return None
    return ValueClaim(s.value, f"{ast.unparse(target)} = {_short(s.value)}: {given} values for {rows} rows: "
                               f"ValueError (Length of values ({given}) does not match length of index ({rows}))",
                      "ValueError")


def frame_claim(n: ast.Call, target, value: Live) -> ValueClaim | None:
    """`pd.DataFrame(array, columns=..., index=...)` whose labels' counts differ from its shape."""
    pd = sys.modules.get("pandas")
    if pd is None or target is not pd.DataFrame or any(isinstance(a, ast.Starred) for a in n.args) or \
            any(k.arg is None for k in n.keywords) or len(n.args) > 3:
        return None
    given = dict(zip(("data", "index", "columns"), n.args)) | {k.arg: k.value for k in n.keywords}
    if "data" not in given or set(given) - {"data", "index", "columns"} - _FRAME_OPTIONS or \
            len(given) != len(n.args) + len(n.keywords):
        return None
    if isinstance(given["data"], ast.Dict):
        return _dict_frame_claim(n, given, value, pd)
    try:
        data = value(given["data"])
        a = shaped(data) if issubclass(type(data), Abstract) or type(data) is sys.modules["numpy"].ndarray else None
        if a is None or a.like != "ndarray" or a.ndim not in (1, 2) or a.kind in (None, "V") or None in a.shape:
            return None
        n_rows, n_columns = a.shape[0], a.shape[1] if a.ndim == 2 else 1
        index = _labels(given.get("index"), value, pd)
        columns = _labels(given.get("columns"), value, pd)
    except Exception:  # noqa: BLE001 - read otherwise: no claim
        return None
    implied = (n_rows if index is None else index, n_columns if columns is None else columns)
    if implied == (n_rows, n_columns):
        return None
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {_short(given['data'])} has shape ({n_rows}, {n_columns}), "
                              f"the labels given imply {implied}: ValueError (Shape of passed values is "
                              f"({n_rows}, {n_columns}), indices imply ({implied[0]}, {implied[1]}))",
                      "ValueError", callee=True)


def _dict_frame_claim(n: ast.Call, given: dict, value: Live, pd) -> ValueClaim | None:
    """`pd.DataFrame({"a": [1, 2, 3], "b": [...]}, index=["x", "y"])`: columns written as lists, each
    as long as its items: of different lengths, or another length than the index written, pandas'
    ValueError (a scalar column takes the index's length)."""
    data = given["data"]
    if None in data.keys or not all(isinstance(k, ast.Constant) for k in data.keys) or "columns" in given or \
            len({k.value for k in data.keys}) != len(data.keys):
        return None                     # (`**other`: columns not known; columns= keeps only its own; a key
        #                                 written twice keeps its last value)
    lists = [v for v in data.values if isinstance(v, ast.List)]
    if any(isinstance(e, ast.Starred) for v in lists for e in v.elts) or not lists or \
            any(not isinstance(v, ast.List) and not _scalar_literal(v) for v in data.values):
        return None                     # a length not known, or a column of another kind (an array, a Series)
    lengths = {len(v.elts) for v in lists}
    index = _labels(given.get("index"), value, pd)
    if len(lengths) > 1:
        said = "All arrays must be of the same length"
    elif index is not None and index != next(iter(lengths)):
        said = f"Length of values ({next(iter(lengths))}) does not match length of index ({index})"
    else:
        return None
    root = chain_root(n.func)               # pandas' constructor reads nothing but what the cell wrote
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): the columns written have {sorted(lengths)} values"
                              + (f", the index {index}" if index is not None else "") + f": ValueError ({said})",
                      "ValueError", callee=True, subjects=(root,) if root and (
                          given.get("index") is None or isinstance(given["index"], ast.List)) else None)


def _scalar_literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float, str, bool)


# what pd.cut and pd.qcut take besides the data, bins and labels, read as literals; duplicates="drop"
# makes the edges' count the data's, so it is left out
_CUT_OPTIONS = {"cut": frozenset({"right", "retbins", "precision", "include_lowest", "ordered"}),
                "qcut": frozenset({"retbins", "precision"})}
_CUT_ROWS = 1000
_LABELS_COUNT = "Bin labels must be one fewer than the number of bin edges"


def cut_claim(n: ast.Call, target, value: Live) -> ValueClaim | None:
    """`pd.cut(x, bins, labels=[...])` / `pd.qcut(x, q, labels=[...])` whose labels are not one
    fewer than the bin edges: pandas' own call on x's first rows says so. The edges' count does
    not depend on the rows (literal edges, or a count of bins or quantiles, duplicates refused)."""
    pd, np = sys.modules.get("pandas"), sys.modules.get("numpy")
    if pd is None or np is None or any(isinstance(a, ast.Starred) for a in n.args) or \
            any(k.arg is None for k in n.keywords):
        return None
    name = next((c for c in ("cut", "qcut") if target is POLICY.static(pd, c, None)), None)
    if name is None:
        return None
    positional = ("x", "bins", "right", "labels") if name == "cut" else ("x", "q", "labels")
    given = dict(zip(positional, n.args)) | {k.arg: k.value for k in n.keywords}
    edges = "bins" if name == "cut" else "q"
    if len(given) != len(n.args) + len(n.keywords) or not {"x", edges, "labels"} <= set(given) or \
            set(given) - {"x", edges, "labels"} - _CUT_OPTIONS[name]:
        return None
    literals = {k: _literal(v) for k, v in given.items() if k not in ("x", edges)} | {edges: _edges(given[edges], value)}
    labels = literals["labels"]
    if any(v is UNRESOLVED for v in literals.values()) or type(labels) not in (list, tuple) or \
            not all(type(v) in (str, int, float, bool) for v in labels):
        return None
    x = value(given["x"])
    if type(x) is pd.Series and not x.attrs and type(x.dtype).__module__.split(".")[0] == "numpy":
        head = x.iloc[:_CUT_ROWS]
    elif type(x) is np.ndarray and x.ndim == 1:
        head = x[:_CUT_ROWS]
    else:
        return None
    if head.dtype.kind not in "iuf" or len(head) == 0:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(pd, name)(head, **literals)
    except ValueError as e:
        if not str(e).startswith(_LABELS_COUNT):
            return None
        return ValueClaim(given["labels"], f"pd.{name}(): {len(labels)} labels for these bins: ValueError "
                                           f"({_LABELS_COUNT})", "ValueError")
    except Exception:  # noqa: BLE001 - another failure: not this rule's
        return None
    return None


def _edges(node: ast.expr, value: Live):
    """Bins or quantiles written in the call: a number, or a list or tuple of numbers written or
    read live one by one (`np.inf`); else UNRESOLVED."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        v = _literal(node)
        return v if type(v) in (int, float) else UNRESOLVED
    out = []
    for e in node.elts:
        v = _literal(e)
        v = value(e) if v is UNRESOLVED and not isinstance(e, ast.Starred) else v
        if type(v) not in (int, float):
            return UNRESOLVED
        out.append(v)
    return out


def _rows(frame, pd) -> int | None:
    """The rows of a live DataFrame of pandas' own class with one column of each name (a list set on a
    name two columns have fills them both, one value a column), or of one the cell makes."""
    if type(frame) is pd.DataFrame:
        return len(frame.index) if frame.columns.is_unique else None
    a = shaped(frame) if issubclass(type(frame), Abstract) else None
    return a.shape[0] if a is not None and a.like == "DataFrame" and type(a.shape[0]) is int else None


def _length(node: ast.expr, value: Live) -> int | None:
    """How many values an array, a list or an estimator's predictions holds (not a Series or a
    frame: pandas aligns those); None when not known."""
    if isinstance(node, ast.List) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return len(node.elts)                       # a list written out: one value per item, whatever they are
    a = array_like(node, value)
    if a is None and type(v := value(node)) in (list, tuple):
        nested = _nested(v, text=True)              # a live list: the array numpy makes of it
        a = Abstract("ndarray", *nested) if nested is not None else None
    if a is None or a.like not in ("ndarray", "predictions") or not a.shape or type(a.shape[0]) is not int:
        return None
    return a.shape[0]


def _labels(node: ast.expr | None, value: Live, pd) -> int | None:
    """How many labels `index=` or `columns=` gives: a literal list or tuple, or a live list,
    tuple, range or pandas Index; None when not given or not known."""
    if node is None:
        return None
    if isinstance(node, (ast.List, ast.Tuple)):
        # labels written one by one; a list of lists is a MultiIndex's arrays, one per level
        return len(node.elts) if all(isinstance(e, ast.Constant) for e in node.elts) else None
    v = value(node)
    if type(v) in (list, tuple) and all(type(x) in _LABELS for x in v) or type(v) is range or \
            type(v) in (pd.Index, pd.RangeIndex):
        return len(v)
    return None


def _short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."
