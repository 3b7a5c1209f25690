"""pandas' own checks on what a lookup or a call is given, whatever the rows hold:

    tuple keys    `df["a", "b"]` on a frame whose columns have one level: the tuple is one label
                  no column has (KeyError); `grouped["a", "b"]` on a DataFrameGroupBy: pandas
                  refuses a tuple of columns (ValueError). The fix: a list, `df[["a", "b"]]`
    frequencies   `pd.date_range(..., freq="H")`, `s.resample("5T")`, `pd.Grouper(freq="M")`: the
                  alias is parsed by pandas' `to_offset` before any date is made (pandas 3 removed
                  "H", "T", "S", "A", "M" for offsets, ...); `pd.period_range` by its period rule
    time zones    `s.tz_convert("Europe/Paris")` of a live Series or DataFrame: asked of pandas'
                  own DatetimeIndex.tz_convert / tz_localize on an empty index of the same dtype
                  (tz-naive timestamps cannot be converted, aware ones not localized again, an
                  unknown zone is refused); an index that is no DatetimeIndex, non-empty, is
                  pandas' TypeError

    expressions   `df.query("age > 30 and pets = 0")`, `df.eval("bmi > threshold")`: asked of the same
                  method on the frame's first zero rows (its columns and dtypes): a name neither a
                  column nor the index (pandas reads the cell's variables only written `@name`:
                  UndefinedVariableError) or the expression's syntax (SyntaxError) fails whatever
                  the rows hold; an expression naming `@` variables is not asked

Only objects of pandas' own classes (their lookups and methods pandas' own), literals written in
the cell, and pandas' functions reached from its module: nothing of the user's runs.
"""
from __future__ import annotations

import ast
import re
import sys

from .claims import Live, Text, ValueClaim
from .items import plain_labels
from .libraries import own_function
from .namespace import UNRESOLVED, chain_root
from .read_policy import POLICY


def _pd():
    return sys.modules.get("pandas")


def _own(cls, name: str) -> bool:
    """Is the class's `name` pandas' own function (not one the user set on the class)?"""
    return own_function(POLICY.static(cls, name, None), "pandas")


# -- tuple keys ---------------------------------------------------------------------------------------

def tuple_key_claim(n: ast.Subscript, live: Live, text: Text) -> ValueClaim | None:
    """`df["a", "b"]`, `grouped["a", "b"]`: two or more names in one pair of brackets."""
    pd = _pd()
    key = n.slice
    if pd is None or not isinstance(n.ctx, ast.Load) or not isinstance(key, ast.Tuple) or len(key.elts) < 2 or \
            not all(isinstance(e, ast.Constant) and type(e.value) is str for e in key.elts):
        return None
    obj = live(n.value)
    names = tuple(e.value for e in key.elts)
    written = [text(n.value), *(text(e) for e in key.elts)]
    fixes = [f"{written[0]}[[{', '.join(written[1:])}]]"] if None not in written else []
    if type(obj) is pd.DataFrame and _own(pd.DataFrame, "__getitem__") and type(obj.columns) in (pd.Index, pd.RangeIndex):
        columns = obj.columns
        if len(columns) > 10_000 or not all(type(c) in (str, int, float, bool) for c in columns.tolist()):
            return None                     # a label of the user's might equal the tuple
        return ValueClaim(n, f"{ast.unparse(n)}: DataFrame has no column {names!r} (a tuple is one label; "
                             f"its columns have one level): KeyError", "KeyError", fixes)
    grouped = POLICY.static(sys.modules.get("pandas.core.groupby.generic"), "DataFrameGroupBy", None) \
        if sys.modules.get("pandas.core.groupby.generic") is not None else None
    if grouped is not None and type(obj) is grouped and _own(grouped, "__getitem__"):
        return ValueClaim(n, f"{ast.unparse(n)}: a DataFrameGroupBy takes several columns as a list, never a "
                             "tuple: ValueError (Cannot subset columns with a tuple with more than one element)",
                          "ValueError", fixes)
    return None


# -- frequencies --------------------------------------------------------------------------------------

# pandas' functions that parse `freq` as an offset (or, for period_range, as a period's) before
# anything else, and the positional place freq has in each
_FREQ_FUNCTIONS = {"date_range": 3, "bdate_range": 3, "timedelta_range": 3, "period_range": 3, "Grouper": None}
# methods of a Series or DataFrame that parse their first argument (or this keyword) as an offset
_FREQ_METHODS = {"resample": "rule", "asfreq": "freq"}


def frequency_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    pd = _pd()
    if pd is None:
        return None
    keywords = {k.arg: k.value for k in n.keywords}
    if None in keywords:
        return None
    period = None                           # None: a method of a live object (its names are the use's)
    if isinstance(n.func, ast.Attribute) and n.func.attr in _FREQ_METHODS:
        obj = live(n.func.value)
        if type(obj) not in (pd.Series, pd.DataFrame) or not _own(type(obj), n.func.attr):
            return None
        node = n.args[0] if n.args else keywords.get(_FREQ_METHODS[n.func.attr])
    else:
        name = next((f for f in _FREQ_FUNCTIONS if target is not UNRESOLVED and
                     POLICY.module_members(pd).get(f) is target), None)
        if name is None:
            return None
        at = _FREQ_FUNCTIONS[name]
        node = keywords.get("freq", n.args[at] if at is not None and len(n.args) > at else None)
        period = name == "period_range"
    if not (isinstance(node, ast.Constant) and type(node.value) is str):
        return None
    refused = _refused_frequency(node.value, bool(period))
    if refused is None:
        return None
    said, better = refused
    fixes = [repr(better)] if better else []
    # pandas' function reads nothing but the literal: its name is what the guard asks
    root = chain_root(n.func)
    return ValueClaim(node, f"{ast.unparse(n.func)}(): the frequency {node.value!r} is refused: ValueError "
                            f"({said})", "ValueError", fixes,
                      subjects=(root,) if period is not None and root is not None else None)


def _refused_frequency(alias: str, period: bool, depth: int = 0) -> tuple[str, str | None] | None:
    """pandas' reason for refusing the alias, and the alias it offers instead (the number written
    before it kept); None where pandas takes it, or says nothing plain."""
    frequencies = sys.modules.get("pandas.tseries.frequencies")
    to_offset = POLICY.static(frequencies, "to_offset", None) if frequencies is not None else None
    if to_offset is None or len(alias) > 40:
        return None
    try:
        to_offset(alias, is_period=period)
    except ValueError as e:
        text = str(e)
    except Exception:  # noqa: BLE001 - another failure: not claimed
        return None
    else:
        return None
    instead = re.search(r"Did you mean (\S+?)\?", text) or re.search(r"Please use '([^']+)' instead", text)
    reason = re.search(r"(Invalid frequency: [^.]+)\.", text)
    said = reason.group(1) if reason else "Invalid frequency"
    better = None
    if instead is not None:
        count = re.match(r"\s*[+-]?\d*", alias).group(0)
        better = count + instead.group(1)
        said += f"; pandas offers {better!r}"
        if better == alias or depth > 2 or _refused_frequency(better, period, depth + 1) is not None:
            better = None                   # ("A" offers "Y", which offsets no longer take)
    return said, better


# -- time zones ---------------------------------------------------------------------------------------

def timezone_claim(n: ast.Call, live: Live) -> ValueClaim | None:
    """`s.tz_convert(tz)`, `s.tz_localize(tz)` of a live Series or DataFrame along its index."""
    pd = _pd()
    if pd is None or not isinstance(n.func, ast.Attribute) or n.func.attr not in ("tz_convert", "tz_localize") or \
            len(n.args) != 1 or n.keywords or not isinstance(n.args[0], ast.Constant) or \
            type(n.args[0].value) is not str:
        return None
    obj = live(n.func.value)
    if type(obj) not in (pd.Series, pd.DataFrame) or not _own(type(obj), n.func.attr):
        return None
    index, tz = obj.index, n.args[0].value
    if type(index) is not pd.DatetimeIndex:
        if type(index) in (pd.Index, pd.RangeIndex) and len(index) > 0:
            return ValueClaim(n.func, f"{ast.unparse(n.func)}(): the index is no DatetimeIndex ({type(index).__name__}"
                                      f"): TypeError (Index is not a valid DatetimeIndex or PeriodIndex)",
                              "TypeError", callee=True)
        return None
    if not _own(pd.DatetimeIndex, n.func.attr):
        return None
    try:
        getattr(pd.DatetimeIndex([], dtype=index.dtype), n.func.attr)(tz)
    except (TypeError, ValueError, KeyError) as e:
        exception = type(e).__name__
        said = " ".join(str(e).split())[:160]
        return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {said}: {exception}", exception, callee=True)
    except Exception:  # noqa: BLE001 - another failure: not claimed
        return None
    return None


# -- expressions --------------------------------------------------------------------------------------

# keywords of query/eval read as written (literals); others (local_dict, resolvers, level) choose names
_EXPRESSION_KEYWORDS = frozenset({"inplace", "engine", "parser"})


def expression_claim(n: ast.Call, live: Live) -> ValueClaim | None:
    """`df.query(text)`, `df.eval(text)` of a live DataFrame whose expression names no column or
    does not parse, asked of pandas on `df.iloc[:0]` (no row is read, the user's frame is left)."""
    pd = _pd()
    if pd is None or not isinstance(n.func, ast.Attribute) or n.func.attr not in ("query", "eval") or \
            len(n.args) != 1 or not (isinstance(n.args[0], ast.Constant) and type(n.args[0].value) is str) or \
            "@" in n.args[0].value or len(n.args[0].value) > 2000 or \
            any(k.arg not in _EXPRESSION_KEYWORDS for k in n.keywords):
        return None
    try:
        options = {k.arg: ast.literal_eval(k.value) for k in n.keywords}
    except ValueError:
        return None
    frame = live(n.func.value)
    if type(frame) is not pd.DataFrame or not _own(pd.DataFrame, n.func.attr) or \
            not plain_labels(frame.columns, pd) or not all(_pandas_dtype(d) for d in frame.dtypes):
        return None
    try:
        getattr(frame.iloc[:0], n.func.attr)(n.args[0].value, **options)
    except (NameError, SyntaxError) as e:
        exception = type(e).__name__
        said = " ".join(str(e).split())[:160]
        return ValueClaim(n.args[0], f"{ast.unparse(n.func)}(): {said}: {exception}", exception)
    except Exception:  # noqa: BLE001 - another failure may depend on the rows: not claimed
        return None
    return None


def _pandas_dtype(dtype) -> bool:
    """numpy's dtype or one of pandas' own (a dtype of the user's runs their code on any copy)."""
    return type(dtype).__module__.split(".")[0] in ("numpy", "pandas")


# -- writers ------------------------------------------------------------------------------------------

# pandas' writers that check the file's folder exists before they write (io.common.get_handle's
# check_parent_directory), and the name of their path parameter
_WRITERS = {"to_csv": "path_or_buf", "to_json": "path_or_buf", "to_html": "buf", "to_pickle": "path",
            "to_latex": "buf", "to_string": "buf"}


def writer_claim(n: ast.Call, live: Live) -> ValueClaim | None:
    """`df.to_csv("out/df.csv")` of a live DataFrame or Series into a folder that does not exist
    (read from this process's working directory, the kernel's): pandas' OSError before it writes.
    The caller checks that nothing the cell runs before may make the folder or change directory."""
    import os
    pd = _pd()
    if pd is None or not isinstance(n.func, ast.Attribute) or n.func.attr not in _WRITERS or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    path = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == _WRITERS[n.func.attr]), None)
    if not (isinstance(path, ast.Constant) and type(path.value) is str) or "://" in path.value or \
            path.value.startswith("~") or "\0" in path.value:
        return None
    obj = live(n.func.value)
    if type(obj) not in (pd.Series, pd.DataFrame) or not _own(type(obj), n.func.attr):
        return None
    folder = os.path.dirname(path.value)
    if not folder or os.path.isdir(folder):
        return None
    return ValueClaim(path, f"{ast.unparse(n.func)}(): Cannot save file into a non-existent directory: {folder!r} "
                            f"(from {os.getcwd()!r}): OSError", "OSError")
