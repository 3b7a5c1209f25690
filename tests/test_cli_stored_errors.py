"""The command line on a notebook whose saved outputs hold an error: the cell's cause and repair in
the text, JSON and SARIF reports (the SARIF fix, applied to the file, repairs the cell). The
traceback runs through a function an earlier cell defines, as IPython prints it; the model is the
default one."""
from __future__ import annotations

import json
import os

import nbformat
import pytest

from test_cli import run_cli, write_notebook

DEFINES = "def mean(xs):\n    return sum(xs) / len(xz)\n"
CALLS = "print(mean([1, 2, 3]))\n"
TRACEBACK = [
    "\x1b[0;31m---------------------------------------------------------------------------\x1b[0m",
    "\x1b[0;31mNameError\x1b[0m                                 Traceback (most recent call last)",
    "Cell \x1b[0;32mIn[2], line 1\x1b[0m\n\x1b[0;32m----> 1\x1b[0m \x1b[38;5;28mprint\x1b[39m(mean([1, 2, 3]))",
    "Cell \x1b[0;32mIn[1], line 2\x1b[0m, in \x1b[0;36mmean\x1b[0;34m(xs)\x1b[0m\n      1 def mean(xs):\n"
    "\x1b[0;32m----> 2\x1b[0m     return sum(xs) / len(xz)",
    "\x1b[0;31mNameError\x1b[0m: name 'xz' is not defined",
]


@pytest.fixture(scope="module")
def reports(tmp_path_factory, model_path):
    root = tmp_path_factory.mktemp("stored")
    defines = nbformat.v4.new_code_cell(DEFINES, execution_count=1)
    calls = nbformat.v4.new_code_cell(CALLS, execution_count=2)
    calls.outputs = [nbformat.v4.new_output("error", ename="NameError", evalue="name 'xz' is not defined",
                                            traceback=TRACEBACK)]
    write_notebook(root / "nb.ipynb", [defines, nbformat.v4.new_markdown_cell("# the call"), calls])
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code, text, _ = run_cli("--color", "never", "--json-output", "r.json", "--sarif-output", "r.sarif", "nb.ipynb")
    finally:
        os.chdir(cwd)
    return {"root": root, "code": code, "text": text, "json": json.loads((root / "r.json").read_text()),
            "sarif": json.loads((root / "r.sarif").read_text())}


def test_text_report_says_the_cause_and_the_repair_in_the_earlier_cell(reports):
    lines = reports["text"].splitlines()
    at = lines.index("nb.ipynb:cell_3: raised NameError: name 'xz' is not defined (line 2 of the previous cell)")
    assert lines[at + 1].startswith("nb.ipynb:cell_3: repair on line 2 of cell_1 (")
    assert lines[at + 2:at + 5] == ["     def mean(xs):", "    -    return sum(xs) / len(xz)",
                                    "    +    return sum(xs) / len(xs)"]


def test_json_report_names_the_notebook_cells_of_the_repair(reports):
    entry = next(f for f in reports["json"]["files"] if f.get("cell") == 2)
    repair = entry["repair"]
    assert repair["failure"]["error"] == "NameError"
    assert [f["cell"] for f in repair["failure"]["frames"]] == [2, 0]       # In[2], then In[1]'s frame
    assert repair["repair"]["cell"] == 0 and repair["repair"]["new_line"] == "    return sum(xs) / len(xs)"
    assert "repair" not in next(f for f in reports["json"]["files"] if f.get("cell") == 0)


def test_sarif_fix_applied_to_the_file_repairs_the_earlier_cell(reports):
    run = reports["sarif"]["runs"][0]
    result = next(r for r in run["results"] if r["ruleId"] == "codecheck/failure")
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "codecheck/failure"
    assert result["properties"]["failedCell"] == 2 and result["properties"]["cell"] == 0
    (change,) = result["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "nb.ipynb"
    (rep,) = change["replacements"]
    lines = (reports["root"] / "nb.ipynb").read_text().split("\n")
    region = rep["deletedRegion"]
    assert region["startLine"] == region["endLine"]
    row = lines[region["startLine"] - 1]
    lines[region["startLine"] - 1] = (row[:region["startColumn"] - 1] + rep["insertedContent"]["text"]
                                      + row[region["endColumn"] - 1:])
    repaired = nbformat.reads("\n".join(lines), as_version=4)
    assert repaired.cells[0].source == DEFINES.replace("len(xz)", "len(xs)").rstrip("\n") or \
        repaired.cells[0].source == DEFINES.replace("len(xz)", "len(xs)")


def test_a_malformed_stored_error_loses_nothing(tmp_path, model_path):
    # another tool's file: a traceback whose items are no lines, no ename; the cell is still
    # checked and reported, and its failure is read from what is there
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"language_info": {"name": "python"}},
                "cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1,
                           "source": "total = 1\nprint(totl)\n",
                           "outputs": [{"output_type": "error", "evalue": "", "traceback": [{"not": "a line"}, 3]}]}]}
    path = tmp_path / "odd.ipynb"
    path.write_text(json.dumps(notebook))
    code, text, _ = run_cli("--color", "never", str(path))
    assert code == 1                                  # the undefined name's finding, as without the output
    assert f"{path}:cell_1:2:7: error[undefined-name]" in text
    assert f"{path}:cell_1: raised Exception" in text
