"""Long notebooks, short (issue 27; the full run is bench/long_notebook.py): the command line on a
notebook shows its progress cell by cell on a terminal, even for a single file."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from bench_modules import bench_module

from jupyter_codecheck.views import cli

REPO = Path(__file__).resolve().parents[1]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_single_notebook_shows_each_cell_on_a_terminal_and_one_line_in_a_log(monkeypatch):
    for stream, expected in [(Terminal(), ["nb.ipynb (cell 0)", "nb.ipynb (cell 1)"]), (io.StringIO(), [])]:
        monkeypatch.setattr(sys, "stderr", stream)
        progress = cli.FileProgress(enabled=True, total=1)
        progress.update(1, "nb.ipynb")
        for cell in (0, 1):
            progress.update(1, f"nb.ipynb (cell {cell})", live=True)
        progress.clear()
        shown = [s for s in stream.getvalue().split("\r\033[K") if s]
        assert shown == expected


def test_a_notebook_through_the_command_line_advances_cell_by_cell(model_path, tmp_path):
    long_notebook = bench_module("long_notebook")
    cells = long_notebook.notebooks_of(REPO / "examples" / "tour.ipynb")[0]
    plain = [c for c in cells if not c.lstrip().startswith("%")] * 2
    notebook = long_notebook.write_notebook(plain, tmp_path / "long.ipynb")
    ran = long_notebook.run_cli(notebook, timeout_s=600)
    assert ran["exit"] in (0, 1) and ran["checked"] == len(plain), ran["other_output"]
    assert [cell for _, cell in ran["steps"]] == list(range(len(plain)))
    assert ran["peak_rss_mb"] > 0
    assert json.loads(notebook.with_suffix(".report.json").read_text())["files"]
