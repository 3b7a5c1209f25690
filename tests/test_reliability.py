"""Bad input never gives a traceback (issue 27): broken notebooks are SourceErrors that name the
file, and a short run of the source fuzzer (bench/reliability.py) through check() and the command
line finds no crash."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from jupyter_codecheck.core.sources import SourceError, read_units

REPO = Path(__file__).resolve().parents[1]


def _nb(cells, **top):
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5, **top})


CODE = {"cell_type": "code", "source": "x = 1\n", "metadata": {}, "outputs": []}


@pytest.mark.parametrize("text, message", [
    # the pure-Python JSON scanner that locates strings recursed without limit
    ('{"cells": ' + "[" * 50_000 + "]" * 50_000 + "}", "nested too deeply"),
    (_nb([CODE])[:-1] + ', "x": ' + '{"a": ' * 20_000 + "1" + "}" * 20_000 + "}", "nested too deeply"),
    # a JSON escape that is no character
    (_nb([{**CODE, "source": "x = '\ud800'\n"}]), "cell 0 holds a lone surrogate"),
    # nbformat 3 with worksheets that are not worksheets
    ('{"worksheets": [5, {"cells": 3}], "nbformat": 3}', "'worksheets' is not a list of worksheets"),
    ('{"worksheets": [{"cells": "abc"}], "nbformat": 3}', "'worksheets' is not a list of worksheets"),
])
def test_a_broken_notebook_is_a_source_error_naming_the_file(tmp_path, text, message):
    path = tmp_path / "broken.ipynb"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError, match=message) as e:
        read_units(path)
    assert "broken.ipynb" in str(e.value)


@pytest.mark.parametrize("metadata", [5, "text", {"kernelspec": 5}, {"language_info": ["python"]},
                                      {"kernelspec": {"language": 3}, "language_info": None}])
def test_metadata_of_the_wrong_type_is_no_language(tmp_path, metadata):
    # the language lookup called .get on whatever the metadata held (an AttributeError)
    path = tmp_path / "odd.ipynb"
    path.write_text(_nb([CODE], metadata=metadata), encoding="utf-8")
    assert [u.source for u in read_units(path)] == ["x = 1\n"]


def test_nbformat_3_is_read(tmp_path):
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps({"worksheets": [{"cells": [
        {"cell_type": "code", "input": ["y = 2\n", "print(y)\n"], "language": "python",
         "outputs": [{"output_type": "pyout", "prompt_number": 1, "text": ["2"]}]},
        {"cell_type": "markdown", "source": "# t"}]}], "metadata": {}, "nbformat": 3}), encoding="utf-8")
    assert [(u.cell, u.source) for u in read_units(path)] == [(0, "y = 2\nprint(y)\n")]


def _fuzzer():
    spec = importlib.util.spec_from_file_location("reliability", REPO / "bench" / "reliability.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_short_fuzz_run_finds_no_crash(model_path):
    # the short version of `python bench/reliability.py --count N --seed S` (see its docstring)
    report = _fuzzer().fuzz(12, seed=27, cli_every=2, limit_s=120, process=False, log=lambda m: None)
    assert report["check"]["tried"] == 12 and report["cli"]["tried"] == 6
    assert (report["crashes"], report["hangs"]) == (0, 0), report["crash_examples"]
    assert report["check"]["result"] > 0 and report["check"]["clear"] + report["check"]["result"] == 12
