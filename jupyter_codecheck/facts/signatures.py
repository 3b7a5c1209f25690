"""Do a call's arguments bind to the callable's signature? `inspect.signature(f).bind(...)` with
stand-ins for the argument values: an unexpected keyword, a missing or an extra argument is a
TypeError before the function runs. A wrapper of `*args, **kwargs` that tells a stricter
signature (matplotlib's keyword-only deprecations) gets no claim on the number of positional
arguments: it takes them, with a warning. A keyword only a library function's `**kwargs` takes
is refused where the function's own source passes `**kwargs` on, in one call its body reaches, to
a callable that refuses it (`forward_target`: pandas' `date_range` to `_generate_range`).

Only callables whose signature can be read without running the user's code: functions, methods
and classes (their `__init__`/`__new__`), and any callable of a library. A callable without a
readable signature (most C functions, a class with its own metaclass) gives no claim.
"""
from __future__ import annotations

import ast
import functools
import inspect
import re
import textwrap
import types
from dataclasses import dataclass

from .libraries import is_library_object

_PLAIN = (types.FunctionType, types.BuiltinFunctionType, types.MethodType)
# a class's `__init__`/`__new__` inspect may read: functions, or Python's own slots
_MEMBERS = (types.FunctionType, types.BuiltinFunctionType, types.WrapperDescriptorType, types.MethodDescriptorType)


@dataclass(frozen=True)
class BindError:
    message: str                  # Python's own words ("got an unexpected keyword argument 'x'")
    keyword: str | None           # the keyword Python names, if it is one of the call's
    parameters: tuple[str, ...]   # the names a keyword may take


def bind_error(func, n_args: int, keywords: list[str]) -> BindError | None:
    sig = _signature(func)
    if sig is None:
        return array_keyword_error(func, keywords)
    try:
        sig.bind(*([None] * n_args), **dict.fromkeys(keywords))
        return _forwarded_error(func, sig, keywords) or array_keyword_error(func, keywords)
    except TypeError as e:
        msg = str(e)
        if msg.startswith("too many positional") and _wrapper_of_anything(func):
            return None           # the stricter signature is a promise the wrapper does not keep
        kw = next((k for k in keywords if repr(k) in msg), None)
        params = tuple(p.name for p in sig.parameters.values()
                       if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
        unknown = [k for k in keywords if k not in params]
        if kw is None and unknown and not any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
            kw = unknown[0]           # Python names an unexpected keyword before a missing argument
            msg = f"got an unexpected keyword argument {kw!r}"
        return BindError(msg, kw, params)
    return None


def _forwarded_error(func, sig: inspect.Signature, keywords: list[str]) -> BindError | None:
    """A keyword only `**kwargs` takes, where the library's function passes `**kwargs` on to one
    callable whose signature refuses it (pandas' `date_range(..., **kwargs)` to
    `DatetimeArray._generate_range`): the TypeError of that call."""
    named = tuple(p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
    extra = [k for k in keywords if k not in named]
    var = next((p.name for p in sig.parameters.values() if p.kind == p.VAR_KEYWORD), None)
    if not extra or var is None:
        return None
    if issubclass(type(func), type):
        return _passed_up_error(func, extra)
    plain = func.__func__ if type(func) is types.MethodType else func
    if not _unwrapped(plain) or not is_library_object(plain):
        return None                     # a decorator's wrapper may rename or drop keywords first
    target = forward_target(plain, var)
    if target is None:
        return None
    callee, given = target
    if not _unwrapped(callee.__func__ if type(callee) is types.MethodType else callee) and \
            not issubclass(type(callee), type):
        return None
    inner = _signature(callee)
    if inner is None or any(p.kind == p.VAR_KEYWORD for p in inner.parameters.values()):
        return None
    takes = {p.name for p in inner.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    refused = next((k for k in extra if k not in takes or k in given), None)
    if refused is None:
        return None
    why = "multiple values for keyword argument" if refused in given else "an unexpected keyword argument"
    return BindError(f"got {why} {refused!r} (passed on to {getattr(callee, '__qualname__', '?')})", refused,
                     named + tuple(sorted(takes - set(given) - set(named))))


def _passed_up_error(cls: type, extra: list[str]) -> BindError | None:
    """A library class called with keywords its `__init__` takes only in `**kwargs`
    (`FuncAnimation(fig, f, bli=True)`): where each `__init__` on the way uses its `**kwargs` only
    to pass it on whole to `super().__init__(...)`, in one statement of its top level that runs
    unless an earlier line raises, a keyword goes up the class's MRO; the first `__init__` with no
    `**kwargs` that does not name it raises the TypeError (matplotlib's Animation.__init__)."""
    if type(cls) is not type or not is_library_object(cls) or inspect.getattr_static(cls, "__new__", None) is not object.__new__:
        return None                     # a metaclass's `__call__` or a `__new__` of its own may do anything first
    mro = type.__dict__["__mro__"].__get__(cls, type)
    owners = [k for k in mro if "__init__" in type.__dict__["__dict__"].__get__(k, type)]
    named: set[str] = set()
    for owner in owners[:6]:
        init = type.__dict__["__dict__"].__get__(owner, type)["__init__"]
        if not _unwrapped(init) or not is_library_object(init) or not is_library_object(owner):
            return None
        try:
            sig = inspect.signature(init)
        except (TypeError, ValueError):
            return None
        named |= {p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        var = next((p.name for p in sig.parameters.values() if p.kind == p.VAR_KEYWORD), None)
        if var is None:
            refused = next((k for k in extra if k not in named), None)
            return None if refused is None else BindError(
                f"got an unexpected keyword argument {refused!r} (passed on to {owner.__name__}.__init__)", refused,
                tuple(sorted(named - {"self"})))
        taken = _passes_up(init, var)
        if taken is None:
            return None
        named |= taken
    return None


def _passes_up(init: types.FunctionType, var: str) -> frozenset[str] | None:
    """Does `init` pass its `**var` on whole as `super().__init__(..., **var)`, naming none of
    the call's keywords itself (a keyword given twice is another TypeError), on a statement of
    its top level that runs unless an earlier line returns? Other uses may only read a literal
    key (`var.get("repeat", True)`, `"k" in var`, `var["k"]`) or take one out (`var.pop("k")`):
    the keys taken out (None where it does not pass it on so)."""
    route = kwargs_route(init, var)
    return route[1] if route is not None and route[0] == "up" else None


def kwargs_route(init: types.FunctionType, var: str) -> tuple[str, frozenset[str]] | None:
    """Where a library `__init__` sends its `**var`, read from its source: ("up", the keys it
    takes out) where it passes it whole to `super().__init__(..., **var)` (_passes_up), ("set",
    the keys it takes out) where it hands it to `self._internal_update(var)` ("update" for
    `self.update(var)`: matplotlib's artists set each key as a property, or raise AttributeError),
    on a statement of its top level (or under `if len(var):` / `if var:`) that runs unless an
    earlier line returns; other uses may only read or take out a literal key, or count it. None
    where it goes anywhere else."""
    definition = _definition(init)
    if definition is None:
        return None
    parents = {id(c): n for n in ast.walk(definition) for c in ast.iter_child_nodes(n)}
    sinks, taken = [], set()
    for n in ast.walk(definition):
        if not (isinstance(n, ast.Name) and n.id == var):
            continue
        up = parents.get(id(n))
        if isinstance(up, ast.keyword) and up.arg is None:
            sinks.append(("up", parents.get(id(up))))
            continue
        if isinstance(up, ast.Call) and up.args == [n] and not up.keywords and isinstance(up.func, ast.Attribute) and \
                up.func.attr in ("_internal_update", "update") and isinstance(up.func.value, ast.Name) and \
                up.func.value.id == "self":
            sinks.append(("update" if up.func.attr == "update" else "set", up))
            continue
        if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id == "len" and up.args == [n]:
            continue                    # counted
        if isinstance(up, ast.If) and up.test is n:
            continue                    # `if kwargs:`
        key = _literal_key(up, n, parents)
        if key is None:
            return None
        if key[1]:
            taken.add(key[0])
    if len(sinks) != 1:
        return None
    kind, call = sinks[0]
    if kind == "up":
        func = call.func if isinstance(call, ast.Call) else None
        if not (isinstance(func, ast.Attribute) and func.attr == "__init__" and isinstance(func.value, ast.Call) and
                isinstance(func.value.func, ast.Name) and func.value.func.id == "super" and not func.value.args):
            return None
    for stmt in definition.body:
        if any(n is call for n in ast.walk(stmt)):
            if any(n is call for n in _outside_blocks(stmt)):
                return kind, frozenset(taken)
            # `if len(kwargs): self._internal_update(kwargs)`: it runs whenever a keyword is given
            guarded = isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1 and \
                any(n is call for n in _outside_blocks(stmt.body[0])) and kind in ("set", "update") and \
                (isinstance(stmt.test, ast.Name) and stmt.test.id == var or
                 isinstance(stmt.test, ast.Call) and isinstance(stmt.test.func, ast.Name) and
                 stmt.test.func.id == "len" and len(stmt.test.args) == 1 and
                 isinstance(stmt.test.args[0], ast.Name) and stmt.test.args[0].id == var)
            return (kind, frozenset(taken)) if guarded else None
        if any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) for n in _own_nodes(stmt)):
            return None
    return None


def _literal_key(up, name: ast.Name, parents: dict) -> tuple[str, bool] | None:
    """(the key, taken out) where `name` is only read at a literal key: `name.get("k")`,
    `name.pop("k")`, `"k" in name`, `name["k"]`; else None."""
    if isinstance(up, ast.Attribute) and up.attr in ("get", "pop"):
        call = parents.get(id(up))
        if isinstance(call, ast.Call) and call.func is up and call.args and isinstance(call.args[0], ast.Constant) and \
                type(call.args[0].value) is str:
            return call.args[0].value, up.attr == "pop"
        return None
    if isinstance(up, ast.Compare) and len(up.ops) == 1 and isinstance(up.ops[0], (ast.In, ast.NotIn)) and \
            up.comparators[0] is name and isinstance(up.left, ast.Constant) and type(up.left.value) is str:
        return up.left.value, False
    if isinstance(up, ast.Subscript) and up.value is name and isinstance(up.ctx, ast.Load) and \
            isinstance(up.slice, ast.Constant) and type(up.slice.value) is str:
        return up.slice.value, False
    return None


def _own_nodes(stmt: ast.stmt):
    """The nodes of a statement, not those of the functions and lambdas it defines."""
    todo = [stmt]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                             ast.Lambda, ast.ClassDef)))


# numpy's array methods that compute from the array alone (no file, no buffer, nothing of the
# caller's changed): compiled, without a signature to read, so asked on a stand-in of ours
ARRAY_METHODS = frozenset({
    "sum", "prod", "max", "min", "mean", "std", "var", "any", "all", "cumsum", "cumprod", "argmax",
    "argmin", "round", "reshape", "astype", "sort", "argsort", "clip", "flatten", "ravel", "copy",
    "transpose", "squeeze", "repeat", "take", "dot", "trace", "nonzero", "tolist", "item",
    "searchsorted", "swapaxes", "diagonal", "partition", "argpartition", "conj", "view"})
_REFUSED = ("got an unexpected keyword argument", "is an invalid keyword argument", "takes no keyword arguments")


def array_keyword_error(func, keywords: list[str]) -> BindError | None:
    """`X.sum(axi=0)`: a keyword an array method of numpy's own class refuses, whatever the
    values (numpy parses the names first): found by calling the method on a one-element array
    of ours with that keyword alone. `func`: the method bound to an array of numpy's own class,
    or read from the class."""
    import sys
    name = array_method(func)
    if name is None:
        return None
    np = sys.modules["numpy"]
    refused = next((k for k in keywords if k is not None and not _array_takes(name, k)), None)
    if refused is None:
        return None
    doc = (getattr(np.ndarray, name).__doc__ or "").lstrip().split("\n")[0]
    named = tuple(w for w in dict.fromkeys(re.findall(r"(\w+)\s*=", doc)) if _array_takes(name, w))
    return BindError(f"got an unexpected keyword argument {refused!r}", refused, named)


def array_method(func) -> str | None:
    """The name of one of ARRAY_METHODS where `func` is it, bound to an array of numpy's own class
    or read from that class; else None."""
    import sys
    np = sys.modules.get("numpy")
    if np is None:
        return None
    if type(func) is types.BuiltinMethodType and type(func.__self__) is np.ndarray or \
            type(func) is types.MethodDescriptorType and func.__objclass__ is np.ndarray:
        return func.__name__ if func.__name__ in ARRAY_METHODS else None
    return None


@functools.lru_cache(maxsize=1024)
def _array_takes(method: str, keyword: str) -> bool:
    import numpy as np
    try:
        getattr(np.zeros(1), method)(**{keyword: None})
    except TypeError as e:
        return not any(s in str(e) for s in _REFUSED) or (repr(keyword) not in str(e) and _REFUSED[2] not in str(e))
    except Exception:  # noqa: BLE001 - the value refused, not the name
        return True
    return True


@functools.lru_cache(maxsize=512)
def forward_target(func: types.FunctionType, var: str):
    """(the callable, the keywords that call names itself) where the library function `func`
    uses its `**var` only to pass it on, in one call on a statement of its body's top level that
    runs unless an earlier line raises (no `return` before it), to a name of its module's (or
    that name's attribute, a class's function read statically); else None."""
    definition = _definition(func)
    if definition is None:
        return None
    uses = [n for n in ast.walk(definition) if isinstance(n, ast.Name) and n.id == var]
    spreads = [c for c in ast.walk(definition) if isinstance(c, ast.Call)
               for k in c.keywords if k.arg is None and isinstance(k.value, ast.Name) and k.value.id == var]
    if len(uses) != 1 or len(spreads) != 1:
        return None
    call = spreads[0]
    for stmt in definition.body:
        inside = any(n is call for n in ast.walk(stmt))
        if inside:
            if any(n is call for n in _outside_blocks(stmt)):
                break
            return None                 # in a branch or a loop: it may not run
        if any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) for n in ast.walk(stmt)):
            return None                 # it may return first (a `raise` before: a crash all the same)
    else:
        return None
    callee = _module_name(call.func, func.__globals__)
    if callee is None or not is_library_object(callee):
        return None
    return callee, frozenset(k.arg for k in call.keywords if k.arg is not None)


def _definition(func) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """A library function's `def`, parsed from its source (read as text: nothing runs)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    first = tree.body[0] if tree.body else None
    return first if isinstance(first, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _unwrapped(func) -> bool:
    """A plain Python function, not a decorator's wrapper (functools.wraps sets `__wrapped__`)."""
    return type(func) is types.FunctionType and "__wrapped__" not in func.__dict__


def _outside_blocks(stmt: ast.stmt):
    """The nodes of a statement that run whenever it does (not in its nested blocks or functions)."""
    todo = [stmt]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, (ast.stmt, ast.Lambda, ast.comprehension)))


def _module_name(node: ast.expr, namespace: dict):
    """A name of the module's (`DatetimeArray._generate_range`: a class's function, read statically)."""
    if isinstance(node, ast.Name):
        value = namespace.get(node.id)
        return value if value is not None else None
    if isinstance(node, ast.Attribute):
        base = _module_name(node.value, namespace)
        if base is None:
            return None
        if isinstance(base, types.ModuleType):
            return vars(base).get(node.attr)
        if issubclass(type(base), type):
            member = inspect.getattr_static(base, node.attr, None)
            if type(member) is classmethod:
                return types.MethodType(member.__func__, base)
            if type(member) is staticmethod:
                return member.__func__
            return member if type(member) is types.FunctionType else None
    return None


# signatures that cannot change from one read to the next: a library's functions (a bound
# method's depends on its function alone), builtin functions of a module and builtin types
_FIXED: dict[tuple, inspect.Signature | None] = {}
_MAX_FIXED = 1024
_IMMUTABLE_TYPE = 1 << 8        # Py_TPFLAGS_IMMUTABLETYPE


def _signature(func) -> inspect.Signature | None:
    if not _read_statically(func):
        return None
    key = _fixed_key(func)
    if key is None:
        return _read_signature(func)
    if key not in _FIXED:
        if len(_FIXED) >= _MAX_FIXED:
            _FIXED.clear()
        _FIXED[key] = _read_signature(func)
    return _FIXED[key]


def _fixed_key(func) -> tuple | None:
    """The key of a callable whose signature is the library's for good, else None."""
    cls = type(func)
    if cls is types.MethodType:
        inner = func.__func__
        return (inner, True) if type(inner) is types.FunctionType and is_library_object(inner) else None
    if cls is types.FunctionType:
        return (func, False) if is_library_object(func) else None
    if cls is types.BuiltinFunctionType:
        return (func, False) if type(func.__self__) is types.ModuleType else None
    if cls is type:         # a class whose members cannot be set (`str`, `dict`)
        return (func, False) if type.__dict__["__flags__"].__get__(func, type) & _IMMUTABLE_TYPE else None
    return None


def _read_signature(func) -> inspect.Signature | None:
    try:
        sig = inspect.signature(func)
    except (ValueError, TypeError, RecursionError):
        return None
    except Exception:  # noqa: BLE001 - a library's signature machinery failing: no claim
        return None
    return None if _stated_self(func, sig) else sig


def _stated_self(func, sig: inspect.Signature) -> bool:
    """Does a plain function, no wrapper, state a signature whose first parameter is `self` over
    code that takes anything (`def f(*args, **kw)`)? scikit-learn's `est.set_fit_request` is such a
    function, made for the instance: Python passes no `self`, and the stated one is no rule."""
    if type(func) is not types.FunctionType:
        return False
    own = types.FunctionType.__dict__["__dict__"].__get__(func)
    first = next(iter(sig.parameters.values()), None)
    if "__signature__" not in own or "__wrapped__" in own or first is None or first.name != "self":
        return False                    # a wrapper's: a method's function, bound as the one it wraps
    code = types.FunctionType.__dict__["__code__"].__get__(func)
    return code.co_argcount == 0 and code.co_kwonlyargcount == 0 and \
        code.co_flags & inspect.CO_VARARGS and code.co_flags & inspect.CO_VARKEYWORDS


def _read_statically(func, depth: int = 0) -> bool:
    """Can inspect read the callable's signature without running the user's code?"""
    if issubclass(type(func), type):
        if type(func) not in (type, _abc_meta()) and not is_library_object(type(func)):
            return False          # a metaclass of the user's may take anything (`__call__`)
        # inspect reads these through the class: a descriptor of the user's there would run
        return is_library_object(func) or all(_plain_member(inspect.getattr_static(func, n, None))
                                              for n in ("__init__", "__new__", "__signature__"))
    if type(func) is functools.partial:
        return depth < 4 and _read_statically(func.func, depth + 1)
    # a callable instance of the user's: its `__signature__` may be a property; a compiled
    # function's members are its runtime's (numpy.random's `default_rng`, libraries._module_of)
    return issubclass(type(func), _PLAIN) or is_library_object(type(func)) or \
        (type(func).__name__ == "cython_function_or_method" and is_library_object(func))


def _plain_member(member) -> bool:
    if issubclass(type(member), (staticmethod, classmethod)):
        member = member.__func__
    return member is None or issubclass(type(member), _MEMBERS)


def _wrapper_of_anything(func) -> bool:
    """Is `func` a wrapper taking `*args, **kwargs` whose signature is set by hand
    (`__signature__`)? matplotlib's `make_keyword_only` sets one with fewer positional parameters
    than the wrapper accepts (with a deprecation warning). A `functools.wraps` wrapper alone
    (`__wrapped__`: scikit-learn's `validate_params`) passes the arguments on to the function
    whose signature it shows, which rejects them."""
    if type(func) is types.MethodType:
        func = func.__func__
    if type(func) is not types.FunctionType:
        return False
    own = func.__dict__
    if "__signature__" not in own:
        return False
    flags = func.__code__.co_flags
    return bool(flags & inspect.CO_VARARGS and flags & inspect.CO_VARKEYWORDS)


@functools.lru_cache(maxsize=1)
def _abc_meta():
    import abc
    return abc.ABCMeta
