"""A `%%codecheck` cell in a real JupyterLab: the live view shows the heat map and the diff, Apply
fix puts the corrected code into the cell (undo brings the original back), Cancel stops a running
check. Saves notebook-check.png (the README's, under `make screenshots`)."""
from __future__ import annotations

import re

from lab_helpers import (
    NOTEBOOK,
    cell,
    cell_source,
    lab_command,
    screenshot_down_to_cell,
    open_notebook,
    run_all_cells,
    saved_notebook,
    wait_kernel_idle,
    write_notebook,
)

BUGGY = "x = [1, 2, 3]\npritn(x)"

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


def test_codecheck_cell_heat_map_diff_apply_fix(lab_page, jupyterlab, screenshots):
    page = lab_page
    write_notebook(jupyterlab, "check.ipynb", [LOAD, CHECK])
    open_notebook(page, jupyterlab, "check.ipynb")
    run_all_cells(page)

    view = _view(page, 1)
    view.wait_for(timeout=60_000)
    # the check streams in a worker thread; the view says when it is done
    _wait_view(page, 1, "['done', 'cancelled', 'error'].includes(v.dataset.status)", 180)
    assert view.get_attribute("data-status") == "done", view.locator(".cc-status").inner_text()
    # the cell ends by storing the final static views: its output is drawn once more
    wait_kernel_idle(page)

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

    # the diff names the change and the edit kind; every finding is listed with its severity
    diff = view.locator(".cc-diff-box")
    assert "pritn" in diff.inner_text() and "print" in diff.inner_text()
    assert diff.locator(".cc-kind").count() >= 1
    finding = diff.locator(".cc-finding")
    assert finding.count() == 1 and finding.get_attribute("data-severity") == "error"
    assert "line 2:1" in finding.inner_text() and "pritn" in finding.inner_text()
    # early exit: the default policy tests at the last layer, so no one-bar chart; words say
    # what it saved
    assert view.locator(".cc-hist-box svg .cc-bar").count() == 0
    assert not view.locator(".cc-hist-box").is_visible()
    depth = view.locator(".cc-depth").inner_text()
    assert "every token ran all 30 layers" in depth and "without the full 49,152-token output head" in depth
    stats = view.locator(".cc-stats").inner_text()
    assert "tokens/s" in stats and "SmolLM2-135M-Instruct" in stats and "exit policy head" in stats
    assert "ref-rank" not in stats
    # the loading line is gone once the model is loaded
    assert "loading the model" not in cell(page, 1).locator(".jp-OutputArea").inner_text()
    # compact: a short cell's view fits on a screen
    assert view.bounding_box()["height"] < 600, view.bounding_box()

    # click pins the details (they stay while the mouse moves on)
    changed.click()
    page.mouse.move(0, 0)
    assert view.locator(".cc-heat .cc-pinned").count() == 1
    assert view.locator(".cc-details").inner_text() == details
    view.scroll_into_view_if_needed()
    screenshot_down_to_cell(page, screenshots / "notebook-check.png", 1)

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
    stats = view.locator(".cc-stats").inner_text()
    # the tokens it decided, not the cell's (IPython hands the magic the body with a final newline)
    assert "cancelled" in stats and re.search(rf"\b{decided:,} of [\d,]+ tokens decided", stats), stats
    wait_kernel_idle(page)


# a finding without a fix is listed all the same
NO_FIX = "values = [1, 2, 3]\nprint(sum(values) / zqxwv)"


def test_a_finding_without_a_fix_is_listed(lab_page, jupyterlab):
    page = lab_page
    write_notebook(jupyterlab, "nofix.ipynb", [LOAD, "%%codecheck\n" + NO_FIX])
    open_notebook(page, jupyterlab, "nofix.ipynb")
    run_all_cells(page)
    view = _view(page, 1)
    _wait_view(page, 1, "['done', 'cancelled', 'error'].includes(v.dataset.status)", 180)
    assert view.locator(".cc-status").inner_text().startswith("1 finding: 1 error")
    finding = view.locator(".cc-diff-box .cc-finding")
    assert finding.count() == 1 and finding.get_attribute("data-severity") == "error"
    assert "zqxwv" in finding.inner_text() and "line 2:" in finding.inner_text()


# 3,000 lines: checked piece by piece with progress, the view stays small
HUGE = "\n".join(f"row_{k} = {k} * 2" for k in range(3000))
# one line longer than the model's window: refused, and the refusal alone is shown
ONE_LINE = "x = [" + ", ".join(str(k) for k in range(4000)) + "]"


def test_a_very_long_cell_is_checked_piece_by_piece_in_a_small_view(lab_page, jupyterlab):
    page = lab_page
    write_notebook(jupyterlab, "huge.ipynb", [LOAD, "%%codecheck\n" + ONE_LINE, "%%codecheck\n" + HUGE])
    open_notebook(page, jupyterlab, "huge.ipynb")
    run_all_cells(page)
    refused = _view(page, 1)
    _wait_view(page, 1, "v.dataset.status === 'error'", 180)
    assert "split it into smaller cells" in refused.locator(".cc-status").inner_text()
    assert not refused.locator(".cc-heat").is_visible()
    assert refused.bounding_box()["height"] < 100, refused.bounding_box()

    view = _view(page, 2)
    _wait_view(page, 2, "v.dataset.status === 'running' && /lines 1-\\d+ of 3000/.test("
               "v.querySelector('.cc-status').textContent)", 240)
    assert view.bounding_box()["height"] < 700, view.bounding_box()
    view.locator(".cc-cancel").click()
    _wait_view(page, 2, "v.dataset.status === 'cancelled'", 60)
    assert view.bounding_box()["height"] < 700, view.bounding_box()
    assert "more lines" in view.locator(".cc-heat .cc-pending").inner_text()
    wait_kernel_idle(page)
