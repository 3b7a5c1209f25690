"""What a cell does to the kernel's objects before a use: then the use is not checked against
the object as it is now.

    bound    names the cell (re)binds: `df = ...`, imports, `for x in`, `def f`, `del x`
    touched  names whose object may change: an item or attribute set on it (`df["new"] = 1`,
             `m.k = 2`), a method call that may mutate it (`model.fit(X)`, `df.drop(...,
             inplace=True)`), passing it to the user's own function, and every global name a
             called function of the user's reads
    stops    after a magic that may define anything (`%run`, `%store -r`), `exec`/`eval` or
             `globals()`: no fact after it

Calls of a library do not change their arguments' attributes or columns, and pandas' methods
do not change the object without `inplace=True` (or one of the few that always do). Anything
else is taken to change it: when unsure, no fact.
"""
from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from dataclasses import dataclass, field

from .libraries import is_library_object
from .namespace import UNRESOLVED, chain_root, resolve

# methods that change a pandas object (others return a new one unless inplace=True)
_PANDAS_MUTATING = frozenset({"insert", "pop", "update", "set_axis", "__setitem__", "__delitem__"})
_MUTATING = {dict: frozenset({"pop", "popitem", "update", "setdefault", "clear", "__setitem__",
                              "__delitem__"})}
# magics that define no name and change no object the facts read
_QUIET_MAGICS = frozenset({"matplotlib", "pip", "conda", "config", "load_ext", "reload_ext",
                           "autoreload", "aimport", "time", "timeit", "who", "whos", "pwd",
                           "precision", "pprint", "xmode", "env", "lsmagic", "history"})


@dataclass
class Effects:
    bound: set[str] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)
    stops: bool = False

    def update(self, other: "Effects") -> None:
        self.bound |= other.bound
        self.touched |= other.touched
        self.stops |= other.stops


def effects(node: ast.AST, namespace: Mapping, cell_functions: Mapping[str, set[str]]) -> Effects:
    """What running `node` (a statement, or a whole loop) may bind or change."""
    out = Effects()
    loops = []          # judged once everything the statement touches is known
    for n in ast.walk(node):
        if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            loops.append(n)
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.bound.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.bound.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                if a.name == "*":
                    out.stops = True
                out.bound.add(a.asname or a.name.split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.bound.add(n.name)
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            out.bound.add(n.name)
        elif isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del)):
            root = chain_root(n.value) or _any_root(n.value)
            if root:
                out.touched.add(root)
        elif isinstance(n, ast.Call):
            _call_effects(n, namespace, cell_functions, out)
    for n in loops:
        _through_the_loop(n, namespace, out)
    return out


def _through_the_loop(loop, namespace: Mapping, out: Effects) -> None:
    """`for d in [train, test]: d["Title"] = ...` changes train and test: a loop variable that is
    changed changes each object it ran over (by identity), or, over what cannot be told,
    anything."""
    targets = {t.id for t in ast.walk(loop.target) if isinstance(t, ast.Name)}
    if not targets & out.touched:
        return
    it = loop.iter
    if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
        for e in it.elts:
            for x in ast.walk(e):
                if isinstance(x, ast.Name):
                    out.touched.add(x.id)
        return
    elements = _iterated(it, namespace)
    if elements is None:
        out.touched.add("*")
        return
    held = {id(e) for e in elements}
    out.touched |= {k for k, v in namespace.items() if id(v) in held}


# builtins whose iteration goes over their arguments' elements
_OVER_ARGUMENTS = frozenset({"zip", "enumerate", "reversed", "sorted", "list", "tuple", "iter"})


def _iterated(it: ast.expr, namespace: Mapping) -> list | None:
    """The objects a loop over `it` runs over: a live container's elements, through `zip`,
    `enumerate`, ... and a dict's `.values()` / `.items()`; None when that cannot be told."""
    if isinstance(it, ast.Call) and not it.keywords:
        f = it.func
        if isinstance(f, ast.Name) and f.id in _OVER_ARGUMENTS and f.id not in namespace:
            out = []
            for a in it.args:
                got = _iterated(a, namespace)
                if got is None:
                    return None
                out += got
            return out
        if isinstance(f, ast.Attribute) and f.attr in ("values", "items") and not it.args:
            d = resolve(f.value, namespace) if chain_root(f.value) else UNRESOLVED
            return _elements(d) if type(d) is dict else None
        return None
    return _elements(resolve(it, namespace) if chain_root(it) else UNRESOLVED)


def _elements(container) -> list | None:
    """The objects a plain list, tuple, set or dict (its values) holds, those of the tuples it
    holds (`[("lr", lr), ...]`), a numpy array's (`axes.flat`); None for anything else, or one
    too large to scan."""
    import sys
    np = sys.modules.get("numpy")
    if type(container) is dict:
        values = list(dict.values(container))
    elif type(container) in (list, tuple, set, frozenset, range):
        values = list(container)
    elif np is not None and type(container) in (np.ndarray, np.flatiter):
        array = container.base if type(container) is np.flatiter else container
        if type(array) is not np.ndarray or array.size > 10_000:
            return None
        values = array.ravel().tolist() if array.dtype == object else []
    else:
        return None
    if len(values) > 10_000:
        return None
    return values + [x for v in values if type(v) is tuple for x in v]


def _any_root(node: ast.AST) -> str | None:
    """The leftmost name of an expression such as `a.b().c[i]` (whatever its steps are)."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            return None


def _call_effects(call: ast.Call, ns: Mapping, cell_functions, out: Effects) -> None:
    func = call.func
    root = _any_root(func)
    if _is_magic(call):
        name = _magic_name(call)
        if name not in _QUIET_MAGICS:
            out.stops = True
        return
    if isinstance(func, ast.Name) and func.id in ("exec", "eval", "globals", "vars", "locals", "setattr",
                                                  "delattr", "__import__") and func.id not in ns:
        out.stops = True
        return
    if isinstance(func, ast.Name) and func.id not in ns and hasattr(builtins, func.id):
        target = getattr(builtins, func.id)          # print(df), len(df): builtins
    else:
        target = resolve(func, ns) if chain_root(func) else UNRESOLVED
    if isinstance(func, ast.Name) and func.id in cell_functions:
        out.touched |= cell_functions[func.id]            # a function of the cell: what it reads
    elif target is not UNRESOLVED and not _is_library(target):
        out.touched |= _global_names(target)              # the user's function: what it reads
    if isinstance(func, ast.Attribute) and root is not None:
        receiver = resolve(func.value, ns) if chain_root(func.value) else UNRESOLVED
        if receiver is UNRESOLVED and chain_root(func.value) and root in ns:
            receiver = _pandas_root(ns[root])       # `df["a"].mean()`: a column of df
        if not _keeps_receiver(receiver, func.attr, call):
            out.touched.add(root)
    # arguments: a library call leaves them as they are; anything else may change them
    if target is UNRESOLVED or not _is_library(target):
        for a in [*call.args, *(k.value for k in call.keywords)]:
            r = _any_root(a)
            if r is not None:
                out.touched.add(r)


def _keeps_receiver(receiver, method: str, call: ast.Call) -> bool:
    if receiver is UNRESOLVED:
        return False
    import sys
    import types
    if isinstance(receiver, types.ModuleType):
        return True                  # `np.random.seed(0)`: a module's attributes stay
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(receiver, (pd.DataFrame, pd.Series, pd.Index)):
        inplace = any(k.arg == "inplace" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                      for k in call.keywords)
        return not inplace and method not in _PANDAS_MUTATING
    for kind, mutating in _MUTATING.items():
        if type(receiver) is kind:
            return method not in mutating
    return type(receiver) in (str, bytes, int, float, tuple, frozenset, type(None))


def _pandas_root(obj):
    """A pandas object stands for what is reached from it through items and attributes (its
    columns, `.str`, `.loc`): their methods follow pandas' rule too."""
    import sys
    pd = sys.modules.get("pandas")
    return obj if pd is not None and isinstance(obj, (pd.DataFrame, pd.Series)) else UNRESOLVED


def _is_library(obj) -> bool:
    if isinstance(obj, type(len)) and getattr(obj, "__self__", None) is builtins:
        return True
    return is_library_object(obj)


def _global_names(func) -> set[str]:
    """Global names a function of the user's reads or calls (its code and nested code)."""
    import types
    code = getattr(getattr(func, "__func__", func), "__code__", None)
    if not isinstance(code, types.CodeType):
        init = getattr(func, "__init__", None) if isinstance(func, type) else None
        code = getattr(init, "__code__", None)
        if not isinstance(code, types.CodeType):
            return {"*"}                                     # unknown: everything
    names, todo = set(), [code]
    while todo:
        c = todo.pop()
        names.update(c.co_names)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return names


def _is_magic(call: ast.Call) -> bool:
    f = call.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call) and \
        isinstance(f.value.func, ast.Name) and f.value.func.id == "get_ipython"


def _magic_name(call: ast.Call) -> str | None:
    if call.func.attr in ("system", "getoutput"):
        return "pip"                 # `!cmd`: a shell command defines no Python name
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def cell_function_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """Names a function defined in the cell reads or changes (what a call to it may touch)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
