"""A loop over a container the kernel holds empty never runs its body: a name undefined only
there, or an attribute the live object lacks only there, is no claim (the cell runs). The
container is read only where it is exactly a builtin's (its `len` runs nothing of the user's),
and only while the cell neither rebinds it, stores into it, changes it nor passes it to a call."""
from __future__ import annotations

import contextlib
import io

import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell

from jupyter_codecheck.facts import kernel_facts
from jupyter_codecheck.pytext.pycheck import analyse


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    sh.user_ns.update(filled={}, full={"a": pd.Series([1.0, 2.0])}, df=pd.DataFrame({"a": [1]}), rows=[])
    yield sh
    for name in ("filled", "full", "df", "rows", "corr", "c", "x", "y", "name", "f", "lag", "zip", "i"):
        sh.user_ns.pop(name, None)


def claims(cell: str, ns) -> tuple[list[str], list[str]]:
    return [u.name for u in analyse(cell, None, ns).undefined], [f.kind for f in kernel_facts(cell, ns)]


def raised(shell, cell: str):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        res = shell.run_cell(cell, silent=True)
    return type(res.error_in_exec).__name__ if res.error_in_exec else None


@pytest.mark.parametrize("cell", [
    "for name, f in filled.items():\n    corr = thinkstats2.SerialCorr(f, lag=1)\n",
    "for lag in [1, 7]:\n    print(lag)\n    for name, f in filled.items():\n        c = SerialCorr(f, lag)\n",
    "for x in rows:\n    df.colmn\n",
    "for x in filled.values():\n    y = undefined_here + df.nope\nelse:\n    y = 1\n",
    # zip runs as often as its shortest argument, enumerate as its argument
    "for name, x in zip(range(1, 4), rows):\n    y = undefined_here[x]\n",
    "for i, x in enumerate(rows):\n    df.colmn\n",
])
def test_a_loop_over_an_empty_container_claims_nothing_in_its_body(shell, cell):
    assert claims(cell, shell.user_ns) == ([], [])
    assert raised(shell, cell) is None


@pytest.mark.parametrize("cell, error", [
    ("for name, f in full.items():\n    corr = thinkstats2.SerialCorr(f, lag=1)\n", "NameError"),
    ("filled['k'] = 1\nfor name, f in filled.items():\n    corr = thinkstats2.SerialCorr(f, lag=1)\n", "NameError"),
    ("rows.append(1)\nfor x in rows:\n    df.colmn\n", "AttributeError"),
    ("for x in rows:\n    pass\nelse:\n    y = undefined_here\n", "NameError"),     # `else` runs
    ("for name, x in zip(range(1, 4), full):\n    y = undefined_here[x]\n", "NameError"),
    ("zip = lambda *a: [(1, 2)]\nfor name, x in zip(range(1, 4), rows):\n    y = undefined_here[x]\n", "NameError"),
])
def test_a_loop_the_cell_fills_or_over_a_full_container_is_still_claimed(shell, cell, error):
    undefined, facts = claims(cell, shell.user_ns)
    assert (undefined, facts) != ([], [])
    assert raised(shell, cell) == error


def test_a_users_container_is_never_asked_its_length():
    calls = []

    class Rows(list):
        def __len__(self):
            calls.append("__len__")
            return 0

    ns = {"rows": Rows(), "df": pd.DataFrame({"a": [1]})}
    assert claims("for x in rows:\n    y = undefined_here\n", ns)[0] == ["undefined_here"]
    assert calls == []
