"""A function the cell defines and then calls on its top level, read at its call as straight code:

    def show(model, X, axes=[0, 1]):              the view: the cell's statements before the call
        x1 = np.linspace(axes[0], axes[1], 50)    (the `def` left out), `axes = [0, 1]`, then the
        y = model.predict(x1)                     body once, each parameter read as the name it is
    fig, ax = plt.subplots()                      given (`tree.predict(x1)`), in the body's own
    show(tree, X_train)                           places

The call is a statement of the cell's top level (`f(...)` or `r = f(...)`), the function's first
call there, bound to its parameters by Python's rules: each parameter given a plain name is read
as that name; one given anything else, or left to a default written as a literal, is bound first
(`axes = [0, 1]`). The function is a plain one (no decorator, no `*args`/`**kwargs`, no
positional-only or keyword-only parameters), defined once in the cell and never named again
before the call; its body returns, if at all, only in its last statement, and may not define
code, yield, await or declare names global, bind a name it is given or a parameter, nor read one
of its local names before it binds it (Python reads that as unbound, not as the global). Its
calls inside loops or branches are not read. The facts read in the view, on the body's straight
lines, are the cell's (facts.py); whether the cell surely reaches one is judged in the same view
(core/exact_findings.py, certainty.py), as a loop's first pass is (first_pass.py).
"""
from __future__ import annotations

import ast
import copy

from .abstract_value import _literal
from .first_pass import mentions
from .namespace import UNRESOLVED

_NOT_STRAIGHT = (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.FunctionDef, ast.AsyncFunctionDef,
                 ast.ClassDef, ast.Lambda, ast.Global, ast.Nonlocal)


def called_bodies(tree: ast.Module) -> list[tuple[ast.FunctionDef, ast.Module]]:
    """Each function of the cell's top level read at its first call there, with its view."""
    out = []
    for i, fn in enumerate(tree.body):
        if not _plain_function(fn) or any(mentions(s, fn.name) for s in tree.body[:i]):
            continue
        for j in range(i + 1, len(tree.body)):
            call = _called(tree.body[j], fn.name)
            if call is None:
                if mentions(tree.body[j], fn.name, reads=True):
                    break                   # named again (called in a loop, rebound, passed on): not read
                continue
            bound = _arguments(fn, call)
            if bound is not None:
                view = _view(tree.body[:j], fn, call, bound)
                if view is not None:
                    out.append((fn, view))
            break
    return out


def _plain_function(fn: ast.stmt) -> bool:
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or fn.args.vararg or fn.args.kwarg or \
            fn.args.posonlyargs or fn.args.kwonlyargs:
        return False
    body = fn.body[:-1] if isinstance(fn.body[-1], ast.Return) else fn.body
    return not any(isinstance(n, _NOT_STRAIGHT) for s in body for n in ast.walk(s)) and \
        not any(isinstance(n, _NOT_STRAIGHT[1:]) for n in ast.walk(fn.body[-1])) and \
        not mentions(ast.Module(body=fn.body, type_ignores=[]), fn.name, reads=True)


def _called(stmt: ast.stmt, name: str) -> ast.Call | None:
    """`f(...)` or `r = f(...)`: the call of `name` the statement is."""
    value = stmt.value if isinstance(stmt, ast.Expr) or isinstance(stmt, ast.Assign) and \
        len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == name:
        return value
    return None


def _arguments(fn: ast.FunctionDef, call: ast.Call) -> dict[str, ast.expr] | None:
    """Each parameter's argument as Python binds the call (a default where none is given); None
    where the call would not bind (TypeError) or gives a starred argument."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    names = [a.arg for a in fn.args.args]
    if len(call.args) > len(names):
        return None
    bound = dict(zip(names, call.args))
    for k in call.keywords:
        if k.arg not in names or k.arg in bound:
            return None
        bound[k.arg] = k.value
    defaults = dict(zip(names[len(names) - len(fn.args.defaults):], fn.args.defaults))
    for name in names:
        if name not in bound:
            if name not in defaults or _literal(defaults[name]) is UNRESOLVED:
                return None                 # no argument, or a default made by code at the `def`
            bound[name] = defaults[name]
    return bound


def _view(before: list[ast.stmt], fn: ast.FunctionDef, call: ast.Call, bound: dict[str, ast.expr]) -> ast.Module | None:
    stored = {n.id for s in fn.body for n in ast.walk(s) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    given = {p: a for p, a in bound.items() if isinstance(a, ast.Name)}
    if stored & set(bound) or stored & {a.id for a in given.values()} or _read_unbound(fn.body, stored):
        return None
    bindings = []
    for p, a in bound.items():
        if p not in given:                  # `axes = [0, 1]`: bound once, where the call stands
            bindings.append(ast.copy_location(ast.Assign(targets=[ast.Name(p, ast.Store())], value=a), call))
    for b in bindings:
        ast.fix_missing_locations(b)
    body = [_Given(given).visit(copy.deepcopy(s)) for s in fn.body]
    if isinstance(body[-1], ast.Return):
        last = body[-1]
        body[-1] = ast.copy_location(ast.Expr(last.value), last) if last.value is not None else \
            ast.copy_location(ast.Pass(), last)
    return ast.Module(body=[s for s in before if s is not fn] + bindings + body, type_ignores=[])


def _read_unbound(body: list[ast.stmt], stored: set[str]) -> bool:
    """Does the body read one of its local names before a statement of it binds the name?"""
    bound: set[str] = set()
    for s in body:
        reads = {n.id for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        if (reads & stored) - bound - _bound_by(s):
            return True
        bound |= _bound_by(s)
    return False


def _bound_by(s: ast.stmt) -> set[str]:
    """What a statement surely binds before it reads it again (an assignment's targets; a loop's
    target read in its body)."""
    if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = s.targets if isinstance(s, ast.Assign) else [s.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} \
            - (set() if not isinstance(s, ast.AugAssign) else {s.target.id} if isinstance(s.target, ast.Name) else set())
    if isinstance(s, (ast.For, ast.With)):
        return {n.id for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return set()


class _Given(ast.NodeTransformer):
    """Each parameter given a plain name read as that name, in its place."""

    def __init__(self, given: dict[str, ast.Name]):
        self.given = given

    def visit_Name(self, n: ast.Name) -> ast.expr:
        return ast.copy_location(ast.Name(self.given[n.id].id, n.ctx), n) if n.id in self.given else n


__all__ = ["called_bodies"]
