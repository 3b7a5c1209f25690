"""What the facts may read of a live object: the one rule that no code of the user's runs while
facts are read, asked of one object, as IPython's `guarded_eval` asks its `EvaluationPolicy`.

Only a library's own code may run (libraries.py says whose code is whose). Each read answers
"cannot tell" rather than run anything else:

    is_library(obj)            a function, class, descriptor or instance a library defines,
                               read through `type`'s own slots (no metaclass of the user's runs)
    static(obj, attr)          what `inspect.getattr_static` finds: no descriptor, property or
                               `__getattr__` runs (the class's members, not their values)
    has_attribute(obj, attr)   True, False or None (the class answers lookups itself)
    attribute(obj, attr)       the value where reading it runs no user code: an instance's own
                               value, a function bound as a method, a library's getter on a
                               library's class (attributes.py); UNKNOWN, MISSING otherwise
    item(obj, key)             `obj[key]` of a library's own container among plain labels, a
                               literal key (items.py); UNREADABLE otherwise
    own_attributes(obj)        an instance's own `__dict__` values, through `type`'s slots
    own_dict(obj)              an instance's own `__dict__` itself (attributes.py); AttributeError
                               when it has none
    signature(func)            the signature inspect reads without the user's descriptors or
                               metaclass (signatures.py); None otherwise
    module_of(obj)             the module a function or class names (libraries.py); None when
                               that cannot be read so

The raw slots, read through the C types' own descriptors (what a class, a module, a function,
a partial or a property stores, never through the object's lookup):

    class_module(cls)          `cls.__module__` as `type` stores it
    function_name(func)        a Python function's `__name__` (a decorator's `wraps` copies it)
    mro(cls)                   `cls.__mro__`
    library_through(cls)       every class of that mro but `object` a library's
    class_members(cls)         `cls.__dict__`, the class's own members
    module_members(module)     a module's globals (`vars(module)`)
    annotations(func)          a Python function's `__annotations__`
    function_globals(func)     a Python function's `__globals__` (its module's, wherever it is
                               exported from)
    function_parts(func)       a Python function's `__code__`, `__defaults__`, `__kwdefaults__`
                               and `__closure__`
    partial_func(p)            a functools.partial's function
    property_getter(prop)      a property's fget

The readers that implement these (libraries, attributes, items, signatures, held, namespace)
read the objects themselves; every other module of the facts asks `POLICY`
(tests/test_no_user_code.py holds both).
"""
from __future__ import annotations

import functools
import inspect
import types

from .attributes import MISSING, UNKNOWN, has_attribute, own_dict, read_attribute
from .held import own_attributes
from .items import UNREADABLE, read_item
from .libraries import _module_of, is_library_module, is_library_object
from .signatures import _signature

_RAISE = object()


class ReadPolicy:
    """The reads of a live object that run none of the user's code (see the module's doc)."""

    MISSING, UNKNOWN, UNREADABLE = MISSING, UNKNOWN, UNREADABLE

    def is_library(self, obj) -> bool:
        return is_library_object(obj)

    def is_library_module(self, name: str | None) -> bool:
        return is_library_module(name)

    def static(self, obj, attr: str, default=_RAISE):
        """`inspect.getattr_static(obj, attr[, default])`: raises AttributeError without one."""
        if default is _RAISE:
            return inspect.getattr_static(obj, attr)
        return inspect.getattr_static(obj, attr, default)

    def has_attribute(self, obj, attr: str) -> bool | None:
        return has_attribute(obj, attr)

    def attribute(self, obj, attr: str):
        return read_attribute(obj, attr)

    def item(self, obj, key_node):
        return read_item(obj, key_node)

    def own_attributes(self, obj) -> list | None:
        return own_attributes(obj)

    def own_dict(self, obj) -> dict:
        return own_dict(obj)

    def signature(self, func) -> inspect.Signature | None:
        return _signature(func)

    def module_of(self, obj) -> str | None:
        return _module_of(obj)

    # -- the raw slots ----------------------------------------------------------------------------

    def class_module(self, cls: type):
        return type.__dict__["__module__"].__get__(cls, type)

    def class_name(self, cls: type) -> str:
        return type.__dict__["__name__"].__get__(cls, type)

    def function_name(self, func: types.FunctionType) -> str:
        return types.FunctionType.__dict__["__name__"].__get__(func, types.FunctionType)

    def mro(self, cls: type) -> tuple:
        return type.__dict__["__mro__"].__get__(cls, type)

    def library_through(self, cls: type) -> bool:
        """Is every class of `cls`'s mro but `object` a library's (none of the user's code in it)?"""
        return all(k is object or self.is_library(k) for k in self.mro(cls))

    def class_members(self, cls: type) -> types.MappingProxyType:
        return type.__dict__["__dict__"].__get__(cls, type)

    def module_members(self, module: types.ModuleType) -> dict:
        return types.ModuleType.__dict__["__dict__"].__get__(module)

    def annotations(self, func: types.FunctionType):
        return types.FunctionType.__dict__["__annotations__"].__get__(func, types.FunctionType)

    def function_globals(self, func: types.FunctionType) -> dict:
        return types.FunctionType.__dict__["__globals__"].__get__(func, types.FunctionType)

    def function_parts(self, func: types.FunctionType) -> tuple:
        slots = types.FunctionType.__dict__
        return tuple(slots[n].__get__(func, types.FunctionType)
                     for n in ("__code__", "__defaults__", "__kwdefaults__", "__closure__"))

    def partial_func(self, p: functools.partial):
        return functools.partial.func.__get__(p)

    def property_getter(self, prop: property):
        return property.fget.__get__(prop)


POLICY = ReadPolicy()
