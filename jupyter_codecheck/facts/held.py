"""What a live object holds and what kind of object it is, read without running code: the
objects a change reaches from it (flow.py follows them), and the globals a function of the
user's reads.
"""
from __future__ import annotations

import builtins
import sys
import types

from .attributes import dict_slot, is_bunch
from .libraries import is_library_object
from .namespace import UNRESOLVED

_MAX_REACH = 10_000          # objects followed from one changed object; more: anything may change


def _is_pandas(obj) -> bool:
    pd = sys.modules.get("pandas")
    return pd is not None and obj is not UNRESOLVED and issubclass(type(obj), (pd.DataFrame, pd.Series, pd.Index))


def _is_data(obj) -> bool:
    """A pandas object or an array: a library reads it into new data, never keeps it as it is."""
    np = sys.modules.get("numpy")
    return _is_pandas(obj) or (np is not None and issubclass(type(obj), np.ndarray))


def _splits(obj) -> bool:
    """scikit-learn's train_test_split (its parts index the arrays given by position)."""
    selection = sys.modules.get("sklearn.model_selection")
    return selection is not None and obj is getattr(selection, "train_test_split", None)


def _is_pandas_function(obj) -> bool:
    module = getattr(obj, "__module__", None) if issubclass(type(obj), (types.FunctionType, type)) else None
    return isinstance(module, str) and module.split(".")[0] == "pandas"


def _held_by(obj) -> list:
    """What a live object holds, read without running code: a container's elements, an
    instance's own attributes (not a pandas object's or an array's internals)."""
    elements = _elements(obj)
    if elements is not None:
        return elements
    if _is_data(obj):
        return []
    own = own_attributes(obj)
    return own if own is not None and len(own) <= _MAX_REACH else []


def own_attributes(obj) -> list | None:
    """The values of an instance's own `__dict__`, a Python class's (its getset slot, dict_slot);
    None when it has no such dict (a module's or a C type's member slot among them)."""
    try:
        getter = dict_slot(type(obj))
        if not isinstance(getter, types.GetSetDescriptorType):
            return None                  # no instance dict, or a class's own `__dict__`
        own = getter.__get__(obj, type(obj))
    except Exception:  # noqa: BLE001 - no instance dict to read
        return None
    return list(dict.values(own)) if type(own) is dict else None


def _elements(container) -> list | None:
    """The objects a plain list, tuple, set or dict (its values) holds, those of the tuples it
    holds (`[("lr", lr), ...]`), a numpy array's (`axes.flat`); None for anything else, or one
    too large to scan."""
    import sys
    np = sys.modules.get("numpy")
    if type(container) is dict or is_bunch(container):
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


def _is_library(obj) -> bool:
    if issubclass(type(obj), types.BuiltinFunctionType):      # `len`, or a C method bound (`lst.append`)
        owner = getattr(obj, "__self__", None)
        if owner is builtins or owner is None:
            return True
        return is_library_object(owner) if issubclass(type(owner), types.ModuleType) else is_library_object(type(owner))
    return is_library_object(obj)


# what rebinds a global name without naming it in a `global` store: the module's dict, by text
_DYNAMIC_NAMES = frozenset({"globals", "vars", "exec", "eval", "setattr", "delattr", "__dict__", "__setattr__",
                            "__main__", "modules", "__import__", "import_module", "compile"})


def _stored_globals(func, seen: set[int] | None = None) -> set[str]:
    """Global names a function of the user's may bind or delete (its code and nested code, and
    the user's functions and classes it names, which it may call): `global x` stores and any
    attribute stored by that name (`__main__.x = 1`); {"*"} where it may reach the namespace by
    text (`globals()["x"]`) or is not a plain function. A class: each of its own functions."""
    import dis
    seen = set() if seen is None else seen
    if id(func) in seen:
        return set()
    seen.add(id(func))
    if type(func) is types.MethodType:
        func = func.__func__
    if issubclass(type(func), type):
        names = set()
        # read through type's own slots: a metaclass of the user's may answer `__mro__`/`__dict__`
        for k in type.__dict__["__mro__"].__get__(func, type):
            if k is object or _is_library(k):
                continue
            for v in type.__dict__["__dict__"].__get__(k, type).values():
                if type(v) in (staticmethod, classmethod):
                    v = v.__func__
                for f in (v.fget, v.fset, v.fdel) if type(v) is property else (v,):
                    if type(f) is types.FunctionType:
                        names |= _stored_globals(f, seen)
        return names
    code = func.__code__ if type(func) is types.FunctionType else None
    if code is None:
        return {"*"}
    names, todo = set(), [code]
    while todo:
        c = todo.pop()
        if _DYNAMIC_NAMES & set(c.co_names):
            return {"*"}
        names |= {i.argval for i in dis.get_instructions(c)
                  if i.opname in ("STORE_GLOBAL", "DELETE_GLOBAL", "STORE_ATTR", "DELETE_ATTR", "STORE_NAME",
                                  "DELETE_NAME")}
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        # a function or class of the user's it names may run when it runs
        for name in c.co_names:
            v = func.__globals__.get(name) if type(func.__globals__) is dict else None
            if (type(v) is types.FunctionType or issubclass(type(v), type)) and not _is_library(v):
                names |= _stored_globals(v, seen)
    return names


def _global_names(func) -> set[str]:
    """Global names a function of the user's reads or calls (its code and nested code)."""
    import inspect
    import types
    # read only where the attributes are the interpreter's own (a user object's `__getattr__`
    # would run): a function, a bound method, a class's own `__init__`
    if type(func) is types.MethodType:
        func = func.__func__
    if issubclass(type(func), type):
        func = inspect.getattr_static(func, "__init__", None)
    code = func.__code__ if type(func) is types.FunctionType else None
    if code is None:
        return {"*"}                                         # unknown: everything
    names, todo = set(), [code]
    while todo:
        c = todo.pop()
        names.update(c.co_names)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return names
