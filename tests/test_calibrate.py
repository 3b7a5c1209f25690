"""Auto-calibration: the offline rule selection (synthetic statistics, exact expected thresholds),
the calibration file's schema, and one small real calibration whose prediction the real check
confirms."""
from __future__ import annotations

import json

import numpy as np
import pytest

from jupyter_codecheck.tools import calibrate as cal
from jupyter_codecheck.tools.calibrate import FileTokens, Rule


def ft(name, probs, ranks=None, index=None, line=None, forced=False):
    ranks = ranks if ranks is not None else [0] * len(probs)
    return FileTokens.from_arrays(name, probs, ranks, index=index, line=line, forced=forced)


# -- offline selection ---------------------------------------------------------------------------

CLEAN = [ft("a", [0.5, 0.05]), ft("b", [0.9, 0.002]), ft("c", [0.3, 0.02]), ft("d", [0.6])]
PROB_ONLY = [Rule(p, None, 0.0) for p in (0.005, 0.01, 0.02, 0.03, 0.1)]


def test_prob_threshold_meets_target_and_finds_most_buggy_lines():
    # at most 1 of 4 clean files may be flagged: 0.005, 0.01, 0.02 flag only "b" (0.002);
    # 0.03 also flags "c". Of the three, only 0.02 rejects x's changed-line token (0.015).
    buggy = [(ft("x", [0.9, 0.015], line=[1, 2]), {2}), (ft("y", [0.04], line=[3]), {3})]
    choice = cal.select(CLEAN, 0.25, buggy=buggy, rules=PROB_ONLY)
    assert choice.rule == Rule(0.02, None, 0.0)
    assert choice.false_alarm == pytest.approx(0.25)
    assert choice.buggy_line_hit == pytest.approx(0.5)
    # a looser target admits 0.1, which finds both
    assert cal.select(CLEAN, 0.75, buggy=buggy, rules=PROB_ONLY).rule == Rule(0.1, None, 0.0)


def test_rank_and_lenient_floor():
    # e: its token at index 1 is in the lenient region (p=0.003: only a floor above it flags e);
    # f: p=0.03 at rank 2: rank <= 1 or p >= 0.05 alone would flag it, rank <= 3 keeps it
    clean = [ft("e", [0.003, 0.4], ranks=[20, 0], index=[1, 5]), ft("f", [0.03], ranks=[2], index=[4])]
    rules = cal.grid(probs=(None, 0.05), ranks=(None, 1, 3), floors=(0.001, 0.005))
    table = {row[0]: row[1] for row in cal.select(clean, 1.0, rules=rules).table}
    assert table[Rule(None, 1, 0.001)] == 0.5
    assert table[Rule(None, 3, 0.005)] == 0.5
    assert table[Rule(0.05, None, 0.001)] == 0.5
    assert table[Rule(None, 3, 0.001)] == 0.0
    assert table[Rule(0.05, 3, 0.001)] == 0.0
    # both feasible rules reject nothing; the tie goes to grid order
    assert cal.select(clean, 0.0, rules=rules).rule == Rule(None, 3, 0.001)


def test_offline_rule_matches_acceptance_rule():
    """rejected() is AcceptanceRule.accepts negated, on the same numbers."""
    from jupyter_codecheck.decoding.acceptance import AcceptanceRule
    from jupyter_codecheck.decoding.dist import Dist
    rng = np.random.default_rng(0)
    probs = rng.uniform(1e-4, 1.0, 200)
    ranks = rng.integers(0, 40, 200)
    index = rng.integers(1, 8, 200)
    f = ft("r", probs, ranks, index=index)
    for rule in (Rule(0.2, 9, 0.005), Rule(None, 4, 0.0), Rule(0.05, None, 0.01)):
        ar = AcceptanceRule(prob=rule.accept_prob, rank=rule.accept_rank, lenient_floor=rule.lenient_floor,
                            lenient_tokens=rule.lenient_tokens)
        expect = [not ar.accepts(Dist(ref=7, ref_logprob=float(np.log(p)), ref_rank=int(r),
                                      top_ids=np.array([1, 2]), top_logprobs=np.array([-0.1, -2.0]),
                                      exit_layer=29, full_depth=True), 7, int(i))
                  for p, r, i in zip(probs, ranks, index)]
        assert cal.rejected(f, rule).tolist() == expect


def test_unreachable_target_is_a_clear_error():
    clean = [ft("healed", [0.9], forced=True), ft("ok", [0.9])]
    with pytest.raises(ValueError, match="raise the target"):
        cal.select(clean, 0.0, rules=PROB_ONLY)
    assert cal.select(clean, 0.5, rules=PROB_ONLY).false_alarm == 0.5


def test_changed_lines():
    assert cal.changed_lines("a\nb\nc\n", "a\nB\nc\n") == {2}
    assert cal.changed_lines("a\nc\n", "a\nb\nc\n") == {1, 2}        # an insertion: the lines around
    assert cal.changed_lines("a\nx\nc\n", "a\nc\n") == {2}
    assert cal.changed_lines("a  \n", "a\n") == set()                 # trailing whitespace only


# -- the file -------------------------------------------------------------------------------------

def make_calibration(**over):
    d = dict(model={"name": "m", "file": "m.gguf", "size": 3, "sha256": "ab" * 32},
             options=Rule(0.02, 9, 0.001).options(), target_false_alarm=0.15, achieved_false_alarm=0.1,
             buggy_line_hit=0.4, objective="test", calibration_set={"files": 10, "tokens": 100, "pairs": 5,
                                                                     "sources": ["x"]},
             created="2026-01-01T00:00:00+00:00")
    d.update(over)
    return cal.Calibration(**d)


def test_json_round_trip(tmp_path):
    c = make_calibration()
    path = c.save(tmp_path / "sub" / "m.calibration.json")
    data = json.loads(path.read_text())
    assert data["schema"] == cal.SCHEMA
    assert set(data) >= {"model", "options", "target_false_alarm", "achieved_false_alarm", "created"}
    back = cal.load(path)
    assert back == c
    from jupyter_codecheck.core.check import CheckOptions
    opts = CheckOptions.from_kwargs(**back.options)     # the checker takes the options as they are
    assert (opts.accept_prob, opts.accept_rank, opts.lenient_floor) == (0.02, 9, 0.001)


def test_bad_files_are_refused(tmp_path):
    p = tmp_path / "c.json"
    p.write_text(json.dumps({**make_calibration().to_dict(), "schema": "other/9"}))
    with pytest.raises(cal.CalibrationError, match="schema"):
        cal.load(p)
    d = make_calibration().to_dict()
    del d["options"]
    p.write_text(json.dumps(d))
    with pytest.raises(cal.CalibrationError, match="options"):
        cal.load(p)
    p.write_text(json.dumps({**make_calibration().to_dict(), "options": {"temperature": 1.0}}))
    with pytest.raises(cal.CalibrationError, match="subset"):
        cal.load(p)
    p.write_text("{not json")
    with pytest.raises(cal.CalibrationError, match="not JSON"):
        cal.load(p)


# -- a real calibration --------------------------------------------------------------------------

SNIPPETS = {
    "total.py": "def total(values):\n    return sum(values)\n",
    "loop.py": "for i in range(3):\n    print(i)\n",
    "names.py": "names = ['a', 'b']\nprint(len(names))\n",
}


def test_calibrate_command_on_real_model(tmp_path, capsys):
    src = tmp_path / "clean"
    src.mkdir()
    for name, text in SNIPPETS.items():
        (src / name).write_text(text)
    out = tmp_path / "cal.json"
    cache = tmp_path / "cache"
    code = cal.main([str(src), "--target-false-alarm", "0.34", "--out", str(out), "--cache", str(cache),
                     "--threads", "1"])
    assert code == 0, capsys.readouterr().err
    c = cal.load(out)
    assert c.calibration_set["files"] == 3
    assert c.achieved_false_alarm <= 0.34
    assert len(c.model["sha256"]) == 64
    # the offline prediction is what the real (full-depth) walk does with those thresholds: the
    # tokens it doubts are the places weighed for findings (a doubt alone is no finding)
    from jupyter_codecheck.core.check import check
    stats = cal.cached_token_stats(cache, c.model["sha256"])
    rule = Rule(c.options["accept_prob"], c.options["accept_rank"], c.options["lenient_floor"])
    predicted = [cal.flagged(stats(text, name), rule) for name, text in SNIPPETS.items()]
    real = [any(t.decision not in ("accept", "masked")
                for t in check(text, exit_policy=None, n_threads=1, **c.options).tokens)
            for text in SNIPPETS.values()]
    assert predicted == real
    assert sum(real) / 3 == pytest.approx(c.achieved_false_alarm, abs=1e-6)


def test_calibrate_command_errors(tmp_path, capsys):
    assert cal.main([str(tmp_path / "missing")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert cal.main([str(tmp_path / "empty")]) == 2
    assert "no .py files" in capsys.readouterr().err


def test_shipped_calibration_of_the_default_model():
    c = cal.default_for(None)
    assert c is not None, "jupyter_codecheck/calibration/ has no calibration for the default model"
    from jupyter_codecheck.core.check import CheckOptions
    CheckOptions.from_kwargs(**c.options)
    assert c.achieved_false_alarm <= c.target_false_alarm
    assert cal.default_options(None) == c.options


def test_every_shipped_calibration_loads_and_names_its_model_file():
    files = sorted(cal.SHIPPED_DIR.glob("*.json"))
    assert len(files) >= 2
    from jupyter_codecheck.core.check import CheckOptions
    for path in files:
        c = cal.load(path)
        assert c.model["size"] > 0 and len(c.model["sha256"]) == 64, path
        CheckOptions.from_kwargs(**c.options)
        assert c.achieved_false_alarm <= c.target_false_alarm, path
        if c.places is not None:          # the places option takes it as it is
            CheckOptions.from_kwargs(places=c.places)
            assert c.places_note, path


def test_places_and_margin_survive_a_round_trip(tmp_path):
    c = make_calibration()
    c.places, c.places_note, c.margin, c.margin_note = 3, "why three", 1.0, "why one"
    back = cal.load(c.save(tmp_path / "m.json"))
    assert (back.places, back.places_note, back.margin) == (3, "why three", 1.0)
    assert "places" not in make_calibration().to_dict()      # absent stays absent


def _result(gains, error=False):
    from jupyter_codecheck.core.result import CheckResult, Evidence, Finding
    findings = [Finding(1, 0, 100.0, "syntax", "syntax error", None, severity="error")] if error else []
    ev = [Evidence(1, 0, 0, 1, "a", "b", g, "walk", 3) for g in gains]
    return CheckResult(source="x\n", findings=findings, evidence=ev)


def test_choose_margin_is_exact_on_the_clean_files():
    results = [_result([5.0, 1.0]), _result([2.02]), _result([0.3]), _result([]), _result([], error=True),
               _result([-4.0]), _result([1.5]), _result([]), _result([]), _result([])]
    # 10 files, target 20 %: two may be flagged; the error is one of them whatever the margin
    m = cal.choose_margin(results, 0.2)
    assert m.files == 10 and m.files_with_errors == 1
    assert m.margin == 2.05 and m.achieved_false_alarm == pytest.approx(0.2)
    assert [cal.file_gain(r) >= m.margin for r in results].count(True) == 2
    # target 30 %: the next file (gain 2.02) may be flagged too
    assert cal.choose_margin(results, 0.3).margin == 1.55
    with pytest.raises(ValueError, match="errors"):
        cal.choose_margin(results, 0.05)


def test_notebook_cells_have_their_own_shipped_margin(model_path):
    from jupyter_codecheck.core.calibration import shipped_margin
    # bench/notebook_margin.py: on notebook code the model's warnings predicted no crash
    assert shipped_margin(model_path, notebook=True) == 12.0 > shipped_margin(model_path)


def test_the_model_is_resolved_once_with_its_calibration(model_path, tmp_path):
    from jupyter_codecheck.core.options import CheckOptions, validate
    from jupyter_codecheck.core.resolved_model import find_model, resolve_model
    from jupyter_codecheck.engine.paths import ModelNotFoundError
    model = resolve_model(None)
    assert model.path == model_path and model.named is None
    assert model.calibration == cal.default_for(model_path)
    assert model.margin(notebook=True) == cal.shipped_margin(model_path, notebook=True) != model.margin()
    assert model.places == model.calibration.places
    # `calibration` takes the resolved model's thresholds under the options given
    opts = CheckOptions.from_valid(validate({"calibration": True, "accept_rank": 4}), model)
    assert opts.accept_prob == model.thresholds()["accept_prob"] and opts.accept_rank == 4
    # a model not there: the options are still built (no thresholds), a check says what to install
    missing = str(tmp_path / "absent.gguf")
    assert find_model(missing) is None
    assert CheckOptions.from_kwargs(model=missing, calibration=True).accept_prob == CheckOptions().accept_prob
    with pytest.raises(ModelNotFoundError, match="absent.gguf"):
        resolve_model(missing)
    from jupyter_codecheck import check
    with pytest.raises(ModelNotFoundError, match="absent.gguf"):
        check("x = 1\n", model=missing)
    # a file without a shipped calibration: none, and the defaults
    other = tmp_path / "other.gguf"
    other.write_bytes(b"GGUF")
    assert resolve_model(other).calibration is None and resolve_model(other).thresholds() == {}
