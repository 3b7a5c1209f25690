"""pandas' option patterns (facts/pandas_options.py): a claim exactly where pandas raises
OptionError, and the replacements offered run."""
from __future__ import annotations

import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts

CELLS = [
    "pd.set_option('max_columns', None)\n",                  # matches display. and styler.render.
    'pd.set_option("display.max_colunms", 5)\n',              # matches nothing
    "pd.set_option('display.max_columns', None)\n",
    "pd.set_option('display.max_column', None)\n",            # a pattern: one option matches
    "pd.set_option('display.max_rows', 10, 'precision', 3)\n",
    "with pd.option_context('display.max_rows', 5):\n    pass\n",
    "with pd.option_context('display.width', 5, 'max_rows', 3):\n    pass\n",
    "pd.get_option('max_rows')\n",
    "pd.get_option('display.precision')\n",
]


@pytest.fixture
def options_kept():
    before = {k: pd.get_option(k) for k in ("display.max_columns", "display.max_rows", "display.width",
                                            "display.precision")}
    yield
    for k, v in before.items():
        pd.set_option(k, v)


@pytest.mark.parametrize("cell", CELLS)
def test_a_pattern_is_a_claim_exactly_when_pandas_raises_and_its_fixes_run(cell, options_kept):
    got = kernel_facts(cell, {"pd": pd})
    try:
        exec(cell, {"pd": pd})
        raised = None
    except pd.errors.OptionError as e:
        raised = e
    assert bool(got) == (raised is not None), (got, raised)
    if not got:
        return
    (fact,) = got
    assert fact.kind == "value" and fact.message.endswith(": OptionError") and fact.candidates
    line = cell.splitlines()[fact.line - 1]
    for fix in fact.candidates:
        start = line.index(fix[0], fact.column)
        end = line.index(fix[0], start + 1) + 1
        fixed = cell.replace(line, line[:start] + fix + line[end:])
        exec(fixed, {"pd": pd})                                  # each replacement runs
        assert kernel_facts(fixed, {"pd": pd}) == []


def test_a_pattern_the_cell_does_not_write_is_not_read():
    assert kernel_facts("p = 'max_rows'\npd.set_option(p, 3)\n", {"pd": pd}) == []
    assert kernel_facts("pd.set_option(*['max_rows', 3])\n", {"pd": pd}) == []


def test_a_bad_pattern_stops_the_cell_only_where_nothing_of_the_users_runs_first():
    from jupyter_codecheck.core.exact_findings import exact_check

    def setup():            # a function of the user's could register the option first
        pass

    cell = "pd.set_option('max_columns', None)\n"
    assert [f.line for f in exact_check(cell, {"pd": pd}).certain] == [1]
    assert [f.line for f in exact_check("import pandas as pd\n" + cell, {}).certain] == [2]
    later = exact_check("setup()\n" + cell, {"pd": pd, "setup": setup})
    assert [f.line for f in later.findings] == [2] and later.certain == []
    branch = exact_check("if wide:\n    " + cell, {"pd": pd, "wide": True})
    assert branch.certain == []
