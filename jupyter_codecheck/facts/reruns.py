"""A cell run again right after it ran: what its first run removed from a DataFrame is gone.

The cell is the same code as the cell run just before it (`ast` equal: spacing, comments and a
trailing `;` aside). Its first run dropped labels from a DataFrame with pandas' default
`errors="raise"`, at its top level:

    df.drop(labels, inplace=True)     df.drop(columns=[...], inplace=True)     del df["c"]
    df = df.drop(labels, axis=1)      df.pop("c")                              x = df.pop("c")
    df.set_index("c", inplace=True)   df = df.set_index(["c", "d"])            (drop=True: out of the columns)
    df = pd.get_dummies(df, columns=["c"])                                     (replaced by indicator columns)

so the second run raises KeyError: at the first plain read of such a column before the drop
(`df["c"]`, `df[["c", "d"]]`), or at the drop itself. Only where the text proves it:

- the name is a pandas DataFrame there: its last binding in the cells run before is a pandas
  reader or constructor called through `import pandas` (`pd.read_csv(...)`, `pd.DataFrame(...)`),
  or a DataFrame method that returns a new frame (`df = df.dropna()`), and nothing else binds it
  (no other assignment, loop target, `del`, import, `global` in a function);
- between the drop and the end of the first run, and in the second run before the claim, every
  use of the name is a read (a literal key, an attribute, a method that makes a new object) or a
  new column of another name: nothing may put the labels back; no function the notebook defines
  reads the name, no `exec`, `eval`, `globals()` or magic may reach it;
- with a kernel, the live object agrees: a pandas DataFrame that lacks the labels.

Labels are literals (str or int, or a list of them); `errors=`, `level=` or anything else leave
it unknown: no claim.
"""
from __future__ import annotations

import ast
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from ..pytext.pycheck import parent_map, parse
from .flow import QUIET_MAGICS, is_magic, magic_name

# pandas functions that return a DataFrame, and the keywords that make them return another thing
_READERS = {"read_csv": {"chunksize", "iterator", "squeeze"}, "read_table": {"chunksize", "iterator", "squeeze"},
            "read_excel": {"sheet_name", "squeeze"}, "read_parquet": set(), "read_feather": set(),
            "read_json": {"typ", "chunksize", "lines"}, "DataFrame": set(), "get_dummies": set(), "merge": set()}
# DataFrame methods that return a new DataFrame (without `inplace=`)
_FRAME_METHODS = frozenset({"drop", "dropna", "fillna", "rename", "reset_index", "sort_values", "sort_index",
                            "drop_duplicates", "copy", "astype", "set_index", "query", "assign", "head", "tail",
                            "replace"})
# DataFrame methods that change the frame itself whatever their arguments
_MUTATING = frozenset({"insert", "pop", "update", "set_axis", "__setitem__", "__delitem__", "__init__"})
# DataFrame methods that, in place or not, can only take labels away
_REMOVING = frozenset({"drop", "dropna", "pop"})
# calls that may bind or change any name
_ANYTHING = frozenset({"exec", "eval", "globals", "vars", "locals", "setattr", "delattr", "__import__",
                       "get_ipython"})
_MAX_LABELS = 100_000             # labels looked up in the live frame (a hash table over them)
# parents a node is always evaluated under, once its statement runs
_EAGER = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Call, ast.keyword, ast.Attribute, ast.Subscript,
          ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.JoinedStr, ast.FormattedValue, ast.Return)


@dataclass
class _Drop:
    statement: int                      # index among the cell's top-level statements
    name: str
    labels: list[ast.Constant]          # the literals dropped
    columns: bool                       # columns (else row labels)
    how: str                            # the call, for the message
    through: str | None = None          # the module name a pandas function is called through


def with_rerun_facts(facts: list, source: str, ran: list[str], namespace: Mapping | None = None,
                     failed=()) -> list:
    """`facts` with the re-run's: where both name the same place, the re-run's fact replaces the
    other, since it says why the label is gone (the cell's own first run), and a near name the
    live fact would offer is no fix for that."""
    from dataclasses import replace
    found = _reruns(source, ran, namespace, failed)
    rerun = [f for f, _, _ in found]
    places = {(f.line, f.column) for f in rerun}
    kept = []
    for f in facts:
        if (f.line, f.column) in places:
            continue
        # another fact on a label the first run removed (`X = df.drop(columns=["c"])` before the
        # `del`): it says why the label is gone too
        why = next((reason for _, label, reason in found if f.kind == "key" and f"{label!r}" in f.message), None)
        kept.append(replace(f, message=f"{f.message}: {why}") if why else f)
    return kept + rerun


def rerun_facts(source: str, ran: list[str], namespace: Mapping | None = None, failed=()) -> list:
    """Key facts of a cell that is the same code as the cell run just before it (`ran`: the
    cells run before this one, in order) and whose first run dropped labels it needs again."""
    return [f for f, _, _ in _reruns(source, ran, namespace, failed)]


def _reruns(source: str, ran: list[str], namespace: Mapping | None, failed) -> list[tuple]:
    """rerun_facts' facts, each with the label it is about and why that label is gone."""
    from .facts import KernelFact
    if not ran or ran[-1] in set(failed or ()):
        return []
    tree, first = parse(source), parse(ran[-1])
    if tree is None or first is None or not tree.body or ast.dump(tree) != ast.dump(first):
        return []
    if _reaches_anything(tree):
        return []
    lines = source.split("\n")
    facts = []
    for drop in _drops(tree):
        key = _claim(tree, drop, ran, namespace)
        if key is None:
            continue
        what = "column" if drop.columns else "row label"
        why = (f"this cell already ran (the cell before it is the same code) and its {drop.how} on line "
               f"{_line(tree, drop)} removed it")
        message = f"{drop.name} has no {what} {key.value!r}: {why}: KeyError"
        column = _chars(lines, key.lineno, key.col_offset)
        end = _chars(lines, key.end_lineno, key.end_col_offset) if key.end_lineno == key.lineno else column + 1
        facts.append((KernelFact("key", key.lineno, column, end, message, []), key.value, why))
        break                            # the cell stops at its first KeyError
    return facts


def _line(tree: ast.Module, drop: _Drop) -> int:
    return tree.body[drop.statement].lineno


def _chars(lines: list[str], line: int, byte_col: int) -> int:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))


# -- the drops ------------------------------------------------------------------------------------

def _drops(tree: ast.Module) -> list[_Drop]:
    out = []
    for k, s in enumerate(tree.body):
        call = s.value if isinstance(s, (ast.Expr, ast.Assign)) and isinstance(s.value, ast.Call) else None
        if isinstance(s, ast.Delete) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Subscript):
            t = s.targets[0]
            if isinstance(t.value, ast.Name) and _label(t.slice) is not None:
                out.append(_Drop(k, t.value.id, [t.slice], True, f"`del {ast.unparse(t)}`"))
            continue
        if call is None or not isinstance(call.func, ast.Attribute) or not isinstance(call.func.value, ast.Name):
            continue
        if (d := _dummies(s, call)) is not None:
            out.append(_Drop(k, d[0], d[1], True, f"`{ast.unparse(call.func)}(...)`", call.func.value.id))
            continue
        name, method = call.func.value.id, call.func.attr
        rebound = isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
        if method == "pop" and len(call.args) == 1 and not call.keywords and _label(call.args[0]) is not None \
                and not rebound:
            out.append(_Drop(k, name, [call.args[0]], True, f"`{name}.pop(...)`"))
        elif method == "drop" and (d := _dropped(call)) is not None:
            rebinds = isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and s.targets[0].id == name
            inplace = any(kw.arg == "inplace" for kw in call.keywords)
            if (inplace and isinstance(s, ast.Expr) and _true(call, "inplace")) or (rebinds and not inplace):
                out.append(_Drop(k, name, d[0], d[1], f"`{name}.drop(...)`"))
        elif method == "set_index" and (keys := _index_keys(call)) is not None:
            rebinds = isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and s.targets[0].id == name
            inplace = any(kw.arg == "inplace" for kw in call.keywords)
            if (inplace and isinstance(s, ast.Expr) and _true(call, "inplace")) or (rebinds and not inplace):
                out.append(_Drop(k, name, keys, True, f"`{name}.set_index(...)`"))
    return out


def _index_keys(call: ast.Call) -> list[ast.Constant] | None:
    """The column names `set_index` moves into the index (its default `drop=True` takes them out
    of the columns)."""
    keywords = {kw.arg: kw.value for kw in call.keywords}
    if None in keywords or set(keywords) - {"keys", "inplace", "drop", "append", "verify_integrity"} or \
            len(call.args) != 1 - ("keys" in keywords):
        return None
    if "drop" in keywords and not (isinstance(keywords["drop"], ast.Constant) and keywords["drop"].value is True):
        return None
    keys = call.args[0] if call.args else keywords["keys"]
    keys = keys.elts if isinstance(keys, ast.List) else [keys]
    if not keys or any(not (isinstance(x, ast.Constant) and type(x.value) is str) for x in keys):
        return None
    return keys


def _dummies(s: ast.stmt, call: ast.Call) -> tuple[str, list[ast.Constant]] | None:
    """`df = pd.get_dummies(df, columns=[...])`: the frame and the columns it encodes (replaced by
    their indicator columns)."""
    if call.func.attr != "get_dummies" or not isinstance(s, ast.Assign) or len(s.targets) != 1 or \
            not isinstance(s.targets[0], ast.Name) or len(call.args) != 1 or not isinstance(call.args[0], ast.Name) or \
            call.args[0].id != s.targets[0].id:
        return None
    keywords = {kw.arg: kw.value for kw in call.keywords}
    if None in keywords or set(keywords) - {"columns", "drop_first", "prefix", "prefix_sep", "dtype", "dummy_na"}:
        return None
    columns = keywords.get("columns")
    labels = columns.elts if isinstance(columns, ast.List) else [columns] if columns is not None else []
    if not labels or any(not (isinstance(x, ast.Constant) and type(x.value) is str) for x in labels):
        return None
    return s.targets[0].id, labels


def _dropped(call: ast.Call) -> tuple[list[ast.Constant], bool] | None:
    """The literal labels `drop` is given and whether they are columns; None if not literal or
    another keyword (errors=, level=) may change what it does."""
    keywords = {kw.arg: kw.value for kw in call.keywords}
    if None in keywords or set(keywords) - {"labels", "axis", "columns", "index", "inplace"} or len(call.args) > 1:
        return None
    given = [(a, None) for a in call.args] + [(v, k) for k, v in keywords.items() if k in ("labels", "columns", "index")]
    if len(given) != 1:
        return None
    value, how = given[0]
    if how in ("columns", "index"):
        if "axis" in keywords:
            return None
        columns = how == "columns"
    else:
        axis = keywords.get("axis")
        if axis is None:
            columns = False
        elif isinstance(axis, ast.Constant) and axis.value in (1, "columns") and axis.value is not True:
            columns = True
        elif isinstance(axis, ast.Constant) and axis.value in (0, "index") and axis.value is not False:
            columns = False
        else:
            return None
    labels = value.elts if isinstance(value, ast.List) else [value]
    if not labels or any(_label(x) is None for x in labels):
        return None
    return labels, columns


def _label(node: ast.AST):
    if isinstance(node, ast.Constant) and type(node.value) in (str, int):
        return node.value
    return None


def _true(call: ast.Call, keyword: str) -> bool:
    return any(kw.arg == keyword and isinstance(kw.value, ast.Constant) and kw.value.value is True
               for kw in call.keywords)


# -- the claim ------------------------------------------------------------------------------------

def _claim(tree: ast.Module, drop: _Drop, ran: list[str], namespace) -> ast.Constant | None:
    """The literal the second run raises KeyError on: a read before the drop, or the drop's."""
    name, labels = drop.name, {_label(x) for x in drop.labels}
    pandas = _frame_before(name, ran[:-1], tree.body[:drop.statement])
    if pandas is None or (drop.through is not None and drop.through not in pandas) or \
            _read_by_functions(name, ran, tree):
        return None
    # after the drop, the first run's rest must not put the labels back
    for s in tree.body[drop.statement + 1:]:
        if _uses(s, name, labels, drop.columns) is None:
            return None
    if not _live_agrees(namespace, name, labels, drop.columns):
        return None
    for s in tree.body[:drop.statement]:
        reads = _uses(s, name, labels, drop.columns)
        if reads is None:
            return None
        if reads:
            return reads[0]
    return drop.labels[0]


def _uses(s: ast.stmt, name: str, labels: set, columns: bool) -> list[ast.Constant] | None:
    """The reads of a dropped column in statement `s` that surely run, in order; None if `s`
    may rebind the name or put a label back (or does what the rule cannot follow)."""
    parents = parent_map(s)
    reads = []
    for n in ast.walk(s):
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return None
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name:
            return None
        if isinstance(n, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name.split(".")[0]) == name
                                                              for a in n.names):
            return None
        if not (isinstance(n, ast.Name) and n.id == name):
            continue
        if not isinstance(n.ctx, ast.Load):
            return None
        parent = parents.get(id(n))
        if isinstance(parent, ast.Subscript) and parent.value is n:
            keys = parent.slice.elts if isinstance(parent.slice, ast.List) else [parent.slice]
            if not all(_label(k) is not None for k in keys):
                if isinstance(parent.ctx, ast.Load):
                    continue                    # `df[mask]`: a read
                return None
            if isinstance(parent.ctx, ast.Load):
                if columns and isinstance(parent.slice, (ast.Constant, ast.List)):
                    hit = [k for k in keys if _label(k) in labels]
                    if hit and _eager(parent, parents, s):
                        reads.append(hit[0])
                continue
            if isinstance(parent.ctx, ast.Store) and not isinstance(parent.slice, ast.List) and \
                    not (columns and _label(parent.slice) in labels):
                continue                        # a new column of another name
            if isinstance(parent.ctx, ast.Del):
                continue                        # another column removed
            return None
        if isinstance(parent, ast.Attribute) and parent.value is n:
            call = parents.get(id(parent))
            if isinstance(call, ast.Call) and call.func is parent:
                if parent.attr in _REMOVING:
                    continue                    # `df.drop(..., inplace=True)`, `df.pop(c)`: labels only go
                if parent.attr in _MUTATING or any(kw.arg == "inplace" for kw in call.keywords):
                    return None
                continue                        # `df.head()`, `df.drop(columns=...)`: a new object
            if isinstance(parent.ctx, ast.Load) and parent.attr not in ("loc", "iloc", "at", "iat", "columns",
                                                                        "index", "values", "T"):
                continue                        # `df.shape`; `df.loc[...] = ...` may add a label
            return None
        if isinstance(parent, ast.Call) and n in parent.args and isinstance(parent.func, ast.Name) and \
                parent.func.id in ("print", "len", "display", "type", "repr", "str"):
            continue                            # a builtin that reads it (display: IPython's)
        if isinstance(parent, ast.Expr):
            continue                            # `df` alone: shown (pandas' repr), not changed
        return None                             # passed on, aliased, compared: the rule stops here
    reads.sort(key=lambda k: (k.lineno, k.col_offset))
    return reads


def _eager(node: ast.AST, parents: dict, top: ast.stmt) -> bool:
    """Is `node` evaluated whenever its statement runs (no lambda, condition or short circuit)?"""
    while node is not top:
        parent = parents.get(id(node))
        if parent is None or not isinstance(parent, _EAGER):
            return False
        node = parent
    return isinstance(top, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign))


# -- what the notebook's text proves --------------------------------------------------------------

def _frame_before(name: str, cells: list[str], prefix: list[ast.stmt]) -> set[str] | None:
    """Is `name` a pandas DataFrame after these cells and the cell's own statements before the
    drop, by the text: its last binding a pandas reader, constructor or a new frame from one?
    If so, the names bound to the pandas module there; else None."""
    pandas: set[str] = set()             # names bound to the pandas module
    functions: dict[str, str] = {}       # names bound to a pandas reader: its name
    frames: set[str] = set()
    statements: list[ast.stmt] = []
    for cell in cells:
        tree = parse(cell)
        if tree is None or _reaches_anything(tree):
            return None
        statements += tree.body
    for s in statements + list(prefix):
        if isinstance(s, ast.Import):
            for a in s.names:
                bound = a.asname or a.name.split(".")[0]
                frames.discard(bound)
                functions.pop(bound, None)
                pandas.discard(bound)
                if a.name == "pandas":
                    pandas.add(bound)
            continue
        if isinstance(s, ast.ImportFrom):
            for a in s.names:
                bound = a.asname or a.name
                frames.discard(bound)
                pandas.discard(bound)
                functions.pop(bound, None)
                if s.module == "pandas" and not s.level and a.name in _READERS:
                    functions[bound] = a.name
            continue
        made = None
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            made = s.targets[0].id if _makes_frame(s.value, pandas, functions, frames) else None
        for n in ast.walk(s):
            bound = None
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                bound = n.id
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound = n.name
            elif isinstance(n, (ast.Global, ast.Nonlocal)):
                for g in n.names:
                    frames.discard(g)
                    pandas.discard(g)
                    functions.pop(g, None)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                return None                     # an import inside a block: not followed
            if bound is not None:
                frames.discard(bound)
                pandas.discard(bound)
                functions.pop(bound, None)
        if made is not None:
            frames.add(made)
    return pandas if name in frames and not _declared_global(name, statements + list(prefix)) else None


def _makes_frame(value: ast.expr, pandas: set[str], functions: dict[str, str], frames: set[str]) -> bool:
    if not isinstance(value, ast.Call) or any(isinstance(a, ast.Starred) for a in value.args) or \
            any(kw.arg is None for kw in value.keywords):
        return False
    func, keywords = value.func, {kw.arg for kw in value.keywords}
    reader = None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in pandas:
        reader = func.attr if func.attr in _READERS else None
    elif isinstance(func, ast.Name) and func.id in functions:
        reader = functions[func.id]
    if reader is not None:
        return not keywords & _READERS[reader] and (reader != "read_excel" or len(value.args) <= 1)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in frames:
        return func.attr in _FRAME_METHODS and "inplace" not in keywords
    return False


def _declared_global(name: str, statements: list[ast.stmt]) -> bool:
    return any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names
               for s in statements for n in ast.walk(s))


def _read_by_functions(name: str, ran: list[str], tree: ast.Module) -> bool:
    """Does a function, lambda or class the notebook defines use the name (a call of it might
    change the frame)?"""
    trees = [parse(c) for c in ran] + [tree]
    for t in trees:
        for n in ast.walk(t) if t is not None else ():
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)) and \
                    any(isinstance(m, ast.Name) and m.id == name for m in ast.walk(n)):
                return True
    return False


def _reaches_anything(tree: ast.Module) -> bool:
    """exec/eval/globals() or a magic that may define names (IPython's syntax becomes
    get_ipython() calls; `%matplotlib`, `!pip` define none)."""
    receivers = set()       # a magic's own get_ipython(): IPython's syntax, not a call of the cell's
    for n in ast.walk(tree):                # outer calls first: a magic before its receiver
        if not isinstance(n, ast.Call) or id(n) in receivers:
            continue
        if is_magic(n):
            receivers.add(id(n.func.value))
            if magic_name(n) not in QUIET_MAGICS:
                return True
        elif isinstance(n.func, ast.Name) and n.func.id in _ANYTHING:
            return True
    return False


def _live_agrees(namespace, name: str, labels: set, columns: bool) -> bool:
    """With a kernel: its object of that name is a pandas DataFrame lacking the labels (a name it
    does not hold, or one whose labels cannot be read, is left to the text)."""
    if not isinstance(namespace, Mapping) or name not in namespace:
        return True
    pd = sys.modules.get("pandas")
    frame = namespace[name]
    if pd is None or type(frame) is not pd.DataFrame:
        return False
    from .items import plain_labels
    axis = frame.columns if columns else frame.index
    if len(axis) > _MAX_LABELS or not plain_labels(axis, pd):
        return True                              # unread: the text's proof stands
    return not any(label in axis for label in labels)
