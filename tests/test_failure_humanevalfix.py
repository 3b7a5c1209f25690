"""bench/failure_humanevalfix.py's own parts, without its data or a model: the tests run in a
fresh Python and their outcome, the traceback placed in the cell (or not, for a test's failing
assertion), the changed lines and the rewrite's code block."""
from __future__ import annotations

from bench_modules import bench_module

from jupyter_codecheck.failure import Failure, cause_lines

bench = bench_module("failure_humanevalfix")

CODE = "def halve(xs):\n    out = []\n    for x in xs:\n        out.append(x // 0)\n    return out\n"
TEST = "\n\ndef check(halve):\n    assert halve([2, 4]) == [1, 2]\n\ncheck(halve)\n"


def test_a_failure_inside_the_cell_is_placed_on_its_line():
    run = bench.run_tests(CODE, TEST, timeout=20)
    assert run["outcome"] == "fails" and run["error"] == "ZeroDivisionError"
    assert "<string>" not in run["traceback"]            # the runner's own frame is left out
    bench.register_cell(CODE)
    failure = Failure.from_text(run["traceback"], [CODE])
    assert [(f.cell, f.line) for f in failure.frames] == [(0, 4)]
    assert cause_lines([CODE], failure)[0].line == 4


def test_a_failing_assertion_of_the_test_has_no_line_in_the_cell():
    code = CODE.replace("x // 0", "x // 3")
    run = bench.run_tests(code, TEST, timeout=20)
    assert run["outcome"] == "fails" and run["error"] == "AssertionError"
    bench.register_cell(code)
    assert Failure.from_text(run["traceback"], [code]).frames == []


def test_passing_looping_and_crashing_code_are_told_apart():
    assert bench.run_tests(CODE.replace("x // 0", "x // 2"), TEST, timeout=20)["outcome"] == "passes"
    assert bench.run_tests("def halve(xs):\n    while True:\n        pass\n", TEST, timeout=2)["outcome"] == "timeout"
    assert bench.run_tests("import os\nos._exit(3)\n", TEST, timeout=20)["outcome"] == "crash"
    # the code's own prints cannot mix with the outcome
    assert bench.run_tests("print('{')\n" + CODE.replace("x // 0", "x // 2"), TEST, timeout=20)["outcome"] == "passes"


def test_changed_lines_name_the_buggy_lines_a_fix_replaces():
    fixed = CODE.replace("x // 0", "x // 2")
    assert bench.changed_lines(CODE, fixed) == [4]
    assert bench.changed_lines(CODE, CODE.replace("    return out\n", "")) == [5]


def test_the_rewrite_code_block_gets_back_the_imports_it_left_out():
    buggy = "from typing import List\n\n\ndef f(xs: List[int]) -> int:\n    return 0\n"
    answer = "Here it is:\n```python\ndef f(xs: List[int]) -> int:\n    return sum(xs)\n```\nDone."
    code = bench.code_of(answer, buggy)
    assert code.startswith("from typing import List\n") and "return sum(xs)" in code and "Done" not in code
    assert bench.code_of("def f():\n    return 1\n", "def f():\n    return 0\n") == "def f():\n    return 1\n"
