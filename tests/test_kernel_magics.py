"""The magics in a real kernel: a small notebook executed end to end with nbclient.

The kernel imports this source tree (PYTHONPATH), loads the real model once and runs a few
short checks; the test reads the outputs the notebook stores.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from jupyter_codecheck.views.widgets import MIME_JSON

from notebooks import execute_cells

REPO = Path(__file__).resolve().parent.parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

TWELVE_LINES = "".join([
    "import math\n", "\n", "def area(r):\n", "    return math.pi * r ** 2\n", "\n",
    "radii = [1, 2, 3]\n", "for r in radii:\n", "    print(area(r))\n", "\n",
    "total = sum(area(r) for r in radii)\n", "print(f'total {total:.2f}')\n", "print(totl)\n"])

CELLS = [
    "%load_ext jupyter_codecheck",                                                   # 0
    "x = [1, 2, 3]",                                                                 # 1
    "%%codecheck --run clean --view text\ntotal = sum(x)",                           # 2
    "print(total)",                                                                  # 3
    "%%codecheck -o res --view html\nfor i in x:\n    pritn(i)",                     # 4
    "print(type(res).__name__, [f.line for f in res.findings], repr(res.corrected))",  # 5
    "%%codecheck --prob 7\nx",                                                       # 6
    "%%codecheck -o wres --no-context\nz = 5\npritn(z)",                             # 7
    "%codecheck set context=false\n%codecheck auto on",                              # 8
    "for i in x:\n    pritn(i)",                                                     # 9
    "%codecheck auto off",                                                           # 10
    # the default view, no -o: headless execution keeps the final result, not a placeholder
    "%%codecheck\ndef f(x):\n    retrun x",                                           # 11
    "%%codecheck\n" + TWELVE_LINES,                                                   # 12
    "%%codecheck --model /nowhere/model.gguf\nx = 1",                                  # 13
]


@pytest.fixture(scope="module")
def executed(tmp_path_factory, model_path):
    nb = execute_cells(CELLS, tmp_path_factory.mktemp("nb"))
    return nb


def _text(cell) -> str:
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            parts.append(out.text)
        elif "data" in out:
            parts.append(out.data.get("text/plain", ""))
        elif out.output_type == "error":
            parts.append(f"{out.ename}: {out.evalue}")
    return "\n".join(parts)


def test_run_clean_executes_a_clean_cell(executed):
    # the model loads in the first checked cell, once per kernel; the result takes the place of
    # its status line, so that only the result stays
    outs = executed.cells[2].outputs
    report = [o for o in outs if o.output_type == "display_data"]
    assert len(report) == 1 and report[0].data["text/plain"].startswith("codecheck: no findings")
    assert not any("loading the model" in _text(c) for c in executed.cells[:13])
    assert _text(executed.cells[3]).strip() == "6"


def test_html_view_shows_the_result_in_one_output_and_o_stores_it(executed):
    cell = executed.cells[4]
    displays = [o for o in cell.outputs if o.output_type == "display_data"]
    assert len(displays) == 1 and len(cell.outputs) == 1, cell.outputs
    data = displays[0].data
    assert data["text/plain"].startswith("codecheck: 1 finding")
    assert "+    print(i)" in data["text/plain"]
    assert "jupyter-codecheck" in data["text/html"] and MIME_JSON in data
    # IPython hands the magic the body with a final line break
    assert _text(executed.cells[5]).strip() == "CheckResult [2] 'for i in x:\\n    print(i)\\n'"


def test_bad_option_is_a_usage_error_in_the_kernel(executed):
    text = _text(executed.cells[6])
    assert "UsageError" in text and "not a probability" in text


def test_default_view_in_a_kernel_is_the_widget_with_a_static_fallback(executed):
    outs = [o for o in executed.cells[7].outputs if o.output_type == "display_data"]
    assert len(outs) == 1
    data = outs[0].data
    assert WIDGET_VIEW in data
    # -o waits for the result, so the final static view is what the notebook keeps
    assert data["text/plain"].startswith("codecheck: 1 finding") and "+print(z)" in data["text/plain"]


def test_auto_mode_shows_its_findings_and_then_runs_the_cell(executed):
    assert "codecheck auto on" in _text(executed.cells[8])
    cell = executed.cells[9]
    errors = [o for o in cell.outputs if o.output_type == "error"]
    assert [e.ename for e in errors] == ["NameError"]        # the cell ran into its bug...
    first = cell.outputs[0]                                  # ...that the finding above foretold
    assert first.output_type == "display_data" and "codecheck: line 2:" in first.data["text/plain"]
    assert "did you mean 'print'" in first.data["text/plain"]
    assert "line 2:" not in _text(cell).split("NameError")[-1]     # and not said twice after it


def test_headless_execution_keeps_the_final_result_of_the_live_view(executed):
    (out,) = executed.cells[11].outputs
    assert WIDGET_VIEW in out.data
    plain, html = out.data["text/plain"], out.data["text/html"]
    assert plain.startswith("codecheck: 1 finding") and "+    return x" in plain, plain
    assert "not run yet" not in plain and "checking" not in plain
    assert 'class="cc-heat"' in html and "retrun" in html and "cc-finding" in html


def test_stored_output_of_a_twelve_line_cell_is_compact(executed):
    import json
    cell = executed.cells[12]
    assert len(TWELVE_LINES.splitlines()) == 12
    assert "undefined-name" in _text(cell)
    size = len(json.dumps(cell.outputs))
    assert size < 20_000, size


def test_a_model_that_fails_to_load_says_so_and_leaves_its_error(executed):
    text = _text(executed.cells[13])
    assert "UsageError" in text and "cannot load the model" in text
    assert "loading the model (once per kernel) … failed" in text
    assert not any("loading the model" in _text(c) for c in executed.cells[:13])


@pytest.mark.parametrize(("line", "shown"), [
    ("%%codecheck -o result\nx = [1, 2]\nprint(x)", "codecheck: no findings"),
    ("%codecheck info", "model      SmolLM2-135M-Instruct"),
    ("%codecheck auto guard", "codecheck auto guard: a cell that surely crashes"),
], ids=["check", "info", "auto"])
def test_nbconvert_keeps_no_empty_output_of_the_model_load(line, shown, tmp_path, model_path):
    """`jupyter nbconvert --execute` stores every output a cell sent, an emptied status line
    too: the first cell that loads the model keeps what it shows, and nothing empty."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in ["%load_ext jupyter_codecheck", line]]
    nbformat.write(nb, tmp_path / "tiny.ipynb")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [str(REPO), os.environ.get("PYTHONPATH")] if p))
    subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                    str(tmp_path / "tiny.ipynb")], env=env, check=True, capture_output=True, timeout=300)
    (out,) = nbformat.read(tmp_path / "tiny.ipynb", as_version=4).cells[1].outputs
    assert out.output_type == "display_data" and out.data["text/plain"].startswith(shown), out
