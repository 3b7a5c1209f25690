"""A loop's first pass, read as straight-line code:

    for frame in (train, test):              the view: the cell's statements before the loop, then
        frame.drop("c", inplace=True)        `train.drop("c", inplace=True)`, the body once with the
                                             loop's name read as the first name it runs over

A `for` on the cell's top level over a tuple or list display whose first item is a plain name (no
`*`), its target a plain name, without `else`: its body surely runs, first with the target bound
to that name, once the display is made (the view makes it first). So does one over Python's own
`range` of ints written in the cell (literals, or names the cell's top level bound to one and
did not bind again) that holds one at least, first with the target its start (`for epoch in
range(n_epochs)` after `n_epochs = 1000`). So does one over a dict's `items()`, first with its
first key and that key's item (_first_item). A comprehension a statement of the top level is or
binds (or a generator one of Python's consumers takes whole) makes its element for its first
item, read in the same way as a loop whose body is the element (_comprehension_pass). The
body may not leave early or jump (break, continue, return, raise, yield, await), define code
(a function, class or lambda), rebind the target or name the first name itself; then the view
says what the first pass does, in the body's own places. The facts read in the view, on the
body's lines, are the cell's (facts.py); whether the cell surely reaches one is judged in the
same view (core/exact_findings.py, certainty.py).
"""
from __future__ import annotations

import ast
import builtins
import copy
import types

from .abstract_value import literal_int
from .read_policy import POLICY

_LEAVES = (ast.Break, ast.Continue, ast.Return, ast.Raise, ast.Assert, ast.Yield, ast.YieldFrom, ast.Await,
           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Global, ast.Nonlocal)


def first_passes(tree: ast.Module, namespace=None) -> list[tuple[ast.For, ast.Module]]:
    """Each loop whose first pass is sure, with its view: the loops of the cell's top level, and
    those on the top level of a sure first pass's body (its first pass runs within that one),
    inner loops before the loops that hold them. `namespace`: the kernel's names, where `range`
    and `enumerate` must be Python's own (without it no such loop is read)."""
    out = []
    for i, loop in enumerate(tree.body):
        comprehension = _comprehension_pass(loop, tree.body[:i], namespace)
        if comprehension is not None:
            out.append(comprehension)
            continue
        bound = _first_values(loop, tree.body[:i], namespace)
        passes = [bound] if bound is not None else _live_passes(loop, tree.body[:i], namespace)
        if not passes:
            continue
        body = [Bound(b).visit(copy.deepcopy(s)) for b in passes for s in loop.body]
        it = loop.iter.args[0] if _enumerated(loop.iter) else loop.iter
        if _zipped(it):
            it = ast.copy_location(ast.Tuple(list(it.args), ast.Load()), it)
        elif _items(it) and bound is not None:
            it = it.func.value          # a dict's own `items()`, which changes nothing it holds
        made = ast.Expr(it)             # the displays are made before the body runs (enumerate, zip run nothing else)
        ast.copy_location(made, it)
        view = ast.Module(body=tree.body[:i] + [made] + body, type_ignores=[])
        out += [(inner, v) for inner, v in first_passes(view, namespace) if any(inner is b for b in body)]
        out.append((loop, view))
    return out


# Python's builtins that consume a generator handed to them (its first item is surely made)
_CONSUMERS = frozenset({"sum", "list", "tuple", "set", "sorted", "min", "max", "any", "all"})


def _comprehension_pass(stmt: ast.stmt, before: list[ast.stmt], namespace) -> tuple[ast.For, ast.Module] | None:
    """`scores = [m.score(X, y) for m in models]`, `sum(t.predict(X) for t in (a, b))`: a list, set
    or dict comprehension a statement of the top level is (or binds), or a generator it hands
    whole to one of Python's _CONSUMERS, one `for` and no `if`, over what holds a first item
    surely (_first_of): its element made for that item, as straight code after the statements
    before it (a loop whose body is the element, for facts.py and certainty.py)."""
    if namespace is None:
        return None
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else None
    comp = value if isinstance(value, (ast.ListComp, ast.SetComp, ast.DictComp)) else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _CONSUMERS and \
            len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.GeneratorExp) and \
            namespace.get(value.func.id, getattr(builtins, value.func.id)) is getattr(builtins, value.func.id) and \
            not any(mentions(s, value.func.id) for s in before):
        comp = value.args[0]
    if comp is None or len(comp.generators) != 1 or comp.generators[0].ifs or comp.generators[0].is_async:
        return None
    generator = comp.generators[0]
    parts = [comp.key, comp.value] if isinstance(comp, ast.DictComp) else [comp.elt]
    if any(isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.ListComp, ast.SetComp,
                          ast.DictComp, ast.GeneratorExp)) for e in parts for n in ast.walk(e)):
        return None
    first = _first_of(generator.iter, generator.target, before, namespace)
    if first is None:
        return None
    body = [ast.copy_location(ast.Expr(Bound(first).visit(copy.deepcopy(e))), e) for e in parts]
    made = ast.copy_location(ast.Expr(generator.iter.func.value if _items(generator.iter) else generator.iter),
                             generator.iter)
    loop = ast.For(target=generator.target, iter=generator.iter, body=body, orelse=[])
    ast.copy_location(loop, body[0])
    loop.end_lineno, loop.end_col_offset = max((b.end_lineno, b.end_col_offset) for b in body)
    return loop, ast.Module(body=before + [made] + body, type_ignores=[])


def _first_of(it: ast.expr, target: ast.expr, before: list[ast.stmt], namespace) -> dict[str, ast.expr] | None:
    """What a comprehension's target names are bound to for its first item, where it surely has one:
    a display written there or bound just before (_display_written), its first item a plain name or
    an immutable literal; a list or tuple of the kernel's (its item 0) or its dict (the first key),
    or that dict's `items()` (the key, and its item), the statements before binding literals or
    running libraries' code alone, never naming it."""
    if isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(isinstance(t, ast.Name) for t in target.elts) \
            and target.elts[0].id != target.elts[1].id and _items(it):
        if not _untouched(it.func.value, before, namespace):
            return None
        return _first_live_item(it.func.value, target.elts[0].id, target.elts[1].id, namespace)
    if not isinstance(target, ast.Name):
        return None
    display = it if isinstance(it, (ast.Tuple, ast.List)) else _display_written(it, before, namespace)
    if display is not None:
        if not display.elts or isinstance(display.elts[0], ast.Starred):
            return None
        item = display.elts[0]
        # a name first only in a display written there (one bound before may name another object now)
        if isinstance(item, ast.Name) and display is it or \
                isinstance(item, ast.Constant) and type(item.value) in _LITERALS:
            return {target.id: copy.deepcopy(item)}
        return None
    if not isinstance(it, (ast.Name, ast.Attribute)) or not _untouched(it, before, namespace):
        return None
    held = _live_object(it, namespace)
    if type(held) in (list, tuple) and held:
        return {target.id: ast.Subscript(copy.deepcopy(it), ast.Constant(0), ast.Load())}
    items = _live_dict(it, namespace)
    if items is not None and dict.__len__(items):
        key = next(dict.__iter__(items))
        return {target.id: ast.Constant(key)} if type(key) in _LITERALS else None
    return None


def _untouched(node: ast.expr, before: list[ast.stmt], namespace) -> bool:
    """Does nothing before the statement name the kernel's object `node` reaches, or run code
    that could (only literals bound, or libraries' code run)?"""
    root = chain_root_name(node)
    return root is not None and not any(mentions(s, root, reads=True) for s in before) and \
        _left_alone(root, before, namespace)


# how many passes of a loop over a live list are read, one after the other, as straight code
_MAX_PASSES = 16


def chain_root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _live_passes(loop: ast.stmt, before: list[ast.stmt], namespace) -> list[dict[str, ast.expr]]:
    """A loop over a list or tuple the kernel holds, of Python's own strings and numbers (`for col
    in cat_cols:`), that nothing can change while the loop runs: nothing before it in the cell but
    names bound to literals, a body that names the list nowhere and calls only libraries' code
    (`_library_calls`: the user's code could reach the list as a global). Its every pass in turn,
    the target each item written out: a pass sees what the passes before it changed, as the view
    runs them one after the other; [] where not so."""
    if namespace is None or not (isinstance(loop, ast.For) and not loop.orelse and
                                 isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Name)):
        return []
    items = namespace.get(loop.iter.id)
    if type(items) not in (list, tuple) or not 0 < len(items) <= _MAX_PASSES or \
            any(type(v) not in _LITERALS for v in items) or \
            any(mentions(s, loop.iter.id, reads=True) or not _binds_literal(s) for s in before) or \
            not _plain_body(loop, loop.target.id, None) or \
            any(mentions(s, loop.iter.id, reads=True) for s in loop.body) or \
            not all(_library_calls(s, namespace) for s in loop.body):
        return []
    return [{loop.target.id: ast.Constant(v)} for v in items]


def _library_calls(node: ast.AST, namespace) -> bool:
    """Does every call in `node` reach a library's code alone: a builtin, or a chain from a name the
    kernel binds to a library's module, class or function or to an object of a library's own class
    (`df[col].astype(int)`, `le.fit_transform(...)`), one the statement does not bind?"""
    bound = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    for call in (x for x in ast.walk(node) if isinstance(x, ast.Call)):
        root = call.func
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            root = root.func if isinstance(root, ast.Call) else root.value
        if not isinstance(root, ast.Name) or root.id in bound:
            return False
        if root.id not in namespace:
            if not hasattr(builtins, root.id):
                return False
            continue
        obj = namespace[root.id]
        if issubclass(type(obj), types.ModuleType):
            if not POLICY.is_library_module(POLICY.module_of(obj)):
                return False
        elif issubclass(type(obj), (types.FunctionType, types.BuiltinFunctionType)):
            if not POLICY.is_library(obj):
                return False
        elif not POLICY.library_through(obj if issubclass(type(obj), type) else type(obj)):
            return False
    return True


def _first_values(loop: ast.stmt, before: list[ast.stmt], namespace) -> dict[str, ast.expr] | None:
    """What the loop's target names are bound to on its sure first pass (a name or a literal, in
    the view's text), or None where that pass is not sure."""
    first = _first_name(loop)
    if first is not None:
        return {loop.target.id: ast.Name(first, ast.Load())}
    start = _range_start(loop, before, namespace)
    if start is not None:
        return {loop.target.id: ast.Constant(start)}
    return _first_literal(loop, before, namespace) or _first_item(loop, before, namespace)


def _first_item(loop: ast.stmt, before: list[ast.stmt], namespace) -> dict[str, ast.expr] | None:
    """`for name, model in models.items()`: over a dict display the cell binds before the loop (by
    _display_written's rule for a list) or a dict the kernel holds that nothing can change while
    the loop runs (_live_passes' rule), its first key an immutable literal, the body naming the
    dict nowhere: the key, and in the value's places the display's first value where it is a plain
    name or a literal (`{"lr": lr, ...}`), the kernel's dict's item read by its key (`models["lr"]`)."""
    if namespace is None or not (isinstance(loop, ast.For) and not loop.orelse):
        return None
    it, target = loop.iter, loop.target
    if not (_items(it) and isinstance(target, ast.Tuple) and len(target.elts) == 2 and
            all(isinstance(t, ast.Name) for t in target.elts)):
        return None
    written, (key, value) = it.func.value, (t.id for t in target.elts)
    held = chain_root_name(written)
    if key == value or held in (key, value) or any(mentions(s, held, reads=True) for s in loop.body):
        return None
    found = _plain_binding(written, before)
    if found is not None:
        at, display = found
        if not isinstance(display, ast.Dict) or not display.keys or None in display.keys or \
                not (isinstance(display.keys[0], ast.Constant) and type(display.keys[0].value) in _LITERALS) or \
                not _left_alone(held, before[at + 1:], namespace):
            return None
        first, written_value = display.keys[0].value, display.values[0]
        keys = [k.value for k in display.keys if isinstance(k, ast.Constant) and type(k.value) in _LITERALS]
        if len(keys) != len(display.keys) or len(set(keys)) != len(keys):
            return None                     # (a key written twice, `1` and `True`: the last value is kept)
        if not (isinstance(written_value, ast.Name) or
                isinstance(written_value, ast.Constant) and type(written_value.value) in _LITERALS):
            return None                     # (an item the cell makes there is known by the dict's name alone)
        if isinstance(written_value, ast.Name) and (
                any(mentions(s, written_value.id) for s in before[at + 1:]) or
                not _plain_body(loop, value, written_value.id)):
            return None                     # the name bound again before the loop, or named in its body
        bound = {key: ast.Constant(first), value: copy.deepcopy(written_value)}
    else:
        if any(mentions(s, held) for s in before) or not all(_binds_literal(s) for s in before):
            return None
        bound = _first_live_item(written, key, value, namespace)
        # the kernel's dict: the user's code could reach it as a global and change it while the loop runs
        if bound is None or not all(_library_calls(Bound(bound).visit(copy.deepcopy(s)), namespace)
                                    for s in loop.body):
            return None
    if not (_plain_body(loop, key, None) and _plain_body(loop, value, None)):
        return None
    return bound


def _first_live_item(written: ast.expr, key: str, value: str, namespace) -> dict[str, ast.expr] | None:
    """`key` and `value` bound to the first item of the kernel's dict `written` reaches
    (_live_dict), its first key an immutable literal: that key, and the dict's item read by it."""
    items = _live_dict(written, namespace)
    if items is None or not dict.__len__(items):
        return None
    first = next(dict.__iter__(items))
    if type(first) not in _LITERALS:
        return None
    return {key: ast.Constant(first), value: ast.Subscript(copy.deepcopy(written), ast.Constant(first), ast.Load())}


class Bound(ast.NodeTransformer):
    """The loop's targets read as their first values (a name, a literal, the range's start), in
    their places."""

    def __init__(self, first: dict[str, ast.expr]):
        self.first = first

    def visit_Name(self, n: ast.Name) -> ast.expr:
        if n.id not in self.first:
            return n
        value = copy.deepcopy(self.first[n.id])
        for part in ast.walk(value):        # (an item read written in the name's place)
            if not hasattr(part, "lineno"):
                ast.copy_location(part, n)
        value.written = n.id                # what the cell's text says there (as_written)
        return ast.copy_location(value, n)


class _AsWritten(ast.NodeTransformer):
    def visit(self, node):
        written = getattr(node, "written", None)
        return ast.Name(written, ast.Load()) if written is not None else self.generic_visit(node)


def as_written(node: ast.AST) -> ast.AST:
    """A view's node as the cell writes it: each value read in a name's place back to that name."""
    return _AsWritten().visit(copy.deepcopy(node))


# the values a loop's first item may be written as to be read in the view: Python's own
# immutable literals, the same value wherever the view writes them
_LITERALS = (int, float, complex, str, bytes, bool)


def _first_literal(loop: ast.stmt, before: list[ast.stmt], namespace) -> dict[str, ast.expr] | None:
    """A loop over a display whose first item is a literal, written in the loop (`for C in [0.01,
    1, 100]`) or bound to a name just before (_display_written: `C_range = [0.01, 1, 100]`), or
    over Python's own `enumerate` of such a display, or of one written in the loop whose first item
    is a plain name (`for i, clf in enumerate([a, b])`: i is 0 first): the targets' first values."""
    if namespace is None or not (isinstance(loop, ast.For) and not loop.orelse):
        return None
    it, target, index = loop.iter, loop.target, None
    if _enumerated(it):
        if namespace.get("enumerate", builtins.enumerate) is not builtins.enumerate or \
                any(mentions(s, "enumerate") for s in before + [loop]) or len(it.args) != 1 or it.keywords or \
                not (isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[0], ast.Name) and
                     (isinstance(target.elts[1], ast.Name) or _zipped(it.args[0]))) or \
                isinstance(target.elts[1], ast.Name) and target.elts[0].id == target.elts[1].id:
            return None
        index, it, target = target.elts[0].id, it.args[0], target.elts[1]
    if _zipped(it):
        return _first_zipped(loop, it, target, index, before, namespace)
    if isinstance(target, ast.Tuple) and index is None:
        return _first_unpacked(loop, it, target, before, namespace)
    if not isinstance(target, ast.Name):
        return None
    display = it if isinstance(it, (ast.Tuple, ast.List)) else _display_written(it, before, namespace)
    if display is None or not display.elts or any(isinstance(e, ast.Starred) for e in display.elts):
        return None
    first = display.elts[0]
    if isinstance(first, ast.Constant) and type(first.value) in _LITERALS:
        value, name = ast.Constant(first.value), None
    elif _flat_display(first) and all(_only_indexing(s, target.id) for s in loop.body):
        value, name = copy.deepcopy(first), None        # `for pair in [[0, 1], [0, 2]]`: read as `X[:, [0, 1]]`
    elif isinstance(first, ast.Name) and display is it and index is not None:
        value, name = ast.Name(first.id, ast.Load()), first.id
    else:
        return None
    names = [target.id] + ([index] if index is not None else [])
    if not all(_plain_body(loop, n, name) for n in names):
        return None
    return {target.id: value, **({index: ast.Constant(0)} if index is not None else {})}


def _first_unpacked(loop: ast.For, it: ast.expr, target: ast.Tuple, before: list[ast.stmt],
                    namespace) -> dict[str, ast.expr] | None:
    """`for subplot, rate in ((0, 1), (1, 0.5))`: a display (written there or bound just before)
    whose first item is a display of as many immutable literals as the target has plain names."""
    display = it if isinstance(it, (ast.Tuple, ast.List)) else _display_written(it, before, namespace)
    names = [t.id for t in target.elts if isinstance(t, ast.Name)]
    if display is None or not display.elts or len(names) != len(target.elts) or len(set(names)) != len(names):
        return None
    first = display.elts[0]
    if not _flat_display(first) or len(first.elts) != len(names):
        return None
    if not all(_plain_body(loop, n, None) for n in names):
        return None
    return {n: ast.Constant(e.value) for n, e in zip(names, first.elts)}


def _zipped(it: ast.expr) -> bool:
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "zip"


def _first_zipped(loop: ast.For, it: ast.Call, target: ast.expr, index: str | None, before: list[ast.stmt],
                  namespace) -> dict[str, ast.expr] | None:
    """`for est, name in zip([lr, svc], ["lr", "svc"])` (in `enumerate` too): Python's own zip of
    displays written in the loop, none empty, each target name bound on the first pass to its
    display's first item, a plain name or an immutable literal."""
    if namespace.get("zip", builtins.zip) is not builtins.zip or any(mentions(s, "zip") for s in before + [loop]) or \
            it.keywords or not it.args or not isinstance(target, ast.Tuple) or len(target.elts) != len(it.args) or \
            not all(isinstance(t, ast.Name) for t in target.elts) or \
            not all(isinstance(d, (ast.List, ast.Tuple)) and d.elts and not isinstance(d.elts[0], ast.Starred)
                    for d in it.args):
        return None
    names = [t.id for t in target.elts] + ([index] if index is not None else [])
    if len(set(names)) != len(names):
        return None
    first = [d.elts[0] for d in it.args]
    if not all(isinstance(f, ast.Name) or isinstance(f, ast.Constant) and type(f.value) in _LITERALS for f in first):
        return None
    given = [f.id for f in first if isinstance(f, ast.Name)]
    if not all(_plain_body(loop, n, g) for n in names for g in given or [None]):
        return None
    bound = {t.id: copy.deepcopy(f) for t, f in zip(target.elts, first)}
    return bound | ({index: ast.Constant(0)} if index is not None else {})


def _items(it: ast.expr) -> bool:
    """`d.items()`, `est.named_estimators_.items()`: of a name, or of attributes of a name."""
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" and \
        not it.args and not it.keywords and chain_root_name(it.func.value) is not None


def _live_dict(node: ast.expr, namespace):
    """The kernel's dict (or a library's dict class: scikit-learn's Bunch) a name or a chain of
    plain attributes reaches (_live_object); else None."""
    obj = _live_object(node, namespace)
    return obj if type(obj) is dict or issubclass(type(obj), dict) and POLICY.is_library(type(obj)) else None


def _live_object(node: ast.expr, namespace):
    """The kernel's object a name or a chain of plain attributes reaches, read statically (no
    property, no `__getattr__`); else None."""
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _live_object(node.value, namespace)
        found = POLICY.static(base, node.attr, None) if base is not None else None
        return None if found is None or hasattr(type(found), "__get__") else found
    return None


def _enumerated(it: ast.expr) -> bool:
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate"


def _display_written(node: ast.expr, before: list[ast.stmt], namespace) -> ast.Tuple | ast.List | None:
    """The display the last statement of `before` that binds the name binds it to, as a plain
    `name = [...]`; a list only where the statements after it bind names to literals alone, or
    never read the name and run libraries' code alone (the new list is held by that name only,
    so no code of anyone's there can reach it to change it)."""
    found = _plain_binding(node, before)
    if found is None or not isinstance(found[1], (ast.Tuple, ast.List)):
        return None
    at, display = found
    if isinstance(display, ast.List) and not _left_alone(node.id, before[at + 1:], namespace):
        return None
    return display


def _left_alone(name: str, statements: list[ast.stmt], namespace) -> bool:
    """Can none of these statements reach what `name` holds: each binds names to literals alone,
    or never reads the name and runs libraries' code alone, nothing that reaches names by theirs?"""
    return all(_binds_literal(s) or not mentions(s, name, reads=True) and _library_calls(s, namespace) and
               not any(isinstance(n, ast.Name) and n.id in _INTROSPECTION for n in ast.walk(s)) for s in statements)


# builtins that reach a name without writing it
_INTROSPECTION = frozenset({"globals", "locals", "vars", "eval", "exec", "__import__", "getattr", "setattr"})


def _binds_literal(s: ast.stmt) -> bool:
    """`gamma_range = [0.1, 1, 10]`, `results = []`: names bound to Python's literals only (or a
    name read alone: an outer loop's display made, in its first pass's view)."""
    if isinstance(s, ast.Expr) and isinstance(s.value, ast.Name):
        return True
    if not (isinstance(s, ast.Assign) and all(isinstance(t, ast.Name) for t in s.targets)):
        return False
    try:
        ast.literal_eval(s.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def in_body(loop: ast.For, line: int) -> bool:
    return loop.body[0].lineno <= line <= loop.end_lineno


def in_straight_body(loop: ast.For, line: int) -> bool:
    """Is `line` on a simple statement of the body itself (not under an `if`, a loop, `try` or
    `with` in it, which may run on a later pass alone, with what the first pass changed)?"""
    return any(s.lineno <= line <= s.end_lineno for s in loop.body
               if not isinstance(s, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
                                     ast.Match, getattr(ast, "TryStar", ast.Try))))


def _range_start(loop: ast.stmt, before: list[ast.stmt], namespace) -> int | None:
    """The first value of a loop over Python's `range` of ints the cell writes, where it runs
    once at least; else None."""
    if namespace is None or namespace.get("range", builtins.range) is not builtins.range or \
            not (isinstance(loop, ast.For) and not loop.orelse and isinstance(loop.target, ast.Name) and
                 isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name) and
                 loop.iter.func.id == "range" and 1 <= len(loop.iter.args) <= 3 and not loop.iter.keywords):
        return None
    if any(mentions(s, "range") for s in before + [loop]):
        return None
    bounds = [_int_written(a, before, namespace) for a in loop.iter.args]
    if None in bounds or (len(bounds) == 3 and bounds[2] == 0) or not range(*bounds):
        return None
    if not _plain_body(loop, loop.target.id, None):
        return None
    return range(*bounds)[0]


def _int_written(node: ast.expr, before: list[ast.stmt], namespace=None) -> int | None:
    """An int literal (`-1` too), or a name the last statement of `before` that binds it binds
    to one, as a plain `name = <int>` (no other binding of it in that statement); or a name of the
    kernel's bound to Python's int that nothing before names (`for i in range(k)`, k an earlier
    cell's)."""
    if not isinstance(node, ast.Name):
        return literal_int(node)
    found = _plain_binding(node, before)
    if found is None and namespace is not None and type(namespace.get(node.id)) is int and \
            not any(mentions(s, node.id) for s in before):
        return namespace[node.id]
    return literal_int(found[1]) if found is not None else None


def _plain_binding(node: ast.expr, before: list[ast.stmt]) -> tuple[int, ast.expr] | None:
    """The last statement of `before` that binds the name `node`, where it is a plain `name =
    <value>`: its place in `before` and the value; None otherwise (or for no name)."""
    if not isinstance(node, ast.Name):
        return None
    at = next((i for i in range(len(before) - 1, -1, -1) if mentions(before[i], node.id)), None)
    binding = before[at] if at is not None else None
    if not (isinstance(binding, ast.Assign) and len(binding.targets) == 1 and
            isinstance(binding.targets[0], ast.Name) and binding.targets[0].id == node.id):
        return None
    return at, binding.value


def mentions(node: ast.AST, name: str, *, reads: bool = False) -> bool:
    """Does `node` bind or delete `name` anywhere, define, import or declare it (`reads`: or
    read it)?"""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id == name and (reads or not isinstance(n.ctx, ast.Load)) or \
                isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name or \
                isinstance(n, ast.alias) and (n.asname or n.name.split(".")[0]) == name or \
                isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names or \
                isinstance(n, ast.ExceptHandler) and n.name == name or \
                isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name == name:
            return True
    return False


def _first_name(loop: ast.stmt) -> str | None:
    if not (isinstance(loop, ast.For) and not loop.orelse and isinstance(loop.target, ast.Name) and
            isinstance(loop.iter, (ast.Tuple, ast.List)) and loop.iter.elts and
            isinstance(loop.iter.elts[0], ast.Name) and not any(isinstance(e, ast.Starred) for e in loop.iter.elts)):
        return None
    target, first = loop.target.id, loop.iter.elts[0].id
    return first if _plain_body(loop, target, first) else None


def _flat_display(node: ast.expr) -> bool:
    """A list or tuple display of Python's immutable literals alone (`[0, 1]`, `("a", "b")`)."""
    return isinstance(node, (ast.List, ast.Tuple)) and \
        all(isinstance(e, ast.Constant) and type(e.value) in _LITERALS for e in node.elts)


def _only_indexing(stmt: ast.stmt, name: str) -> bool:
    """Is `name` read only as an index (`X[:, pair]`) or indexed (`pair[0]`), never kept, given
    away or changed? Then a display written in its place each time it is read is the same value."""
    allowed = set()
    for n in ast.walk(stmt):
        if isinstance(n, ast.Subscript):
            parts = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
            allowed |= {id(e) for e in parts if isinstance(e, ast.Name)}
            if isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load):
                allowed.add(id(n.value))
    return all(id(n) in allowed for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == name)


def _plain_body(loop: ast.For, target: str, first: str | None) -> bool:
    """Does the body run to its end without leaving, jumping, defining code, rebinding the
    target or naming `first`?"""
    for s in loop.body:
        for n in ast.walk(s):
            if isinstance(n, _LEAVES) or isinstance(n, ast.Name) and (
                    n.id == first or n.id == target and not isinstance(n.ctx, ast.Load)) or \
                    isinstance(n, ast.arg) and n.arg == target or isinstance(n, ast.Match) or \
                    isinstance(n, ast.ExceptHandler) and n.name == target or \
                    isinstance(n, (ast.Import, ast.ImportFrom)) and \
                    any((a.asname or a.name.split(".")[0]) == target for a in n.names):
                return False
    return True
