"""The modules a cell's imports stand for, as objects to read: the modules this process has
already imported, and, with `libraries="import"`, installed libraries imported now (their code
runs, never the user's: a module beside the notebook is never imported).

Just before a kernel runs the cell ("leading": the guard's read, the panel's check on run), the
cell's leading imports of installed libraries (`from sklearn.ensemble import
RandomForestRegressor` as the cell's first line) are imported now too: they are the first thing
the cell runs, so importing them a moment early runs nothing the cell would not, and the classes
they bring can be read. A cell only checked, or a candidate edit, imports nothing ("loaded").

Without a kernel (the command line, the pytest plugin) this is all the objects there are:
`import pandas as pd` then `pd.read_csv(..., error_bad_lines=False)` is checked against the
pandas installed here.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from functools import lru_cache
import types
from types import ModuleType

from .libraries import _library_dirs
from .attributes import MISSING, UNKNOWN
from .read_policy import POLICY

POLICIES = ("loaded", "leading", "import")


def module_resolver(policy: str = "loaded", leading: frozenset[str] = frozenset()
                    ) -> Callable[[str], ModuleType | None]:
    """name -> the module `import name` gives here, or None (not known without running code
    this policy does not allow). `leading`: the modules the cell imports before anything else
    (`leading_imports`), imported here under the "leading" policy when they are installed
    libraries'."""
    def resolve(name: str) -> ModuleType | None:
        mod = sys.modules.get(name)
        if isinstance(mod, ModuleType):
            return mod
        if not (policy == "import" or policy == "leading" and name in leading) or not _installed_library(name):
            return None
        try:
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                return importlib.import_module(name)
        except KeyboardInterrupt:
            raise                             # the user's interrupt is theirs, not the library's
        except BaseException:  # noqa: BLE001 - a failing import (SystemExit too): no facts from it
            return None
    resolve.policy = policy             # what importing it allows (missing_import asks a module's `__getattr__`)
    return resolve


def _installed_library(name: str) -> bool:
    """Is the top-level package of `name` installed as a library (site-packages, the standard
    library), so that importing it runs no code of the user's?"""
    top = name.split(".")[0]
    if top in sys.builtin_module_names:
        return True
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    origin = getattr(spec, "origin", None) if spec is not None else None
    if not origin and spec is not None and spec.submodule_search_locations:
        origin = next(iter(spec.submodule_search_locations), None)
    return isinstance(origin, str) and origin.startswith(_library_dirs())


def leading_imports(tree: ast.Module) -> frozenset[str]:
    """The modules the cell's first statements import, before any other statement runs (a
    docstring and `pass`, a `%matplotlib` line's reading, aside): `import a.b` and `from a.b import c`
    name `a.b`, and `a.b.c` in case `c` is a submodule, and their packages (`a`). Relative imports
    are the user's package: never named."""
    out: set[str] = set()
    for i, stmt in enumerate(tree.body):
        if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) or isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Import):
            out.update(a.name for a in stmt.names)
        elif isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module:
            out.add(stmt.module)
            out.update(f"{stmt.module}.{a.name}" for a in stmt.names if a.name != "*")
        else:
            break
    # `import a.b.c` imports `a` and `a.b` first: the cell runs their code before it fails on `c`
    return frozenset(out | {name.rsplit(".", k)[0] for name in out for k in range(1, name.count(".") + 1)})


def imported(node: ast.Import | ast.ImportFrom, resolve) -> dict[str, object]:
    """What an import statement binds, for the names whose objects can be read here."""
    out: dict[str, object] = {}
    if isinstance(node, ast.Import):
        for a in node.names:
            if a.asname:
                mod = resolve(a.name)
                if mod is not None:
                    out[a.asname] = mod
            else:                      # `import a.b` binds `a`
                mod = resolve(a.name.split(".")[0])
                if mod is not None and (a.name == a.name.split(".")[0] or resolve(a.name) is not None):
                    out[a.name.split(".")[0]] = mod
        return out
    if node.level or not node.module:
        return out
    mod = resolve(node.module)
    if mod is None:
        return out
    for a in node.names:
        if a.name == "*":
            continue
        value = POLICY.attribute(mod, a.name)
        if value is MISSING or value is UNKNOWN:
            sub = resolve(f"{node.module}.{a.name}")
            value = sub if sub is not None else None
        if value is not None:
            out[a.asname or a.name] = value
    return out


def module_namespace(cells, policy: str = "loaded") -> dict[str, object]:
    """The modules (and names imported from them) the earlier cells leave bound at module level,
    in order: a later rebinding of the name drops it."""
    ns: dict[str, object] = {}
    for cell in cells or ():
        bound, dropped = _cell_imports(cell, policy)
        for name in dropped:
            ns.pop(name, None)
        ns.update(bound)
    return ns


@lru_cache(maxsize=1024)
def _cell_imports(cell: str, policy: str) -> tuple[dict[str, object], frozenset[str]]:
    """One cell's net effect on module-level names, read once per text (a notebook's every check
    reads the same earlier cells): what its imports leave bound, and the names it leaves bound to
    something else. A module not loaded when first asked stays unknown here: a fact missed, never
    a false one."""
    from ..pytext.pycheck import parse
    tree = parse(cell)
    bound: dict[str, object] = {}
    dropped: set[str] = set()
    for stmt in tree.body if tree is not None else ():
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            got = imported(stmt, module_resolver(policy))
            for a in stmt.names:
                name = a.asname or a.name.split(".")[0]
                bound.pop(name, None)
                dropped.add(name)
            bound.update(got)
            dropped -= set(got)
        else:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                    name = n.id
                elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = n.name
                else:
                    continue
                bound.pop(name, None)
                dropped.add(name)
    return bound, frozenset(dropped)


def _made_when_asked(lazy, name: str) -> bool:
    """Does a library module's own `__getattr__` (deprecations, lazy names) give `name`, or may
    it: anything but AttributeError (what Python's import reads as "no such name")? Library code
    runs, with a name no submodule has (nothing is imported for it), its warnings kept quiet."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            lazy(name)
        except AttributeError:
            return False
        except Exception:  # noqa: BLE001 - its own error: not the import's rule
            return True
    return True


def missing_import(node: ast.ImportFrom, resolve) -> tuple[ast.alias, str, list[str]] | None:
    """`from sklearn.datasets import make_moon`: a name an installed library's loaded module does not
    have, nor a submodule of that name beside it, nor a module `__getattr__` that may make one:
    ImportError (cannot import name 'make_moon' from 'sklearn.datasets'). The module is read, never
    imported here (`resolve` finds it in this process); the package's folders are listed for the
    submodule Python would import. With the module's nearest public name as the fix."""
    import difflib
    import os
    if node.level or not node.module or node.module == "__future__" or not _installed_library(node.module):
        return None
    mod = resolve(node.module)
    if type(mod) is not ModuleType or sys.modules.get(node.module) is not mod:
        return None                     # a module of another class may find names its own way
    own = POLICY.module_members(mod)
    lazy = own.get("__getattr__") if type(own) is dict else None
    if type(own) is not dict or lazy is not None and not (
            type(lazy) is types.FunctionType and POLICY.is_library(lazy) and POLICY.module_of(lazy) == node.module
            and getattr(resolve, "policy", "loaded") != "loaded"):
        return None                     # a `__getattr__` not the module's own, or one that may import: not asked
    folders = own.get("__path__")
    folders = [f for f in folders if type(f) is str] if type(folders) is list else [] if folders is None else None
    if folders is None:
        return None                     # a namespace package's path: read by its own code
    for alias in node.names:
        name = alias.name
        if name == "*" or name.startswith("__") or name in own or f"{node.module}.{name}" in sys.modules:
            continue                    # (a dunder: the module object's own, `__dict__`, `__class__`)
        try:
            beside = any(entry == name or entry.split(".")[0] == name for folder in folders
                         for entry in os.listdir(folder))
        except OSError:
            return None
        if beside or lazy is not None and _made_when_asked(lazy, name):
            continue
        public = sorted(k for k in own if type(k) is str and not k.startswith("_"))
        meant = difflib.get_close_matches(name, public, n=1, cutoff=0.75)
        return alias, f"cannot import name {name!r} from {node.module!r}: ImportError", \
            [m + (f" as {alias.asname}" if alias.asname else "") for m in meant]
    return None


# the finders of Python's own import machinery
_OWN_FINDERS = frozenset({"BuiltinImporter", "FrozenImporter", "PathFinder"})
# libraries' finders that serve only files Python's PathFinder finds on sys.path (pytest's assertion
# rewriting), or a few names of their own (setuptools' distutils hack; six's `six.moves`, wherever a
# library keeps its copy of six: names under that copy's package)
_PATH_FINDERS = {"AssertionRewritingHook": lambda module: (), "DistutilsMetaFinder": lambda module: ("distutils", "pip"),
                 "_SixMetaPathImporter": lambda module: (str(module).split(".")[0],)}


def missing_top_level(path: str, where, alias, node) -> tuple[ast.AST, str, list[str]] | None:
    """`import panda`: a top-level name no finder serves. Only where the finders are Python's own
    (an editable install's finder serves names of its own), every folder of `sys.path` is listed
    (a zip file on it is not: no claim), and the name is no builtin or frozen module."""
    import difflib
    import os
    top = path.split(".")[0]
    for f in sys.meta_path:
        kind = f if issubclass(type(f), type) else type(f)
        module, name = POLICY.class_module(kind), POLICY.class_name(kind)
        if name in _PATH_FINDERS and POLICY.is_library(kind) and top not in _PATH_FINDERS[name](module):
            continue
        if not (name in _OWN_FINDERS and str(module).startswith(("_frozen_importlib", "importlib"))):
            return None
    if top in sys.builtin_module_names or top in sys.modules or _frozen(top):
        return None
    names = set(sys.builtin_module_names)
    for folder in sys.path:
        if type(folder) is not str:
            return None
        folder = folder or os.getcwd()
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return None             # a zip or another file a path hook reads
            continue
        try:
            entries = os.listdir(folder)
        except OSError:
            return None
        for e in entries:
            names.add(e.split(".")[0])
    if top in names:
        return None
    meant = difflib.get_close_matches(top, sorted(n for n in names if n.isidentifier() and not n.startswith("_")),
                                      n=1, cutoff=0.8)
    fixes = []
    if meant and where.lineno == where.end_lineno:
        fixed = meant[0] + path[len(top):]
        if alias is not None:
            fixes = [fixed + (f" as {alias.asname}" if alias.asname else "")] if alias.asname or fixed == meant[0] else []
        else:
            fixes = [ast.unparse(ast.ImportFrom(fixed, node.names, 0))]
    return where, f"No module named {top!r} (no folder of sys.path holds it, nor is it Python's own" + \
        (f"; installed: {meant[0]!r}" if meant else "") + "): ModuleNotFoundError", fixes


def _frozen(name: str) -> bool:
    import importlib.machinery
    try:
        return importlib.machinery.FrozenImporter.find_spec(name) is not None
    except Exception:  # noqa: BLE001 - not answered: counted as found
        return True


def _finders_plain() -> bool:
    """No finder on sys.meta_path but Python's machinery's or an installed library's (another may
    serve any name, one an earlier cell installed)."""
    return not any(not (type(f).__module__ or "").startswith(("_frozen_importlib", "importlib")) and
                   not POLICY.is_library(f if isinstance(f, type) else type(f)) for f in sys.meta_path)


def missing_module(node: ast.Import | ast.ImportFrom, resolve, top_level: bool = False
                   ) -> tuple[ast.AST, str, list[str]] | None:
    """`from matplotlib.patch import Ellipse`, `import sklearn.cross_validation`: a submodule an
    installed library's loaded package does not have: no file or folder of that name in the
    package's folders, no name of the package's own, no loaded module of that name (Python's
    finder searches the package's `__path__`; a module `__getattr__` answers attributes, never
    imports): ModuleNotFoundError. The package is
    read, never imported here; its folders are listed as Python's finder would search them. The
    place: the alias of `import a.b`, the statement of `from a.b import c` (nothing of it runs
    before its module is found); the fix, the package's nearest submodule (one line only). With
    `top_level` (nothing before the statement can have changed `sys.path`): `import panda`, a
    module no folder of `sys.path` holds, nor Python itself (missing_top_level)."""
    import difflib
    import os
    if not _finders_plain():
        return None
    if isinstance(node, ast.ImportFrom):
        if node.level or not node.module:
            return None
        paths = [(node, node.module, None)]
    else:
        paths = [(a, a.name, a) for a in node.names]
    for where, path, alias in paths:
        parent, _, name = path.rpartition(".")
        if top_level and path.split(".")[0] not in sys.modules:
            found = missing_top_level(path, where, alias, node)
            if found is not None:
                return found
            if not parent:
                continue                # (else the package, now found: its submodule below)
        if not parent or path in sys.modules:
            continue
        mod = resolve(parent)           # (imported here under "leading": the cell imports it first)
        if parent not in sys.modules or not _installed_library(parent) or path in sys.modules or \
                not _finders_plain():
            return None                 # (not loaded: its own code decides what it holds; its import may have
                                        # made the module, or added a finder)
        if type(mod) is not ModuleType or sys.modules.get(parent) is not mod:
            return None
        own = POLICY.module_members(mod)
        folders = own.get("__path__") if type(own) is dict else None
        if type(folders) is not list or not all(type(f) is str for f in folders):
            return None                 # a namespace package: its path is read by its own code
        if name in own:
            continue
        try:
            entries = [e for folder in folders for e in os.listdir(folder)]
        except OSError:
            return None
        if any(e == name or e.split(".")[0] == name for e in entries):
            continue
        modules = sorted({e.split(".")[0] for e in entries if not e.startswith(("_", "."))
                          and (e.endswith((".py", ".so", ".pyd")) or "." not in e)})
        meant = [f"{parent}.{m}" for m in difflib.get_close_matches(name, modules, n=1, cutoff=0.75)]
        fixes = []
        if meant and where.lineno == where.end_lineno:
            if alias is not None:
                fixes = [meant[0] + (f" as {alias.asname}" if alias.asname else "")]
            else:
                fixes = [ast.unparse(ast.ImportFrom(meant[0], node.names, 0))]
        return where, f"No module named {path!r} (the package {parent!r} has no submodule {name!r}): " \
                      "ModuleNotFoundError", fixes
    return None
