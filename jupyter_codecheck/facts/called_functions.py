"""A function the cell defines and then calls on its top level, read at its call as straight code:

    def show(model, X, axes=[0, 1]):              the view: the cell's statements before the call
        x1 = np.linspace(axes[0], axes[1], 50)    (the `def` left out), `axes = [0, 1]`, then the
        y = model.predict(x1)                     body once, each parameter read as the name it is
    fig, ax = plt.subplots()                      given (`tree.predict(x1)`), in the body's own
    show(tree, X_train)                           places

The call is a statement of the cell's top level (`f(...)` or `r = f(...)`), the function's first
call there, bound to its parameters by Python's rules: each parameter given a plain name is read
as that name; one given anything else, or left to a default written as a literal, is bound first
(`axes = [0, 1]`). An `if` of the body whose test those literal arguments decide (`if
show_legend:` given True) runs as the branch it takes (_decided). The function is a plain one (no decorator, no `*args`/`**kwargs`, no
positional-only or keyword-only parameters), defined once in the cell and never named again
before the call; its body returns, if at all, only in its last statement, and may not define
code, yield, await or declare names global, bind a name it is given or a parameter, nor read one
of its local names before it binds it (Python reads that as unbound, not as the global). Its
calls inside loops or branches are not read. The facts read in the view, on the body's straight
lines, are the cell's (facts.py); whether the cell surely reaches one is judged in the same view
(core/exact_findings.py, certainty.py), as a loop's first pass is (first_pass.py).

A function of the kernel's (defined in an earlier cell of the session) called the same way is
read at its call from its cell's text as IPython keeps it (linecache), where that text compiles
to the function's own code, its defaults are the literals written there and it closes over
nothing: its body is written after the cell's text (`KernelCall.text`), in the view's places
there, and what the facts find in it is the call's, on the call (KernelFact.within: where in
the view it stands, for the guard's certainty).
"""
from __future__ import annotations

import ast
import copy
import linecache
import types
from dataclasses import dataclass
from collections.abc import Mapping

from .abstract_value import _literal
from .first_pass import Bound, mentions
from .namespace import UNRESOLVED
from .read_policy import POLICY

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
            found = _view(tree.body[:j], fn, call, bound) if bound is not None else None
            if found is not None:
                out.append(found)
            break
    return out


@dataclass
class KernelCall:
    """A call of a function of the kernel's on the cell's top level, and the view that runs its
    body there: `text` is the cell's text with the function's written after it."""
    call: ast.Call
    name: str
    view: ast.Module
    text: str
    function: ast.FunctionDef      # its def, in the places of `text`
    shift: int                     # the def's line there less its line in its own cell


# how many calls of the kernel's functions a cell has read, at most
_MOST_CALLS = 4


def kernel_calls(tree: ast.Module, source: str, namespace: Mapping) -> list[KernelCall]:
    """Each statement of the cell's top level that calls a function of the kernel's (a plain one,
    as _plain_function; its name not bound by the cell before), with its view."""
    out, lines = [], source.split("\n")
    for j, stmt in enumerate(tree.body):
        call = _called(stmt, None)
        if call is None or any(mentions(s, call.func.id) for s in tree.body[:j]):
            continue
        found = _kernel_function(namespace.get(call.func.id), namespace)
        bound = _arguments(found[0], call) if found is not None else None
        if bound is None:
            continue
        fn, written = found
        # the function's text written after the cell's, its body in those places
        text = "\n".join(lines + written[fn.lineno - 1:fn.end_lineno])
        shift = len(lines) + 1 - fn.lineno
        ast.increment_lineno(fn, shift)
        found = _view(tree.body[:j], fn, call, bound)
        if found is not None:
            out.append(KernelCall(call, call.func.id, found[1], text, found[0], shift))
        if len(out) >= _MOST_CALLS:
            break
    return out


def _kernel_function(func, namespace: Mapping) -> tuple[ast.FunctionDef, list[str]] | None:
    """The `def` of a plain function of the kernel's, parsed from its cell's text, where that text
    compiles to the function's own code (no other version of it), its globals are the notebook's,
    it closes over nothing and its defaults are the literals the text writes; with that text's
    lines."""
    if type(func) is not types.FunctionType:
        return None
    code, defaults, kwdefaults, closure = POLICY.function_parts(func)
    known = POLICY.function_globals(func)
    if closure is not None or kwdefaults is not None or type(known) is not dict or \
            dict.get(known, "__name__") != "__main__" or not _plain_data(defaults):
        return None                         # (a default the user's code may have changed: not compared)
    # IPython keeps a cell's text in linecache without a file's time: a module's file may have
    # changed on disk since it was imported
    entry = linecache.cache.get(code.co_filename)
    if type(entry) is not tuple or len(entry) != 4 or entry[1] is not None:
        return None
    lines = linecache.getlines(code.co_filename)
    if not lines or not 0 < code.co_firstlineno <= len(lines):
        return None
    text = "".join(lines)
    lines = text.split("\n")
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.lineno == code.co_firstlineno), None)
    if fn is None or fn.name != code.co_name or fn.col_offset or not _plain_function(fn):
        return None
    try:
        compiled = compile(ast.Module(body=[fn], type_ignores=[]), code.co_filename, "exec")
    except (SyntaxError, ValueError):
        return None
    made = next((c for c in compiled.co_consts if isinstance(c, types.CodeType) and c.co_name == fn.name), None)
    if made is None or made.co_code != code.co_code or made.co_varnames != code.co_varnames or \
            made.co_names != code.co_names or _constants(made) != _constants(code):
        return None                         # the text is not that function's (another version)
    written = [_literal(d) for d in fn.args.defaults]
    if UNRESOLVED in written or (tuple(written) if written else None) != defaults:
        return None
    # the names its body reads as globals are the notebook's: its module's objects are the cell's
    missing = object()
    if type(namespace) is not dict or \
            any(dict.get(known, n, missing) is not dict.get(namespace, n, missing) for n in _names_read(made)):
        return None
    return fn, lines


def _constants(code: types.CodeType) -> list:
    """A code object's constants, those of the code it holds by its name (their places differ)."""
    return [c.co_name if isinstance(c, types.CodeType) else (type(c), c) for c in code.co_consts]


def _plain_data(v, depth: int = 0) -> bool:
    """Python's own literals and tuples, lists and dicts of them (compared without anyone's code)."""
    if v is None or type(v) in (bool, int, float, complex, str, bytes):
        return True
    if depth < 4 and type(v) in (tuple, list):
        return all(_plain_data(x, depth + 1) for x in v)
    if depth < 4 and type(v) is dict:
        return all(_plain_data(k, depth + 1) and _plain_data(x, depth + 1) for k, x in dict.items(v))
    return False


def _names_read(code: types.CodeType) -> set[str]:
    """The names a code object and those it holds (comprehensions) look up: its globals among them."""
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _names_read(c)
    return names


def body_loops(fn: ast.FunctionDef, view: ast.Module, namespace) -> list[tuple[ast.For, ast.Module]]:
    """The loops of a function's body whose first pass is sure in the view of its call
    (first_pass.py), with their views."""
    from .first_pass import first_passes
    return [(loop, inner) for loop, inner in first_passes(view, namespace)
            if fn.body[0].lineno <= loop.lineno <= fn.end_lineno]


def _plain_function(fn: ast.stmt) -> bool:
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or fn.args.vararg or fn.args.kwarg or \
            fn.args.posonlyargs or fn.args.kwonlyargs:
        return False
    body = fn.body[:-1] if isinstance(fn.body[-1], ast.Return) else fn.body
    return not any(isinstance(n, _NOT_STRAIGHT) for s in body for n in ast.walk(s)) and \
        not any(isinstance(n, _NOT_STRAIGHT[1:]) for n in ast.walk(fn.body[-1])) and \
        not mentions(ast.Module(body=fn.body, type_ignores=[]), fn.name, reads=True)


def _called(stmt: ast.stmt, name: str | None) -> ast.Call | None:
    """`f(...)` or `r = f(...)`: the call of `name` (None: of any name) the statement is."""
    value = stmt.value if isinstance(stmt, ast.Expr) or isinstance(stmt, ast.Assign) and \
        len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and name in (None, value.func.id):
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


def _view(before: list[ast.stmt], fn: ast.FunctionDef, call: ast.Call,
          bound: dict[str, ast.expr]) -> tuple[ast.FunctionDef, ast.Module] | None:
    """The function as this call runs it (a branch its literal arguments decide taken: `if
    show_labels:` given True), and the view that runs its body where the call stands."""
    before = [s for s in before if s is not fn]
    stored = _bound_in(fn.body)
    given = {p: a for p, a in bound.items() if isinstance(a, ast.Name)}
    if stored & set(given) or stored & {a.id for a in given.values()} or _read_unbound(fn.body, stored - set(bound)):
        return None                         # (a parameter the body binds again is bound first, below)
    # an immutable literal a parameter the body never binds again is given: read in its places
    given |= {p: a for p, a in bound.items() if p not in stored and isinstance(a, ast.Constant) and
              type(a.value) in _DECIDING}
    literals = {p: a.value for p, a in bound.items() if p not in stored and isinstance(a, ast.Constant) and
                type(a.value) in _DECIDING}
    fn = copy.copy(fn)
    fn.body = _decided(fn.body, literals) or [ast.copy_location(ast.Pass(), fn.body[0])]
    fn.body, defaulted = _defaulted(fn.body, {p for p, a in bound.items() if isinstance(a, ast.Constant) and
                                              a.value is None})
    bindings = []
    for p, a in bound.items():
        if p not in given and p not in defaulted:   # `axes = [0, 1]`: bound once, where the call stands
            bindings.append(ast.copy_location(ast.Assign(targets=[ast.Name(p, ast.Store())], value=a), call))
    for b in bindings:
        ast.fix_missing_locations(b)
    body = [Bound(given).visit(copy.deepcopy(s)) for s in fn.body]   # (a given name read as written: as_written)
    if isinstance(body[-1], ast.Return):
        last = body[-1]
        body[-1] = ast.copy_location(ast.Expr(last.value), last) if last.value is not None else \
            ast.copy_location(ast.Pass(), last)
    return fn, ast.Module(body=before + bindings + body, type_ignores=[])


# the literal arguments a branch's test is read with: Python's immutable ones
_DECIDING = (bool, int, float, str, type(None))
_UNDECIDED = object()


def _defaulted(body: list[ast.stmt], nones: set[str]) -> tuple[list[ast.stmt], set[str]]:
    """`ax = ax or plt.gca()` as the body's first statement to name `ax`, a parameter given None:
    `ax = plt.gca()` (None is false: `or` gives its right side), and the parameter's binding left
    out (nothing reads it before). The statements, and the parameters so read."""
    out, done = list(body), set()
    for p in nones:
        at = next((i for i, s in enumerate(out) if mentions(s, p, reads=True)), None)
        s = out[at] if at is not None else None
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and \
                s.targets[0].id == p and isinstance(s.value, ast.BoolOp) and isinstance(s.value.op, ast.Or) and \
                len(s.value.values) == 2 and isinstance(s.value.values[0], ast.Name) and \
                s.value.values[0].id == p and not mentions(ast.Expr(s.value.values[1]), p, reads=True):
            out[at] = ast.copy_location(ast.Assign(targets=s.targets, value=s.value.values[1]), s)
            done.add(p)
    return out, done


def _decided(body: list[ast.stmt], literals: dict) -> list[ast.stmt]:
    """The statements as they run: an `if` whose test the literal arguments decide (names of
    them, literals, `not`, `and`/`or`, `is None`, `==`) replaced by the branch it takes."""
    out = []
    for s in body:
        test = _truth(s.test, literals) if isinstance(s, ast.If) else _UNDECIDED
        if test is _UNDECIDED:
            out.append(s)
        else:
            out += _decided(s.body if test else s.orelse, literals)
    return out


def _truth(node: ast.expr, literals: dict):
    """The value of a test of literals and the parameters given one; _UNDECIDED otherwise."""
    if isinstance(node, ast.Constant) and type(node.value) in _DECIDING:
        return node.value
    if isinstance(node, ast.Name):
        return literals.get(node.id, _UNDECIDED)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        v = _truth(node.operand, literals)
        return _UNDECIDED if v is _UNDECIDED else not v
    if isinstance(node, ast.BoolOp):
        values = [_truth(v, literals) for v in node.values]
        if _UNDECIDED in values:
            return _UNDECIDED
        result = values[0]
        for v in values[1:]:
            result = (result and v) if isinstance(node.op, ast.And) else (result or v)
        return result
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            isinstance(node.ops[0], (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)):
        a, b = _truth(node.left, literals), _truth(node.comparators[0], literals)
        op = node.ops[0]
        if a is _UNDECIDED or b is _UNDECIDED or isinstance(op, (ast.Is, ast.IsNot)) and None not in (a, b):
            return _UNDECIDED               # (`is` of other literals is the interpreter's choice)
        return a is b if isinstance(op, ast.Is) else a is not b if isinstance(op, ast.IsNot) else \
            a == b if isinstance(op, ast.Eq) else a != b
    return _UNDECIDED


def _bound_in(body: list[ast.stmt]) -> set[str]:
    """The names a body binds (its locals): assigned, deleted, imported, caught, matched."""
    out = set()
    for n in (n for s in body for n in ast.walk(s)):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            out.add(n.id)
        elif isinstance(n, ast.alias):
            out.add(n.asname or n.name.split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name or isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            out.add(n.name)
    return out


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
    if isinstance(s, (ast.Import, ast.ImportFrom)):
        return {a.asname or a.name.split(".")[0] for a in s.names}
    return set()


__all__ = ["KernelCall", "body_loops", "called_bodies", "kernel_calls"]
