"""Helpers for browser tests on a JupyterLab started by the `jupyterlab` fixture (conftest.py)."""
from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


@dataclass
class LabServer:
    url: str            # http://127.0.0.1:<port>  (no token: the server runs without auth)
    root_dir: Path
    log: Path


def write_notebook(server: LabServer, name: str, cells: list[str]) -> Path:
    """A notebook of code cells (no outputs) in the server's root."""
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    path = server.root_dir / name
    nbformat.write(nb, path)
    return path


def lab_command(page, command: str, args: dict | None = None):
    """Run a JupyterLab command (e.g. 'notebook:run-all-cells') and return its result."""
    return page.evaluate("([c, a]) => window.jupyterapp.commands.execute(c, a)", [command, args or {}])


NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"   # the notebook in front


def open_notebook(page, server: LabServer, name: str, timeout: float = 90) -> None:
    """Open `name` alone (`?reset`: notebooks of earlier tests are not restored) and wait until
    its kernel is idle."""
    page.goto(f"{server.url}/lab/tree/{name}?reset")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=timeout * 1000)
    page.locator(f"{NOTEBOOK} .jp-Cell").first.wait_for(timeout=timeout * 1000)
    wait_kernel_idle(page, timeout)


_KERNEL_STATUS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session
    && panel.sessionContext.session.kernel;
  return kernel ? kernel.status + '/' + kernel.connectionStatus : 'none';
}"""


def kernel_status(page) -> str:
    return page.evaluate(_KERNEL_STATUS)


def wait_kernel_idle(page, timeout: float = 90) -> None:
    """Until the current notebook's kernel is idle and connected. A freshly started kernel goes
    through starting/busy states first: require idle twice, a little apart."""
    deadline = time.monotonic() + timeout
    seen = 0
    while time.monotonic() < deadline:
        if kernel_status(page) == "idle/connected":
            seen += 1
            if seen >= 2:
                return
        else:
            seen = 0
        page.wait_for_timeout(250)
    raise TimeoutError(f"kernel not idle after {timeout:.0f} s (status {kernel_status(page)})")


def run_all_cells(page) -> None:
    """Starts running every cell and returns at once (the command's promise ends with the last
    cell; tests watch the outputs while the cells run)."""
    page.evaluate("() => { void window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def cell_source(page, index: int) -> str:
    """The source of cell `index` in the current notebook, from the notebook model."""
    return page.evaluate(
        "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].model.sharedModel.getSource()",
        index)


def saved_notebook(server: LabServer, name: str) -> dict:
    return json.loads((server.root_dir / name).read_text())


def cell(page, index: int):
    """Locator of cell `index` of the notebook in front."""
    return page.locator(f"{NOTEBOOK} .jp-Cell").nth(index)


def screenshot_down_to_cell(page, path: Path, index: int) -> None:
    """The notebook from its top down to the end of cell `index` (the README's pictures)."""
    top = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").bounding_box()
    bottom = cell(page, index).bounding_box()
    page.screenshot(path=str(path), clip={"x": top["x"], "y": top["y"], "width": top["width"],
                                         "height": bottom["y"] + bottom["height"] + 12 - top["y"]})


@contextlib.contextmanager
def new_page(chromium, width: int = 1280, height: int = 1000):
    """A page in its own browser context (no state shared between tests); browser console errors
    are collected in `page.console_errors`."""
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.console_errors = errors
    try:
        yield page
    finally:
        context.close()
