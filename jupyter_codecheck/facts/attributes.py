"""Does a live object have an attribute? Read statically, as `inspect.getattr_static` does: no
property, descriptor or `__getattr__` of the user's code runs.

`has_attribute` answers True, False or None (cannot tell: the object's class answers attribute
lookups itself, or a module may load the name on first use). `read_attribute` gives the value
where reading it runs no user code (an instance's own value, a function bound as a method, a
library's property), for the next step of a chain such as `df.loc` or `model.coef_`.
"""
from __future__ import annotations

import functools
import inspect
import types

from .items import holds_identifiers, plain_labels
from .libraries import is_library_module, is_library_object

MISSING = object()
UNKNOWN = object()
# descriptors whose binding runs no Python code
_BINDING = (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
            types.WrapperDescriptorType, types.MemberDescriptorType, types.ClassMethodDescriptorType,
            classmethod, staticmethod)
_OWN_LOOKUP = ("__getattr__", "__getattribute__")
# what a class's layout puts where the instance dict is: a Python class's getset, a C type's
# member (a module's, a ufunc's); both C, neither runs code
_DICT_SLOTS = (types.GetSetDescriptorType, types.MemberDescriptorType)


def overrides_lookup(cls: type) -> bool:
    """Does the class (or its metaclass chain) define its own attribute lookup? Not when its
    lookup slot is Python's generic one, which a C type (`list`, `dict`, numpy's `ufunc`) names
    in its `__getattribute__` slot wrapper."""
    if generic_lookup(cls):
        return False
    for klass in type.__dict__["__mro__"].__get__(cls, type) if issubclass(type(cls), type) else ():
        if klass in (object, type, types.ModuleType):
            continue
        d = type.__dict__["__dict__"].__get__(klass, type)      # the class's own members: no metaclass runs
        if any(n in d for n in _OWN_LOOKUP):
            return True
    return False


_TP_GETATTRO = 58           # typeslots.h: Py_tp_getattro, fixed by the stable ABI


@functools.lru_cache(maxsize=None)
def _generic_slot() -> int | None:
    try:
        import ctypes
        get = ctypes.pythonapi.PyType_GetSlot
        get.restype, get.argtypes = ctypes.c_void_p, (ctypes.py_object, ctypes.c_int)
        generic = ctypes.cast(ctypes.pythonapi.PyObject_GenericGetAttr, ctypes.c_void_p).value
        return generic if get(object, _TP_GETATTRO) == generic else None
    except (AttributeError, OSError, SystemError, TypeError):
        return None


def generic_lookup(cls: type) -> bool:
    """Is the class's attribute lookup Python's own `PyObject_GenericGetAttr` (what
    getattr_static mirrors: the type's dictionaries, then the instance's), no `__getattr__`?"""
    generic = _generic_slot()
    if generic is None or not issubclass(type(cls), type):
        return False
    try:
        import ctypes
        return ctypes.pythonapi.PyType_GetSlot(cls, _TP_GETATTRO) == generic
    except (SystemError, TypeError, ctypes.ArgumentError):
        return False


_HEAPTYPE = 1 << 9           # Py_TPFLAGS_HEAPTYPE: a class made by a `class` statement


def static_type(cls: type) -> bool:
    """A class Python or a C extension defines statically: its instances' `__class__` is fixed."""
    return not cls.__flags__ & _HEAPTYPE


def fixed_attributes(obj) -> bool:
    """Are the object's attributes its class's alone, whatever is stored into it: a static type
    (its `__class__` cannot be reassigned), Python's generic lookup, no instance `__dict__` (a
    `dict` or `list` the cell fills, an ndarray)."""
    cls = type(obj)
    try:
        return static_type(cls) and generic_lookup(cls) and \
            inspect.getattr_static(obj, "__dict__", MISSING) is MISSING
    except Exception:  # noqa: BLE001
        return False


def has_attribute(obj, attr: str) -> bool | None:
    try:
        found = inspect.getattr_static(obj, attr, MISSING)
    except Exception:  # noqa: BLE001 - an odd object: no claim
        return None
    if found is not MISSING:
        return True
    if issubclass(type(obj), types.ModuleType):
        return _module_has(obj, attr)
    labels = pandas_labels(obj)
    if labels is not NOT_PANDAS:        # pandas answers `df.col` from its columns (`s.x`: index)
        return None if labels is None else attr in labels
    keys = looked_up_keys(obj)
    if keys is not NOT_LOOKED_UP:
        return None if keys is None else attr in keys
    if overrides_lookup(type(obj)) or _hides_own_dict(type(obj)):
        return None
    return False


def _hides_own_dict(cls: type) -> bool:
    """Does the class put a member of its own where the instance dict's slot is (a `__dict__`
    property)? Python still finds the instance's attributes in that dict, which nothing may
    read without running the member: the instance may hold any attribute."""
    try:
        found = dict_slot(cls)
    except Exception:  # noqa: BLE001 - an odd class: it may hide anything
        return True
    return found is not None and not isinstance(found, _DICT_SLOTS)


def _module_has(mod: types.ModuleType, attr: str) -> bool | None:
    """A module's attribute may also be a submodule not imported yet, or a name its module-level
    `__getattr__` loads lazily (numpy, scipy): a library's `__dir__` lists those."""
    import importlib.util
    globals_ = types.ModuleType.__dict__["__dict__"].__get__(mod)     # the module's own: no property runs
    name = globals_.get("__name__")
    if not issubclass(type(name), str):
        return None
    try:
        if globals_.get("__path__") is not None and importlib.util.find_spec(f"{name}.{attr}") is not None:
            return None                  # a submodule: present once something imports it
    except (ImportError, ValueError, AttributeError):
        return None
    lazy = globals_.get("__getattr__")
    if lazy is None:
        return False
    if not is_library_module(name):
        return None
    answered = _caching_getattr_names(lazy)
    if answered is not None:
        return attr in answered
    listed = globals_.get("__dir__")
    if not callable(listed):
        return None                      # a lazy loader that lists nothing: anything may load
    try:
        return attr in set(listed())
    except Exception:  # noqa: BLE001
        return None


def _caching_getattr_names(lazy) -> frozenset[str] | None:
    """The names a module-level `__getattr__` made by matplotlib's `_api.caching_module_getattr`
    answers: the properties of the class it was given, read from its closure (its own code
    raises AttributeError for any other name); None for any other `__getattr__`."""
    import sys
    api = sys.modules.get("matplotlib._api")
    helper = types.ModuleType.__dict__["__dict__"].__get__(api).get("caching_module_getattr") if api is not None else None
    if type(helper) is not types.FunctionType or not is_library_object(helper) or \
            type(lazy) is not functools._lru_cache_wrapper:
        return None
    wrapped = inspect.getattr_static(lazy, "__wrapped__", None)
    if type(wrapped) is not types.FunctionType or wrapped.__code__ not in helper.__code__.co_consts or \
            wrapped.__closure__ is None:
        return None
    cells = dict(zip(wrapped.__code__.co_freevars, wrapped.__closure__))
    try:
        props = cells["props"].cell_contents
    except (KeyError, ValueError):
        return None
    return frozenset(k for k in props if type(k) is str) if type(props) is dict else None


def read_attribute(obj, attr: str):
    """The value of `obj.attr` where reading it runs no user code; UNKNOWN otherwise, MISSING
    when the object surely has no such attribute."""
    has = has_attribute(obj, attr)
    if has is False:
        return MISSING
    try:
        raw = inspect.getattr_static(obj, attr, MISSING)
    except Exception:  # noqa: BLE001
        return UNKNOWN
    if raw is MISSING:
        if issubclass(type(obj), types.ModuleType):
            return _lazy_submodule(obj, attr)
        # answered by __getattr__ (pandas columns); a Bunch's, from its own keys
        return bunch_value(obj, attr) if has else UNKNOWN
    if issubclass(type(obj), types.ModuleType):
        # a module's own name; one of its type's (`__dict__`, `__sizeof__`) is bound to it on reading
        return raw if attr in types.ModuleType.__dict__["__dict__"].__get__(obj) else UNKNOWN
    try:
        own = own_dict(obj)
    except (AttributeError, TypeError):
        own = None
    if issubclass(type(own), dict) and attr in own and type(own) is dict:
        return own[attr]             # an instance's own value: no descriptor applies
    getter = getattr(type(raw), "__get__", None)
    if getter is None:
        return raw
    if _binds_only(raw) or (_library_getter(raw) and is_library_object(type(obj))):
        try:
            if issubclass(type(obj), type) and any(attr in vars(k) for k in obj.__mro__):
                return raw.__get__(None, obj)              # the class's own: unbound
            return raw.__get__(obj, type(obj))             # an instance's, or the metaclass's (`cls.mro`)
        except Exception:  # noqa: BLE001
            return UNKNOWN
    return UNKNOWN


# the lazily loaded submodules imported here: their import warns of nothing and sets nothing the
# user's cell could see but the module itself (numpy.matlib warns, scipy's deprecated ones do)
_QUIET_SUBMODULES = {"numpy": frozenset({"random", "linalg", "fft"})}


def _lazy_submodule(mod: types.ModuleType, attr: str):
    """`np.random` before anything imported numpy.random: numpy's own lazy `__getattr__` lists
    it (its own `__dir__`) and imports the submodule on first use, so it is imported here as it
    would be there (numpy's code, nothing of the user's), for the few that import quietly
    (_QUIET_SUBMODULES); anything else a lazy loader answers is UNKNOWN."""
    import importlib
    import importlib.util
    globals_ = types.ModuleType.__dict__["__dict__"].__get__(mod)
    name, lazy, listed = globals_.get("__name__"), globals_.get("__getattr__"), globals_.get("__dir__")
    if not issubclass(type(name), str) or attr not in _QUIET_SUBMODULES.get(name, ()) or \
            globals_.get("__path__") is None or not issubclass(type(lazy), types.FunctionType) or \
            not issubclass(type(listed), types.FunctionType) or not is_library_module(name) or \
            not is_library_object(lazy) or not is_library_object(listed):
        return UNKNOWN
    try:
        if attr not in set(listed()) or importlib.util.find_spec(f"{name}.{attr}") is None:
            return UNKNOWN
        sub = importlib.import_module(f"{name}.{attr}")
    except Exception:  # noqa: BLE001 - the library's import failed: as unknown as before
        return UNKNOWN
    return sub if globals_.get(attr) is sub else UNKNOWN


def _binds_only(raw) -> bool:
    """A descriptor whose binding calls nothing (a function becomes a bound method, a slot is
    read), whoever's the object is."""
    return issubclass(type(raw), _BINDING) or \
        (issubclass(type(raw), types.GetSetDescriptorType) and raw.__name__ in ("__dict__", "__weakref__"))


def _library_getter(raw) -> bool:
    """A library's getter (a property, a C getset): it runs the library's code, but on an
    instance of a subclass of the user's it may call the subclass's own methods (`df.T`, its
    `_constructor`; `a.T`, its `__array_finalize__`), so it is read only of a library's class."""
    return issubclass(type(raw), types.GetSetDescriptorType) or (is_library_object(raw) and _getter_is_library(raw))


def _getter_is_library(raw) -> bool:
    """A property's getter is the user's when the user subclassed a library class with one."""
    fget = getattr(raw, "fget", None) if issubclass(type(raw), property) else None
    if fget is None:
        fget = getattr(raw, "func", None) if type(raw).__name__ == "cached_property" else None
    return fget is None or is_library_module(getattr(fget, "__module__", None))


NOT_PANDAS = object()


def pandas_labels(obj):
    """For a pandas DataFrame or Series whose class keeps pandas' own `__getattr__`: the string
    labels `obj.name` can reach (columns, or a Series' index); None if they cannot be read;
    NOT_PANDAS for any other object."""
    import sys
    pd = sys.modules.get("pandas")
    if pd is None:
        return NOT_PANDAS
    for base, labels in ((pd.DataFrame, "columns"), (pd.Series, "index")):
        if issubclass(type(obj), base):
            if any(inspect.getattr_static(type(obj), n, None) is not inspect.getattr_static(base, n, None)
                   for n in ("__getattr__", labels)):
                return None          # a subclass answering `.col` or its labels its own way
            try:
                values = getattr(obj, labels)
                if not holds_identifiers(values, pd):
                    return set()
                if len(values) > 100_000 or not plain_labels(values, pd):
                    return None          # a label of the user's might equal the name: its `__eq__` says
                return {v for v in values if type(v) is str}    # a str subclass may hash its own way
            except Exception:  # noqa: BLE001
                return None
    return NOT_PANDAS


NOT_LOOKED_UP = object()


def _bunch_keys(obj):
    return set(dict.keys(obj))


def _option_keys(obj):
    d = object.__getattribute__(obj, "d")
    return set(d) if type(d) is dict else None


def dict_slot(cls: type):
    """What the class's layout puts where its instances' `__dict__` is: the first `__dict__`
    member along its mro, read from the classes' own dictionaries through `type`'s slots (no
    metaclass runs); None when there is none."""
    tables = (type.__dict__["__dict__"].__get__(k, type) for k in type.__dict__["__mro__"].__get__(cls, type))
    return next((t["__dict__"] for t in tables if "__dict__" in t), None)


def own_dict(obj):
    """An instance's own `__dict__`, through the C slot its class's layout gives it (dict_slot):
    no metaclass, `__getattribute__` or `__dict__` property of the user's runs. AttributeError
    when it has no such dict (as `object.__getattribute__(obj, "__dict__")` raises, which finds
    the same slot but would run a `__dict__` the user's class defines otherwise)."""
    getter = dict_slot(type(obj))
    if not isinstance(getter, _DICT_SLOTS):
        raise AttributeError("__dict__")  # noqa: TRY004 - as object.__getattribute__ raises: no instance dict
    return getter.__get__(obj, type(obj))


def grouped_data(obj):
    """What a live GroupBy of pandas' own classes was made from and answers its lookups from
    (`self.obj`, read from its instance dictionary: nothing runs); None for anything else."""
    import sys
    generic = sys.modules.get("pandas.core.groupby.generic")
    if generic is None or type(obj) not in (generic.DataFrameGroupBy, generic.SeriesGroupBy):
        return None
    try:
        return own_dict(obj).get("obj")
    except AttributeError:
        return None


def _groupby_keys(obj):
    labels = pandas_labels(grouped_data(obj))
    return None if labels is NOT_PANDAS or labels is None else labels


# library classes whose `__getattr__` answers from what they hold, else raises AttributeError
# (pandas' OptionError is one): the names it answers to, read without running anything
_LOOKUPS = {
    ("sklearn.utils._bunch", "Bunch"): _bunch_keys,                 # `self[key]`, KeyError -> AttributeError
    ("pandas._config.config", "DictWrapper"): _option_keys,         # `self.d[key]`, else OptionError
    ("pandas.core.groupby.generic", "DataFrameGroupBy"): _groupby_keys,     # `attr in self.obj`
    ("pandas.core.groupby.generic", "SeriesGroupBy"): _groupby_keys,
}


def is_bunch(obj) -> bool:
    """Is `obj` of scikit-learn's Bunch itself (a dict whose keys are also its attributes)?"""
    import sys
    return type(obj) is getattr(sys.modules.get("sklearn.utils._bunch"), "Bunch", None)


def bunch_value(obj, attr: str):
    """`bunch.data`: what Bunch's `__getattr__` returns, `self[key]`, read as a dict item where
    every key is a str (a key of the user's class would have its `__eq__` compared); UNKNOWN
    otherwise."""
    if not is_bunch(obj) or any(type(k) is not str for k in dict.keys(obj)) or not dict.__contains__(obj, attr):
        return UNKNOWN
    return dict.__getitem__(obj, attr)


def looked_up_keys(obj):
    """For an object of a library class in _LOOKUPS (that class itself, not a subclass): the
    names its `__getattr__` answers to; None if they cannot be read; NOT_LOOKED_UP otherwise."""
    import sys
    cls = type(obj)
    read = next((r for (module, name), r in _LOOKUPS.items()
                 if getattr(sys.modules.get(module), name, None) is cls), None)
    if read is None:
        return NOT_LOOKED_UP
    try:
        keys = read(obj)
    except Exception:  # noqa: BLE001
        return None
    if keys is None or len(keys) > 100_000:
        return None
    internal = getattr(cls, "_internal_names_set", ())     # groupby: read as instance attributes first
    return {k for k in keys if issubclass(type(k), str)} - set(internal if type(internal) in (set, frozenset) else ())


def attribute_names(obj) -> list[str]:
    """Names a fix may write after `obj.`: what it has, read statically (no user `__dir__`)."""
    names: set[str] = set()
    try:
        d = own_dict(obj)
        if type(d) is dict or issubclass(type(d), types.MappingProxyType):
            names.update(k for k in d if type(k) is str)       # a str subclass's own __hash__ never runs
    except (AttributeError, TypeError):
        pass
    mro = type.__dict__["__mro__"].__get__(obj if issubclass(type(obj), type) else type(obj), type)
    for klass in mro:
        names.update(k for k in type.__dict__["__dict__"].__get__(klass, type) if type(k) is str)
    labels = pandas_labels(obj)
    if labels and labels is not NOT_PANDAS:
        names.update(n for n in labels if type(n) is str and n.isidentifier())
    keys = looked_up_keys(obj)
    if keys and keys is not NOT_LOOKED_UP:
        names.update(n for n in keys if type(n) is str and n.isidentifier())
    return sorted(n for n in names if not (n.startswith("__") and n.endswith("__")))
