"""Which views show the model's warnings: only with a model whose held-out evidence beat chance
on that kind of code (files, notebook cells), as its shipped calibration says; the heat map,
Python's errors and their fixes stay either way (issue 42, item 6)."""
from __future__ import annotations

import contextlib
import io
import json

import nbformat
import pytest

from jupyter_codecheck.core.calibration import Calibration, CalibrationError, shipped_model_warnings
from jupyter_codecheck.core.check import check, shows_model_warnings
from jupyter_codecheck.core.options import CheckOptions
from jupyter_codecheck.core.long_sources import UnitCheck
from jupyter_codecheck.pytext.sources import Unit

# a slip the default model finds at margin 0 (`% 2 == 1` for even), and an undefined name
SLIP = "def is_even(n):\n    return n % 2 == 1\n"
UNDEFINED = "def total(xs):\n    s = 0\n    for x in xs:\n        s += y\n    return s\n"


def _verdict(model_path, notebook: bool) -> bool:
    return bool(shipped_model_warnings(model_path, notebook=notebook))


def test_off_drops_the_warnings_and_keeps_the_heat_map_and_the_errors(model_path):
    on = check(SLIP, margin=0.0, model_warnings="on", n_threads=1)
    off = check(SLIP, margin=0.0, model_warnings="off", n_threads=1)
    assert [f.severity for f in on.findings] == ["warning"] and on.stats["model_warnings"] is True
    assert off.findings == [] and off.edits == [] and off.stats["model_warnings"] is False
    assert [(t.text, t.prob) for t in on.tokens] == [(t.text, t.prob) for t in off.tokens]   # the heat map
    assert off.evidence == on.evidence          # what the model weighed is still there to read
    errors = check(UNDEFINED, model_warnings="off", n_threads=1)
    assert [(f.line, f.kind) for f in errors.findings] == [(4, "undefined-name")]


@pytest.mark.parametrize("notebook", [False, True])
def test_the_default_follows_the_shipped_verdict_for_the_kind_of_code(model_path, notebook):
    r = check(SLIP, margin=0.0, notebook=notebook, n_threads=1)
    assert r.stats["model_warnings"] is _verdict(model_path, notebook)
    assert any(f.severity == "warning" for f in r.findings) is _verdict(model_path, notebook)


def _cli_stats(tmp_path, name: str) -> list[bool]:
    from jupyter_codecheck.views import cli
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli.main(["--format", "json", "--threads", "1", str(tmp_path / name)])
    return [f["stats"]["model_warnings"] for f in json.loads(out.getvalue())["files"]]


def test_the_command_line_and_pre_commit_judge_files_and_cells_apart(model_path, tmp_path):
    # pre-commit's hooks run this command line on the staged files
    (tmp_path / "slip.py").write_text(SLIP)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SLIP)]
    nbformat.write(nb, str(tmp_path / "slip.ipynb"))
    assert _cli_stats(tmp_path, "slip.py") == [_verdict(model_path, False)]
    assert _cli_stats(tmp_path, "slip.ipynb") == [_verdict(model_path, True)]


def _panel_options() -> dict:
    from jupyter_codecheck.views.server.requests import parse_check_request
    body = json.dumps({"source": SLIP}).encode()
    return parse_check_request(body, max_bytes=1 << 20).options


def _magic_options() -> dict:
    # %%codecheck and auto mode both check with the kernel's options (magics.kernel_options)
    from IPython.core.interactiveshell import InteractiveShell
    from jupyter_codecheck.views.magics import CodecheckMagics
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "jupyter_codecheck")
    try:
        magics = next(m for m in shell.magics_manager.registry.values() if isinstance(m, CodecheckMagics))
        return magics.kernel_options()
    finally:
        shell.run_line_magic("unload_ext", "jupyter_codecheck")


@pytest.mark.parametrize("view, options, notebook", [
    ("%%codecheck and auto mode", _magic_options, True),
    ("panel Check", _panel_options, True),
    ("command line, pre-commit and pytest on a notebook's cell",
     lambda: UnitCheck(Unit("n.ipynb", SLIP, cell=0), [], [], []).options(), True),
    ("command line, pre-commit and pytest on a Python file",
     lambda: UnitCheck(Unit("f.py", SLIP), [], [], []).options(), False),
])
def test_each_view_asks_for_the_verdict_of_the_code_it_checks(model_path, view, options, notebook):
    opts = {k: v for k, v in options().items() if k in ("notebook",)}
    assert shows_model_warnings(CheckOptions.from_kwargs(**opts)) is _verdict(model_path, notebook), view


def test_a_calibration_verdict_must_name_both_kinds():
    base = {"schema": "jupyter-codecheck/calibration/1", "model": {}, "options": {}, "target_false_alarm": 0.1,
            "achieved_false_alarm": 0.1, "calibration_set": {}, "created": "now"}
    c = Calibration.from_dict({**base, "model_warnings": {"files": True, "cells": False}})
    assert Calibration.from_dict(c.to_dict()).model_warnings == {"files": True, "cells": False}
    repairs = {"files": False, "cells": False, "files_with_repairs": True, "cells_with_repairs": False}
    assert Calibration.from_dict({**base, "model_warnings": repairs}).model_warnings == repairs
    for bad in ({"files": True}, {"files": "yes", "cells": False}, [True, False],
                {"files": True, "cells": False, "files_with_lines": True}, {"files_with_repairs": True, "cells": True}):
        with pytest.raises(CalibrationError, match="model_warnings"):
            Calibration.from_dict({**base, "model_warnings": bad})
    lead = Calibration.from_dict({**base, "margin": 3.0, "margin_measure": "lead"})
    assert Calibration.from_dict(lead.to_dict()).margin_measure == "lead"
    assert Calibration.from_dict(base).margin_measure == "nats"
    with pytest.raises(CalibrationError, match="margin_measure"):
        Calibration.from_dict({**base, "margin_measure": "bits"})
    floors = Calibration.from_dict({**base, "repair_margin": {"files": 5.5, "cells": 7}})
    assert Calibration.from_dict(floors.to_dict()).repair_margin == {"files": 5.5, "cells": 7.0}
    assert (floors.repair_floor(), floors.repair_floor(notebook=True)) == (5.5, 7.0)
    assert Calibration.from_dict(base).repair_margin is None
    for bad in ({"files": 5.5}, {"files": "high", "cells": 1.0}, 5.5):
        with pytest.raises(CalibrationError, match="repair_margin"):
            Calibration.from_dict({**base, "repair_margin": bad})


def test_a_lead_holds_a_warning_to_the_gains_at_the_other_lines():
    from types import SimpleNamespace
    from jupyter_codecheck.core import evidence
    from jupyter_codecheck.pytext.pycheck import analyse
    # two places a line apart, their best candidates gaining 5 and 3 nats: by the gain both clear a
    # 2-nat margin; by the lead only the first (5 - 3 >= 2), the second trails it
    data = b"a = 1\nb = 2\n"
    kept = [evidence.Candidate(site=0, start=4, end=5, text="7", source="walk"),
            evidence.Candidate(site=1, start=10, end=11, text="8", source="walk")]
    verdicts = [SimpleNamespace(key=0, gain=5.0, edit_gain=1.0, start=0, end=2),
                SimpleNamespace(key=1, gain=3.0, edit_gain=1.0, start=0, end=2)]
    places = SimpleNamespace(error_lines={}, error_spans={}, is_recorded=lambda c: False)
    facts = analyse(data.decode(), None, None)
    for measure, lines in (("nats", [1, 2]), ("lead", [1])):
        found, _, ev = evidence._choose(verdicts, kept, places, data, facts, 2.0, True, measure)
        assert [f.line for f in found] == lines, measure
        assert [e.line for e in ev] == [1, 2]


def test_a_line_repair_is_held_to_its_own_floor_and_a_place_shows_its_verified_evidence():
    from types import SimpleNamespace
    from jupyter_codecheck.core import evidence
    from jupyter_codecheck.core.repairs import FIM_SOURCE
    from jupyter_codecheck.pytext.pycheck import analyse
    # line 1: a walk edit gaining 1 nat and a fill-in-the-middle repair gaining 4.5 by its own
    # reading; line 2: a repair gaining 3. Margin 6.5, repair floor 4: the first repair is a
    # warning though below the margin, the second is not though above a 2-nat margin
    data = b"a = 1\nb = 2\n"
    kept = [evidence.Candidate(site=0, start=4, end=5, text="7", source="walk"),
            evidence.Candidate(site=0, start=0, end=5, text="a = abs(1)", source=FIM_SOURCE),
            evidence.Candidate(site=1, start=6, end=11, text="b = 3", source=FIM_SOURCE)]
    verdicts = [SimpleNamespace(key=0, gain=1.0, edit_gain=0.5, start=0, end=2),
                SimpleNamespace(key=1, gain=4.5, edit_gain=0.0, start=0, end=0),
                SimpleNamespace(key=2, gain=3.0, edit_gain=0.0, start=0, end=0)]
    places = SimpleNamespace(error_lines={}, error_spans={}, is_recorded=lambda c: False)
    facts = analyse(data.decode(), None, None)
    for margin, floor, lines in ((6.5, 4.0, [1]), (2.0, 4.0, [1]), (6.5, 5.0, []), (0.5, 5.0, [1]), (6.5, 2.5, [1, 2])):
        found, edits, ev = evidence._choose(verdicts, kept, places, data, facts, margin, True, "nats", floor)
        assert [f.line for f in found] == lines, (margin, floor)
        # a place's evidence is its verified candidate where it has one; a repair where it has not
        assert [(e.line, e.source) for e in ev] == [(1, "walk"), (2, FIM_SOURCE)]
    found, edits, _ = evidence._choose(verdicts, kept, places, data, facts, 6.5, True, "nats", 4.0)
    assert [e.replacement for e in edits] == ["a = abs(1)"]
    assert "before and after the line" in found[0].message      # not the verified gain's wording
