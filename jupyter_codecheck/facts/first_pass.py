"""A loop's first pass, read as straight-line code:

    for frame in (train, test):              the view: the cell's statements before the loop, then
        frame.drop("c", inplace=True)        `train.drop("c", inplace=True)`, the body once with the
                                             loop's name read as the first name it runs over

A `for` on the cell's top level over a tuple or list display whose first item is a plain name (no
`*`), its target a plain name, without `else`: its body surely runs, first with the target bound
to that name, once the display is made (the view makes it first). The
body may not leave early or jump (break, continue, return, raise, yield, await), define code
(a function, class or lambda), rebind the target or name the first name itself; then the view
says what the first pass does, in the body's own places. The facts read in the view, on the
body's lines, are the cell's (facts.py); whether the cell surely reaches one is judged in the
same view (core/exact_findings.py, certainty.py).
"""
from __future__ import annotations

import ast
import copy

_LEAVES = (ast.Break, ast.Continue, ast.Return, ast.Raise, ast.Yield, ast.YieldFrom, ast.Await,
           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Global, ast.Nonlocal)


def first_passes(tree: ast.Module) -> list[tuple[ast.For, ast.Module]]:
    """Each loop of the cell's top level whose first pass is sure, with its view."""
    out = []
    for i, loop in enumerate(tree.body):
        first = _first_name(loop)
        if first is None:
            continue
        target = loop.target.id
        body = [copy.deepcopy(s) for s in loop.body]
        for s in body:
            for n in ast.walk(s):
                if isinstance(n, ast.Name) and n.id == target:
                    n.id = first
        made = ast.Expr(loop.iter)             # the display is made before the body runs
        ast.copy_location(made, loop.iter)
        out.append((loop, ast.Module(body=tree.body[:i] + [made] + body, type_ignores=[])))
    return out


def in_body(loop: ast.For, line: int) -> bool:
    return loop.body[0].lineno <= line <= loop.end_lineno


def _first_name(loop: ast.stmt) -> str | None:
    if not (isinstance(loop, ast.For) and not loop.orelse and isinstance(loop.target, ast.Name) and
            isinstance(loop.iter, (ast.Tuple, ast.List)) and loop.iter.elts and
            isinstance(loop.iter.elts[0], ast.Name) and not any(isinstance(e, ast.Starred) for e in loop.iter.elts)):
        return None
    target, first = loop.target.id, loop.iter.elts[0].id
    for s in loop.body:
        for n in ast.walk(s):
            if isinstance(n, _LEAVES) or isinstance(n, ast.Name) and (
                    n.id == first or n.id == target and not isinstance(n.ctx, ast.Load)) or \
                    isinstance(n, ast.arg) and n.arg == target or isinstance(n, ast.Match) or \
                    isinstance(n, ast.ExceptHandler) and n.name == target or \
                    isinstance(n, (ast.Import, ast.ImportFrom)) and \
                    any((a.asname or a.name.split(".")[0]) == target for a in n.names):
                return None
    return first
