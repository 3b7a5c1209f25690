"""The JupyterLab sidebar panel in a real lab: Check cell streams a result from the server
extension (heat map, editor underline with the suggestion on hover), Apply fix puts the corrected
code into the cell (undo brings the original back), Check notebook shows progress and per-cell
results; without the server extension the same check runs in the kernel.
Saves panel.png and panel-notebook.png (the README's, under `make screenshots`)."""
from __future__ import annotations

import re

import pytest
from lab_helpers import (NOTEBOOK, cell, cell_source, lab_command, new_page, open_notebook,
                         run_all_cells, wait_kernel_idle, write_notebook)

CELLS = ["import math", "x = [1, 2, 3]\npritn(x)", "def area(r):\n    return math.pi * r ** 2"]
BUGGY, FIXED = CELLS[1], "x = [1, 2, 3]\nprint(x)"
PANEL = "#jupyter-codecheck-panel"
CHECK_S = 300   # one short cell on a loaded 2-core machine, model load included


@pytest.fixture
def page(chromium):
    with new_page(chromium, width=1400) as page:
        yield page


def open_panel(page, server, name):
    write_notebook(server, name, CELLS)
    open_notebook(page, server, name)
    # the panel's tab sits in the right sidebar, with its icon
    tab = page.locator(f'.jp-SideBar.jp-mod-right .lm-TabBar-tab[data-id="{PANEL[1:]}"]')
    tab.click()
    page.locator(PANEL).wait_for(state="visible")
    assert page.locator(f"{PANEL} h2").inner_text() == "Code check"


def select_cell(page, index):
    """Make cell `index` (0-based) active; the panel names it cell_<index + 1>, as people count."""
    page.evaluate("(i) => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = i; }", index)
    page.wait_for_function("(i) => document.querySelector('.jp-codecheck-cell-title')"
                           " && document.querySelector('.jp-codecheck-cell-title').textContent === `cell_${i + 1}`",
                           arg=index)


def save_settings(page, raw: str) -> None:
    page.evaluate("(raw) => window.jupyterapp.serviceManager.settings.save('jupyter-codecheck:plugin', raw)", raw)


def check_cell_and_wait(page):
    page.locator(f"{PANEL} .jp-codecheck-check-cell").click()
    # done: the stats table (or a failure message) replaces the streaming view
    page.locator(f"{PANEL} .jp-codecheck-cell .jp-codecheck-stats, {PANEL} .jp-codecheck-error") \
        .first.wait_for(timeout=CHECK_S * 1000)
    errors = page.locator(f"{PANEL} .jp-codecheck-error")
    assert errors.count() == 0, errors.first.inner_text()


def test_check_cell_apply_fix_and_check_notebook(page, panel_lab, screenshots):
    open_panel(page, panel_lab, "panel.ipynb")
    select_cell(page, 1)
    requests = []
    page.on("request", lambda r: requests.append(r.post_data_json) if "/codecheck/stream" in r.url else None)
    check_cell_and_wait(page)
    box = page.locator(f"{PANEL} .jp-codecheck-cell")
    assert "Jupyter server" in page.locator(f"{PANEL} .jp-codecheck-backend").inner_text()
    # the panel sends no thresholds of its own: the checker's defaults, as in %%codecheck
    assert requests and requests[0]["options"] == {}, requests

    # findings and the diff name the bug and its fix; every finding with its severity and
    # "line:column", as the notebook view says it
    finding = box.locator(".jp-codecheck-finding")
    assert finding.count() == 1 and finding.get_attribute("data-severity") == "error"
    assert "line 2:1" in finding.inner_text() and "pritn" in finding.inner_text()
    diff = box.locator(".jp-codecheck-diff").inner_text().splitlines()
    # the removed line above the added one
    assert diff.index("- pritn(x)") + 1 == diff.index("+ print(x)"), diff
    # heat map: the cell's text, token by token, details on hover
    heatmap = box.locator(".jp-codecheck-heatmap")
    assert heatmap.inner_text() == BUGGY
    tokens = heatmap.locator(".jp-codecheck-token")
    assert tokens.count() >= 8
    flagged = heatmap.locator(".jp-codecheck-decision-change, .jp-codecheck-decision-flag, .jp-codecheck-decision-delete")
    assert "pritn" in "".join(flagged.all_inner_texts())
    flagged.first.hover()
    details = box.locator(".jp-codecheck-token-details").inner_text()
    assert "p = " in details and "rank" in details and "layer" in details
    # early exit: no one-bar histogram (the default policy tests at the last layer), words
    # say what the exit test saved
    exits = box.locator(".jp-codecheck-histogram-section")
    assert exits.locator(".jp-codecheck-bar").count() == 0
    words = exits.inner_text()
    assert "every token ran all 30 layers" in words and "without the full 49,152-token output head" in words
    stats = box.locator(".jp-codecheck-stats").inner_text()
    assert "tokens" in stats and "SmolLM2-135M-Instruct" in stats and "head" in stats
    assert "ref-rank" not in stats

    # the editor underlines the flagged code; hovering it shows the suggestion
    mark = cell(page, 1).locator(".cm-content .jp-codecheck-flagged")
    mark.first.wait_for()
    assert "pritn" in "".join(mark.all_inner_texts())
    mark.first.hover()
    tooltip = page.locator(".cm-tooltip .jp-codecheck-tooltip")
    tooltip.wait_for()
    assert "print" in tooltip.inner_text()
    page.screenshot(path=str(screenshots / "panel.png"))

    # Apply fix: the cell holds the corrected code, through the model, so undo works
    box.locator(".jp-codecheck-apply").click()
    assert cell_source(page, 1) == FIXED
    assert cell(page, 1).locator(".jp-codecheck-flagged").count() == 0
    box.locator(".jp-codecheck-applied").wait_for()
    cell(page, 1).locator(".cm-content").click()
    page.keyboard.press("Control+z")
    page.wait_for_function(f"() => window.jupyterapp.shell.currentWidget.content.widgets[1]"
                           f".model.sharedModel.getSource() === {BUGGY!r}")
    # undone: the panel no longer says the fix is applied, and offers it again
    box.locator(".jp-codecheck-applied").wait_for(state="detached")
    assert box.locator(".jp-codecheck-apply").is_enabled()
    page.keyboard.press("Control+Shift+z")
    page.wait_for_function(f"() => window.jupyterapp.shell.currentWidget.content.widgets[1]"
                           f".model.sharedModel.getSource() === {FIXED!r}")
    box.locator(".jp-codecheck-applied").wait_for()

    # Check notebook: progress, then one line per code cell
    page.locator(f"{PANEL} .jp-codecheck-check-notebook").click()
    progress = page.locator(f"{PANEL} .jp-codecheck-progress-text")
    progress.wait_for()
    assert progress.inner_text().startswith("Checking cell") and "of 3" in progress.inner_text()
    page.wait_for_function("() => { const p = document.querySelector('.jp-codecheck-progress-text');"
                           " return p && p.textContent.startsWith('Checked'); }", timeout=3 * CHECK_S * 1000)
    assert progress.inner_text() == "Checked 3 code cells."
    assert page.locator(f"{PANEL} progress.jp-codecheck-progress").get_attribute("value") == "3"
    items = page.locator(f"{PANEL} .jp-codecheck-cell-item").all_inner_texts()
    assert [i[:3] for i in items] == ["[1]", "[2]", "[3]"]
    assert all(("clean" in i) or ("finding" in i) for i in items), items
    # the fixed cell is clean now; clicking a line selects that cell
    assert "clean" in items[1]
    page.locator(f"{PANEL} .jp-codecheck-cell-item").nth(2).click()
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex === 2")
    page.screenshot(path=str(screenshots / "panel-notebook.png"))
    assert not [e for e in page.console_errors if "codecheck" in e.lower()], page.console_errors


def test_without_the_server_extension_the_kernel_checks(page, panel_lab_kernel_only):
    open_panel(page, panel_lab_kernel_only, "kernel.ipynb")
    select_cell(page, 1)
    check_cell_and_wait(page)
    assert "kernel" in page.locator(f"{PANEL} .jp-codecheck-backend").inner_text()
    box = page.locator(f"{PANEL} .jp-codecheck-cell")
    assert "+ print(x)" in box.locator(".jp-codecheck-diff").inner_text()
    assert box.locator(".jp-codecheck-heatmap").inner_text() == BUGGY
    # the check ran in the kernel without leaving names behind or touching the cells
    assert cell_source(page, 1) == BUGGY
    leftovers = page.locator(f"{NOTEBOOK} .jp-Cell").nth(1).locator(".jp-OutputArea-output")
    assert leftovers.count() == 0


def test_other_languages_are_skipped(page, panel_lab):
    """A %%bash cell is not Python: not checked, and said so at once."""
    write_notebook(panel_lab, "bash.ipynb", ["x = 1", "%%bash\nfor f in *.ipynb; do\n  echo \"$f\"\ndone"])
    open_notebook(page, panel_lab, "bash.ipynb")
    page.locator(f'.jp-SideBar.jp-mod-right .lm-TabBar-tab[data-id="{PANEL[1:]}"]').click()
    requests = []
    page.on("request", lambda r: requests.append(r.post_data_json) if "/codecheck/stream" in r.url else None)
    select_cell(page, 1)
    page.locator(f"{PANEL} .jp-codecheck-check-cell").click()
    note = page.locator(f"{PANEL} .jp-codecheck-skipped")
    note.wait_for(timeout=10_000)
    assert note.inner_text() == "Not checked: a %%bash cell is not Python."
    page.locator(f"{PANEL} .jp-codecheck-check-notebook").click()
    page.wait_for_function("() => { const p = document.querySelector('.jp-codecheck-progress-text');"
                           " return p && p.textContent.startsWith('Checked'); }", timeout=CHECK_S * 1000)
    items = page.locator(f"{PANEL} .jp-codecheck-cell-item").all_inner_texts()
    assert items[1] == "[2] skipped (%%bash)", items
    # only the Python cell went to the server, and without the bash cell as context
    assert [r["source"] for r in requests] == ["x = 1"], requests


def test_the_ignore_setting_silences_a_kind(page, panel_lab):
    """Settings → Code check → Finding kinds to ignore: the request carries them, and the
    undefined name is no finding."""
    page.goto(f"{panel_lab.url}/lab?reset")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.serviceManager")
    save_settings(page, '{"ignore": ["undefined-name"]}')
    try:
        open_panel(page, panel_lab, "ignore.ipynb")
        requests = []
        page.on("request", lambda r: requests.append(r.post_data_json) if "/codecheck/stream" in r.url else None)
        select_cell(page, 1)
        check_cell_and_wait(page)
        assert requests and requests[-1]["options"] == {"ignore": ["undefined-name"]}, requests
        kinds = page.locator(f"{PANEL} .jp-codecheck-cell .jp-codecheck-finding-kind").all_inner_texts()
        assert "undefined-name" not in kinds, kinds
    finally:
        save_settings(page, "{}")


# 3,000 lines: checked piece by piece by the server, the panel stays small
HUGE = "\n".join(f"row_{k} = {k} * 2" for k in range(3000))


def test_a_very_long_cell_streams_in_a_small_panel_and_cancels(page, panel_lab):
    write_notebook(panel_lab, "huge.ipynb", [HUGE])
    open_notebook(page, panel_lab, "huge.ipynb")
    page.locator(f'.jp-SideBar.jp-mod-right .lm-TabBar-tab[data-id="{PANEL[1:]}"]').click()
    select_cell(page, 0)
    page.locator(f"{PANEL} .jp-codecheck-check-cell").click()
    # the panel redraws its running view each frame while tokens stream in, so the heat map
    # is measured in the same frame as the progress note, never through a node about to go
    running = page.wait_for_function(
        "(panel) => { const n = document.querySelector('.jp-codecheck-running');"
        " const heat = document.querySelector(panel + ' .jp-codecheck-heatmap');"
        " if (!n || !heat || !/Checking… [1-9]/.test(n.textContent)) return null;"
        " const pending = heat.querySelector('.jp-codecheck-pending');"
        " return {height: heat.getBoundingClientRect().height,"
        "         pending: pending ? pending.textContent : ''}; }",
        arg=PANEL, timeout=CHECK_S * 1000).json_value()
    assert running["height"] < 600, running
    assert "more lines" in running["pending"], running
    page.locator(f"{PANEL} .jp-codecheck-cancel").click()
    stats = page.locator(f"{PANEL} .jp-codecheck-cell .jp-codecheck-stats")
    stats.wait_for(timeout=120_000)
    text = stats.inner_text()
    # the tokens the check decided, not the cell's
    assert "yes (partial result)" in text and re.search(r"\d+ of \d+ decided", text), text
    height = page.eval_on_selector(f"{PANEL} .jp-codecheck-cell .jp-codecheck-heatmap",
                                   "e => e.getBoundingClientRect().height")
    assert 0 < height < 600, height


CRASH_CELLS = ['import pandas as pd\nsales = pd.DataFrame({"price": [1.0, 2.5], "city": ["Oslo", "Lima"]})',
               'mean_price = sales["pirce"].mean()\nprint(mean_price)']


def test_the_kernels_objects_predict_a_crash_checked_on_the_server(page, panel_lab, screenshots):
    """The server has the model, the kernel the objects. The panel asks the kernel for
    the cell's facts; the server's check reports the missing column with the column's fix.
    Saves panel-crash.png (the README's, under `make screenshots`)."""
    write_notebook(panel_lab, "crash.ipynb", CRASH_CELLS)
    open_notebook(page, panel_lab, "crash.ipynb")
    select_cell(page, 0)
    lab_command(page, "notebook:run-cell")
    wait_kernel_idle(page)
    page.locator(f'.jp-SideBar.jp-mod-right .lm-TabBar-tab[data-id="{PANEL[1:]}"]').click()
    requests = []
    page.on("request", lambda r: requests.append(r.post_data_json) if "/codecheck/stream" in r.url else None)
    select_cell(page, 1)
    check_cell_and_wait(page)
    assert "Jupyter server" in page.locator(f"{PANEL} .jp-codecheck-backend").inner_text()
    assert requests and [f["kind"] for f in requests[-1]["facts"]] == ["key"], requests
    box = page.locator(f"{PANEL} .jp-codecheck-cell")
    finding = box.locator(".jp-codecheck-finding")
    assert finding.count() == 1 and finding.get_attribute("data-severity") == "error"
    assert "no column 'pirce'" in finding.inner_text()
    assert '+ mean_price = sales["price"].mean()' in box.locator(".jp-codecheck-diff").inner_text()
    # the check ran nothing in the notebook: no output under the checked cell
    assert page.locator(f"{NOTEBOOK} .jp-Cell").nth(1).locator(".jp-OutputArea-output").count() == 0
    mark = cell(page, 1).locator(".cm-content .jp-codecheck-flagged")
    mark.first.wait_for()
    page.screenshot(path=str(screenshots / "panel-crash.png"))


GO = "go-on-run"     # the last cell waits for this file: the test creates it once it saw the finding
ON_RUN_CELLS = [
    "import pathlib, time\nimport pandas as pd\n"
    'df = pd.DataFrame({"s1": [0.1, 0.2, 0.3], "s6": [1, 2, 3], "bmi": [21.0, 25.5, 30.1], "target": [0, 1, 0]})\n'
    "def wait_for(name, timeout=600):\n"
    "    end = time.monotonic() + timeout\n"
    "    while not pathlib.Path(name).exists() and time.monotonic() < end:\n"
    "        time.sleep(0.1)",
    'df.drop(columns=["s6"], inplace=True)',
    'target = df.pop("target")',
    'mean_s1 = df["s1"].mean()',
    'df.rename(columns={"s1": "age"}, inplace=True)',
    f'wait_for("{GO}")\nprint(df["bmii"].mean())',
]


def test_check_on_run_reads_the_state_the_cell_runs_in(page, panel_lab, tmp_path):
    """With "Check cells when they run", a cell is judged by the objects it runs on, read before
    it runs: its own drop or pop is no finding, and a missing column shows while the cell still
    runs, before its output. Check notebook then does not judge a cell that already ran by the
    state after it (a later rename); cells are named from 1 in the header and the list."""
    write_notebook(panel_lab, "on_run.ipynb", ON_RUN_CELLS)
    go = panel_lab.root_dir / GO
    go.unlink(missing_ok=True)
    page.goto(f"{panel_lab.url}/lab?reset")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.serviceManager")
    save_settings(page, '{"autoCheckOnRun": true}')
    try:
        open_notebook(page, panel_lab, "on_run.ipynb")      # the settings are read as the lab loads
        page.locator(f'.jp-SideBar.jp-mod-right .lm-TabBar-tab[data-id="{PANEL[1:]}"]').click()
        run_all_cells(page)
        # the last cell waits for GO: its finding must show while it still runs, with no output
        select_cell(page, 5)
        finding = page.locator(f"{PANEL} .jp-codecheck-cell .jp-codecheck-finding")
        finding.first.wait_for(timeout=CHECK_S * 1000)
        last = cell(page, 5)
        assert last.locator(".jp-InputPrompt").inner_text().strip() == "[*]:"
        assert last.locator(".jp-OutputArea-output").count() == 0
        assert finding.count() == 1 and "DataFrame has no column 'bmii'" in finding.inner_text()
        # the underline covers the whole key, quotes included
        mark = last.locator(".cm-content .jp-codecheck-flagged")
        mark.first.wait_for()
        assert mark.all_inner_texts() == ['"bmii"']
        stats = page.locator(f"{PANEL} .jp-codecheck-cell .jp-codecheck-stats").inner_text()
        assert "read just before the cell ran" in stats
        page.screenshot(path=str(tmp_path / "panel-on-run.png"))     # what the user sees, kept with the run
        go.write_text("")
        last.locator(".jp-OutputArea-output").first.wait_for(timeout=60_000)
        assert "KeyError" in last.locator(".jp-OutputArea-output").inner_text()

        # the cells that drop and pop ran fine: checked before they ran, no finding
        for index in (1, 2, 3):
            select_cell(page, index)
            box = page.locator(f"{PANEL} .jp-codecheck-cell")
            box.locator(".jp-codecheck-stats").wait_for(timeout=CHECK_S * 1000)
            assert box.locator(".jp-codecheck-finding").count() == 0, box.inner_text()
            assert cell(page, index).locator(".jp-codecheck-flagged").count() == 0

        # Check notebook: df["s1"] ran before the rename, so today's objects do not judge it
        wait_kernel_idle(page)
        page.locator(f"{PANEL} .jp-codecheck-check-notebook").click()
        page.wait_for_function("() => { const p = document.querySelector('.jp-codecheck-progress-text');"
                               " return p && p.textContent.startsWith('Checked'); }", timeout=3 * CHECK_S * 1000)
        items = page.locator(f"{PANEL} .jp-codecheck-cell-item").all_inner_texts()
        assert [i.split("]")[0] + "]" for i in items] == [f"[{k}]" for k in range(1, 7)], items
        assert items[3] == "[4] clean", items
        select_cell(page, 3)                                 # its header: cell_4, as in the list
        stats = page.locator(f"{PANEL} .jp-codecheck-cell .jp-codecheck-stats").inner_text()
        assert "not read: the cell already ran" in stats
    finally:
        save_settings(page, "{}")
        go.unlink(missing_ok=True)


LONG_LINE_CELLS = ["heights_in_centimetres = [152.5, 167.25, 181.0]",
                   "average_height_in_centimetres = sum(heights_in_centimetres) / len(heights_in_centimetres)"
                   "  # the mean of the measured heights\npritn(average_height_in_centimetres)"]


def test_the_diff_keeps_long_lines_whole_and_scrolls(page, panel_lab, tmp_path):
    """A line wider than the panel stays one line in the diff and the heat map (never broken
    inside a name): they scroll sideways, and a changed line's colour runs under all of its text."""
    write_notebook(panel_lab, "long_line.ipynb", LONG_LINE_CELLS)
    open_notebook(page, panel_lab, "long_line.ipynb")
    page.locator(f'.jp-SideBar.jp-mod-right .lm-TabBar-tab[data-id="{PANEL[1:]}"]').click()
    select_cell(page, 1)
    check_cell_and_wait(page)
    diff = page.locator(f"{PANEL} .jp-codecheck-cell .jp-codecheck-diff")
    texts = diff.locator(".jp-codecheck-diff-line").all_inner_texts()
    assert "+ print(average_height_in_centimetres)" in texts, texts
    assert any(t.startswith("  average_height_in_centimetres = ") for t in texts), texts
    geometry = diff.evaluate("""pre => ({
        scroll: pre.scrollWidth, client: pre.clientWidth,
        lines: [...pre.querySelectorAll('.jp-codecheck-diff-line')].map(l => ({
            text: l.textContent, height: l.getBoundingClientRect().height,
            width: l.getBoundingClientRect().width, textWidth: l.scrollWidth }))})""")
    assert geometry["scroll"] > geometry["client"], geometry       # wider than the panel: it scrolls
    one_line = min(line["height"] for line in geometry["lines"])
    widest = max(line["textWidth"] for line in geometry["lines"])
    for line in geometry["lines"]:
        assert line["height"] < 1.5 * one_line, (line, one_line)   # no line wrapped
        assert line["width"] >= widest - 1, (line, widest)           # its colour as wide as the diff
    # the heat map keeps the cell's lines too: two lines tall, scrolled sideways
    heat = page.locator(f"{PANEL} .jp-codecheck-cell .jp-codecheck-heatmap")
    lines = heat.evaluate("h => ({scroll: h.scrollWidth, client: h.clientWidth, height: h.clientHeight})")
    assert lines["scroll"] > lines["client"] and lines["height"] < 3 * one_line, lines
    page.screenshot(path=str(tmp_path / "panel-long-line.png"))
    diff.evaluate("pre => { pre.scrollLeft = pre.scrollWidth; }")
    diff.screenshot(path=str(tmp_path / "diff-scrolled.png"))


REPAIR_CELLS = ["def mean(xs):\n    return sum(xs) / len(xz)", "print(mean([1, 2, 3]))"]


def test_a_cell_that_raises_on_run_gets_its_repair_applied_to_the_earlier_cell(page, panel_lab):
    """With "Check cells when they run", a cell that raised shows its cause and repair in the
    panel, made in the kernel from the failure; the repair is in the earlier cell that defines the
    failing function, Apply fix edits that cell (the failed cell stays as it is) and Ctrl+Z there
    restores it."""
    write_notebook(panel_lab, "repair_on_run.ipynb", REPAIR_CELLS)
    page.goto(f"{panel_lab.url}/lab?reset")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.serviceManager")
    save_settings(page, '{"autoCheckOnRun": true}')
    try:
        open_notebook(page, panel_lab, "repair_on_run.ipynb")
        page.locator(f'.jp-SideBar.jp-mod-right .lm-TabBar-tab[data-id="{PANEL[1:]}"]').click()
        run_all_cells(page)
        select_cell(page, 1)
        section = page.locator(f"{PANEL} .jp-codecheck-repair")
        section.locator(".jp-codecheck-repair-cause, .jp-codecheck-repair-none") \
            .first.wait_for(timeout=CHECK_S * 1000)
        assert "NameError: name 'xz' is not defined" in section.locator(".jp-codecheck-repair-cause").inner_text()
        summary = section.locator(".jp-codecheck-repair-summary").inner_text()
        assert summary.startswith("repair on line 2 of the cell that ran 1 cell before") and "cell_1" in summary
        diff = section.locator(".jp-codecheck-diff").inner_text()
        assert "-     return sum(xs) / len(xz)" in diff and "+     return sum(xs) / len(xs)" in diff

        apply = section.locator(".jp-codecheck-repair-apply")
        assert apply.inner_text() == "Apply fix to cell_1"
        apply.click()
        assert cell_source(page, 0) == "def mean(xs):\n    return sum(xs) / len(xs)"
        assert cell_source(page, 1) == REPAIR_CELLS[1]
        # the edited cell is the active one now, to be run again; the failed cell says so
        page.wait_for_function("() => document.querySelector('.jp-codecheck-cell-title').textContent === 'cell_1'")
        select_cell(page, 1)
        applied = page.locator(f"{PANEL} .jp-codecheck-repair-applied")
        applied.wait_for()
        assert applied.inner_text().startswith("Fix applied to cell_1: run it again, then this cell.")
        assert section.locator(".jp-codecheck-repair-apply").is_disabled()
        # the editor's undo in the edited cell restores the original, and the repair is offered again
        cell(page, 0).locator(".cm-content").click()
        page.keyboard.press("Control+z")
        assert cell_source(page, 0) == REPAIR_CELLS[0]
        select_cell(page, 1)
        assert not section.locator(".jp-codecheck-repair-apply").is_disabled()
    finally:
        save_settings(page, "{}")
