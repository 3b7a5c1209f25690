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
    signature(func)            the signature inspect reads without the user's descriptors or
                               metaclass (signatures.py); None otherwise

The readers that implement these (libraries, attributes, items, signatures, held, namespace)
read the objects themselves; every other module of the facts asks `POLICY`
(tests/test_no_user_code.py holds both).
"""
from __future__ import annotations

import inspect

from .attributes import MISSING, UNKNOWN, has_attribute, read_attribute
from .held import own_attributes
from .items import UNREADABLE, read_item
from .libraries import is_library_module, is_library_object
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

    def signature(self, func) -> inspect.Signature | None:
        return _signature(func)


POLICY = ReadPolicy()
