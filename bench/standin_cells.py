"""What bench/notebook_standins.py reads of the earlier cells: cells as Python (magics commented
out), the names they bind and how, the real objects their imports name, and the functions and
classes their source defines where executing it is safe.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import importlib.util
import re
import sys
from dataclasses import dataclass

from standin_values import Opaque


# -- cells as Python --------------------------------------------------------------------------------

_MAGIC = re.compile(r"^([ \t]*)([%!].*)$")


def comment_magics(source: str) -> str:
    """The cell for a plain-Python linter: IPython magic and shell lines commented out (a cell
    magic's first line too), `x = !cmd` / `x = %magic` too; line numbers kept."""
    out = []
    for line in source.split("\n"):
        m = _MAGIC.match(line)
        if m or re.match(r"^[ \t]*[\w.]+[ \t]*=[ \t]*[%!](?!=)", line) or re.match(r"^[ \t]*[\w.]+\?{1,2}[ \t]*$", line):
            indent = re.match(r"^[ \t]*", line).group()
            out.append(f"{indent}# {line[len(indent):]}")
        else:
            out.append(line)
    return "\n".join(out)


def is_python_cell(source: str) -> bool:
    from jupyter_codecheck.pytext.sources import is_python_cell as ipc
    return ipc(source)


def python_source(cell: str) -> str | None:
    """The cell as Python for analysis (IPython syntax through IPython's transformer, a Python
    cell magic's body), or None for a cell in another language."""
    if not is_python_cell(cell):
        return None
    if cell.lstrip().startswith("%%"):
        cell = cell.lstrip().partition("\n")[2]
    try:
        from IPython.core.inputtransformer2 import TransformerManager
        return TransformerManager().transform_cell(cell)
    except Exception:
        return comment_magics(cell)


def _parse(cell: str) -> ast.Module | None:
    src = python_source(cell)
    if src is None:
        return None
    try:
        return ast.parse(src)
    except (SyntaxError, ValueError, RecursionError):
        return None


def used_names(target: str) -> set[str]:
    """Names the cell reads (any scope); every identifier when it does not parse."""
    tree = _parse(target)
    if tree is None:
        return set(re.findall(r"[^\W\d]\w*", target))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


# -- what the earlier cells bind ------------------------------------------------------------------------

@dataclass
class Binding:
    kind: str              # import | from | def | class | other
    node: ast.AST | None   # the statement (def/class/import); None for other
    cell: int
    module: str | None = None     # import: the module; from: the module imported from
    attr: str | None = None       # from: the name imported


def bindings(earlier: list[str]) -> tuple[dict[str, Binding], list[str], bool]:
    """Each name's last module-level binding over the earlier cells, in execution order; the
    modules star-imported; whether some cell could not be read (it then ran nothing: a cell that
    does not parse never runs)."""
    last: dict[str, Binding] = {}
    stars: list[str] = []
    unreadable = False

    def bind_other(name, k):
        last[name] = Binding("other", None, k)

    def targets(node, k):
        """Store/Del names in a statement, not inside nested scopes (comprehensions leak only :=)."""
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                stack.extend(x for x in ast.walk(n) if isinstance(x, ast.NamedExpr))
                continue
            if isinstance(n, ast.NamedExpr):
                bind_other(n.target.id, k)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                bind_other(n.id, k)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Del):
                last.pop(n.id, None)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                bind_other(n.name, k)
            elif isinstance(n, ast.MatchAs) and n.name or isinstance(n, ast.MatchStar) and n.name:
                bind_other(n.name, k)
            elif isinstance(n, ast.MatchMapping) and n.rest:
                bind_other(n.rest, k)
            stack.extend(reversed(list(ast.iter_child_nodes(n))))

    def globals_of(fn, k):
        for n in ast.walk(fn):
            if isinstance(n, ast.Global):
                for name in n.names:
                    bind_other(name, k)

    def statements(body, k):
        for st in body:
            if isinstance(st, ast.Import):
                for a in st.names:
                    if a.asname:
                        last[a.asname] = Binding("import", st, k, module=a.name)
                    else:
                        top = a.name.split(".")[0]
                        last[top] = Binding("import", st, k, module=top)
            elif isinstance(st, ast.ImportFrom):
                mod = "." * st.level + (st.module or "")
                for a in st.names:
                    if a.name == "*":
                        stars.append(mod)
                        for name in _star_names(mod):
                            last[name] = Binding("from", st, k, module=mod, attr=name)
                    else:
                        last[a.asname or a.name] = Binding("from", st, k, module=mod, attr=a.name)
            elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                targets_of_decorators = st.decorator_list + st.args.defaults + [d for d in st.args.kw_defaults if d]
                for d in targets_of_decorators:
                    targets(d, k)
                last[st.name] = Binding("def", st, k)
                globals_of(st, k)
            elif isinstance(st, ast.ClassDef):
                last[st.name] = Binding("class", st, k)
            elif isinstance(st, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
                                 getattr(ast, "TryStar", ast.Try))):
                head = [getattr(st, a) for a in ("test", "target", "iter") if getattr(st, a, None) is not None]
                head += [i for i in getattr(st, "items", [])]
                for h in head:
                    targets(h, k)
                statements(getattr(st, "body", []), k)
                for h in getattr(st, "handlers", []):
                    if h.name:
                        bind_other(h.name, k)
                    statements(h.body, k)
                statements(getattr(st, "orelse", []), k)
                statements(getattr(st, "finalbody", []), k)
            elif isinstance(st, ast.Match):
                targets(st.subject, k)
                for case in st.cases:
                    targets(case.pattern, k)
                    statements(case.body, k)
            else:
                targets(st, k)

    for k, cell in enumerate(earlier):
        if not cell.strip() or not is_python_cell(cell):
            continue
        tree = _parse(cell)
        if tree is None:
            unreadable = True
            continue
        statements(tree.body, k)
    return last, stars, unreadable


def _star_names(module: str) -> list[str]:
    mod, _ = _import(module)
    if mod is None:
        return []
    names = getattr(mod, "__all__", None)
    return [n for n in (names if names is not None else dir(mod)) if not n.startswith("_")]


# -- real objects from imports ----------------------------------------------------------------------

def _top(module: str) -> str:
    return module.lstrip(".").split(".")[0]


def _import(module: str):
    """(module, None) or (None, why): a relative or missing module is never guessed."""
    if module.startswith("."):
        return None, "relative import"
    top = _top(module)
    if top in sys.builtin_module_names or top in sys.modules:
        pass
    elif importlib.util.find_spec(top) is None:
        return None, f"missing:{top}"
    try:
        return importlib.import_module(module), None
    except ModuleNotFoundError as e:
        return None, f"missing:{(e.name or top).split('.')[0]}"
    except BaseException as e:       # noqa: BLE001 - an import that fails here is not a fact
        return None, f"import failed: {type(e).__name__}"


def _resolve_binding(b: Binding):
    """The real object an import binding stands for: (object, None) or (None, why)."""
    if b.kind == "import":
        return _import(b.module)
    if b.kind == "from":
        mod, why = _import(b.module)
        if mod is None:
            return None, why
        if hasattr(mod, b.attr):
            try:
                return getattr(mod, b.attr), None
            except Exception as e:   # noqa: BLE001
                return None, f"getattr failed: {type(e).__name__}"
        sub, why = _import(f"{b.module}.{b.attr}")
        return (sub, None) if sub is not None else (None, f"{b.module} has no {b.attr}")
    return None, f"not an import ({b.kind})"


# -- functions and classes from source ---------------------------------------------------------------

_SAFE_METHOD_DECORATORS = {"staticmethod", "classmethod", "property", "abstractmethod", "abc.abstractmethod",
                           "cached_property", "functools.cached_property"}


def _literal(node) -> bool:
    try:
        ast.literal_eval(node)
        return True
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False


def _dotted(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _sanitise_def(fn: ast.FunctionDef | ast.AsyncFunctionDef, opaque_names: list[str]) -> None:
    """Annotations dropped (they run at def time); a non-literal default becomes an opaque
    value bound to a fresh name (the signature keeps the parameter and its having a default)."""
    a = fn.args
    for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
        if arg is not None:
            arg.annotation = None
    fn.returns = None

    def fix(d):
        if d is None or _literal(d):
            return d
        name = f"__standin_default_{len(opaque_names)}"
        opaque_names.append(name)
        return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), d)
    a.defaults = [fix(d) for d in a.defaults]
    a.kw_defaults = [fix(d) for d in a.kw_defaults]


def build_function(node: ast.FunctionDef | ast.AsyncFunctionDef):
    """(function, None) from its def, or (None, why) when running the def is not safe."""
    if node.decorator_list:
        return None, "decorated def"
    import copy
    fn = copy.deepcopy(node)
    opaque_names: list[str] = []
    _sanitise_def(fn, opaque_names)
    # nested defs' annotations and defaults do not run when the outer def runs
    g = {"__name__": "__main__", "__builtins__": builtins, **{n: Opaque(n) for n in opaque_names}}
    mod = ast.Module(body=[fn], type_ignores=[])
    ast.fix_missing_locations(mod)
    try:
        exec(compile(mod, "<earlier cell>", "exec"), g)
    except Exception as e:       # noqa: BLE001
        return None, f"def failed: {type(e).__name__}"
    return g[node.name], None


def build_class(node: ast.ClassDef, resolve):
    """(class, None) from its source when its body holds only defs (with harmless decorators),
    literal assignments, docstrings and pass, and its bases are real classes; else (None, why).
    `resolve(dotted) -> (object, why)` gives a base's real object."""
    if node.decorator_list:
        return None, "decorated class"
    if node.keywords:
        return None, "class keywords (metaclass=...)"
    bases = []
    for b in node.bases:
        name = _dotted(b)
        if name is None:
            return None, "base is an expression"
        obj, why = resolve(name)
        if obj is None:
            return None, f"base {name}: {why}"
        if not isinstance(obj, type):
            return None, f"base {name} is not a class"
        bases.append(obj)
    import copy
    cls = copy.deepcopy(node)
    opaque_names: list[str] = []
    for st in cls.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in st.decorator_list:
                name = _dotted(d)
                if name is None or not (name in _SAFE_METHOD_DECORATORS or
                                        re.fullmatch(r"\w+\.(setter|getter|deleter)", name)):
                    return None, f"method decorator {name or 'expression'}"
            _sanitise_def(st, opaque_names)
        elif isinstance(st, ast.Assign):
            if not all(isinstance(t, ast.Name) for t in st.targets) or not _literal(st.value):
                return None, "class body assignment is not a literal"
        elif isinstance(st, ast.AnnAssign):
            if not isinstance(st.target, ast.Name) or (st.value is not None and not _literal(st.value)):
                return None, "class body assignment is not a literal"
            st.annotation = ast.Constant(value=None)
        elif isinstance(st, ast.Pass) or (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)):
            pass
        else:
            return None, f"class body holds {type(st).__name__}"
    base_names = [f"__standin_base_{k}" for k in range(len(bases))]
    cls.bases = [ast.Name(id=n, ctx=ast.Load()) for n in base_names]
    g = {"__name__": "__main__", "__builtins__": builtins, **dict(zip(base_names, bases)),
         **{n: Opaque(n) for n in opaque_names}}
    for name in ("abstractmethod", "cached_property"):     # the safe decorators, if used bare
        g.setdefault(name, getattr(importlib.import_module("abc" if name == "abstractmethod" else "functools"), name))
    g["abc"] = importlib.import_module("abc")
    g["functools"] = importlib.import_module("functools")
    mod = ast.Module(body=[cls], type_ignores=[])
    ast.fix_missing_locations(mod)
    try:
        exec(compile(mod, "<earlier cell>", "exec"), g)
    except Exception as e:       # noqa: BLE001
        return None, f"class failed: {type(e).__name__}"
    return g[node.name], None
