"""RepairView: the live notebook view of a failed cell's repair, with **Apply fix**.

It is a CheckView whose result is a repair rather than a check: the same front end
(static/check_view.js) draws the cause as its status line, the diff from the repair's rows, and
applies the fix as one undoable editor edit, in this cell or in the earlier cell the repair names
(`repair.cells_before`: the front end finds the cell above that holds its text).
"""
from __future__ import annotations

from typing import Sequence

import traitlets as t

from ..report import cells_before, repair_place
from .repair import repair_bundle, repair_html
from .views import CheckView, _edit_state


class RepairView(CheckView):
    """`RepairView(fix)`: `source` is the text of the cell the repair edits (the failed cell's when
    there is no repair), `corrected` that cell repaired; `repair` (synced) holds `cause`,
    `place`, `target` (the edited cell in words), `cells_before` and `verified`. `applied` is
    the front end's report of the last Apply fix, as a CheckView's."""

    repair = t.Dict().tag(sync=True)

    def __init__(self, fix, cell_names: Sequence[str] | None = None, **kwargs):
        r = fix.repair
        cell = fix.cells[r.cell] if r is not None else fix.cells[-1]
        super().__init__(source=cell, title="repair", **kwargs)
        self.fix = fix
        self.cell_names = cell_names
        k = cells_before(fix)
        target = "this cell" if k == 0 else (
            cell_names[r.cell] if cell_names is not None and r.cell < len(cell_names) else
            f"the cell that ran {k} cell{'s' if k != 1 else ''} before")
        with self.hold_sync():
            self.repair = {"cause": fix.cause_text,
                           "place": repair_place(fix, cell_names) if r is not None else "",
                           "target": target, "cells_before": k,
                           "verified": None if r is None else r.verified}
            self.edits = [] if r is None else [_edit_state(r.edit)]
            self.corrected = cell if r is None else r.source
            self.diff_html = repair_html(fix, cell_names, with_cause=False)
            self.status = "done"
        self._done.set()

    def static_bundle(self) -> dict:
        return repair_bundle(self.fix, self.cell_names)
