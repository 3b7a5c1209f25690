"""Silent slips in a notebook cell: mutations that usually run without an error but change what
the cell computes, made from its syntax tree and the live objects it runs with, for any notebook:

    ms = slips(cell, shell.user_ns, random.Random(seed), per_cell=2, hidden=shell.user_ns_hidden)
    ms[0].kind, ms[0].source, ms[0].line, ms[0].change          # bench/mutations.Mutant

The kinds are the slips of the issue's list:

    comparison        a comparison operator: `<` <-> `<=`, `>` <-> `>=`, `==` <-> `!=`, `<` <-> `>`
    arithmetic        an arithmetic operator: `+` <-> `-`, `*` <-> `/`, `//` -> `/` (and their `+=` forms)
    off-by-one        an integer bound one off: a slice bound, an index, `range()`'s arguments, a
                      number compared with
    swapped-arguments the first two positional arguments of a call swapped (not print()'s: their
                      order labels the output, it computes nothing else)
    other-variable    a name whose live object is of a type the namespace holds another name of
                      (a number, a string, an array, a frame, a model, ...): the other name
    other-column      `df["a"]` of a live DataFrame -> another of its columns of the same dtype
    dropped-negation  `not x` -> `x`, `~mask` -> `mask`, `-x` -> `x` (x not a number)

Only code that runs when the cell runs is changed (not a function or class body). Whether a
mutant runs, and whether what the cell computes changes, is not decided here: it is run
(bench/notebook_slips.py).
"""
from __future__ import annotations

import ast
import random
from collections.abc import Mapping

from mutations import _MISSING, Mutant, _Cell, _frame, _str_columns

KINDS = ("comparison", "arithmetic", "off-by-one", "swapped-arguments", "other-variable", "other-column",
         "dropped-negation")
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_COMPARE_SWAPS = {"<": ("<=", ">"), "<=": ("<",), ">": (">=", "<"), ">=": (">",), "==": ("!=",), "!=": ("==",)}
_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//"}
_ARITH_SWAPS = {"+": "-", "-": "+", "*": "/", "/": "*", "//": "/"}
# the types whose values another name may stand in for (a module, function or class is no value slip)
_VALUE_MODULES = ("builtins", "numpy", "pandas", "sklearn")


def slips(source: str, namespace: Mapping, rng: random.Random, per_cell: int = 2, hidden=()) -> list[Mutant]:
    """Up to `per_cell` slips of the cell, of different kinds (drawn at random among the kinds that
    apply, then one place of each kind at random)."""
    cell = _Cell.read(source, namespace, hidden)
    if cell is None:
        return []
    by_kind = {kind: [m for m in op(cell, rng) if m is not None] for kind, op in OPERATORS.items()}
    kinds = [k for k in KINDS if by_kind[k]]
    rng.shuffle(kinds)
    out, seen = [], {source}
    for kind in kinds:
        m = rng.choice(by_kind[kind])
        if m.source not in seen and len(out) < per_cell:
            seen.add(m.source)
            out.append(m)
    return out


def _splice(cell: _Cell, start: int, end: int, new: str, kind: str, change: str) -> Mutant:
    line, col = cell.where(start)
    return Mutant(kind, cell.source[:start] + new + cell.source[end:], line, col, change)


def _between(cell: _Cell, left: ast.AST, right: ast.AST, symbol: str) -> int | None:
    """The offset of the operator `symbol` written between two operands (None: parentheses, a
    comment or a magic there)."""
    a, b = cell.span(left), cell.span(right)
    if a is None or b is None:
        return None
    gap = cell.source[a[1]:b[0]]
    if gap.strip() != symbol:
        return None
    return a[1] + gap.index(symbol)


def comparison(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            sym = _COMPARE[type(node.ops[0])]
            at = _between(cell, node.left, node.comparators[0], sym)
            if at is not None:
                new = rng.choice(_COMPARE_SWAPS[sym])
                out.append(_splice(cell, at, at + len(sym), new, "comparison", f"{sym} -> {new}"))
    return out


def arithmetic(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            sym = _ARITH[type(node.op)]
            at = _between(cell, node.left, node.right, sym)
        elif isinstance(node, ast.AugAssign) and type(node.op) in _ARITH:
            sym = _ARITH[type(node.op)] + "="
            at = _between(cell, node.target, node.value, sym)
        else:
            continue
        if at is not None:
            new = _ARITH_SWAPS[sym.rstrip("=")] + ("=" if sym.endswith("=") else "")
            out.append(_splice(cell, at, at + len(sym), new, "arithmetic", f"{sym} -> {new}"))
    return out


def _is_int(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def off_by_one(cell: _Cell, rng: random.Random) -> list[Mutant]:
    bounds = []
    for node in cell.nodes:
        if isinstance(node, ast.Slice):
            bounds += [b for b in (node.lower, node.upper) if b is not None and _is_int(b)]
        elif isinstance(node, ast.Subscript) and _is_int(node.slice):
            bounds.append(node.slice)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"):
            bounds += [a for a in node.args[:2] if _is_int(a)]
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            bounds += [b for b in (node.left, node.comparators[0]) if _is_int(b)]
    out = []
    for b in bounds:
        s = cell.span(b)
        if s is None or cell.source[s[0]:s[1]] != str(b.value):
            continue
        new = b.value + rng.choice((-1, 1)) if b.value > 0 else b.value + 1
        out.append(_splice(cell, s[0], s[1], str(new), "off-by-one", f"{b.value} -> {new}"))
    return out


def swapped_arguments(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if not (isinstance(node, ast.Call) and len(node.args) >= 2) or _prints(node):
            continue
        a, b = node.args[:2]
        if isinstance(a, ast.Starred) or isinstance(b, ast.Starred):
            continue
        sa, sb = cell.span(a), cell.span(b)
        if sa is None or sb is None:
            continue
        ta, tb = cell.source[sa[0]:sa[1]], cell.source[sb[0]:sb[1]]
        gap = cell.source[sa[1]:sb[0]]
        if ta == tb or gap.strip() != "," or "\n" in ta + tb:
            continue
        out.append(_splice(cell, sa[0], sb[1], tb + gap + ta, "swapped-arguments", f"({ta}, {tb}) -> ({tb}, {ta})"))
    return out


def _prints(call: ast.Call) -> bool:
    """A call of print(): its arguments' order changes how the output is labelled, not what the
    cell computes."""
    return isinstance(call.func, ast.Name) and call.func.id == "print"


def labels_output(slip: dict) -> bool:
    """Is a slip (Mutant.to_dict()) a swap of print()'s arguments?"""
    if slip["kind"] != "swapped-arguments":
        return False
    try:
        tree = ast.parse(slip["source"])
    except SyntaxError:
        return False
    return any(isinstance(n, ast.Call) and _prints(n) and n.args and n.args[0].lineno == slip["line"]
               and n.args[0].col_offset <= slip["column"] < n.args[0].end_col_offset + 1 for n in ast.walk(tree))


def _value_type(obj) -> type | None:
    """The object's class when it is a value of a known library or a builtin value (not a
    module, function or class, nor None or a bool flag)."""
    if obj is _MISSING or obj is None or isinstance(obj, (bool, type)) or callable(obj):
        return None
    module = (type(obj).__module__ or "").split(".")[0]
    return type(obj) if module in _VALUE_MODULES else None


def other_variable(cell: _Cell, rng: random.Random) -> list[Mutant]:
    by_type: dict[type, list[str]] = {}
    for name, obj in cell.ns.items():
        if name.startswith("_") or name in cell.hidden:
            continue
        t = _value_type(obj)
        if t is not None:
            by_type.setdefault(t, []).append(name)
    out = []
    for node in cell.nodes:
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in cell.stored:
            continue
        t = _value_type(cell.ns.get(node.id, _MISSING))
        others = sorted(n for n in by_type.get(t, ()) if n != node.id and n not in cell.stored) if t else []
        s = cell.span(node)
        if others and s is not None:
            other = rng.choice(others)
            out.append(_splice(cell, s[0], s[1], other, "other-variable", f"{node.id} -> {other}"))
    return out


def other_column(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            continue
        df = _frame(cell.live(node.value))
        key = node.slice.value
        if df is None or key not in _str_columns(df) or not df.columns.is_unique:
            continue
        dtype = df[key].dtype
        others = sorted(c for c in _str_columns(df) if c != key and df[c].dtype == dtype)
        s = cell.span(node.slice)
        if others and s is not None:
            other = rng.choice(others)
            quote = cell.source[s[0]]
            out.append(_splice(cell, s[0], s[1], quote + other + quote if quote in "'\"" else repr(other),
                               "other-column", f"{key!r} -> {other!r}"))
    return out


def dropped_negation(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if not isinstance(node, ast.UnaryOp):
            continue
        sym = {ast.Not: "not", ast.Invert: "~", ast.USub: "-"}.get(type(node.op))
        if sym is None or sym == "-" and isinstance(node.operand, ast.Constant):
            continue
        s = cell.span(node)
        if s is None:
            continue
        text = cell.source[s[0]:s[1]]
        if not text.startswith(sym):
            continue
        rest = text[len(sym):]
        if sym == "not" and not rest[:1].isspace() and rest[:1] != "(":
            continue
        out.append(_splice(cell, s[0], s[1], rest.lstrip(), "dropped-negation", f"{text[:30]} -> {rest.lstrip()[:30]}"))
    return out


OPERATORS = {"comparison": comparison, "arithmetic": arithmetic, "off-by-one": off_by_one,
             "swapped-arguments": swapped_arguments, "other-variable": other_variable,
             "other-column": other_column, "dropped-negation": dropped_negation}
assert tuple(OPERATORS) == KINDS
