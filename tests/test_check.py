"""check() on the real default model: clean cells stay clean, planted errors are found on their
line, early exit keeps the decisions, results stream and round-trip through JSON."""
from __future__ import annotations

import json
import threading

import pytest

from jupyter_codecheck import CheckResult, Edit, TokenRecord, check, check_iter

CLEAN = [
    "def add(a, b):\n    return a + b\n",
    # PEP 8's blank line after the imports: without it the model's rank for `print` sits at the
    # acceptance threshold (rank 9-10 by arithmetic noise) and a blank line may be inserted
    "import os\n\nprint(os.path.join('a', 'b'))\n",
    "numbers = [1, 2, 3, 4]\ntotal = sum(numbers)\nprint(total)\n",
    "def is_even(n):\n    return n % 2 == 0\n",
    "for i in range(10):\n    print(i)\n",
]

BUGGY = [
    ("x = [1, 2, 3]\npritn(x)\n", 2),
    ("def f(x):\n    return max(x, 0\n", 2),
    ("def mean(values):\n    total = sum(values)\n    retrun total / len(values)\n", 3),
    ("n = 5\nfor i in range(n) print(i)\n", 2),
]

FAST = dict(lens=False)   # the learned exit maps are exercised in their own tests


@pytest.fixture(scope="module", autouse=True)
def _needs_model(model_path):
    return model_path


@pytest.mark.parametrize("source", CLEAN)
def test_clean_cells_get_no_edits(source):
    result = check(source, exit_policy=None, **FAST)
    assert result.edits == [], [(e.kind, e.original, e.replacement) for e in result.edits]
    assert result.corrected == source
    assert [t.decision for t in result.tokens].count("flag") == 0


@pytest.mark.parametrize("source,line", BUGGY)
def test_planted_errors_are_flagged_on_their_line(source, line):
    result = check(source, exit_policy=None, **FAST)
    assert line in [f.line for f in result.findings], result.findings
    assert result.corrected != source
    top = max(result.findings, key=lambda f: f.score)
    assert top.line == line


def test_known_fixes():
    assert check("x = [1, 2, 3]\npritn(x)\n", **FAST).corrected == "x = [1, 2, 3]\nprint(x)\n"
    assert check("def f(x):\n    retrun x\n", **FAST).corrected == "def f(x):\n    return x\n"


@pytest.mark.parametrize("policy", ["default", "plain"])
def test_early_exit_keeps_the_decisions_on_clean_code(policy):
    # "default" (exact K,V): the test at the last layer, which spares most rows the full head;
    # "plain": exits from layer 6 on
    same = total = heads = rows = 0
    depth_full, depth_early = [], []
    for source in CLEAN:
        full = check(source, exit_policy=None, **FAST)
        early = check(source, exit_policy=policy, **FAST)
        assert len(full.tokens) == len(early.tokens)
        walk = {k: full.stats[k] - full.stats["verification"].get(v, 0)
                for k, v in (("full_heads", "full_heads"), ("rows_scored", "rows"))}
        assert walk["full_heads"] == walk["rows_scored"]      # full depth: every walk row's full head
        same += sum(a.decision == b.decision for a, b in zip(full.tokens, early.tokens))
        total += len(full.tokens)
        heads += early.stats["full_heads"]
        rows += early.stats["rows_scored"]
        depth_full.append(full.stats["decision_depth"])
        depth_early.append(early.stats["decision_depth"])
    assert same / total >= 0.99
    assert max(depth_early) <= 1.0 == min(depth_full)
    if policy == "default":
        assert heads < 0.6 * rows
    else:
        assert min(depth_early) < 1.0


def test_qwen_coder_1_5b_exit_keeps_the_full_depth_findings():
    """The 1.5B coder, with its layers as stored (no f16 copies): the default policy's exit
    (exact K,V, the last layer's cheap test) gives the findings and corrections of full depth."""
    from jupyter_codecheck.engine.paths import SPLIT_MODELS, split_model_path
    split = SPLIT_MODELS["qwen2.5-coder-1.5b"]
    if split_model_path(split) is None:
        pytest.skip(f"{split.label} part wheels are not installed; install them with: {split.extra_hint}")
    for source in CLEAN[:3] + [s for s, _ in BUGGY[:3]]:
        full = check(source, model="qwen2.5-coder-1.5b", exit_policy=None, **FAST)
        early = check(source, model="qwen2.5-coder-1.5b", **FAST)
        assert early.stats["full_heads"] < full.stats["full_heads"]
        assert early.corrected == full.corrected
        assert ([(f.line, f.kind, f.replacement) for f in early.findings]
                == [(f.line, f.kind, f.replacement) for f in full.findings])
        # its shipped places: the five most surprising lines (and each error's) are weighed
        assert early.stats["verification"]["places"] <= 5 + sum(f.severity == "error" for f in early.findings)


def test_sequential_and_batched_agree():
    src = "def mean(values):\n    total = sum(values)\n    retrun total / len(values)\n"
    a = check(src, mode="batched", **FAST)
    b = check(src, mode="sequential", **FAST)
    assert a.corrected == b.corrected
    assert [t.decision for t in a.tokens] == [t.decision for t in b.tokens]


def test_result_fields_and_json_round_trip():
    src = "x = 'héllo 🐍'\npritn(x)\n"
    r = check(src, **FAST)
    t = r.tokens[0]
    assert {"text", "start", "end", "line", "column", "prob", "rank", "alternatives", "exit_layer",
            "decision"} <= set(vars(t))
    assert "".join(tok.text for tok in r.tokens) == src        # no half characters anywhere
    assert all("\ufffd" not in tok.text for tok in r.tokens)
    back = CheckResult.from_json(r.to_json())
    assert back == r
    f = r.findings[0]
    assert (f.line, f.kind, f.severity) == (2, "undefined-name", "error") and f.replacement == "print(x)"
    assert r.evidence and r.evidence[0].replacement == "print" and r.evidence[0].gain > 0
    for key in ("tokens", "layers_computed", "layers_possible", "exit_histogram", "time_s", "tokens_per_s"):
        assert key in r.stats
    # a batch pays for every layer it runs, however few rows are left (bench/check.py's cost model)
    assert r.stats["layer_steps"] % r.stats["n_layer"] == 0 and r.stats["layer_steps"] >= r.stats["n_layer"]


def test_diff_rows_of_a_real_check_mark_the_fix_and_travel_in_the_json():
    """The rows every view draws (their edge cases: test_diff_rows.py), on the model's own fix."""
    r = check("x = [1, 2, 3]\npritn(x)\n", **FAST)
    (edit,) = r.edits
    rows = [(row.kind, row.old_line, row.new_line, row.text, row.spans, row.edit_kinds) for row in r.diff_rows()]
    assert rows == [("same", 1, 1, "x = [1, 2, 3]", [], []),
                    ("removed", 2, None, "pritn(x)", [(0, 5)], []),
                    ("added", None, 2, "print(x)", [(0, 5)], [edit.kind])]
    assert json.loads(r.to_json())["diff_rows"][2]["spans"] == [[0, 5]]


def test_magics_and_shell_lines_are_never_flagged():
    src = "%matplotlib inline\n!pip instal numpy\nx = 1\nprint(x)\n"
    r = check(src, **FAST)
    masked = [t for t in r.tokens if t.line <= 2 and t.text.strip()]   # line breaks are not part of a magic
    assert masked and all(t.decision == "masked" for t in masked)
    assert all(e.line > 2 for e in r.edits)


def test_streaming_yields_records_then_the_result():
    items = list(check_iter("def add(a, b):\n    return a + b\n", **FAST))
    assert isinstance(items[-1], CheckResult)
    assert all(isinstance(i, (TokenRecord, Edit)) for i in items[:-1])
    assert [i.index for i in items[:-1] if isinstance(i, TokenRecord)] == list(range(len(items[-1].tokens)))


def test_cancel_stops_and_the_engine_stays_usable():
    event = threading.Event()
    seen = []
    for item in check_iter("def add(a, b):\n    return a + b\n" * 6, cancel=event, mode="sequential", **FAST):
        seen.append(item)
        if len(seen) == 5:
            event.set()
    result = seen[-1]
    assert isinstance(result, CheckResult) and result.stats["cancelled"]
    assert len(result.tokens) < 20
    assert check("def add(a, b):\n    return a + b\n", **FAST).edits == []


def test_cancel_is_heard_while_the_gates_parse_candidates():
    # the gates parse the cell once per candidate, with no model batch between: a long stretch
    # of them must still hear Cancel (asked here only from there)
    import sys
    src = "%matplotlib inline\nz = " + "(" * 300 + ")" * 300 + "\nprint(z)\n"
    asked = []

    def cancel():
        asked.append(sys._getframe(1).f_code.co_name)
        return asked[-1] == "gated"
    result = check(src, cancel=cancel, **FAST)
    assert "gated" in asked and result.stats["cancelled"]
    assert len(result.tokens) == result.stats["tokens"]      # the walk itself was done


def test_context_prefix_is_reused():
    ctx = ["import math\n\ndef area(r):\n    return math.pi * r ** 2\n"]
    first = check("print(area(2))\n", context=ctx, **FAST)
    second = check("print(area(3))\n", context=ctx, **FAST)
    assert second.stats["context_reused"] >= second.stats["context_tokens"] - 1 > 5
    assert first.edits == [] and second.edits == []


def test_a_cell_longer_than_the_context_is_refused_before_any_work():
    from jupyter_codecheck.engine.errors import ContextFullError
    with pytest.raises(ContextFullError, match="split it"):
        next(check_iter("x = 1\n" * 2000, **FAST))   # ~8000 tokens, the context holds 4096


def test_bad_options_raise_clear_errors():
    with pytest.raises(TypeError, match="unknown option"):
        check("x = 1\n", acept_prob=0.3)
    with pytest.raises(ValueError, match="mode"):
        check("x = 1\n", mode="fast")
    with pytest.raises(ValueError, match="exit test"):
        check("x = 1\n", exit_policy="warp-speed")
    with pytest.raises(ValueError, match="draft"):
        check("x = 1\n", draft=-2)
    with pytest.raises(TypeError):
        check(b"x = 1\n")
    # a str from bytes decoded with 'surrogateescape' is not text: said where, not a codec's error
    from jupyter_codecheck.core.errors import NotTextError
    with pytest.raises(NotTextError, match="lone surrogate .* at line 2, column 6"):
        check('x = 1\ny = "\udcff"\n')
    with pytest.raises(NotTextError, match="context cell 1"):
        check("x = 1\n", context=["a = 1\n", "b = '\ud800'\n"])
    assert check("", **FAST).tokens == []


def test_recheck_of_an_edited_cell_reuses_its_unchanged_beginning():
    from jupyter_codecheck.core.adapter import load_model
    src = "def mean(values):\n    total = sum(values)\n    count = len(values)\n    return total / count\n"
    edited = src.replace("return total / count", "retrun total / count")
    check(src, **FAST)
    again = check(edited, **FAST)
    assert again.stats["context_reused"] >= 15
    load_model().memory.last_run = None               # nothing to reuse: computed from scratch
    fresh = check(edited, **FAST)
    assert fresh.stats["context_reused"] <= 1
    assert [t.decision for t in again.tokens] == [t.decision for t in fresh.tokens]
    assert again.corrected == fresh.corrected == src


def test_recheck_reuses_the_walk_past_a_slip_and_finds_what_a_fresh_check_finds():
    from jupyter_codecheck.core.adapter import load_model
    src = ("def report(values):\n    pritn(len(values))\n    total = sum(values)\n"
           "    count = len(values)\n    mean = total / count\n    spread = max(values) - min(values)\n"
           "    return mean, spread\n\n\nprint(report([1, 2, 3]))\n")
    edited = src.replace("print(report([1, 2, 3]))", "print(report([4, 5, 6]))")
    first = check(src)
    slip = next(t.index for t in first.tokens if t.decision != "accept")
    again = check(edited)
    assert again.stats["context_reused"] > slip + 20     # the rejection before it is kept too
    load_model().forget()                                    # nothing kept: from scratch
    fresh = check(edited)
    assert fresh.stats["context_reused"] <= 1
    assert [t.decision for t in again.tokens] == [t.decision for t in fresh.tokens]
    assert [(f.line, f.message) for f in again.findings] == [(f.line, f.message) for f in fresh.findings]
    assert "print(len(values))" in again.corrected and again.corrected == fresh.corrected


def test_a_stretch_the_model_cannot_read_is_flagged_without_a_search_and_rechecks_the_same():
    # Python refuses 200 levels of brackets; the model rejects most of them. Where the rejections
    # are dense, they are flagged rather than searched; a recheck that resumes inside such a
    # stretch decides as a fresh check does
    from jupyter_codecheck.core.adapter import load_model
    src = "z = " + "(" * 300 + ")" * 300 + "\nprint(z)\n"
    first = check(src, **FAST)
    assert first.stats["unsearched"] > 20
    # nor are they places to verify: each flagged token's alternatives would be candidates, each
    # a parse of the cell by the gates
    assert first.stats["verification"]["candidates"] < 400
    assert first.findings[0].message.startswith("syntax error: too many nested parentheses")
    edited = src.replace("print(z)", "print(z, 1)")
    again = check(edited, **FAST)
    assert again.stats["context_reused"] > 100
    load_model().forget()
    fresh = check(edited, **FAST)
    assert [t.decision for t in again.tokens] == [t.decision for t in fresh.tokens]
    assert 0 < again.stats["unsearched"] < fresh.stats["unsearched"]     # the walk resumed in the stretch


def test_the_walk_ends_where_healing_rejects_a_token_after_an_insertion():
    # an insertion the walk's own test (token healing included) would reject again is not made
    # again and again before the same token: otherwise this cell never finishes
    import threading
    context = ["from typing import List, Optional, Dict, Tuple, Set\n"
               "import collections, heapq, math, bisect, itertools, functools, re, string\n"
               "from collections import defaultdict, Counter, deque, OrderedDict\n"
               "from heapq import heappush, heappop, heapify\n"
               "from functools import lru_cache, cache, reduce\n"
               "from itertools import accumulate, permutations, combinations, product\n"
               "from math import inf, gcd, sqrt, ceil, floor, log\n"
               "from bisect import bisect_left, bisect_right, insort\n\n\n"
               "class ListNode:\n    def __init__(self, val=0, next=None):\n        self.val = val\n"
               "        self.next = next\n\n\nclass TreeNode:\n"
               "    def __init__(self, val=0, left=None, right=None):\n        self.val = val\n"
               "        self.left = left\n        self.right = right\n"]
    src = ("class Solution:\n    def longestWPI(self, A):\n        curr, ans, D = 0, 0, {}\n"
           "        for e, i in enumerate(self.transform(A)):\n            curr += i\n"
           "            D[curr] = D.get(curr, e)\n"
           "            ans = e + 1 if curr > 0 else max(ans, e - D.get(curr - 1, e))\n"
           "        return ans\n")
    stop = threading.Event()
    timer = threading.Timer(60, stop.set)
    timer.start()
    try:
        r = check(src, context=context, cancel=stop, **FAST)
    finally:
        timer.cancel()
    assert not r.stats["cancelled"] and len(r.tokens) == len(check(src, **FAST).tokens)


def test_places_weighs_the_cells_most_surprising_lines_and_every_error():
    import math
    from jupyter_codecheck.core.adapter import load_model
    src = ("def mean(xs):\n    total = 0\n    for x in xs:\n        total += x * x * x - 3\n"
           "    return total / len(xs) ** 0.5 + 7 ** 3\n\nvalues = [1, 2, 3]\n"
           "print(mean(valuse), sorted(values, reverse=False))\n")
    weighed = {}
    for places in (0, 1, 2):
        load_model().forget()                # no verdicts kept from the other check
        r = check(src, places=places)
        weighed[places] = r.stats["verification"]["places"]
        assert [(f.line, f.kind) for f in r.findings] == [(8, "undefined-name")]
    worst: dict[int, float] = {}
    for t in r.tokens:
        if t.prob is not None and t.decision != "masked":
            worst[t.line] = max(worst.get(t.line, 0.0), -math.log(max(t.prob, 1e-12)))
    top2 = sorted(worst, key=lambda ln: (-worst[ln], ln))[:2]
    # the error's line is weighed in any case; the other places are the most surprising lines
    assert weighed[2] == len({8, *top2})
    assert weighed[1] == len({8, *top2[:1]})
    assert weighed[0] > weighed[2]


def test_beside_a_kernel_the_cells_own_facts_are_read_once(monkeypatch):
    """The check reads the cell's kernel facts, and the fix gate compares each candidate's facts
    with that same read (no second read of the cell as written)."""
    import pandas as pd
    from jupyter_codecheck import facts as kernel
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.facts import notebook_facts
    cell = "margin = df['revenue'] - df['cost']\nprint(margin.meen())\n"
    ns = {"df": pd.DataFrame({"revenue": [10.0, 12.5, 9.0], "cost": [4.0, 5.0, 3.5]})}
    reads, read = [], kernel.kernel_facts

    def counted(source, namespace, **kw):
        reads.append(source)
        return read(source, namespace, **kw)
    monkeypatch.setattr(kernel, "kernel_facts", counted)
    monkeypatch.setattr(notebook_facts, "kernel_facts", counted)     # the one pipeline's read
    load_model().forget()                    # no verdicts kept from another check: the gate runs
    # any gain is a warning (shown whatever the model's verdict): its fix is gated
    check(cell, namespace=ns, **{**FAST, "margin": 0, "model_warnings": "on"})
    assert reads.count(cell) == 1, reads
    assert len(reads) > 1, reads             # the gate read a candidate's facts
