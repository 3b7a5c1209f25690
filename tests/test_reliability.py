"""Bad input never gives a traceback: broken notebooks are SourceErrors that name the
file, and a short run of the source fuzzer (bench/reliability.py) through check() and the command
line finds no crash."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from jupyter_codecheck.pytext.sources import SourceError, read_units

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


@pytest.mark.parametrize("apart", ["list longer than the KV", "KV longer than the list"])
def test_a_check_after_an_interrupted_one_is_a_fresh_check(model_path, apart):
    """A KeyboardInterrupt between a native call and the session's bookkeeping (cc_truncate,
    then `del tokens[n:]`; cc_batch_end, then `tokens.extend`) left `tokens` and the KV apart,
    and the next check placed its rows after positions the list did not name: an EngineError
    ('branch row 1: parent 2 must be ...') or a result that was not the cell's. Simulated here at
    the one place an interrupt can leave them apart."""
    from jupyter_codecheck import check
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.engine import _native as N

    ctx = ["import math\n", "def area(r):\n    return math.pi * r ** 2\n"]
    cell = "sizes = [1, 2, 3]\nprint([area(s) for s in sizez])\n"

    def seen(r):
        return ([(t.text, t.decision, round(t.prob, 4)) for t in r.tokens],
                [(f.line, f.message, f.replacement) for f in r.findings])
    fresh = seen(check(cell, context=ctx, lens=False))
    check(ctx[1], context=ctx[:1], lens=False)
    session = load_model(None, None).session
    assert session.n_past == len(session.tokens) > 5
    if apart == "list longer than the KV":
        N.check(N.lib.cc_truncate(session._ctx, session.n_past - 5, session._err), session._err)
    else:
        del session.tokens[-5:]
    assert session.n_past != len(session.tokens)
    assert seen(check(cell, context=ctx, lens=False)) == fresh
    assert session.n_past == len(session.tokens)
