"""Names the notebook explains: used before the cell that defines them, after a `del`, or
defined by a cell that failed. With a kernel the history tells; without one, the notebook's
order does (a name only a later cell defines fails when the notebook runs top to bottom).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..pytext.pycheck import near_typo, parse


NEVER_RUN = "no cell run in this kernel defines it"


@dataclass
class NotebookCells:
    """The cells around the checked one: `earlier` ran (or come) before it, in order, with
    whether each ran without an error (None: not known); `later` come after it. `history`:
    `earlier` is every cell the kernel ran, in the order it ran them (a kernel's own record),
    so a name none of them defines was never defined there."""
    earlier: list[str] = field(default_factory=list)
    failed: list[bool | None] = field(default_factory=list)
    later: list[str] = field(default_factory=list)
    history: bool = False


def undefined_reasons(facts, earlier, failed=None, later=None, history=None) -> dict[str, str]:
    """The notebook's reason for each undefined name of a cell (`facts`: pycheck's CellFacts),
    by name: read from the kernel's `history` when given, else from the `earlier` cells."""
    if not facts.undefined:
        return {}
    ran = list(history) if history is not None else list(earlier or ())
    failed = set(failed or ())
    cells = NotebookCells(ran, [c in failed for c in ran], list(later or ()), history=history is not None)
    out = {}
    for u in facts.undefined:
        reason = undefined_reason(u.name, cells)
        # a name the history never defined that is a near-typo of a defined one: the typo is the
        # likelier story, and its fix says it
        if reason and not (reason == NEVER_RUN and any(near_typo(u.name, w) for w in facts.scope)):
            out[u.name] = reason
    return out


def undefined_reason(name: str, cells: NotebookCells) -> str | None:
    """Why `name` is not defined when the cell runs, as the notebook tells; None if it does not."""
    for i in range(len(cells.earlier) - 1, -1, -1):
        binds, deletes = _module_names(cells.earlier[i])
        ago = len(cells.earlier) - i
        where = _where_earlier(ago, cells.history)
        if name in deletes:
            return f"{where} deletes it (del {name})"
        if name in binds:
            failed = cells.failed[i] if i < len(cells.failed) else None
            if failed:
                return f"{where} defines it, but it failed before it did: run it again once it works"
            return None          # defined above and not deleted: the kernel lost it otherwise
    for i, cell in enumerate(cells.later):
        if name in _module_names(cell)[0]:
            # counted in code cells: `cell_N` counts markdown too, so no number that could clash
            where = "the next code cell" if i == 0 else f"the {_ordinal(i + 1)} code cell below"
            return f"only {where} defines it: the notebook fails here when run top to bottom"
    if cells.history and not any(_star_imports(c) for c in cells.earlier):
        # a kernel knows the cells it ran, not the notebook's others: run order, as far as it goes
        return NEVER_RUN
    return None


def _where_earlier(ago: int, history: bool) -> str:
    if history:
        return "the cell run just before" if ago == 1 else f"the cell run {ago} cells before"
    return "the code cell before" if ago == 1 else f"the {_ordinal(ago)} code cell above"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _star_imports(cell: str) -> bool:
    """Does the cell star-import a module whose names are not known (then it may define any)?"""
    from ..pytext.pycheck import _earlier_cell
    return _earlier_cell(cell).module_bound is None


def _module_names(cell: str) -> tuple[set[str], set[str]]:
    """Names a cell binds at module level (imports, assignments, defs), and names it deletes."""
    from ..pytext.pycheck import _earlier_cell
    tree = parse(cell)
    if tree is None:
        return set(), set()
    module = _earlier_cell(cell).module_bound or frozenset()
    deleted = {t.id for s in tree.body if isinstance(s, ast.Delete) for t in s.targets
               if isinstance(t, ast.Name)}
    return set(module) - deleted, deleted
