"""`facts_for` (facts/notebook_facts.py), the one pipeline of a cell's facts: the kernel's facts,
the re-run's over them and the notebook's reasons for undefined names, as the model's check and
the exact check before a cell both read them. Real pandas objects; each fact held against the
cell raising."""
from __future__ import annotations

import io

import pandas as pd
import pytest

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import KernelFact, facts_for, kernel_state

pytestmark = pytest.mark.filterwarnings("ignore:The inplace keyword")       # pandas 3.1's deprecation
DROP = "df.drop(columns='b', inplace=True)\n"


def frame() -> pd.DataFrame:
    return pd.read_csv(io.StringIO("a,b\n1,2\n3,4\n"))


def test_live_objects_a_state_and_its_mapping_read_alike():
    ns = {"df": frame(), "pd": pd}
    cell = "total = df['bb'].sum()\nprint(later_name)\n"
    by_map = facts_for(cell, ns, later=["later_name = 1\n"])
    by_state = facts_for(cell, kernel_state(ns), later=["later_name = 1\n"])
    assert by_map.facts == by_state.facts and [f.kind for f in by_map.facts] == ["key"]
    assert by_map.read == tuple(by_map.facts)                  # read here, from the objects
    assert by_map.reasons == by_state.reasons and "later_name" in by_map.reasons
    with pytest.raises(KeyError):
        exec(cell, dict(ns))


def test_facts_given_are_kept_to_the_cells_lines_and_not_read_again():
    given = [KernelFact("key", 1, 6, 8, "given"), KernelFact("key", 9, 0, 1, "past the cell")]
    got = facts_for("x = df['bb']\n", kernel_state({"df": frame()}, facts=given))
    assert [f.message for f in got.facts] == ["given"] and got.read is None


def test_the_rerun_and_the_exact_check_agree():
    """The cell run again right after it ran: its first run dropped 'b' (the re-run's fact over
    the live frame's), in facts_for and in the exact check alike; pandas raises KeyError."""
    ns = {"df": frame()}
    exec(DROP, ns)
    got = facts_for(DROP, ns, history=[DROP])
    assert len(got.facts) == 1 and "'b'" in got.facts[0].message
    assert [f.message for f in exact_check(DROP, ns, history=[DROP]).facts] == [f.message for f in got.facts]
    with pytest.raises(KeyError):
        exec(DROP, ns)


def test_without_a_kernel_the_notebooks_imports_are_the_objects():
    got = facts_for("x = pd.read_csv('f.csv', seperator=',')\n", None, earlier=["import pandas as pd\n"])
    assert [f.kind for f in got.facts] == ["call"] and got.read is None
    assert facts_for("x = (\n", None).facts == []             # no parse: no kernel facts
