"""What scikit-learn's dataset loaders return, read from their own source, never run: a Bunch
(a dict whose keys also answer as attributes; any other name raises AttributeError) holding the
keys the loader's `return Bunch(...)` names. A loader whose every return is such a call (or,
where `return_X_y` is not given or literal False, the tuple under `if return_X_y:`) is read;
`load_iris()` then holds `data`, `target`, `frame`, ... and `iris.traget` is no attribute.
"""
from __future__ import annotations

import ast
import functools
import inspect
import sys
import textwrap
import types

from .abstract_value import _literal
from .read_policy import POLICY


def bunch_class() -> type | None:
    cls = POLICY.static(sys.modules.get("sklearn.utils._bunch"), "Bunch", None)
    return cls if isinstance(cls, type) else None


def loader_keys(target, call: ast.Call) -> frozenset[str] | None:
    """The keys of the Bunch `call` (a call of `target`) returns; None unless `target` is a
    function of scikit-learn's `sklearn.datasets` read so and the call surely returns the Bunch."""
    if type(target) is not types.FunctionType or not str(target.__module__).startswith("sklearn.datasets") or \
            not POLICY.is_library(target) or any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    given = {k.arg: k.value for k in call.keywords}
    if "return_X_y" in given and _literal(given["return_X_y"]) is not False:
        return None
    try:
        parameters = list(inspect.signature(target).parameters)
    except (TypeError, ValueError):
        return None
    if "return_X_y" in parameters[:len(call.args)]:
        return None                     # given by position: not read
    return _returned_keys(target)


@functools.cache
def _returned_keys(target: types.FunctionType) -> frozenset[str] | None:
    func = inspect.unwrap(target)       # validate_params' wrapper (functools.wraps)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return None
    definition = tree.body[0] if tree.body and isinstance(tree.body[0], ast.FunctionDef) else None
    if definition is None:
        return None
    keys: set[str] = set()
    for node, guarded in _returns(definition.body, False):
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "Bunch" and \
                not value.args and all(k.arg is not None for k in value.keywords):
            keys |= {k.arg for k in value.keywords}
        elif not guarded:
            return None                 # another value returned: not known
    return frozenset(keys) if keys else None


def _returns(body: list[ast.stmt], guarded: bool):
    """The function's return statements (not a nested function's), each with whether it is
    under `if return_X_y:`."""
    for s in body:
        if isinstance(s, ast.Return):
            yield s, guarded
        elif isinstance(s, ast.If):
            under = guarded or (isinstance(s.test, ast.Name) and s.test.id == "return_X_y")
            yield from _returns(s.body, under)
            yield from _returns(s.orelse, guarded)
        elif isinstance(s, (ast.For, ast.While, ast.With, ast.Try)):
            for part in ("body", "orelse", "finalbody"):
                yield from _returns(getattr(s, part, []), guarded)
            for h in getattr(s, "handlers", []):
                yield from _returns(h.body, guarded)
