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
from .values import _numpy_object


def _pd():
    return sys.modules.get("pandas")


def _own(cls, name: str) -> bool:
    """Is the class's `name` pandas' own function, or a property whose getter is (not one the user
    set on the class)?"""
    member = POLICY.static(cls, name, None)
    if type(member) is property:
        member = POLICY.property_getter(member)
    return own_function(member, "pandas")


def _probed(*classes) -> bool:
    """May pandas' code run on objects of these classes with no code of the user's: every function
    they and their bases hold is pandas' own (a method patched anywhere in them runs in the probe)."""
    from .libraries import own_classes
    return all(own_classes(c, "pandas") for c in classes)


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
    method_period = False
    if isinstance(n.func, ast.Attribute) and n.func.attr in _FREQ_METHODS:
        obj = live(n.func.value)
        if type(obj) not in (pd.Series, pd.DataFrame) or not _own(type(obj), n.func.attr) or \
                type(obj.index) not in (pd.DatetimeIndex, pd.PeriodIndex) or not len(obj.index):
            return None                     # (another index: pandas' TypeError first)
        method_period = type(obj.index) is pd.PeriodIndex      # a period's frequency rule
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
    refused = _refused_frequency(node.value, bool(period) or method_period)
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
    # pandas' own compiled function (a function of Python's there is one the user set)
    if to_offset is None or len(alias) > 40 or type(to_offset).__name__ != "cython_function_or_method" or \
            not str(getattr(to_offset, "__module__", "")).startswith("pandas."):
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
    if type(frame) is not pd.DataFrame or not _probed(pd.DataFrame) or \
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


def eval_names_claim(n: ast.Call, target, defined) -> ValueClaim | None:
    """`pd.eval("-df1 * df2 - df6")`: pandas' `eval` resolves the expression's names in its caller's
    namespace (the notebook's) and its own few globals (`Timestamp`, `inf`, ...), its math
    functions by name where called: a name none of these holds is its UndefinedVariableError
    (a NameError) before anything is computed. `defined(name)`: may the name be bound when the
    call runs (the kernel holds it, or the cell binds it anywhere)?"""
    pd = _pd()
    scope = sys.modules.get("pandas.core.computation.scope")
    ops = sys.modules.get("pandas.core.computation.ops")
    if pd is None or scope is None or ops is None or target is not POLICY.static(pd, "eval", None) or \
            not own_function(target, "pandas") or len(n.args) != 1 or \
            not (isinstance(n.args[0], ast.Constant) and type(n.args[0].value) is str) or \
            any(k.arg not in ("engine", "parser") for k in n.keywords) or len(n.args[0].value) > 2000:
        return None
    globals_, functions = POLICY.static(scope, "DEFAULT_GLOBALS", None), POLICY.static(ops, "MATHOPS", None)
    if type(globals_) is not dict or type(functions) is not tuple:
        return None
    text = n.args[0].value
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return None                     # (pandas' own tokens: not read here)
    if "\n" in text or "\\" in text or not all(isinstance(x, _EVAL_NODES) and not (
            isinstance(x, ast.Call) and not (isinstance(x.func, ast.Name) and x.func.id in functions)) for x in ast.walk(tree)):
        return None                     # (what pandas refuses otherwise first: a line break, a call, `if`, a dict)
    called = {id(c.func) for c in ast.walk(tree) if isinstance(c, ast.Call)}
    for x in ast.walk(tree):
        if isinstance(x, ast.Name) and x.id not in globals_ and not (id(x) in called and x.id in functions) and \
                not defined(x.id):
            return ValueClaim(n.args[0], f"{ast.unparse(n.func)}(): name '{x.id}' is not defined (pandas' eval reads "
                                         "the notebook's names): UndefinedVariableError", "UndefinedVariableError",
                              literal=True)
    return None


# the parts of an expression pandas' eval takes (its grammar: no `if`, no displays, no calls but its math)
_EVAL_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Name, ast.Constant, ast.Attribute,
               ast.Subscript, ast.Slice, ast.Call, ast.Load, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def _pandas_dtype(dtype) -> bool:
    """numpy's dtype or one of pandas' own (a dtype of the user's runs their code on any copy)."""
    return type(dtype).__module__.split(".")[0] in ("numpy", "pandas")


# -- writers ------------------------------------------------------------------------------------------

# pandas' writers that check the file's folder exists before they write (io.common.get_handle's
# check_parent_directory), and the name of their path parameter
_WRITERS = {"to_csv": "path_or_buf", "to_json": "path_or_buf", "to_html": "buf", "to_pickle": "path",
            "to_latex": "buf"}


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
            path.value.startswith("~") or "\0" in path.value or path.value.endswith(("/", os.sep)):
        return None
    obj = live(n.func.value)
    if type(obj) not in (pd.Series, pd.DataFrame) or not _own(type(obj), n.func.attr):
        return None
    folder = os.path.dirname(path.value)
    if not folder or os.path.isdir(folder):
        return None
    return ValueClaim(path, f"{ast.unparse(n.func)}(): Cannot save file into a non-existent directory: {folder!r} "
                            f"(from {os.getcwd()!r}): OSError", "OSError")


# -- in place -----------------------------------------------------------------------------------------

_ABSENT = object()
# the methods that return None given inplace=True (pandas 3 returns the object itself from fillna,
# replace, ffill, bfill, interpolate, where, mask and clip)
_NONE_IN_PLACE = frozenset({"dropna", "drop", "drop_duplicates", "set_index", "reset_index", "sort_values",
                            "sort_index", "rename", "rename_axis", "query", "eval"})


def inplace_claim(n: ast.Attribute | ast.Subscript, live: Live) -> ValueClaim | None:
    """`df.dropna(inplace=True).head()`, `df.sort_values("a", inplace=True)["a"]`: pandas' methods
    return None where they change the object in place ("or None if inplace=True"): an attribute or
    an item of it is AttributeError or TypeError. The method pandas' own, of a live Series or
    DataFrame, with an `inplace` parameter, given a literal True."""
    import inspect
    pd = _pd()
    call = n.value
    if pd is None or not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or \
            not any(k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True
                    for k in call.keywords):
        return None
    obj = live(call.func.value)
    if call.func.attr not in _NONE_IN_PLACE or type(obj) not in (pd.Series, pd.DataFrame) or \
            not _own(type(obj), call.func.attr) or \
            isinstance(n, ast.Attribute) and POLICY.static(type(None), n.attr, _ABSENT) is not _ABSENT:
        return None                         # (`.__class__`, `.__doc__` of None are there)
    try:
        if "inplace" not in inspect.signature(POLICY.static(type(obj), call.func.attr)).parameters:
            return None
    except (TypeError, ValueError, AttributeError):
        return None
    if isinstance(n, ast.Attribute):
        said, exception = f"'NoneType' object has no attribute {n.attr!r}", "AttributeError"
    else:
        said, exception = "'NoneType' object is not subscriptable", "TypeError"
    return ValueClaim(call, f"{ast.unparse(call.func)}(..., inplace=True) returns None: {exception} ({said})",
                      exception)


# -- merges -------------------------------------------------------------------------------------------

# rows a merge is asked on besides none: its keys' dtypes are inferred from values (object columns)
_MERGE_ROWS = 50


def merge_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    """`pd.merge(a, b, on="k")`, `a.merge(b, "name")`, `a.join(b, how="full")` of live frames (the
    right one may be a named Series): asked of pandas on their first zero rows and on their first
    rows; where both raise the same KeyError, ValueError or TypeError (a key neither has, a `how`
    pandas lacks, a flag given a name, a set of suffixes, keys of dtypes it will not join), the
    merge's checks refuse it whatever the rows. Literal options only, `validate` (it counts the
    rows) left out."""
    pd = _pd()
    if pd is None or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    keywords = {k.arg: k.value for k in n.keywords}
    if "validate" in keywords:
        return None
    if target is not UNRESOLVED and POLICY.module_members(pd).get("merge") is target:
        nodes = list(n.args[:2]) + [keywords.pop(k) for k in ("left", "right") if k in keywords]
        rest, method = n.args[2:], None
        if len(nodes) != 2:
            return None
    elif isinstance(n.func, ast.Attribute) and n.func.attr in ("merge", "join") and (n.args or "right" in keywords
                                                                                    or "other" in keywords):
        method = n.func.attr
        other = n.args[0] if n.args else keywords.pop("right" if method == "merge" else "other", None)
        nodes, rest = [n.func.value, other], n.args[1:]
        if other is None:
            return None
    else:
        return None
    try:
        literals = [ast.literal_eval(a) for a in rest]
        options = {k: ast.literal_eval(v) for k, v in keywords.items()}
    except ValueError:
        return None
    left, right = (live(x) for x in nodes)
    if type(left) is not pd.DataFrame or type(right) not in (pd.DataFrame, pd.Series) or \
            not _probed(pd.DataFrame, pd.Series) or not own_function(POLICY.module_members(pd).get("merge"), "pandas") or \
            not all(_plain_frame(x, pd) for x in (left, right)):
        return None

    def run(a, b):
        if method is None:
            return pd.merge(a, b, *literals, **options)
        return getattr(a, method)(b, *literals, **options)

    raised = []
    for rows in (0, _MERGE_ROWS):
        try:
            run(left.iloc[:rows], right.iloc[:rows])
        except (KeyError, ValueError, TypeError) as e:
            raised.append(e)
        except Exception:  # noqa: BLE001 - another failure: not claimed
            return None
        else:
            return None
    if type(raised[0]) is not type(raised[1]):
        return None
    error = raised[1]
    exception = type(error).__name__
    said = " ".join(str(error).split())[:160]
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {said}: {exception}", exception, callee=True)


def _plain_frame(x, pd) -> bool:
    """A frame or Series whose labels are plain values and dtypes numpy's or pandas' own: pandas'
    merge compares and copies them without any code of the user's."""
    frames = [x] if type(x) is pd.DataFrame else []
    dtypes = list(x.dtypes) if frames else [x.dtype]
    # no column of numpy's objects: what pandas infers of its values depends on the rows (and they may be
    # the user's); pandas' own str dtype holds text alone
    return plain_labels(x.index, pd) and (not frames or plain_labels(x.columns, pd)) and \
        all(_pandas_dtype(d) and not _numpy_object(d) for d in dtypes) and \
        (bool(frames) or type(x.name) in (str, int, float, type(None)))


# -- readers ------------------------------------------------------------------------------------------

# pandas' and numpy's readers of a file named by a path (a str read as a path, never as the data
# itself: read_json, read_html and read_xml take text too) and their path parameter
# (not the readers of an optional engine, read_parquet's, read_excel's, ...: a missing engine is their
# ImportError first)
_READERS = {"pandas": {"read_csv": "filepath_or_buffer", "read_table": "filepath_or_buffer", "read_fwf":
                       "filepath_or_buffer", "read_pickle": "filepath_or_buffer"},
            "numpy": {"load": "file", "loadtxt": "fname", "genfromtxt": "fname", "fromfile": "file"}}


def reader_claim(n: ast.Call, target) -> ValueClaim | None:
    """`pd.read_csv("state-population.csv")`, `np.loadtxt("data.txt")` of a path that does not
    exist (read from this process's working directory, the kernel's): FileNotFoundError before
    anything is read. The caller checks that nothing the cell runs before may make the file or
    change directory."""
    import os
    if target is UNRESOLVED or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    for package, readers in _READERS.items():
        module = sys.modules.get(package)
        name = getattr(target, "__name__", None) if module is not None and POLICY.is_library(target) else None
        if type(name) is str and name in readers and POLICY.module_members(module).get(name) is target:
            break
    else:
        return None
    path = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == readers[name]), None)
    if not (isinstance(path, ast.Constant) and type(path.value) is str) or not path.value or "://" in path.value or \
            "\0" in path.value or path.value.startswith("~"):
        return None
    # (numpy's loadtxt and genfromtxt open `name.gz`, `.bz2`, `.xz` where `name` is missing)
    if os.path.exists(path.value) or package == "numpy" and name in ("loadtxt", "genfromtxt") and \
            any(os.path.exists(path.value + ext) for ext in (".gz", ".bz2", ".xz", ".lzma", ".zip")):
        return None
    folder = os.path.dirname(path.value)
    where = f"no folder {folder!r}" if folder and not os.path.isdir(folder) else "no such file"
    root = chain_root(n.func)               # the library's function reads nothing of the cell's but the path
    return ValueClaim(path, f"{ast.unparse(n.func)}(): {path.value!r}: {where} (from {os.getcwd()!r}): "
                            f"FileNotFoundError", "FileNotFoundError", subjects=(root,) if root else None)


# -- levels and axes ----------------------------------------------------------------------------------

def level_claim(n: ast.Call, live: Live) -> ValueClaim | None:
    """`df.reset_index("employee")` of a live frame or Series whose index has no level of that name
    (pandas' `_get_level_number`: KeyError); `x.drop(columns="c", axis=1)` of a frame or Series,
    live or made by pandas' own call, given both an axis and index=/columns= (pandas' ValueError)."""
    pd = _pd()
    if pd is None or not isinstance(n.func, ast.Attribute) or any(k.arg is None for k in n.keywords):
        return None
    keywords = {k.arg: k.value for k in n.keywords}
    if n.func.attr == "drop" and "axis" in keywords and ("index" in keywords or "columns" in keywords) and \
            isinstance(keywords["axis"], ast.Constant) and keywords["axis"].value == 1 and \
            "labels" not in keywords and not n.args:
        if not _pandas_made(n.func.value, live, pd) or not _own(pd.DataFrame, "drop") or not _own(pd.Series, "drop"):
            return None
        # what is read: the receiver's class (a live one's name, or pandas' own function that made it)
        receiver = n.func.value.func if isinstance(n.func.value, ast.Call) else n.func.value
        return ValueClaim(n.func, f"{ast.unparse(n.func)}(): both axis= and {'index' if 'index' in keywords else 'columns'}"
                                  "= with axis=1: ValueError (Cannot specify both 'axis' and 'index'/'columns')",
                          "ValueError", callee=True, subjects=(chain_root(receiver),) if chain_root(receiver) else None)
    if n.func.attr != "reset_index":
        return None
    node = n.args[0] if n.args else keywords.get("level")
    levels = ast.literal_eval(node) if isinstance(node, (ast.Constant, ast.List, ast.Tuple)) and \
        all(isinstance(e, ast.Constant) for e in ast.walk(node) if not isinstance(e, (ast.List, ast.Tuple, ast.Load))) \
        else None
    levels = [levels] if type(levels) is str else levels
    obj = live(n.func.value)
    if type(levels) not in (list, tuple) or not levels or any(type(x) is not str for x in levels) or \
            type(obj) not in (pd.Series, pd.DataFrame) or not _own(type(obj), "reset_index"):
        return None
    names = list(obj.index.names)
    if any(type(x) not in (str, int, float, type(None)) for x in names):
        return None
    missing = next((x for x in levels if x not in names), None)
    if missing is None:
        return None
    return ValueClaim(node, f"{ast.unparse(n.func)}(): the index has no level {missing!r} (its names: {names}): "
                            f"KeyError (set_index makes a column the index)", "KeyError")


# pandas' functions whose result is a DataFrame or Series of pandas' own
_FRAME_MAKERS = frozenset({"merge", "concat", "DataFrame", "Series", "pivot_table", "get_dummies", "melt", "crosstab",
                           "merge_asof", "merge_ordered"})


def _pandas_made(node: ast.expr, live: Live, pd) -> bool:
    """A live DataFrame or Series of pandas' own class, or the result of pandas' own function that
    makes one (`pd.merge(...)`)."""
    if type(live(node)) in (pd.Series, pd.DataFrame):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _FRAME_MAKERS:
        module = live(node.func.value)
        maker = POLICY.module_members(pd).get(node.func.attr)
        return module is pd and (own_function(maker, "pandas") or maker in (pd.DataFrame, pd.Series))
    return False
