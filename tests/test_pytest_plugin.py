"""The pytest plugin (`pytest --codecheck`), run through pytester with the real model.

The runs are in-process, so the model loads once for all of them; cells are one or two lines.
How severity decides an item's outcome is tested with hand-built results (no model).
"""
from __future__ import annotations

import importlib

import nbformat
import pytest

from jupyter_codecheck.core.result import CheckResult, Finding

pytest_plugins = ["pytester"]

CLEAN = ["x = [1, 2, 3]\n", "print(len(x))\n"]
BUGGY = "for i in range(3):\n    pritn(i)\n"


def _plugin_args() -> list[str]:
    return ["-p", "jupyter_codecheck.views.pytest_plugin"]


@pytest.fixture(autouse=True)
def _only_named_plugins(monkeypatch):
    # the inner runs share this process: the installed plugins (pytest-playwright keeps global
    # state per run) stay out, and ours is loaded by name whether the project is installed or not
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def _notebook(path, cells, outputs=None):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# A notebook")]
    for i, src in enumerate(cells):
        cell = nbformat.v4.new_code_cell(src)
        if outputs and outputs[i] is not None:
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=outputs[i])]
            cell.execution_count = i + 1
        nb.cells.append(cell)
    nbformat.write(nb, str(path))


@pytest.fixture(scope="module")
def _model():
    from jupyter_codecheck.engine.paths import ModelNotFoundError, default_model_path
    try:
        default_model_path()
    except ModelNotFoundError as e:
        pytest.skip(str(e))


def test_findings_fail_their_cell_with_cell_aware_locations(pytester, _model):
    _notebook(pytester.path / "nb.ipynb", CLEAN + [BUGGY, "# codecheck: skip\npritn(x)\n"])
    pytester.makefile(".py", mod="def double(x):\n    return 2 * x\n")
    result = pytester.runpytest(*_plugin_args(), "--codecheck", "--codecheck-py", "-rfs", ".")
    result.assert_outcomes(passed=3, failed=1, skipped=1)
    out = result.stdout.str()
    # cells are counted from 1 over every cell (the markdown cell is cell_1), as editors number them
    result.stdout.fnmatch_lines([
        "nb.ipynb:cell_4:2:*: *[[]*[]]: *'pritn'*",
        "*-    pritn(i)", "*+    print(i)",
        "FAILED nb.ipynb::codecheck?cell_4? - *",
        "SKIPPED*codecheck: skip*",
    ])
    assert "cell_2" not in out.split("FAILURES")[1].split("short test summary")[0]


def test_silenced_findings_let_their_cell_pass(pytester, _model):
    # a comment silences its line's finding, --codecheck-ignore a kind in every cell
    _notebook(pytester.path / "nb.ipynb", [BUGGY.replace("pritn(i)", "pritn(i)  # codecheck: ignore"),
                                           "print(totl)\n"])
    result = pytester.runpytest(*_plugin_args(), "--codecheck", "nb.ipynb")
    result.assert_outcomes(passed=1, failed=1)
    result = pytester.runpytest(*_plugin_args(), "--codecheck", "--codecheck-ignore", "undefined-name",
                                "nb.ipynb")
    result.assert_outcomes(passed=2)


def test_items_sit_beside_nbval_items_in_one_run(pytester, _model):
    _notebook(pytester.path / "both.ipynb", CLEAN, outputs=[None, "3\n"])
    result = pytester.runpytest(*_plugin_args(), "-p", "nbval", "--nbval", "--codecheck", "-v",
                                "both.ipynb")
    result.stdout.fnmatch_lines_random([
        "*both*ipynb::Cell 0 PASSED*", "*both*ipynb::Cell 1 PASSED*",
        "*both.ipynb::codecheck?cell_2? PASSED*", "*both.ipynb::codecheck?cell_3? PASSED*",
    ])
    result.assert_outcomes(passed=4)


def test_nothing_is_collected_without_the_flag(pytester):
    _notebook(pytester.path / "nb.ipynb", [BUGGY])
    result = pytester.runpytest(*_plugin_args(), ".")
    result.assert_outcomes()
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


@pytest.mark.parametrize("args, message", [
    (["--codecheck-exit-policy", "bogus"], "*unknown exit test 'bogus'*"),
    (["--codecheck-prob", "1.5"], "*--codecheck-prob*1.5*is not a probability in (0, 1]*"),
])
def test_bad_options_stop_the_run_with_a_usage_error(pytester, args, message):
    _notebook(pytester.path / "nb.ipynb", CLEAN)
    result = pytester.runpytest(*_plugin_args(), "--codecheck", *args, ".")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_a_broken_notebook_is_a_collection_error_naming_the_file(pytester):
    (pytester.path / "broken.ipynb").write_text('{"cells": [', encoding="utf-8")
    result = pytester.runpytest(*_plugin_args(), "--codecheck", ".")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*broken.ipynb: is not a valid notebook: bad JSON*"])


# -- severity: hand-built results, no model ------------------------------------------------------------

ERROR_CELL = "total = sum(valuez)\n"
WARNING_CELL = "for i in range(3):\n    prnt(i)\n"
SEVERITY_RESULTS = {
    ERROR_CELL: CheckResult(source=ERROR_CELL, corrected=ERROR_CELL, findings=[
        Finding(1, 12, 100.0, "undefined-name", "name 'valuez' is not defined", None,
                severity="error", gain=None)]),
    WARNING_CELL: CheckResult(source=WARNING_CELL, corrected=WARNING_CELL.replace("prnt", "print"), findings=[
        Finding(2, 4, 5.5, "replace", "'prnt' looks wrong here: the model expects 'print'", "    print(i)",
                severity="warning", gain=5.5)]),
    CLEAN[0]: CheckResult(source=CLEAN[0], corrected=CLEAN[0]),
}


@pytest.fixture
def fake_check(monkeypatch):
    """The check answers from SEVERITY_RESULTS (the inner runs share this process)."""
    pieces = importlib.import_module("jupyter_codecheck.core.long_sources")

    def check_long(source, **_):
        return SEVERITY_RESULTS[source]
    monkeypatch.setattr(pieces, "check_long", check_long)


def test_errors_and_warnings_fail_by_default(pytester, fake_check):
    _notebook(pytester.path / "nb.ipynb", [ERROR_CELL, WARNING_CELL, CLEAN[0]])
    result = pytester.runpytest(*_plugin_args(), "--codecheck", "-rf", ".")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "nb.ipynb:cell_2:1:13: error[undefined-name]: name 'valuez' is not defined",
        "nb.ipynb:cell_3:2:5: warning[replace]: 'prnt' looks wrong here: the model expects 'print'",
        "*-    prnt(i)", "*+    print(i)",
    ])
    assert "CodecheckWarning" not in result.stdout.str()


def test_fail_on_error_lets_warnings_pass_with_a_pytest_warning(pytester, fake_check):
    _notebook(pytester.path / "nb.ipynb", [ERROR_CELL, WARNING_CELL, CLEAN[0]])
    result = pytester.runpytest(*_plugin_args(), "--codecheck", "--codecheck-fail-on", "error", "-rf", ".")
    result.assert_outcomes(passed=2, failed=1, warnings=1)
    out = result.stdout.str()
    # the warning sits at the cell's line in the .ipynb file, its message names the cell's line
    result.stdout.fnmatch_lines([
        "*warnings summary*",
        "nb.ipynb::codecheck?cell_3?",
        ("  nb.ipynb:*: CodecheckWarning: nb.ipynb:cell_3:2:5: warning?replace?: 'prnt' looks wrong "
         "here*(suggested: 'print(i)')"),
        "FAILED nb.ipynb::codecheck?cell_2? - *",
    ])
    # the error's cell fails as before; the warning's cell is not listed among the failures
    failures = out.split("= FAILURES =")[1].split("warnings summary")[0]
    assert "error[undefined-name]" in failures and "cell_3" not in failures


def test_fail_on_takes_error_or_warning_only(pytester, fake_check):
    _notebook(pytester.path / "nb.ipynb", [CLEAN[0]])
    result = pytester.runpytest(*_plugin_args(), "--codecheck", "--codecheck-fail-on", "flag", ".")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--codecheck-fail-on*invalid choice*"])


def _outcomes(junit) -> dict[str, str]:
    import xml.etree.ElementTree as ET
    cases = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        kind = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        cases[f"{case.get('classname')}::{case.get('name')}"] = kind
    return cases


def test_xdist_workers_give_the_same_items_and_outcomes(pytester, _model):
    pytest.importorskip("xdist")
    _notebook(pytester.path / "a.ipynb", CLEAN + [BUGGY])
    _notebook(pytester.path / "b.ipynb", ["total = sum(valuez)\n", "print('ok')\n"])
    runs = {}
    for n in ("0", "2"):
        junit = pytester.path / f"junit-{n}.xml"
        result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "xdist", "-n", n, "--codecheck",
                                               f"--junitxml={junit}", ".")
        assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
        runs[n] = _outcomes(junit)
    assert runs["2"] == runs["0"]
    assert sorted(runs["0"].values()) == ["failure", "failure", "passed", "passed", "passed"]


def test_a_cell_that_raises_under_nbval_gets_the_repair_in_its_failure_report(pytester, _model):
    # the traceback passes through the function an earlier cell defines: the repair is there
    _notebook(pytester.path / "fails.ipynb", ["def mean(xs):\n    return sum(xs) / len(xz)\n",
                                              "print(mean([1, 2, 3]))\n"])
    result = pytester.runpytest(*_plugin_args(), "-p", "nbval", "--nbval-lax", "--codecheck",
                                "--codecheck-fail-on", "error", "fails.ipynb")
    result.stdout.fnmatch_lines([
        "*codecheck repair*",
        "codecheck: NameError: name 'xz' is not defined (line 2 of the previous cell)",
        "codecheck: repair on line 2 of Cell 0 (*",
        "-    return sum(xs) / len(xz)",
        "+    return sum(xs) / len(xs)",
    ])


def test_a_cell_whose_saved_output_holds_an_error_reports_its_repair(pytester, _model):
    # the notebook ran and its second code cell raised in the function the first one defines
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    defines = nbformat.v4.new_code_cell("def mean(xs):\n    return sum(xs) / len(xz)\n", execution_count=1)
    calls = nbformat.v4.new_code_cell("print(mean([1, 2, 3]))\n", execution_count=2)
    calls.outputs = [nbformat.v4.new_output(
        "error", ename="NameError", evalue="name 'xz' is not defined",
        traceback=["Cell In[2], line 1\n----> 1 print(mean([1, 2, 3]))",
                   "Cell In[1], line 2, in mean(xs)\n----> 2     return sum(xs) / len(xz)",
                   "NameError: name 'xz' is not defined"])]
    nb.cells = [defines, calls]
    nbformat.write(nb, str(pytester.path / "ran.ipynb"))
    result = pytester.runpytest(*_plugin_args(), "--codecheck", "-rP", "ran.ipynb")
    result.stdout.fnmatch_lines([
        "*codecheck repair*",
        "codecheck: NameError: name 'xz' is not defined (line 2 of the previous cell)",
        "codecheck: repair on line 2 of cell_1 (*",
        "*-    return sum(xs) / len(xz)",
        "+    return sum(xs) / len(xs)",
    ])
