"""Long notebooks, short (issue 27; the full run is bench/long_notebook.py): the command line on a
notebook shows its progress cell by cell on a terminal, even for a single file."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from bench_modules import bench_module

from jupyter_codecheck.views import cli
from jupyter_codecheck.views.report import Run

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


def test_a_log_gets_the_cell_a_long_notebook_is_at_every_half_minute(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(cli.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    progress = cli.FileProgress(enabled=True, total=1)
    progress.update(1, "nb.ipynb")
    for cell, at in enumerate((100.0, 110.0, 131.0, 140.0, 165.0)):
        clock[0] = at
        progress.update(1, f"nb.ipynb (cell {cell})", live=True)
    assert sys.stderr.getvalue().splitlines() == ["nb.ipynb (cell 2)", "nb.ipynb (cell 4)"]


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


def test_the_command_line_keeps_no_token_records_to_the_end(model_path, tmp_path):
    # every result is kept for the reports, which read its findings, correction and stats: the
    # token records (about 100 kB a cell) made a 500-cell run's memory grow with each cell
    notebook = bench_module("long_notebook").write_notebook(["x = [1, 2, 3]\n", "pritn(x)\n"], tmp_path / "nb.ipynb")
    run = Run()
    done = list(cli.check_files([str(notebook)], {}, context=True, stdin_name="-", run=run,
                                progress=cli.FileProgress(enabled=False, total=1)))
    assert [c.unit.cell for c in done] == [0, 1] and [f.line for f in done[1].result.findings] == [1]
    assert all(c.result.tokens == [] and c.result.evidence == [] for c in run.checked)
    assert done[1].result.corrected == "print(x)\n" and done[1].result.stats["tokens"] > 0


def test_check_reads_a_long_notebooks_context_as_the_views_do(model_path):
    """Issue 51's "Also": the API given every earlier cell of a long notebook chooses the context
    as every view does (no ContextFullError); a name only an early cell defines stays defined."""
    import inspect
    import json.decoder
    import json.encoder

    from jupyter_codecheck import check
    from jupyter_codecheck.core.long_sources import select_context
    cells = [c + "\n" for c in (inspect.getsource(json.encoder) + inspect.getsource(json.decoder)).split("\n\n")]
    cells.insert(0, "helper_table = {'a': 1}\n")
    start, window = select_context(cells)
    assert start > 0 and sum(map(len, cells)) > 10_000
    result = check("value = helper_table['a'] + 1\n", context=cells)
    assert not [f for f in result.findings if f.kind == "undefined-name"]
    assert result.stats["context_tokens"] < 1500
