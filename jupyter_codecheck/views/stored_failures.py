"""A notebook file's stored errors: the cells whose saved outputs hold a traceback, each with the
cells that ran before it, and their repair (failure/), as the command line reports them.

Run order is the stored execution counts' (a frame `Cell In[N]` is the cell that ran as N); a
cell without a count is taken to have run after the cells above it. No kernel is there: the
repair is re-checked by Python's own checks alone.
"""
from __future__ import annotations

import json

from ..failure import Failure, repair_failure
from ..pytext.sources import Unit, is_notebook
from .report import CellRepair


def stored_cells(path: str, text: str) -> dict[int, tuple[dict | None, int | None]]:
    """Notebook cell index -> (the code cell's first stored error output or None, its execution
    count or None); {} for a file that is no notebook."""
    if not is_notebook(path):
        return {}
    try:
        nb = json.loads(text)
    except ValueError:
        return {}                       # read_units has said why the file cannot be read
    cells = nb.get("cells") if isinstance(nb, dict) else None
    out = {}
    for k, cell in enumerate(cells if isinstance(cells, list) else []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        count = cell.get("execution_count")
        outputs = cell.get("outputs") if isinstance(cell.get("outputs"), list) else []
        error = next((o for o in outputs if isinstance(o, dict) and o.get("output_type") == "error"), None)
        out[k] = (None if error is None else _readable(error), count if isinstance(count, int) else None)
    return out


def _readable(error: dict) -> dict:
    """The error output with its fields as nbformat says they are (a file written by another
    tool may hold anything there): `ename` and `evalue` text, `traceback` a list of lines."""
    tb = error.get("traceback")
    return {"output_type": "error", "ename": str(error.get("ename") or "Exception"),
            "evalue": str(error.get("evalue") or ""),
            "traceback": [x for x in tb if isinstance(x, str)] if isinstance(tb, list) else []}


def ran_before(units: list[Unit], failed: Unit, counts: dict[int, int | None]) -> list[Unit]:
    """The units that ran before `failed`, oldest first: by execution count when it has one,
    else the cells above it."""
    mine = counts.get(failed.cell)
    others = [u for u in units if u.path == failed.path and u.cell is not None and u.cell != failed.cell]
    if mine is None:
        return [u for u in others if u.cell < failed.cell]
    counted = [u for u in others if counts.get(u.cell) is not None and counts[u.cell] < mine]
    return sorted(counted, key=lambda u: counts[u.cell])


def repair_stored(units: list[Unit], failed: Unit, error: dict, counts: dict[int, int | None],
                  options: dict) -> CellRepair:
    """The repair of the error stored in `failed`'s outputs. ValueError: the output is no
    readable error."""
    before = ran_before(units, failed, counts)
    cells = [u.source for u in before] + [failed.source]
    failure = Failure.from_output(error, cells, counts=[counts.get(u.cell) for u in before] + [counts.get(failed.cell)])
    fix = repair_failure(failed.source, failure, context=cells[:-1], model=options.get("model"),
                         threads=options.get("n_threads"))
    return CellRepair(fix, [*before, failed])
