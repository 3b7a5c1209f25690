"""Branches a version test shuts on this Python: `if sys.version_info < (3, 0):`, `if PY2:`,
`if six.PY2:`, `if sys.version_info[0] == 2:` and their `else`, read as Python reads them when the
cell runs. Nothing in such a branch runs, so nothing in it is a finding (a notebook's dead
Python 2 code names `unicode`, `xrange`, `raw_input`).

    dead_spans(tree, namespace)   # [((line, col), (end_line, end_col)), ...]

Only tests whose value is fixed for the running interpreter count: `sys.version_info` and
`sys.version` compared with literals (whole, an item, `.major`/`.minor`), `six.PY2`/`six.PY3`,
and a name the cell binds to such a test, or the kernel binds to a bool under a Python-version
name (`PY2`, `PY3`, `IS_PY2`, `PY3K`, ...); `not`, `and`, `or` of those. Anything else is not
known: both branches may run.
"""
from __future__ import annotations

import ast
import operator
import re
import sys
from collections.abc import Mapping

_VERSION_NAME = re.compile(r"^_?(IS_|USING_)?PY(THON)?_?[23](K|X)?$", re.I)
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Eq: operator.eq, ast.NotEq: operator.ne}
_UNKNOWN = object()

Span = tuple[tuple[int, int], tuple[int, int]]


def dead_spans(tree: ast.Module, namespace: Mapping | None = None) -> list[Span]:
    """The spans of the branches of `if` statements (and conditional expressions) that a version
    test shuts on this Python."""
    bound = _version_names(tree)
    ns = namespace if isinstance(namespace, Mapping) else {}
    out: list[Span] = []
    for n in ast.walk(tree):
        if not isinstance(n, (ast.If, ast.IfExp)):
            continue
        value = _value(n.test, bound, ns)
        if value is _UNKNOWN:
            continue
        body = n.body if isinstance(n.body, list) else [n.body]
        orelse = n.orelse if isinstance(n.orelse, list) else [n.orelse]
        shut = orelse if value else body
        if shut:
            out.append(((shut[0].lineno, shut[0].col_offset), (shut[-1].end_lineno, shut[-1].end_col_offset)))
    return out


def in_spans(line: int, column: int, spans: list[Span]) -> bool:
    return any(a <= (line, column) < b for a, b in spans)


def _version_names(tree: ast.Module) -> dict[str, bool]:
    """Names the cell binds, once and on its top level, to a version test: `PY2 = sys.version_info[0] == 2`."""
    values: dict[str, list] = {}
    for s in ast.walk(tree):
        if isinstance(s, ast.Assign):
            for t in s.targets:
                if isinstance(t, ast.Name):
                    values.setdefault(t.id, []).append(s.value)
        elif isinstance(s, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)) and isinstance(s.target, ast.Name):
            values.setdefault(s.target.id, []).append(None)
    out = {}
    for name, vs in values.items():
        if len(vs) == 1 and vs[0] is not None:
            v = _value(vs[0], {}, {})
            if v is not _UNKNOWN:
                out[name] = bool(v)
    return out


def _value(test: ast.expr, bound: dict[str, bool], ns: Mapping):
    """The test's truth on this Python, or _UNKNOWN."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        v = _value(test.operand, bound, ns)
        return v if v is _UNKNOWN else not v
    if isinstance(test, ast.BoolOp):
        values = [_value(v, bound, ns) for v in test.values]
        if isinstance(test.op, ast.And):
            if any(v is not _UNKNOWN and not v for v in values):
                return False
            return _UNKNOWN if _UNKNOWN in values else True
        if any(v is not _UNKNOWN and v for v in values):
            return True
        return _UNKNOWN if _UNKNOWN in values else False
    if isinstance(test, ast.Name):
        if test.id in bound:
            return bound[test.id]
        if _VERSION_NAME.match(test.id) and type(ns.get(test.id)) is bool:
            return ns[test.id]
        return _UNKNOWN
    if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name) and test.value.id == "six" \
            and test.attr in ("PY2", "PY3", "PY34"):
        return {"PY2": False, "PY3": True, "PY34": True}[test.attr]
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _COMPARE:
        left, right = _operand(test.left), _operand(test.comparators[0])
        if left is _UNKNOWN or right is _UNKNOWN or (left is _LITERAL) == (right is _LITERAL):
            return _UNKNOWN
        a = _literal(test.left) if left is _LITERAL else left
        b = _literal(test.comparators[0]) if right is _LITERAL else right
        try:
            return bool(_COMPARE[type(test.ops[0])](a, b))
        except TypeError:
            return _UNKNOWN
    return _UNKNOWN


_LITERAL = object()


def _operand(e: ast.expr):
    """This interpreter's version the expression reads (`sys.version_info`, an item or slice of
    it, `.major`, `sys.version`), _LITERAL for a literal, _UNKNOWN otherwise."""
    try:
        ast.literal_eval(e)
        return _LITERAL
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if _is_sys(e, "version_info"):
        return tuple(sys.version_info)
    if _is_sys(e, "version"):
        return sys.version
    if isinstance(e, ast.Attribute) and _is_sys(e.value, "version_info") and e.attr in ("major", "minor", "micro"):
        return getattr(sys.version_info, e.attr)
    if isinstance(e, ast.Subscript) and _is_sys(e.value, "version_info"):
        try:
            index = ast.literal_eval(e.slice)
            return tuple(sys.version_info)[index] if isinstance(index, int) else _UNKNOWN
        except (ValueError, TypeError, SyntaxError, IndexError):
            pass
        if isinstance(e.slice, ast.Slice):
            try:
                lo, hi = (ast.literal_eval(p) if p is not None else None for p in (e.slice.lower, e.slice.upper))
                return tuple(sys.version_info)[lo:hi]
            except (ValueError, TypeError, SyntaxError):
                return _UNKNOWN
    return _UNKNOWN


def _literal(e: ast.expr):
    return ast.literal_eval(e)


def _is_sys(e: ast.expr, attr: str) -> bool:
    return isinstance(e, ast.Attribute) and e.attr == attr and isinstance(e.value, ast.Name) and e.value.id == "sys"
