"""What scikit-learn's dataset loaders return, read from their own source, never run: a Bunch
(a dict whose keys also answer as attributes; any other name raises AttributeError) holding the
keys the loader's `return Bunch(...)` names. A loader whose every return is such a call (or,
where `return_X_y` is not given or literal False, the tuple under `if return_X_y:`) is read;
`load_iris()` then holds `data`, `target`, `frame`, ... and `iris.traget` is no attribute.

What the keys hold (`loaded`): the loaders of the data scikit-learn ships in its own package
(`BUNDLED`, no download), run once with the call's literal arguments: the shapes, dtypes and
columns of their arrays and frames, as the library makes them (`load_iris(as_frame=True).data`
is a frame of 150 rows and the four named columns).
"""
from __future__ import annotations

import ast
import functools
import inspect
import sys
import textwrap
import types
from dataclasses import replace

from .abstract_value import Abstract, _literal, shaped
from .read_policy import POLICY

# the loaders that read the files scikit-learn ships in `sklearn/datasets/data` (nothing fetched)
BUNDLED = frozenset({"load_iris", "load_wine", "load_breast_cancer", "load_diabetes", "load_digits",
                     "load_linnerud"})


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


def loaded(target, call: ast.Call) -> dict[str, Abstract] | tuple[Abstract, Abstract] | None:
    """What a bundled loader's call returns, by the shapes of the values it holds: the Bunch's
    arrays and frames by key, or with `return_X_y=True` the pair (X, y). Every argument a
    literal keyword of its signature; None for anything else."""
    if type(target) is not types.FunctionType or target.__name__ not in BUNDLED or call.args or \
            any(k.arg is None for k in call.keywords) or not POLICY.is_library(target) or \
            not str(POLICY.module_of(target)).startswith("sklearn.datasets"):
        return None
    datasets = sys.modules.get("sklearn.datasets")
    if datasets is None or POLICY.static(datasets, target.__name__, None) is not target:
        return None
    keywords = {k.arg: _literal(k.value) for k in call.keywords}
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return None
    if any(k not in parameters or type(v) not in (bool, int, float, str, type(None)) for k, v in keywords.items()):
        return None
    if keywords.get("as_frame") and "pandas" not in sys.modules:
        return None                     # the loader would import pandas: no first import here
    got = _loaded(target, tuple(sorted(keywords.items())))
    # a new abstract value each call: each is one object of the cell's, followed by identity
    if type(got) is tuple:
        return tuple(replace(a) for a in got)
    return {k: replace(a) for k, a in got.items()} if got is not None else None


@functools.lru_cache(maxsize=32)
def _loaded(target, keywords: tuple):
    try:
        got = target(**dict(keywords))
    except Exception:  # noqa: BLE001 - refused arguments: the cell raises there
        return None
    if type(got) is tuple:
        parts = tuple(shaped(v) for v in got)
        return parts if len(parts) == 2 and all(p is not None for p in parts) else None
    if not issubclass(type(got), dict):
        return None
    return {k: a for k, v in got.items() if type(k) is str and (a := shaped(v)) is not None}


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
