"""When a cell fails: the failure read from an exception or a traceback's text, the cause lines,
and repairs that are re-checked before they are shown; the repaired cells are run to see."""
from __future__ import annotations

import linecache

import pandas as pd
import pytest

from jupyter_codecheck.failure import Failure, Frame, cause_lines, repair_failure
from jupyter_codecheck.failure.repair import _Recheck, _replace


def _run(source: str, namespace: dict, name: str):
    """Run `source` as IPython runs a cell (its text kept in linecache); its exception or None."""
    filename = f"<ipython-input-{name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        exec(compile(source, filename, "exec"), namespace)
    except Exception as e:  # noqa: BLE001 - the failure under test
        return e
    return None


def _frame_df():
    return pd.DataFrame({"age": [22, 38, 26], "fare": [7.25, 71.3, 7.9], "survived": [0, 1, 1]})


# -- the failure --------------------------------------------------------------------------------

def test_a_live_exception_is_placed_in_the_cells_it_passed_through():
    earlier = "def mean_of(frame, col):\n    values = frame[col]\n    return values.mean()\n"
    cell = "x = 1\nm = mean_of(df, 'agee')\n"
    ns = {"df": _frame_df()}
    assert _run(earlier, ns, "1-a") is None
    exc = _run(cell, ns, "2-b")
    f = Failure.from_exception(exc, [earlier, cell])
    assert (f.error, f.message) == ("KeyError", "'agee'")
    # the call in the failed cell, then the line of the earlier cell's function; no pandas frame
    assert f.frames == [Frame(1, 2, "<module>"), Frame(0, 2, "mean_of")]
    assert f.line_in(1) == 2 and f.line_in(0) == 2


def test_a_tracebacks_text_as_ipython_prints_it():
    text = ("\x1b[31m---------------------------------------------------------------------------\x1b[39m\n"
            "\x1b[31mKeyError\x1b[39m                                  Traceback (most recent call last)\n"
            "Cell \x1b[32mIn[7], line 3\x1b[39m\n      1 x = 1\n----> 3 df['agee']\n"
            "File ~/venv/lib/python3.11/site-packages/pandas/core/frame.py:4102, in DataFrame.__getitem__(self, key)\n"
            "\x1b[31mKeyError\x1b[39m: 'agee'\n")
    f = Failure.from_text(text, ["a = 1\n", "x = 1\n\ndf['agee']\n"])
    assert (f.error, f.message, f.frames) == ("KeyError", "'agee'", [Frame(1, 3)])
    old_style = 'Traceback (most recent call last):\n  File "<ipython-input-3-9f2a>", line 2, in <module>\n' \
                "    y = z + 1\nNameError: name 'z' is not defined\n"
    f = Failure.from_text(old_style, ["y = 0\ny = z + 1\n"])
    assert (f.error, f.frames) == ("NameError", [Frame(0, 2)])
    with pytest.raises(ValueError, match="no exception named"):
        Failure.from_text("nothing went wrong here\n", ["x = 1\n"])
    with pytest.raises(TypeError, match="cells"):
        Failure.from_text(old_style, "y = z + 1\n")


def test_a_notebooks_stored_error_output():
    out = {"output_type": "error", "ename": "AttributeError", "evalue": "'list' object has no attribute 'lenght'",
           "traceback": ["\x1b[0;31mAttributeError\x1b[0m Traceback", "Cell \x1b[0;32mIn[2], line 2\x1b[0m"]}
    f = Failure.from_output(out, ["a = [1]\nn = a.lenght\n"])
    assert (f.error, f.frames) == ("AttributeError", [Frame(0, 2)])
    with pytest.raises(ValueError, match="not an error output"):
        Failure.from_output({"output_type": "stream", "text": "x"}, ["x = 1\n"])


# -- the cause ------------------------------------------------------------------------------------

def test_the_cause_lines_follow_what_the_raising_line_reads_back_into_earlier_cells():
    earlier = "df = load()\ndf.drop(columns=['age'], inplace=True)\nother = 1\n"
    cell = "cols = ['age', 'fare']\ny = df['survived']\nX = df[cols]\nmodel.fit(X, y)\n"
    f = Failure("KeyError", "\"['age'] not in index\"", [Frame(1, 3)])
    places = cause_lines([earlier, cell], f)
    got = [(p.cell, p.line, p.why.split(" ")[0]) for p in places]
    # the raising line, `cols` set in the cell, then `df` as the earlier cell left it: changed
    # in place on line 2, made on line 1; `other` is not read
    assert got == [(1, 3, "raised"), (1, 1, "sets"), (0, 2, "changes"), (0, 1, "sets")]
    assert "which line 3 reads" in places[1].why



def test_an_attribute_error_follows_back_only_the_object_that_lacks_the_attribute():
    """`np.nn` failed: the module is what lacks `nn`; `data`, read on the same line and set in
    an earlier cell, is no cause (its line was once rewritten by the model instead)."""
    import numpy as np
    earlier = "import numpy as np\ndata = np.ones(3)\ndata[data < 5] = 0\n"
    cell = "data[0] = np.nn\n"
    ns = {}
    assert _run(earlier, ns, "3-x") is None
    f = Failure.from_exception(_run(cell, ns, "3-y"), [earlier, cell])
    got = [(p.cell, p.line, p.kind) for p in cause_lines([earlier, cell], f)]
    assert got == [(1, 1, "raised"), (0, 1, "sets")]
    # an object's attribute: that object is followed back (its setter may have made it wrong)
    cell = "total = data.summ()\n"
    f = Failure.from_exception(_run(cell, ns, "3-z"), [earlier, cell])
    got = [(p.cell, p.line, p.kind) for p in cause_lines([earlier, cell], f)]
    assert got == [(1, 1, "raised"), (0, 3, "changes"), (0, 2, "sets")]
    assert isinstance(ns["data"], np.ndarray)

# -- repairs: the exact fixes, each re-checked ---------------------------------------------------

def test_a_columns_typo_is_repaired_by_the_facts_and_the_repair_runs():
    cell = "total = df['fare'].sum()\nmean_age = df['agee'].mean()\n"
    ns = {"df": _frame_df()}
    exc = _run(cell, dict(ns), "4-c")
    fix = repair_failure(cell, exc, namespace=ns, use_model=False)
    assert fix.repair is not None and fix.repair.origin == "fact" and fix.repair.verified == "facts"
    assert fix.repaired == "total = df['fare'].sum()\nmean_age = df['age'].mean()\n"
    assert _run(fix.repaired, dict(ns), "4-d") is None
    assert "KeyError: 'agee'" in fix.cause_text and "line 2" in fix.cause_text
    rows = fix.diff_rows()
    assert [r.kind for r in rows if r.kind in ("removed", "added")] == ["removed", "added"]


def test_a_misspelt_name_is_repaired_by_pythons_near_names():
    cell = "values = [3, 1, 2]\nordered = sorted(valeus)\n"
    exc = _run(cell, {}, "5-e")
    fix = repair_failure(cell, exc, use_model=False)
    assert fix.repair is not None and (fix.repair.origin, fix.repair.verified) == ("python", "python")
    assert fix.repaired.endswith("sorted(values)\n") and _run(fix.repaired, {}, "5-f") is None


def test_the_recheck_refuses_what_would_still_fail_and_what_names_the_unknown():
    cell = "total = df['fare'].sum()\nmean_age = df['agee'].mean()\n"
    ns = {"df": _frame_df()}
    f = Failure.from_exception(_run(cell, dict(ns), "6-g"), [cell])
    check = _Recheck([cell], f, ns)
    place = cause_lines([cell], f)[0]

    def candidate(text):
        return _replace(cell, 0, 2, 15, 19, text, "model", place)

    assert check.recheck(candidate("age")) == "facts"
    assert check.recheck(candidate("fair")) is None                      # the facts: still a KeyError
    assert check.recheck(_replace(cell, 0, 2, 11, 13, "dff", "model", place)) is None   # an undefined name
    assert check.recheck(_replace(cell, 0, 2, 0, 8, "mean age", "model", place)) is None  # no longer parses
    line = cell.split("\n")[1]
    assert check.recheck(_replace(cell, 0, 2, 0, len(line), "# " + line, "model", place)) is None  # taken out
    assert check.recheck(_replace(cell, 0, 2, 11, len(line), "3", "model", place)) is None  # `df` no longer read


def test_an_earlier_cells_repair_that_defines_the_missing_name_is_verified_by_python():
    earlier = "xz = [3, 1, 2]\n"
    cell = "print(len(xs))\n"
    ns = {}
    assert _run(earlier, ns, "11-r") is None
    f = Failure.from_exception(_run(cell, ns, "11-s"), [earlier, cell])
    check = _Recheck([earlier, cell], f, ns)
    place = cause_lines([earlier, cell], f)[0]
    assert check.recheck(_replace(earlier, 0, 1, 0, 2, "xs", "model", place)) == "python"
    assert check.recheck(_replace(earlier, 0, 1, 0, 2, "xy", "model", place)) == ""
    # a function of an earlier cell that read the undefined name no longer does
    earlier = "def mean(v):\n    return sum(v) / len(vz)\n"
    cell = "print(mean([1, 2]))\n"
    assert _run(earlier, ns, "11-t") is None
    f = Failure.from_exception(_run(cell, ns, "11-u"), [earlier, cell])
    check = _Recheck([earlier, cell], f, ns)
    assert check.recheck(_replace(earlier, 0, 2, 24, 26, "v", "model", place)) == "python"


def test_a_model_line_that_drops_the_name_the_error_names_is_no_repair():
    from jupyter_codecheck.failure.repair import _drops_the_work
    words = {"scael"}
    assert _drops_the_work("print(n / scael)", "print(n)", words)           # runs, says less
    assert not _drops_the_work("print(n / scael)", "print(n / scale)", words)
    assert not _drops_the_work("top = df.heaad()", "top = df.head()", {"heaad"})
    assert _drops_the_work("age = data['agee']", "age = 3", {"agee"})


def test_a_repair_that_moves_the_crash_to_a_later_line_is_refused():
    """`.to_frame()` on the fit's X runs, but the same 1-D X then reaches predict: not shown."""
    from sklearn.linear_model import LinearRegression
    cell = "X = df['age']\nmodel = LinearRegression()\nmodel.fit(X, df['fare'])\npred = model.predict(X)\n"
    ns = {"df": _frame_df(), "LinearRegression": LinearRegression}
    exc = _run(cell, dict(ns), "9-n")
    assert type(exc).__name__ == "ValueError"
    fix = repair_failure(cell, exc, namespace=ns, use_model=False)
    assert fix.refused > 0
    for c in fix.candidates:
        assert _run(c.source, dict(ns), "9-o") is None


def test_bad_input_says_what_to_pass():
    with pytest.raises(TypeError, match="failure"):
        repair_failure("x = 1\n", 42, use_model=False)
    with pytest.raises(TypeError, match="source"):
        repair_failure(b"x = 1\n", "NameError: x", use_model=False)
    with pytest.raises(TypeError, match="namespace"):
        repair_failure("x = y\n", "NameError: name 'y' is not defined", namespace=[1, 2], use_model=False)


def test_a_failure_without_a_place_in_the_cell_gets_a_cause_but_no_guess():
    fix = repair_failure("x = 1\n", "RuntimeError: the server went away\n", use_model=False)
    assert fix.repair is None and fix.cause_text == "RuntimeError: the server went away"


# -- the model's repairs (the real default model) ----------------------------------------------

@pytest.mark.usefixtures("model_path")
def test_the_models_repairs_are_the_same_with_and_without_the_shortcuts():
    """The written line as the draft, the exit test on the context and the shared prompt change
    the cost, never a proposal (a row's numbers do not depend on its batch)."""
    cell = "items = [4, 2, 9]\nbiggest = max(items)\nsmallest = min(itmes)\nprint(biggest - smallest)\n"
    exc = _run(cell, {}, "7-h")
    fast = repair_failure(cell, exc, lines=2, threads=1, rank_exact=True)
    slow = repair_failure(cell, exc, lines=2, threads=1, rank_exact=True, shortcuts=False)
    assert fast.stats["proposals"] > 0
    key = [(c.origin, c.line, c.new_line) for c in fast.candidates]
    assert key == [(c.origin, c.line, c.new_line) for c in slow.candidates]
    for a, b in zip(fast.candidates, slow.candidates):
        assert a.gain == pytest.approx(b.gain, abs=0.05)
    assert fast.stats["batches"] < slow.stats["batches"]
    # whatever the model wrote, nothing shown fails Python's own checks
    assert fast.repair is not None and fast.repair.verified == "python" and _run(fast.repaired, {}, "7-i") is None


@pytest.mark.usefixtures("model_path")
def test_a_repair_reuses_what_the_session_holds_of_its_document_and_finds_the_same_lines():
    """The document's K,V stay in the session after a repair; the same failure repaired again (the
    panel asked after auto mode) computes none of it again, and writes what it wrote cold."""
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.core.resolved_model import resolve_model
    earlier = ["import math\n", "values = [3.0, 4.0, 12.0]\nscale = 2.0\n",
               "def norm(v):\n    return math.sqrt(sum(x * x for x in v))\n"]
    cell = "n = norm(values)\nprint(n / scael)\n"
    ns: dict = {}
    for k, c in enumerate(earlier):
        assert _run(c, ns, f"8-{k}") is None
    exc = _run(cell, ns, "8-z")
    engine = load_model(resolve_model(None), 1)
    engine.session.truncate(0)
    cold = repair_failure(cell, exc, context=earlier, threads=1, rank_exact=True)
    assert cold.stats["context_reused"] == 0
    held = engine.session.n_past
    assert held > 0                                   # the document before the lines is kept
    warm = repair_failure(cell, exc, context=earlier, threads=1, rank_exact=True)
    assert warm.stats["context_reused"] == held and warm.stats["rows"] < cold.stats["rows"]
    assert [(c.origin, c.line, c.new_line) for c in warm.candidates] == \
        [(c.origin, c.line, c.new_line) for c in cold.candidates]
    assert warm.repair is not None and "scale" in warm.repair.new_line


def test_the_earlier_statement_that_dropped_what_the_error_names_is_the_repair():
    earlier = "df = df.drop(columns=['fare'])\nn = len(df)\n"
    cell = "total = df['fare'].sum()\nprint(total / n)\n"
    before = {"df": _frame_df()}
    ns = dict(before)
    assert _run(earlier, ns, "8-j") is None
    exc = _run(cell, ns, "8-k")
    fix = repair_failure(cell, exc, context=[earlier], namespace=ns, use_model=False)
    assert fix.repair is not None and (fix.repair.cell, fix.repair.line, fix.repair.origin) == (0, 1, "deletion")
    assert "line 1 of the previous cell sets `df`, which line 1 reads" in fix.cause_text
    assert fix.repaired == "\nn = len(df)\n"
    again = dict(before)                    # the repaired earlier cell, then the failed one, run
    assert _run(fix.repaired, again, "8-l") is None and _run(cell, again, "8-m") is None


def test_a_type_the_error_quotes_is_no_culprit():
    """"'DataFrame' object has no attribute 'colums'": the earlier line that makes the DataFrame
    names the type, not what is wrong; the repair is the attribute's, in the failed cell."""
    earlier = "df = pd.DataFrame({'age': [22, 38], 'fare': [7.25, 71.3]})\n"
    cell = "names = list(df.colums)\n"
    ns = {"pd": pd}
    assert _run(earlier, ns, "10-p") is None
    exc = _run(cell, ns, "10-q")
    fix = repair_failure(cell, exc, context=[earlier], namespace=ns, use_model=False)
    assert fix.repair is not None and (fix.repair.cell, fix.repair.origin) == (1, "fact")
    assert fix.repaired == "names = list(df.columns)\n"


def test_a_name_deleted_by_an_earlier_cell_is_repaired_there_and_never_by_deleting_its_definition():
    cells = ["import numpy as np\nt = [1, 2, 3]\n", "del t\nu = 1\n"]
    cell = "total = sum(t)\n"
    before, ns = {}, {}
    for k, c in enumerate(cells):
        assert _run(c, ns, f"12-{k}") is None
    fix = repair_failure(cell, _run(cell, ns, "12-x"), context=cells, namespace=ns, use_model=False)
    assert fix.repair is not None and (fix.repair.cell, fix.repair.line, fix.repair.origin) == (1, 1, "deletion")
    assert all(c.old_line != "t = [1, 2, 3]" for c in fix.candidates)
    assert _run(cells[0], before, "12-y") is None and _run(fix.repaired, before, "12-z") is None
    assert _run(cell, before, "12-w") is None
    # a module the error quotes is what the object is, not what is wrong: its import stays
    typo = "r = np.aranye(3)\n"
    fix = repair_failure(typo, _run(typo, ns, "12-v"), context=cells, namespace=ns, use_model=False)
    assert fix.repair is not None and fix.repaired == "r = np.arange(3)\n"


def test_a_fill_in_the_middle_model_reads_from_both_sides_only_the_lines_least_likely_from_the_left():
    """More places than READ_BOTH: every one is read from the left (the rows the prompts need
    anyway), the least likely READ_BOTH of them from both sides, and the shortcuts change the
    cost of that, never the lines read nor the repairs."""
    from jupyter_codecheck.engine.paths import SPLIT_MODELS, split_model_path
    from jupyter_codecheck.failure.repair import READ_BOTH
    split = SPLIT_MODELS["qwen2.5-coder-1.5b"]
    if split_model_path(split) is None:
        pytest.skip(f"{split.label} part wheels are not installed; install them with: {split.extra_hint}")
    cell = ("def count_vowels(text):\n    vowels = 'aeiou'\n    total = 0\n    for ch in text.lower():\n"
            "        if ch in vowels:\n            total += 2\n        else:\n            total += 0\n"
            "    return total\n")
    text = ('Traceback (most recent call last):\n  File "test_vowels.py", line 3, in <module>\n'
            "    assert count_vowels('banana') == 3\nAssertionError\n")
    fix = repair_failure(cell, text, model="qwen2.5-coder-1.5b", lines=2, threads=1)
    assert fix.stats["places"] > READ_BOTH
    assert fix.stats["read_left"] == fix.stats["places"] and fix.stats["read"] == READ_BOTH
    slow = repair_failure(cell, text, model="qwen2.5-coder-1.5b", lines=2, threads=1, shortcuts=False)
    assert slow.stats["read"] == READ_BOTH and slow.stats["written"] == fix.stats["written"]
    assert [(c.line, c.new_line) for c in slow.candidates] == [(c.line, c.new_line) for c in fix.candidates]


@pytest.mark.usefixtures("model_path")
def test_the_first_line_of_the_code_in_view_is_not_written_again_for_how_unlikely_it_reads_from_the_left():
    """Read from the left, the cell's first line has nothing before it: its least likely token
    says how a document begins. A model that reads from the left alone (SmolLM2) ranks it last
    among the places to write again, so the lines after it get the writing."""
    cell = ("from collections import Counter\n\ndef scaled(values, factor):\n    out = []\n"
            "    for v in values:\n        out.append(v + factor)\n    return out\n")
    text = ('Traceback (most recent call last):\n  File "test_scaled.py", line 3, in <module>\n'
            "    assert scaled([1, 2], 3) == [3, 6]\nAssertionError\n")
    fix = repair_failure(cell, text, lines=2, threads=1)
    assert fix.stats["places"] == 5 and fix.stats["lines"] == 2
    assert [0, 1] not in fix.stats["written"] and [0, 6] in fix.stats["written"]


@pytest.mark.usefixtures("model_path")
def test_a_failure_no_frame_of_the_cell_passed_through_is_read_line_by_line():
    """A test's assertion failed elsewhere: every code line of the cell is a place, the model
    reads them all from both sides and writes again the least likely ones; a test cell's
    `assert` is never repaired into something that checks nothing."""
    cell = ("def scaled(values, factor):\n    out = []\n    for v in values:\n"
            "        out.append(v + factor)\n    return out\n")
    text = ('Traceback (most recent call last):\n  File "test_scaled.py", line 3, in <module>\n'
            "    assert scaled([1, 2], 3) == [3, 6]\nAssertionError\n")
    fix = repair_failure(cell, text, lines=2, threads=1)
    assert fix.stats["places"] == 4 and fix.stats["read"] == 4 and fix.stats["lines"] == 2
    assert fix.cause is not None and "reads least likely to the model" in fix.cause_text
    # read and written in one pass, or read first and then written: the same lines
    slow = repair_failure(cell, text, lines=2, threads=1, shortcuts=False)
    assert slow.stats["read"] == 4 and slow.stats["rows"] > fix.stats["rows"]
    assert [(c.line, c.new_line) for c in slow.candidates] == [(c.line, c.new_line) for c in fix.candidates]
    test_cell = "assert scaled([1, 2], 3) == [3, 6]\n"
    ns = {}
    assert _run(cell, ns, "13-a") is None
    fix = repair_failure(test_cell, _run(test_cell, ns, "13-b"), context=[cell], namespace=ns, threads=1)
    assert all(c.new_line.lstrip().startswith("assert") for c in fix.candidates if (c.cell, c.line) == (1, 1))


@pytest.mark.usefixtures("model_path")
def test_the_context_is_held_only_once_the_kernel_has_been_idle(monkeypatch):
    """Auto mode's HoldJob after a cell: a next cell that comes within IDLE_S (Run All) cancels
    it before it starts computing; left idle, it holds the cells for the next failure."""
    import threading

    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.views import failed_cells
    started = []
    real = failed_cells.hold_context

    def spied(*args, **kwargs):
        started.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(failed_cells, "hold_context", spied)
    load_model(None, 1)
    cells = ["import math\n", "radius = 2.0\narea = math.pi * radius ** 2\n"]
    busy = failed_cells.HoldJob(cells, {"n_threads": 1})
    threading.Timer(failed_cells.HoldJob.IDLE_S / 4, busy.cancel.set).start()
    busy.run()
    assert busy.done.is_set() and busy.held is None and started == []
    idle = failed_cells.HoldJob(cells, {"n_threads": 1})
    idle.run()
    assert len(started) == 1 and idle.held is not None and idle.held > 10
