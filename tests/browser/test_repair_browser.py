"""A failed cell's repair in a real JupyterLab: with auto mode on, a cell that raises inside a
function an earlier cell defines shows the repair's live view under its traceback; Apply fix edits
that earlier cell as one undoable edit (Ctrl+Z there restores it) and leaves the failed cell as it
is."""
from __future__ import annotations

from lab_helpers import cell, cell_source, open_notebook, run_all_cells, screenshot_down_to_cell, write_notebook
from test_magic_browser import _wait_view

LOAD = "%load_ext jupyter_codecheck\n%codecheck auto on"
DEFINES = "def mean(xs):\n    return sum(xs) / len(xz)"
CALLS = "print(mean([1, 2, 3]))"


def test_apply_fix_repairs_the_earlier_cell_and_undo_restores_it(lab_page, jupyterlab, screenshots):
    page = lab_page
    write_notebook(jupyterlab, "repair.ipynb", [LOAD, DEFINES, CALLS])
    open_notebook(page, jupyterlab, "repair.ipynb")
    run_all_cells(page)

    view = cell(page, 2).locator(".cc-view")
    view.wait_for(timeout=90_000)
    _wait_view(page, 2, "['done', 'cancelled', 'error'].includes(v.dataset.status)", 180)
    assert view.get_attribute("data-status") == "done", view.locator(".cc-status").inner_text()
    assert cell(page, 2).locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
                                 ".jp-RenderedText").first.is_visible()      # the traceback stays
    assert "NameError: name 'xz' is not defined" in view.locator(".cc-status").inner_text()
    diff = view.locator(".cc-diff-box")
    assert "repair on line 2 of the cell that ran 1 cell before" in diff.inner_text()
    assert not view.locator(".cc-heat-section").is_visible()     # a repair scored no tokens

    view.scroll_into_view_if_needed()
    screenshot_down_to_cell(page, screenshots / "cell-repair.png", 2)

    view.locator(".cc-apply").click()
    message = view.locator(".cc-apply-msg").inner_text()
    assert message.startswith("Fix applied to the cell that ran 1 cell before"), message
    assert cell_source(page, 1) == "def mean(xs):\n    return sum(xs) / len(xs)"
    assert cell_source(page, 2) == CALLS
    # the edited cell's editor has the focus: its undo restores the original
    page.keyboard.press("Control+z")
    assert cell_source(page, 1) == DEFINES
