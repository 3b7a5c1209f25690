"""Python's own checks (pycheck.py) and the gates every candidate fix passes (gates.py)."""
from __future__ import annotations

import pytest

from jupyter_codecheck.core.candidates import Candidate, patterns, python_tokens, typos
from jupyter_codecheck.core.gates import adds_undefined_name, gate
from jupyter_codecheck.pytext.pycheck import analyse, edit_distance, near_typo, python_code


def cand(source: str, old: str, new: str, kind: str = "alternative", nth: int = 0) -> Candidate:
    data = source.encode()
    start = -1
    for _ in range(nth + 1):
        start = data.index(old.encode(), start + 1)
    return Candidate(start, start + len(old.encode()), new, kind, source[:start].count("\n") + 1)


# -- static findings -------------------------------------------------------------------------------

def test_syntax_error_and_undefined_names():
    f = analyse("def f(x)\n    return x\n")
    assert f.syntax is not None and f.syntax.line == 1 and not f.parses
    f = analyse("total = 1\npritn(total)\n")
    assert f.parses and [(u.name, u.line) for u in f.undefined] == [("pritn", 2)]


def test_earlier_cells_define_names_and_a_star_import_makes_none_certain():
    assert analyse("print(rows)\n", context=["rows = []"]).undefined == []
    assert [u.name for u in analyse("print(rows)\n").undefined] == ["rows"]
    assert analyse("print(rows)\n", context=["from csv import *"]).undefined == []
    assert analyse("print(rows)\n", context=["this does not parse ("]).undefined == []
    assert analyse("print(rows)\n", names=["rows"]).undefined == []     # a kernel's namespace


def test_ipython_syntax_is_python_to_the_checks():
    f = analyse("%matplotlib inline\nfiles = !ls\n%time x = 1\nprint(files, x)\n")
    assert f.parses and f.undefined == []
    assert analyse("await something()\n", context=["something = None"]).parses


def test_what_magics_bind_in_earlier_cells_is_defined():
    earlier = ["%%capture cap\nprint(1)\n", "%%time\ntotal = sum(range(9))\n",
               "%%codecheck -o result\nx = 1\n", "%timeit -o timing sum([])\n", "%%bash\necho hi\n"]
    f = analyse("print(cap.stdout, total, result, timing, missing)\n", context=earlier)
    # a foreign cell magic's body is not Python: it leaves the other names certain
    assert [u.name for u in f.undefined] == ["missing"]


@pytest.mark.parametrize("cell", [
    "x = 1\n?x\n", "x?\n", "len??\n", "y = %time 1\n", "files=!ls\n", "!!ls\n", "%%time\nx = 1\n",
    "/print 1\n", ",print a b\n", ">>> x = 1\n>>> x\n", "In [1]: x = 1\n", "  x = 1\n  y = x\n", "\n\nx = 1\n",
])
def test_what_ipython_transforms_never_takes_the_plain_python_path(cell):
    from IPython.core.inputtransformer2 import TransformerManager
    assert python_code(cell) == TransformerManager().transform_cell(cell)


def test_plain_python_compiles_as_ipython_would_read_it_without_importing_it():
    import ast
    import inspect
    import json
    import subprocess
    import sys
    from IPython.core.inputtransformer2 import TransformerManager
    tm = TransformerManager()
    sources = [inspect.getsource(m) for m in (ast, inspect, json, subprocess)] + [CELL, "a = 1 != 2  # ok?\n"]
    plain = 0
    for source in sources:
        lines = source.splitlines(keepends=True)
        for cell in (source, *("".join(lines[i:i + 15]) for i in range(0, len(lines), 15))):
            ours = python_code(cell)
            plain += ours == (cell if cell.endswith("\n") else cell + "\n")
            try:
                expected = ast.dump(ast.parse(tm.transform_cell(cell)))
            except SyntaxError:     # also IPython's own tokenizer giving up on a cut cell
                continue
            assert ast.dump(ast.parse(ours)) == expected
    assert plain > 100
    code = ("import sys; from jupyter_codecheck.pytext.pycheck import analyse; "
            "print(analyse('import csv\\nrows = list(csv.reader([]))\\n').parses, 'IPython' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split() == ["True", "False"]


# -- gates -----------------------------------------------------------------------------------------

CELL = '''import csv
from collections import abc
from heapq import *
scores = [88, 92, 79, 65]
temps = [float(r["temp"]) for r in rows]  # degrees
first, *rest = scores
for i in range(10):
    print(i, first)
'''


@pytest.mark.parametrize("old,new,kind,why", [
    ("88", "18", "alternative", "rewrites the user's data"),
    ("88", "89", "pattern:constant", "rewrites the user's data"),           # +-1 never inside a literal list
    ('"temp"', '"temps"', "alternative", "writes a string or comment"),
    ('temp"', "tmp", "alternative", "rewrites the user's data"),
    ("degrees", "celsius", "alternative", "rewrites the user's data"),
    (" import *", " import import", "alternative", "breaks parsing"),
    ("collections", "typing", "alternative", "not a name in scope"),
    ("float", "list", "alternative", None),                         # a builtin: the model decides
    ("rest", "second", "alternative", "renames what the cell defines"),
    ("(i, first)", "(i, first", "alternative", "breaks parsing"),
    ("10", "11", "pattern:constant", None),                                  # an integer in code may move by one
    ("10", "12", "alternative", "rewrites the user's data"),
    ("(10)", "(n + 12)", "pattern:range", "rewrites the user's data"),
])
def test_gates(old, new, kind, why):
    c = cand(CELL, old, new, kind)
    reason = gate(c, CELL.encode(), analyse(CELL, context=["rows = []"]))
    if why is None:
        assert reason is None
    else:
        assert reason is not None and why in reason


def test_a_fix_of_a_broken_cell_must_get_past_its_error():
    src = "def f(x):\n    retrun x\n"
    facts = analyse(src)
    fix = cand(src, "retrun", "return")
    assert gate(fix, src.encode(), facts) is None and not adds_undefined_name(fix, src.encode(), facts)
    # deleting ' x' parses, but leaves the undefined name 'retrun' on the line it edits
    cut = cand(src, " x\n", "\n")
    assert adds_undefined_name(cut, src.encode(), facts)
    assert gate(cand(src, "def", "deff"), src.encode(), facts) is not None    # error not passed


def test_a_fix_may_not_add_an_undefined_name():
    src = "import os\nprint(os.sep)\n"
    facts = analyse(src)
    assert adds_undefined_name(cand(src, "os", "alive", nth=1), src.encode(), facts)
    assert not adds_undefined_name(cand(src, "sep", "pathsep"), src.encode(), facts)


def test_a_name_one_function_binds_is_not_in_scope_in_another():
    # found on the standard library's fractions.py: `self` of __init__ proposed in `def numerator(a)`
    src = "class Frac:\n    def __init__(self, n):\n        self.n = n\n\n    def numerator(a):\n        return a.n\n"
    facts = analyse(src)
    assert adds_undefined_name(cand(src, "a.n", "self.n"), src.encode(), facts)
    assert not adds_undefined_name(cand(src, "a.n", "a.m"), src.encode(), facts)
    # a function's own names in an earlier cell are not the notebook's either; its module level is
    earlier = ["def helper(total):\n    return total\n", "count = 3\n"]
    cell = "print(count)\n"
    facts = analyse(cell, context=earlier)
    assert adds_undefined_name(cand(cell, "count", "total"), cell.encode(), facts)
    assert not adds_undefined_name(cand(cell, "count", "helper"), cell.encode(), facts)
    # a star import of the standard library is known; of anything else, nothing is certain
    assert {"heappush", "x"} <= analyse(cell, context=["from heapq import *\nx = 1\n"]).outside
    assert analyse(cell, context=["from mymodule import *\n"]).outside is None


@pytest.mark.parametrize("src,old,new", [
    ("class G:\n    def __init__(self):\n        self._node2info = {}\n", "_node2info", "_node_info"),
    ("def covariance(x, y):\n    return x\n", "y)", "y, mu)"),
    ("def covariance(x, y):\n    return x\n", "x, y", "y, x"),
    ("def half(n: int) -> float:\n    return n / 2\n", "float", "int"),          # annotations: no behaviour
    ("total: int = 0\n", "int", "float"),
    ("class Disjoint:\n    pass\n", "Disjoint:", "DisjointSet:"),
])
def test_what_a_cell_defines_keeps_its_name_and_signature(src, old, new):
    # renaming an attribute the code assigns, or changing a signature, breaks every other use
    reason = gate(cand(src, old, new), src.encode(), analyse(src))
    assert reason == "renames what the cell defines"


def test_an_insertion_that_extends_a_defined_name_renames_it():
    src = "class Disjoint:\n    pass\n"
    at = src.index(":")
    assert gate(Candidate(at, at, "Set", "walk", 1), src.encode(), analyse(src)) == "renames what the cell defines"


def test_a_default_value_is_code_a_fix_may_change():
    src = "def f(x, n=1):\n    return x * n\n"
    assert gate(cand(src, "1", "2", "pattern:constant"), src.encode(), analyse(src)) is None


def test_no_number_is_written_into_a_literal():
    src = "fromlines, tolines = [], []\nprint(fromlines[0])\n"
    assert gate(cand(src, "[], []", "[0]"), src.encode(), analyse(src)) == "writes a number"
    assert gate(cand(src, "[]", "[1]"), src.encode(), analyse(src)) == "writes a number"


def test_typos_are_near_names_in_scope_or_keywords():
    src = "total = 0\npritn(total)\nretrun\n"
    facts = analyse(src)
    assert [c.text for c in typos("pritn", 10, 15, facts, 2, False)][0] == "print"
    assert "return" in [c.text for c in typos("retrun", 23, 29, facts, 3, False)]
    assert [c.text for c in typos("apend", 0, 5, facts, 1, True)] == ["append"]
    assert edit_distance("pritn", "print") == 1 and near_typo("retrun", "return")
    assert not near_typo("abc", "typing") and not near_typo("x", "y")


def test_patterns_skip_data_and_cover_the_usual_slips():
    src = "xs = [1, 2]\nif a < b and n == 0:\n    y = range(n)\n"
    toks = python_tokens(src)
    facts = analyse(src, context=["a = b = n = 0"])
    line1 = {(c.text) for c in patterns(toks, 1, facts)}
    assert not any(t.isdigit() for t in line1)          # the list literal is data
    line2 = {(src.encode()[c.start:c.end].decode(), c.text) for c in patterns(toks, 2, facts)}
    assert {("<", "<="), ("<", ">"), ("and", "or"), ("==", "!="), ("0", "1"), ("", "not ")} <= line2
    line3 = {c.text for c in patterns(toks, 3, facts)}
    assert {" + 1", " - 1"} <= line3


def test_definitions_and_layout_are_never_fixed():
    src = "def total(xs):\n    result = sum(xs)\n    return result\n"
    facts = analyse(src)
    data = src.encode()
    assert "defines" in gate(cand(src, "total", "sum"), data, facts)          # the def's own name
    assert "defines" in gate(cand(src, "result", "xs"), data, facts)         # an assignment target
    assert gate(cand(src, "result", "xs", nth=1), data, facts) is None       # a use may change
    assert "layout" in gate(cand(src, " = ", "="), data, facts)


def test_the_users_syntax_warnings_are_not_printed():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a SyntaxWarning would raise here
        assert analyse("x = 1if True else 2\n").parses


def test_a_starred_target_is_defined_whole():
    src = "coins = [25, 10]\nfirst, *rest = coins\n"
    facts = analyse(src)
    assert "defines" in gate(cand(src, "*", ""), src.encode(), facts)


def test_a_name_swap_may_not_lose_an_attribute_python_knows():
    src = ("from collections import Counter, defaultdict\nwords = 'a b'.split()\ncounts = Counter(words)\n"
           "by_letter = defaultdict(list)\nprint(counts.most_common(1))\n")
    facts = analyse(src)
    assert facts.classes["counts"].__name__ == "Counter" and "words" not in facts.classes
    assert "no attribute 'most_common'" in gate(cand(src, "counts", "by_letter", nth=1), src.encode(), facts)
    assert gate(cand(src, "words", "counts", nth=1), src.encode(), facts) is None


def test_a_sub_word_edit_is_judged_by_the_word_it_makes():
    # fractions.py: the token 'hash' of `sys.hash_info` -> 'float' writes `float_info`, and
    # `sys.float_info` has no `modulus`; without float_info anywhere, it is no name at all
    src = "import sys\n_M = sys.hash_info.modulus\nprint(sys.float_info.max)\n"
    at = src.index("hash_info")
    assert gate(Candidate(at, at + 4, "float", "walk", 2), src.encode(), analyse(src)) == \
        "'sys.float_info' has no attribute 'modulus'"
    src = "import sys\n_M = sys.hash_info.modulus\n"
    assert gate(Candidate(at, at + 4, "float", "walk", 2), src.encode(), analyse(src)) == \
        "writes .float_info, an attribute the code never shows"


def test_in_a_kernel_a_fix_names_only_attributes_the_object_has():
    # the tour notebook: `result.corrected` -> `result.text`, where the kernel holds `result`
    class Result:
        def __init__(self):
            self.corrected = "x"

        @property
        def findings(self):                 # never run by the gate
            raise AssertionError("the gate ran the user's code")

    class Anything:
        def __getattr__(self, name):
            return 1

    src = "print(result.corrected)\nprint(other.corrected)\nfor text in findings:\n    print(text)\n"
    facts = analyse(src, names={"result": Result(), "other": Anything(), "findings": []})
    at = src.index("corrected")
    assert gate(Candidate(at, at + 9, "text", "walk", 1), src.encode(), facts) == \
        "'result' (Result) has no attribute 'text'"
    # an attribute the object has is not what fails; one it has may replace one it lacks,
    # though the text never shows it after a dot
    assert gate(Candidate(at, at + 9, "findings", "walk", 1), src.encode(), facts) == \
        "'result' (Result) has 'corrected': it is not what fails"
    slip = src.replace("result.corrected", "result.corected")
    assert gate(Candidate(at, at + 8, "findings", "walk", 1), slip.encode(),
                analyse(slip, names={"result": Result(), "other": Anything(), "findings": []})) is None
    # a class with __getattr__ may have anything, and names given as a plain list (the command
    # line) give nothing to ask: the text decides, and it never shows `.text`
    at = src.index("corrected", at + 1)
    assert gate(Candidate(at, at + 9, "text", "walk", 2), src.encode(), facts) == \
        "writes .text, an attribute the code never shows"
    assert gate(Candidate(at, at + 9, "text", "walk", 2), src.encode(),
                analyse(src, names=["result", "other", "findings"])) == "writes .text, an attribute the code never shows"
    shown = src + "print(other.text)\n"
    assert gate(Candidate(at, at + 9, "text", "walk", 2), shown.encode(),
                analyse(shown, names=["result", "other", "findings"])) is None


def test_a_unicode_name_is_one_word_to_every_gate():
    """`données` is one name to every gate, as to pycheck: read as 'donn' + 'es' (ASCII words),
    the typo fix that writes it would be refused and the typo search would work on 'donn'."""
    from jupyter_codecheck.core.candidates import word_at
    src = "données = [1, 2, 3]\nprint(len(donnée))\n"
    facts = analyse(src)
    assert [u.name for u in facts.undefined] == ["donnée"] and "données" in facts.scope
    data = src.encode()
    at = data.index("donnée)".encode())
    assert word_at(data, at + 3) == (at, at + len("donnée".encode()))
    assert gate(cand(src, "donnée)", "données)", "typo"), data, facts) is None
    assert [c.text for c in typos("donnée", at, at + 8, facts, 2, False)][:1] == ["données"]
    # a fix may not write a Unicode name nothing defines, nor rename a defined one
    assert gate(cand(src, "len", "längd"), data, facts) == "writes 'längd', not a name in scope"
    assert gate(cand(src, "données", "donnees"), data, facts) == "renames what the cell defines"
    # a sub-word edit inside a Unicode name is judged by the word it makes
    assert gate(cand(src, "es", "", nth=0), data, facts) is not None


def test_a_name_only_an_earlier_cells_function_binds_is_undefined():
    # JunoBench NBspecific_20: `multiplicative_model` was a local of `decompose`, whose call cell
    # never ran; what the earlier cells bind at module level is what is defined
    earlier = ["def decompose(s):\n    multiplicative_model = s * 2\n    return multiplicative_model\n",
               "ys = [y := v + 1 for v in range(3)]\n"]
    facts = analyse("print(multiplicative_model, y, ys, decompose)\n", earlier)
    assert [u.name for u in facts.undefined] == ["multiplicative_model"]


def test_an_attribute_is_replaced_only_by_one_the_code_shows_and_never_when_the_object_has_it():
    """`df = data.frame` -> `data.data` (the load_diabetes notebook): the variable `data` is no
    evidence that the object has an attribute `data`; a name written after a dot elsewhere is,
    and a near-typo of the word is. Beside a kernel, an attribute the object has is not what
    fails, whatever the text shows."""
    src = "data = load(as_frame=True)\ndf = data.frame\n"
    at = src.index("data.frame") + len("data.")
    swap = Candidate(at, at + len("frame"), "data", "alternatives", 2)
    assert gate(swap, src.encode(), analyse(src, names={"load"})) == "writes .data, an attribute the code never shows"
    shown = "data = load(as_frame=True)\nX = data.data\ndf = data.frame\n"
    at2 = shown.index("data.frame") + len("data.")
    assert gate(Candidate(at2, at2 + 5, "data", "alternatives", 3), shown.encode(),
                analyse(shown, names={"load"})) is None
    typo = "data = load(as_frame=True)\ndf = data.fram\n"
    assert gate(Candidate(at, at + 4, "frame", "typo", 2), typo.encode(), analyse(typo, names={"load"})) is None

    class Loaded:
        def __init__(self):
            self.frame, self.data = 1, 2

    live = {"data": Loaded(), "load": len}
    src = "X = data.data\ndf = data.frame\n"
    at = src.index("data.frame") + len("data.")
    assert gate(Candidate(at, at + 5, "data", "alternatives", 2), src.encode(), analyse(src, names=live)) == \
        "'data' (Loaded) has 'frame': it is not what fails"


def test_a_notebook_cells_shown_value_is_never_made_an_assignment():
    # the last expression of a notebook cell is its output (pydata-book's `obj2.index is labels`
    # shows True): `=` there is no fix, it takes the output away and changes the data
    src = "labels = pd.Index(np.arange(3))\nobj2 = pd.Series([1.5, -2.5, 0], index=labels)\nobj2.index is labels\n"
    c = cand(src, "is", " =")
    cell = analyse(src, names={"pd", "np"})
    assert gate(c, src.encode(), cell) is None                     # a file: dead code, a fix may be meant
    cell.shows_last = True
    assert gate(c, src.encode(), cell) == "makes the cell's shown value an assignment"
    # not the last statement: nothing is shown there, the rule does not apply
    src2 = src + "print(obj2)\n"
    cell2 = analyse(src2, names={"pd", "np"})
    cell2.shows_last = True
    assert gate(cand(src2, "is", " ="), src2.encode(), cell2) is None


def test_a_candidates_syntax_warnings_are_not_printed():
    """A fix on the shown value's line is parsed to see what it makes; the model's candidate can
    provoke a SyntaxWarning (`1if`) that is nothing the user wrote (the trial saw one on stderr)."""
    import warnings
    from jupyter_codecheck.core.gates import _hides_shown_value
    src = "n = 2\nn is 1\n"
    c = cand(src, " is 1", " = 1if n else 0")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert _hides_shown_value(c, src.encode(), c.apply(src.encode()))
    assert not [w for w in seen if issubclass(w.category, SyntaxWarning)]
