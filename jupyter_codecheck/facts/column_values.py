"""Does pandas refuse a live column's values? Judged by pandas itself, on the column's first rows:

    conversions  `s.astype(int)` (float, "int64", np.float32, ...), `pd.to_numeric(s)`,
                 `pd.to_datetime(s)` without errors="coerce": the first value that fails
    arithmetic   `df["a"] + df["b"]` (- * / // % **), a column and a number: text where
                 pandas' operation on the values raises TypeError (`str * int` repeats, runs)
    reductions   `df.corr()`, `df.mean()`, `s.median()` and the others whose `numeric_only` is
                 False unless given (pandas 2's default): text among the values reduced; also
                 grouped by literal column names (`df.groupby("city").mean()`)

The operation is pandas' own, run on the first `SAMPLE_ROWS` rows only: a failure there is the
whole column's failure (pandas converts and combines row by row, in order, and stops at the
first that fails); when those rows pass, a later row may still fail: no claim. Only a Series
whose class is pandas' own is read, of a numpy or pandas' `str` dtype, and a column of objects
only when every value read is a plain str, int, float, bool or None, so that no code of the
user's runs. Arithmetic aligns two columns on their row labels, so there the labels must be
plain (items.plain_labels: built-in, numpy or pandas types); a conversion carries the index
along unread, so any index will do, and a row whose label is not plain is named by position.
"""
from __future__ import annotations

import ast
import sys
import warnings

from .items import plain_labels
from .read_policy import POLICY
from .values import Live, ValueClaim, _literal_int, _numpy_object

# rows a conversion or an operation is tried on; the failing row is searched among them
SAMPLE_ROWS = 1000
_PLAIN = (str, int, float, bool, type(None))
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
              ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
# numpy's numeric dtypes: converted value by value; pandas' nullable ones ("Int64") first infer a
# type over all the values, so their first rows do not tell the whole column's exception
_CASTS = {"int", "float", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"}
# keywords kept as written (literals); errors= other than "raise" turns failures into NaN
_TO_NUMERIC_KEYWORDS = {"errors", "downcast"}
_TO_DATETIME_KEYWORDS = {"errors", "format", "dayfirst", "yearfirst", "utc", "unit", "exact"}


def _pd():
    return sys.modules.get("pandas")


def column(node: ast.expr, live: Live, frame: Live | None = None):
    """The live Series `node` stands for; a column (`df["c"]`) only of a DataFrame whose class is
    pandas' own (a subclass may give its columns otherwise). `frame`: how the frame's class is
    read, where the cell may have set other columns on it (their values are not this column's)."""
    pd = _pd()
    s = live(node)
    if pd is not None and isinstance(node, ast.Attribute) and type(s) is not pd.Series:
        s = _attribute_column(node, frame or live, pd)      # `df.ages`: pandas' __getattr__ gives the column
    if pd is None or type(s) is not pd.Series:
        return None
    if isinstance(node, (ast.Subscript, ast.Attribute)) and \
            type((frame or live)(node.value)) not in (pd.DataFrame, dict):
        return None
    return s


def _attribute_column(node: ast.Attribute, live: Live, pd):
    """`df.ages` of a live DataFrame of pandas' own class: the column, where no member of the class
    has that name (pandas' `__getattr__` answers only then) and the columns are plain labels."""
    frame = live(node.value)
    if type(frame) is not pd.DataFrame or POLICY.static(pd.DataFrame, node.attr, None) is not None or \
            not POLICY.is_library(POLICY.static(pd.DataFrame, "__getitem__", None)) or \
            POLICY.static(pd.DataFrame, "__getattr__", None) is not POLICY.static(pd.core.generic.NDFrame, "__getattr__", None) or \
            not plain_labels(frame.columns, pd) or list(frame.columns).count(node.attr) != 1 or \
            node.attr in POLICY.own_dict(frame):
        return None                         # (`df.b = 5` set an attribute: it shadows the column)
    return frame[node.attr]


def sample(s, *, aligned: bool = True):
    """The first rows of `s` when pandas alone reads them, else None. `aligned`: the operation
    meets the rows by their labels (arithmetic between columns), so the index must be plain; a
    conversion never reads the labels."""
    pd = _pd()
    if pd is None or type(s) is not pd.Series or type(s.name) not in _PLAIN or \
            (aligned and not plain_labels(s.index, pd)):
        return None
    dtype = s.dtype
    head = s.iloc[:SAMPLE_ROWS]
    if type(dtype) is pd.StringDtype:
        return head
    if type(dtype).__module__.split(".")[0] != "numpy" or dtype.kind not in "biufcmMO":
        return None                 # categories, nullable and arrow dtypes: pandas' to judge
    if dtype.kind == "O" and any(type(v) not in _PLAIN for v in head.tolist()):
        return None
    return head


def _fails(run, head) -> BaseException | None:
    """The exception pandas' operation `run` raises on `head`, or None (not asked where a method of
    pandas' Series, DataFrame or GroupBy classes is one the user set: it would run)."""
    if not _pandas_own():
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # format guesses, downcasts: not the user's to see
            run(head)
    except (ValueError, TypeError, OverflowError) as e:
        return e
    except Exception:  # noqa: BLE001 - another failure: not claimed
        return None
    return None


def _pandas_own() -> bool:
    from .libraries import own_classes
    pd = _pd()
    generic = sys.modules.get("pandas.core.groupby.generic")
    classes = [pd.Series, pd.DataFrame] + ([POLICY.static(generic, "DataFrameGroupBy", None),
                                            POLICY.static(generic, "SeriesGroupBy", None)] if generic else [])
    return pd is not None and all(isinstance(c, type) and own_classes(c, "pandas") for c in classes)


def _first_failure(run, head) -> tuple[int, BaseException] | None:
    """The exception `run` raises on the sampled rows, and the position of the first row whose
    addition makes it fail: the shortest failing prefix, found by doubling from one row (a text
    column fails at its first rows), then halving."""
    error = _fails(run, head) if len(head) else None
    if error is None:
        return None
    good, bad = 0, 1                       # head[:good] passes, head[:bad] fails (once tried)
    while bad < len(head) and _fails(run, head.iloc[:bad]) is None:
        good, bad = bad, min(2 * bad, len(head))
    while bad - good > 1:
        mid = (good + bad) // 2
        if _fails(run, head.iloc[:mid]) is None:
            good = mid
        else:
            bad = mid
    return bad - 1, error


def _name(error: BaseException) -> str:
    """The exception as the traceback will name it; a subclass of ValueError says so."""
    name = type(error).__name__
    return name if name in ("ValueError", "TypeError") or not isinstance(error, ValueError) else \
        f"{name} (a ValueError)"


# -- conversions ------------------------------------------------------------------------------------

def conversion_claim(n: ast.Call, target, live: Live, frame: Live | None = None) -> ValueClaim | None:
    """`s.astype(int)`, `pd.to_numeric(s)`, `pd.to_datetime(s)` that fails on a value among the
    column's first rows (`frame`: as column() takes it)."""
    pd = _pd()
    if pd is None or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    keywords = {k.arg: k.value for k in n.keywords}
    try:
        if isinstance(n.func, ast.Attribute) and n.func.attr == "astype":
            return _astype_claim(n, keywords, live, pd, frame)
        if target is pd.to_numeric or target is pd.to_datetime:
            return _parse_claim(n, target, keywords, live, pd, frame)
    except Exception:  # noqa: BLE001 - pandas reads otherwise: no claim
        return None
    return None


def _astype_claim(n: ast.Call, keywords: dict, live: Live, pd, frame: Live | None = None) -> ValueClaim | None:
    if len(n.args) + len(keywords) != 1 or (not n.args and "dtype" not in keywords):
        return None                     # errors="ignore", copy=...: left alone
    given = n.args[0] if n.args else keywords["dtype"]
    what = f"{ast.unparse(n.func.value)}.astype({ast.unparse(given)})"
    if isinstance(given, ast.Dict):
        return _mapping_claim(n, given, live, pd, what)
    dtype = _cast_dtype(given, live)
    head = _conversion_sample(column(n.func.value, live, frame))
    if dtype is None or head is None:
        return None
    found = _first_failure(lambda h: h.astype(dtype), head)
    return _claim(n, found, head, what) if found else None


def _mapping_claim(n: ast.Call, given: ast.Dict, live: Live, pd, what: str) -> ValueClaim | None:
    """`df.astype({"price": float, "qty": int})`: pandas converts the named columns in the frame's
    order and stops at the first that fails (a name the frame lacks is a KeyError first: a key
    fact, columns.py)."""
    frame = live(n.func.value)
    if type(frame) is not pd.DataFrame or any(not isinstance(k, ast.Constant) or type(k.value) is not str
                                              for k in given.keys):
        return None
    casts = {k.value: v for k, v in zip(given.keys, given.values)}
    names = frame.columns.tolist()
    if any(type(c) not in _PLAIN for c in names) or any(names.count(c) != 1 for c in casts):
        return None
    for name in names:
        if name not in casts:
            continue
        dtype = _cast_dtype(casts[name], live)
        head = _conversion_sample(frame[name]) if dtype is not None else None
        if head is None:
            return None                 # a conversion not judged may fail first
        found = _first_failure(lambda h, dtype=dtype: h.astype(dtype), head)
        if found:
            return _claim(n, found, head, f"{what}: column {name!r}")
    return None


def _cast_dtype(node: ast.expr, live: Live):
    """The numeric dtype `astype` is given: `int`, `float`, a name of one ("int64", "Float64"),
    numpy's scalar type (`np.int32`)."""
    if isinstance(node, ast.Constant) and node.value in _CASTS:
        return node.value
    v = live(node)
    if v is int or v is float:
        return v
    np = sys.modules.get("numpy")
    if np is not None and type(v) is type and v in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                                    np.uint32, np.uint64, np.float16, np.float32, np.float64):
        return v
    return None


def _parse_claim(n: ast.Call, target, keywords: dict, live: Live, pd, frame: Live | None = None) -> ValueClaim | None:
    allowed = _TO_NUMERIC_KEYWORDS if target is pd.to_numeric else _TO_DATETIME_KEYWORDS
    if len(n.args) != 1 or set(keywords) - allowed:
        return None
    try:
        given = {k: ast.literal_eval(v) for k, v in keywords.items()}
    except ValueError:
        return None
    if given.get("errors", "raise") != "raise":
        return None
    head = _conversion_sample(column(n.args[0], live, frame))
    if head is None:
        return None
    found = _first_failure(lambda h: target(h, **given), head)
    if found is None:
        return None
    return _claim(n, found, head, f"{ast.unparse(n.func)}({ast.unparse(n.args[0])})")


def _conversion_sample(s):
    """The rows a conversion is tried on: the first rows where pandas converts value by value
    (numpy's dtypes, its own `str` held in Python), so that they fail as the whole column does;
    with another storage (arrow's), only the whole column."""
    head = sample(s, aligned=False)
    if head is None or len(s) <= SAMPLE_ROWS:
        return head
    dtype = s.dtype
    return head if type(dtype).__module__.split(".")[0] == "numpy" or getattr(dtype, "storage", None) == "python" \
        else None


def _claim(n: ast.Call, found: tuple[int, BaseException], head, what: str) -> ValueClaim:
    at, error = found
    return ValueClaim(n.func, f"{what} fails at {_row(head, at)} on the value "
                              f"{_shown(head.iloc[at])}: {_name(error)}", type(error).__name__, callee=True)


def _row(head, at: int) -> str:
    """The row at position `at`, by its label when the index is plain (showing another label
    would run its `__repr__`)."""
    return f"row {_shown(head.index[at])}" if plain_labels(head.index, _pd()) else f"the row at position {at}"


def _shown(v) -> str:
    """A value as the message shows it: short, and never with the ": " before the exception's name."""
    text = repr(v) if type(v) in _PLAIN else str(v)
    text = text if len(text) <= 60 else text[:57] + "..."
    return text.replace(": ", ":")


# -- arithmetic -------------------------------------------------------------------------------------

def column_binop_claim(n: ast.BinOp, live: Live) -> ValueClaim | None:
    """`df["name"] - df["age"]`: an operation pandas refuses on the values of a text column and
    a numeric one (or a number written in the cell)."""
    pd = _pd()
    if pd is None or type(n.op) not in _OPERATORS:
        return None
    try:
        return _binop_claim(n, live, pd)
    except Exception:  # noqa: BLE001
        return None


def _binop_claim(n: ast.BinOp, live: Live, pd) -> ValueClaim | None:
    from .libraries import own_function
    left, right = _operand(n.left, live, pd), _operand(n.right, live, pd)
    if left is None or right is None or not any(type(x) is pd.Series for x in (left, right)):
        return None
    name = _DUNDERS.get(type(n.op))
    if name is None or not all(own_function(POLICY.static(pd.Series, f"__{p}{name}__", None), "pandas") for p in ("", "r")):
        return None                         # (an operator the user set on Series)
    series = [x for x in (left, right) if type(x) is pd.Series]
    if not any(type(s.dtype) is pd.StringDtype or _numpy_object(s.dtype) for s in series):
        return None                     # numbers with numbers: no TypeError of this kind
    heads = [sample(x) if type(x) is pd.Series else x for x in (left, right)]
    if any(h is None for h in heads) or (len(series) == 2 and not left.index.equals(right.index)):
        return None                     # two indexes are aligned first: other rows meet
    op = type(n.op)
    if op in (ast.Mult, ast.Pow) and _costly(op, heads, pd):
        return None

    def run(h):
        rows = len(h)
        a, b = (x.iloc[:rows] if type(x) is pd.Series else x for x in heads)
        return _apply(op, a, b)

    found = _first_failure(run, heads[0] if type(left) is pd.Series else heads[1])
    if found is None or not isinstance(found[1], TypeError):
        return None
    at, error = found
    values = [h.iloc[at] if type(h) is pd.Series else h for h in heads]
    kinds = " and ".join(f"a column of {x.dtype}" if type(x) is pd.Series else f"the number {x!r}"
                         for x in (left, right))
    return ValueClaim(n, f"{ast.unparse(n)}: {_OPERATORS[op]} between {kinds} fails at row "
                         f"{_shown(series[0].index[at])} ({_shown(values[0])} {_OPERATORS[op]} {_shown(values[1])}): "
                         f"{_name(error)}", type(error).__name__)


_DUNDERS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
            ast.Mod: "mod", ast.Pow: "pow", ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor"}


def _costly(op, heads, pd) -> bool:
    """Would trying the operation do real work: text repeated by integers (`"ab" * 10**9`), Python
    integers raised to a power? Then it is not tried (and such rows run: no claim is lost)."""
    def integers(x) -> bool:
        if type(x) is not pd.Series:
            return type(x) is int and op is ast.Mult
        if _numpy_object(x.dtype):
            return any(type(v) is int for v in x.tolist())
        return x.dtype.kind in "iu" and op is ast.Mult
    return any(integers(h) for h in heads)


def _operand(node: ast.expr, live: Live, pd):
    """A live Series, or a number written in the cell; else None."""
    v = _literal_number(node)
    if v is not None:
        return v
    return column(node, live)


def _literal_number(node: ast.expr):
    if isinstance(node, ast.Constant) and type(node.value) is float:
        return node.value
    return _literal_int(node)


def _apply(op, a, b):
    if op is ast.Add:
        return a + b
    if op is ast.Sub:
        return a - b
    if op is ast.Mult:
        return a * b
    if op is ast.Div:
        return a / b
    if op is ast.FloorDiv:
        return a // b
    if op is ast.Mod:
        return a % b
    if op is ast.BitAnd:
        return a & b
    if op is ast.BitOr:
        return a | b
    if op is ast.BitXor:
        return a ^ b
    return a ** b


# -- reductions -------------------------------------------------------------------------------------

# pandas' reductions that read every column unless `numeric_only=True` (False by default since
# pandas 2), and the literal keywords they are judged with
REDUCTIONS = frozenset({"mean", "median", "std", "var", "sem", "skew", "kurt", "quantile", "corr", "cov", "prod",
                        "sum", "min", "max"})
_REDUCTION_KEYWORDS = frozenset({"numeric_only", "skipna", "ddof", "method", "min_periods", "q"})
_MOST_COLUMNS = 1000
# corr and cov compute a product of every pair of columns: read on fewer rows and columns
_PAIRWISE, _PAIRWISE_ROWS, _PAIRWISE_COLUMNS = frozenset({"corr", "cov"}), 100, 300


def reduction_claim(n: ast.Call, live: Live) -> ValueClaim | None:
    """`df.corr()`, `df.mean()`, `df["city"].median()` where pandas' reduction of the first rows
    fails (text among numbers): that text is in the whole frame, so the whole reduction fails."""
    pd = _pd()
    if pd is None or not isinstance(n.func, ast.Attribute) or n.func.attr not in REDUCTIONS or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg not in _REDUCTION_KEYWORDS for k in n.keywords):
        return None
    try:
        args = [ast.literal_eval(a) for a in n.args]
        keywords = {k.arg: ast.literal_eval(k.value) for k in n.keywords}
    except ValueError:
        return None
    if keywords.get("numeric_only", False) is not False or len(args) > (n.func.attr == "quantile") or \
            any(type(v) not in (int, float, str, bool) for v in [*args, *keywords.values()]):
        return None
    try:
        head = _reduced_sample(live(n.func.value), pd)
        if head is None:
            return None
        if n.func.attr in _PAIRWISE:
            if type(head) is pd.DataFrame and head.shape[1] > _PAIRWISE_COLUMNS:
                return None
            head = head.iloc[:_PAIRWISE_ROWS]
        reduce = lambda h: getattr(h, n.func.attr)(*args, **keywords)    # noqa: E731 - pandas' own, on rows
        error = _fails(reduce, head)
        if error is None:
            return None
        culprit = next((c for c in head.columns if _fails(reduce, head[[c]]) is not None), None) \
            if type(head) is pd.DataFrame else None
    except Exception:  # noqa: BLE001 - pandas reads otherwise: no claim
        return None
    where = f" (its column {_shown(culprit)} of {head[culprit].dtype})" if culprit is not None else \
        f" (of {head.dtype})" if type(head) is pd.Series else ""
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): pandas' {n.func.attr} fails on the values{where}; "
                              f"numeric_only=True reads the numbers alone: {_name(error)}", type(error).__name__,
                      callee=True)


_GROUPBY_KEYWORDS = frozenset({"as_index", "sort", "dropna", "observed", "group_keys"})


def grouped_reduction_claim(n: ast.Call, live: Live) -> ValueClaim | None:
    """`df.groupby("city").mean()`, `df.groupby(["a", "b"])[["x"]].median()`: pandas' grouped
    reduction of the first rows fails (text in a column reduced), so the whole one does."""
    pd = _pd()
    func = n.func
    if pd is None or not isinstance(func, ast.Attribute) or func.attr not in REDUCTIONS - _PAIRWISE or n.args or \
            any(k.arg not in _REDUCTION_KEYWORDS for k in n.keywords):
        return None
    grouped, picked = func.value, None
    if isinstance(grouped, ast.Subscript):
        grouped, picked = grouped.value, grouped.slice
    if not (isinstance(grouped, ast.Call) and isinstance(grouped.func, ast.Attribute) and grouped.func.attr == "groupby"
            and len(grouped.args) == 1 and all(k.arg in _GROUPBY_KEYWORDS for k in grouped.keywords)):
        return None
    try:
        by = ast.literal_eval(grouped.args[0])
        options = {k.arg: ast.literal_eval(k.value) for k in grouped.keywords}
        keywords = {k.arg: ast.literal_eval(k.value) for k in n.keywords}
        chosen = ast.literal_eval(picked) if picked is not None else None
    except ValueError:
        return None
    labels = [by] if type(by) is str else by
    if type(labels) is not list or not labels or any(type(c) is not str for c in labels) or \
            keywords.get("numeric_only", False) is not False or \
            any(type(v) not in (int, float, str, bool) for v in [*options.values(), *keywords.values()]) or \
            not (chosen is None or type(chosen) is str or type(chosen) is list and all(type(c) is str for c in chosen)):
        return None

    def reduce(h):
        groups = h.groupby(by, **options)
        return getattr(groups if chosen is None else groups[chosen], func.attr)(**keywords)

    try:
        head = _reduced_sample(live(grouped.func.value), pd)
        if type(head) is not pd.DataFrame or not set(labels) <= set(head.columns):
            return None             # a missing column is a key fact (columns.py)
        error = _fails(reduce, head)
    except Exception:  # noqa: BLE001 - pandas reads otherwise: no claim
        return None
    if error is None:
        return None
    return ValueClaim(func, f"{ast.unparse(func)}(): pandas' grouped {func.attr} fails on the values (text among "
                            f"the columns reduced); numeric_only=True reads the numbers alone: {_name(error)}",
                      type(error).__name__, callee=True)


def _reduced_sample(obj, pd):
    """The first rows of a DataFrame or Series of pandas' own whose values pandas alone reads
    (plain column labels, numpy or `str` dtypes, objects that are plain values); else None."""
    if type(obj) is pd.Series:
        return sample(obj, aligned=False)
    if type(obj) is not pd.DataFrame or obj.attrs or obj.shape[1] > _MOST_COLUMNS or not plain_labels(obj.columns, pd) or \
            not obj.columns.is_unique:
        return None
    head = obj.iloc[:SAMPLE_ROWS]
    for k, dtype in enumerate(head.dtypes):
        if type(dtype) is pd.StringDtype:
            continue
        if type(dtype).__module__.split(".")[0] != "numpy" or dtype.kind not in "biufcmMO":
            return None             # categories, nullable and arrow dtypes: pandas' to judge
        if dtype.kind == "O" and any(type(v) not in _PLAIN for v in head.iloc[:, k].tolist()):
            return None
    return head


# pivot_table's options read as written (literals); aggfunc a name of pandas' own reductions only
_PIVOT_KEYWORDS = frozenset({"values", "index", "columns", "aggfunc", "fill_value", "margins", "dropna",
                             "margins_name", "observed", "sort"})


def pivot_claim(n: ast.Call, target, live: Live) -> ValueClaim | None:
    """`pd.pivot_table(df, index="name")`, `df.pivot_table(...)`: pandas' pivot of the frame's
    first rows fails (its default mean over a text column the values take in), so the whole one
    does (each group is reduced as the grouped reductions are, above)."""
    pd = _pd()
    if pd is None or any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    from .libraries import own_classes, own_function
    if not own_classes(pd.DataFrame, "pandas") or not own_function(POLICY.module_members(pd).get("pivot_table"), "pandas"):
        return None                         # (pivot_table runs DataFrame's and its groupby's methods)
    function = target is POLICY.module_members(pd).get("pivot_table")
    method = not function and isinstance(n.func, ast.Attribute) and n.func.attr == "pivot_table"
    if method and not n.args:
        frame_node = n.func.value
    elif function and len(n.args) == 1:
        frame_node = n.args[0]
    else:
        return None
    if any(k.arg not in _PIVOT_KEYWORDS for k in n.keywords):
        return None
    try:
        options = {k.arg: ast.literal_eval(k.value) for k in n.keywords}
    except ValueError:
        return None
    named = [v for k in ("values", "index", "columns") for v in
             ([options[k]] if type(options.get(k)) is str else options.get(k) or [])]
    aggfunc = options.get("aggfunc", "mean")
    if any(type(c) is not str for c in named) or not (type(aggfunc) is str or type(aggfunc) is list and
                                                      all(type(a) is str for a in aggfunc)):
        return None
    try:
        frame = live(frame_node)
        if method and (type(frame) is not pd.DataFrame or
                       POLICY.static(pd.DataFrame, "pivot_table", None) is not POLICY.static(type(frame), "pivot_table", None)):
            return None
        head = _reduced_sample(frame, pd)
        if type(head) is not pd.DataFrame or not set(named) <= set(head.columns):
            return None             # a missing column is a key fact (columns.py)
        error = _fails(lambda h: pd.pivot_table(h, **options), head)
    except Exception:  # noqa: BLE001 - pandas reads otherwise: no claim
        return None
    if error is None:
        return None
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): pandas' pivot ({aggfunc!s}) fails on the values (text among "
                              f"the columns aggregated; values= names the numeric ones): {_name(error)}",
                      type(error).__name__, callee=True)
