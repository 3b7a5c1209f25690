"""The exact part of a check without the model (core/exact.py): real pandas and scikit-learn
objects in a namespace, as a kernel holds them. What a guard may stop a cell for is a crash that
nothing before it in the cell can prevent; anything unsure is shown, never stopped."""
from __future__ import annotations

import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression

from jupyter_codecheck.core.exact import exact_check
from jupyter_codecheck.core.kernel import NotebookCells, undefined_reason, undefined_reasons
from jupyter_codecheck.core.pycheck import analyse


def prepare(frame):
    frame["bmii"] = 0


class Settings:
    @property
    def verbose(self):
        prepare(globals()["df"])


@pytest.fixture
def ns():
    df = pd.DataFrame({"age": [50, 60], "bmi": [22.0, 31.5]})
    return {"pd": pd, "df": df, "frames": {"tr": df}, "prepare": prepare, "settings": Settings(),
            "LinearRegression": LinearRegression, "model": LinearRegression()}


def _stops(cell: str, ns) -> list[tuple[int, str]]:
    return [(f.line, f.kind) for f in exact_check(cell, ns).certain]


@pytest.mark.parametrize("cell, stop", [
    ("import time\ntime.sleep(0)\ntotal = df['bmii'].sum()", (3, "key")),
    ("m = LinearRegression()\nm.fit(df[['age']], df['bmi'])\nprint(X_tset)", (3, "undefined-name")),
    ("df.head()\ndf.colums", (2, "attribute")),
    ("model.predict(df[['age']])", (1, "call")),
    ("pritn(df)", (1, "undefined-name")),
    ("print(', '.join(['a', 'b']))\ndf['bmii']", (2, "key")),
])
def test_a_crash_nothing_can_prevent_is_certain(cell, stop, ns):
    assert _stops(cell, ns) == [stop]


@pytest.mark.parametrize("cell", [
    "import random\nif random.random() > 2:\n    df['bmii']",        # a branch
    "for i in range(3):\n    print(undefined_z)",                    # a loop's body
    "try:\n    df['bmii']\nexcept KeyError:\n    pass",               # handled
    "def f():\n    return undefined_x",                              # runs later, if ever
    "x = 1 if df is None else df['bmii']",                           # a lazy part
    "prepare(df)\ndf['bmii']",                                       # the user's code runs first
    "@prepare\ndef g():\n    pass\nprint(q)",                        # ...as a decorator
    "settings.verbose\ndf['bmii']",                                  # ...as a property of theirs
    "tmp = df\ntmp['bmii'] = 1\ndf['bmii'].sum()",                   # another name for the object
    "frames['tr']['bmii'] = 1\ndf['bmii'].sum()",                    # a container the kernel holds
    "[df][0]['bmii'] = 1\ndf['bmii'].sum()",                         # ...or the cell makes
    "pd.DataFrame.bmii = 1\ndf.bmii",                                # a library's class patched
    "pd.api.extensions.register_dataframe_accessor('geo')(object)\ndf.geo",   # ...or extended
    "exec('q = 1')\nprint(q)",                                       # the namespace by name
    "import antigravity_not_installed\nprint(q)",                    # a module's first import runs it
    "%store -r q\nprint(q)",                                         # a magic may define it
])
def test_a_crash_something_may_prevent_is_shown_and_not_certain(cell, ns):
    found = exact_check(cell, ns)
    assert found.certain == []
    assert all(f.severity == "error" for f in found.findings)


def test_findings_carry_their_exact_fixes(ns):
    (key,) = exact_check("df['bmii']", ns).findings
    assert key.message == "DataFrame has no column 'bmii'; did you mean 'bmi'?"
    (typo,) = exact_check("pritn(df)", ns).findings
    assert typo.message == "name 'pritn' is not defined; did you mean 'print'?"
    (syntax,) = exact_check("for x in df\n    pass", ns).findings
    assert syntax.kind == "syntax" and exact_check("for x in df\n    pass", ns).certain == []


def test_a_silenced_finding_is_neither_shown_nor_a_stop(ns):
    assert exact_check("df['bmii']  # codecheck: ignore[key]", ns).findings == []
    assert exact_check("df['bmii']", ns, ignore=("key",)).certain == []
    assert [f.kind for f in exact_check("df['bmii']  # codecheck: ignore[call]", ns).certain] == ["key"]


def test_a_kernels_history_explains_what_no_cell_run_defined():
    history = NotebookCells(["a = 1", "del a"], [False, False], history=True)
    assert undefined_reason("a", history) == "the cell run just before deletes it (del a)"
    assert undefined_reason("later", history) == "no cell run in this kernel defines it"
    starred = NotebookCells(["from helpers import *"], [True], history=True)
    assert undefined_reason("later", starred) is None          # it may have, had it worked
    facts = analyse("print(pritn, later)", None, {})
    assert undefined_reasons(facts, [], history=["a = 1"]) == {"later": "no cell run in this kernel defines it"}
    # a notebook's cells without a kernel: their order, and only what a later cell says
    assert undefined_reason("later", NotebookCells(["a = 1"], [False])) is None
