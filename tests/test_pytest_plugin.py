"""The pytest plugin (`pytest --codecheck`), run through pytester with the real model.

The runs are in-process, so the model loads once for all of them; cells are one or two lines.
"""
from __future__ import annotations

import nbformat
import pytest

pytest_plugins = ["pytester"]

CLEAN = ["x = [1, 2, 3]\n", "print(len(x))\n"]
BUGGY = "for i in range(3):\n    pritn(i)\n"


def _plugin_args() -> list[str]:
    return ["-p", "jupyter_codecheck.pytest_plugin"]


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


@pytest.fixture(scope="module", autouse=True)
def _model():
    from jupyter_codecheck.engine.paths import ModelNotFoundError, default_model_path
    try:
        default_model_path()
    except ModelNotFoundError as e:
        pytest.skip(str(e))


def test_findings_fail_their_cell_with_cell_aware_locations(pytester):
    _notebook(pytester.path / "nb.ipynb", CLEAN + [BUGGY, "# codecheck: skip\npritn(x)\n"])
    pytester.makefile(".py", mod="def double(x):\n    return 2 * x\n")
    result = pytester.runpytest(*_plugin_args(), "--codecheck", "--codecheck-py", "-rfs", ".")
    result.assert_outcomes(passed=3, failed=1, skipped=1)
    out = result.stdout.str()
    # cell indices count every cell (the markdown cell is cell_0), as in nb["cells"][i]
    result.stdout.fnmatch_lines([
        "nb.ipynb:cell_3:2:*: replace: 'pritn' looks wrong here*'print'*",
        "*-    pritn(i)", "*+    print(i)",
        "FAILED nb.ipynb::codecheck?cell_3? - *",
        "SKIPPED*codecheck: skip*",
    ])
    assert "cell_1" not in out.split("FAILURES")[1].split("short test summary")[0]


def test_items_sit_beside_nbval_items_in_one_run(pytester):
    _notebook(pytester.path / "both.ipynb", CLEAN, outputs=[None, "3\n"])
    result = pytester.runpytest(*_plugin_args(), "-p", "nbval", "--nbval", "--codecheck", "-v",
                                "both.ipynb")
    result.stdout.fnmatch_lines_random([
        "*both*ipynb::Cell 0 PASSED*", "*both*ipynb::Cell 1 PASSED*",
        "*both.ipynb::codecheck?cell_1? PASSED*", "*both.ipynb::codecheck?cell_2? PASSED*",
    ])
    result.assert_outcomes(passed=4)


def test_nothing_is_collected_without_the_flag(pytester):
    _notebook(pytester.path / "nb.ipynb", [BUGGY])
    result = pytester.runpytest(*_plugin_args(), ".")
    result.assert_outcomes()
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


@pytest.mark.parametrize("args, message", [
    (["--codecheck-exit-policy", "bogus"], "*unknown exit test 'bogus'*"),
    (["--codecheck-prob", "1.5"], "*--codecheck-prob must be between 0 and 1*"),
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
