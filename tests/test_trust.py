"""Findings a user can trust, on the real default model: correct notebook cells get none, planted
slips are found and repaired, and no proposed fix breaks parsing or touches the user's data."""
from __future__ import annotations

import ast

import pytest

from jupyter_codecheck import check
from jupyter_codecheck.pytext.pycheck import analyse

FAST = dict(lens=False)

CLEAN_CELLS = {
    "csv and statistics": '''import csv
import statistics

with open("weather.csv", newline="") as f:
    rows = list(csv.DictReader(f))
temps = [float(r["temp"]) for r in rows]
print("mean:", statistics.mean(temps), "stdev:", statistics.stdev(temps))
''',
    "collections": '''from collections import Counter, defaultdict

words = "the quick brown fox jumps over the lazy dog".split()
counts = Counter(words)
by_letter = defaultdict(list)
for word in words:
    by_letter[word[0]].append(word)
print(counts.most_common(3))
''',
    "heapq": '''import heapq

scores = [88, 92, 79, 65]
best = heapq.nlargest(2, scores)
heap = []
for s in scores:
    heapq.heappush(heap, s)
print(best, heapq.heappop(heap))
''',
    "star-unpacking": '''coins = [25, 10, 5, 1]
first, *rest = coins
print(first, rest)
''',
    "newton": '''def square_root(x, epsilon=1e-9):
    approx = x / 2
    while abs(x - approx ** 2) > epsilon:
        approx = (approx + x / approx) / 2
    return approx
''',
}


@pytest.fixture(scope="module", autouse=True)
def _needs_model(model_path):
    return model_path


@pytest.mark.parametrize("name", list(CLEAN_CELLS))
def test_correct_cells_get_no_finding(name):
    src = CLEAN_CELLS[name]
    r = check(src, **FAST)
    assert r.findings == [], [(f.line, f.message) for f in r.findings]
    assert r.corrected == src
    # the model's doubts stay visible where they belong: the token records cover the whole cell
    assert "".join(t.text for t in r.tokens) == src


@pytest.mark.parametrize("src,context,line,fixed", [
    ('total = 0\nfor v in [3, 1, 2]:\n    total += v\npritn("total:", total)\n', None, 4,
     'total = 0\nfor v in [3, 1, 2]:\n    total += v\nprint("total:", total)\n'),
    ("def mean(values):\n    total = sum(values)\n    retrun total / len(values)\n", None, 3,
     "def mean(values):\n    total = sum(values)\n    return total / len(values)\n"),
    ("def f(x)\n    return x + 1\n", None, 1, "def f(x):\n    return x + 1\n"),
    # the walk proposes the same edit as the typo search: the fix is judged by what it is
    ("x = [1, 2, 3]\npritn(x)", None, 2, "x = [1, 2, 3]\nprint(x)"),
    ("print(max(temperatrues))\n", ["temperatures = [21.5, 19.0, 23.2]"], 1,
     "print(max(temperatures))\n"),
    # what Python says it expects, where it says it; the user's own name kept (not `in list:`)
    ("for v in readings\n    print(v)\n", ["readings = [3, 1, 2]"], 1, "for v in readings:\n    print(v)\n"),
    # a Unicode name is one word to every gate, as to Python (the typo search saw 'donn' + 'es')
    ("données = [1, 2, 3]\nprint(len(donnée))\n", None, 2, "données = [1, 2, 3]\nprint(len(données))\n"),
])
def test_planted_slips_are_found_and_repaired(src, context, line, fixed):
    r = check(src, context=context, **FAST)
    assert [f.line for f in r.findings] == [line], r.findings
    assert r.findings[0].severity == "error"
    assert r.corrected == fixed


UNICODE_CELLS = [
    "données = [3, 1, 2]\ndonnées_triées = sorted(données)\nprint(données_triées[0], len(données))\n",
    'résultats = {}\nfor clé in ["a", "bc"]:\n    résultats[clé] = len(clé)\nprint(résultats)\n',
    "def préparer(entrée):\n    sortie = entrée.strip()\n    return sortie\n\nprint(préparer(' x '))\n",
    "größe = 10\nbreite = 3\nfläche = größe * breite\nprint(fläche)\n",
]


@pytest.mark.parametrize("src", UNICODE_CELLS)
def test_unicode_names_are_names_as_python_reads_them(src):
    """pycheck and candidates.py both read Unicode identifiers as Python does. A correct cell
    with Unicode names gets no finding; and even with no margin (every candidate that passes the
    gates shown) none of its names is undefined and no fix cuts into one."""
    import re
    r = check(src, **FAST)
    assert r.findings == [] and r.corrected == src, [(f.line, f.message) for f in r.findings]
    r = check(src, margin=0.0, model_warnings="on", **FAST)
    assert [f for f in r.findings if f.kind == "undefined-name"] == []
    spans = [(len(src[:m.start()].encode()), len(src[:m.end()].encode()))
             for m in re.finditer(r"[^\W\d]\w*", src) if not m.group().isascii()]
    assert spans
    cut = [e for e in r.edits for a, b in spans if a < e.start < b or a < e.end < b]
    assert cut == []


@pytest.mark.parametrize("sep", ["\x1c", "\u2028", "\r"])
def test_odd_line_separators_print_nothing(sep):
    # IPython's own line splitting warns on separators it does not expect: not the user's concern
    import warnings
    from jupyter_codecheck.pytext.pycheck import python_code
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert python_code(f"%time x = 1{sep}print(x)\n").startswith("get_ipython()")


def test_earlier_cells_never_leak_into_fixes():
    ctx = ['print("alive", 1 + 1)']
    r = check("import os\nprint(os.getcwd())\n", context=ctx, **FAST)
    assert r.findings == [] and "alive" not in r.corrected
    bash = "%%bash\nfor f in *.ipynb; do echo $f; done\n"
    r = check(bash, context=ctx, **FAST)
    assert r.findings == [] and r.edits == [] and r.corrected == bash
    assert all(t.decision == "masked" for t in r.tokens)


WIDE = '''import json
from collections import abc
from heapq import *

config = {"name": "demo", "retries": 3}  # defaults
values = [float(v) for v in ["1.5", "2", "x3"] if v[0].isdigit()]
first, *rest = values
for i in range(len(values) - 1):
    if values[i] > values[i + 1] and i != 0:
        print(f"drop at {i}", json.dumps(config))
'''


@pytest.mark.parametrize("src", [WIDE, CLEAN_CELLS["csv and statistics"], "x = [1, 2, 3]\npritn(x)\n"])
def test_no_fix_breaks_parsing_or_rewrites_data(src):
    r = check(src, margin=-100.0, **FAST)      # every weighed place proposes its best edit
    facts = analyse(src)
    data = src.encode()
    for e in r.edits:
        assert not facts.touches_data(e.start, e.end) or (e.original.isdigit() and e.replacement.isdigit()), e
        assert not any(q in e.replacement for q in "\"'#"), e
    if facts.parses:
        ast.parse(r.corrected)
    # strings and comments survive whatever was edited
    for a, b, _ in facts.data:
        piece = data[a:b].decode()
        if not piece.isdigit():
            assert piece in r.corrected


def test_names_behind_a_syntax_error_are_checked_once_it_is_fixed():
    src = ("def mean(values):\n    total = sum(values)\n    retrun total / len(values)\n\n\n"
           "pritn(mean([3, 1, 4]))\n")
    r = check(src, **FAST)
    assert [(f.line, f.kind) for f in r.findings] == [(3, "syntax"), (6, "undefined-name")]
    assert r.corrected == src.replace("retrun", "return").replace("pritn", "print")


def test_the_walk_lends_only_what_it_read_in_the_text_as_written():
    """The written side of a gain may come from the walk's readings, never from one taken in its
    corrected text: the tokens an edit touches, the one after it, and those after a rejection."""
    from types import SimpleNamespace
    from jupyter_codecheck.core.evidence import _read_after_edits
    from jupyter_codecheck.core.result import Edit
    enc = SimpleNamespace(starts=[0, 2, 5, 7, 9, 12, 15])
    records = {i: SimpleNamespace(decision="accept") for i in range(7)}
    records[5].decision = "flag"
    edits = [Edit("change", 5, 7, 1, 5, "ab", "x"), Edit("insert", 12, 12, 1, 12, "", "y")]
    assert _read_after_edits(enc, records, edits) == {2, 3, 5, 6}


def test_the_bound_and_the_written_side_share_one_reading_as_written():
    """The free bound, the free screen and the written side all read written tokens through one
    definition: none where the walk read in its corrected text, nor where the walk saw another
    token; the written side also none where the reading is an early exit's estimate."""
    from types import SimpleNamespace
    from jupyter_codecheck.core.evidence import _as_written
    dists = {i: SimpleNamespace(ref=10 + i, ref_logprob=-0.1 * i, exit_layer=29) for i in range(6)}
    dists[4].exit_layer = 7
    dists[5].ref = 99
    bound = _as_written(dists, [10 + i for i in range(6)], corrected={2, 3})
    rows = _as_written(dists, [10 + i for i in range(6)], corrected={2, 3}, layer=29)
    assert [bound(i) for i in range(7)] == [-0.0, -0.1, None, None, -0.4, None, None]
    assert [rows(i) for i in range(7)] == [-0.0, -0.1, None, None, None, None, None]


def test_what_cells_before_the_context_define_is_never_undefined():
    cell = "print(helper(2))\n"
    assert [f.kind for f in check(cell).findings] == ["undefined-name"]
    assert check(cell, earlier=["def helper(n):\n    return n\n"]).findings == []
