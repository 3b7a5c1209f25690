"""The views of a failed cell's repair without a kernel process: the static text and HTML, and
the RepairView's state from pending to shown or stopped. The failures are real (cells raised in
an InteractiveShell, which keeps their text for the tracebacks); the repairs are the exact ones
(`use_model=False`): the views are what is tested here, the model's lines in the kernel tests."""
from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

from jupyter_codecheck.failure import repair_failure
from jupyter_codecheck.views.widgets import MIME_REPAIR, RepairView, repair_bundle, repair_text

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def shell():
    return InteractiveShell.instance()


def failed(shell, cells: list[str], use_model: bool = False):
    for c in cells:
        outcome = shell.run_cell(c, silent=True)
    return repair_failure(cells[-1], outcome.error_in_exec, context=cells[:-1], namespace=shell.user_ns,
                          use_model=use_model)


def test_a_verified_repair_of_the_failed_cell(shell):
    fix = failed(shell, ["ages = {'ada': 36}", "x = 1\nage = ages['adda']"])
    assert repair_text(fix).splitlines() == [
        "codecheck: KeyError: 'adda' (line 2)",
        "codecheck: repair on line 2 of this cell (verified by the kernel's facts)",
        " x = 1", "-age = ages['adda']", "+age = ages['ada']"]
    bundle = repair_bundle(fix)
    assert 'data-verified="true"' in bundle["text/html"] and 'class="cc-diff"' in bundle["text/html"]
    assert bundle[MIME_REPAIR]["cells_before"] == 0 and "candidates" not in bundle[MIME_REPAIR]

    view = RepairView(fix)
    assert view.status == "done" and view.source == "x = 1\nage = ages['adda']"
    assert view.corrected == "x = 1\nage = ages['ada']" and len(view.edits) == 1
    assert view.repair["target"] == "this cell" and view.repair["verified"] == "facts"
    data, _ = view._repr_mimebundle_()
    assert WIDGET_MIME in data and data["text/plain"] == repair_text(fix)


def test_no_repair_found_says_so_and_offers_no_fix(shell):
    fix = failed(shell, ["def check(x):\n    raise ValueError('negative')", "check(-1)"])
    assert fix.repair is None
    assert repair_text(fix).splitlines() == ["codecheck: ValueError: negative (line 2 of the previous cell)",
                                             "codecheck: no verified repair found"]
    view = RepairView(fix)
    assert view.edits == [] and view.corrected == view.source == "check(-1)"


def test_the_pending_view_is_filled_in_or_says_why_there_is_none(shell):
    fix = failed(shell, ["ages = {'ada': 36}", "age = ages['adda']"])
    view = RepairView.pending("age = ages['adda']", "KeyError: 'adda'")
    assert view.status == "running" and view.static_bundle()["text/plain"] == \
        "codecheck: KeyError: 'adda' \u2014 looking for a repair\u2026"
    view.show_repair(fix)
    assert view.status == "done" and view.corrected == "age = ages['ada']"
    assert view.static_bundle()[MIME_REPAIR]["repair"]["new_line"] == "age = ages['ada']"

    cancelled = RepairView.pending("age = ages['adda']", "KeyError: 'adda'")
    cancelled.cancel()                                   # the Cancel button
    cancelled.stopped("no repair: cancelled")
    assert cancelled.status == "cancelled" and cancelled.edits == []
    assert cancelled.static_bundle()["text/plain"] == "codecheck: no repair: cancelled"
