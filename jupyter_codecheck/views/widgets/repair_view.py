"""RepairView: the live notebook view of a failed cell's repair, with **Apply fix**.

It is a CheckView whose result is a repair rather than a check: the same front end
(static/check_view.js) draws the cause as its status line, the diff from the repair's rows, and
applies the fix as one undoable editor edit, in this cell or in the earlier cell the repair names
(`repair.cells_before`: the front end finds the cell above that holds its text).

Why a view shown before the repair exists (`RepairView.pending`): a front end draws a cell's
outputs only while the cell's request is open, and auto mode repairs after the cell ended; a
widget shown during the cell is filled in later through its own messages.
"""
from __future__ import annotations

from typing import Sequence

import traitlets as t

from ..report import cells_before, repair_place
from .render import _esc
from .repair import repair_bundle, repair_html
from .views import CheckView, _edit_state


class RepairView(CheckView):
    """`RepairView(fix)`: `source` is the text of the cell the repair edits (the failed cell's when
    there is no repair), `corrected` that cell repaired; `repair` (synced) holds `cause`,
    `place`, `target` (the edited cell in words), `cells_before` and `verified`. `applied` is
    the front end's report of the last Apply fix, as a CheckView's. `RepairView.pending(cell,
    said)` is the view while the repair is looked for; `show_repair(fix)` fills it, `stopped(why)`
    says why there is none; its Cancel button sets `cancel_event`."""

    repair = t.Dict().tag(sync=True)

    def __init__(self, fix=None, cell_names: Sequence[str] | None = None, **kwargs):
        super().__init__(source=fix.cells[-1] if fix is not None else "", title="repair", **kwargs)
        self.fix = None
        self.cell_names = cell_names
        if fix is not None:
            self.show_repair(fix)

    @classmethod
    def pending(cls, cell: str, said: str) -> "RepairView":
        """The view of cell `cell`'s failure (`said`: the error in one line) while its repair is
        looked for."""
        view = cls()
        with view.hold_sync():
            view.source = cell
            view.corrected = cell
            view.repair = {"cause": f"{said} \u2014 looking for a repair\u2026", "cells_before": 0}
            view.diff_html = '<div class="cc-hint">the repair appears here when it is found</div>'
            view.status = "running"
        return view

    def show_repair(self, fix) -> None:
        r = fix.repair
        names = self.cell_names
        cell = fix.cells[r.cell] if r is not None else fix.cells[-1]
        k = cells_before(fix)
        target = "this cell" if k == 0 else (
            names[r.cell] if names is not None and r.cell < len(names) else
            f"the cell that ran {k} cell{'s' if k != 1 else ''} before")
        with self._lock:
            self.fix = fix
            with self.hold_sync():
                self.source = cell
                self.repair = {"cause": fix.cause_text,
                               "place": repair_place(fix, names) if r is not None else "",
                               "target": target, "cells_before": k,
                               "verified": None if r is None else r.verified}
                self.edits = [] if r is None else [_edit_state(r.edit)]
                self.corrected = cell if r is None else r.source
                self.diff_html = repair_html(fix, names, with_cause=False)
                self.status = "done"
        self._finished()

    def stopped(self, why: str) -> None:
        """No repair to show: cancelled (a later cell ran, or Cancel) or failed; `why` says which."""
        with self._lock:
            with self.hold_sync():
                self.repair = {**self.repair, "cause": why}
                self.diff_html = f'<div class="cc-hint">{_esc(why)}</div>'
                self.status = "cancelled" if self.cancel_event.is_set() else "error"
                self.message = why
        self._finished()

    def static_bundle(self) -> dict:
        if self.fix is not None:
            return repair_bundle(self.fix, self.cell_names)
        text = f"codecheck: {self.repair.get('cause', '')}"
        return {"text/plain": text, "text/html": f'<div class="jupyter-codecheck">{_esc(text)}</div>'}
