"""Which code is the user's: only a library's own code may run while facts are read.

A module counts as a library when its file lies in the standard library or an installed
package's folder (site-packages), or it is built in; `__main__` and modules beside the notebook
are the user's. Reading a property or calling `__dir__` of a library's object runs the library's
code, never the user's.
"""
from __future__ import annotations

import sys
import sysconfig
from functools import lru_cache


@lru_cache(maxsize=1)
def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    try:
        import site
        dirs.update(site.getsitepackages())
        dirs.add(site.getusersitepackages())
    except Exception:  # noqa: BLE001 - an embedded Python without site
        pass
    return tuple(sorted(d.rstrip("/") + "/" for d in dirs if d))


@lru_cache(maxsize=4096)
def is_library_module(name: str | None) -> bool:
    if not name or name == "__main__":
        return False
    top = name.split(".")[0]
    if top in sys.builtin_module_names or name in sys.builtin_module_names:
        return True
    mod = sys.modules.get(name) or sys.modules.get(top)
    path = getattr(mod, "__file__", None) if mod is not None else None
    if not isinstance(path, str):
        return False
    return path.startswith(_library_dirs())


def is_library_path(path: str) -> bool:
    """Is the file at `path` a library's (the standard library's, an installed package's)?"""
    return path.startswith(_library_dirs())


def is_library_object(obj) -> bool:
    """Is `obj` (a function, class, descriptor or instance) defined by a library? Read through
    Python's own descriptors, so that no metaclass or property of the user's runs."""
    module = _module_of(obj)
    return isinstance(module, str) and is_library_module(module)


def _module_of(obj) -> str | None:
    import types
    if issubclass(type(obj), type):
        cls = obj
    elif issubclass(type(obj), (types.FunctionType, types.BuiltinFunctionType)):
        return obj.__module__                 # a C member of the function: no code runs
    elif issubclass(type(obj), types.MethodType):
        return _module_of(obj.__func__)
    elif type(obj).__name__ == "cython_function_or_method" and type(obj).__module__.startswith("_cython_"):
        module = obj.__module__              # a compiled function's own member: no code runs
        # numpy.random's (`np.random.rand`, a method of its RandomState); others stay unknown
        return module if issubclass(type(module), str) and module.split(".")[:2] == ["numpy", "random"] else None
    else:
        cls = type(obj)
    try:
        return type.__dict__["__module__"].__get__(cls, type)    # the type's own slot
    except Exception:  # noqa: BLE001
        return None
