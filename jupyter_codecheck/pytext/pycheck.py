"""Python's own checks on a cell: does it parse, which names are undefined, where its data is.

They are exact and cheap, so they do two jobs: they make the static findings (severity "error":
a syntax error, an undefined name) and they gate every candidate fix the model proposes (a fix
may not break parsing, add an unknown name or touch the user's numbers, strings and comments).

IPython syntax (magics, `!shell`, `x = !cmd`) is read through IPython's own input transformer,
which keeps the line numbers of a cell without a cell magic.
"""
from __future__ import annotations

import ast
import builtins
import io
import keyword
import re
import tokenize
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from .automagic import automagic
from .pysource import IDENT, byte_offsets

# a notebook cell may `await` at the top level
COMPILE_FLAGS = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT

# names IPython puts in a kernel's namespace
IPYTHON_NAMES = frozenset({"display", "get_ipython", "In", "Out", "exit", "quit", "_", "__", "___",
                           "_i", "_ii", "_iii", "_ih", "_oh", "_dh"})
_IPYTHON_HISTORY = re.compile(r"^_i?\d+$")
_IDENT = IDENT
_AFTER_DOT = re.compile(r"\.\s*(" + IDENT.pattern + ")")
# a magic or shell line may bind names (`%time x = 1`, `%%capture out`) that Python cannot see
_MAGIC_LINE = re.compile(r"^[ \t]*[%!][^\n]*", re.M)
_DATA_TYPES = frozenset({tokenize.STRING, tokenize.NUMBER, tokenize.COMMENT,
                         getattr(tokenize, "FSTRING_START", -1), getattr(tokenize, "FSTRING_MIDDLE", -1),
                         getattr(tokenize, "FSTRING_END", -1)})


@dataclass(frozen=True)
class SyntaxProblem:
    line: int            # 1-based
    column: int          # 0-based
    message: str


@dataclass(frozen=True)
class UndefinedName:
    name: str
    line: int
    column: int


@dataclass
class CellFacts:
    """What Python says about one cell (and the names its earlier cells define)."""
    source: str
    syntax: SyntaxProblem | None
    undefined: list[UndefinedName]
    scope: frozenset[str]          # names a fix may use: defined here or earlier, builtins, IPython's
    locals: frozenset[str]         # names this cell binds (variables, parameters, functions, imports)
    identifiers: frozenset[str]    # every identifier written in the cell or its context
    # the identifiers it writes after a dot (`x.name`): the attribute names the code shows
    attributes: frozenset[str] = frozenset()
    data: list[tuple[int, int, int]] = field(default_factory=list)  # (start, end, type): byte spans
    display_spans: list[tuple[int, int]] = field(default_factory=list)  # list/tuple/set/dict literals
    defined_spans: list[tuple[int, int]] = field(default_factory=list)  # names being defined here
    # names bound only to an instance of a known standard class (`counts = Counter(words)`)
    classes: dict[str, type] = field(default_factory=dict)
    # names defined outside the cell as Python scopes them (earlier cells' module level, `names`,
    # IPython's): the exact gate's; None when a star import makes them unknowable
    outside: frozenset[str] | None = None
    stdlib_imports: frozenset[str] = frozenset()     # `import sys` at the cell's top level, stdlib only
    live: Mapping | None = None     # a kernel's namespace when one was given (name -> object)
    # the kernel facts of the cell as written (the check's own read of them, else the gate's),
    # for every candidate the gates weigh
    live_facts: tuple | None = None
    # a notebook cell: its last statement, when an expression, is the cell's shown value
    shows_last: bool = False

    @property
    def parses(self) -> bool:
        return self.syntax is None

    def touches_data(self, start: int, end: int) -> bool:
        """Does the byte span [start, end) overlap a number, string or comment? An insertion
        (start == end) touches one only strictly inside it."""
        for a, b, _ in self.data:
            if (start < b and end > a) if end > start else (a < start < b):
                return True
        return False

    def defines(self, start: int, end: int) -> bool:
        """Does the span overlap a name being defined (def/class name, parameter, target)?"""
        return any(start < b and end > a for a, b in self.defined_spans)

    def in_display(self, start: int, end: int) -> bool:
        return any(a <= start and end <= b for a, b in self.display_spans)

    def module_of(self, name: str):
        """The standard-library module `name` stands for, if the cell imports it as itself
        (`import sys`; never the user's modules, never a name rebound); else None."""
        return _stdlib_module(name) if name in self.stdlib_imports else None

    def touches_display(self, start: int, end: int) -> bool:
        """Does the span overlap a list/tuple/set/dict literal (an insertion: lie inside one)?"""
        return any((start < b and end > a) if end > start else (a < start < b) for a, b in self.display_spans)


# what IPython's input transformer could act on: escapes and prompts at a line's start, `?`,
# `x = %magic` / `x = !cmd`, a `!` that is not `!=`, and leading blank lines or indentation. Text
# with none of them is plain Python, and a new process then need not import IPython at all
_IPYTHON_SYNTAX = re.compile(r"^[ \t]*(?:[%!?/,;]|>>>|\.\.\.|In \[)|\?|=[ \t]*[%!]|!(?!=)", re.M)


def python_code(source: str) -> str:
    """The cell as Python: IPython syntax turned into calls (same line numbers without a cell magic)."""
    if not _IPYTHON_SYNTAX.search(source) and not source[:1].isspace():
        return source if source.endswith("\n") else source + "\n"    # as the transformer returns it
    try:
        transformer = _transformer()
    except ImportError:       # plain Python: a magic line is a syntax error there anyway
        return source
    try:
        # a cell with a line separator IPython does not expect (\x1c, \u2028) makes it warn
        # about its own line splitting: noise to the user, whose cell is judged as written
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", ".*make_tokens_by_line", UserWarning)
            return transformer.transform_cell(source)
    except Exception:         # the transformer gives up on some broken code: judge it as written
        return source


@lru_cache(maxsize=1)
def _transformer():
    from IPython.core.inputtransformer2 import TransformerManager
    return TransformerManager()


def compile_tree(code: str | bytes) -> ast.Module:
    # the user's code is checked, not run: its SyntaxWarnings (`1if x`) are not ours to print
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(code, "<cell>", "exec", COMPILE_FLAGS, dont_inherit=True)


def syntax_problem(source: str) -> SyntaxProblem | None:
    """The first syntax error of the cell (as IPython would run it), or None."""
    try:
        compile_tree(python_code(source))
    except SyntaxError as e:
        return SyntaxProblem(e.lineno or 1, max((e.offset or 1) - 1, 0), e.msg)
    except (ValueError, RecursionError, MemoryError) as e:
        return SyntaxProblem(1, 0, str(e))
    return None


def parse(source: str) -> ast.Module | None:
    try:
        return compile_tree(python_code(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def undefined_names(tree: ast.Module, known: frozenset[str], namespace=None) -> list[UndefinedName] | None:
    """pyflakes' undefined names of a parsed cell, given the names defined before it; None when a
    star import makes every name possibly defined. A branch a version test shuts on this Python
    (`if sys.version_info < (3,):`, versions.py) has none: it never runs."""
    from pyflakes import checker, messages
    from .versions import dead_spans
    w = checker.Checker(tree, filename="<cell>", builtins=set(known))
    out = []
    never_run = _string_annotations(tree) + dead_spans(tree, namespace)
    for m in w.messages:
        if isinstance(m, messages.ImportStarUsage):
            return None
        if isinstance(m, messages.UndefinedName):
            name = m.message_args[0]
            if not _IPYTHON_HISTORY.match(name) and not any(a <= (m.lineno, m.col) < b for a, b in never_run):
                out.append(UndefinedName(name, m.lineno, m.col))
    return out


# an empty container's methods that read it, as a loop's iterable or anywhere else in the cell
_READING = frozenset({"items", "keys", "values", "get", "copy", "count", "index"})
_EMPTY_KINDS = (dict, list, tuple, set, frozenset, str)


def never_run_loops(tree: ast.Module, namespace: Mapping) -> list[ast.For | ast.AsyncFor]:
    """The `for` loops whose body never runs in this kernel: the iterable is a name the kernel
    binds to an empty dict, list, tuple, set or str (of exactly that builtin class, so `len`
    runs nothing of the user's), or such a dict's `items()`, `keys()` or `values()`, and the
    cell neither rebinds the name, stores into it, calls another method of it nor passes it to
    a call (a function of the user's that fills the container is not seen: a crash missed,
    never a false one)."""
    loops = []
    bound = {t.id for t in ast.walk(tree) if isinstance(t, ast.Name) and not isinstance(t.ctx, ast.Load)}
    for n in all_nodes(tree):
        if not isinstance(n, (ast.For, ast.AsyncFor)):
            continue
        it, given = n.iter, None
        # `zip(a, b)` runs as often as its shortest, `enumerate(a)` as a: a given there is read only
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("zip", "enumerate") and \
                it.func.id not in namespace and it.func.id not in bound and \
                not any(isinstance(a, ast.Starred) for a in it.args):
            args = it.args if it.func.id == "zip" else it.args[:1]
            it = next((a for a in args if isinstance(a, ast.Name) and a.id in namespace and _empty(namespace[a.id])), it)
            given = it
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and \
                it.func.attr in ("items", "keys", "values") and not it.args and not it.keywords:
            it = it.func.value
        if isinstance(it, ast.Name) and it.id in namespace and _empty(namespace[it.id]) and \
                not _touched(tree, it.id, given):
            loops.append(n)
    return loops


def _empty(obj) -> bool:
    return type(obj) in _EMPTY_KINDS and len(obj) == 0


def parent_map(tree: ast.AST) -> dict[int, ast.AST]:
    """Each node's parent in `tree`, by the node's id."""
    return {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}


def _touched(tree: ast.Module, name: str, given: ast.AST | None = None) -> bool:
    """Does the cell rebind `name`, store into it, call a method of it that may change it, pass it
    to a call (but for `given`, a use known to only read it), or declare it global in a function?"""
    parents = parent_map(tree)
    for n in ast.walk(tree):
        if isinstance(n, ast.Global) and name in n.names:
            return True
        if not (isinstance(n, ast.Name) and n.id == name) or n is given:
            continue
        if not isinstance(n.ctx, ast.Load):
            return True
        parent = parents.get(id(n))
        if isinstance(parent, ast.Call) and n is not parent.func:
            return True                     # passed to a call
        if isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is n and \
                not isinstance(parent.ctx, ast.Load):
            return True                     # `d["k"] = v`, `d.x = v`
        if isinstance(parent, ast.Attribute) and parent.attr not in _READING:
            return True                     # `d.update(...)`, `xs.append(...)`
    return False


def _string_annotations(tree: ast.Module) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Spans of the strings in annotations (`y: "Model" = ...`, `list["Model"]`): Python keeps
    them as text and never evaluates them."""
    annotations = []
    for n in ast.walk(tree):
        if isinstance(n, ast.AnnAssign):
            annotations.append(n.annotation)
        elif isinstance(n, ast.arg) and n.annotation is not None:
            annotations.append(n.annotation)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns is not None:
            annotations.append(n.returns)
    return [((c.lineno, c.col_offset), (c.end_lineno, c.end_col_offset))
            for a in annotations for c in ast.walk(a) if isinstance(c, ast.Constant) and isinstance(c.value, str)]


def bound_names(tree: ast.AST) -> tuple[set[str], bool]:
    """Every name a cell binds anywhere (over-inclusive on purpose: a name bound inside a function
    is rarely the wrong one to suggest), and whether it star-imports."""
    names, star = set(), False
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if a.name == "*":
                    star = True
                else:
                    names.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.MatchAs) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchStar) and node.name:
            names.add(node.name)
    return names, star


def context_names(context) -> tuple[frozenset[str], bool]:
    """Names the earlier cells define, and whether any of them star-imports or cannot be read
    (then no name can be called undefined with certainty)."""
    names: set[str] = set()
    unsure = False
    for cell in context or ():
        e = _earlier_cell(cell)
        names |= e.magic_words | e.bound
        unsure |= e.unsure
    return frozenset(names), unsure


def module_names(context) -> frozenset[str] | None:
    """Names the earlier cells bind at module level, as Python scopes them (a function's own names
    and parameters are not the notebook's); None when a star import of a module outside the
    standard library makes them unknowable."""
    names: set[str] = set()
    for cell in context or ():
        e = _earlier_cell(cell)
        if e.module_bound is None:
            return None
        names |= e.magic_words | e.module_bound
    return frozenset(names)


@dataclass(frozen=True)
class _EarlierCell:
    magic_words: frozenset[str]     # what magics bind is theirs to say: every word of their lines
    bound: frozenset[str]           # every name bound anywhere (every word, if it does not parse)
    unsure: bool                    # it star-imports or cannot be read
    module_bound: frozenset[str] | None     # bound at module level; None: a star import of the unknown


@lru_cache(maxsize=1024)
def _earlier_cell(cell: str) -> _EarlierCell:
    """What one earlier cell defines (kept per text: a notebook's next check reads the same cells).
    A cell magic's body (`%%time`) counts as Python if it is; `%%bash` and the like bind nothing."""
    words = frozenset(w for m in _MAGIC_LINE.findall(cell) for w in _IDENT.findall(m))
    magic_body = cell.lstrip().startswith("%%")
    if magic_body:
        cell = cell.lstrip().partition("\n")[2]
    tree = parse(cell)
    if tree is None:
        every = frozenset() if magic_body else frozenset(_IDENT.findall(cell))
        return _EarlierCell(words, every, not magic_body, every)
    bound, star = bound_names(tree)
    module, stars = _module_bound(tree)
    for name in stars:
        exported = _stdlib_exports(name)
        if exported is None:
            return _EarlierCell(words, frozenset(bound), True, None)
        module |= exported
    return _EarlierCell(words, frozenset(bound), star, frozenset(module))


def _module_bound(tree: ast.Module) -> tuple[set[str], list[str]]:
    """Names bound in a module's own scope, and the modules it star-imports."""
    names: set[str] = set()
    stars: list[str] = []
    todo = list(ast.iter_child_nodes(tree))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            names.update(n for g in ast.walk(node) if isinstance(g, ast.Global) for n in g.names)
            todo.extend(node.decorator_list)
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # a comprehension's `:=` binds in the module (`[y := f(x) for x in xs]`)
            names.update(n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr))
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if a.name == "*":
                    relative = isinstance(node, ast.ImportFrom) and node.level
                    stars.append("" if relative else getattr(node, "module", None) or "")
                else:
                    names.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        todo.extend(ast.iter_child_nodes(node))
    return names, stars


def _stdlib_imports(tree: ast.Module) -> frozenset[str]:
    """Standard-library modules imported by their own name (`import sys`, not `import x as y`)
    at module level, and never rebound in the cell."""
    import sys
    imported = {a.name for node in tree.body if isinstance(node, ast.Import) for a in node.names
                if a.asname is None and "." not in a.name and a.name in sys.stdlib_module_names}
    rebound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return frozenset(imported - rebound)


@lru_cache(maxsize=64)
def _stdlib_exports(module: str) -> frozenset[str] | None:
    """What `from module import *` binds, for a standard-library module; None for any other."""
    mod = _stdlib_module(module)
    if mod is None:
        return None
    return frozenset(getattr(mod, "__all__", None) or (n for n in dir(mod) if not n.startswith("_")))


def _stdlib_module(name: str):
    """The standard-library module `name`, imported; None for any other module (never the user's
    code: importing it could run anything) or one that does not import here (no knowledge, no
    gate)."""
    import importlib
    import sys
    if not name or name.split(".")[0] not in getattr(sys, "stdlib_module_names", ()):
        return None
    try:
        return importlib.import_module(name)
    except Exception:  # noqa: BLE001 - an odd stdlib module
        return None


def _target_spans(tree: ast.Module, source: str) -> list[tuple[int, int]]:
    """Byte spans of every name the AST binds (`first, *rest = ...` included, and the attribute
    an assignment defines: `self.total = 0`), exactly; of every signature outside its default
    values (a fix never adds, drops or reorders a parameter: every call would break); and of
    type annotations (they change no behaviour a fix could repair)."""
    at = byte_offsets(source)
    data = source.encode("utf-8")
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            end = at(node.end_lineno, node.end_col_offset)
            out.append((end - len(node.attr.encode("utf-8")), end))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out += _signature_spans(node, data, at)
        elif isinstance(node, ast.AnnAssign):    # `total: int = 0`: the annotation is no behaviour
            a = node.annotation
            out.append((at(a.lineno, a.col_offset), at(a.end_lineno, a.end_col_offset)))
        if isinstance(node, (ast.Name, ast.Starred)) and isinstance(node.ctx, ast.Store):
            # a starred target's `*` is part of what it binds (`first, *rest = xs`)
            out.append((at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset)))
        elif isinstance(node, ast.arg):
            a = at(node.lineno, node.col_offset)
            out.append((a, a + len(node.arg.encode("utf-8"))))
    return out


def _signature_spans(node, data: bytes, at) -> list[tuple[int, int]]:
    """The span from a def's `(` to its `)`, less its default values (the code a bug may be in)."""
    opened = data.find(b"(", at(node.lineno, node.col_offset))
    after = node.returns or node.body[0]
    closed = data.rfind(b")", opened, at(after.lineno, after.col_offset))
    if opened < 0 or closed < 0:
        return []
    spans, start = [], opened
    defaults = [d for d in (*node.args.defaults, *node.args.kw_defaults) if d is not None]
    for d in sorted(defaults, key=lambda d: (d.lineno, d.col_offset)):
        spans.append((start, at(d.lineno, d.col_offset)))
        start = at(d.end_lineno, d.end_col_offset)
    spans.append((start, closed + 1))
    if node.returns is not None:         # `-> float`: an annotation, no behaviour to fix
        spans.append((at(node.returns.lineno, node.returns.col_offset),
                      at(node.returns.end_lineno, node.returns.end_col_offset)))
    return spans


def instance_classes(tree: ast.Module) -> dict[str, type]:
    """Names the cell binds only to `C(...)` where C is a builtin or a class imported from the
    standard library (`from collections import Counter`): their attributes are known. Only
    standard-library modules are imported, never the user's."""
    imported: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                imported[a.asname or a.name] = (node.module, a.name)
    calls: dict[str, set] = {}
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr)) else []
        for t in targets:
            if isinstance(t, ast.Name):
                value = getattr(node, "value", None)
                func = value.func if isinstance(node, ast.Assign) and isinstance(value, ast.Call) else None
                calls.setdefault(t.id, set()).add(func.id if isinstance(func, ast.Name) else None)
    out = {}
    for name, funcs in calls.items():
        if len(funcs) != 1 or None in funcs:
            continue
        cls = _known_class(next(iter(funcs)), imported)
        if cls is not None:
            out[name] = cls
    return out


def _known_class(name: str, imported: dict) -> type | None:
    if name in imported:
        module, attr = imported[name]
        mod = _stdlib_module(module)
        obj = None if mod is None else getattr(mod, attr, None)
    else:
        obj = getattr(builtins, name, None)
    return obj if isinstance(obj, type) else None


def data_spans(source: str) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
    """Byte spans of the cell's numbers, strings and comments (the user's data), and of its
    collection literals (`[...]`, `(a, b)`, `{...}` that are not calls, subscripts or blocks)."""
    at = byte_offsets(source)
    data, displays, stack = [], [], []
    prev = None
    try:
        for t in tokenize.generate_tokens(io.StringIO(source).readline):
            if t.type in _DATA_TYPES:
                data.append((at(*t.start), at(*t.end), t.type))
            if t.type == tokenize.OP and t.string in "([{":
                # a bracket after a name, a closing bracket or a string is a call or subscript
                opens_display = not (prev is not None and (
                    prev.type in (tokenize.NAME, tokenize.STRING) and not keyword.iskeyword(prev.string)
                    or prev.string in (")", "]", "}")))
                stack.append((at(*t.start), opens_display))
            elif t.type == tokenize.OP and t.string in ")]}" and stack:
                start, is_display = stack.pop()
                if is_display:
                    displays.append((start, at(*t.end)))
            if t.type not in (tokenize.NL, tokenize.COMMENT):
                prev = t
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return data, displays


def analyse(source: str, context=None, names=None) -> CellFacts:
    """Python's view of a cell: syntax error, undefined names, scope, data spans. `names`: names
    defined before it beyond what the `context` cells define (e.g. a kernel's namespace)."""
    given = frozenset(names or ()) | frozenset(w for m in _MAGIC_LINE.findall(source) for w in _IDENT.findall(m))
    magic = isinstance(names, Mapping) and automagic(source, names) is not None
    if magic:                           # the kernel runs the line as a magic, not as Python
        given |= frozenset(_IDENT.findall(source))
    if isinstance(names, Mapping):
        given |= _live_builtins(names)
        # a kernel's namespace is what is defined: an earlier cell's text may not have run
        ctx_names, unsure, outside = given, False, frozenset()
    else:
        ctx_names, unsure = context_names(context)
        ctx_names |= given
        outside = module_names(context)
    tree = parse(source)
    syntax = None if tree is not None or magic else syntax_problem(source)
    local: set[str] = set()
    undefined: list[UndefinedName] = []
    if tree is not None:
        local, star = bound_names(tree)
        if not (unsure or star or outside is None):
            # defined is what the earlier cells bind at module level: a function's local is not
            # the notebook's (a name only a function of an earlier cell binds fails here)
            found = undefined_names(tree, outside | given | IPYTHON_NAMES, names)
            undefined = found if found is not None else []
            if isinstance(names, Mapping):      # a name used only where the kernel's data never lets it run
                never = [((b.body[0].lineno, b.body[0].col_offset), (b.body[-1].end_lineno, b.body[-1].end_col_offset))
                         for b in never_run_loops(tree, names)]
                undefined = [u for u in undefined if not any(a <= (u.line, u.column) < z for a, z in never)]
    else:
        local = set(_IDENT.findall(source)) - set(keyword.kwlist)   # unsure: every word may be a name
    scope = frozenset(local) | ctx_names | IPYTHON_NAMES | _builtin_names()
    undefined_set = {u.name for u in undefined}
    scope = scope - undefined_set
    data, displays = data_spans(source)
    words = set(_IDENT.findall(source))
    attributes = set(_AFTER_DOT.findall(source))
    for cell in context or ():
        words.update(_IDENT.findall(cell))
        attributes.update(_AFTER_DOT.findall(cell))
    from .pysource import free_spans      # defined names, comments, strings
    data_set = {(a, b) for a, b, _ in data}
    defined = [sp for sp in free_spans(source) if sp not in data_set]
    classes: dict[str, type] = {}
    if tree is not None and "\n%%" not in "\n" + source.lstrip():
        defined += _target_spans(tree, source)
        classes = instance_classes(tree)
    return CellFacts(source=source, syntax=syntax, undefined=undefined, scope=frozenset(scope),
                     locals=frozenset(local) - undefined_set, identifiers=frozenset(words),
                     attributes=frozenset(attributes),
                     data=data, display_spans=displays, defined_spans=defined, classes=classes,
                     outside=None if outside is None else outside | given | IPYTHON_NAMES,
                     stdlib_imports=_stdlib_imports(tree) if tree is not None else frozenset(),
                     live=names if isinstance(names, Mapping) else None)


def _live_builtins(namespace: Mapping) -> frozenset[str]:
    """The builtins a kernel's namespace sees now: a cell may have added one
    (`builtins.f = ...`), and pyflakes' list was fixed when it was imported."""
    found = namespace.get("__builtins__")
    if type(found) is not dict:
        found = getattr(found, "__dict__", None) if type(found) is type(builtins) else None
    return frozenset(k for k in found or () if isinstance(k, str))


@lru_cache(maxsize=1)
def _builtin_names() -> frozenset[str]:
    return frozenset(n for n in dir(builtins) if not n.startswith("_")) | {"__name__", "__file__"}


def walk_skipping(node: ast.AST, skip: tuple[type, ...]):
    """The nodes of `node` that run when it runs: ast.walk's, without the nodes of the `skip`
    kinds below it and what they hold (a function's or lambda's body, a comprehension's)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for name in n._fields:          # ast.iter_child_nodes, inline: a walk runs once a statement
            v = getattr(n, name, None)
            if isinstance(v, ast.AST):
                if not isinstance(v, skip):
                    todo.append(v)
            elif isinstance(v, list):
                todo.extend([c for c in v if isinstance(c, ast.AST) and not isinstance(c, skip)])


def all_nodes(node: ast.AST) -> list[ast.AST]:
    """ast.walk's nodes, in its order, as a list (no generator a node: a walk runs once a statement)."""
    out = [node]
    i = 0
    while i < len(out):
        n = out[i]
        i += 1
        for name in n._fields:
            v = getattr(n, name, None)
            if isinstance(v, ast.AST):
                out.append(v)
            elif isinstance(v, list):
                out.extend([c for c in v if isinstance(c, ast.AST)])
    return out


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Damerau-Levenshtein (optimal string alignment) distance, capped at `limit`."""
    if abs(len(a) - len(b)) >= limit:
        return limit
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) >= limit:
            return limit
        prev2, prev = prev, cur
    return min(prev[-1], limit)


def near_typo(word: str, other: str) -> bool:
    """Could `word` be a slip for `other`? One edit for short words, two from 6 letters on."""
    if word == other or min(len(word), len(other)) < 3:
        return False
    return edit_distance(word, other) <= (1 if len(other) < 6 else 2)


__all__ = ["CellFacts", "SyntaxProblem", "UndefinedName", "analyse", "parse", "syntax_problem", "walk_skipping", "all_nodes",
           "python_code", "undefined_names", "edit_distance", "near_typo"]
