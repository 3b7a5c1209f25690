"""Whole-line repairs (core/repairs.py, decoding/line_repair.py): the shortcuts (the written line as
the draft, the walk's K,V of the cell before the line) change no proposal, on the real default
model; the smallest edit of a proposed line; the option through check()."""
from __future__ import annotations

import math

import pytest

from jupyter_codecheck.core.repairs import (FIM_SOURCE, LineRepairConfig, header_spans, line_candidates,
                                            smallest_edit, suspicious_lines)
from jupyter_codecheck.core.result import TokenRecord
from jupyter_codecheck.decoding.line_repair import LineProposer, LineTask

# a slip a single-token edit does not mend and the model writes otherwise: `+ 1` after the mean
CELL = ("def mean(xs):\n    total = 0\n    for x in xs:\n        total += x\n"
        "    return total / len(xs) + 1\n\n\nprint(mean([1, 2, 3]))\n")


def test_the_smallest_edit_keeps_whole_words_alike():
    data = b"    distance = elem - elem2\n"
    c = smallest_edit(data, 4, 27, b"distance = abs(elem - elem2)", 1)
    assert (data[c.start:c.end], c.text) == (b"elem - elem2", "abs(elem - elem2)")
    # a word is never cut: `count` -> `counter` replaces the word, not its tail
    data = b"x = count + 1\n"
    c = smallest_edit(data, 0, 13, b"x = counter + 1", 1)
    assert (data[c.start:c.end], c.text) == (b"count", "counter")
    assert smallest_edit(data, 0, 13, b"x = count + 1", 1) is None
    c = smallest_edit(b"if a < b:\n", 0, 9, b"if a <= b:", 3, FIM_SOURCE)
    assert (c.start, c.end, c.text, c.source, c.site) == (5, 6, "<=", FIM_SOURCE, 3)


def _record(index, line, start, end, text, prob, decision="accept"):
    return TokenRecord(index=index, text=text, start=start, end=end, line=line, column=0, prob=prob,
                       rank=0, alternatives=[], exit_layer=0, decision=decision)


def test_suspicious_lines_skip_the_first_token_signatures_and_white_space():
    data = b"def f(q):\n    return q + 1\n"
    recs = {0: _record(0, 1, 0, 3, "def", 1e-6), 1: _record(1, 1, 3, 5, " f", 1e-5),
            2: _record(2, 2, 14, 21, " return", 0.5), 3: _record(3, 2, 21, 23, " q", 0.1),
            4: _record(4, 2, 9, 14, "\n    ", 1e-6)}
    assert header_spans(data) == [(0, 9)]
    assert suspicious_lines(recs, 3) == [1, 2]
    assert suspicious_lines(recs, 3, header_spans(data)) == [2]


@pytest.fixture(scope="module")
def cell_in_context():
    """The default model's session holding the document start and CELL, as after a walk."""
    from jupyter_codecheck.core.adapter import EngineLayerModel, load_model
    from jupyter_codecheck.core.vocab import document_start
    from jupyter_codecheck.decoding.scorer import Scorer
    eng = load_model(None, 1)
    tok = eng.tokenizer
    enc = tok.encode(CELL)
    prefix = document_start(tok)
    eng.session.truncate(0)
    eng.session.forward(prefix + list(enc.ids))
    scorer = Scorer(EngineLayerModel(eng.session), None, top_k=8)
    # every line is a suspect: the proposals, not the ranking, are under test here
    recs = {}
    for i in range(1, len(enc.ids)):
        line, _ = enc.line_col(i)
        recs[i] = _record(i, line, enc.starts[i], enc.ends[i], tok.piece(enc.ids[i]).decode("utf-8", "replace"),
                          0.01 if line == 5 else 0.5)
    return eng, tok, enc, prefix, scorer, recs


def test_a_repair_found_with_the_shortcuts_equals_the_one_found_without(cell_in_context):
    eng, tok, enc, prefix, scorer, recs = cell_in_context
    n_past = eng.session.n_past
    found = {}
    for shortcut in (True, False):
        cfg = LineRepairConfig(lines=4, prompt="left", draft=shortcut, shared=shortcut)
        cands, stats = line_candidates(data=CELL.encode(), enc=enc, records=recs, scorer=scorer, tok=tok,
                                       prefix=prefix, offset=len(prefix), cfg=cfg)
        found[shortcut] = (cands, stats)
        assert eng.session.n_past == n_past          # the branch rows are gone
    (fast, fast_stats), (slow, slow_stats) = found[True], found[False]
    assert fast and [c for c, _ in fast] == [c for c, _ in slow]
    # the line the slip is on is among those the model writes otherwise
    assert any(c.site == 5 for c, _ in fast)
    # the shortcuts are what make it cheap: drafted rows ride along in fewer batches
    assert fast_stats["batches"] < slow_stats["batches"]


def test_drafting_changes_neither_a_proposal_nor_its_gain(cell_in_context):
    # a prompt that reads the line's both sides is any chain of rows from position 0: here the
    # cell's tokens after the line, then those before it (no model token of fill-in-the-middle)
    eng, tok, enc, prefix, scorer, recs = cell_in_context
    ids = list(enc.ids)
    nl = [i for i, t in enumerate(ids) if b"\n" in tok.piece(t)]
    a, b = nl[3] + 1, nl[4]                      # line 5's tokens
    task = LineTask(5, prefix + ids[b + 1:] + prefix + ids[:a], 0, ids[a:b + 1])
    out = {}
    for draft in (True, False):
        p = LineProposer(scorer, ends_line=lambda t: b"\n" in tok.piece(t),
                         stops=lambda t: tok.is_eog(t) or tok.is_control(t), draft=draft)
        out[draft] = p.propose([task])
    assert out[True], "the model writes line 5 as it is"
    assert [(x.tokens, round(x.logprob, 4), round(x.written_logprob, 4)) for x in out[True]] == \
        [(x.tokens, round(x.logprob, 4), round(x.written_logprob, 4)) for x in out[False]]
    assert all(math.isfinite(x.written_logprob) for x in out[True])


def test_check_with_line_repairs_reports_what_they_did():
    from jupyter_codecheck import check
    plain = check(CELL, n_threads=1)
    res = check(CELL, repairs="lines", n_threads=1)
    stats = res.stats["verification"]["line_repairs"]
    assert stats["lines"] >= 1 and stats["batches"] >= 1
    assert "line_repairs" not in plain.stats["verification"]
    # a line repair is a candidate like the others: a finding only with its evidence
    for f in res.findings:
        assert f.severity == "error" or f.gain >= 0


def test_the_repair_options_are_checked():
    from jupyter_codecheck import check
    from jupyter_codecheck.core.options import OptionError
    with pytest.raises(OptionError):
        check("x = 1\n", repairs="rewrite")
    with pytest.raises(OptionError):
        check("x = 1\n", repair_lines=0)
    # the default model has no fill-in-the-middle tokens: asked for them, the check says so
    with pytest.raises(ValueError, match="fill-in-the-middle"):
        check(CELL, repairs="lines", repair_prompt="fim", n_threads=1)


def test_a_line_the_model_writes_where_it_cannot_know_the_code_is_no_repair():
    from jupyter_codecheck.core.repairs import not_a_repair

    def why(src: str, line: int, new: str):
        data = src.encode()
        lines = data.split(b"\n")
        start = sum(len(x) + 1 for x in lines[:line - 1])
        body = lines[line - 1]
        return not_a_repair(data, start + len(body) - len(body.lstrip()), start + len(body), new.encode())

    # an import where a statement was; the next line copied; a helper's call dropped for a built-in's
    assert why("def f(s):\n    _check(s)\n    return binascii.x(s)\n", 2, "import binascii") == \
        "an import in place of a statement"
    assert why("def f(src, pos):\n    pos = skip(src, pos)\n\n    pos, key = parse_key(src, pos)\n", 2,
               "pos, key = parse_key(src, pos)") == "a neighbour copied"
    assert why("def f(x):\n    return _convert(x)\n", 2, "return x") == "a call dropped for a built-in's"
    assert why("def f(m):\n    if inspect.ismodule(m):\n        pass\n", 2, "if isinstance(m, str):") == \
        "a call dropped for a built-in's"
    # the repairs bugs need stay: a built-in added, a function for another the code has, an
    # operator, built-ins for built-ins, an import for an import
    for src, new in (("def f(a, b):\n    d = a - b\n    return d\n", "d = abs(a - b)"),
                     ("def f(a):\n    i = bisect_left(a, 1)\n", "i = bisect_right(a, 1)"),
                     ("def f(a):\n    if np.max(a) > 1:\n        pass\n", "if np.min(a) < 1:"),
                     ("def f(a):\n    return max(a)\n", "return min(a)"),
                     ("def f(n):\n    for i in reversed(range(n)):\n        pass\n", "for i in range(n, 0, -1):"),
                     ("def f(n):\n    import os\n", "import sys")):
        assert why(src, 2, new) is None, new
