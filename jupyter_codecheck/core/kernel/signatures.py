"""Do a call's arguments bind to the callable's signature? `inspect.signature(f).bind(...)` with
stand-ins for the argument values: an unexpected keyword, a missing or an extra argument is a
TypeError before the function runs. A wrapper of `*args, **kwargs` that tells a stricter
signature (matplotlib's keyword-only deprecations) gets no claim on the number of positional
arguments: it takes them, with a warning.

Only callables whose signature can be read without running the user's code: functions, methods
and classes (their `__init__`/`__new__`), and any callable of a library. A callable without a
readable signature (most C functions, a class with its own metaclass) gives no claim.
"""
from __future__ import annotations

import functools
import inspect
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
        return None
    try:
        sig.bind(*([None] * n_args), **dict.fromkeys(keywords))
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


def _signature(func) -> inspect.Signature | None:
    if not _read_statically(func):
        return None
    try:
        return inspect.signature(func)
    except (ValueError, TypeError, RecursionError):
        return None
    except Exception:  # noqa: BLE001 - a library's signature machinery failing: no claim
        return None


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
