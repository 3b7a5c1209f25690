"""The cell bench/mutations.py mutates: its text, tree, the names it binds and the live objects
its uses reach (read without running it), and the helpers the operators share (typos, literals,
a frame's text columns).
"""
from __future__ import annotations

import ast
import inspect
import keyword
import random
import string
import sys
import warnings
from collections.abc import Mapping
from dataclasses import asdict, dataclass

# the estimator methods scikit-learn validates X of (as facts/values.py's TAKES_X)
TAKES_X = frozenset({"fit", "partial_fit", "fit_transform", "fit_predict", "predict", "predict_proba",
                     "predict_log_proba", "decision_function", "transform", "score"})
_MISSING = object()
_TEXT_SAMPLE = 50


@dataclass
class Mutant:
    kind: str
    source: str              # the cell the mutant runs
    line: int                # the change (a prelude's: the use it breaks), 1-based in `source`
    column: int              # 0-based characters
    change: str              # what changed, e.g. "'price' -> 'prcie'"
    prelude: str = ""        # what an earlier cell did, run before the facts are read
    reach: str = "live"      # live: the object changed is a name's or a chain's from one; changed:
    #                          so, but the cell stores into it first; derived: a call's result or
    #                          an expression's, or a name the cell binds (in-cell propagation)

    def to_dict(self) -> dict:
        return asdict(self)


# -- the cell: its text, tree and live objects --------------------------------------------------

class _Cell:
    def __init__(self, source: str, tree: ast.Module, namespace: Mapping, hidden, bound: Mapping | None = None):
        self.source, self.tree, self.ns, self.bound = source, tree, namespace, bound or {}
        self.hidden = set(hidden)
        self.lines = source.split("\n")
        self.parents: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
        deferred = set()                      # nodes inside a def, lambda or class: they run later
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                deferred.update(id(n) for n in ast.walk(node))
        self.nodes = [n for n in ast.walk(tree) if id(n) not in deferred]
        self.stored: dict[str, int] = {}     # a name the cell binds -> the first line it does
        for node in ast.walk(tree):
            for name, line in _bindings(node):
                self.stored[name] = min(self.stored.get(name, line), line)
        self.changed: dict[str, int] = {}    # a name whose object the cell stores into or deletes from
        for node in ast.walk(tree):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
                name = _root_name(node)
                if name:
                    self.changed[name] = min(self.changed.get(name, node.lineno), node.lineno)

    @classmethod
    def read(cls, source: str, namespace: Mapping, hidden, bound: Mapping | None = None) -> _Cell | None:
        """The cell when it is Python (line magics and all) whose lines IPython keeps in place."""
        from jupyter_codecheck.pytext.pycheck import python_code
        if source.lstrip().startswith("%%"):
            return None
        code = python_code(source)
        if code.rstrip("\n").count("\n") != source.rstrip("\n").count("\n"):
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(code)
        except (SyntaxError, ValueError, RecursionError):
            return None
        cell = cls(source, tree, namespace, hidden, bound)
        cell.code_lines = code.split("\n")
        return cell

    # text

    def span(self, node: ast.AST) -> tuple[int, int] | None:
        """The node's character offsets in the source; None where its lines are not the cell's
        own text (a magic IPython rewrote)."""
        for ln in range(node.lineno, node.end_lineno + 1):
            if ln > len(self.lines) or ln > len(self.code_lines) or self.lines[ln - 1] != self.code_lines[ln - 1]:
                return None
        return self._offset(node.lineno, node.col_offset), self._offset(node.end_lineno, node.end_col_offset)

    def _offset(self, line: int, byte_col: int) -> int:
        text = self.lines[line - 1]
        col = len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))
        return sum(len(x) + 1 for x in self.lines[:line - 1]) + col

    def text(self, node: ast.AST) -> str | None:
        s = self.span(node)
        return None if s is None else self.source[s[0]:s[1]]

    def replace(self, node: ast.AST, new: str, kind: str, change: str, reach: str = "live") -> Mutant | None:
        s = self.span(node)
        if s is None:
            return None
        out = self.source[:s[0]] + new + self.source[s[1]:]
        line, col = self.where(s[0])
        return Mutant(kind, out, line, col, change, reach=reach)

    def where(self, offset: int) -> tuple[int, int]:
        before = self.source[:offset]
        return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1)

    def at(self, node: ast.AST) -> tuple[int, int]:
        s = self.span(node)
        return self.where(s[0]) if s else (node.lineno, node.col_offset)

    # objects

    def live(self, node: ast.AST, before: bool = False):
        """The object a chain of names, attributes and literal keys stands for, or _MISSING: a name
        the cell binds before the use stands for what the cell left in it (`bound`; never with
        `before`: the objects as the cell starts)."""
        if isinstance(node, ast.Name):
            if node.id in self.stored and self.stored[node.id] <= node.lineno:
                return _MISSING if before else self.bound.get(node.id, _MISSING)
            return self.ns.get(node.id, _MISSING)
        if isinstance(node, ast.Attribute):
            return _attribute(self.live(node.value, before), node.attr)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            base, key = self.live(node.value, before), node.slice.value
            if type(base) is dict:
                return base.get(key, _MISSING)
            if _frame(base) is not None and isinstance(key, str) and key in _str_columns(base):
                return base[key]
        return _MISSING

    def root(self, node: ast.AST):
        """The live object a chain of attributes, subscripts and calls starts from."""
        while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
            node = node.func if isinstance(node, ast.Call) else node.value
        return self.live(node) if isinstance(node, ast.Name) else _MISSING

    def reach(self, node: ast.AST) -> str:
        """live: the objects as the cell starts hold it; changed: they do, but the cell stores into
        or deletes from it on an earlier line; derived: the cell computes it."""
        if self.live(node, before=True) is _MISSING:
            return "derived"
        name = _root_name(node)
        return "changed" if name in self.changed and self.changed[name] < node.lineno else "live"

    def statement(self, node: ast.AST) -> ast.stmt:
        """The top-level statement holding the node."""
        while id(node) in self.parents and not isinstance(self.parents[id(node)], ast.Module):
            node = self.parents[id(node)]
        return node

    def stored_key(self, node: ast.AST) -> bool:
        """Is the node part of the key of a subscript stored to (`df["new"] = ...`, `df.loc[:, "c"] = ...`)?"""
        child, parent = node, self.parents.get(id(node))
        while parent is not None and not isinstance(parent, ast.stmt):
            if isinstance(parent, ast.Subscript) and child is parent.slice and not isinstance(parent.ctx, ast.Load):
                return True
            child, parent = parent, self.parents.get(id(parent))
        return False

    def estimator_call(self, node: ast.AST) -> bool:
        """`est.fit(X, ...)` (any method of TAKES_X) with `est` an estimator: live, or made by a
        live estimator class in the same expression."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TAKES_X
                and node.args and not isinstance(node.args[0], ast.Starred)):
            return False
        receiver = node.func.value
        obj = self.live(receiver)
        if obj is _MISSING and isinstance(receiver, ast.Call):
            cls = self.live(receiver.func)
            return isinstance(cls, type) and _is_estimator_class(cls)
        return obj is not _MISSING and _is_estimator_class(type(obj))


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _bindings(node: ast.AST):
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        yield node.id, node.lineno
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name, node.lineno
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for a in node.names:
            yield (a.asname or a.name.split(".")[0]), node.lineno
    elif isinstance(node, ast.arg):
        yield node.arg, node.lineno


def _is_library(obj) -> bool:
    from jupyter_codecheck.facts.libraries import is_library_object
    try:
        return is_library_object(obj)
    except Exception:  # noqa: BLE001 - an odd object is nobody's library
        return False


def _attribute(base, attr: str):
    """`base.attr` where reading it runs no user code: a static value, or a library object's own."""
    if base is _MISSING:
        return _MISSING
    try:
        value = inspect.getattr_static(base, attr, _MISSING)
    except Exception:  # noqa: BLE001
        return _MISSING
    plain = value is not _MISSING and not hasattr(type(value), "__get__")
    if plain or issubclass(type(base), type(sys)):
        return value
    if not _is_library(base):
        return _MISSING                         # a property of the user's would run
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(base, attr)
    except Exception:  # noqa: BLE001
        return _MISSING


def _package(obj) -> str | None:
    """The top-level package a module, or an object's class, belongs to."""
    if obj is _MISSING:
        return None
    if issubclass(type(obj), type(sys)):
        name = obj.__dict__.get("__name__")
    else:
        from jupyter_codecheck.facts.libraries import _module_of
        name = _module_of(obj)
    return name.split(".")[0] if isinstance(name, str) else None


def _is_estimator_class(cls: type) -> bool:
    return all(inspect.getattr_static(cls, a, None) is not None for a in ("fit", "get_params"))


def _frame(obj):
    pd = sys.modules.get("pandas")
    return obj if pd is not None and issubclass(type(obj), pd.DataFrame) else None


def _series(obj):
    pd = sys.modules.get("pandas")
    return obj if pd is not None and issubclass(type(obj), pd.Series) else None


def _array(obj):
    """A numpy ndarray of numbers."""
    np = sys.modules.get("numpy")
    return obj if np is not None and type(obj) is np.ndarray and obj.dtype.kind in "biufc" else None


def _str_columns(df) -> set[str]:
    return {c for c in df.columns if isinstance(c, str)}


def _text_columns(df) -> list[str]:
    """Columns holding words (strings that are not numbers): what a model cannot take as numbers."""
    out = []
    for c in _str_columns(df):
        col = df[c]
        if _series(col) is None or col.dtype.kind not in "OU" and str(col.dtype) not in ("string", "str"):
            continue
        values = col.dropna().head(_TEXT_SAMPLE).tolist()
        if values and all(isinstance(v, str) for v in values) and any(not _number(v) for v in values):
            out.append(c)
    return sorted(out)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _typo(word: str, rng: random.Random, taken, identifier: bool = True) -> str | None:
    """`word` with one edit (a letter dropped, doubled, swapped with the next or replaced), not
    the first letter, into a word not among `taken`."""
    if len(word) < 2:
        return None
    for _ in range(30):
        i = rng.randrange(1, len(word))
        edit = rng.choice(("drop", "double", "swap", "replace"))
        if edit == "drop":
            new = word[:i] + word[i + 1:]
        elif edit == "double":
            new = word[:i] + word[i] + word[i:]
        elif edit == "swap" and i + 1 < len(word):
            new = word[:i] + word[i + 1] + word[i] + word[i + 2:]
        else:
            new = word[:i] + rng.choice(string.ascii_lowercase) + word[i + 1:]
        if new != word and new not in taken and (not identifier or new.isidentifier() and not keyword.iskeyword(new)):
            return new
    return None


def _literal(value: str, like: str) -> str:
    """A string literal with the quotes of `like` (a literal's text in the cell)."""
    quote = like.lstrip("rbuRBUfF")[:1] or "'"
    return quote + value + quote if quote not in value and "\\" not in value and "\n" not in value else repr(value)


def _atom(text: str, node: ast.AST) -> str:
    """`text` as an operand of `.T` or `[...]`."""
    return text if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({text})"
