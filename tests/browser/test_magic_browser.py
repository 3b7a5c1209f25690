"""A `%%codecheck` cell in a real JupyterLab: the live view shows the heat map and the diff, Apply
fix puts the corrected code into the cell (undo brings the original back), Cancel stops a running
check. Saves docs/notebook-check.png for the README."""
from __future__ import annotations

import re

from lab_helpers import (
    NOTEBOOK,
    REPO,
    cell,
    cell_source,
    lab_command,
    open_notebook,
    run_all_cells,
    saved_notebook,
    wait_kernel_idle,
    write_notebook,
)

BUGGY = "x = [1, 2, 3]\npritn(x)"
SCREENSHOT = REPO / "docs" / "notebook-check.png"

LOAD = "%load_ext jupyter_codecheck"
CHECK = "%%codecheck\n" + BUGGY


def _view(page, index: int):
    return cell(page, index).locator(".cc-view")


def _wait_view(page, index: int, condition: str, timeout_s: float):
    """Until `condition` (JS, over `v`: the view's element) holds for the view in cell `index`."""
    page.wait_for_function(
        "([sel, i]) => { const c = document.querySelectorAll(sel)[i];"
        " const v = c && c.querySelector('.cc-view'); return !!v && (" + condition + "); }",
        arg=[f"{NOTEBOOK} .jp-Cell", index], timeout=timeout_s * 1000)


def test_codecheck_cell_heat_map_diff_apply_fix(lab_page, jupyterlab):
    page = lab_page
    write_notebook(jupyterlab, "check.ipynb", [LOAD, CHECK])
    open_notebook(page, jupyterlab, "check.ipynb")
    run_all_cells(page)

    view = _view(page, 1)
    view.wait_for(timeout=60_000)
    # the check streams in a worker thread; the view says when it is done
    _wait_view(page, 1, "['done', 'cancelled', 'error'].includes(v.dataset.status)", 180)
    assert view.get_attribute("data-status") == "done", view.locator(".cc-status").inner_text()

    # heat map: every token of the cell, coloured, in the cell's layout
    tokens = view.locator(".cc-heat .cc-tok")
    assert tokens.count() >= 10
    assert view.locator(".cc-heat").inner_text().replace("\u21b5", "") == BUGGY + "\n" or \
        view.locator(".cc-heat").inner_text().replace("\u21b5", "") == BUGGY
    colours = {tokens.nth(i).evaluate("e => e.style.backgroundColor") for i in range(tokens.count())}
    assert len(colours) > 3
    # hover: the details panel (reserved space, no height change) shows the token's numbers
    height_before = view.bounding_box()["height"]
    changed = view.locator(".cc-heat .cc-tok.cc-change").first
    changed.hover()
    details = view.locator(".cc-details").inner_text()
    assert re.search(r"p = [0-9.e-]+ \u00b7 rank \d+ \u00b7 exit layer \d+ ", details), details
    assert "top-5:" in details and "change" in details
    assert abs(view.bounding_box()["height"] - height_before) < 1

    # the diff names the change and the edit kind; the histogram and stats are there
    diff = view.locator(".cc-diff-box")
    assert "pritn" in diff.inner_text() and "print" in diff.inner_text()
    assert diff.locator(".cc-kind").count() >= 1
    assert view.locator(".cc-hist-box svg .cc-bar").count() == 30
    assert "tokens/s" in view.locator(".cc-stats").inner_text()

    # click pins the details (they stay while the mouse moves on)
    changed.click()
    page.mouse.move(0, 0)
    assert view.locator(".cc-heat .cc-pinned").count() == 1
    assert view.locator(".cc-details").inner_text() == details
    view.scroll_into_view_if_needed()
    SCREENSHOT.parent.mkdir(exist_ok=True)
    top = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").bounding_box()
    bottom = cell(page, 1).bounding_box()
    page.screenshot(path=str(SCREENSHOT), clip={
        "x": top["x"], "y": top["y"], "width": top["width"],
        "height": bottom["y"] + bottom["height"] + 12 - top["y"]})

    # Apply fix edits the cell through its editor: the magic line stays, the body is corrected
    view.locator(".cc-apply").click()
    assert "Fix applied" in view.locator(".cc-apply-msg").inner_text()
    fixed = "%%codecheck\nx = [1, 2, 3]\nprint(x)"
    assert cell_source(page, 1) == fixed
    lab_command(page, "docmanager:save")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
    saved = saved_notebook(jupyterlab, "check.ipynb")["cells"][1]
    assert "".join(saved["source"]) == fixed
    # the stored output carries the final static views too (nbconvert, nbval, GitHub show them)
    data = [o["data"] for o in saved["outputs"] if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(data) == 1
    assert "".join(data[0]["text/plain"]).startswith("codecheck: 1 finding")
    assert "-pritn(x)" in "".join(data[0]["text/plain"])
    assert 'class="cc-heat"' in "".join(data[0]["text/html"])
    # ... and the editor's undo restores the user's original
    page.keyboard.press("Control+z")
    assert cell_source(page, 1) == CHECK


# ~1,800 tokens: several seconds of checking (the whole-cell windows of the anchored walk decide
# a few hundred tokens per batch), time to see tokens stream and to cancel
LONG = "\n".join(f"values_{k} = [{k}, {k + 1}, {k + 2}]\nprint(sum(values_{k}) / len(values_{k}))"
                 for k in range(60))


def test_cancel_stops_a_running_check(lab_page, jupyterlab):
    page = lab_page
    write_notebook(jupyterlab, "cancel.ipynb", [LOAD, "%%codecheck\n" + LONG])
    open_notebook(page, jupyterlab, "cancel.ipynb")
    run_all_cells(page)

    view = _view(page, 1)
    view.wait_for(timeout=60_000)
    # live: tokens appear in the heat map while the check runs
    _wait_view(page, 1, "v.dataset.status === 'running' && v.querySelectorAll('.cc-heat .cc-tok').length >= 3", 120)
    assert view.locator(".cc-heat .cc-pending").count() == 1     # the rest, not decided yet
    view.locator(".cc-cancel").click()
    _wait_view(page, 1, "v.dataset.status === 'cancelled'", 30)
    assert "cancelled after" in view.locator(".cc-status").inner_text()
    decided = view.locator(".cc-heat .cc-tok").count()
    from jupyter_codecheck.engine.paths import default_model_path
    from jupyter_codecheck.engine.tokenizer import Tokenizer
    total = len(Tokenizer(default_model_path()).encode(LONG).ids)
    assert 3 <= decided < total
    assert "cancelled" in view.locator(".cc-stats").inner_text()
    wait_kernel_idle(page)
