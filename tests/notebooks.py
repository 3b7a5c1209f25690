"""Run a notebook of code cells in a real kernel (ipykernel through nbclient) that imports this
source tree, for the tests that read what the magics leave in it."""
from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parent.parent


def execute_cells(cells: list[str], workdir: Path, timeout: int = 600):
    """The executed notebook (errors stay in their cells' outputs)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in [str(REPO), os.environ.get("PYTHONPATH", "")] if p))
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(workdir)}})
    client.execute(env=env)
    return nb
