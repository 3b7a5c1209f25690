"""The column names a DataFrame method call is given: `df.sort_values("pirce")`,
`df.groupby(by="regoin")`, `df.drop(columns=["nmae"])`, `df.dropna(subset=["age"])`. A name the
DataFrame lacks is a KeyError there (each method is held against the installed pandas by
tests/test_kernel_facts.py).

`column_literals(call)` answers the string literals that must be columns (or, where pandas also
takes them, index level names), and whether index level names count; None when the call names
none for sure (another axis, `errors="ignore"`, a `level=`, not a literal).
"""
from __future__ import annotations

import ast

# method: (position of the argument, its keyword, index level names count too, a list is labels)
_TAKES = {
    "sort_values": (0, "by", True, True),
    "groupby": (0, "by", True, False),      # a list as long as the frame is group keys, not labels
    "set_index": (0, "keys", False, True),
    "dropna": (None, "subset", False, True),
    "drop_duplicates": (0, "subset", False, True),
    "duplicated": (0, "subset", False, True),
    "nlargest": (1, "columns", False, True),
    "nsmallest": (1, "columns", False, True),
    "explode": (0, "column", False, True),
    "value_counts": (0, "subset", True, False),   # it groups: as groupby
    "pop": (0, "item", False, False),
    "melt": (None, "id_vars", False, True),
}


def column_literals(n: ast.Call) -> tuple[list[ast.Constant], bool] | None:
    func = n.func
    if not isinstance(func, ast.Attribute):
        return None
    kw = {k.arg: k.value for k in n.keywords}
    if func.attr == "drop":
        return _dropped(n, kw)
    if func.attr not in _TAKES or "axis" in kw or "level" in kw:
        return None
    at, name, index_names, lists = _TAKES[func.attr]
    named = kw.get(name)
    if named is None and at is not None and len(n.args) > at:
        named = n.args[at]
    keys = _literals(named, lists)
    return (keys, index_names) if keys else None


def _dropped(n: ast.Call, kw: dict) -> tuple[list[ast.Constant], bool] | None:
    """`df.drop(columns="a")`, `df.drop(["a"], axis=1)` (unless errors="ignore")."""
    if isinstance(kw.get("errors"), ast.Constant) and kw["errors"].value == "ignore":
        return None
    if "columns" in kw:
        named = kw["columns"]
    elif n.args and isinstance(kw.get("axis"), ast.Constant) and kw["axis"].value in (1, "columns"):
        named = n.args[0]
    else:
        return None
    keys = _literals(named, True)
    return (keys, False) if keys else None


def _literals(node, lists: bool) -> list[ast.Constant]:
    if node is None:
        return []
    if isinstance(node, ast.Constant):
        keys = [node]
    elif lists and isinstance(node, (ast.List, ast.Tuple)):
        keys = list(node.elts)
    else:
        return []
    return [k for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
