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
    elif (module := _cython_module(obj)) is not None:
        # numpy.random's (`np.random.rand`, a method of its RandomState); others stay unknown
        return module if module.split(".")[:2] == ["numpy", "random"] else None
    else:
        cls = type(obj)
    try:
        return type.__dict__["__module__"].__get__(cls, type)    # the type's own slot
    except Exception:  # noqa: BLE001
        return None


def library_code(f) -> bool:
    """Is the plain function's code in a library's file (not a wrapper of the user's, which
    `functools.wraps` gives the wrapped function's `__module__`)?"""
    import types
    return type(f) is types.FunctionType and is_library_path(types.FunctionType.__dict__["__code__"].__get__(f).co_filename)


def _package_dir(package: str) -> str | None:
    """The folder of an installed package's files, where it is loaded."""
    import os
    module = sys.modules.get(package)
    path = getattr(module, "__file__", None) if module is not None else None
    return os.path.dirname(path) + os.sep if isinstance(path, str) and is_library_path(path) else None


def own_function(f, package: str) -> bool:
    """A plain function of a library's code, reached from `package` (its module names it): its
    code in a library's files, and so is that of each function it wraps (`functools.wraps`
    copies `__module__`, so a wrapper of the user's over matplotlib's `Figure.add_subplot` would
    pass for matplotlib's by its name)."""
    home = _package_dir(package)
    return home is not None and _own(f, home)


def _own(f, home: str, owner: str = "") -> bool:
    import types
    for _ in range(8):
        if type(f) is not types.FunctionType:
            return False
        code = types.FunctionType.__dict__["__code__"].__get__(f)
        inner = types.FunctionType.__dict__["__dict__"].__get__(f).get("__wrapped__")
        # the package's file, or another library's (contextlib's wrapper, pyparsing's function set on a
        # class of the package's), or the methods the standard library writes (a namedtuple's)
        qualname = types.FunctionType.__dict__["__qualname__"].__get__(f)
        # written from text by the standard library for this class (a namedtuple's, a dataclass's)
        generated = code.co_filename == "<string>" and bool(owner) and \
            (qualname.startswith(owner + ".") or qualname.startswith("__create_fn__.<locals>."))
        if not (code.co_filename.startswith(home) or generated or is_library_path(code.co_filename)):
            return False
        if inner is None:
            return True
        f = inner
    return False


# own_classes' answers within one reading of facts (read_begins empties it: classes may change
# between cells, never while the facts are read)
_OWN_CLASSES: dict[tuple[int, str], bool] = {}


def read_begins() -> None:
    _OWN_CLASSES.clear()


def own_classes(cls: type, package: str) -> bool:
    """Is every function held by `cls` and its bases of `package` one `package` defines
    (own_function)? A method of the user's set on any of them may run inside the library's own
    (`Artist.pchanged` replaced runs in every setter)."""
    key = (id(cls), package)
    if key not in _OWN_CLASSES:
        _OWN_CLASSES[key] = _own_classes(cls, package)
    return _OWN_CLASSES[key]


def _own_classes(cls: type, package: str) -> bool:
    import types
    home = _package_dir(package)
    if home is None:
        return False
    for k in type.__dict__["__mro__"].__get__(cls, type):
        module = type.__dict__["__module__"].__get__(k, type)
        if not (type(module) is str and (module == package or module.startswith(package + "."))):
            continue                    # object, or a base of another library's (collections.abc)
        for v in type.__dict__["__dict__"].__get__(k, type).values():
            if not (_own_member(v, home, type.__dict__["__qualname__"].__get__(k, type)) or _compiled(v, package)):
                return False
    return True


def _compiled(v, package: str) -> bool:
    """A function the package compiled with Cython (pandas' `NDFrameIndexerBase.__reduce_cython__`)."""
    module = _cython_module(v)
    return module is not None and (module == package or module.startswith(package + "."))


def _cython_module(obj) -> str | None:
    """The module a Cython-compiled function names (a member of the function's own C type: no code
    runs); None for anything else."""
    if not (type(obj).__name__ == "cython_function_or_method" and type(obj).__module__.startswith("_cython_")):
        return None
    module = obj.__module__
    return module if issubclass(type(module), str) else None


def _own_member(v, home: str, owner: str = "") -> bool:
    """A class member that runs no code of the user's when read or called: plain data, or a
    function, property, static/class method or partialmethod of a library's code alone."""
    import functools
    import types
    if type(v) in (staticmethod, classmethod):
        return _own_member(v.__func__, home, owner)
    if isinstance(v, property):         # (a subclass's own methods too: pybind11's static property)
        return all(f is None or _own_member(f, home, owner) for f in (v.fget, v.fset, v.fdel)) and \
            all(_own_member(m, home, owner) for k in type.__dict__["__mro__"].__get__(type(v), type)
                if k not in (property, object) for m in type.__dict__["__dict__"].__get__(k, type).values()
                if type(m) is types.FunctionType)
    if type(v) is functools.partialmethod:
        return _own_member(v.func, home, owner)
    if type(v) is types.FunctionType:
        return _own(v, home, owner)
    # any other descriptor (an object with `__get__`) of a class not a library's may run anything
    return is_library_object(type(v)) or not hasattr(type(v), "__get__")
