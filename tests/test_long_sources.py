"""Long sources checked piece by piece (jupyter_codecheck.core.long_sources), on the real default model.
The CLI's own tests (test_cli.py) check the merged positions; these check how the pieces are cut."""
from __future__ import annotations

import pytest

from jupyter_codecheck.engine.errors import ContextFullError
from jupyter_codecheck.core.long_sources import PIECE_CHARS, Piece, check_long_iter

# dense code: about 1.3 characters per token, so PIECE_CHARS characters overflow the 4k window
DENSE = "\n".join(f"row_{k} = {k} * 2" for k in range(700)) + "\n"


def _pieces(source):
    # cancelled from the start: each piece is cut and announced, no token is walked
    items = list(check_long_iter(source, cancel=lambda: True))
    return [i for i in items if isinstance(i, Piece)], items[-1]


def test_a_piece_the_window_refuses_is_cut_smaller(model_path):
    assert len(DENSE) > PIECE_CHARS
    pieces, result = _pieces(DENSE)
    (first,) = pieces            # the check was cancelled in the first piece
    # the first cut (PIECE_CHARS characters) was refused; the piece checked is about half of it
    assert first.first_line == 1 and first.total_lines == 700
    assert 100 < first.last_line < len(DENSE[:PIECE_CHARS].splitlines()) * 0.6
    assert result.stats["cancelled"] and result.source == DENSE and result.corrected == DENSE


def test_one_line_longer_than_the_window_is_refused(model_path):
    one_line = "x = [" + ", ".join(str(k) for k in range(4000)) + "]\n"
    with pytest.raises(ContextFullError, match="split it into smaller cells"):
        list(check_long_iter("y = 1\n" * 10 + one_line))


def test_a_notebook_checked_in_order_reads_each_earlier_cell_once(model_path):
    # the window (select_context) keeps its start, and the context is tokenized cell by cell as
    # each cell was checked: the next check finds all of it in the session's KV
    from jupyter_codecheck.core.check import check
    from jupyter_codecheck.core.long_sources import select_context
    cells = ["import math\n", "def area(r):\n    return math.pi * r ** 2\n",
             "sizes = [1, 2, 3]\n", "print([area(s) for s in sizes])\n"]
    start = 0
    for i, cell in enumerate(cells):
        start, context = select_context(cells[:i], start)
        stats = check(cell, context=context).stats
        if i >= 2:
            # all but the context's last token, whose row judges the cell's first
            assert stats["context_reused"] == stats["context_tokens"] - 1 > 0


def part(src, findings, edits):
    """A piece's CheckResult with just what merge() reads."""
    from jupyter_codecheck.core.result import CheckResult
    r = CheckResult(source=src, findings=findings, edits=edits)
    r.corrected, r.stats = src, {"tokens": 1}
    return r


def test_a_piece_cut_inside_a_block_is_no_syntax_error():
    """Pieces are compiled alone: one that starts inside a class says "unexpected indent". Whether
    the source parses is the whole source's verdict, and no fix is proposed for a cut."""
    from jupyter_codecheck.core.long_sources import merge
    from jupyter_codecheck.core.result import Edit, Finding
    head = "class A:\n    def f(self):\n        return 1\n"
    tail = "    def g(self):\n        return 2\n"
    cut = Finding(line=1, column=4, score=100.0, kind="syntax", message="syntax error: unexpected indent",
                  replacement=None, severity="error")
    fix = Edit("delete", 0, 4, 1, 0, "    ", "")
    merged = merge(head + tail, [(0, part(head, [], [])), (len(head), part(tail, [cut], [fix]))])
    assert merged.findings == [] and merged.edits == [] and merged.corrected == head + tail
    # a source that does not parse as a whole keeps its own error, found by a piece or not
    broken = head + tail.replace("return 2", "return 2 +")
    merged = merge(broken, [(0, part(head, [], [])), (len(head), part(broken[len(head):], [], []))])
    assert [(f.kind, f.line, f.severity) for f in merged.findings] == [("syntax", 5, "error")]


def test_a_name_defined_in_another_piece_is_not_undefined():
    """A piece sees only the recent text before it: a helper defined further down (or far up) is
    "not defined" in it alone. Which names are undefined is the whole source's verdict; a name
    the whole source lacks is still an error, found by a piece or not."""
    from jupyter_codecheck.core.long_sources import merge
    from jupyter_codecheck.core.result import Edit, Finding
    head = "def push(heap, item):\n    heap.append(item)\n    _sift(heap)\n"
    tail = "\n\ndef _sift(heap):\n    heap.sort()\n    return helper(heap)\n"
    cut = Finding(line=3, column=4, score=100.0, kind="undefined-name", message="name '_sift' is not defined",
                  replacement=None, severity="error")
    fix = Edit("change", 48, 53, 3, 4, "_sift", "sift")
    merged = merge(head + tail, [(0, part(head, [cut], [fix])), (len(head), part(tail, [], []))])
    assert [(f.kind, f.line, f.message) for f in merged.findings] == \
        [("undefined-name", 8, "name 'helper' is not defined")]
    assert merged.edits == [] and merged.corrected == head + tail
    # names the caller gives (a kernel's namespace) count as the pieces' did
    assert merge(head + tail, [(0, part(head, [], [])), (len(head), part(tail, [], []))],
                 names=["helper"]).findings == []


def test_a_silenced_error_of_the_whole_source_stays_silenced():
    """The pieces silence their findings; the whole source's own errors, added back by merge,
    keep the same comments and `ignore` kinds (counted once, by the pieces)."""
    from jupyter_codecheck.core.long_sources import merge
    head = "def push(heap, item):\n    heap.append(item)\n"
    tail = "\n\ndef _sift(heap):\n    return helper(heap)  # codecheck: ignore[undefined-name]\n"
    parts = [(0, part(head, [], [])), (len(head), part(tail, [], []))]
    for _, r in parts:
        r.stats["silenced"] = 1
    merged = merge(head + tail, parts)
    assert merged.findings == [] and merged.stats["silenced"] == 2
    plain = head + tail.replace("  # codecheck: ignore[undefined-name]", "")
    parts = [(0, part(head, [], [])), (len(head), part(plain[len(head):], [], []))]
    assert [f.kind for f in merge(plain, parts).findings] == ["undefined-name"]
    assert merge(plain, parts, ignore=("undefined-name",)).findings == []


def test_a_fix_in_a_piece_passes_the_whole_sources_gates():
    """A piece cut inside a class does not parse alone, so its own undefined-name gate cannot run:
    found on the standard library's fractions.py, `return a._numerator` -> `self._numerator`
    inside `def numerator(a)`. The whole source refuses such a fix, and its warning goes."""
    from jupyter_codecheck.core.long_sources import merge
    from jupyter_codecheck.core.result import Edit, Finding
    head = "class Frac:\n    def __init__(self, n):\n        self._n = n\n"
    tail = "\n    def numerator(a):\n        return a._n\n\n    def double(a):\n        return a._n * 2\n"
    at = tail.encode().index(b"a._n")                   # a piece's own positions: merge shifts them
    bad = Edit("change", at, at + 1, 3, 15, "a", "self")
    at2 = tail.encode().index(b"* 2") + 2
    ok = Edit("change", at2, at2 + 1, 6, 19, "2", "3")
    warn = lambda line: Finding(line=line, column=15, score=7.0, kind="change", message="m",  # noqa: E731
                                replacement=None, severity="warning", gain=7.0)
    merged = merge(head + tail, [(0, part(head, [], [])), (len(head), part(tail, [warn(3), warn(6)], [bad, ok]))])
    assert [f.line for f in merged.findings] == [9] and [e.replacement for e in merged.edits] == ["3"]
    assert "return a._n\n" in merged.corrected and "a._n * 3" in merged.corrected
