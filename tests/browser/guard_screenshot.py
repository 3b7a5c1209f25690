"""Draws docs/guard-stopped.png for the README: in a real JupyterLab, `%codecheck auto guard`
stops a long cell that would crash on a misspelt column, before its first line runs.

Not a test (the guard's behaviour is tested in a real kernel: tests/test_guard*.py); run it by
hand after a change to what a stopped cell shows (`make screenshots` runs it with the browser
tests that draw the README's other images):

    cd tests/browser && PYTHONPATH=../.. ../../.venv/bin/python guard_screenshot.py
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from conftest import CHROMIUM, CHROMIUM_ARGS, _lab_server
from lab_helpers import NOTEBOOK, REPO, cell, new_page, open_notebook, run_all_cells, wait_kernel_idle, write_notebook

OUT = REPO / "docs" / "guard-stopped.png"
CELLS = [
    "%load_ext jupyter_codecheck\n%codecheck auto guard",
    "import time\nimport pandas as pd\n"
    'patients = pd.DataFrame({"age": [41, 35, 62], "bmi": [21.0, 25.5, 30.1]})',
    'print("training the model ...")\ntime.sleep(600)          # a long cell\n'
    'print(patients["bmii"].mean())',
]


def main() -> int:
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp, _lab_server(Path(tmp)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with new_page(browser, width=1120, height=700) as page:
            write_notebook(server, "guard.ipynb", CELLS)
            open_notebook(page, server, "guard.ipynb")
            page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
            run_all_cells(page)
            stopped = cell(page, 2).locator(".jp-OutputArea-output")
            stopped.first.wait_for(timeout=300_000)
            wait_kernel_idle(page)
            text = stopped.inner_text()
            assert "stopped this cell before it ran" in text and "training" not in text, text
            # the cells and their outputs, without the lab's menus around them
            boxes = [cell(page, i).bounding_box() for i in range(len(CELLS))]
            top, bottom = boxes[0]["y"], max(b["y"] + b["height"] for b in boxes)
            left = page.locator(NOTEBOOK).bounding_box()["x"]
            right = max(b["x"] + b["width"] for b in boxes)
            page.screenshot(path=str(OUT), clip={"x": left, "y": top - 8, "width": right - left + 8,
                                                 "height": bottom - top + 16})
        browser.close()
    print(f"{OUT} ({OUT.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
