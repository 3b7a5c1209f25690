"""The lines that can explain a failure, read from the text (no model): the line that raised and
the notebook's frames around it, then the lines that made what the raising line reads, followed
back through its cell and into the earlier cell that last set them.

    places = cause_lines(cells, failure)     # [Place(cell=2, line=3, kind="raised", why="raised here"), ...]

The model ranks these places afterwards (failure/repair.py); here they are only found, in the
order a reader would look: the raising line, the lines before it in its cell that set or change
a name it reads (the nearest first), the earlier cells' last such lines, then the calling frames.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ..pytext.pycheck import parse
from .failure import Failure

MAX_PLACES = 6


@dataclass(frozen=True)
class Place:
    cell: int                   # index in the cells given (the failed cell is the last)
    line: int                   # 1-based in that cell
    kind: str                   # one of KINDS
    why: str                    # as a view says it: "raised here", "sets `X`, which line 3 reads", ...
    names: tuple[str, ...] = ()  # the names it sets, changes or deletes that the raising line reads


# what a place is: the line that raised; a line before it that sets, changes or deletes a name the
# raising line reads; a frame that called the raising one; a line the model reads because no
# frame passed through the cell; a line inside a function the failed line calls
KINDS = ("raised", "sets", "changes", "deletes", "calls", "read", "inside")
# the kinds of a statement that made what the raising line reads
SETTERS = ("sets", "changes", "deletes")


def cause_lines(cells: list[str], failure: Failure, limit: int = MAX_PLACES) -> list[Place]:
    """The places that can explain `failure` in `cells` (the failed cell last), at most `limit`,
    in reading order. With no frame in the failed cell (the traceback was not given), none."""
    if not cells:
        return []
    frames = failure.frames
    if not frames:
        return []
    inner = frames[-1]
    places: list[Place] = [Place(inner.cell, inner.line, "raised", "raised here")]
    reads = _names_read(cells[inner.cell], inner.line)
    lacking = _lacking_attribute(failure)
    if lacking is not None:
        # `N.attr` failed: N's value is what lacks it, the line's other names are not the cause
        reads = _attribute_bases(cells[inner.cell], inner.line, lacking) or reads
    # the names the raising line reads, back through its cell, then the earlier cells
    wanted = dict.fromkeys(reads)
    cell, before = inner.cell, inner.line
    while wanted and cell >= 0 and len(places) < limit:
        for line, names, how in _setters(cells[cell], before, tuple(wanted)):
            if len(places) >= limit:
                break
            shown = ", ".join(f"`{n}`" for n in names)
            places.append(Place(cell, line, how, f"{how} {shown}, which line {inner.line} reads", names))
            for n in names:
                if how in ("sets", "deletes"):
                    wanted.pop(n, None)        # made (or unmade) here: an earlier line's is not what it read
        cell, before = cell - 1, None
    # the frames that called into the raising one (a function of an earlier cell, called here)
    for f in reversed(frames[:-1]):
        if len(places) >= limit:
            break
        if all((p.cell, p.line) != (f.cell, f.line) for p in places):
            places.append(Place(f.cell, f.line, "calls", "calls it"))
    return distinct(places)


def distinct(places: list[Place]) -> list[Place]:
    seen, out = set(), []
    for p in places:
        if (p.cell, p.line) not in seen:
            seen.add((p.cell, p.line))
            out.append(p)
    return out


def _names_read(source: str, line: int) -> list[str]:
    """The names the statement on `line` reads (loaded), in order of appearance."""
    tree = parse(source)
    if tree is None:
        return []
    stmt = statement_at(tree, line)
    if stmt is None:
        return []
    out: list[str] = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in out:
            if getattr(node, "lineno", line) <= line <= getattr(node, "end_lineno", line):
                out.append(node.id)
    return out


_NO_ATTRIBUTE = re.compile(r"has no attribute '([A-Za-z_]\w*)'")


def _lacking_attribute(failure: Failure) -> str | None:
    """The attribute an AttributeError says its object lacks (None: another error)."""
    if failure.error != "AttributeError":
        return None
    m = _NO_ATTRIBUTE.search(failure.message or "")
    return m.group(1) if m else None


def _attribute_bases(source: str, line: int, attr: str) -> list[str]:
    """The names N the statement on `line` reads as `N.attr`, in order of appearance."""
    tree = parse(source)
    stmt = statement_at(tree, line) if tree is not None else None
    if stmt is None:
        return []
    out: list[str] = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) \
                and node.value.id not in out and node.lineno <= line <= (node.end_lineno or node.lineno):
            out.append(node.value.id)
    return out


def statement_at(tree: ast.Module, line: int) -> ast.stmt | None:
    """The innermost simple statement spanning `line` (a compound statement's header when the
    line is one)."""
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno):
            if isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.FunctionDef,
                                 ast.AsyncFunctionDef, ast.ClassDef, ast.AsyncFor, ast.AsyncWith)):
                body_start = node.body[0].lineno if node.body else node.lineno
                if line >= body_start:
                    continue
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


def _setters(source: str, before: int | None, names: tuple[str, ...]) -> list[tuple[int, tuple[str, ...], str]]:
    """(line, names, "sets" | "changes") of the statements in `source` before line `before`
    (None: all) that bind or change one of `names`, the nearest first; for each name only its
    nearest binding, with the changes between it and `before`."""
    tree = parse(source)
    if tree is None:
        return []
    found: list[tuple[int, tuple[str, ...], str]] = []
    done: set[str] = set()
    statements = [s for s in ast.walk(tree) if isinstance(s, ast.stmt)
                  and (before is None or (s.end_lineno or s.lineno) < before)]
    for stmt in sorted(statements, key=lambda s: -s.lineno):
        deleted = [t.id for t in stmt.targets if isinstance(t, ast.Name) and t.id in names
                   and t.id not in done] if isinstance(stmt, ast.Delete) else []
        bound = [n for n in _bound(stmt) if n in names and n not in done]
        changed = [n for n in _changed(stmt) if n in names and n not in done]
        if deleted:
            found.append((stmt.lineno, tuple(deleted), "deletes"))
            done.update(deleted)           # what came before the `del` is gone
        elif bound:
            found.append((stmt.lineno, tuple(bound), "sets"))
            done.update(bound)
        elif changed:
            found.append((stmt.lineno, tuple(changed), "changes"))
    return found


def _bound(stmt: ast.stmt) -> list[str]:
    """Names a statement binds itself (not inside a nested function or class body)."""
    targets: list[ast.AST] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) or isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    out = []
    for t in targets:
        for node in ast.walk(t):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.append(node.id)
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
        out += [n.target.id for n in ast.walk(stmt.value)
                if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)]
    return out


def _changed(stmt: ast.stmt) -> list[str]:
    """Names whose object a statement may change in place: `x[k] = v`, `x.a = v`, `del x[k]`,
    `x.method(...)` as a statement (`df.drop(..., inplace=True)`, `lst.append(v)`)."""
    out = []
    targets: list[ast.AST] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, ast.Delete):
        targets = stmt.targets
    for t in targets:
        if isinstance(t, (ast.Subscript, ast.Attribute)):
            root = _root(t)
            if root:
                out.append(root)
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute):
        root = _root(stmt.value.func.value)
        if root:
            out.append(root)
    return out


def _root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


__all__ = ["KINDS", "SETTERS", "Place", "cause_lines", "code_lines", "distinct", "function_lines"]


def code_lines(source: str, first: int = 1, last: int | None = None) -> list[int]:
    """The lines of `source` (in [first, last]) that hold code a bug can be on: not blank, not a
    comment, not a docstring, not a `def`/`class` header or a decorator (a signature's names
    are the author's choice). None when it does not parse."""
    tree = parse(source)
    if tree is None:
        return []
    lines = source.split("\n")
    last = len(lines) if last is None else last
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body_start = node.body[0].lineno if node.body else node.lineno + 1
            skip.update(range(min([d.lineno for d in node.decorator_list] + [node.lineno]), body_start))
            doc = node.body[0] if node.body else None
            if (isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                    and isinstance(doc.value.value, str)):
                skip.update(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1))
    return [k for k in range(first, last + 1)
            if k not in skip and lines[k - 1].strip() and not lines[k - 1].lstrip().startswith("#")]


def function_lines(source: str, line: int) -> list[int] | None:
    """The code lines of the body of the function whose `def` is on `line` (None: no `def` there)."""
    tree = parse(source)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == line:
            return code_lines(source, node.body[0].lineno, node.end_lineno)
    return None
