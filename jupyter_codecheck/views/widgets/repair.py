"""Static views of a failed cell's repair (failure/'s `FailureRepair`): `text/plain`, `text/html`
and the repair as JSON, drawn from the same diff rows as a check's (render.diff_table_html).

    display(repair_bundle(fix, cell_names=...), raw=True)

Where the repair is says which cell the Apply fix edits: the failed cell, or an earlier one (named
by `cell_names`, e.g. "cell_3" of a notebook file, else by how many cells before it ran).
"""
from __future__ import annotations

from typing import Sequence

from ..report import cells_before, diff_text, repair_summary, shown_repair
from .render import SEVERITY_COLOUR, _esc, diff_table_html

MIME_REPAIR = "application/vnd.jupyter-codecheck.repair+json"


def repair_text(fix, cell_names: Sequence[str] | None = None) -> str:
    """The cause, then where the repair is and its diff (no timings: nbval compares it)."""
    lines = [f"codecheck: {fix.cause_text}", f"codecheck: {repair_summary(fix, cell_names)}"]
    lines += diff_text(fix)
    return "\n".join(lines)


def repair_html(fix, cell_names: Sequence[str] | None = None, *, with_cause: bool = True) -> str:
    """The cause (`with_cause`), where the repair is and whether it was verified, and its diff."""
    out = []
    if with_cause:
        out.append(f'<div class="cc-cause" style="font-weight:600;color:{SEVERITY_COLOUR["error"]}">'
                   f'codecheck \u2014 {_esc(fix.cause_text)}</div>')
    verified = fix.repair is not None and fix.repair.verified is not None
    out.append(f'<div class="cc-repair-where" data-verified="{str(verified).lower()}" '
               f'style="font-size:12px;margin:.3em 0;color:#333">{_esc(repair_summary(fix, cell_names))}</div>')
    if fix.repair is not None:
        out.append(diff_table_html(fix.diff_rows()))
    return "\n".join(out)


def repair_bundle(fix, cell_names: Sequence[str] | None = None) -> dict:
    """`text/plain`, self-contained `text/html`, and the repair as JSON under its own MIME type."""
    html = ('<div class="jupyter-codecheck cc-repair" style="font-family:var(--jp-ui-font-family,sans-serif);'
            f'font-size:13px;color:#111;background:#fff;padding:.4em">{repair_html(fix, cell_names)}</div>')
    return {"text/plain": repair_text(fix, cell_names), "text/html": html, MIME_REPAIR: repair_json(fix)}


def repair_json(fix) -> dict:
    """The repair as stored: the failure, the cause, the shown repair with where it is (no
    candidates: a notebook keeps what it shows)."""
    return {**shown_repair(fix), "cells_before": cells_before(fix)}
