"""A cell's expression as the kernel's object: `df`, `model.coef_`, `df["price"].str`, through
names, attributes and literal keys only, never through a call.

Item steps are read by `items.read_item`: only of a library's own container (never a subclass),
with a literal key of built-in types, among labels of built-in types. IPython's guarded
evaluation is not enough here: it reads a subclass that keeps pandas' `__getitem__` (whose
`_constructor` is the user's) and lets pandas compare the key with a user's labels. Attribute
steps are read statically (`attributes.read_attribute`).
"""
from __future__ import annotations

import ast
from collections.abc import Mapping

from .attributes import MISSING, UNKNOWN, read_attribute
from .items import UNREADABLE, read_item

UNRESOLVED = UNKNOWN


def written_literal(v, *, dicts: bool = False):
    """What a display the cell wrote still holds (Made.literal: numbers, text, None, lists and
    tuples of them, with `dicts` a dict of them too; a fresh copy, as Python makes the display
    anew), or UNRESOLVED."""
    if not issubclass(type(v), Made):
        return UNRESOLVED
    value = v.literal()

    def plain(x) -> bool:
        return type(x) in (int, float, complex, str, bool, type(None)) or \
            type(x) in (list, tuple) and len(x) <= _MOST_WRITTEN and all(plain(y) for y in x)
    if not (type(value) in (list, tuple) and plain(value) or dicts and type(value) is dict and
            len(value) <= _MOST_WRITTEN and all(plain(k) and plain(x) for k, x in value.items())):
        return UNRESOLVED

    def copy(x):
        return [copy(y) for y in x] if type(x) is list else tuple(copy(y) for y in x) if type(x) is tuple else \
            {k: copy(y) for k, y in x.items()} if type(x) is dict else x
    return copy(value)


_MOST_WRITTEN = 10_000
# Python's own types, which numpy takes as a dtype (`dtype=int`): compared by identity
PYTHON_TYPES = (int, float, complex, bool, str, bytes, object)


class Made:
    """Stands for an object the cell itself makes, known only abstractly (abstract.py): followed
    by identity like a live object (flow.py), never stepped into by a chain."""
    __slots__ = ()
    # its items and attributes are its library's own objects (an abstract array of Axes, a
    # frame's column): a method called on one is the library's
    library_parts = False

    def keeps(self, method: str, inplace: bool) -> bool:
        """Does calling its `method` leave what is known of it as it is?"""
        return False

    def is_data(self) -> bool:
        """Is it an array, a Series or a DataFrame (a library copies its rows into new ones)?"""
        return False

    def literal(self):
        """The value itself, where the cell writes it as a literal of plain data; else UNRESOLVED."""
        return UNRESOLVED

    def of_class(self) -> type | None:
        """Its class, where that alone is known (instances.py); else None."""
        return None

    def labels(self) -> frozenset[str] | None:
        """The string labels pandas' attribute lookup answers on it (pandas_lookup.py); None: unknown."""
        return None

    def part(self, step: ast.AST):
        """What `<it>.name` or `<it>["name"]` is, where that is known of it (a loader's Bunch:
        dataset_loaders.py); else UNRESOLVED."""
        return UNRESOLVED


def chain_root(node: ast.AST) -> str | None:
    """The name a pure chain (names, attributes, literal subscripts) starts from; None if the
    expression is anything else (a call, an operation, a comprehension...)."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Subscript) and _literal(node.slice):
            node = node.value
        else:
            return None


def _literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Slice):
        return all(p is None or _literal(p) for p in (node.lower, node.upper, node.step))
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_literal(e) for e in node.elts)
    return isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant)


def resolve(node: ast.AST, namespace: Mapping):
    """The object a pure chain stands for in the namespace, or UNRESOLVED."""
    if isinstance(node, ast.Name):
        return namespace[node.id] if node.id in namespace else UNRESOLVED
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return resolve_step(resolve(node.value, namespace), node)
    return UNRESOLVED


def resolve_step(base, node: ast.AST):
    """One step of a chain from the object `base` stands for: `node` is `<base>.attr` or
    `<base>[literal]`."""
    if issubclass(type(base), Made):
        return base.part(node)
    if base is UNRESOLVED:
        return UNRESOLVED
    if isinstance(node, ast.Attribute):
        value = read_attribute(base, node.attr)
        return UNRESOLVED if value is MISSING else value
    if isinstance(node, ast.Subscript) and _literal(node.slice):
        value = read_item(base, node.slice)
        return UNRESOLVED if value is UNREADABLE else value
    return UNRESOLVED
