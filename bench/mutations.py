"""Crash-causing mutations of a notebook cell, made from its syntax tree and the live objects it
runs with, for any notebook (no case's names or strings):

    ms = mutants(cell, shell.user_ns, random.Random(seed), per_cell=3, hidden=shell.user_ns_hidden)
    ms[0].kind, ms[0].source, ms[0].prelude, ms[0].line, ms[0].change

The kinds follow the crash taxonomy of notebooks (names, keys, attributes, calls, and a library
rejecting an input's shape, dtype or values):

    column-typo             a string naming a column of a live DataFrame of the statement, one edit away
    attribute-typo          an attribute of a live object (or of what a chain from one gives), one edit away
    keyword-typo            a keyword of a call to a library's callable, one edit away
    1d-slice                an estimator's X one column wide: `X[["a"]]` -> `X["a"]`, `X[:, [0]]` -> `X[:, 0]`,
                            a live 2-D X -> `X[:, 0]` / `X["first column"]`
    text-column             a live text column added to the columns given to an estimator (in the
                            cell's column list, or to its X by an earlier cell: `prelude`; an
                            array X gets a tag column stacked on, which makes it all text)
    shape-mismatch          an array operand of `@`, `np.dot`, `np.matmul`, `+ - * /` transposed or
                            one row short, where numpy's rule on the live shapes then fails
    axis-range              `axis=k` -> `axis=ndim` of the live array or frame
    dropped-column          a column the cell uses dropped by an earlier cell (`prelude`)
    dropped-column-in-cell  the same drop written in the cell just before the statement that uses it
    skipped-definition      a name the cell uses never bound: the cell that defined it skipped (`prelude`
                            deletes it)

Only code that runs when the cell runs is changed (not a function or class body). Nothing here
runs the user's code: objects are read by name, `inspect.getattr_static`, a library object's
own attributes and a DataFrame's columns. Whether a mutant crashes is not decided here: it is
run (bench/notebook_mutations.py).
"""
from __future__ import annotations

import ast
import inspect
import random
import sys
from collections.abc import Mapping

from mutation_cell import (_MISSING, Mutant, _array, _atom, _attribute, _Cell, _frame, _is_library, _literal, _package,
                           _series, _str_columns, _text_columns, _typo)

KINDS = ("column-typo", "attribute-typo", "keyword-typo", "1d-slice", "text-column", "shape-mismatch",
         "axis-range", "dropped-column", "dropped-column-in-cell", "skipped-definition")
_ARRAY_OPS = {ast.MatMult: "@", ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
# a name a cell uses that the shell itself binds
_SHELL_NAMES = frozenset({"In", "Out", "get_ipython", "exit", "quit", "display"})


def mutants(source: str, namespace: Mapping, rng: random.Random, per_cell: int = 3,
            hidden=(), bound: Mapping | None = None) -> list[Mutant]:
    """Up to `per_cell` mutants of the cell, of different kinds (drawn at random among the kinds
    that apply, then one place of each kind at random). `bound`: the objects the cell's own
    assignments left (read after a run of it), for uses after them (their `reach` is derived)."""
    cell = _Cell.read(source, namespace, hidden, bound)
    if cell is None:
        return []
    by_kind = {kind: op(cell, rng) for kind, op in OPERATORS.items()}
    kinds = [k for k in KINDS if by_kind[k]]
    rng.shuffle(kinds)
    out, seen = [], set()
    for kind in kinds:
        m = rng.choice(by_kind[kind])
        if (m.source, m.prelude) not in seen and len(out) < per_cell:
            seen.add((m.source, m.prelude))
            out.append(m)
    return out


def uses_own_bindings(source: str) -> list[str]:
    """The names the cell binds and then uses (their objects are known only after a run of it)."""
    cell = _Cell.read(source, {}, ())
    if cell is None:
        return []
    return sorted({n.id for n in cell.nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                   and cell.stored.get(n.id, n.lineno + 1) <= n.lineno})


# -- the operators ------------------------------------------------------------------------------

def column_typo(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    frames: dict[int, list] = {}               # a statement -> the live DataFrames it names
    for node in cell.nodes:
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value):
            continue
        if isinstance(cell.parents.get(id(node)), ast.JoinedStr) or cell.stored_key(node):
            continue                            # an f-string's part, a column being made
        stmt = cell.statement(node)
        if id(stmt) not in frames:
            frames[id(stmt)] = [df for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                                and (df := _frame(cell.live(n))) is not None]
        named = [df for df in frames[id(stmt)] if node.value in _str_columns(df)]
        if not named:
            continue
        taken = set().union(*(_str_columns(df) for df in named))
        new = _typo(node.value, rng, taken, identifier=False)
        text = cell.text(node)
        if new and text:
            m = cell.replace(node, _literal(new, text), "column-typo", f"{node.value!r} -> {new!r}",
                             _key_reach(cell, node))
            if m:
                out.append(m)
    return out


def _key_reach(cell: _Cell, node: ast.AST) -> str:
    """live when the object a key is given to (`<obj>[key]`, `<obj>.method(key)`) is a live chain's."""
    child, parent = node, cell.parents.get(id(node))
    while isinstance(parent, (ast.List, ast.Tuple, ast.keyword)):
        child, parent = parent, cell.parents.get(id(parent))
    if isinstance(parent, ast.Subscript) and child is parent.slice:
        return cell.reach(parent.value)
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute):
        return cell.reach(parent.func.value)
    return "live"


def attribute_typo(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        if cell.root(node.value) is _MISSING:
            continue
        base = cell.live(node.value)
        taken = set()
        if base is not _MISSING:
            if _attribute(base, node.attr) is _MISSING:
                continue                        # not an attribute it has (as far as is read)
            try:
                taken = set(dir(base)) if _is_library(base) or issubclass(type(base), type(sys)) else set()
            except Exception:  # noqa: BLE001
                continue
            if _frame(base) is not None:
                taken |= _str_columns(base)
        new = _typo(node.attr, rng, taken)
        if not new:
            continue
        # the attribute's name ends the node: replace the last len(attr) characters
        s = cell.span(node)
        if s is None or not cell.source[s[0]:s[1]].endswith(node.attr):
            continue
        start = s[1] - len(node.attr)
        line, col = cell.where(start)
        out.append(Mutant("attribute-typo", cell.source[:start] + new + cell.source[s[1]:], line, col,
                          f".{node.attr} -> .{new}", reach=cell.reach(node.value)))
    return out


def keyword_typo(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if not (isinstance(node, ast.Call) and any(k.arg for k in node.keywords)):
            continue
        callee = cell.live(node.func)
        if callee is _MISSING:
            root = cell.root(node.func)
            if root is _MISSING or not (_is_library(root) or issubclass(type(root), type(sys))):
                continue
            params = set()
        else:
            if not _is_library(callee):
                continue
            try:
                params = set(inspect.signature(callee).parameters)
            except (TypeError, ValueError):
                params = set()
        k = rng.choice([k for k in node.keywords if k.arg])
        new = _typo(k.arg, rng, params | {x.arg for x in node.keywords})
        s = cell.span(k)
        if not new or s is None or not cell.source[s[0]:s[1]].startswith(k.arg):
            continue
        line, col = cell.where(s[0])
        out.append(Mutant("keyword-typo", cell.source[:s[0]] + new + cell.source[s[0] + len(k.arg):], line, col,
                          f"{k.arg}= -> {new}=", reach=cell.reach(node.func)))
    return out


def one_d_slice(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if not cell.estimator_call(node):
            continue
        x = node.args[0]
        text = cell.text(x)
        if text is None:
            continue
        m = None
        if isinstance(x, ast.Subscript) and isinstance(x.slice, ast.List) and len(x.slice.elts) == 1 \
                and isinstance(x.slice.elts[0], ast.Constant):
            one = cell.text(x.slice.elts[0])
            m = one and cell.replace(x.slice, one, "1d-slice", f"[[{one}]] -> [{one}]", cell.reach(x.value))
        elif isinstance(x, ast.Subscript) and isinstance(x.slice, ast.Tuple) and len(x.slice.elts) == 2:
            second = x.slice.elts[1]
            if isinstance(second, ast.List) and len(second.elts) == 1 and isinstance(second.elts[0], ast.Constant):
                one = cell.text(second.elts[0])
                m = one and cell.replace(second, one, "1d-slice", f"[:, [{one}]] -> [:, {one}]", cell.reach(x.value))
            elif isinstance(second, ast.Slice) and isinstance(second.lower, ast.Constant) and second.step is None:
                one = cell.text(second.lower)
                m = one and cell.replace(second, one, "1d-slice", f"[:, {one}:...] -> [:, {one}]", cell.reach(x.value))
        else:
            live = cell.live(x)
            if _array(live) is not None and live.ndim == 2:
                m = cell.replace(x, f"{_atom(text, x)}[:, 0]", "1d-slice", f"{text} -> {text}[:, 0]", cell.reach(x))
            elif _frame(live) is not None and len(live.columns) and isinstance(live.columns[0], str):
                first = repr(live.columns[0])
                m = cell.replace(x, f"{_atom(text, x)}[{first}]", "1d-slice", f"{text} -> {text}[{first}]", cell.reach(x))
        if m:
            out.append(m)
    return out


def text_column(cell: _Cell, rng: random.Random) -> list[Mutant]:
    fits = [n for n in cell.nodes if cell.estimator_call(n)]
    if not fits:
        return []
    out = []
    for node in cell.nodes:                    # a column list in a cell that fits: one more, of text
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.List) and node.slice.elts \
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.slice.elts):
            df = _frame(cell.live(node.value))
            if df is None:
                continue
            listed = {e.value for e in node.slice.elts}
            extra = [c for c in _text_columns(df) if c not in listed]
            last = node.slice.elts[-1]
            s, lt = cell.span(last), cell.text(last)
            if not extra or s is None:
                continue
            add = rng.choice(extra)
            new = cell.source[:s[1]] + ", " + _literal(add, lt) + cell.source[s[1]:]
            line, col = cell.where(s[1])
            out.append(Mutant("text-column", new, line, col, f"+ {add!r} in {cell.text(node)}",
                              reach=cell.reach(node.value)))
    for fit in fits:                            # X given by name: an earlier cell put a text column in it
        x = fit.args[0]
        live = cell.live(x, before=True) if isinstance(x, ast.Name) else None
        arr = _array(live)
        if arr is not None and arr.ndim == 2 and arr.dtype.kind in "biuf":
            # an array: a tag column stacked on (np.column_stack of numbers and text is all text)
            line, col = cell.at(x)
            out.append(Mutant("text-column", cell.source, line, col,
                              f"{x.id} = np.column_stack([{x.id}, ['train'] * len({x.id})]) before the cell",
                              prelude=f"{x.id} = __import__('numpy').column_stack([{x.id}, ['train'] * len({x.id})])\n"))
            continue
        df = _frame(live)
        if df is None or _text_columns(df):
            continue
        sources = [(name, c) for name, v in sorted(cell.ns.items(), key=lambda kv: str(kv[0]))
                   if isinstance(name, str) and name.isidentifier() and not name.startswith("_")
                   and name not in cell.hidden and (f := _frame(v)) is not None and len(f) == len(df)
                   for c in _text_columns(f) if c not in _str_columns(df)]
        line, col = cell.at(x)
        if sources:
            name, c = rng.choice(sources)
            out.append(Mutant("text-column", cell.source, line, col, f"{x.id}[{c!r}] = {name}[{c!r}] before the cell",
                              prelude=f"{x.id} = {x.id}.copy()\n{x.id}[{c!r}] = {name}[{c!r}].to_numpy()\n"))
        elif "split" not in _str_columns(df):
            # no text column of that length lives here: a tag column left in (`X["split"] = "train"`
            # before joining the parts)
            out.append(Mutant("text-column", cell.source, line, col, f"{x.id}['split'] = 'train' before the cell",
                              prelude=f"{x.id} = {x.id}.assign(split='train')\n"))
    return out


def _matmul_fails(a: tuple, b: tuple) -> bool:
    np = sys.modules["numpy"]
    if not a or not b:
        return True
    inner = b[0] if len(b) == 1 else b[-2]
    if a[-1] != inner:
        return True
    try:
        np.broadcast_shapes(a[:-2], b[:-2])
    except ValueError:
        return True
    return False


def _broadcast_fails(a: tuple, b: tuple) -> bool:
    np = sys.modules["numpy"]
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return True
    return False


def shape_mismatch(cell: _Cell, rng: random.Random) -> list[Mutant]:
    np = sys.modules.get("numpy")
    if np is None:
        return []
    out = []
    for node in cell.nodes:
        if isinstance(node, ast.BinOp) and type(node.op) in _ARRAY_OPS:
            pair, matmul = (node.left, node.right), isinstance(node.op, ast.MatMult)
        elif isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords \
                and cell.live(node.func) in (np.dot, np.matmul):
            pair, matmul = tuple(node.args), True
        else:
            continue
        arrays = [_array(cell.live(x)) for x in pair]
        if any(a is None or a.ndim == 0 for a in arrays):
            one = _one_array_changed(cell, pair, arrays)
            if one:
                out.append(one)
            continue
        fails = _matmul_fails if matmul else _broadcast_fails
        options = []
        for side in (0, 1):
            a, text = arrays[side], cell.text(pair[side])
            if text is None:
                continue
            shapes = [arrays[0].shape, arrays[1].shape]
            if a.ndim >= 2:
                shapes[side] = a.shape[::-1]
                if fails(*shapes):
                    options.append((pair[side], f"{_atom(text, pair[side])}.T", f"{text} -> {text}.T"))
            if a.shape[0] >= 2:
                shapes = [arrays[0].shape, arrays[1].shape]
                shapes[side] = (a.shape[0] - 1, *a.shape[1:])
                if fails(*shapes):
                    options.append((pair[side], f"{_atom(text, pair[side])}[:-1]", f"{text} -> {text}[:-1]"))
        if options:
            target, new, change = rng.choice(options)
            reach = "live" if all(cell.reach(x) == "live" for x in pair) else "derived"
            m = cell.replace(target, new, "shape-mismatch", change, reach)
            if m:
                out.append(m)
    return out


def _one_array_changed(cell: _Cell, pair, arrays) -> Mutant | None:
    """One operand a live array, the other an array the cell computes (its shape not read here):
    the live one transposed (not square) or one row short; whether that breaks the rule, the run
    tells."""
    live = [i for i in (0, 1) if arrays[i] is not None and arrays[i].ndim >= 1]
    other = [x for i, x in enumerate(pair) if i not in live]
    if len(live) != 1 or isinstance(other[0], ast.Constant) or _is_scalar(cell.live(other[0])):
        return None
    node, a = pair[live[0]], arrays[live[0]]
    text = cell.text(node)
    if text is None:
        return None
    if a.ndim >= 2 and a.shape[-1] != a.shape[-2]:
        return cell.replace(node, f"{_atom(text, node)}.T", "shape-mismatch", f"{text} -> {text}.T", reach="derived")
    if a.shape[0] >= 2:
        return cell.replace(node, f"{_atom(text, node)}[:-1]", "shape-mismatch", f"{text} -> {text}[:-1]",
                            reach="derived")
    return None


def _is_scalar(obj) -> bool:
    np = sys.modules.get("numpy")
    return type(obj) in (int, float, complex, bool) or np is not None and issubclass(type(obj), np.generic)


def axis_range(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node in cell.nodes:
        if not isinstance(node, ast.Call):
            continue
        axis = next((k for k in node.keywords if k.arg == "axis"), None)
        if axis is None or not (isinstance(axis.value, ast.Constant) and type(axis.value.value) is int
                                or isinstance(axis.value, ast.UnaryOp) and isinstance(axis.value.operand, ast.Constant)):
            continue
        candidates = [node.func.value] if isinstance(node.func, ast.Attribute) else []
        if node.args:
            first = node.args[0]
            candidates += list(first.elts[:1]) if isinstance(first, (ast.List, ast.Tuple)) else [first]
        old = cell.text(axis.value)
        for c in candidates:
            v = cell.live(c)
            if _array(v) is not None or _frame(v) is not None or _series(v) is not None:
                m = cell.replace(axis.value, str(v.ndim), "axis-range", f"axis={old} -> axis={v.ndim}", cell.reach(c))
                break
        else:
            # an array or frame the cell computes (`(a @ b).sum(axis=1)`): its ndim is not read
            # here, most are 1-D or 2-D; whether axis 2 is beyond it, the run tells
            root = cell.root(node.func)
            m = None
            if old in ("0", "1", "-1") and _package(root) in ("numpy", "pandas"):
                m = cell.replace(axis.value, "2", "axis-range", f"axis={old} -> axis=2", reach="derived")
        if m:
            out.append(m)
    return out


def _column_uses(cell: _Cell):
    """(node, frame's name, column) for each use of a live DataFrame's column by name: `df["c"]`,
    `df[["c", ...]]`, `df.c`."""
    for node in cell.nodes:
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Load) \
                and isinstance(node.value, ast.Name):
            df = _frame(cell.live(node.value))
            if df is None:
                continue
            cols = _str_columns(df)
            if isinstance(node, ast.Attribute):
                used = [node.attr] if node.attr in cols and inspect.getattr_static(df, node.attr, _MISSING) is _MISSING else []
            elif isinstance(node.slice, ast.Constant):
                used = [node.slice.value] if node.slice.value in cols else []
            elif isinstance(node.slice, ast.List):
                used = [e.value for e in node.slice.elts if isinstance(e, ast.Constant) and e.value in cols]
            else:
                used = []
            for c in used:
                yield node, node.value.id, c


def dropped_column(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node, name, c in _column_uses(cell):
        if cell.reach(node.value) == "derived":
            continue                            # the cell binds the frame itself: an earlier drop is lost
        line, col = cell.at(node)
        out.append(Mutant("dropped-column", cell.source, line, col, f"{name}.drop(columns=[{c!r}]) before the cell",
                          prelude=f"{name} = {name}.drop(columns=[{c!r}])\n"))
    return out


def dropped_column_in_cell(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out = []
    for node, name, c in _column_uses(cell):
        stmt = cell.statement(node)
        s = cell.span(stmt)
        if s is None or stmt.col_offset != 0:
            continue
        start = s[0]
        if cell.source[:start] and not cell.source[:start].endswith("\n"):
            continue                            # not at a line's start (`a = 1; df["c"]`)
        drop = f"{name} = {name}.drop(columns=[{c!r}])\n"
        line, col = cell.at(node)
        out.append(Mutant("dropped-column-in-cell", cell.source[:start] + drop + cell.source[start:], line + 1, col,
                          f"{drop.strip()} before line {line}", reach=cell.reach(node.value)))
    return out


def skipped_definition(cell: _Cell, rng: random.Random) -> list[Mutant]:
    out, seen = [], set()
    for node in sorted((n for n in cell.nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)),
                       key=lambda n: (n.lineno, n.col_offset)):
        name = node.id
        if name in seen or name in cell.stored or name in cell.hidden or name in _SHELL_NAMES \
                or name.startswith("_") or name not in cell.ns:
            continue
        seen.add(name)
        line, col = cell.at(node)
        out.append(Mutant("skipped-definition", cell.source, line, col, f"{name} never bound",
                          prelude=f"del {name}\n"))
    return out


OPERATORS = {"column-typo": column_typo, "attribute-typo": attribute_typo, "keyword-typo": keyword_typo,
             "1d-slice": one_d_slice, "text-column": text_column, "shape-mismatch": shape_mismatch,
             "axis-range": axis_range, "dropped-column": dropped_column,
             "dropped-column-in-cell": dropped_column_in_cell, "skipped-definition": skipped_definition}
